"""New Jersey's taxes as pure, vectorised functions of the cited parameters (``law/parameters/taxes.yaml``).

- :func:`bracket_tax` and :func:`gross_income_tax`: the Gross Income Tax of a taxable income by
  the progressive schedule of N.J.S.A. 54A:2-1, single filers or married couples filing jointly;
- :func:`expected_bracket_tax` and :func:`expected_gross_income_tax`: the expected tax of one job
  whose wage is drawn from a lognormal distribution (median, dispersion sigma = standard deviation
  of log wages), each job's wage being its filer's whole income;
- :func:`corporation_business_tax`: the Corporation Business Tax of an allocated taxable net
  income, N.J.S.A. 54:10A-5, with the surtax (54:10A-5.41) and the Corporate Transit Fee in the
  tax years they apply.

Every function takes numbers or numpy arrays (broadcast together), touches no files and no global
state, and is reused by the single-scenario and the vectorised (sweep, Monte Carlo) paths alike.

The expectation over the lognormal wage is computed in closed form, not by sampling: a bracket
schedule is a sum of ramps ``dr_k x max(w - K_k, 0)`` (``dr_k`` the step of the marginal rate at
the threshold ``K_k``), and the expectation of each ramp under a lognormal law is the
Black-Scholes call value ``m e^(s^2/2) N(d1) - K N(d2)``. The result is exact to floating-point
rounding (tests compare it with an adaptive numerical integral split at every bracket threshold,
to 1e-8), the same on every run, and costs two normal CDFs per bracket and array element.
Gauss-Hermite quadrature was the alternative; on a schedule with kinks it converges slowly (about
1e-4 relative error with 200 nodes), short of the 1e-6 the model asks for.
"""

from __future__ import annotations

import datetime as dt

import numpy as np

from .parameters import PARAMETERS, parameter

#: Filing statuses with a rate schedule, and their parameter names (N.J.S.A. 54A:2-1).
FILING_STATUSES = {
    "single": "gross_income_tax_brackets_single",  # 54A:2-1(b)
    "married_joint": "gross_income_tax_brackets_married_joint",  # 54A:2-1(a)
}
#: Personal exemptions per return (N.J.S.A. 54A:3-1(a); (b)(1) adds the spouse's on a joint return).
EXEMPTIONS_PER_RETURN = {"single": 1, "married_joint": 2}
#: The taxes a benefit stream may belong to (docs/scenario-format.md, "Benefit streams").
TAXES = ("gross_income_tax", "sales_and_use_tax", "corporation_business_tax", "other")


def schedule(filing_status: str) -> tuple[np.ndarray, np.ndarray]:
    """Lower thresholds and marginal rates of a filing status's schedule, N.J.S.A. 54A:2-1.

    Returns
    -------
    lower : ndarray
        Lower bound of each bracket, starting at 0. [USD]
    rates : ndarray
        Marginal rate in each bracket. [share]
    """
    rows = parameter(FILING_STATUSES[filing_status])
    lower = np.array([0.0] + [float(upper) for upper, _ in rows[:-1]])
    rates = np.array([float(rate) for _, rate in rows])
    return lower, rates


def personal_exemption(filing_status: str) -> float:
    """Personal exemptions of one return of this status, N.J.S.A. 54A:3-1(a), (b)(1). [USD]"""
    return EXEMPTIONS_PER_RETURN[filing_status] * float(parameter("gross_income_tax_personal_exemption"))


def bracket_tax(taxable_income, lower, rates):
    """Tax of a progressive schedule: ``sum_k rate_k x (part of the income in bracket k)``.

    Parameters
    ----------
    taxable_income : float or array
        [USD]; negative amounts are taxed as 0.
    lower, rates : sequences
        Lower bound of each bracket (the first is 0) [USD] and its marginal rate.

    >>> float(bracket_tax(50000, [0, 20000, 35000, 40000], [0.014, 0.0175, 0.035, 0.05525]))
    1270.0
    """
    income = np.asarray(taxable_income, dtype=float)
    tax = np.zeros_like(income)
    previous = 0.0
    for threshold, rate in zip(lower, rates, strict=True):
        tax = tax + (rate - previous) * np.maximum(income - threshold, 0.0)
        previous = rate
    return tax


