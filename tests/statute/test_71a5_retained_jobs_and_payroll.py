"""71(a)(5): the benefits count "the resultant creation and retention of new and retained full-time
jobs", every retained job the scenario states, whatever 71(c)(1)(d)-(f) decides about credits; and
one payroll, the mean wage, for every wage-based stream."""

import math

import numpy as np
import pytest
from support import base_scenario_dict, with_changes

import netbenefit


def _drivers(**changes):
    """35 new and ``retained`` retained jobs in a default area, benefits from the revenue drivers."""
    data = with_changes(
        base_scenario_dict(),
        {
            "streams": [],
            "jobs": {"new": 35, "retained": 338, "median_salary": 90000, "nj_withholding_share": 1.0},
            "revenue": {
                "income_tax": {"method": "brackets", "filing_status": {"single": 1.0}, "wage_dispersion": 0.0},
                "taxable_spending_share": 0.3,
            },
        },
    )
    return netbenefit.Scenario.from_dict(with_changes(data, changes))


def _income_tax(result):
    table = result.benefits_by_tax
    return float(table.loc[table["tax"] == "gross_income_tax", "nominal"].iloc[0])


@pytest.mark.parametrize("retained", [499, 500, 501])
def test_71a5_every_retained_job_counts_in_the_benefits_around_the_71c1d_minimum(retained):
    """Below the 500 that 71(c)(1)(d) asks in a default area the retained jobs earn no credit, but
    their income tax still counts in the benefits (default reading: all_retained)."""
    result = netbenefit.evaluate(_drivers(**{"jobs.retained": retained}))
    assert result.retained_jobs_eligible == (retained >= 500)
    new_only = netbenefit.evaluate(_drivers(**{"jobs.retained": 0}))
    per_job = _income_tax(new_only) / 35
    assert _income_tax(result) == pytest.approx(per_job * (35 + retained), rel=1e-12)
    assert result.cashflows["retained_full_time_jobs"].iloc[0] == retained


def test_71a5_35_new_and_338_retained_count_all_373_jobs():
    result = netbenefit.evaluate(_drivers())
    assert not result.retained_jobs_eligible  # 338 < 500: no credit for them, 71(c)(1)(d)
    assert result.cashflows["full_time_jobs"].iloc[0] == 373
    eligible_only = netbenefit.evaluate(_drivers(**{"readings.retained_benefits": "credit_eligible_only"}))
    assert eligible_only.cashflows["full_time_jobs"].iloc[0] == 35
    assert _income_tax(result) == pytest.approx(_income_tax(eligible_only) * 373 / 35, rel=1e-12)
    assert result.ratio > eligible_only.ratio
    # The credits follow 71(c) under both readings.
    assert result.pv_credits == eligible_only.pv_credits


@pytest.mark.parametrize("sigma", [0.0, 0.45, 1.0])
def test_one_payroll_the_sales_tax_on_spending_scales_by_exp_sigma_squared_over_two(sigma):
    def spending_tax(s):
        result = netbenefit.evaluate(_drivers(**{"revenue.income_tax.wage_dispersion": s}))
        return result.streams.query("stream == 'spending_sales_tax'")["amount"].sum(), result

    base, _ = spending_tax(0.0)
    varied, result = spending_tax(sigma)
    assert varied == pytest.approx(base * math.exp(sigma**2 / 2), rel=1e-12)
    assert result.cashflows["wages"].iloc[0] == pytest.approx(373 * 90000 * math.exp(sigma**2 / 2), rel=1e-12)
    median = netbenefit.evaluate(
        _drivers(**{"revenue.income_tax.wage_dispersion": sigma, "readings.payroll": "median"})
    )
    assert median.streams.query("stream == 'spending_sales_tax'")["amount"].sum() == pytest.approx(base, rel=1e-12)


def test_the_old_readings_give_exactly_the_old_ratio():
    """credit_eligible_only with payroll: median is the model before these readings: new jobs only,
    and the spending streams on the median wage."""
    old = netbenefit.evaluate(
        _drivers(
            **{
                "readings.retained_benefits": "credit_eligible_only",
                "readings.payroll": "median",
                "revenue.income_tax.wage_dispersion": 0.45,
            }
        )
    )
    new_jobs_only = netbenefit.evaluate(
        _drivers(**{"jobs.retained": 0, "readings.payroll": "median", "revenue.income_tax.wage_dispersion": 0.45})
    )
    assert old.ratio == new_jobs_only.ratio
    assert np.array_equal(old.cashflows["wages"].to_numpy(), new_jobs_only.cashflows["wages"].to_numpy())
