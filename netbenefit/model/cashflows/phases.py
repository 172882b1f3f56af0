"""The steps of the model for one phase: jobs, wages, construction, credits, benefit window,
taxes and present values (:func:`phase_flows`), in project years.

A phase starting ``start_year`` years after approval has phase year t in project year
``start_year + t`` (docs/model.md#timeline); the initial phase starts at 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...law import award, finance, taxes
from .computation import Component, PhaseFlows
from .inputs import Inputs
from .present_values import sum_of_products, weighted_present_value
from .streams import driver_components, net_benefits


@dataclass(slots=True)
class ProjectFacts:
    """What every phase reads from the steps before the phases (:mod:`netbenefit.model.cashflows.steps`)."""

    retained_eligible: np.ndarray  # (n, 1): 71(c) makes the retained jobs eligible for credits
    counted_extension: np.ndarray  # (n, 1): the extended commitment the test counts, 71(a)(5)(d) [years]
    years: np.ndarray  # (years,): the project years of the timeline
    discount_factor: np.ndarray  # (n, years)
    sales_tax_rate: np.ndarray | float  # (1 or n, 1); 0 without a revenue block
    inflation_growth: np.ndarray  # (1 or n, years): x (1 + inflation)^(t - 1) in project year t


def by_year(inputs: Inputs, key: str, mapping: Mapping[int, float], phase_year: np.ndarray) -> np.ndarray:
    """A year mapping (phase years) laid on project years: sum of value_k where phase year = k."""
    total = np.zeros_like(phase_year, dtype=float)
    for year in mapping:
        total = total + inputs.number(f"{key}.{year}") * (phase_year == year)
    return total


def ramp(inputs: Inputs, prefix: str, ramp_length: int, phase_year: np.ndarray) -> np.ndarray:
    """Share of new jobs in place in each phase year: the t-th ramp value, the last one holding."""
    index = np.clip(phase_year - 1, 0, ramp_length - 1)
    values = [inputs.number(f"{prefix}jobs.ramp.{i}") for i in range(ramp_length)]
    if all(v.shape[0] == 1 for v in values):
        return np.array([v[0, 0] for v in values])[index]
    matrix = np.concatenate(np.broadcast_arrays(*values), axis=1)  # (n, ramp_length)
    index = np.broadcast_to(index, (matrix.shape[0], index.shape[1]))
    return np.take_along_axis(matrix, index, axis=1)


def mean_wage(inputs: Inputs, salary: np.ndarray) -> np.ndarray:
    """The average wage of the jobs whose median is ``salary``: with a lognormal law of wages whose
    log standard deviation is ``revenue.income_tax.wage_dispersion`` (brackets only), the mean
    (:func:`netbenefit.law.taxes.mean_wage`); the median itself otherwise."""
    income_tax = inputs.scenario.revenue.income_tax if inputs.scenario.revenue else None
    if getattr(income_tax, "method", None) != "brackets":
        return salary
    return taxes.mean_wage(salary, inputs.number("revenue.income_tax.wage_dispersion"))


def full_time_jobs(inputs: Inputs, prefix: str, phase, phase_year, active, retained_eligible, width: int):
    """The jobs step: new full-time jobs (ramped), retained full-time jobs and their sum by year.

    jobs_t = new x ramp_t + retained. 71(a)(5) counts "the resultant creation and retention of new
    and retained full-time jobs": every retained job the scenario states
    (readings.retained_benefits: all_retained), or only those 71(c) makes eligible for credits.

    Returns
    -------
    (new_jobs, retained_jobs, jobs) : arrays ``(1 or n, years)``
    """
    number = inputs.number
    new_jobs = number(prefix + "jobs.new") * (ramp(inputs, prefix, len(phase.jobs.ramp), phase_year) * active)
    retained = number(prefix + "jobs.retained")
    if inputs.scenario.readings.retained_benefits == "credit_eligible_only":
        retained = np.where(retained_eligible, retained, 0.0)
    if np.any(retained):
        retained_jobs = retained * active
        jobs = new_jobs + retained_jobs
    else:  # none counted: the jobs are the new jobs (adding zeros would give the same numbers)
        retained_jobs = np.zeros((1, width))
        jobs = new_jobs
    return new_jobs, retained_jobs, jobs


def wages_of(inputs: Inputs, prefix: str, phase_year: np.ndarray, jobs: np.ndarray):
    """The wages step: the median salary of each year, and the payroll [USD].

    One payroll: with a lognormal wage dispersion sigma the average wage is the median x
    exp(sigma^2/2), and every wage-based stream reads that mean (readings.payroll).

    Returns
    -------
    (salary, wages) : arrays ``(1 or n, years)``
    """
    number = inputs.number
    salary = number(prefix + "jobs.median_salary") * (1.0 + number(prefix + "jobs.salary_growth")) ** (
        np.maximum(phase_year, 1) - 1
    )
    wages = jobs * (mean_wage(inputs, salary) if inputs.scenario.readings.payroll == "mean" else salary)
    return salary, wages


def tax_credits(inputs: Inputs, prefix: str, phase, phase_year: np.ndarray, first, retained_eligible: np.ndarray):
    """The credits step: the annual credit in each year of the eligibility period (never weighted),
    given as an annual amount, per job, or built by the section 75 calculator (:mod:`netbenefit.law.award`).
    ``first`` is the phase year of the first credit (``award.first_credit_year``).

    Returns ``(1 or n, years)`` [USD].
    """
    number = inputs.number
    credit_years = number(prefix + "award.eligibility_period_years")
    in_credit_period = (phase_year >= first) & (phase_year < first + credit_years)
    if phase.award.annual_credit is not None:
        annual_credit = number(prefix + "award.annual_credit")
    else:  # per job: given, or built by the section 75 calculator (netbenefit.law.award)
        if phase.award.section_75 is not None:
            per_job = award.scenario_credit_per_job(inputs, prefix)
            per_new_job, per_retained_job = per_job.new_job, per_job.retained_job
        else:
            per_new_job = number(prefix + "award.per_new_job")
            per_retained_job = number(prefix + "award.per_retained_job")
        annual_credit = award.annual_credit(
            per_new_job,
            per_retained_job,
            number(prefix + "jobs.new"),
            number(prefix + "jobs.retained"),
            retained_eligible,
        )
    return annual_credit * in_credit_period


def benefit_window(index: int, start, first, period, phase_year, active, facts: ProjectFacts):
    """The windows step: from approval through the commitment period (plus a counted extension).

    2.1: year 0, the approval year, is inside every window of the initial phase (its flows are the
    only ones there; a later phase's years start at 1).

    Returns
    -------
    (window_end, weight, weight_without_extension)
        The end of the window ``(n, 1)`` [years after approval] and the window weights
        ``(n, years)``; the two weights are one array where no extension counts.
    """
    years = facts.years
    width = len(years)
    window_end_without = start + first - 1 + period
    window_end = window_end_without + facts.counted_extension
    in_window = phase_year >= 0 if index == 0 else active
    weight = finance.window_weights(window_end[:, 0], years).reshape(-1, width) * in_window
    if np.any(facts.counted_extension):
        weight_without = finance.window_weights(window_end_without[:, 0], years).reshape(-1, width) * in_window
    else:  # no extension counts: the two windows are one
        weight_without = weight
    return window_end, weight, weight_without


def explicit_components(inputs: Inputs, prefix: str, phase, phase_number: int, phase_year, growth) -> list[Component]:
    """The streams the scenario gives by year (``streams``), those marked ``grows_with_inflation``
    grown from year 1."""
    components = []
    for j, stream in enumerate(phase.streams):
        values = by_year(inputs, f"{prefix}streams.{j}.by_year", stream.by_year, phase_year)
        components.append(
            Component(
                phase=phase_number,
                name=stream.name,
                source="explicit",
                effect="direct",
                kind=stream.kind,
                abated=stream.abated,
                values=np.where(inputs.flag(f"{prefix}streams.{j}.grows_with_inflation"), values * growth, values),
                tax=stream.tax,
            )
        )
    return components


def present_values(flows: PhaseFlows, discount_factor: np.ndarray, width: int) -> None:
    """The present values step of one phase: its counted net benefits, their present value in the
    window (with and without a counted extension), and the present value and total of its credits.

    Benefits are never reduced by the credit ("prior to considering the value of the requested tax
    credit"); credits and benefits use one discount rate, 71(a)(5)(c).
    """
    net = net_benefits(flows.components, width)
    flows.net_benefits = net
    flows.pv_benefits = weighted_present_value(net, flows.weight, discount_factor)
    if flows.weight_without_extension is flows.weight:
        flows.pv_benefits_without_extension = flows.pv_benefits
    else:
        flows.pv_benefits_without_extension = weighted_present_value(
            net, flows.weight_without_extension, discount_factor
        )
    flows.pv_credits = sum_of_products(flows.credits, discount_factor)
    flows.requested_credits = np.sum(flows.credits, axis=1, keepdims=True)


def phase_flows(inputs: Inputs, index: int, prefix: str, phase, period: np.ndarray, facts: ProjectFacts) -> PhaseFlows:
    """One phase (``index`` 0 for the initial phase, at the top level of the scenario; ``prefix``
    its dotted keys), in steps: jobs, wages, construction, credits, windows, taxes, present values.
    ``period`` is its commitment period ``(1 or n, 1)`` [years]."""
    number = inputs.number
    revenue = inputs.scenario.revenue
    years = facts.years
    width = len(years)
    start = number(prefix + "start_year") if prefix else np.zeros((1, 1))
    phase_year = years[None, :] - start.astype(int)  # (1 or n, years)
    active = phase_year >= 1

    new_jobs, retained_jobs, jobs = full_time_jobs(
        inputs, prefix, phase, phase_year, active, facts.retained_eligible, width
    )
    salary, wages = wages_of(inputs, prefix, phase_year, jobs)
    # Construction: the capital investment by year, and the wages of the work it pays for.
    capital = by_year(inputs, prefix + "capital_investment", phase.capital_investment, phase_year)
    first = number(prefix + "award.first_credit_year")
    credits = tax_credits(inputs, prefix, phase, phase_year, first, facts.retained_eligible)
    window_end, weight, weight_without = benefit_window(index, start, first, period, phase_year, active, facts)

    flows = PhaseFlows(
        number=index + 1,
        name=inputs.scenario.name if index == 0 else phase.name,
        start_year=start,
        new_full_time_jobs=new_jobs,
        retained_full_time_jobs=retained_jobs,
        wages=wages,
        capital_investment=capital,
        construction_wages=capital * (number("revenue.construction_labor_share") if revenue else 0.0),
        credits=credits,
        commitment_period_years=period,
        window_end=window_end,
        weight=weight,
        weight_without_extension=weight_without,
    )
    # Taxes: the streams of the revenue drivers, then those the scenario gives.
    if revenue is not None:
        flows.components.extend(
            driver_components(
                inputs,
                prefix,
                index + 1,
                jobs,
                wages,
                salary,
                capital,
                flows.construction_wages,
                facts.sales_tax_rate,
                facts.inflation_growth,
                years,
            )
        )
        flows.employment_multiplier = inputs.multiplier("employment_multiplier")
    flows.components.extend(explicit_components(inputs, prefix, phase, index + 1, phase_year, facts.inflation_growth))
    present_values(flows, facts.discount_factor, width)
    return flows
