"""Hand-computed worked examples of the built-in revenue drivers, arithmetic in the comments."""

import pytest
from support import base_scenario_dict, with_changes

from netbenefit import Scenario, evaluate

SALES_TAX = 0.06625  # N.J.S.A. 54:32B-3, as in the parameters file


def worked_scenario(**revenue_changes):
    """100 new jobs ramping 50% then 100%; $50,000 median salary growing 10% a year; 90% of
    withholdings subject to NJ GIT; $1,000,000 invested in year 1; credits $100,000 in years 1-2;
    a 3-year commitment; 10% discount rate, end of year."""
    data = with_changes(
        base_scenario_dict(),
        {
            "discount_rate": 0.10,
            "capital_investment": {1: 1_000_000},
            "jobs": {
                "new": 100,
                "ramp": [0.5, 1.0],
                "median_salary": 50_000,
                "salary_growth": 0.10,
                "nj_withholding_share": 0.9,
            },
            "award": {"annual_credit": 100_000, "eligibility_period_years": 2},
            "commitment": {"period_years": 3},
            "revenue": {
                "income_tax_effective_rate": 0.05,
                "taxable_spending_share": 0.3,
                "construction_taxable_share": 0.4,
                "construction_labor_share": 0.5,
                "construction_income_tax_rate": 0.02,
                "earnings_multiplier": 1.5,
                "corporate_business_tax": 10_000,
                **revenue_changes,
            },
        },
    )
    del data["streams"]
    return Scenario.from_dict(data)


def test_built_in_drivers_by_hand():
    result = evaluate(worked_scenario())
    flows = result.cashflows
    # Year 1: 50 jobs x $50,000 = $2,500,000 of wages.
    #   income tax          2,500,000 x 5% x 90% = 112,500, x 1.5 multiplier = 168,750
    #   spending sales tax  2,500,000 x 30% x 6.625% = 49,687.50, x 1.5 = 74,531.25
    #   construction wages  1,000,000 x 50% = 500,000
    #     their income tax  500,000 x 2% = 10,000, x 1.5 = 15,000
    #     their spending    500,000 x 30% x 6.625% = 9,937.50, x 1.5 = 14,906.25
    #   construction sales tax 1,000,000 x 40% x 6.625% = 26,500 (no multiplier)
    #   CBT 10,000
    #   total 309,687.50
    year_1 = 168_750 + 74_531.25 + 15_000 + 14_906.25 + 26_500 + 10_000
    # Year 2: 100 jobs x $55,000 = $5,500,000.
    #   income tax 5,500,000 x 5% x 90% x 1.5 = 371,250; spending 5,500,000 x 30% x 6.625% x 1.5
    #   = 163,968.75; CBT 10,000: total 545,218.75
    year_2 = 371_250 + 163_968.75 + 10_000
    # Year 3: 100 x $60,500 = $6,050,000: 408,375 + 180,365.625 + 10,000 = 598,740.625
    year_3 = 408_375 + 180_365.625 + 10_000
    assert flows["wages"].tolist()[:3] == pytest.approx([2_500_000, 5_500_000, 6_050_000])
    assert flows["construction_wages"].iloc[0] == pytest.approx(500_000)
    assert flows["net_benefits"].tolist()[:3] == pytest.approx([year_1, year_2, year_3])
    assert flows["income_tax"].iloc[0] == pytest.approx(168_750)
    assert flows["construction_sales_tax"].iloc[0] == pytest.approx(26_500)
    # PV at 10%: 309,687.50 / 1.1 + 545,218.75 / 1.21 + 598,740.625 / 1.331 = 1,181,970.79
    pv_benefits = year_1 / 1.1 + year_2 / 1.1**2 + year_3 / 1.1**3
    assert result.pv_benefits == pytest.approx(pv_benefits, rel=1e-12)
    assert result.pv_benefits == pytest.approx(1_181_970.79, abs=0.01)
    # PV of credits: 100,000 / 1.1 + 100,000 / 1.21 = 173,553.72
    assert result.pv_credits == pytest.approx(173_553.72, abs=0.01)
    # Ratio 1,181,970.79 / 173,553.72 = 6.8105: passes 4.00; the largest credit that passes has
    # PV 1,181,970.79 / 4 = 295,492.70.
    assert result.ratio == pytest.approx(6.8105, abs=1e-4)
    assert result.max_credit_pv == pytest.approx(295_492.70, abs=0.01)
    assert result.passes


def test_progressive_income_tax_by_hand():
    result = evaluate(worked_scenario(income_tax_effective_rate=None, income_tax="progressive"))
    # NJ GIT on $50,000 (single filer): 1.4% x 20,000 + 1.75% x 15,000 + 3.5% x 5,000
    # + 5.525% x 10,000 = 280 + 262.50 + 175 + 552.50 = 1,270.
    # Year 1: 50 jobs x 1,270 x 90% = 57,150, x 1.5 = 85,725.
    assert result.cashflows["income_tax"].iloc[0] == pytest.approx(85_725)
    # Year 2, $55,000: 1,270 + 5.525% x 5,000 = 1,546.25; 100 x 1,546.25 x 90% x 1.5 = 208,743.75
    assert result.cashflows["income_tax"].iloc[1] == pytest.approx(208_743.75)


def test_streams_table_splits_direct_and_multiplier_effects():
    streams = evaluate(worked_scenario()).streams
    year_1 = streams[(streams["year"] == 1) & (streams["stream"] == "income_tax")].set_index("effect")["amount"]
    assert year_1["direct"] == pytest.approx(112_500)
    assert year_1["indirect_and_induced"] == pytest.approx(56_250)
    assert streams["present_value"].sum() == pytest.approx(evaluate(worked_scenario()).pv_benefits)


def test_a_later_phase_uses_its_own_phase_years():
    # Phase 2 starts 1 year after approval with 10 jobs at $40,000 in its year 1 (project year 2)
    # and no CBT of its own: income tax 10 x 40,000 x 5% x 90% x 1.5 = 27,000 in project year 2.
    data = worked_scenario().to_dict()
    data["phases"] = [
        {
            "name": "Phase 2",
            "start_year": 1,
            "jobs": {"new": 10, "median_salary": 40_000, "nj_withholding_share": 0.9},
            "award": {"annual_credit": 10_000, "eligibility_period_years": 2},
        }
    ]
    result = evaluate(Scenario.from_dict(data))
    phase_2 = result.streams[(result.streams["phase"] == 2) & (result.streams["stream"] == "income_tax")]
    assert phase_2.groupby("year")["amount"].sum().loc[1:3].tolist() == pytest.approx([0, 27_000, 27_000 * 1.0])
    assert "corporation_business_tax" not in set(result.streams.loc[result.streams["phase"] == 2, "stream"])
