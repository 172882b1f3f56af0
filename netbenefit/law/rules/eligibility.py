"""Eligibility rules of section 71(a)(1)-(4), (6)-(8), 71(b), 71(c), 71(d) and 71(f).

Each function takes numbers or numpy arrays (booleans for flags) and broadcasts, so the same
code decides one scenario or a million variants. Every bound comes from the cited parameters
file; the comparison written on each line is the one its parameter declares.
"""

from __future__ import annotations

import datetime as dt

import numpy as np

from ..parameters import parameter

#: The checks of an evaluation, in the order results list them.
CHECK_IDS = (
    "71(a)(1)",
    "71(a)(2)",
    "71(a)(3)",
    "71(a)(4)",
    "71(a)(5)",
    "71(a)(6)",
    "71(a)(7)",
    "71(a)(8)",
    "71(d)",
    "71(f)",
    "75",
)

#: Codes returned by :func:`job_minimum_clause`: index -> clause (0: the minimum is not met).
JOB_CLAUSES = (None, "71(c)(1)(a)", "71(c)(1)(b)", "71(c)(1)(c)", "71(c)(1)(d)", "71(c)(1)(e)", "71(c)(1)(f)")
_A, _B, _C, _D, _E, _F = 1, 2, 3, 4, 5, 6

INDUSTRIAL_USES = ("industrial", "warehousing", "logistics", "research_and_development")


def capital_investment_rate(use: str, work: str) -> tuple[float, str]:
    """Minimum investment per square foot of a portion of the premises, and its clause.

    ``use`` is the portion's use both before and after the work: a portion rehabilitated for
    continued similar industrial, warehousing, logistics or R&D use takes the 71(b)(1)(a) rate;
    one converted from another use counts as ``other`` (71(b)(1)(c)).

    >>> capital_investment_rate("warehousing", "new_construction")
    (60, '71(b)(1)(b)')
    """
    industrial = use in INDUSTRIAL_USES
    if work == "rehabilitation":
        name = (
            "capital_investment_rate_industrial_rehabilitation"
            if industrial
            else "capital_investment_rate_other_rehabilitation"
        )
        clause = "71(b)(1)(a)" if industrial else "71(b)(1)(c)"
    elif work == "new_construction":
        name = (
            "capital_investment_rate_industrial_new_construction"
            if industrial
            else "capital_investment_rate_other_new_construction"
        )
        clause = "71(b)(1)(b)" if industrial else "71(b)(1)(d)"
    else:
        raise ValueError(f"work must be rehabilitation or new_construction, not {work!r}")
    return parameter(name), clause


