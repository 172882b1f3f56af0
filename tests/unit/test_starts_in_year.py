"""A phase may say ``starts_in_year: 3`` (its first year is project year 3), which is
``start_year: 2``; giving both is an error; ``to_yaml`` writes ``start_year``."""

from pathlib import Path

import pytest

import netbenefit
from netbenefit.errors import ScenarioError

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture
def data():
    data = netbenefit.load_scenario(SCENARIOS / "phased_campus.yaml").as_written
    assert data["phases"][0]["start_year"] == 3
    return data


def test_starts_in_year_is_start_year_plus_one(data):
    phase = data["phases"][0]
    del phase["start_year"]
    phase["starts_in_year"] = 4
    plain = netbenefit.Scenario.from_dict(data, source="x.yaml")
    original = netbenefit.load_scenario(SCENARIOS / "phased_campus.yaml")
    assert plain.phases[0].start_year == 3
    assert netbenefit.evaluate(plain).ratio == netbenefit.evaluate(original).ratio
    text = plain.to_yaml()
    assert "start_year: 3" in text and "starts_in_year" not in text


@pytest.mark.parametrize("year, start", [(1, 0), (2, 1)])
def test_the_first_years(data, year, start):
    phase = data["phases"][0]
    del phase["start_year"]
    phase["starts_in_year"] = year
    assert netbenefit.Scenario.from_dict(data, source="x.yaml").phases[0].start_year == start


def test_both_keys_is_an_error_naming_the_phase(data):
    data["phases"][0]["starts_in_year"] = 4
    expected = r"x.yaml: phases.0.starts_in_year: give start_year or starts_in_year, not both"
    with pytest.raises(ScenarioError, match=expected):
        netbenefit.Scenario.from_dict(data, source="x.yaml")


@pytest.mark.parametrize("year", [0, -1, 2.5, True, "3", 1001])
def test_a_starts_in_year_that_is_not_a_year_is_refused(data, year):
    phase = data["phases"][0]
    del phase["start_year"]
    phase["starts_in_year"] = year
    with pytest.raises(ScenarioError, match="phases.0.starts_in_year: must be a whole number from 1 to 1000") as caught:
        netbenefit.Scenario.from_dict(data, source="x.yaml")
    assert caught.value.key == "phases.0.starts_in_year"
