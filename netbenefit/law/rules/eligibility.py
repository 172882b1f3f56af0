"""Eligibility rules of section 71(a)(1), (3), (4), (6)-(8), 71(b), 71(d) and 71(f) (the job
minimum of 71(a)(2) and 71(c) is :mod:`netbenefit.law.rules.job_minimum`).

Each function takes numbers or numpy arrays (booleans for flags) and broadcasts, so the same
code decides one scenario or a million variants. Every bound comes from the cited parameters
file; the comparison written on each line is the one its parameter declares. Each check has one
function that makes its record (:class:`~netbenefit.law.rules.decision.Decision`) where it compares:
:func:`capital_investment_decision` 71(a)(1), :func:`flag_decision` 71(a)(3), (4), (6) and (7),
:func:`prevailing_wage_decision` 71(a)(8), :func:`accommodation_and_withholding_decision` 71(d),
:func:`application_date_decision` 71(f); the functions that return a verdict alone
(``prevailing_wage_satisfied``, ...) read it from the record.
"""

from __future__ import annotations

import datetime as dt

import numpy as np

from ..parameters import parameter
from .decision import Comparison, Decision

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


def capital_investment_decision(
    portions, capital_investment, small_business=False, intent_to_remain_demonstrated=True, shortfall_is_donation=True
) -> Decision:
    """71(a)(1): the initial phase's capital investment against the minimum of 71(b)(1).

    A shortfall is not a failure where it is read as the obligation of 71(b)(2) to donate the
    uninvested balance to the infrastructure fund (``shortfall_is_donation``, the default reading);
    read as a condition, it makes the business ineligible. The record's facts: ``minimum``,
    ``shortfall``, ``donation`` [USD], ``portions`` (each portion's area, use, work, rate per sq ft
    and clause), ``small_business``, ``waived`` (71(b)(1)(e)), ``shortfall_is_donation``.

    >>> decision = capital_investment_decision([("other", "rehabilitation", 1000)], 30000.0)
    >>> bool(decision.passed), float(decision.facts["donation"])
    (True, 10000.0)
    """
    portions = list(portions)
    minimum = capital_investment_minimum(portions, small_business, intent_to_remain_demonstrated)
    investment = np.asarray(capital_investment, dtype=float)
    shortfall = np.maximum(0.0, minimum - investment)
    # 71(b)(2): a shortfall is donated (the default reading) or, read as a condition, makes the business ineligible.
    donation = shortfall if shortfall_is_donation else np.zeros_like(shortfall)
    passed = np.ones(np.shape(shortfall), dtype=bool) if shortfall_is_donation else ~(shortfall > 0)
    terms = tuple(
        (area, use, work, *capital_investment_rate(use, work)) for use, work, area in portions
    )  # (area, use, work, rate, clause) of each portion, 71(b)(1)
    comparison = Comparison(
        investment, minimum, "at_least", investment >= minimum, "usd", "capital investment", "71(b)(1)"
    )
    facts = {
        "minimum": minimum,
        "shortfall": shortfall,
        "donation": donation,
        "portions": terms,
        "small_business": np.asarray(small_business, dtype=bool),
        "waived": np.logical_and(small_business, intent_to_remain_demonstrated),  # 71(b)(1)(e)
        "shortfall_is_donation": shortfall_is_donation,
    }
    return Decision("71(a)(1)", passed, (comparison,), 0, facts)


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
    """71(a)(8): prevailing wage paid, or an exemption applies (:func:`prevailing_wage_decision`).

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
    return prevailing_wage_decision(
        construction,
        building_services,
        landlord_not_assisted,
        landlord_party_to_contract,
        lease_share_of_facility,
        construction_starts_years_after_first_certificate,
    ).passed


def prevailing_wage_decision(
    construction,
    building_services,
    landlord_not_assisted,
    landlord_party_to_contract,
    lease_share_of_facility,
    construction_starts_years_after_first_certificate,
) -> Decision:
    """71(a)(8) as one record (arguments as :func:`prevailing_wage_satisfied`): passed where the
    exemption of (a)(i)-(iii) holds, or building-services workers are paid prevailing wage and
    construction workers are too or construction is exempt under (b). Its facts: ``exempt``,
    ``construction_exempt`` (:func:`prevailing_wage_exemptions`), the ``lease_share`` and
    ``lease_share_maximum`` of (a)(iii), the ``years_after`` and ``years_after_minimum`` of (b)."""
    exempt, construction_exempt = prevailing_wage_exemptions(
        landlord_not_assisted,
        landlord_party_to_contract,
        lease_share_of_facility,
        construction_starts_years_after_first_certificate,
    )
    construction_ok = np.asarray(construction, dtype=bool) | construction_exempt
    passed = exempt | (np.asarray(building_services, dtype=bool) & construction_ok)
    facts = {
        "exempt": exempt,
        "construction_exempt": construction_exempt,
        "lease_share": lease_share_of_facility,
        "lease_share_maximum": parameter("prevailing_wage_exemption_lease_share_maximum"),  # 71(a)(8)(a)(iii)
        "years_after": construction_starts_years_after_first_certificate,
        "years_after_minimum": parameter("prevailing_wage_construction_exemption_years"),  # 71(a)(8)(b)
    }
    return Decision("71(a)(8)", passed, facts=facts)


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
    and not less than 80% of their withholdings are subject to the NJ Gross Income Tax Act
    (:func:`accommodation_and_withholding_decision`).

    ``accommodates_share`` may be a list (the initial facility and the premises each later phase
    adds): every one must accommodate more than half."""
    shares = list(accommodates_share) if isinstance(accommodates_share, list | tuple) else [accommodates_share]
    return accommodation_and_withholding_decision(shares, nj_withholding_share).passed


