"""71(c)(1): minimum new or retained full-time jobs, and the clause that decides."""

import pytest
from support import evaluate

# (business and location facts, new jobs N, retained jobs R, workforce W) -> (met, clause, retained count)
CASES = [
    # (c) any other business: at least 35 new full-time jobs.
    ({}, 34, 0, 0, False, None, False),
    ({}, 35, 0, 0, True, "71(c)(1)(c)", False),
    ({}, 36, 0, 0, True, "71(c)(1)(c)", False),
    # (b) targeted industry, not a small business: at least 25.
    ({"business__targeted_industry": True}, 24, 0, 0, False, None, False),
    ({"business__targeted_industry": True}, 25, 0, 0, True, "71(c)(1)(b)", False),
    ({"business__targeted_industry": True}, 26, 0, 0, True, "71(c)(1)(b)", False),
    # (a) small business: new jobs at least 25% of W = 40, i.e. 10.
    ({"business__small_business": True}, 9, 0, 40, False, None, False),
    ({"business__small_business": True}, 10, 0, 40, True, "71(c)(1)(a)", False),
    ({"business__small_business": True}, 11, 0, 40, True, "71(c)(1)(a)", False),
    # A small business is tested under (a) only, even with 35+ new jobs: 35 < 25% x 200 = 50.
    ({"business__small_business": True}, 35, 0, 200, False, None, False),
    # A small business in a targeted industry is still tested under (a): 24 >= 25% x 96 = 24.
    ({"business__small_business": True, "business__targeted_industry": True}, 24, 0, 96, True, "71(c)(1)(a)", False),
    # (d) a (b)/(c) business also gets its retained jobs: 150 in a government-restricted municipality,
    ({"location__government_restricted_municipality": True}, 35, 149, 0, True, "71(c)(1)(c)", False),
    ({"location__government_restricted_municipality": True}, 35, 150, 0, True, "71(c)(1)(d)", True),
    # 250 in a qualified incentive tract or enhanced area municipality,
    ({"location__qualified_incentive_tract": True}, 35, 249, 0, True, "71(c)(1)(c)", False),
    ({"location__qualified_incentive_tract": True}, 35, 250, 0, True, "71(c)(1)(d)", True),
    ({"location__enhanced_area": True}, 35, 249, 0, True, "71(c)(1)(c)", False),
    ({"location__enhanced_area": True}, 35, 250, 0, True, "71(c)(1)(d)", True),
    ({"business__targeted_industry": True, "location__enhanced_area": True}, 25, 251, 0, True, "71(c)(1)(d)", True),
    # 500 anywhere else.
    ({}, 35, 499, 0, True, "71(c)(1)(c)", False),
    ({}, 35, 500, 0, True, "71(c)(1)(d)", True),
    # Where several apply the lowest minimum is used: tract and restricted -> 150.
    (
        {"location__qualified_incentive_tract": True, "location__government_restricted_municipality": True},
        35,
        150,
        0,
        True,
        "71(c)(1)(d)",
        True,
    ),
    # (d) needs (b) or (c): 34 new jobs and 600 retained elsewhere is not (d) ...
    ({}, 34, 600, 0, False, None, False),
    # (e) not eligible under (b)-(d), in a tract / enhanced area / restricted municipality: 500 retained.
    ({"location__qualified_incentive_tract": True}, 10, 499, 0, False, None, False),
    ({"location__qualified_incentive_tract": True}, 10, 500, 0, True, "71(c)(1)(e)", True),
    ({"location__enhanced_area": True}, 0, 500, 0, True, "71(c)(1)(e)", True),
    ({"location__government_restricted_municipality": True}, 0, 500, 0, True, "71(c)(1)(e)", True),
    # (e) does not apply elsewhere in the State.
    ({}, 10, 999, 0, False, None, False),
    # (f) not eligible under (b)-(e), anywhere in the State: 1,000 retained.
    ({}, 10, 1000, 0, True, "71(c)(1)(f)", True),
    ({}, 0, 1001, 0, True, "71(c)(1)(f)", True),
    # (e) and (f) are open to a small business; its clause is then (e) or (f).
    (
        {"business__small_business": True, "location__qualified_incentive_tract": True},
        10,
        500,
        40,
        True,
        "71(c)(1)(e)",
        True,
    ),
    ({"business__small_business": True}, 10, 1000, 40, True, "71(c)(1)(f)", True),
    ({"business__small_business": True}, 10, 999, 40, True, "71(c)(1)(a)", False),
    ({"business__small_business": True}, 9, 1000, 40, True, "71(c)(1)(f)", True),
]


@pytest.mark.parametrize("facts, new, retained, workforce, met, clause, retained_count", CASES)
def test_job_minimum(facts, new, retained, workforce, met, clause, retained_count):
    changes = dict(facts, jobs__new=new, jobs__retained=retained)
    if workforce:
        changes["business__full_time_employees_at_application"] = workforce
    result = evaluate(**changes)
    assert result.check("71(a)(2)") is met
    assert result.jobs_clause == clause
    assert result.retained_jobs_eligible is retained_count
    assert result.to_dict()["jobs_clause"] == clause


def test_retained_jobs_count_toward_the_benefits_only_when_eligible_under_credit_eligible_only():
    """Under ``readings.retained_benefits: credit_eligible_only`` retained jobs enter the jobs of each
    year only when 71(c) makes them eligible; by default (71(a)(5), all_retained) they always do."""
    reading = {"readings__retained_benefits": "credit_eligible_only"}
    counted = evaluate(jobs__new=35, jobs__retained=500, **reading)
    not_counted = evaluate(jobs__new=35, jobs__retained=499, **reading)
    assert counted.cashflows["retained_full_time_jobs"].iloc[0] == 500
    assert not_counted.cashflows["retained_full_time_jobs"].iloc[0] == 0
    assert evaluate(jobs__new=35, jobs__retained=499).cashflows["retained_full_time_jobs"].iloc[0] == 499


def test_per_retained_job_credit_only_when_retained_jobs_are_eligible():
    award = {"award__annual_credit": None, "award__per_new_job": 1000, "award__per_retained_job": 500}
    # 35 x 1,000 + 500 x 500 = 285,000 a year when the 500 retained count (71(c)(1)(d)) ...
    assert evaluate(jobs__new=35, jobs__retained=500, **award).cashflows["credits"].iloc[0] == 285000
    # ... and 35 x 1,000 = 35,000 when 499 do not.
    assert evaluate(jobs__new=35, jobs__retained=499, **award).cashflows["credits"].iloc[0] == 35000
