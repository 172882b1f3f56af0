"""The rules of a scenario that involve more than one key, checked once every key is valid on
its own (docs/scenario-format.md, "Required keys"). Every rule is checked, and every problem
listed: a rule whose keys are not valid on their own says nothing (their problems are listed)."""

from __future__ import annotations

from typing import Any

from ...errors import ScenarioError
from ..columns import RESERVED_STREAM_NAMES
from .blocks import IncomeTax
from .partial import known
from .shared import covered

_SHARE_SUM_TOLERANCE = 1e-9  # not a statutory number: filing shares may sum to 1 up to float rounding


def consistency_problems(scenario: Any) -> list[tuple[str, str]]:
    """Every problem of the rules that involve more than one key (scenario format, "Required
    keys"), as ``(key, problem)``. ``scenario`` is a :class:`Scenario` or a partial one
    (:func:`netbenefit.model.scenario.partial.partial`): a rule that needs a key whose value is not valid
    says nothing (that key's own problem is listed)."""
    problems: list[tuple[str, str]] = []
    phases = tuple(scenario.phases)
    all_jobs = [("jobs", scenario.jobs)] + [(f"phases.{i}.jobs", phase.jobs) for i, phase in enumerate(phases)]
    all_awards = [("award", scenario.award)] + [(f"phases.{i}.award", phase.award) for i, phase in enumerate(phases)]
    all_streams = [("streams", scenario.streams)] + [
        (f"phases.{i}.streams", phase.streams) for i, phase in enumerate(phases)
    ]
    approval, application = scenario.approval_date, scenario.application_date
    if known(approval, application) and approval is not None and approval < application:
        problems.append(
            (
                "approval_date",
                f"{approval.isoformat()} is before application_date "
                f"{application.isoformat()}; an application is approved after it is made",
            )
        )
    business = scenario.business
    if known(business.small_business, business.full_time_employees_at_application):
        if business.small_business and business.full_time_employees_at_application < 1:
            problems.append(
                ("business.full_time_employees_at_application", "required (>= 1) for a small business, 71(c)(1)(a)")
            )
    for key, award in all_awards:
        problems += _award_problems(key, award)
    revenue = scenario.revenue
    if revenue is not None:
        problems += _revenue_problems(scenario, revenue)
        shared = covered(scenario.shared) if known(scenario.shared) else {"jobs.median_salary"}
        for key, jobs in all_jobs:
            if key != "jobs" and "jobs.median_salary" in shared:
                continue  # the initial phase's salary (its own line, if missing)
            if known(jobs, jobs.median_salary) and jobs.median_salary is None:
                problems.append((f"{key}.median_salary", "required when revenue is given"))
    elif all(known(streams) for _, streams in all_streams) and known(scenario.phases):
        if not any(streams for _, streams in all_streams):
            problems.append(("revenue", "the scenario has no benefits: give revenue drivers or streams (or both)"))
    for key, streams in all_streams:
        streams = tuple(streams)
        names = [stream.name for stream in streams]
        for i, name in enumerate(names):
            if not known(name):
                continue
            if name in RESERVED_STREAM_NAMES:
                problems.append((f"{key}.{i}.name", f"{name!r} is the name of a built-in column"))
            elif name in names[:i]:
                problems.append((f"{key}.{i}.name", f"{name!r} is used by another stream of the list"))
    problems += _phase_year_zero(phases)
    return problems


def check_consistency(scenario: Any, source: str) -> None:
    """Raise one ScenarioError listing every problem of :func:`consistency_problems`."""
    problems = consistency_problems(scenario)
    if problems:
        (key, problem), *more = problems
        raise ScenarioError(source, key, problem, more=more)


def _award_problems(key: str, award: Any) -> list[tuple[str, str]]:
    """One award block: exactly one way of giving the credit, per_retained_job beside
    per_new_job, bonus names each once."""
    values = (award.annual_credit, award.per_new_job, award.section_75)
    if not known(award, *values, award.per_retained_job):
        return []
    given = [value is not None for value in values]
    if sum(given) != 1:
        return [(key, "give exactly one of annual_credit or per_new_job or section_75")]
    problems = []
    if award.per_retained_job is not None and award.per_new_job is None:
        other = "annual_credit" if award.section_75 is None else "section_75"
        problems.append((f"{key}.per_retained_job", f"goes with per_new_job, not {other}"))
    bonuses = tuple(award.section_75.bonuses) if award.section_75 is not None else ()
    names = [bonus.name for bonus in bonuses]
    for i, name in enumerate(names):
        if known(name) and name in names[:i]:
            problems.append((f"{key}.section_75.bonuses.{i}.name", f"{name!r} names another bonus too"))
    return problems


