"""The job minimum of 71(a)(2): the clauses of 71(c)(1), (a) to (f), decided on the initial phase.

Each function takes numbers or numpy arrays and broadcasts; every bound comes from the cited
parameters file. :func:`job_minimum_decision` makes the check's record where it compares; the
functions that return a part of it alone (:func:`job_minimum_clause`, :func:`new_jobs_minimum`)
read it from the record.
"""

from __future__ import annotations

import numpy as np

from ..parameters import parameter
from .decision import Comparison, Decision

#: Codes returned by :func:`job_minimum_clause`: index -> clause (0: the minimum is not met).
JOB_CLAUSES = (None, "71(c)(1)(a)", "71(c)(1)(b)", "71(c)(1)(c)", "71(c)(1)(d)", "71(c)(1)(e)", "71(c)(1)(f)")
_A, _B, _C, _D, _E, _F = 1, 2, 3, 4, 5, 6


def retained_jobs_minimum(
    government_restricted_municipality, qualified_incentive_tract, enhanced_area, several_locations="lowest"
):
    """Retained jobs that make a (b)/(c)-eligible business eligible for them too, 71(c)(1)(d).

    Where a location is several of these, the lowest minimum applies (a convention, the default
    reading); ``several_locations="highest"`` takes the highest of those that apply instead.
    """
    if several_locations == "highest":
        return np.where(
            np.logical_or(qualified_incentive_tract, enhanced_area),
            parameter("retained_jobs_minimum_tract_or_enhanced_area"),
            np.where(
                government_restricted_municipality,
                parameter("retained_jobs_minimum_government_restricted_municipality"),
                parameter("retained_jobs_minimum_elsewhere"),
            ),
        )
    return np.where(
        government_restricted_municipality,
        parameter("retained_jobs_minimum_government_restricted_municipality"),
        np.where(
            np.logical_or(qualified_incentive_tract, enhanced_area),
            parameter("retained_jobs_minimum_tract_or_enhanced_area"),
            parameter("retained_jobs_minimum_elsewhere"),
        ),
    )


def job_minimum_clause(
    new_full_time_jobs,
    retained_full_time_jobs,
    full_time_employees_at_application,
    small_business,
    targeted_industry,
    government_restricted_municipality,
    qualified_incentive_tract,
    enhanced_area,
    retained_jobs_at_application=None,
    several_locations="lowest",
):
    """The clause of 71(c)(1) under which the business meets the job minimum, as a code
    (:func:`job_minimum_decision`, whose record gives it as the fact ``code``).

    Returns an integer array: an index into :data:`JOB_CLAUSES`, 0 when no clause is met.
    The retained jobs count for the award when the code is that of (d), (e) or (f).

    >>> int(job_minimum_clause(35, 0, 0, False, False, False, False, False))
    3
    >>> int(job_minimum_clause(34, 0, 0, False, False, False, False, False))
    0
    """
    return job_minimum_decision(
        new_full_time_jobs,
        retained_full_time_jobs,
        full_time_employees_at_application,
        small_business,
        targeted_industry,
        government_restricted_municipality,
        qualified_incentive_tract,
        enhanced_area,
        retained_jobs_at_application,
        several_locations,
    ).facts["code"]


def job_minimum_decision(
    new_full_time_jobs,
    retained_full_time_jobs,
    full_time_employees_at_application,
    small_business,
    targeted_industry,
    government_restricted_municipality,
    qualified_incentive_tract,
    enhanced_area,
    retained_jobs_at_application=None,
    several_locations="lowest",
) -> Decision:
    """71(a)(2): the job minimum of 71(c)(1), decided on the initial phase.

    ``new_full_time_jobs`` are the new jobs the business will create within the eligibility
    period (the ramp's, not the number written). Under (e) and (f) the retained jobs must also be
    at least ``retained_jobs_at_application``, "a minimum of the business's retained full-time
    jobs at the time of application" (None: not given, no further condition).

    Order (docs/results.md, `jobs_clause`): (d), (e) or (f) when the retained jobs are eligible under
    it; otherwise (a), (b) or (c), whichever made the business eligible.

    The record compares the new jobs with the minimum of (a), (b) or (c) that applies to the
    business, and the retained jobs with the minimum of (d), (e) or (f) where one of them decides.
    Its facts: ``code`` (an index into :data:`JOB_CLAUSES`, 0 when no clause is met),
    ``retained_eligible`` (the retained jobs count for the award: (d), (e) or (f)), the retained-job
    minimums ``retained_minimum_d``, ``retained_minimum_e``, ``retained_minimum_f``, the small
    business's ``growth_share`` and ``workforce``, and ``retained``.

    >>> decision = job_minimum_decision(35, 0, 0, False, False, False, False, False)
    >>> int(decision.facts["code"]), bool(decision.passed)
    (3, True)
    """
    new = np.asarray(new_full_time_jobs, dtype=float)
    retained = np.asarray(retained_full_time_jobs, dtype=float)
    workforce = np.asarray(full_time_employees_at_application, dtype=float)
    small = np.asarray(small_business, dtype=bool)
    targeted = np.asarray(targeted_industry, dtype=bool)
    restricted = np.asarray(government_restricted_municipality, dtype=bool)
    growth = parameter("small_business_new_job_growth_share")
    minimum_d = retained_jobs_minimum(restricted, qualified_incentive_tract, enhanced_area, several_locations)
    minimum, meets = _clauses_met(
        new,
        retained,
        workforce,
        small,
        targeted,
        np.logical_or(qualified_incentive_tract, enhanced_area) | restricted,
        growth,
        minimum_d,
        retained_jobs_at_application,
    )
    minimum_a, minimum_b, minimum_c, _, minimum_e, minimum_f = minimum
    meets_a, meets_b, meets_c, meets_d, meets_e, meets_f = meets
    code = np.select([meets_d, meets_e, meets_f, meets_a, meets_b, meets_c], [_D, _E, _F, _A, _B, _C], default=0)

    # The new jobs against the minimum of the one clause of (a), (b), (c) that applies to the business.
    new_minimum = np.where(small, minimum_a, np.where(targeted, minimum_b, minimum_c))
    new_clause = np.where(small, JOB_CLAUSES[_A], np.where(targeted, JOB_CLAUSES[_B], JOB_CLAUSES[_C]))
    new_jobs = Comparison(
        new,
        new_minimum,
        "at_least",
        np.where(small, meets_a, np.where(targeted, meets_b, meets_c)),
        "jobs",
        "new full-time jobs",
        new_clause,
    )
    # The retained jobs against the minimum of (d), (e) or (f), where that clause decided.
    retained_decides = code >= _D  # (d), (e) or (f)
    retained_jobs = Comparison(
        retained,
        np.select([code == _D, code == _E], [minimum_d, minimum_e], minimum_f),
        "at_least",
        retained_decides,
        "jobs",
        "retained full-time jobs",
        np.asarray(JOB_CLAUSES, dtype=object)[np.where(retained_decides, code, _F)],
        applies=retained_decides,
    )
    facts = {
        "code": code,
        "retained_eligible": retained_jobs_count(code),
        "retained": retained,
        "retained_minimum_d": minimum_d,
        "retained_minimum_e": minimum_e,
        "retained_minimum_f": minimum_f,
        "growth_share": growth,
        "workforce": workforce,
    }
    return Decision("71(a)(2)", code > 0, (new_jobs, retained_jobs), np.where(retained_decides, 1, 0), facts)


