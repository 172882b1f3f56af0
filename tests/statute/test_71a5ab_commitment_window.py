"""71(a)(5)(a)/(b): the 300 and 200 percent tests count benefits "from approval through the end of
the commitment period". A period_years other than 1.5 x E counts only where the authority set it
(period_set_by_authority: true); otherwise the defined 10.5 years decide, and ratio_as_given shows
the ratio over the period as stated. The 400 percent test too: it counts benefits past the
commitment period only through an elected extension, 71(a)(5)(d), which carries its repayment.

Base: credits $100,000 a year for 7 years (PV $700,000 at rate 0); benefits B a year for 20 years.
Over the defined 10.5 years the ratio is 10.5 B / 700,000: 3.0 at B = 200,000.
"""

import pytest
from support import evaluate

DISTRESSED = {"qualified_incentive_area": True, "distressed_municipality": True}
MEGA = {"qualified_incentive_area": True, "mega_project": True}


def run(location, benefit, **commitment):
    return evaluate(
        location=location,
        commitment={"period_years": 20, **commitment},
        streams=[{"name": "state taxes", "kind": "revenue", "by_year": {y: benefit for y in range(1, 21)}}],
    )


@pytest.mark.parametrize("benefit, passes", [(199_999, False), (200_000, True), (200_001, True)])
def test_71a5a_period_not_set_by_authority_is_tested_on_the_defined_window(benefit, passes):
    result = run(DISTRESSED, benefit)
    assert result.threshold_clause == "71(a)(5)(a)"
    assert result.ratio == pytest.approx(10.5 * benefit / 700_000)
    assert result.passes is passes and result.check("71(a)(5)") is passes
    assert result.ratio_as_given == pytest.approx(20 * benefit / 700_000)  # would pass at every B here
    assert result.to_dict()["net_benefit"]["ratio_as_given"] == pytest.approx(result.ratio_as_given)
    assert "counts benefits through the defined 10.5 years" in result.warnings[0]


@pytest.mark.parametrize("benefit, passes", [(133_333, False), (133_334, True)])
def test_71a5b_period_not_set_by_authority_is_tested_on_the_defined_window(benefit, passes):
    # 200%: 10.5 B / 700,000 >= 2 at B = 133,333.33.
    result = run(MEGA, benefit)
    assert result.threshold_clause == "71(a)(5)(b)"
    assert result.passes is passes
    assert result.ratio_as_given == pytest.approx(20 * benefit / 700_000)


def test_71a5a_period_set_by_authority_counts():
    result = run(DISTRESSED, 110_000, period_set_by_authority=True)
    assert result.ratio == pytest.approx(20 * 110_000 / 700_000) and result.passes
    assert result.ratio_as_given == result.ratio
    assert result.warnings == ()


@pytest.mark.parametrize("benefit, passes", [(266_666, False), (266_667, True), (266_668, True)])
def test_71a5_the_400_percent_test_counts_the_defined_period(benefit, passes):
    # 400%: 10.5 B / 700,000 >= 4 at B = 266,666.67; over the stated 20 years every B here passes.
    result = run({"qualified_incentive_area": True}, benefit)
    assert result.threshold_clause == "71(a)(5)"
    assert result.ratio == pytest.approx(10.5 * benefit / 700_000)
    assert result.passes is passes and result.check("71(a)(5)") is passes
    assert result.ratio_as_given == pytest.approx(20 * benefit / 700_000)
    assert "counts benefits through the defined 10.5 years" in result.warnings[0]
    assert "commitment.extended_years" in result.warnings[0]


def test_71a5_a_stated_period_does_not_buy_the_extension_window():
    # The case: 4.43 over a stated 20 years; over the defined 10.5 years, 2.33: fails. The
    # same 9.5 years elected as an extension count, with the duty to repay.
    stated = run({"qualified_incentive_area": True}, 155_000)
    assert stated.ratio_as_given == pytest.approx(4.428571, rel=1e-6)
    assert stated.ratio == pytest.approx(2.325) and not stated.passes
    elected = evaluate(
        location={"qualified_incentive_area": True},
        commitment={"extended_years": 10},
        streams=[{"name": "state taxes", "kind": "revenue", "by_year": {y: 155_000 for y in range(1, 21)}}],
    )
    assert elected.ratio == pytest.approx(20 * 155_000 / 700_000) and elected.passes
    assert elected.incremental_credit > 0


def test_71a5_the_earlier_reading_counts_the_stated_period_in_the_400_percent_test():
    result = evaluate(
        location={"qualified_incentive_area": True},
        commitment={"period_years": 20},
        readings={"stated_commitment_period": "counts_in_400_percent_test"},
        streams=[{"name": "state taxes", "kind": "revenue", "by_year": {y: 150_000 for y in range(1, 21)}}],
    )
    assert result.ratio == pytest.approx(20 * 150_000 / 700_000)
    assert result.ratio_as_given == result.ratio
    assert "the test counts benefits through it" in result.warnings[0]


def test_71a5a_the_earlier_reading_keeps_the_defined_window_in_the_300_percent_test():
    result = evaluate(
        location=DISTRESSED,
        commitment={"period_years": 20},
        readings={"stated_commitment_period": "counts_in_400_percent_test"},
        streams=[{"name": "state taxes", "kind": "revenue", "by_year": {y: 110_000 for y in range(1, 21)}}],
    )
    assert result.ratio == pytest.approx(1.65)


def test_71a5a_a_20_year_period_in_a_distressed_area():
    # The defined 10.5 years decide: a ratio that passes over 20 years fails over 10.5.
    result = run(DISTRESSED, 110_000)
    assert result.ratio == pytest.approx(1.65) and not result.passes and not result.eligible
    assert result.ratio_as_given == pytest.approx(3.142857, rel=1e-6)