def gross_income_tax(taxable_income, filing_status: str = "single"):
    """New Jersey Gross Income Tax of a taxable income, N.J.S.A. 54A:2-1. [USD]

    Taxable income is gross income less exemptions; :func:`expected_gross_income_tax` deducts the
    personal exemptions from a wage.

    >>> round(float(gross_income_tax(50000)), 2)  # 280 + 262.50 + 175 + 552.50
    1270.0
    >>> round(float(gross_income_tax(100000, "married_joint")), 2)  # 1,645 + 5.525% x 20,000
    2750.0
    """
    lower, rates = schedule(filing_status)
    return bracket_tax(taxable_income, lower, rates)


def mean_wage(median, sigma):
    """The mean of a lognormal wage with median ``median`` and log standard deviation ``sigma``:
    ``median x exp(sigma^2 / 2)``, the one payroll of the wage-based streams. [USD]"""
    sigma = np.asarray(sigma, dtype=float)
    return median * np.exp(0.5 * sigma * sigma)


def expected_bracket_tax(median, sigma, lower, rates, deduction=0.0):
    """Expected tax of a schedule on ``max(W - deduction, 0)``, W lognormal(median, sigma). [USD]

    ``sum_k dr_k x E[max(W - K_k, 0)]`` with ``K_k = deduction + lower_k`` and, for sigma > 0,
    ``E[max(W - K, 0)] = m e^(s^2/2) N(d1) - K N(d2)``, ``d2 = ln(m / K) / s``, ``d1 = d2 + s``
    (``m e^(s^2/2)`` where K = 0); for sigma = 0, ``max(m - K, 0)``.

    Parameters
    ----------
    median : float or array
        Median wage. [USD]
    sigma : float or array
        Standard deviation of the log wage (0: every wage at the median). [-]
    lower, rates : sequences
        The schedule (see :func:`bracket_tax`).
    deduction : float
        Subtracted from the wage before the schedule applies (the personal exemptions). [USD]
    """
    median, sigma = np.broadcast_arrays(np.asarray(median, dtype=float), np.asarray(sigma, dtype=float))
    positive = sigma > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        safe_sigma = np.where(positive, sigma, 1.0)
        log_median = np.log(median)  # -inf where the median is 0
        mean = median * np.exp(0.5 * safe_sigma * safe_sigma)  # E[W] when sigma > 0
        total = np.zeros(median.shape)
        previous = 0.0
        for threshold, rate in zip(lower, rates, strict=True):
            strike = deduction + float(threshold)  # a number, or an array where the deduction varies
            if not positive.any():  # every wage at the median: no normal CDF to compute
                ramp = np.maximum(median - strike, 0.0)
            elif np.any(np.asarray(strike) > 0):
                from scipy.special import ndtr  # the normal CDF; imported here, where needed, not at start-up

                above = np.asarray(strike) > 0
                d2 = (log_median - np.log(np.where(above, strike, 1.0))) / safe_sigma
                call = np.where(above, mean * ndtr(d2 + safe_sigma) - strike * ndtr(d2), mean - strike)
                ramp = np.where(positive, call, np.maximum(median - strike, 0.0))
            else:  # no threshold below the wage: the ramp is the wage itself
                ramp = np.where(positive, mean, median)
            total = total + (rate - previous) * ramp
            previous = rate
    return total


