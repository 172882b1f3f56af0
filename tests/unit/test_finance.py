"""Discounting and window weights (netbenefit.law.finance)."""

import numpy as np
import numpy_financial as npf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from netbenefit.law import finance

amounts = st.lists(st.floats(0, 1e9, allow_nan=False), min_size=1, max_size=40)
rates = st.floats(-0.5, 2.0, allow_nan=False)


def test_discount_factors_end_of_year_and_mid_year():
    assert finance.discount_factors(0.1, [1, 2]).tolist() == pytest.approx([1 / 1.1, 1 / 1.21])
    assert finance.discount_factors(0.1, [1], "mid_year").tolist() == pytest.approx([1.1**-0.5])


def test_discount_factors_broadcast_over_variants():
    factors = finance.discount_factors(np.array([0.0, 0.1]), [1, 2])
    assert factors.shape == (2, 2)
    assert factors[1].tolist() == pytest.approx([1 / 1.1, 1 / 1.21])


def test_unknown_timing_is_an_error():
    with pytest.raises(ValueError, match="timing"):
        finance.discount_factors(0.1, [1], "beginning_of_year")


@pytest.mark.slow
@given(amounts, rates)
def test_present_value_matches_numpy_financial(flows, rate):
    """numpy-financial's npv discounts its first value at t=0; ours starts at year 1."""
    assert finance.present_value(flows, rate) == pytest.approx(npf.npv(rate, [0.0, *flows]), rel=1e-9, abs=1e-6)


@pytest.mark.slow
@given(amounts, amounts, st.floats(-10, 10), st.floats(-10, 10), rates)
def test_present_value_is_linear(x, y, a, b, rate):
    n = min(len(x), len(y))
    x, y = np.array(x[:n]), np.array(y[:n])
    combined = finance.present_value(a * x + b * y, rate)
    separate = a * finance.present_value(x, rate) + b * finance.present_value(y, rate)
    assert combined == pytest.approx(separate, rel=1e-9, abs=1e-3)


@pytest.mark.slow
@given(amounts, st.floats(0, 1, allow_nan=False), st.floats(0, 1, allow_nan=False))
def test_present_value_of_a_non_negative_stream_falls_with_the_rate(flows, r1, r2):
    low, high = sorted((r1, r2))
    assert finance.present_value(flows, high) <= finance.present_value(flows, low) * (1 + 1e-12) + 1e-9


@pytest.mark.slow
@given(amounts, rates)
def test_mid_year_is_end_of_year_times_half_a_year(flows, rate):
    mid = finance.present_value(flows, rate, timing="mid_year")
    end = finance.present_value(flows, rate)
    assert mid == pytest.approx(end * (1 + rate) ** 0.5, rel=1e-9, abs=1e-6)


def test_present_value_with_explicit_years_and_rows():
    assert finance.present_value([100.0], 0.1, years=[2]) == pytest.approx(100 / 1.21)
    pv = finance.present_value(np.array([[110.0, 0.0], [0.0, 121.0]]), np.array([0.1, 0.1]))
    assert pv.tolist() == pytest.approx([100.0, 100.0])


@pytest.mark.parametrize(
    "end, expected",
    [
        (10.5, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5, 0]),
        (10.0, [1] * 10 + [0, 0]),
        (0.25, [0.25] + [0] * 11),
        (11.999, [1] * 11 + [pytest.approx(0.999)]),
    ],
)
def test_window_weights(end, expected):
    assert finance.window_weights(end, np.arange(1, 13)).tolist() == expected
