"""Shared test helpers: a minimal valid scenario, built as a plain dict and changed per test."""

from __future__ import annotations

import copy
from typing import Any

import netbenefit


def base_scenario_dict() -> dict[str, Any]:
    """An eligible, passing scenario in a default area with one explicit revenue stream.

    Credits: $100,000 a year for 7 years (years 1..7). Benefits: $1,000,000 a year in years
    1..11 (commitment 10.5 years: year 11 counts half). Discount rate 0.
    """
    return {
        "name": "Test project",
        "application_date": "2026-06-01",
        "discount_rate": 0.0,
        "business": {"small_business": False, "targeted_industry": False},
        "location": {"qualified_incentive_area": True},
        "facility": {
            "portions": [{"use": "other", "work": "rehabilitation", "gross_leasable_area_sqft": 1000}],
            "accommodates_share": 1.0,
        },
        "capital_investment": {1: 40000},
        "jobs": {"new": 35, "retained": 0, "nj_withholding_share": 1.0},
        "award": {"annual_credit": 100000, "eligibility_period_years": 7},
        "streams": [{"name": "state taxes", "kind": "revenue", "by_year": {y: 1000000 for y in range(1, 12)}}],
        "attestations": {
            "material_factor": True,
            "environmental_standards": True,
            "affirmative_action": True,
            "prevailing_wage": {"construction": True, "building_services": True},
        },
    }


def with_changes(data: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of ``data`` with values set at dotted paths (creating mappings as needed)."""
    data = copy.deepcopy(data)
    for key, value in changes.items():
        node = data
        parts = key.split(".")
        for part in parts[:-1]:
            index = int(part) if part.isdigit() and isinstance(node, list) else part
            if isinstance(node, dict) and node.get(index) is None:
                node[index] = {}
            node = node[index]
        last = parts[-1]
        node[int(last) if last.isdigit() and isinstance(node, list) else last] = value
    return data


def scenario(**changes: Any) -> netbenefit.Scenario:
    """The base scenario with changes given as keyword arguments, dots written as ``__``."""
    return netbenefit.Scenario.from_dict(
        with_changes(base_scenario_dict(), {k.replace("__", "."): v for k, v in changes.items()})
    )


def evaluate(**changes: Any) -> netbenefit.Result:
    return netbenefit.evaluate(scenario(**changes))