def expected_gross_income_tax(
    median, sigma, shares, *, exemptions: bool = True, index=1.0, dependents=0.0, property_tax=0.0
):
    """Expected New Jersey Gross Income Tax per job, by filing status shares. [USD/job/year]

    Each job's wage is its filer's whole income (no other household income); a share ``shares[s]``
    of the jobs files under status ``s`` (``single``, ``married_joint``).

    Parameters
    ----------
    median, sigma : float or array
        Median wage [USD] and standard deviation of log wages of the jobs.
    shares : mapping of filing status -> share of the jobs
        The shares sum to 1.
    exemptions : bool
        Deduct the personal exemptions of each return (N.J.S.A. 54A:3-1) before the schedule.
    index : float or array
        Factor applied to every bracket threshold and exemption (1: the brackets as enacted;
        ``(1 + inflation)^(t - 1)`` when a scenario indexes them). Since tax(w; thresholds x f)
        = f x tax(w / f; thresholds), the expectation is ``f x E[tax](median / f)``.
    dependents : float or array
        Dependants per return: ``dependents`` x the exemption of N.J.S.A. 54A:3-1(b)(2) deducted.
    property_tax : float or array
        Property taxes (or 18% of the rent) deducted per return, N.J.S.A. 54A:3A-17, at most the
        maximum deduction. [USD]

    >>> round(float(expected_gross_income_tax(50000, 0.0, {"single": 1.0}, exemptions=False)), 2)
    1270.0
    """
    index = np.asarray(index, dtype=float)
    scaled = np.asarray(median, dtype=float) / index
    total = 0.0
    for status, share in shares.items():
        if not np.any(share):  # no job files under this status
            continue
        lower, rates = schedule(status)
        deduction = personal_exemption(status) if exemptions else 0.0
        deduction = deduction + other_deductions(dependents, property_tax) / index
        total = total + share * expected_bracket_tax(scaled, sigma, lower, rates, deduction)
    return index * total


def other_deductions(dependents=0.0, property_tax=0.0):
    """Deductions from gross income beyond the personal exemptions: the dependants' exemptions,
    N.J.S.A. 54A:3-1(b)(2), and the property tax deduction, 54A:3A-17, capped. [USD per return]"""
    dependents = np.asarray(dependents, dtype=float)
    property_tax = np.minimum(np.asarray(property_tax, dtype=float), float(parameter("property_tax_deduction_maximum")))
    deduction = dependents * float(parameter("gross_income_tax_dependent_exemption")) + property_tax
    return float(deduction) if deduction.ndim == 0 else deduction


def tax_forgiven_below_filing_threshold(median, sigma, filing_status: str = "single") -> float:
    """At most how much Gross Income Tax per job the filing threshold of N.J.S.A. 54A:2-4 forgives
    and the model counts: the share of wages at or below the threshold times the tax at the
    threshold (the tax of every such wage is at most that). [USD/job/year]

    >>> tax_forgiven_below_filing_threshold(90000, 0.0)  # no wage at or below $10,000
    0.0
    """
    threshold = float(parameter("gross_income_tax_filing_threshold")[filing_status])
    lower, rates = schedule(filing_status)
    tax_at_threshold = float(bracket_tax(threshold - personal_exemption(filing_status), lower, rates))
    if sigma <= 0:
        return tax_at_threshold if median <= threshold else 0.0
    from scipy.special import ndtr

    return float(ndtr(np.log(threshold / median) / sigma)) * tax_at_threshold


#: Returns by number of qualifying children of the federal earned income credit, in the rows of
#: its table (``federal_earned_income_credit``).
QUALIFYING_CHILDREN = ("none", "one", "two", "three_or_more")


def federal_earned_income_credit_schedule(filing_status: str, children: str) -> tuple[list[float], list[float]]:
    """The federal earned income credit of 26 U.S.C. 32 as a schedule of ramps, (thresholds,
    marginal rates): the credit percentage up to the earned income amount, nothing to the phaseout
    start, minus the phaseout percentage to the end of the phaseout, nothing above. [USD, share]"""
    rate, amount, phaseout, start_other, start_joint = parameter("federal_earned_income_credit")[
        QUALIFYING_CHILDREN.index(children)
    ]
    start = float(start_joint if filing_status == "married_joint" else start_other)
    end = start + float(rate) * float(amount) / float(phaseout)  # the credit reaches 0
    return [0.0, float(amount), start, end], [float(rate), 0.0, -float(phaseout), 0.0]


def expected_nj_earned_income_credit(median, sigma, shares, children, *, index=1.0):
    """Expected New Jersey earned income tax credit per job, N.J.S.A. 54A:4-7: the State's share of
    the federal credit of the job's filer, whose whole earned income is the job's wage (lognormal
    with this median and sigma), by filing status ``shares`` and shares of returns by qualifying
    children ``children`` (keys of :data:`QUALIFYING_CHILDREN`). [USD/job/year]

    A refundable credit: it lowers the Gross Income Tax the job yields and may exceed it.

    >>> round(float(expected_nj_earned_income_credit(8260, 0.0, {"single": 1.0}, {"none": 1.0})), 2)  # 40% of $632
    252.76
    """
    index = np.asarray(index, dtype=float)
    scaled = np.asarray(median, dtype=float) / index
    total = 0.0
    for status, share in shares.items():
        for row, child_share in children.items():
            if not np.any(share) or not np.any(child_share):
                continue
            lower, rates = federal_earned_income_credit_schedule(status, row)
            total = total + share * child_share * expected_bracket_tax(scaled, sigma, lower, rates)
    return float(parameter("nj_earned_income_tax_credit_share")) * index * total