def _clauses_met(new, retained, workforce, small, targeted, incentive_location, growth, minimum_d, at_application):
    """The minimum of each clause of 71(c)(1), (a) to (f), and where the business meets it: (d) only
    for a business eligible under (b) or (c), (e) and (f) only where no clause before them is met."""
    # 71(c)(1)(a): a small business grows its workforce by at least 25% with new jobs.
    minimum_a = growth * workforce
    meets_a = small & (workforce >= 1) & (new >= minimum_a)
    # 71(c)(1)(b): not a small business, primarily in a targeted industry: at least 25 new jobs.
    minimum_b = parameter("targeted_industry_minimum_new_jobs")
    meets_b = ~small & targeted & (new >= minimum_b)
    # 71(c)(1)(c): any other business (neither small nor targeted): at least 35 new jobs.
    minimum_c = parameter("other_business_minimum_new_jobs")
    meets_c = ~small & ~targeted & (new >= minimum_c)
    # 71(c)(1)(d): a (b)/(c) business also gets its retained jobs at 150 / 250 / 500 retained.
    meets_d = (meets_b | meets_c) & (retained >= minimum_d)
    # 71(c)(1)(e): not eligible under (b)-(d), in a tract, enhanced area or government-restricted
    # municipality, retaining at least 500.
    # Under (e) and (f), "a minimum of the business's retained full-time jobs at the time of application".
    at_application = np.asarray(np.nan if at_application is None else at_application, dtype=float)
    keeps_application_jobs = np.isnan(at_application) | (retained >= np.nan_to_num(at_application))
    minimum_e = parameter("retained_only_minimum_incentive_location")
    meets_e = ~(meets_b | meets_c | meets_d) & incentive_location & (retained >= minimum_e) & keeps_application_jobs
    # 71(c)(1)(f): not eligible under (b)-(e), anywhere in the State, retaining at least 1,000.
    minimum_f = parameter("retained_only_minimum_statewide")
    meets_f = ~(meets_b | meets_c | meets_d | meets_e) & (retained >= minimum_f) & keeps_application_jobs
    return (
        (minimum_a, minimum_b, minimum_c, minimum_d, minimum_e, minimum_f),
        (meets_a, meets_b, meets_c, meets_d, meets_e, meets_f),
    )


def new_jobs_minimum(small_business: bool, targeted_industry: bool, full_time_employees_at_application: float):
    """(minimum, clause) of the new-job test of 71(c)(1) that applies to the business: 25% of its
    workforce for a small business, (a); 25 in a targeted industry, (b); 35 for any other, (c)
    (the limit of the first comparison of :func:`job_minimum_decision`).

    >>> new_jobs_minimum(False, False, 0), new_jobs_minimum(True, False, 40)
    ((35.0, '71(c)(1)(c)'), (10.0, '71(c)(1)(a)'))
    """
    record = job_minimum_decision(
        0, 0, full_time_employees_at_application, small_business, targeted_industry, False, False, False
    ).variant(0)
    return record.comparisons[0].limit, record.comparisons[0].clause


def retained_jobs_count(job_clause_code):
    """True where the retained jobs count for the award: eligible under 71(c)(1)(d), (e) or (f)."""
    return np.asarray(job_clause_code) >= _D  # the codes of (d), (e) and (f) are the last three
