"""71(b): minimum capital investment per square foot, the small business, and the donation."""

import pytest
from support import evaluate


def portion(use, work, area=1000):
    return {"facility__portions": [{"use": use, "work": work, "gross_leasable_area_sqft": area}]}


@pytest.mark.parametrize(
    "use, work, rate",
    [
        ("industrial", "rehabilitation", 20),  # 71(b)(1)(a)
        ("warehousing", "rehabilitation", 20),
        ("logistics", "rehabilitation", 20),
        ("research_and_development", "rehabilitation", 20),
        ("industrial", "new_construction", 60),  # 71(b)(1)(b)
        ("research_and_development", "new_construction", 60),
        ("other", "rehabilitation", 40),  # 71(b)(1)(c)
        ("other", "new_construction", 120),  # 71(b)(1)(d)
    ],
)
def test_minimum_per_square_foot(use, work, rate):
    # 1,000 sq ft x rate
    result = evaluate(**portion(use, work), capital_investment={1: 1000 * rate})
    assert result.capital_investment_minimum == 1000 * rate
    assert result.infrastructure_fund_donation == 0
    assert result.check("71(a)(1)")


@pytest.mark.parametrize("investment, donation", [(39999, 1), (40000, 0), (40001, 0)])
def test_shortfall_is_donated_to_the_infrastructure_fund(investment, donation):
    """71(b)(2): a shortfall does not end eligibility; the uninvested balance is donated."""
    result = evaluate(**portion("other", "rehabilitation"), capital_investment={1: investment})
    assert result.infrastructure_fund_donation == donation
    assert result.check("71(a)(1)")  # an obligation, not a failure
    message = result.checks.set_index("id").loc["71(a)(1)", "message"]
    assert ("71(b)(2)" in message) is (donation > 0)


def test_minimum_sums_the_portions_and_compares_all_initial_phase_years():
    # 1,000 sq ft x $20 + 500 sq ft x $120 = $80,000; invested 30,000 + 40,000 = 70,000.
    result = evaluate(
        facility__portions=[
            {"use": "warehousing", "work": "rehabilitation", "gross_leasable_area_sqft": 1000},
            {"use": "other", "work": "new_construction", "gross_leasable_area_sqft": 500},
        ],
        capital_investment={1: 30000, 3: 40000},
    )
    assert result.capital_investment_minimum == 80000
    assert result.infrastructure_fund_donation == 10000


def test_small_business_has_no_minimum():
    """71(b)(1)(e), with its proviso: the intent to remain in the State is demonstrated."""
    result = evaluate(
        business__small_business=True,
        business__full_time_employees_at_application=40,
        business__intent_to_remain_demonstrated=True,
        jobs__new=10,
        capital_investment={},
    )
    assert result.capital_investment_minimum == 0
    assert result.infrastructure_fund_donation == 0
    assert "71(b)(1)(e)" in result.checks.set_index("id").loc["71(a)(1)", "message"]


def test_donation_is_not_a_benefit():
    with_shortfall = evaluate(capital_investment={1: 0})
    without = evaluate(capital_investment={1: 40000})
    assert with_shortfall.pv_benefits == without.pv_benefits
