"""Regression tests: each input here once escaped as a Python exception, a hang, a multi-line
message or an infinite ratio. Each is now one ScenarioError naming the file and the key."""

from __future__ import annotations

import os
import time
import warnings

import pytest
import yaml
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import Scenario, ScenarioError, load_scenario


def write(tmp_path, text: str, name: str = "scenario.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def base_text(**changes) -> str:
    return yaml.safe_dump(with_changes(base_scenario_dict(), changes), sort_keys=False)


@pytest.mark.parametrize(
    "key, value",
    [
        ("award.first_credit_year", 10**400),
        ("award.eligibility_period_years", 10**400),
        ("commitment.extended_years", 10**400),
        ("commitment.extended_years", 1001),
    ],
)
def test_a_whole_number_too_large_for_a_float_is_an_error_not_an_overflow(key, value):
    # Was: OverflowError 'int too large to convert to float' from the model.
    with pytest.raises(ScenarioError) as caught:
        netbenefit.evaluate(Scenario.from_dict(with_changes(base_scenario_dict(), {key: value})))
    assert caught.value.key == key


def test_a_huge_year_key_or_start_year_is_an_error_naming_it():
    data = with_changes(base_scenario_dict(), {"capital_investment": {10**400: 1.0}})
    with pytest.raises(ScenarioError, match="year keys must be whole numbers >= 0 and <= 1000"):
        Scenario.from_dict(data)
    phase = {"name": "p", "start_year": 10**400, "jobs": {"new": 1, "nj_withholding_share": 1.0},
             "award": {"annual_credit": 1.0}}  # fmt: skip
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(with_changes(base_scenario_dict(), {"phases": [phase]}))
    assert caught.value.key == "phases.0.start_year"


@pytest.mark.parametrize(
    "line",
    [
        "application_date: 2026-13-45",  # was ValueError: month must be in 1..12
        "application_date: !!timestamp soon",  # was AttributeError from the constructor
        "discount_rate: !!float five",  # was ValueError
        "discount_rate: !!int five",  # was ValueError
    ],
)
def test_a_value_the_yaml_constructor_cannot_build_is_not_valid_yaml(tmp_path, line):
    key = line.split(":")[0]
    text = "\n".join(row if not row.startswith(f"{key}:") else line for row in base_text().splitlines())
    with pytest.raises(ScenarioError, match="not valid YAML: a value cannot be read"):
        load_scenario(write(tmp_path, text))


def test_a_quoted_key_with_a_newline_and_a_terminal_escape_gives_a_one_line_message(tmp_path):
    # Was: the key went into the message raw, splitting it over two lines.
    path = write(tmp_path, base_text() + '"dis\\ncount\\x1b[2J": 1\n')
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert message == f"{path}: dis\\ncount\\x1b[2J: unknown key; did you mean discount_rate?"
    assert message.isprintable()


@pytest.mark.parametrize("year", ["\u00b2", "9" * 5000, "\uff11\uff12", "1001"])
def test_a_csv_year_that_is_not_an_ascii_whole_number_up_to_1000_is_an_error(tmp_path, year):
    # Was: ValueError from int() for '²' (a digit to str.isdigit) and for 5,000 digits.
    (tmp_path / "stream.csv").write_text(f"year,amount\n{year},5\n", encoding="utf-8")
    text = base_text(streams=[{"name": "csv", "kind": "revenue", "from_csv": "stream.csv"}])
    with pytest.raises(ScenarioError, match="year must be a whole number from 0 to 1000") as caught:
        load_scenario(write(tmp_path, text))
    assert caught.value.key == "streams.0.from_csv"


def test_a_csv_that_is_a_link_to_dev_zero_is_refused_without_reading_it(tmp_path):
    # Was: read until memory ran out.
    os.symlink("/dev/zero", tmp_path / "zero.csv")
    text = base_text(streams=[{"name": "csv", "kind": "revenue", "from_csv": "zero.csv"}])
    with pytest.raises(ScenarioError, match="a link leading outside it"):  # refused before it is opened
        load_scenario(write(tmp_path, text))


@pytest.mark.parametrize("name", ["/dev/zero", "../outside.csv", "data/../../outside.csv"])
def test_a_csv_path_outside_the_scenario_folder_is_refused(tmp_path, name):
    (tmp_path / "outside.csv").write_text("year,amount\n1,5\n")
    (tmp_path / "inner").mkdir()
    text = base_text(streams=[{"name": "csv", "kind": "revenue", "from_csv": name}])
    with pytest.raises(ScenarioError, match="must be a path inside the scenario file's folder"):
        load_scenario(write(tmp_path / "inner", text))


def test_an_alias_bomb_is_refused_at_once(tmp_path):
    # Was: 44 s and gigabytes, building the repr of 9 ** 9 strings for the error message.
    lines = ["a0: &a0 [" + ", ".join(["lol"] * 9) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    path = write(tmp_path, "\n".join(lines) + "\nname: *a8\n")
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match="aliases expand to more than"):
        load_scenario(path)
    assert time.perf_counter() - start < 5.0  # was 44 s; generous for a loaded CI machine


def test_anchors_and_aliases_within_the_limit_still_load(tmp_path):
    text = base_text().replace("jobs:\n", "jobs: &jobs\n", 1) + "description: *jobs\n"
    with pytest.raises(ScenarioError) as caught:  # a mapping where text is expected: the alias resolved
        load_scenario(write(tmp_path, text))
    assert caught.value.key == "description"


def test_deep_nesting_is_refused_before_it_is_all_read(tmp_path):
    path = write(tmp_path, "name: " + "[" * 100_000 + "]" * 100_000 + "\n")
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match="nested more than 50 levels deep"):
        load_scenario(path)
    assert time.perf_counter() - start < 5.0  # generous for a loaded CI machine


def test_an_overflow_is_one_error_and_no_numpy_warning():
    # Was: RuntimeWarning lines on stderr before the error.
    data = with_changes(
        base_scenario_dict(),
        {"discount_rate": -0.9999999, "commitment": {"period_years": 50, "period_set_by_authority": True}},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ScenarioError, match="overflow"):
            netbenefit.evaluate(Scenario.from_dict(data))
