"""``Scenario.to_yaml`` writes a scenario file that loads back to an equal scenario."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from properties.scenario_strategies import scenario_dicts

import netbenefit
from netbenefit.model.scenario import Scenario, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@settings(max_examples=60)
@given(scenario_dicts())
def test_to_yaml_loads_back_to_an_equal_scenario(tmp_path_factory, data):
    scenario = Scenario.from_dict(data)
    path = scenario.to_yaml(tmp_path_factory.mktemp("yaml") / "scenario.yaml")
    loaded = load_scenario(path)
    assert loaded.to_dict() == scenario.to_dict()
    for field in Scenario.model_fields:  # every field, as the model compares them (not the source file)
        assert getattr(loaded, field) == getattr(scenario, field), field


def test_streams_read_from_csv_are_written_inline_and_say_so(tmp_path):
    scenario = load_scenario(SCENARIOS / "imported_streams_csv.yaml")
    text = scenario.to_yaml()
    assert "written with their values inline (by_year)" in text and "from_csv: data/" in text.split("\nname:")[0]
    assert "\nfrom_csv" not in text.split("\nname:")[1]  # no live from_csv key: the values are inline
    loaded = load_scenario(scenario.to_yaml(tmp_path / "copy.yaml"))  # a folder without the CSV files
    assert loaded.to_dict() == scenario.to_dict()
    assert netbenefit.evaluate(loaded).ratio == netbenefit.evaluate(scenario).ratio


def test_every_bundled_scenario_round_trips(tmp_path):
    # A multiplier table outside the target folder is written inline (netbenefit.model.round_trip), so no
    # file needs to go along; equality compares the multipliers, not the table's name.
    for path in sorted(SCENARIOS.glob("*.yaml")):
        try:
            scenario = load_scenario(path)
        except netbenefit.ScenarioError:
            continue  # not a scenario file (an award calculator input)
        loaded = load_scenario(scenario.to_yaml(tmp_path / path.name))
        assert loaded == scenario, path.name