def _in_force(name: str, tax_year):
    """Whether the dated parameter ``name`` applies in the tax year(s) given. [bool array]"""
    entry = PARAMETERS[name]
    year = np.asarray(tax_year)
    applies = year >= entry.effective.year
    if entry.until is not None:
        applies = applies & (year <= entry.until.year)
    return applies


def corporation_business_tax(allocated_taxable_net_income, tax_year):
    """Corporation Business Tax of a taxpayer in a privilege period (calendar tax year). [USD]

    The rate of N.J.S.A. 54:10A-5(c) chosen by the size of the allocated taxable net income applies
    to the whole of it (6.5% up to $50,000, 7.5% up to $100,000, 9% above); the surtax of
    54:10A-5.41 (2.5% of the whole income above $1 million, 2018-2023) and the Corporate Transit
    Fee (2.5% of the whole income above $10 million, 2024-2028) are added in the years they apply.
    The taxpayer is taken to be neither a public utility nor an S corporation.

    >>> float(corporation_business_tax(100000, 2025))  # 7.5% of all of it
    7500.0
    >>> float(corporation_business_tax(2000000, 2022))  # 9% + 2.5% surtax
    230000.0
    """
    income = np.maximum(np.asarray(allocated_taxable_net_income, dtype=float), 0.0)
    rows = parameter("corporation_business_tax_rates")
    rate = np.full_like(income, float(rows[-1][1]))
    for upper, bracket_rate in reversed(rows[:-1]):  # N.J.S.A. 54:10A-5(c): "$100,000 or less" etc.
        rate = np.where(income <= float(upper), float(bracket_rate), rate)
    tax = rate * income
    surtax = _in_force("corporation_business_tax_surtax_rate", tax_year) & (
        income > parameter("corporation_business_tax_surtax_threshold")  # 54:10A-5.41: "in excess of"
    )
    tax = tax + np.where(surtax, parameter("corporation_business_tax_surtax_rate") * income, 0.0)
    fee = _in_force("corporate_transit_fee_rate", tax_year) & (income > parameter("corporate_transit_fee_threshold"))
    return tax + np.where(fee, parameter("corporate_transit_fee_rate") * income, 0.0)


#: Rate schedules held for one period only (no earlier one), with the words a note uses for each.
SCHEDULES = {
    "gross_income_tax_brackets_single": "gross income tax, single filers",
    "gross_income_tax_brackets_married_joint": "gross income tax, married filing jointly",
    "sales_and_use_tax_rate": "sales and use tax rate",
    "corporation_business_tax_rates": "corporation business tax rates",
}


def schedule_conventions(first_tax_year: int, last_tax_year: int, names=tuple(SCHEDULES)) -> tuple[str, ...]:
    """Notes for tax years before the schedules ``names`` are in force.

    A tax year before a schedule's effective date uses the latest (here, the only) schedule held;
    the note says so. Dated surtaxes (the CBT surtax, the Corporate Transit Fee) are not in this
    list: outside their years they do not apply at all.
    """
    notes = []
    for name in names:
        entry = PARAMETERS[name]
        if first_tax_year < entry.effective.year:
            last_before = min(last_tax_year, entry.effective.year - 1)
            notes.append(
                f"{SCHEDULES[name]}: tax years {first_tax_year}-{last_before} "
                f"precede the schedule held (in force from {entry.effective.isoformat()}); "
                f"that schedule is used for them [convention]"
            )
    return tuple(notes)


def tax_years(approval: dt.date, years) -> np.ndarray:
    """Calendar tax year of each project year: project year t is the approval year + t - 1; year 0,
    the approval year's own flows (docs/model.md#timeline), is the approval year too."""
    return approval.year + np.maximum(np.asarray(years) - 1, 0)
