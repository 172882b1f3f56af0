"""The timeline convention: end-of-year / mid-year discounting, eligibility and commitment periods."""

import pytest
from support import evaluate


def flat(amount=1000.0, years=30):
    return {"streams": [{"name": "taxes", "kind": "revenue", "by_year": {y: amount for y in range(1, years + 1)}}]}


def test_commitment_period_defaults_to_one_and_a_half_eligibility_periods():
    # E = 7 -> C = 10.5: years 1..10 in full, half of year 11, nothing after.
    result = evaluate(**flat())
    assert result.commitment_period_years == 10.5
    assert result.cashflows["weight"].tolist()[:12] == [1.0] * 10 + [0.5, 0.0]


def test_window_starts_at_the_first_credit_year():
    # s = 2, C = 10.5: years 1..11 in full, half of year 12.
    result = evaluate(award__first_credit_year=2, **flat())
    assert result.cashflows["weight"].tolist()[:13] == [1.0] * 11 + [0.5, 0.0]
    assert result.cashflows["credits"].tolist()[:9] == [0] + [100000] * 7 + [0]


def test_explicit_commitment_period_and_fraction():
    # A period the authority set counts; its fraction weights the last year.
    result = evaluate(commitment__period_years=8.25, commitment__period_set_by_authority=True, **flat())
    assert result.cashflows["weight"].tolist()[:10] == [1.0] * 8 + [0.25, 0.0]
    assert result.pv_benefits == pytest.approx(8.25 * 1000)


def test_a_stated_period_the_authority_did_not_set_counts_in_no_test():
    # 8.25 years stated, not set by the authority: the defined 10.5 years decide, 71(a)(5).
    result = evaluate(commitment__period_years=8.25, **flat())
    assert result.cashflows["weight"].tolist()[:12] == [1.0] * 10 + [0.5, 0.0]
    assert result.ratio_as_given == pytest.approx(8.25 * 1000 / 700_000)


def test_credits_are_never_weighted():
    # Eligibility period 7 and a commitment of 6.5 years: the 7th credit still counts in full.
    result = evaluate(commitment__period_years=6.5, **flat())
    assert result.pv_credits == 700_000


def test_end_of_year_and_mid_year_discounting():
    # 1,000 in year 1 at 10%: 1,000 / 1.1 (end of year), 1,000 / 1.1 ** 0.5 (mid-year).
    stream = {"streams": [{"name": "taxes", "kind": "revenue", "by_year": {1: 1000}}]}
    end = evaluate(discount_rate=0.1, **stream)
    mid = evaluate(discount_rate=0.1, timing="mid_year", **stream)
    assert end.pv_benefits == pytest.approx(1000 / 1.1)
    assert mid.pv_benefits == pytest.approx(1000 / 1.1**0.5)
    # Mid-year timing shifts every flow by half a year: the ratio is unchanged.
    assert mid.ratio == pytest.approx(end.ratio)


def test_fractional_final_year_weights_construction_and_cost_streams_too():
    # A cost of 100 and a construction-type revenue of 1,000 in year 11 (weight 0.5).
    streams = [
        {"name": "taxes", "kind": "revenue", "by_year": {1: 1_000_000, 11: 1000}},
        {"name": "services", "kind": "cost", "by_year": {11: 100}},
    ]
    result = evaluate(streams=streams)
    assert result.pv_benefits == pytest.approx(1_000_000 + 0.5 * (1000 - 100))
