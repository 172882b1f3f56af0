"""Properties of netbenefit.law.finance.present_value, the discounting of 71(a)(5)(c).

present_value discounts year t by (1 + r) ** -t (end of year) or (1 + r) ** -(t - 0.5) (mid-year);
numpy_financial.npv discounts its first value at t = 0, so npv(r, [0] + flows) is the same sum.
"""

from __future__ import annotations

import math

import numpy as np
import numpy_financial as npf
from hypothesis import given, settings
from hypothesis import strategies as st

from netbenefit.law.finance import present_value

EXAMPLES = settings(max_examples=200)

amounts = st.floats(-1e9, 1e9, allow_nan=False)
non_negative = st.floats(0.0, 1e9, allow_nan=False)
rates = st.floats(-0.5, 1.0, allow_nan=False)
timings = st.sampled_from(["end_of_year", "mid_year"])


@st.composite
def two_streams(draw, elements=amounts):
    n = draw(st.integers(1, 60))
    flows = st.lists(elements, min_size=n, max_size=n)
    return np.array(draw(flows)), np.array(draw(flows))


def scale_of(*values) -> float:
    return max(1.0, *(float(np.abs(v).sum()) for v in values))


@EXAMPLES
@given(two_streams(), st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), rates, timings)
def test_present_value_is_linear_in_the_streams(streams, a, b, rate, timing):
    x, y = streams
    pv = lambda flows: present_value(flows, rate, timing=timing)  # noqa: E731
    combined = pv(a * x + b * y)
    separately = a * pv(x) + b * pv(y)
    tolerance = 1e-9 * pv(np.abs(a * x) + np.abs(b * y)) + 1e-9
    assert abs(combined - separately) <= tolerance


@EXAMPLES
@given(two_streams(non_negative), rates, st.floats(0.0, 1.0), timings)
def test_a_higher_discount_rate_never_raises_the_present_value_of_a_non_negative_stream(streams, rate, step, timing):
    flows, _ = streams
    lower = present_value(flows, rate, timing=timing)
    higher = present_value(flows, rate + step, timing=timing)
    assert higher <= lower * (1 + 1e-12) + 1e-9


@EXAMPLES
@given(two_streams(), st.floats(-0.5, 1.0))
def test_present_value_agrees_with_numpy_financial_npv_shifted_one_year(streams, rate):
    flows, _ = streams
    expected = npf.npv(rate, np.concatenate([[0.0], flows]))
    assert math.isclose(present_value(flows, rate), expected, rel_tol=1e-9, abs_tol=1e-6 * scale_of(flows))


@EXAMPLES
@given(two_streams(), rates)
def test_mid_year_is_end_of_year_brought_forward_half_a_year(streams, rate):
    flows, _ = streams
    end, mid = present_value(flows, rate), present_value(flows, rate, timing="mid_year")
    assert math.isclose(mid, end * (1 + rate) ** 0.5, rel_tol=1e-9, abs_tol=1e-6 * scale_of(flows))


@EXAMPLES
@given(two_streams(), st.lists(rates, min_size=1, max_size=5))
def test_an_array_of_rates_gives_the_present_value_at_each_rate(streams, many):
    flows, _ = streams
    at_once = present_value(flows, np.array(many))
    assert at_once.shape == (len(many),)
    for rate, value in zip(many, at_once, strict=True):
        assert math.isclose(value, present_value(flows, rate), rel_tol=1e-12, abs_tol=1e-9)
