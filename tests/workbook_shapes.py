"""The shapes of an application whose workbook is read back (tests/reports/test_workbook_round_trip*.py):
one phase, phased, shared drivers, an extended commitment, streams from CSV, year 0, a multiplier
table; each a scenario built from a bundled file."""

from __future__ import annotations

from pathlib import Path

import netbenefit

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def bundled(stem: str) -> netbenefit.Scenario:
    return netbenefit.load_scenario(SCENARIOS / f"{stem}.yaml")


def shared_drivers() -> netbenefit.Scenario:
    """The two-phase life-sciences campus with the salary shared by its phases (``shared``)."""
    data = bundled("life_sciences_phased").to_dict()
    for phase in data["phases"]:
        phase["jobs"].pop("median_salary")
        phase["jobs"].pop("salary_growth")
    data["shared"] = ["jobs.median_salary"]
    return netbenefit.Scenario.from_dict(data, source=str(SCENARIOS / "shared.yaml"), base_dir=SCENARIOS)


def year_zero() -> netbenefit.Scenario:
    """An office whose fit-out is paid in the approval year, year 0."""
    data = bundled("office_hq_default_area").to_dict()
    data["capital_investment"] = {0: 30_000_000.0, 2: 8_000_000.0}
    return netbenefit.Scenario.from_dict(data, source=str(SCENARIOS / "year_zero.yaml"), base_dir=SCENARIOS)


#: shape -> its scenario.
SHAPES = {
    "one phase": lambda: bundled("office_hq_default_area"),
    "phased": lambda: bundled("life_sciences_phased"),
    "shared drivers": shared_drivers,
    "extension": lambda: bundled("extended_commitment"),
    "streams from CSV": lambda: bundled("imported_streams_csv"),
    "year 0": year_zero,
    "multiplier table": lambda: bundled("industry_multipliers_example"),
}
