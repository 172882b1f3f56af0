"""The Python API held to the file's rules: every wrong argument is a ScenarioError naming what is
wrong (never a TypeError, a ValueError of the system or an AttributeError), and what a file could
hold is accepted in the kinds Python gives it (a numpy array, a read-only mapping, a numpy integer)."""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
PARTY = ROOT / "scenarios" / "party_city.yaml"

PATHS = {"a NUL": "a\x00b.yaml", "a lone surrogate": "a\ud800b.yaml", "an undecodable byte": "a\udc80b.yaml"}
READERS = {
    "evaluate": netbenefit.evaluate,
    "load_scenario": netbenefit.load_scenario,
    "portfolio of one path": lambda path: netbenefit.portfolio(path),
    "portfolio of a list": lambda path: netbenefit.portfolio([path]),
    "sweep": lambda path: netbenefit.sweep(path, {"jobs.new": [1, 2]}),
    "montecarlo": lambda path: netbenefit.montecarlo(path, draws=5, vary={"jobs.new": ("uniform", 1, 2)}),
}


@pytest.mark.parametrize("path", list(PATHS), ids=list(PATHS))
@pytest.mark.parametrize("reader", list(READERS), ids=list(READERS))
def test_a_path_no_file_can_have_is_a_scenario_error(reader, path):
    with pytest.raises(ScenarioError) as caught:
        READERS[reader](PATHS[path])
    assert "\n" not in str(caught.value)


@pytest.fixture(scope="module")
def scenario():
    return netbenefit.load_scenario(PARTY)


def test_replace_with_a_key_that_is_not_text_names_it(scenario):
    with pytest.raises(ScenarioError) as caught:
        scenario.replace({5: 5})
    assert caught.value.key == "5"


def test_a_numpy_array_for_a_list_is_the_list_it_holds(scenario):
    ramp = scenario.to_dict()["jobs"].get("ramp") or [0.5, 1.0]
    variant = scenario.replace({"jobs.ramp": np.array(ramp, dtype=float)})
    assert list(variant.jobs.ramp) == pytest.approx(list(ramp))
    assert scenario.replace({"jobs.new": np.int64(7)}).jobs.new == 7


def test_from_dict_takes_a_read_only_mapping(scenario):
    copy = Scenario.from_dict(types.MappingProxyType(scenario.to_dict()))
    assert copy.to_dict() == scenario.to_dict()


@pytest.mark.parametrize("given", [{"a": 1}, 5, None, [5]], ids=["a mapping", "a number", "None", "a list of a number"])
def test_portfolio_of_what_is_not_a_file_says_so(given):
    with pytest.raises(ScenarioError, match="not a file"):
        netbenefit.portfolio(given)


@pytest.mark.parametrize("function", ["sweep", "montecarlo"])
def test_an_analysis_of_a_path_runs_it_and_of_anything_else_says_a_scenario_is_expected(function):
    run = {
        "sweep": lambda s: netbenefit.sweep(s, {"jobs.new": [100, 200]}),
        "montecarlo": lambda s: netbenefit.montecarlo(s, draws=20, vary={"jobs.new": ("uniform", 100, 200)}, seed=1),
    }[function]
    assert run(str(PARTY)) is not None
    with pytest.raises(ScenarioError, match="expected a Scenario"):
        run({"name": "x"})


@pytest.mark.parametrize("cap", [10**400, 1.797e308, float("inf"), -1.0, "1e9", True])
def test_a_cap_beyond_any_sum_is_refused_naming_it(cap):
    from netbenefit.analysis.portfolio.book import check_cap

    with pytest.raises(ScenarioError) as caught:
        check_cap(cap)
    assert caught.value.source == "--cap"


class _Text:
    def __init__(self):
        self.value = ""


@pytest.mark.parametrize(
    "where",
    ["missing/folder/x.yaml", "a\x00b.yaml", "a\ud800.yaml", "."],
    ids=["missing folders", "NUL", "surrogate", "a folder"],
)
def test_the_explorer_s_export_of_a_bad_path_says_so_and_makes_no_folder(tmp_path, monkeypatch, scenario, where):
    from netbenefit.views.explore import Explorer

    monkeypatch.chdir(tmp_path)
    explorer = Explorer.__new__(Explorer)  # the button's callback alone: no widget needed
    explorer.status = _Text()
    explorer.path = _Text()
    explorer.path.value = where
    explorer.variant = scenario
    assert explorer.export() is None
    assert "cannot write" in explorer.status.value
    assert not (tmp_path / "missing").exists()
