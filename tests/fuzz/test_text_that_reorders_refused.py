"""The text rule covers what reorders text: a bidirectional override or isolate (U+202A-U+202E,
U+2066-U+2069) is refused, as a control character is, in every file the tool reads: every text
key of a scenario file, the name of an actual-results file, the name and description of a
portfolio file, the paths a file names and the source column of a multiplier table. A name holding
U+202E reads backwards from there in a terminal, a page and a workbook."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from fuzz.test_hostile_text import SCENARIO_TEXT_KEYS, scenario_with
from support import base_scenario_dict

from netbenefit import ScenarioError, load_scenario
from netbenefit.analysis.portfolio.portfolio_file import load_portfolio_file
from netbenefit.io.text_rule import BIDI_CONTROLS, refused_character
from netbenefit.model.after_approval.actuals import Actuals, load_actuals
from netbenefit.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
REORDERING = sorted(BIDI_CONTROLS)
IDS = [f"U+{ord(char):04X}" for char in REORDERING]


def test_the_characters_refused_are_the_overrides_and_isolates():
    assert [ord(char) for char in REORDERING] == [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
    # Their neighbours stay allowed: a narrow no-break space, a word joiner, the marks LRM and RLM
    # (which reorder nothing after them: they only give a direction to neutral characters).
    assert all(refused_character(f"a{chr(code)}b") is None for code in (0x2029 - 1, 0x202F, 0x2060, 0x200E, 0x200F))


@pytest.mark.parametrize("char", REORDERING, ids=IDS)
@pytest.mark.parametrize("key", SCENARIO_TEXT_KEYS)
def test_every_text_key_of_a_scenario_refuses_it(key, char):
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(scenario_with(key, f"Party{char}City"))
    assert caught.value.key == key, caught.value
    problem = caught.value.problem
    assert "bidirectional override" in problem or "should match pattern" in problem  # business.naics: digits


def test_a_name_holding_u202e_in_a_scenario_file_is_one_line_naming_the_key(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump({**base_scenario_dict(), "name": "Party \u202eytiC"}), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value).startswith(
        f"{path}: name: must not hold a bidirectional override or isolate (found \\u202e), "
        "which reorders the text a reader sees"
    )
    assert "\u202e" not in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("char", REORDERING, ids=IDS)
def test_the_name_of_an_actual_results_file_refuses_it(tmp_path, char):
    data = {"workforce_before_approval": 100, "years": [{"year": 1, "new_jobs": 1, "statewide_workforce": 101}]}
    with pytest.raises(ScenarioError) as caught:
        Actuals.from_dict({**data, "name": f"Office{char}HQ"})
    assert caught.value.key == "name"
    path = tmp_path / "actuals.yaml"
    path.write_text(yaml.safe_dump({**data, "name": f"Office{char}HQ"}), encoding="utf-8")
    with pytest.raises(ScenarioError, match="bidirectional override") as caught:
        load_actuals(path)
    assert caught.value.key == "name" and "\n" not in str(caught.value)


@pytest.fixture
def portfolio_folder(tmp_path):
    first = "01_harborview_analytics.yaml"
    shutil.copy(ROOT / "scenarios" / "portfolio" / first, tmp_path / first)
    return tmp_path, first


@pytest.mark.parametrize("key", ["name", "description", "applications.0.file"])
def test_a_portfolio_file_refuses_it_in_its_name_description_and_paths(portfolio_folder, key):
    folder, first = portfolio_folder
    data = {"name": "Book", "description": "Some words", "applications": [{"file": first}]}
    if key == "applications.0.file":
        data["applications"][0]["file"] = f"\u202e{first}"
    else:
        data[key] = "Book \u2067one\u2069"
    (folder / "p.yml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ScenarioError, match="bidirectional override") as caught:
        load_portfolio_file(folder / "p.yml")
    assert caught.value.key == key and "\n" not in str(caught.value)


@pytest.mark.parametrize("key", ["streams.0.from_csv", "revenue.multiplier_table"])
def test_a_path_a_scenario_names_refuses_it(tmp_path, key):
    data = yaml.safe_load((ROOT / "scenarios" / "industry_multipliers_example.yaml").read_text(encoding="utf-8"))
    shutil.copytree(ROOT / "scenarios" / "data", tmp_path / "data")
    if key == "revenue.multiplier_table":
        data["revenue"]["multiplier_table"] = "data/multipliers\u202eexample.csv"
    else:
        data["streams"] = [{"name": "s", "kind": "revenue", "from_csv": "data/\u202dimplan_state_taxes.csv"}]
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ScenarioError, match="bidirectional override") as caught:
        load_scenario(path)
    assert caught.value.key == key


def test_the_source_column_of_a_multiplier_table_refuses_it(tmp_path):
    data = yaml.safe_load((ROOT / "scenarios" / "industry_multipliers_example.yaml").read_text(encoding="utf-8"))
    data["revenue"]["multiplier_table"] = "table.csv"
    header = "naics,earnings_multiplier,employment_multiplier,construction_earnings_multiplier,source"
    naics = data["business"]["naics"]
    (tmp_path / "table.csv").write_text(f"{header}\n{naics},1.5,2,1.5,RIMS \u202eII\n", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ScenarioError, match="bidirectional override") as caught:
        load_scenario(path)
    assert caught.value.key == "revenue.multiplier_table"


def test_the_ranges_the_schema_is_written_from_are_the_characters_the_rule_refuses():
    from netbenefit.io.text_rule import REFUSED_RANGES

    ranged = {code for first, last in REFUSED_RANGES for code in range(first, last + 1)}
    refused = {code for code in range(0x110000) if refused_character(chr(code)) is not None}
    assert refused == ranged
