"""The named sets of conventions a scenario chooses with ``method`` (``netbenefit``, the default,
or ``authority``): what each decides, and how well each choice is known.

``authority`` takes the authority's published choices where they are known
(``law/parameters/methods.yaml``, each cited and graded) and this project's conventions where they
are not. Both sets count every retained job at risk and the mean payroll; they differ where the
authority's practice is published and this project's default is not the same: the New Jersey
earned income tax credit netted from the Gross Income Tax, and a note where a scenario applies no
indirect effect. Pure functions of a validated scenario.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..law.parameters import PARAMETERS, parameter
from .scenario import Scenario

#: The methods, in the order ``compare --method`` lists them.
METHODS = ("netbenefit", "authority")


@dataclass(frozen=True)
class Choice:
    """One choice of a method: what it is, its grade and its source."""

    topic: str
    value: str
    grade: str
    reference: str


def choices(method: str) -> tuple[Choice, ...]:
    """What ``method`` decides, each choice graded (``statute``, ``secondary``, ``convention``)."""
    if method == "authority":
        names = {
            "retained jobs in the benefits": "method_authority_retained_jobs",
            "earned income tax credit netted": "method_authority_earned_income_tax_credit",
            "indirect effects": "method_authority_indirect_effects",
            "payroll": "method_authority_payroll",
        }
        return tuple(
            Choice(topic, str(PARAMETERS[name].value), PARAMETERS[name].source, PARAMETERS[name].reference)
            for topic, name in names.items()
        )
    return (
        Choice("retained jobs in the benefits", "all_retained", "statute", "P.L.2020, c.156, s.71(a)(5)"),
        Choice("earned income tax credit netted", "False", "convention", "netbenefit: an option, off by default"),
        Choice("indirect effects", "as the scenario supplies", "convention", "netbenefit: none unless given"),
        Choice("payroll", "mean", "convention", "netbenefit: one payroll"),
    )


def earned_income_credit_netted(scenario: Scenario) -> bool:
    """Whether the New Jersey earned income tax credit is netted from the Gross Income Tax: the
    scenario's ``revenue.income_tax.earned_income_tax_credit`` where given, else its method's
    choice. Only the bracket model of the tax has a distribution of wages to apply it to."""
    income_tax = scenario.revenue.income_tax if scenario.revenue is not None else None
    if getattr(income_tax, "method", None) != "brackets":
        return False
    if income_tax.earned_income_tax_credit is not None:
        return income_tax.earned_income_tax_credit
    return scenario.method == "authority" and bool(parameter("method_authority_earned_income_tax_credit"))


def notes(scenario: Scenario, multipliers_all_one: bool) -> tuple[str, ...]:
    """The method line of the result's conventions, and what the method expects that the scenario lacks."""
    if scenario.method == "netbenefit":  # named by the result's own ``method`` key
        return ()
    known = "; ".join(f"{c.topic}: {c.value} [{c.grade}]" for c in choices("authority"))
    lines = [f"method: authority, the authority's published choices where known ({known})"]
    departures = [
        f"readings.{reading}: {getattr(scenario.readings, reading)}"
        for reading, name in (
            ("retained_benefits", "method_authority_retained_jobs"),
            ("payroll", "method_authority_payroll"),
        )
        if getattr(scenario.readings, reading) != parameter(name)
    ]
    if departures:
        lines.append(f"the scenario departs from method authority where it says so: {'; '.join(departures)}")
    if multipliers_all_one and parameter("method_authority_indirect_effects"):
        lines.append(
            "method authority counts indirect effects (RIMS II multipliers, one-time and ongoing) [secondary]; "
            "this scenario applies none: supply revenue.multiplier_table or the multipliers"
        )
    return tuple(lines)
