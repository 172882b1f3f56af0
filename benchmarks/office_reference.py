"""The office headquarters scenario written out by hand, shared by the benchmarks that measure the
library against a plain numpy reference (``bench_analysis.py``, ``bench_montecarlo.py``): the
draws of the four varied keys, from the same random streams as ``montecarlo``, and the yearly
quantities of the scenario that do not vary."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from netbenefit.law.parameters import parameter

#: The varied keys and their distributions, in the order of their random streams.
VARY = {
    "jobs.new": ("normal", 260.0, 25.0),
    "discount_rate": ("uniform", 0.04, 0.08),
    "jobs.median_salary": ("triangular", 85_000.0, 98_000.0, 115_000.0),
    "revenue.earnings_multiplier": ("uniform", 1.4, 1.9),
}


def draws_of(seed: int, draws: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """New jobs, discount rate, median salary and earnings multiplier of each draw: one stream per
    key, spawned from the seed in the order of :data:`VARY`, as ``montecarlo`` draws them."""
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(VARY))]
    return (
        rngs[0].normal(260.0, 25.0, draws),
        rngs[1].uniform(0.04, 0.08, draws),
        rngs[2].triangular(85_000.0, 98_000.0, 115_000.0, draws),
        rngs[3].uniform(1.4, 1.9, draws),
    )


@dataclass(frozen=True)
class Timeline:
    """What does not vary, by project year 1 .. the end of the benefit window."""

    years: np.ndarray
    ramp: np.ndarray  # share of the new jobs in place
    capital: np.ndarray  # [USD]
    weight: np.ndarray  # share of the year inside the benefit window
    credit_years: np.ndarray  # bool: a credit is paid
    growth: np.ndarray  # salary growth factor
    operations_rate: float  # income tax x NJ share + taxable spending x sales tax, of wages
    construction_wages: np.ndarray  # [USD]
    construction_rate: float  # income tax + taxable spending x sales tax, of construction wages
    construction_sales: np.ndarray  # sales tax on construction purchases [USD]


def timeline(scenario) -> Timeline:
    """The office scenario's yearly quantities (effective-rate income tax, no phases, no extension)."""
    jobs_in, revenue, award = scenario.jobs, scenario.revenue, scenario.award
    period = award.eligibility_period_years * parameter("commitment_period_multiple_of_eligibility_period")
    window_end = award.first_credit_year - 1 + period
    years = np.arange(1, int(np.ceil(window_end)) + 1)
    capital = np.array([scenario.capital_investment.get(int(t), 0.0) for t in years])
    sales_tax = revenue.sales_and_use_tax_rate
    first = award.first_credit_year
    return Timeline(
        years=years,
        ramp=np.array(jobs_in.ramp)[np.minimum(years - 1, len(jobs_in.ramp) - 1)],
        capital=capital,
        weight=np.clip(window_end - (years - 1.0), 0.0, 1.0),
        credit_years=(years >= first) & (years < first + award.eligibility_period_years),
        growth=(1.0 + jobs_in.salary_growth) ** (years - 1),
        operations_rate=revenue.income_tax_effective_rate * jobs_in.nj_withholding_share
        + revenue.taxable_spending_share * sales_tax,
        construction_wages=capital * revenue.construction_labor_share,
        construction_rate=revenue.construction_income_tax_rate + revenue.taxable_spending_share * sales_tax,
        construction_sales=capital * revenue.construction_taxable_share * sales_tax,
    )


def flags(new_jobs: np.ndarray, ratio: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """The default threshold, and whether each draw passes 71(a)(5) and is eligible (35 new jobs)."""
    threshold = parameter("net_benefit_threshold_default")
    passes = ratio >= threshold * (1 - parameter("net_benefit_ratio_relative_tolerance"))
    return threshold, passes, passes & (new_jobs >= parameter("other_business_minimum_new_jobs"))
