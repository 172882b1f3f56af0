"""The published Party City award (Woodcliff Lake, September 2021): the ratio arithmetic and the
discount rate it implies under each timing convention."""

from pathlib import Path

import numpy_financial as npf
import pytest

from netbenefit import evaluate, load_scenario
from netbenefit.law.finance import present_value

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "party_city.yaml"

NEW_JOBS = 357
ANNUAL_CREDIT = 1_428_000  # $4,000 x 357 jobs
PUBLISHED_PV_BENEFITS = 35_734_024
PUBLISHED_PV_CREDITS = 7_400_000  # "about $7.4 million"
PUBLISHED_RATIO = 4.81  # 481%


def implied_rate(pv, flows, timing="end_of_year"):
    """The discount rate at which ``flows`` (years 1, 2, ...) have present value ``pv``, by bisection."""
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = (low + high) / 2
        if present_value(flows, middle, timing=timing) > pv:
            low = middle
        else:
            high = middle
    return middle


def test_award_arithmetic():
    assert 4_000 * NEW_JOBS == ANNUAL_CREDIT
    assert ANNUAL_CREDIT * 7 == 9_996_000
    # 35,734,024 / 7,400,000 = 4.83: the published 481% means a PV of credits of
    # 35,734,024 / 4.81 = 7,429,111, "about $7.4 million".
    assert PUBLISHED_PV_BENEFITS / PUBLISHED_RATIO == pytest.approx(7_429_111, abs=1)


def test_implied_discount_rate_end_of_year():
    # Level credits in years 1..7: PV 7,400,000 at about 8.1%. numpy-financial's annuity rate agrees.
    rate = implied_rate(PUBLISHED_PV_CREDITS, [ANNUAL_CREDIT] * 7)
    assert rate == pytest.approx(npf.rate(7, ANNUAL_CREDIT, -PUBLISHED_PV_CREDITS, 0), abs=1e-9)
    assert rate == pytest.approx(0.0814, abs=1e-4)


def test_implied_discount_rate_with_a_one_year_lag():
    # Credits in years 2..8: about 6.4%. The convention moves the implied rate by 1.8 points.
    rate = implied_rate(PUBLISHED_PV_CREDITS, [0] + [ANNUAL_CREDIT] * 7)
    assert rate == pytest.approx(0.0636, abs=1e-4)


def test_implied_discount_rate_mid_year():
    rate = implied_rate(PUBLISHED_PV_CREDITS, [ANNUAL_CREDIT] * 7, timing="mid_year")
    assert rate == pytest.approx(0.0948, abs=1e-4)


def test_bundled_scenario_reproduces_the_published_ratio():
    result = evaluate(load_scenario(SCENARIO))
    assert result.pv_benefits == pytest.approx(PUBLISHED_PV_BENEFITS, abs=0.01)
    # At 8.0%, PV credits = 1,428,000 x (1 - 1.08 ** -7) / 0.08 = 7,434,696
    assert result.pv_credits == pytest.approx(ANNUAL_CREDIT * (1 - 1.08**-7) / 0.08, rel=1e-12)
    assert round(result.ratio, 2) == PUBLISHED_RATIO
    assert (result.threshold, result.threshold_clause, result.passes, result.eligible) == (4.0, "71(a)(5)", True, True)
    assert result.jobs_clause == "71(c)(1)(c)"
    assert result.requested_credits == 9_996_000


ESTIMATE = SCENARIO.parent / "party_city_estimate.yaml"


def test_estimate_from_public_drivers_is_within_15_percent_of_the_published_481_percent():
    """The estimate from the published drivers (357 new and 338 at-risk retained jobs, $32 million,
    $1,428,000 a year for 7 years) under the default conventions, with the one unpublished driver,
    the median salary, stated in the file ($90,000 [convention]; the comparable Fiserv jobs of the
    same program and month "will average $100,000 a year"). Relative error within 15%: 409% to
    553%. A miss is reported, not tuned away: the notebook's calibration table says what closes it.
    """
    scenario = load_scenario(ESTIMATE)
    assert scenario.jobs.retained == 338 and scenario.jobs.median_salary == 90000
    assert scenario.readings.retained_benefits == "all_retained" and scenario.readings.payroll == "mean"
    result = evaluate(scenario)
    error = result.ratio / PUBLISHED_RATIO - 1
    assert abs(error) <= 0.15, f"estimate {result.ratio:.1%} vs published {PUBLISHED_RATIO:.0%}: error {error:+.1%}"
    # The credit side is the published award: PV credits within 1% of "$7.4 million".
    assert result.pv_credits == pytest.approx(7.4e6, rel=0.01)
    # The 338 retained jobs earn no credit (71(c)(1)(d) asks 500 here) but count in the benefits.
    assert not result.retained_jobs_eligible and result.requested_credits == 9_996_000


def test_estimate_without_the_retained_jobs_misses_by_more_than_half():
    """The previous convention (retained jobs only where 71(c) makes them eligible for credits)
    gives about half the published ratio: the retained jobs are the larger part of the gap."""
    scenario = load_scenario(ESTIMATE).replace({"readings.retained_benefits": "credit_eligible_only"})
    assert evaluate(scenario).ratio / PUBLISHED_RATIO - 1 < -0.5