def capital_investment_minimum(portions, small_business=False, intent_to_remain_demonstrated=True):
    """Minimum capital investment of 71(b)(1): sum of area x rate over the portions. [USD]

    Parameters
    ----------
    portions : iterable of (use, work, gross_leasable_area_sqft)
        The area may be a number or an array of variants. [sq ft]
    small_business : bool or array of bool
        A small business has no minimum, 71(b)(1)(e), "provided the applicant has demonstrated
        evidence satisfactory to the authority of its intent to remain in the State for the
        commitment period":
    intent_to_remain_demonstrated : bool or array of bool
        that evidence; without it the minimum applies as for any business.

    >>> float(capital_investment_minimum([("other", "rehabilitation", 1000), ("logistics", "rehabilitation", 500)]))
    50000.0
    """
    total = 0.0
    for use, work, area in portions:
        rate, _ = capital_investment_rate(use, work)
        total = total + rate * np.asarray(area, dtype=float)
    waived = np.logical_and(small_business, intent_to_remain_demonstrated)
    return np.where(waived, 0.0, total)  # 71(b)(1)(e)


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
    """The clause of 71(c)(1) under which the business meets the job minimum, as a code.

    ``new_full_time_jobs`` are the new jobs the business will create within the eligibility
    period (the ramp's, not the number written). Under (e) and (f) the retained jobs must also be
    at least ``retained_jobs_at_application``, "a minimum of the business's retained full-time
    jobs at the time of application" (None: not given, no further condition).

    Returns an integer array: an index into :data:`JOB_CLAUSES`, 0 when no clause is met.
    The retained jobs count for the award when the code is that of (d), (e) or (f).

    Order (docs/results.md, `jobs_clause`): (d), (e) or (f) when the retained jobs are eligible under
    it; otherwise (a), (b) or (c), whichever made the business eligible.

    >>> int(job_minimum_clause(35, 0, 0, False, False, False, False, False))
    3
    >>> int(job_minimum_clause(34, 0, 0, False, False, False, False, False))
    0
    """
    new = np.asarray(new_full_time_jobs, dtype=float)
    retained = np.asarray(retained_full_time_jobs, dtype=float)
    workforce = np.asarray(full_time_employees_at_application, dtype=float)
    small = np.asarray(small_business, dtype=bool)
    targeted = np.asarray(targeted_industry, dtype=bool)
    restricted = np.asarray(government_restricted_municipality, dtype=bool)
    tract_or_enhanced = np.logical_or(qualified_incentive_tract, enhanced_area)

    # 71(c)(1)(a): a small business grows its workforce by at least 25% with new jobs.
    growth = parameter("small_business_new_job_growth_share")
    meets_a = small & (workforce >= 1) & (new >= growth * workforce)
    # 71(c)(1)(b): not a small business, primarily in a targeted industry: at least 25 new jobs.
    meets_b = ~small & targeted & (new >= parameter("targeted_industry_minimum_new_jobs"))
    # 71(c)(1)(c): any other business (neither small nor targeted): at least 35 new jobs.
    meets_c = ~small & ~targeted & (new >= parameter("other_business_minimum_new_jobs"))
    # 71(c)(1)(d): a (b)/(c) business also gets its retained jobs at 150 / 250 / 500 retained.
    minimum_d = retained_jobs_minimum(restricted, qualified_incentive_tract, enhanced_area, several_locations)
    meets_d = (meets_b | meets_c) & (retained >= minimum_d)
    # 71(c)(1)(e): not eligible under (b)-(d), in a tract, enhanced area or government-restricted
    # municipality, retaining at least 500.
    # Under (e) and (f), "a minimum of the business's retained full-time jobs at the time of application".
    at_application = np.asarray(
        np.nan if retained_jobs_at_application is None else retained_jobs_at_application, dtype=float
    )
    keeps_application_jobs = np.isnan(at_application) | (retained >= np.nan_to_num(at_application))
    incentive_location = tract_or_enhanced | restricted
    meets_e = (
        ~(meets_b | meets_c | meets_d)
        & incentive_location
        & (retained >= parameter("retained_only_minimum_incentive_location"))
        & keeps_application_jobs
    )
    # 71(c)(1)(f): not eligible under (b)-(e), anywhere in the State, retaining at least 1,000.
    meets_f = (
        ~(meets_b | meets_c | meets_d | meets_e)
        & (retained >= parameter("retained_only_minimum_statewide"))
        & keeps_application_jobs
    )
    return np.select([meets_d, meets_e, meets_f, meets_a, meets_b, meets_c], [_D, _E, _F, _A, _B, _C], default=0)


def new_jobs_minimum(small_business: bool, targeted_industry: bool, full_time_employees_at_application: float):
    """(minimum, clause) of the new-job test of 71(c)(1) that applies to the business: 25% of its
    workforce for a small business, (a); 25 in a targeted industry, (b); 35 for any other, (c).

    >>> new_jobs_minimum(False, False, 0), new_jobs_minimum(True, False, 40)
    ((35, '71(c)(1)(c)'), (10.0, '71(c)(1)(a)'))
    """
    if small_business:
        return parameter("small_business_new_job_growth_share") * full_time_employees_at_application, JOB_CLAUSES[_A]
    if targeted_industry:
        return parameter("targeted_industry_minimum_new_jobs"), JOB_CLAUSES[_B]
    return parameter("other_business_minimum_new_jobs"), JOB_CLAUSES[_C]


def retained_jobs_count(job_clause_code):
    """True where the retained jobs count for the award: eligible under 71(c)(1)(d), (e) or (f)."""
    return np.isin(job_clause_code, (_D, _E, _F))