def accommodation_and_withholding_decision(accommodates_shares, nj_withholding_share, premises=None) -> Decision:
    """71(d) as one record: each premises' share of the new and retained full-time employees it
    accommodates, more than half (the initial facility first, then the premises later phases add,
    named by ``premises``), then the NJ withholding share of the jobs of all phases, not less than
    80 percent. The first comparison that fails decides (none where the check passes)."""
    accommodation_minimum = parameter("accommodation_share_minimum")
    withholding_minimum = parameter("gross_income_tax_withholding_share_minimum")
    premises = premises or ["facility"] + [f"premises {k}" for k in range(1, len(accommodates_shares))]
    comparisons = [
        Comparison(
            share,
            accommodation_minimum,
            "more_than",
            np.asarray(share, dtype=float) > accommodation_minimum,  # 71(d): "more than half"
            "share",
            name,
            "71(d)",
        )
        for name, share in zip(premises, accommodates_shares, strict=True)
    ]
    withholding = np.asarray(nj_withholding_share, dtype=float)
    comparisons.append(
        Comparison(
            withholding,
            withholding_minimum,
            "at_least",
            withholding >= withholding_minimum,  # 71(d): "not less than 80 percent"
            "share",
            "withholdings",
            "71(d)",
        )
    )
    holds = np.broadcast_arrays(*[np.asarray(comparison.holds, dtype=bool) for comparison in comparisons])
    failing = ~np.stack(holds, axis=-1)
    deciding = np.where(np.any(failing, axis=-1), np.argmax(failing, axis=-1), -1)
    return Decision("71(d)", np.logical_and.reduce(holds), tuple(comparisons), deciding)


def application_date_satisfied(application_date: dt.date) -> bool:
    """71(f): on or after the effective date of P.L.2020, c.156 and prior to 2029-03-01."""
    return bool(application_date_decision(application_date).passed)


def application_date_decision(application_date: dt.date) -> Decision:
    """71(f) as one record: its facts are the ``application_date`` and the period's ``start`` (on
    or after) and ``deadline`` (prior to)."""
    start, deadline = parameter("application_period_start"), parameter("application_deadline")
    passed = start <= application_date < deadline  # 71(f): on or after the start, prior to the deadline
    facts = {"application_date": application_date, "start": start, "deadline": deadline}
    return Decision("71(f)", np.array([[passed]]), facts=facts)


#: The checks whose record is a flag: the location of 71(a)(3) and the attestations.
FLAG_CHECKS = ("71(a)(3)", "71(a)(4)", "71(a)(6)", "71(a)(7)")


def flag_decision(check_id: str, flag) -> Decision:
    """The record of a check decided by one flag (:data:`FLAG_CHECKS`): 71(a)(3), located in a
    qualified incentive area; 71(a)(4), (6), (7), attested. A flag not given is false."""
    return Decision(check_id, np.asarray(flag, dtype=bool))
