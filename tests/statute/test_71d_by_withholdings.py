"""71(d) across phases: "not less than 80 percent of the withholdings" are subject to the NJ Gross
Income Tax. Each phase's NJ share is weighted by its income tax withheld (jobs x Gross Income Tax
per job at the phase's salary), by its wages where no brackets apply, by its jobs where no salary
is given; the check's message says which.
"""

import pytest
from support import evaluate

from netbenefit.labels import share as as_share
from netbenefit.law.taxes import gross_income_tax


def two_phases(salary_1, salary_2, share_2, jobs_1=300, jobs_2=100, income_tax="progressive"):
    def jobs(n, salary, share):
        return {"new": n, "nj_withholding_share": share} | ({} if salary is None else {"median_salary": salary})

    changes = {
        "jobs": jobs(jobs_1, salary_1, 1.0),
        "phases": [
            {
                "name": "Phase 2",
                "start_year": 1,
                "jobs": jobs(jobs_2, salary_2, share_2),
                "award": {"annual_credit": 100000, "eligibility_period_years": 7},
                "streams": [
                    {"name": "phase taxes", "kind": "revenue", "by_year": {y: 10_000_000 for y in range(2, 13)}}
                ],
            }
        ],
    }
    if income_tax == "progressive":
        changes["revenue"] = {"income_tax": "progressive"}
    elif income_tax == "effective_rate":
        changes["revenue"] = {"income_tax": {"method": "effective_rate", "rate": 0.05}}
    return evaluate(**changes)


def test_71d_the_high_salary_phase_weighs_by_its_income_tax_withheld():
    # 300 jobs at $50,000 (share 1.0) and 100 at $300,000 (share 0.4): 85% by jobs, 60% by wages,
    # about 51% by income tax withheld: fails.
    result = two_phases(50_000, 300_000, 0.4)
    assert result.check("71(d)") is False
    message = result.checks.set_index("id").loc["71(d)", "message"]
    assert "income tax withheld" in message
    tax_1, tax_2 = float(gross_income_tax(50_000)), float(gross_income_tax(300_000))
    share = (300 * tax_1 + 100 * tax_2 * 0.4) / (300 * tax_1 + 100 * tax_2)
    assert 0.45 < share < 0.55
    assert as_share(share, finest=4) in message


def test_71d_by_wages_where_no_brackets_apply():
    result = two_phases(50_000, 300_000, 0.4, income_tax="effective_rate")
    assert result.check("71(d)") is False
    assert "wages" in result.checks.set_index("id").loc["71(d)", "message"]
    assert "60% of the withholdings" in result.checks.set_index("id").loc["71(d)", "message"]


def test_71d_by_jobs_where_no_salary_is_given():
    result = two_phases(None, None, 0.4, income_tax=None)
    assert result.check("71(d)") is True  # (300 + 40) / 400 = 85%
    assert "weighted by its new and retained jobs" in result.checks.set_index("id").loc["71(d)", "message"]


def test_71d_the_weighting_before_is_a_reading():
    result = evaluate(
        readings={"withholding_weights": "jobs"},
        revenue={"income_tax": "progressive"},
        jobs={"new": 300, "median_salary": 50_000, "nj_withholding_share": 1.0},
        phases=[
            {
                "name": "Phase 2",
                "start_year": 1,
                "jobs": {"new": 100, "median_salary": 300_000, "nj_withholding_share": 0.4},
                "award": {"annual_credit": 100000, "eligibility_period_years": 7},
            }
        ],
    )
    assert result.check("71(d)") is True


@pytest.mark.parametrize("share_2, met", [(0.69, False), (0.7, True), (0.71, True)])
def test_71d_wages_at_below_and_above_80_percent(share_2, met):
    # 100 jobs at $100,000 (share 1) and 100 at $200,000: (100 + 200 s) / 300 >= 0.8 at s = 0.7.
    result = two_phases(100_000, 200_000, share_2, jobs_1=100, jobs_2=100, income_tax="effective_rate")
    assert result.check("71(d)") is met


def boundary_share():
    # 100 jobs at $100,000 (share 1) and 100 at $200,000: (t1 + t2 s) / (t1 + t2) = 0.8.
    tax_1, tax_2 = float(gross_income_tax(100_000)), float(gross_income_tax(200_000))
    return (0.8 * (tax_1 + tax_2) - tax_1) / tax_2


@pytest.mark.parametrize("offset, met", [(-0.001, False), (0.0, True), (0.001, True)])
def test_71d_income_tax_withheld_at_below_and_above_80_percent(offset, met):
    share = boundary_share() + offset
    if offset == 0.0:
        share = share * (1 + 1e-12)  # the boundary itself, rounded up to floating point
    result = two_phases(100_000, 200_000, share, jobs_1=100, jobs_2=100)
    assert result.check("71(d)") is met
