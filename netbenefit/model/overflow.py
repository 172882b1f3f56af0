"""Which input makes a computation overflow: the error names the key whose values overflow.

A float holds at most about 1.8e308. When the present values of a scenario are not finite, the
cause is traced through the model's own arrays, in the order they are built, to the first that
becomes non-finite, and the error names the key behind it: the wages (``jobs.salary_growth``
compounded over the years, or ``jobs.new`` x ``jobs.median_salary``), a built-in revenue driver
(``revenue.corporate_business_tax`` grown with inflation, income tax brackets indexed to a
deflation: ``inflation``), the construction wages (``capital_investment``), the credits
(``award``), or a stream (netbenefit.evaluate names it and its file). Only when every array the
inputs make is finite and the present values are not is the discount rate blamed.

:func:`check_finite_sums` refuses, before anything is computed, a ``capital_investment`` whose
amounts sum to more than a float holds (each amount is finite, their sum is not).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ScenarioError
from .scenario import Scenario

#: The largest finite float, about 1.8e308. [USD]
LARGEST = float(np.finfo(float).max)
_SO = "give amounts that a sum can hold (below about 1.8e308 [USD])"


def check_finite_sums(scenario: Scenario) -> None:
    """Refuse a ``capital_investment`` (of any phase) whose amounts sum to infinity."""
    blocks = [("capital_investment", scenario.capital_investment)]
    blocks += [(f"phases.{i}.capital_investment", phase.capital_investment) for i, phase in enumerate(scenario.phases)]
    for key, by_year in blocks:
        if by_year and not math.isfinite(sum(by_year.values())):
            raise ScenarioError(
                scenario.source, key, f"the amounts sum to more than a number can hold (infinity); {_SO}"
            )


def _finite(array) -> bool:
    return array is None or bool(np.all(np.isfinite(array)))


def overflowing_key(scenario: Scenario, computation) -> tuple[str, str] | None:
    """``(key, problem)`` of the first input whose values overflow in ``computation``, or None
    when every array the inputs make is finite (then the discounting overflows)."""
    for phase, block, prefix in zip(
        computation.phases,
        [scenario, *scenario.phases],
        ["", *[f"phases.{i}." for i in range(len(scenario.phases))]],
        strict=True,
    ):
        if not _finite(phase.wages):
            return _wages(scenario, computation, block, prefix)
        if not _finite(phase.construction_wages):
            return f"{prefix}capital_investment", f"the construction wages it implies overflow; {_SO}"
        if not _finite(phase.credits):
            return f"{prefix}award", f"the credits by year overflow; {_SO}"
        for component in phase.components:
            if component.source != "explicit" and not _finite(component.values):
                return _driver(scenario, computation, component)
    return None


def _wages(scenario: Scenario, computation, block, prefix: str) -> tuple[str, str]:
    jobs = block.jobs
    years = len(computation.years)
    growth = jobs.salary_growth
    if growth > 0 and (years - 1) * math.log1p(growth) > math.log(LARGEST):
        return (
            f"{prefix}jobs.salary_growth",
            f"a salary growth of {growth!r} a year compounded over {years} years overflows "
            "(more than about 1.8e308); give a yearly growth a timeline of this length can hold",
        )
    salary = jobs.median_salary or 0.0
    count = jobs.new + jobs.retained
    key, value = ("jobs.new", jobs.new) if count >= salary else ("jobs.median_salary", salary)
    return f"{prefix}{key}", f"the wages it gives ({value!r} x the other factors) overflow; {_SO}"


def _driver(scenario: Scenario, computation, component) -> tuple[str, str]:
    revenue = scenario.revenue
    inflation = scenario.inflation
    years = len(computation.years)
    if component.tax == "corporation_business_tax":
        key = (
            "revenue.allocated_taxable_net_income"
            if revenue is not None and revenue.allocated_taxable_net_income is not None
            else "revenue.corporate_business_tax"
        )
        grown = f", grown with inflation of {inflation!r} over {years} years," if inflation else ""
        return key, f"the corporation business tax{grown} overflows; {_SO}"
    if inflation < 0 and revenue is not None and revenue.index_brackets:
        return (
            "inflation",
            f"income tax brackets indexed to an inflation of {inflation!r} over {years} years shrink until "
            "the amounts in them overflow; give an inflation further from -1 or index_brackets: false",
        )
    if inflation and years * abs(math.log1p(inflation)) > math.log(LARGEST):
        return "inflation", f"an inflation of {inflation!r} compounded over {years} years overflows"
    for name in ("earnings_multiplier", "employment_multiplier", "construction_earnings_multiplier"):
        value = getattr(revenue, name, None) if revenue is not None else None
        if isinstance(value, float) and value > 1e100:
            return f"revenue.{name}", f"the amounts it multiplies overflow; {_SO}"
    return "revenue", f"the {component.name.replace('_', ' ')} it computes overflows; {_SO}"