def _phase_year_zero(phases: tuple) -> list[tuple[str, str]]:
    """Year 0, the approval year, belongs to the initial phase: a later phase's years start at 1
    (docs/model.md#timeline)."""
    problems = []
    for i, phase in enumerate(phases):
        keys = [("capital_investment", phase.capital_investment)] + [
            (f"streams.{j}.by_year", stream.by_year) for j, stream in enumerate(phase.streams)
        ]
        for key, by_year in keys:
            if known(by_year) and 0 in by_year:
                problems.append(
                    (
                        f"phases.{i}.{key}.0",
                    "a later phase's years start at 1 (phase year 1 is project year start_year + 1); "
                    "year 0, the approval year, belongs to the initial phase: move the amount to the "
                    "top level's year 0 or to this phase's year 1",
                    )
                )
    return problems


def _revenue_problems(scenario: Any, revenue: Any) -> list[tuple[str, str]]:
    """Rules of the revenue block that involve more than one key."""
    problems: list[tuple[str, str]] = []
    key = "revenue.income_tax"
    income_tax = revenue.income_tax
    if known(revenue.income_tax_effective_rate, income_tax):
        if revenue.income_tax_effective_rate is not None and income_tax is not None:
            problems.append((key, "give income_tax_effective_rate or income_tax: progressive, not both"))
    if isinstance(income_tax, IncomeTax):
        problems += _income_tax_problems(key, income_tax)
    table = revenue.multiplier_table
    if known(table) and table is not None:
        if known(scenario.business.naics) and scenario.business.naics is None:
            problems.append(("business.naics", "required when revenue.multiplier_table is given"))
        defaults = {"earnings_multiplier": 1.0, "construction_earnings_multiplier": None, "employment_multiplier": 1.0}
        given = {name: getattr(revenue, name) for name in defaults}
        both = sorted(name for name, unset in defaults.items() if known(given[name]) and given[name] != unset)
        if both:
            problems.append(
                (f"revenue.{both[0]}", "give the multipliers by revenue.multiplier_table or here, not both")
            )
    tax, income = revenue.corporate_business_tax, revenue.allocated_taxable_net_income
    if known(tax, income) and tax > 0 and income is not None:
        problems.append(
            (
                "revenue.allocated_taxable_net_income",
                "give corporate_business_tax (an amount) or allocated_taxable_net_income (its base), not both",
            )
        )
    return problems


def _income_tax_problems(key: str, income_tax: IncomeTax) -> list[tuple[str, str]]:
    """The rules of a valid ``revenue.income_tax`` block across its keys."""
    if income_tax.method == "effective_rate":
        if income_tax.rate is None:
            return [(f"{key}.rate", "required when method is effective_rate (e.g. rate: 0.05)")]
        brackets_only = (
            ("filing_status", None),
            ("wage_dispersion", 0.0),
            ("dependents_per_return", 0.0),
            ("property_tax_deduction", 0.0),
            ("earned_income_tax_credit", None),
            ("qualifying_children", None),
        )
        return [
            (f"{key}.{name}", "applies to method: brackets only")
            for name, unset in brackets_only
            if getattr(income_tax, name) != unset
        ]
    problems = []
    if income_tax.rate is not None:
        problems.append((f"{key}.rate", "applies to method: effective_rate only"))
    shares = income_tax.filing_status
    if shares is not None:
        total = shares.single + shares.married_joint
        if abs(total - 1.0) > _SHARE_SUM_TOLERANCE:
            problems.append((f"{key}.filing_status", f"the shares of the jobs must sum to 1, got {total:.10g}"))
    children = income_tax.qualifying_children
    if children is not None:
        total = children.none + children.one + children.two + children.three_or_more
        if abs(total - 1.0) > _SHARE_SUM_TOLERANCE:
            problem = f"the shares of the returns must sum to 1, got {total:.10g}"
            problems.append((f"{key}.qualifying_children", problem))
        if income_tax.earned_income_tax_credit is False:
            problems.append((f"{key}.qualifying_children", "goes with earned_income_tax_credit, which is false"))
    return problems
