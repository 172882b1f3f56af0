"""Solvers: several award keys moving together (one common value), roots by scipy's brentq with
undefined ratios guarded, and numpy-financial's irr and rate cross-checked against the solvers."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import pytest

import netbenefit
from netbenefit.analysis import break_even_discount_rate, implied_discount_rate, max_award
from netbenefit.analysis.rates import _root
from netbenefit.errors import ScenarioError

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
BOTH_PHASES = ["award.annual_credit", "phases.0.award.annual_credit"]


@pytest.fixture(scope="module")
def phased():
    return netbenefit.load_scenario(SCENARIOS / "phased_campus.yaml")


def _passes(scenario, keys, value) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return netbenefit.evaluate(scenario.replace(dict.fromkeys(keys, value))).passes


def test_a_common_award_of_every_phase_is_the_largest_that_passes(phased):
    answer = max_award(phased, keys=BOTH_PHASES)
    assert answer.solved and answer.details["keys"] == BOTH_PHASES
    assert "largest common value of award.annual_credit + phases.0.award.annual_credit" in answer.message
    assert _passes(phased, BOTH_PHASES, answer.value)
    # Here the section 75 maximum binds before the test: the smaller phase's credit-eligible jobs x
    # the maximum per job; the net benefit test alone stops at its own bound.
    assert answer.details["section_75_maximum_binds"] and answer.value < answer.details["net_benefit_bound"]
    bound = answer.details["net_benefit_bound"]
    assert _passes(phased, BOTH_PHASES, bound)
    assert not _passes(phased, BOTH_PHASES, bound * (1 + 1e-6))
    # one key alone reaches further: the other phase keeps its own award
    assert max_award(phased, keys=BOTH_PHASES[:1]).value > answer.value


def test_one_key_in_keys_is_the_same_as_key(phased):
    assert max_award(phased, keys=["award.annual_credit"]).value == max_award(phased, "award.annual_credit").value


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"key": "award.annual_credit", "keys": BOTH_PHASES}, "not both"),
        ({"keys": []}, "non-empty"),
        ({"keys": ["award.annual_credit", "jobs.new"]}, "award key"),
    ],
)
def test_bad_keys_name_the_problem(phased, kwargs, words):
    with pytest.raises(ScenarioError, match=words):
        max_award(phased, **kwargs)


@pytest.mark.parametrize("stem", ["party_city", "office_hq_default_area", "extended_commitment", "small_business"])
def test_break_even_rate_is_numpy_financials_irr(stem):
    answer = break_even_discount_rate(netbenefit.load_scenario(SCENARIOS / f"{stem}.yaml"))
    assert answer.solved
    assert answer.details["irr"] == pytest.approx(answer.value, abs=1e-9)


def test_implied_rate_is_numpy_financials_rate():
    answer = implied_discount_rate(1_428_000, 7, 7_400_000)
    assert answer.details["npf_rate"] == pytest.approx(answer.value, abs=1e-10)


def test_roots_come_from_brentq(monkeypatch):
    import scipy.optimize

    calls = []
    real = scipy.optimize.brentq

    def counting(*args, **kwargs):
        calls.append(args[1:3])
        return real(*args, **kwargs)

    monkeypatch.setattr(scipy.optimize, "brentq", counting)
    answer = break_even_discount_rate(netbenefit.load_scenario(SCENARIOS / "party_city.yaml"))
    assert calls and answer.solved


def test_an_undefined_ratio_inside_a_bracket_gives_no_root():
    assert _root(lambda x: math.nan if 0.4 < x < 0.6 else x - 0.5, 0.0, 1.0) is None
    assert _root(lambda x: x - 0.25, 0.0, 1.0) == pytest.approx(0.25, abs=1e-12)
