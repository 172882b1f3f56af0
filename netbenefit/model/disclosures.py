"""What a ratio rests on that its reader cannot see in the scenario: the multipliers applied and
where each came from, the payroll, the retained jobs counted, and the parts of the Gross Income Tax
the model leaves out (docs/taxes.md, "What the Gross Income Tax leaves out").

Pure functions of a validated scenario; the pipeline adds their lines to the result's
``conventions`` (JSON result, CLI summary, HTML report, chart footnotes), and the workbook's Inputs
sheet shows :func:`applied_multipliers` beside the inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..labels import money_exact
from ..law.taxes import QUALIFYING_CHILDREN, mean_wage
from . import methods
from .scenario import Scenario

#: The multipliers of the revenue drivers, total / direct (docs/scenario-format.md, "Benefit streams").
MULTIPLIERS = ("earnings_multiplier", "construction_earnings_multiplier", "employment_multiplier")


@dataclass(frozen=True)
class AppliedMultiplier:
    """One multiplier as the model applies it.

    Attributes
    ----------
    name : str
        ``earnings_multiplier``, ``construction_earnings_multiplier`` or ``employment_multiplier``.
    value : float
        Total / direct. [-]
    source : str
        Where it came from: the table row (file, NAICS code, the row's own source column), the
        scenario key, or the default of 1 (no indirect or induced effect).
    """

    name: str
    value: float
    source: str

    @property
    def is_the_key(self) -> bool:
        """True when the value is the scenario's own ``revenue.<name>`` (given or its default),
        False when a table row or another multiplier stands in for it."""
        return self.source == f"revenue.{self.name}"


def applied_multipliers(scenario: Scenario) -> tuple[AppliedMultiplier, ...]:
    """The multipliers the model applies to ``scenario`` (none without a revenue block), in the
    order of :data:`MULTIPLIERS`, as :meth:`netbenefit.model.cashflows.Inputs.multiplier` reads them."""
    revenue = scenario.revenue
    if revenue is None:
        return ()
    row = scenario.multipliers
    applied = []
    for name in MULTIPLIERS:
        if row is not None:
            origin = f" ({row['source']})" if row.get("source") else ""
            source = f"revenue.multiplier_table {revenue.multiplier_table}, row naics {row['naics']}{origin}"
            applied.append(AppliedMultiplier(name, float(row[name]), source))
            continue
        given = getattr(revenue, name)
        if name == "construction_earnings_multiplier" and given is None:
            earnings = revenue.earnings_multiplier
            applied.append(AppliedMultiplier(name, float(earnings), "revenue.earnings_multiplier (not given apart)"))
        else:
            applied.append(AppliedMultiplier(name, float(given), f"revenue.{name}"))
    return tuple(applied)


def multiplier_notes(scenario: Scenario) -> tuple[str, ...]:
    """One line naming every multiplier applied and its source."""
    applied = applied_multipliers(scenario)
    if not applied:
        return ()
    by_source: dict[str, list[str]] = {}
    for m in applied:
        by_source.setdefault(m.source, []).append(f"{m.name.removesuffix('_multiplier').replace('_', ' ')} {m.value:g}")
    parts = "; ".join(f"{', '.join(values)} from {source}" for source, values in by_source.items())
    none = " (1: no indirect or induced effect)" if all(m.value == 1 for m in applied) else ""
    return (f"multipliers applied (total / direct): {parts}{none}",)


def payroll_notes(scenario: Scenario) -> tuple[str, ...]:
    """The payroll of the wage-based streams, mean and median, where a wage dispersion makes them differ."""
    revenue = scenario.revenue
    income_tax = revenue.income_tax if revenue is not None else None
    if getattr(income_tax, "method", None) != "brackets" or income_tax.wage_dispersion == 0:
        return ()
    lines = []
    for label, jobs in [("initial phase", scenario.jobs)] + [(phase.name, phase.jobs) for phase in scenario.phases]:
        if jobs.median_salary is None:
            continue
        mean = float(mean_wage(jobs.median_salary, income_tax.wage_dispersion))
        lines.append(
            f"{label}: median wage {money_exact(jobs.median_salary)}, mean {money_exact(mean)} in year 1 "
            f"(lognormal, sigma {income_tax.wage_dispersion:g}: mean = median x exp(sigma^2/2))"
        )
    used = (
        "the mean, for every wage-based stream"
        if scenario.readings.payroll == "mean"
        else "the median for the spending streams, the whole distribution for the income tax (readings.payroll: median)"
    )
    return (f"payroll: {'; '.join(lines)}; the wages counted are {used} [convention]",) if lines else ()


def retained_jobs_notes(scenario: Scenario) -> tuple[str, ...]:
    """Which retained jobs the benefits count, where the scenario states any."""
    stated = [scenario.jobs.retained] + [phase.jobs.retained for phase in scenario.phases]
    if not any(stated):
        return ()
    if scenario.readings.retained_benefits == "all_retained":
        return (
            "retained jobs: every retained full-time job stated counts in the benefits, 71(a)(5) [statute] "
            "as the authority describes its practice [secondary] (readings.retained_benefits: all_retained); "
            "credits count them only as 71(c) allows",
        )
    return (
        "retained jobs: counted in the benefits only where 71(c) makes them eligible for credits "
        "(readings.retained_benefits: credit_eligible_only) [convention]",
    )


#: Parts of the Gross Income Tax the model may leave out, each with the direction it moves the
#: benefits (docs/taxes.md gives the size of each in a worked example), by the option that models it.
GROSS_INCOME_TAX_OMISSIONS = {
    "earned_income_tax_credit": "the New Jersey earned income tax credit, N.J.S.A. 54A:4-7 (a share of the "
    "federal credit): lowers the tax of low-wage workers, most with children",
    "property_tax_deduction": "the property tax deduction or credit, N.J.S.A. 54A:3A-17 and -20: lowers the tax "
    "of homeowners and tenants",
    "dependents_per_return": "exemptions for dependants, N.J.S.A. 54A:3-1(b)(2): lowers the tax",
    "": "the filing thresholds below which no tax is due, N.J.S.A. 54A:2-4: lowers the tax of the lowest wages; "
    "other household income than the job's wage: raises the tax of married filers whose spouse earns",
}


def gross_income_tax_notes(scenario: Scenario) -> tuple[str, ...]:
    """What the bracket model of the Gross Income Tax leaves out, and which way each omission moves it."""
    revenue = scenario.revenue
    income_tax = revenue.income_tax if revenue is not None else None
    if income_tax is None or getattr(income_tax, "method", None) == "effective_rate":
        return ()
    modelled = {
        "earned_income_tax_credit": methods.earned_income_credit_netted(scenario),
        "property_tax_deduction": getattr(income_tax, "property_tax_deduction", 0) > 0,
        "dependents_per_return": getattr(income_tax, "dependents_per_return", 0) > 0,
        "": False,
    }
    left_out = [text for option, text in GROSS_INCOME_TAX_OMISSIONS.items() if not modelled[option]]
    lines = [f"Gross Income Tax by the brackets leaves out (docs/taxes.md): {'; '.join(left_out)} [convention]"]
    if revenue.index_brackets:
        lines.append(
            "revenue.index_brackets: a what-if, not New Jersey law: the brackets and exemptions of "
            "N.J.S.A. 54A:2-1 and 54A:3-1 are fixed amounts, not indexed to inflation"
        )
    return tuple(lines)


def earned_income_credit_notes(scenario: Scenario) -> tuple[str, ...]:
    """The New Jersey earned income tax credit, where it is netted from the tax."""
    if not methods.earned_income_credit_netted(scenario):
        return ()
    children = scenario.revenue.income_tax.qualifying_children
    rows = (
        "every return without a qualifying child (not given: the smallest credit)"
        if children is None
        else ", ".join(f"{getattr(children, row):g} {row.replace('_', ' ')}" for row in QUALIFYING_CHILDREN)
    )
    return (
        "earned income tax credit: New Jersey's share of the federal credit of each job's filer netted "
        f"from the Gross Income Tax, N.J.S.A. 54A:4-7 [secondary]; returns by qualifying children: {rows}; "
        "the federal amounts of tax year 2024 for every tax year (not indexed) [convention]",
    )


def notes(scenario: Scenario) -> tuple[str, ...]:
    """Every disclosure line of ``scenario``, in the order the result lists them (none without
    revenue drivers: explicit streams carry their own assumptions)."""
    if scenario.revenue is None:
        return ()
    all_one = all(m.value == 1 for m in applied_multipliers(scenario))
    return (
        methods.notes(scenario, all_one)
        + retained_jobs_notes(scenario)
        + payroll_notes(scenario)
        + multiplier_notes(scenario)
        + earned_income_credit_notes(scenario)
        + gross_income_tax_notes(scenario)
    )
