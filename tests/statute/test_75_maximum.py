"""Check 75: the credit per job per year at most the section 75 maximum with the bonuses that
apply (C.34:1B-343). It fails eligibility only where the maximum is graded statute; otherwise it is
a warning naming the grade. The ratio never changes; max_award reports the maximum when it binds.

Base: 35 new jobs, $100,000 a year: $2,857 a job. An award given as an amount does not say whether
a labor harmony agreement applies: the largest maximum, $8,000 + $1,000, is taken.
"""

import dataclasses

import pytest
from support import evaluate, scenario

import netbenefit
from netbenefit.analysis import max_award
from netbenefit.law.parameters import PARAMETERS


@pytest.fixture
def maximum_read_in_statute(monkeypatch):
    for name in ("award_credit_cap_per_job", "award_labor_harmony_addition_per_job"):
        monkeypatch.setitem(PARAMETERS, name, dataclasses.replace(PARAMETERS[name], source="statute"))


@pytest.mark.parametrize("annual, within", [(314_999, True), (315_000, True), (315_001, False)])
def test_75_maximum_with_labor_harmony_at_below_and_above_is_a_warning_while_secondary(annual, within):
    result = evaluate(award__annual_credit=annual)
    assert result.check("75") is True and result.eligible  # graded secondary: a warning only
    assert ("above the section 75 maximum" in " ".join(result.warnings)) is not within
    message = result.checks.set_index("id").loc["75", "message"]
    assert message.startswith("Met" if within else "Warning") and "[secondary]" in message
    assert result.ratio == pytest.approx(evaluate().ratio * 100_000 / annual)  # the ratio is unchanged by 75


@pytest.mark.parametrize("annual, within", [(314_999, True), (315_000, True), (315_001, False)])
def test_75_maximum_read_in_statute_fails_eligibility_above(annual, within, maximum_read_in_statute):
    result = evaluate(award__annual_credit=annual)
    assert result.check("75") is within
    assert result.eligible is within
    assert result.passes  # the net benefit test is not the check


def section_75_award(bonus, labor_harmony=False):
    return {
        "eligibility_period_years": 7,
        "section_75": {"bonuses": [{"name": "targeted industry", "per_job": bonus}], "labor_harmony": labor_harmony},
    }


@pytest.mark.parametrize("labor_harmony, maximum", [(False, 8000), (True, 9000)])
def test_75_the_calculator_caps_so_its_award_is_within(labor_harmony, maximum, maximum_read_in_statute):
    result = evaluate(award=section_75_award(20_000, labor_harmony))
    assert result.check("75") is True
    assert f"maximum ${maximum:,}" in result.checks.set_index("id").loc["75", "message"]


def test_75_a_retained_job_counts_at_half_a_new_job(maximum_read_in_statute):
    # 71(c)(1)(d): 35 new + 250 retained in a tract: 35 + 125 = 160 credit-eligible jobs; 9,000 x 160.
    changes = {
        "location": {"qualified_incentive_area": True, "qualified_incentive_tract": True},
        "jobs": {"new": 35, "retained": 250, "nj_withholding_share": 1.0},
    }
    assert evaluate(award__annual_credit=1_440_000, **changes).check("75") is True
    assert evaluate(award__annual_credit=1_440_001, **changes).check("75") is False


def test_75_is_listed_among_the_checks():
    assert list(evaluate().checks["id"])[-1] == "75"


def test_max_award_reports_the_section_75_maximum_when_it_binds():
    # Benefits of $1,000,000 a year allow far more than $9,000 a job for 35 jobs.
    result = max_award(scenario())
    assert result.solved
    assert result.details["section_75_maximum_binds"] is True
    assert result.value == pytest.approx(9_000 * 35)
    assert result.details["net_benefit_bound"] > result.value
    assert "section 75 maximum" in result.message
    assert netbenefit.evaluate(scenario(award__annual_credit=result.value)).passes


def test_max_award_of_a_bonus_is_capped_by_the_calculator():
    result = max_award(scenario(award=section_75_award(1000)), "award.section_75.bonuses.0.per_job")
    assert result.solved and result.details["section_75_maximum_binds"] is True
    assert result.value == pytest.approx(8000 - 500)  # other eligible area: base $500
