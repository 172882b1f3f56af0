"""``Scenario.to_yaml`` round trips from any folder (netbenefit.model.round_trip): a scenario written to
another folder loads back equal (``==``: provenance such as ``from_csv`` and the table's name out of
equality) and evaluates to the same ratio; every bundled scenario and generated ones, with and
without a multiplier table."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties.scenario_strategies import scenario_dicts

import netbenefit
from netbenefit.model.scenario import Scenario, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TABLE = SCENARIOS / "data" / "multipliers_example.csv"


def bundled() -> list[Path]:
    paths = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        try:
            load_scenario(path)
        except netbenefit.ScenarioError:
            continue  # not a scenario file
        paths.append(path)
    return paths


@pytest.mark.filterwarnings("ignore::netbenefit.PlausibilityWarning")
@pytest.mark.parametrize("path", bundled(), ids=lambda p: p.stem)
def test_every_bundled_scenario_written_to_another_folder_loads_back_equal(tmp_path, path):
    # Was: a scenario with a multiplier table could not be loaded from another folder, and one
    # with CSV streams loaded back unequal (from_csv compared) although diff called them the same.
    scenario = load_scenario(path)
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)  # the folder of a file is not made (as pandas' writers do not)
    loaded = load_scenario(scenario.to_yaml(elsewhere / path.name))
    assert loaded == scenario and hash(loaded) == hash(scenario)
    assert netbenefit.evaluate(loaded).ratio == netbenefit.evaluate(scenario).ratio
    text_loaded = Scenario.from_dict(__import__("yaml").safe_load(scenario.to_yaml()), base_dir=tmp_path)
    assert text_loaded == scenario


def test_a_table_inside_the_target_folder_is_named_relative_to_it(tmp_path):
    shutil.copytree(SCENARIOS, tmp_path / "scenarios")
    scenario = load_scenario(tmp_path / "scenarios" / "industry_multipliers_example.yaml")
    written = scenario.to_yaml(tmp_path / "scenarios" / "data" / "copy.yaml")
    assert "multiplier_table: multipliers_example.csv" in written.read_text(encoding="utf-8")
    assert load_scenario(written) == scenario
    (tmp_path / "elsewhere").mkdir()
    written = scenario.to_yaml(tmp_path / "elsewhere" / "copy.yaml")  # the table is not inside: inline
    text = written.read_text(encoding="utf-8")
    assert "multiplier_table: null" in text and "written inline" in text
    assert load_scenario(written) == scenario


@st.composite
def with_or_without_table(draw):
    data = draw(scenario_dicts())
    if data.get("revenue") is not None and draw(st.booleans()):
        data["business"] = {**(data.get("business") or {}), "naics": draw(st.sampled_from(["523", "541"]))}
        revenue = {
            k: v for k, v in data["revenue"].items() if k not in ("earnings_multiplier", "employment_multiplier")
        }
        revenue.pop("construction_earnings_multiplier", None)
        data["revenue"] = {**revenue, "multiplier_table": "data/table.csv"}
    return data


@settings(max_examples=40)
@given(with_or_without_table())
def test_generated_scenarios_written_to_another_folder_load_back_equal(tmp_path_factory, data):
    home = tmp_path_factory.mktemp("home")
    (home / "data").mkdir()
    shutil.copy(TABLE, home / "data" / "table.csv")
    scenario = Scenario.from_dict(data, base_dir=home)
    loaded = load_scenario(scenario.to_yaml(tmp_path_factory.mktemp("elsewhere") / "s.yaml"))
    assert loaded == scenario
    assert netbenefit.evaluate(loaded).ratio == netbenefit.evaluate(scenario).ratio