def prevailing_wage_exemptions(
    landlord_not_assisted,
    landlord_party_to_contract,
    lease_share_of_facility,
    construction_starts_years_after_first_certificate,
):
    """The two exemptions of 71(a)(8): ``(exempt, construction_exempt)``.

    ``exempt``: 71(a)(8)(a)(i)-(iii), all three: (i) the landlord is not assisted, (ii) it is a
    party to the contract, (iii) a lease of less than 35% of the entire facility. ``construction_exempt``:
    71(a)(8)(b), construction commencing more than two years after the first certificate of
    compliance needs no prevailing wage (construction work only, never building services). A share
    or a number of years not given (NaN or ``None``) compares False: no exemption is presumed.

    >>> [bool(x) for x in prevailing_wage_exemptions(True, True, 0.3, None)]
    [True, False]
    """
    lease_share = np.asarray(np.nan if lease_share_of_facility is None else lease_share_of_facility, dtype=float)
    years_after = np.asarray(
        np.nan
        if construction_starts_years_after_first_certificate is None
        else construction_starts_years_after_first_certificate,
        dtype=float,
    )
    exempt = (
        np.asarray(landlord_not_assisted, dtype=bool)
        & np.asarray(landlord_party_to_contract, dtype=bool)
        & (lease_share < parameter("prevailing_wage_exemption_lease_share_maximum"))  # 71(a)(8)(a)(iii)
    )
    construction_exempt = years_after > parameter("prevailing_wage_construction_exemption_years")  # 71(a)(8)(b)
    return exempt, construction_exempt


def prevailing_wage_satisfied(
    construction,
    building_services,
    landlord_not_assisted,
    landlord_party_to_contract,
    lease_share_of_facility,
    construction_starts_years_after_first_certificate,
):
    """71(a)(8): prevailing wage paid, or an exemption applies (:func:`prevailing_wage_exemptions`).

    Parameters
    ----------
    construction, building_services : bool or array
        Construction / building-services workers are paid prevailing wage.
    landlord_not_assisted, landlord_party_to_contract : bool or array
        71(a)(8)(a)(i) and (ii).
    lease_share_of_facility : float or array
        The largest share of the entire facility leased, at contract time or later (NaN or
        ``None`` when not given: no exemption). [share]
    construction_starts_years_after_first_certificate : float or array
        NaN or ``None`` when not given. [years]
    """
    exempt, construction_exempt = prevailing_wage_exemptions(
        landlord_not_assisted,
        landlord_party_to_contract,
        lease_share_of_facility,
        construction_starts_years_after_first_certificate,
    )
    construction_ok = np.asarray(construction, dtype=bool) | construction_exempt
    return exempt | (np.asarray(building_services, dtype=bool) & construction_ok)


def weighted_withholding_share(shares, jobs):
    """NJ withholding share of the new and retained full-time jobs of all phases, 71(d) ("not less
    than 80 percent of the withholdings"): each phase's share weighted by ``jobs``, its withholdings
    (:func:`netbenefit.model.withholdings.phase_weights`: income tax withheld, wages, or jobs where no
    salary is given); the initial phase's share where every weight is zero. [share]

    >>> float(weighted_withholding_share([0.9, 0.5], [100, 100]))
    0.7
    """
    shares = np.broadcast_arrays(*[np.asarray(s, dtype=float) for s in shares])
    jobs = np.broadcast_arrays(*[np.asarray(j, dtype=float) for j in jobs])
    total = sum(jobs)
    weighted = sum(s * j for s, j in zip(shares, jobs, strict=True))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, weighted / np.where(total > 0, total, 1.0), shares[0])


def accommodation_and_withholding_satisfied(accommodates_share, nj_withholding_share):
    """71(d): the facility holds more than half of the new and retained full-time employees,
    and not less than 80% of their withholdings are subject to the NJ Gross Income Tax Act.

    ``accommodates_share`` may be a list (the initial facility and the premises each later phase
    adds): every one must accommodate more than half."""
    if isinstance(accommodates_share, list | tuple):
        accommodates = np.logical_and.reduce(
            [accommodation_and_withholding_satisfied(share, 1.0) for share in accommodates_share]
        )
        return accommodates & accommodation_and_withholding_satisfied(1.0, nj_withholding_share)
    accommodates = np.asarray(accommodates_share, dtype=float) > parameter("accommodation_share_minimum")
    withholding = np.asarray(nj_withholding_share, dtype=float) >= parameter(
        "gross_income_tax_withholding_share_minimum"
    )
    return accommodates & withholding


def application_date_satisfied(application_date: dt.date) -> bool:
    """71(f): on or after the effective date of P.L.2020, c.156 and prior to 2029-03-01."""
    return parameter("application_period_start") <= application_date < parameter("application_deadline")
