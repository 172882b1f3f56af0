"""The rules of a scenario that involve more than one key, checked once every key is valid on
its own (docs/scenario-format.md, "Required keys")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..columns import RESERVED_STREAM_NAMES
from ..errors import ScenarioError
from .blocks import IncomeTax

if TYPE_CHECKING:
    from .format import Scenario

_SHARE_SUM_TOLERANCE = 1e-9  # not a statutory number: filing shares may sum to 1 up to float rounding


def check_consistency(scenario: Scenario, source: str) -> None:
    """Rules that involve more than one key (scenario format, "Required keys")."""
    all_jobs = [("jobs", scenario.jobs)] + [(f"phases.{i}.jobs", phase.jobs) for i, phase in enumerate(scenario.phases)]
    all_awards = [("award", scenario.award)] + [
        (f"phases.{i}.award", phase.award) for i, phase in enumerate(scenario.phases)
    ]
    all_streams = [("streams", scenario.streams)] + [
        (f"phases.{i}.streams", phase.streams) for i, phase in enumerate(scenario.phases)
    ]
    if scenario.approval_date is not None and scenario.approval_date < scenario.application_date:
        raise ScenarioError(
            source,
            "approval_date",
            f"{scenario.approval_date.isoformat()} is before application_date "
            f"{scenario.application_date.isoformat()}; an application is approved after it is made",
        )
    if scenario.business.small_business and scenario.business.full_time_employees_at_application < 1:
        raise ScenarioError(
            source,
            "business.full_time_employees_at_application",
            "required (>= 1) for a small business, 71(c)(1)(a)",
        )
    for key, award in all_awards:
        given = [value is not None for value in (award.annual_credit, award.per_new_job, award.section_75)]
        if sum(given) != 1:
            raise ScenarioError(source, key, "give exactly one of annual_credit or per_new_job or section_75")
        if award.per_retained_job is not None and award.per_new_job is None:
            other = "annual_credit" if award.section_75 is None else "section_75"
            raise ScenarioError(source, f"{key}.per_retained_job", f"goes with per_new_job, not {other}")
        bonus_names = [bonus.name for bonus in award.section_75.bonuses] if award.section_75 is not None else []
        for i, name in enumerate(bonus_names):
            if name in bonus_names[:i]:
                raise ScenarioError(source, f"{key}.section_75.bonuses.{i}.name", f"{name!r} names another bonus too")
    if scenario.revenue is not None:
        if scenario.revenue.income_tax_effective_rate is not None and scenario.revenue.income_tax is not None:
            raise ScenarioError(
                source, "revenue.income_tax", "give income_tax_effective_rate or income_tax: progressive, not both"
            )
        _check_revenue(scenario, source)
        for key, jobs in all_jobs:
            if jobs.median_salary is None:
                raise ScenarioError(source, f"{key}.median_salary", "required when revenue is given")
    elif not any(streams for _, streams in all_streams):
        raise ScenarioError(
            source, "revenue", "the scenario has no benefits: give revenue drivers or streams (or both)"
        )
    for key, streams in all_streams:
        names = [stream.name for stream in streams]
        for i, name in enumerate(names):
            if name in RESERVED_STREAM_NAMES:
                raise ScenarioError(source, f"{key}.{i}.name", f"{name!r} is the name of a built-in column")
            if name in names[:i]:
                raise ScenarioError(source, f"{key}.{i}.name", f"{name!r} is used by another stream of the list")
    _check_phase_year_zero(scenario, source)


def _check_phase_year_zero(scenario: Scenario, source: str) -> None:
    """Year 0, the approval year, belongs to the initial phase: a later phase's years start at 1
    (docs/model.md#timeline)."""
    for i, phase in enumerate(scenario.phases):
        keys = [("capital_investment", phase.capital_investment)] + [
            (f"streams.{j}.by_year", stream.by_year) for j, stream in enumerate(phase.streams)
        ]
        for key, by_year in keys:
            if 0 in by_year:
                raise ScenarioError(
                    source,
                    f"phases.{i}.{key}.0",
                    "a later phase's years start at 1 (phase year 1 is project year start_year + 1); "
                    "year 0, the approval year, belongs to the initial phase: move the amount to the "
                    "top level's year 0 or to this phase's year 1",
                )


def _check_revenue(scenario: Scenario, source: str) -> None:
    """Rules of the revenue block that involve more than one key."""
    revenue = scenario.revenue
    income_tax = revenue.income_tax
    key = "revenue.income_tax"
    if isinstance(income_tax, IncomeTax):
        if income_tax.method == "effective_rate":
            if income_tax.rate is None:
                raise ScenarioError(source, f"{key}.rate", "required when method is effective_rate (e.g. rate: 0.05)")
            brackets_only = (
                ("filing_status", None),
                ("wage_dispersion", 0.0),
                ("dependents_per_return", 0.0),
                ("property_tax_deduction", 0.0),
                ("earned_income_tax_credit", None),
                ("qualifying_children", None),
            )
            for name, unset in brackets_only:
                if getattr(income_tax, name) != unset:
                    raise ScenarioError(source, f"{key}.{name}", "applies to method: brackets only")
        else:
            if income_tax.rate is not None:
                raise ScenarioError(source, f"{key}.rate", "applies to method: effective_rate only")
            shares = income_tax.filing_status
            if shares is not None:
                total = shares.single + shares.married_joint
                if abs(total - 1.0) > _SHARE_SUM_TOLERANCE:
                    raise ScenarioError(
                        source, f"{key}.filing_status", f"the shares of the jobs must sum to 1, got {total:.10g}"
                    )
            children = income_tax.qualifying_children
            if children is not None:
                total = children.none + children.one + children.two + children.three_or_more
                if abs(total - 1.0) > _SHARE_SUM_TOLERANCE:
                    raise ScenarioError(
                        source,
                        f"{key}.qualifying_children",
                        f"the shares of the returns must sum to 1, got {total:.10g}",
                    )
                if income_tax.earned_income_tax_credit is False:
                    raise ScenarioError(
                        source, f"{key}.qualifying_children", "goes with earned_income_tax_credit, which is false"
                    )
    if revenue.multiplier_table is not None:
        if scenario.business.naics is None:
            raise ScenarioError(source, "business.naics", "required when revenue.multiplier_table is given")
        defaults = {"earnings_multiplier": 1.0, "construction_earnings_multiplier": None, "employment_multiplier": 1.0}
        both = sorted(name for name, unset in defaults.items() if getattr(revenue, name) != unset)
        if both:
            raise ScenarioError(
                source, f"revenue.{both[0]}", "give the multipliers by revenue.multiplier_table or here, not both"
            )
    if revenue.corporate_business_tax > 0 and revenue.allocated_taxable_net_income is not None:
        raise ScenarioError(
            source,
            "revenue.allocated_taxable_net_income",
            "give corporate_business_tax (an amount) or allocated_taxable_net_income (its base), not both",
        )
