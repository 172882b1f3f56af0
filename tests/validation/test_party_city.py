"""The published Party City award (Woodcliff Lake, September 2021): the ratio arithmetic and the
discount rate it implies under each timing convention."""

from pathlib import Path

import numpy_financial as npf
import pytest

from netbenefit import evaluate, load_scenario
from netbenefit.finance import present_value

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
