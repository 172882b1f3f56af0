"""Numerical edge cases of the net positive benefit test, 71(a)(5).

The base scenario (tests/support.py): credits of $100,000 a year in years 1..7, benefits of
$1,000,000 a year in years 1..11, commitment 1.5 x 7 = 10.5 years, discount rate 0. Each case
either evaluates to finite numbers or is a ScenarioError naming the key and the problem, never
inf, NaN or a numpy warning.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import Scenario, ScenarioError


def evaluate(**changes) -> netbenefit.Result:
    data = with_changes(base_scenario_dict(), {key.replace("__", "."): value for key, value in changes.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning (overflow, division by zero) fails the test
        warnings.simplefilter("ignore", netbenefit.PlausibilityWarning)  # extreme inputs are the point here
        return netbenefit.evaluate(Scenario.from_dict(data))


def error_of(**changes) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        evaluate(**changes)
    return caught.value


def assert_finite(result: netbenefit.Result) -> None:
    values = [result.ratio, result.pv_benefits, result.pv_credits, result.max_credit_pv, result.threshold]
    assert all(math.isfinite(v) for v in values), values
    assert np.isfinite(result.cashflows.select_dtypes("number").to_numpy(dtype=float)).all()
    assert np.isfinite(result.streams.select_dtypes("number").to_numpy(dtype=float)).all()


# ----------------------------------------------------------------------------------------------
# Zero present value of credits: the ratio benefits / credits is undefined
# ----------------------------------------------------------------------------------------------


def test_an_annual_credit_of_zero_is_an_error_on_the_award():
    error = error_of(award={"annual_credit": 0})
    assert error.key == "award"
    assert "requested tax credits of the initial phase are zero" in error.problem


def test_a_per_job_award_with_zero_new_jobs_is_an_error_on_the_award():
    # annual credit = per_new_job x new = 4,000 x 0 = 0
    error = error_of(jobs__new=0, award={"per_new_job": 4000})
    assert (error.key, "zero" in error.problem) == ("award", True)


def test_a_credit_too_small_for_a_finite_ratio_is_an_error_not_infinity():
    # PV credits = 7 x 1e-320 > 0, but 1,000,000 x 10.5 / 7e-320 overflows to inf.
    error = error_of(award={"annual_credit": 1e-320})
    assert error.key == "award" and "finite net benefit ratio" in error.problem


# ----------------------------------------------------------------------------------------------
# Discount rates near -1 and very large
# ----------------------------------------------------------------------------------------------


def test_a_rate_of_minus_0_999999_over_50_years_is_finite_or_a_clean_error():
    # (1 - 0.999999) ** -50 = 1e300: finite, so the PVs are huge but finite.
    try:
        result = evaluate(discount_rate=-0.999999, commitment={"period_years": 50, "period_set_by_authority": True})
    except ScenarioError as error:
        assert error.key == "discount_rate" and "overflow" in error.problem
    else:
        assert_finite(result)


def test_a_rate_of_minus_0_9999999_over_50_years_overflows_into_a_clean_error():
    # (1e-7) ** -50 = 1e350 > the largest float (1.8e308).
    error = error_of(discount_rate=-0.9999999, commitment={"period_years": 50, "period_set_by_authority": True})
    assert error.key == "discount_rate"
    assert "overflow" in error.problem and "-0.9999999" in error.problem


def test_a_rate_of_minus_one_or_less_is_refused_when_the_scenario_is_read():
    for rate in (-1.0, -1.5):
        with pytest.raises(ScenarioError) as caught:
            Scenario.from_dict(with_changes(base_scenario_dict(), {"discount_rate": rate}))
        assert caught.value.key == "discount_rate"


@pytest.mark.parametrize("rate", [1e6, 1e300])
def test_a_very_large_rate_leaves_only_year_1_and_a_finite_ratio(rate):
    # Every later year is discounted to (almost) nothing: ratio -> 1,000,000 / 100,000 = 10.
    result = evaluate(discount_rate=rate)
    assert_finite(result)
    assert result.pv_credits > 0
    assert result.ratio == pytest.approx(10.0, rel=1e-5)


# ----------------------------------------------------------------------------------------------
# Jobs: 0 or 1 full-time job
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("new_jobs", [0, 1])
def test_zero_or_one_new_job_evaluates_and_fails_the_job_minimum(new_jobs):
    result = evaluate(jobs__new=new_jobs)
    assert_finite(result)
    assert result.check("71(a)(2)") is False and result.jobs_clause is None


@pytest.mark.parametrize("new_jobs", [0, 1])
def test_zero_or_one_job_with_the_built_in_drivers_evaluates_to_finite_numbers(new_jobs):
    result = evaluate(
        jobs__new=new_jobs,
        jobs__median_salary=80000,
        revenue={"income_tax": "progressive", "taxable_spending_share": 0.3, "corporate_business_tax": 1000},
    )
    assert_finite(result)
    # With no job in place the business pays no CBT counted here: year 1 income tax is 0 too.
    if new_jobs == 0:
        assert result.cashflows["income_tax"].sum() == 0
        assert result.cashflows["corporation_business_tax"].sum() == 0


# ----------------------------------------------------------------------------------------------
# Horizons and fractional commitment periods
# ----------------------------------------------------------------------------------------------


def test_a_50_year_commitment_counts_benefits_over_50_years():
    streams = [{"name": "state taxes", "kind": "revenue", "by_year": {y: 1000000 for y in range(1, 61)}}]
    result = evaluate(commitment={"period_years": 50, "period_set_by_authority": True}, streams=streams)
    assert_finite(result)
    # 50 years x $1,000,000 at rate 0, over credits of 7 x $100,000: ratio 50,000,000 / 700,000
    assert result.ratio == pytest.approx(50_000_000 / 700_000)
    assert result.cashflows.loc[50, "weight"] == 1.0 and result.cashflows.loc[51, "weight"] == 0.0


def test_a_commitment_longer_than_the_model_runs_is_an_error_on_the_commitment():
    error = error_of(commitment={"period_years": 1001})
    assert error.key == "commitment" and "1,000" in error.problem


@pytest.mark.parametrize(
    "period, counted_years",
    [
        (10.5, 10.5),  # years 1..10 whole, year 11 half
        (0.25, 0.25),  # a quarter of year 1
        (7.75, 7.75),
    ],
)
def test_a_fractional_commitment_period_counts_that_fraction_of_its_last_year(period, counted_years):
    result = evaluate(commitment={"period_years": period, "period_set_by_authority": True})
    assert_finite(result)
    assert result.pv_benefits == pytest.approx(1_000_000 * counted_years)
    assert result.ratio == pytest.approx(1_000_000 * counted_years / 700_000)
    assert result.commitment_period_years == period


# ----------------------------------------------------------------------------------------------
# Phases that start after the initial phase's benefit window ends
# ----------------------------------------------------------------------------------------------


def test_a_phase_starting_after_the_first_window_ends_counts_in_its_own_window():
    # The initial window ends 10.5 years after approval; phase 2 starts 15 years after approval,
    # so its phase years 1..7 are project years 16..22, its window 15 .. 15 + 10.5 = 25.5.
    phase = {
        "name": "Late phase",
        "start_year": 15,
        "jobs": {"new": 10, "nj_withholding_share": 1.0},
        "award": {"annual_credit": 50000},
        "streams": [{"name": "late taxes", "kind": "revenue", "by_year": {1: 200000, 11: 200000, 12: 200000}}],
    }
    result = evaluate(phases=[phase])
    assert_finite(result)
    assert len(result.phase_tests) == 2
    cash = result.cashflows
    assert (cash.loc[:15, "weight_phase_2"] == 0).all() and cash.loc[16, "weight_phase_2"] == 1.0
    assert cash.loc[26, "weight_phase_2"] == 0.5 and cash.loc[27, "weight_phase_2"] == 0.0
    # benefits: 10.5 x 1,000,000 + 200,000 (phase year 1) + 0.5 x 200,000 (phase year 11) ; year 12 is outside
    assert result.pv_benefits == pytest.approx(10_500_000 + 200_000 + 100_000)
    # credits: 7 x 100,000 + 7 x 50,000
    assert result.pv_credits == pytest.approx(1_050_000)


def test_a_phase_starting_at_the_last_allowed_year_is_refused_for_its_horizon():
    phase = {"name": "Far", "start_year": 1000, "jobs": {"new": 1, "nj_withholding_share": 1.0},
             "award": {"annual_credit": 1}}  # fmt: skip
    error = error_of(phases=[phase])
    assert error.key == "commitment" and "1,000" in error.problem
