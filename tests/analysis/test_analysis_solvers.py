"""Solvers at hand-checkable cases, and in their no-solution cases."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.analysis import (
    break_even_discount_rate,
    implied_discount_rate,
    max_award,
    min_new_jobs,
)

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def load(name: str) -> netbenefit.Scenario:
    return netbenefit.load_scenario(SCENARIOS / f"{name}.yaml")


def annuity(rate: float, first: int, years: int) -> float:
    return sum((1 + rate) ** -t for t in range(first, first + years))


# -- max_award --------------------------------------------------------------------------------


def test_max_annual_credit_is_benefits_over_threshold_over_the_annuity():
    scenario = load("office_hq_default_area")
    result = max_award(scenario)
    # PV credits = a x sum_{t=1..7} 1.06^-t, benefits do not depend on a: a* = B / (4 x annuity).
    benefits = netbenefit.evaluate(scenario).pv_benefits
    expected = benefits / (4.0 * annuity(0.06, 1, 7))
    assert result.solved and result.status == "solved"
    assert result.value == pytest.approx(expected, rel=1e-12)
    at = netbenefit.evaluate(scenario.replace({"award.annual_credit": result.value}))
    assert at.passes and at.ratio == pytest.approx(4.0, rel=1e-9)
    assert not netbenefit.evaluate(scenario.replace({"award.annual_credit": result.value * 1.0001})).passes


def test_max_award_per_new_job():
    scenario = load("small_business")  # 12 new jobs, $3,500 each, enhanced area: 300%
    result = max_award(scenario)
    assert result.details["key"] == "award.per_new_job"
    benefits = netbenefit.evaluate(scenario).pv_benefits
    assert result.value == pytest.approx(benefits / (3.0 * 12 * annuity(0.06, 1, 7)), rel=1e-12)
    assert netbenefit.evaluate(scenario.replace({"award.per_new_job": result.value})).passes


def test_max_award_of_a_phased_project_binds_on_the_cumulative_test():
    scenario = load("phased_campus")
    result = max_award(scenario)
    assert result.solved and result.details["binding_test"] == 2
    assert netbenefit.evaluate(scenario.replace({"award.annual_credit": result.value})).passes


def test_max_award_without_solution():
    # Phase 2 alone asks for so much that phases 1+2 fail even with no credit for phase 1.
    scenario = load("phased_campus").replace({"phases.0.award.annual_credit": 5_000_000.0})
    result = max_award(scenario)
    assert not result.solved and result.value is None
    assert "fails even at 0" in result.message


def test_max_award_for_a_key_that_does_not_move_the_credits():
    # The 10 retained jobs' per-job award counts only when 71(c) makes them eligible; here it
    # does not (no retained jobs), so no value of it is the largest.
    scenario = load("small_business").replace({"award.per_retained_job": 100.0})
    result = max_award(scenario, "award.per_retained_job")
    assert not result.solved and "does not change" in result.message


def test_max_award_rejects_other_keys():
    with pytest.raises(ScenarioError):
        max_award(load("office_hq_default_area"), "jobs.new")


# -- break_even_discount_rate -----------------------------------------------------------------


def test_break_even_rate_of_party_city():
    # One benefit amount in year 1 (B1 / (1 + r)) against 7 level credits: the ratio rises with
    # the rate, so the test passes above the break-even rate.
    scenario = load("party_city")
    result = break_even_discount_rate(scenario)
    r = result.value
    ratio = 38_592_745.92 / (1 + r) / (1_428_000 * annuity(r, 1, 7))
    assert result.solved and ratio == pytest.approx(4.0, rel=1e-9)
    assert result.details["passes_side"] == "above"
    assert netbenefit.evaluate(scenario.replace({"discount_rate": r})).ratio == pytest.approx(4.0, rel=1e-9)


def test_break_even_rate_of_the_office_falls_with_the_rate():
    scenario = load("office_hq_default_area")
    result = break_even_discount_rate(scenario)
    assert result.solved and result.details["passes_side"] == "below"
    assert scenario.discount_rate < result.value
    assert netbenefit.evaluate(scenario.replace({"discount_rate": result.value})).ratio == pytest.approx(4.0, rel=1e-9)


def test_no_break_even_rate_when_the_test_always_passes():
    result = break_even_discount_rate(load("retained_jobs_71c1e"))
    assert not result.solved and result.value is None
    assert "passes at every rate" in result.message


def test_no_break_even_rate_when_the_test_always_fails():
    # Party City's ratio rises with the rate, to about 13.6 at a rate of 100%: below 50 throughout.
    result = break_even_discount_rate(load("party_city").replace({"threshold_override": 50.0}))
    assert not result.solved and "fails at every rate" in result.message


# -- min_new_jobs -----------------------------------------------------------------------------


def test_min_new_jobs_of_the_office():
    scenario = load("office_hq_default_area")
    result = min_new_jobs(scenario)
    jobs = result.value
    assert result.solved and jobs == int(jobs) and jobs >= 35  # 71(c)(1)(c): at least 35
    at = netbenefit.evaluate(scenario.replace({"jobs.new": jobs}))
    below = netbenefit.evaluate(scenario.replace({"jobs.new": jobs - 1}))
    assert at.passes and at.check("71(a)(2)")
    assert not (below.passes and below.check("71(a)(2)"))


def test_min_new_jobs_is_the_job_minimum_when_the_test_is_easy():
    # Party City's benefits are one fixed stream: the ratio does not depend on the jobs, so the
    # answer is the 35 new jobs of 71(c)(1)(c).
    result = min_new_jobs(load("party_city"))
    assert result.value == 35.0


def test_min_new_jobs_without_solution():
    result = min_new_jobs(load("office_hq_default_area"), max_jobs=30)
    assert not result.solved and "job minimum" in result.message
    result = min_new_jobs(load("office_hq_default_area").replace({"threshold_override": 1000.0}), max_jobs=2_000)
    assert not result.solved and "below the threshold" in result.message


# -- implied_discount_rate --------------------------------------------------------------------


def test_party_city_implied_rates():
    # $1,428,000 a year for 7 years with a PV of $7.4 million: about 8.1% with credits in years
    # 1..7 (end of year), about 6.4% with a one-year lag (years 2..8).
    plain = implied_discount_rate(1_428_000, 7, 7_400_000)
    lagged = implied_discount_rate(1_428_000, 7, 7_400_000, first_year=2)
    assert plain.value == pytest.approx(0.0814, abs=5e-4)
    assert lagged.value == pytest.approx(0.0636, abs=5e-4)
    assert 1_428_000 * annuity(plain.value, 1, 7) == pytest.approx(7_400_000, rel=1e-9)
    assert 1_428_000 * annuity(lagged.value, 2, 7) == pytest.approx(7_400_000, rel=1e-9)


def test_implied_rate_is_zero_when_the_pv_is_the_nominal_total():
    assert implied_discount_rate(100.0, 5, 500.0).value == pytest.approx(0.0, abs=1e-10)


def test_implied_rate_mid_year():
    result = implied_discount_rate(100.0, 3, 250.0, timing="mid_year")
    r = result.value
    assert sum(100 * (1 + r) ** -(t - 0.5) for t in (1, 2, 3)) == pytest.approx(250.0, rel=1e-9)


def test_implied_rate_without_solution():
    result = implied_discount_rate(1_428_000, 7, 1.0)  # far below the PV at a rate of 100%
    assert not result.solved and result.value is None and "no discount rate" in result.message
    with pytest.raises(ValueError):
        implied_discount_rate(-1.0, 7, 100.0)
    assert np.isfinite(result.details["pv_at_high"])
