"""The options of the Gross Income Tax that the bracket model otherwise leaves out (docs/taxes.md,
"What the Gross Income Tax leaves out"): dependants' exemptions, the property tax deduction, the
New Jersey earned income tax credit, and the bound on the filing thresholds."""

import numpy as np
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import ScenarioError
from netbenefit.law import taxes
from netbenefit.law.parameters import parameter

SHARES = {"single": 0.5, "married_joint": 0.5}
MIX = {"none": 0.6, "one": 0.15, "two": 0.15, "three_or_more": 0.1}


def test_the_worked_example_of_the_tax_page():
    base = float(taxes.expected_gross_income_tax(90000, 0.5, SHARES))
    assert base == pytest.approx(3733.37, abs=0.005)
    assert base - float(taxes.expected_gross_income_tax(90000, 0.5, SHARES, dependents=1)) == pytest.approx(
        76.36, abs=0.005
    )
    assert base - float(taxes.expected_gross_income_tax(90000, 0.5, SHARES, property_tax=8000)) == pytest.approx(
        398.24, abs=0.005
    )
    assert float(taxes.expected_nj_earned_income_credit(90000, 0.5, SHARES, MIX)) == pytest.approx(79.77, abs=0.005)
    assert float(taxes.expected_nj_earned_income_credit(40000, 0.5, SHARES, MIX)) == pytest.approx(518.39, abs=0.005)


@pytest.mark.parametrize("deducted, counted", [(14999.0, 14999.0), (15000.0, 15000.0), (15001.0, 15000.0)])
def test_the_property_tax_deduction_is_capped_at_15000_54A_3A_17(deducted, counted):
    assert taxes.other_deductions(property_tax=deducted) == counted


def test_a_dependant_is_1500_of_exemption_54A_3_1_b_2():
    assert taxes.other_deductions(dependents=2) == 2 * parameter("gross_income_tax_dependent_exemption") == 3000
    # At a single wage the tax falls by the marginal rate on the deduction (5.525% from $40,000 to $75,000).
    one = float(taxes.expected_gross_income_tax(60000, 0.0, {"single": 1.0}))
    two = float(taxes.expected_gross_income_tax(60000, 0.0, {"single": 1.0}, dependents=1))
    assert one - two == pytest.approx(1500 * 0.05525, rel=1e-12)


@pytest.mark.parametrize(
    "wage, children, credit",
    [
        (8260, "none", 0.0765 * 8260),  # the earned income amount: the largest credit
        (10330, "none", 0.0765 * 8260),  # the phaseout start: still the largest
        (18591, "none", 0.0765 * 8260 - 0.0765 * (18591 - 10330)),  # about 0 at the phaseout end
        (30000, "two", 6960 - 0.2106 * (30000 - 22720)),
        (60000, "three_or_more", 0.0),  # above the phaseout end ($59,899)
    ],
)
def test_the_nj_credit_is_40_percent_of_the_federal_credit_54A_4_7(wage, children, credit):
    nj = float(taxes.expected_nj_earned_income_credit(wage, 0.0, {"single": 1.0}, {children: 1.0}))
    assert nj == pytest.approx(0.40 * max(credit, 0.0), abs=1e-6)


@pytest.mark.parametrize("sigma", [0.3, 0.8])
def test_the_expected_credit_matches_a_numerical_integral(sigma):
    nodes, weights = np.polynomial.hermite_e.hermegauss(150)
    wages = 30000 * np.exp(sigma * nodes)
    lower, rates = taxes.federal_earned_income_credit_schedule("single", "one")
    credit = taxes.bracket_tax(wages, lower, rates)
    quadrature = 0.4 * np.sum(weights * credit) / np.sqrt(2 * np.pi)
    exact = float(taxes.expected_nj_earned_income_credit(30000, sigma, {"single": 1.0}, {"one": 1.0}))
    assert quadrature == pytest.approx(exact, rel=2e-3)


def test_the_filing_threshold_bound_at_and_around_10000_54A_2_4():
    assert taxes.tax_forgiven_below_filing_threshold(10000, 0.0) > 0  # at the threshold: no tax due
    assert taxes.tax_forgiven_below_filing_threshold(10001, 0.0) == 0.0
    assert taxes.tax_forgiven_below_filing_threshold(20000, 0.0, "married_joint") > 0


def _brackets(**changes):
    data = with_changes(
        base_scenario_dict(),
        {
            "streams": [],
            "jobs": {"new": 100, "retained": 0, "median_salary": 40000, "nj_withholding_share": 1.0},
            "revenue": {"income_tax": {"method": "brackets", "wage_dispersion": 0.5}},
        },
    )
    return netbenefit.Scenario.from_dict(with_changes(data, changes))


def test_method_authority_nets_the_credit_and_netbenefit_does_not():
    plain = netbenefit.evaluate(_brackets())
    authority = netbenefit.evaluate(_brackets(method="authority"))
    assert authority.pv_benefits < plain.pv_benefits
    assert any(n.startswith("earned income tax credit") for n in authority.conventions)
    assert not any(n.startswith("earned income tax credit") for n in plain.conventions)
    # The option given in the scenario wins over the method's choice.
    off = netbenefit.evaluate(_brackets(method="authority", **{"revenue.income_tax.earned_income_tax_credit": False}))
    assert off.pv_benefits == plain.pv_benefits
    on = netbenefit.evaluate(_brackets(**{"revenue.income_tax.earned_income_tax_credit": True}))
    assert on.pv_benefits == authority.pv_benefits


def test_the_options_apply_to_brackets_only_and_the_children_shares_sum_to_1():
    with pytest.raises(ScenarioError, match="qualifying_children: the shares of the returns must sum to 1"):
        _brackets(
            **{
                "revenue.income_tax.earned_income_tax_credit": True,
                "revenue.income_tax.qualifying_children": {"one": 0.5},
            }
        )
    with pytest.raises(ScenarioError, match="dependents_per_return: applies to method: brackets only"):
        _brackets(**{"revenue.income_tax": {"method": "effective_rate", "rate": 0.03, "dependents_per_return": 1.0}})


def test_the_omissions_listed_are_the_ones_the_scenario_leaves_out():
    notes = netbenefit.evaluate(_brackets()).conventions
    line = next(n for n in notes if n.startswith("Gross Income Tax by the brackets leaves out"))
    assert "earned income tax credit" in line and "dependants" in line and "property tax" in line
    modelled = netbenefit.evaluate(
        _brackets(
            **{"revenue.income_tax.dependents_per_return": 1.0, "revenue.income_tax.property_tax_deduction": 5000}
        )
    ).conventions
    line = next(n for n in modelled if n.startswith("Gross Income Tax by the brackets leaves out"))
    assert "dependants" not in line and "property tax" not in line and "filing thresholds" in line


def test_a_reading_given_against_method_authority_is_named():
    result = netbenefit.evaluate(
        _brackets(method="authority", **{"readings.retained_benefits": "credit_eligible_only"})
    )
    assert any(
        n.startswith("the scenario departs from method authority") and "retained_benefits: credit_eligible_only" in n
        for n in result.conventions
    )
    assert not any("departs" in n for n in netbenefit.evaluate(_brackets(method="authority")).conventions)
