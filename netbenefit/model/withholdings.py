"""What weighs each phase's NJ withholding share in the test of 71(d) across phases.

71(d): "not less than 80 percent of the withholdings" of the new and retained full-time employees
must be subject to the New Jersey Gross Income Tax [statute]. Over several phases the shares are
therefore weighted by withholdings, estimated in this order (the first the scenario allows):

- ``income_tax_withheld``: jobs x the Gross Income Tax per job before refundable credits, at the
  phase's median salary in its year 1, by the scenario's brackets (``revenue.income_tax:
  progressive`` or ``method: brackets``; :mod:`netbenefit.law.taxes`);
- ``wages``: jobs x median salary, where no brackets apply (an effective rate or no revenue block:
  the tax is then in proportion to the wages);
- ``jobs``: where a phase gives no median salary, or where ``readings.withholding_weights: jobs``
  asks for the weighting before.

A convention of this project [convention]: what is withheld is the tax on the wages, which the
brackets estimate. Pure functions of a value accessor, so that variants (arrays) pass through.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..law import taxes
from .scenario import Scenario

#: The bases of the weights, best first.
BASES = ("income_tax_withheld", "wages", "jobs")
#: How each basis is named in the 71(d) check's message.
BASIS_WORDS = {
    "income_tax_withheld": "its income tax withheld (jobs x Gross Income Tax per job at the phase's median salary)",
    "wages": "its wages (jobs x median salary; no income tax brackets given)",
    "jobs": "its new and retained jobs",
}


def _prefixes(scenario: Scenario) -> list[str]:
    return [""] + [f"phases.{i}." for i in range(len(scenario.phases))]


def withholding_basis(scenario: Scenario) -> str:
    """The basis of the 71(d) weights this scenario allows: one of :data:`BASES`."""
    every_phase = [scenario.jobs, *(phase.jobs for phase in scenario.phases)]
    if scenario.readings.withholding_weights == "jobs":
        return "jobs"
    if any(jobs.median_salary is None for jobs in every_phase):
        return "jobs"
    revenue = scenario.revenue
    income_tax = revenue.income_tax if revenue is not None else None
    if income_tax == "progressive" or getattr(income_tax, "method", None) == "brackets":
        return "income_tax_withheld"
    return "wages"


def phase_weights(scenario: Scenario, number: Callable[[str], np.ndarray]) -> list[np.ndarray]:
    """One weight per phase (initial first) for :func:`netbenefit.law.rules.eligibility.weighted_withholding_share`.

    ``number(key)`` gives the value at a dotted scenario key (an array of variants or a number).
    """
    basis = withholding_basis(scenario)
    weights = []
    for prefix in _prefixes(scenario):
        jobs = np.asarray(number(prefix + "jobs.new"), dtype=float) + np.asarray(number(prefix + "jobs.retained"))
        if basis == "jobs":
            weights.append(jobs)
            continue
        salary = np.asarray(number(prefix + "jobs.median_salary"), dtype=float)
        if basis == "wages":
            weights.append(jobs * salary)
        else:
            weights.append(jobs * income_tax_per_job(scenario, number, salary))
    return weights


def income_tax_per_job(scenario: Scenario, number: Callable[[str], np.ndarray], salary) -> np.ndarray:
    """The Gross Income Tax of one job at ``salary``, before refundable credits, as the scenario's
    brackets compute it (the schedule of its filing statuses, N.J.S.A. 54A:2-1). [USD/job/year]"""
    income_tax = scenario.revenue.income_tax
    if income_tax == "progressive":  # v1: the single-filer schedule at the median, no exemption
        return taxes.gross_income_tax(salary)
    key = "revenue.income_tax.filing_status."
    shares = (
        {"single": 1.0}
        if income_tax.filing_status is None
        else {status: number(key + status) for status in taxes.FILING_STATUSES}
    )
    return taxes.expected_gross_income_tax(salary, number("revenue.income_tax.wage_dispersion"), shares)
