"""The vectorised analysis agrees with evaluate(scenario.replace(...)) on every bundled scenario.

For each scenario, 20 random variants of several keys, including values on either side of the
job minimums of 71(c)(1) (25 and 35 new jobs; 150, 250, 500 and 1,000 retained), the location
flags that change the threshold of 71(a)(5) and the retained-jobs clauses, the discount rate, the
award and, for the phased scenario, keys of the later phase.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit.analysis import evaluate_variants

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.yaml"))
VARIANTS = 20
FLAGS = (
    "location.enhanced_area",
    "location.distressed_municipality",
    "location.qualified_incentive_tract",
    "location.government_restricted_municipality",
    "location.mega_project",
    "business.targeted_industry",
)


def _variants(scenario: netbenefit.Scenario, rng: np.random.Generator) -> dict[str, np.ndarray]:
    n = VARIANTS
    near_minimums = np.array([24, 25, 26, 34, 35, 36])
    values: dict[str, np.ndarray] = {
        "jobs.new": np.where(
            rng.random(n) < 0.5, rng.choice(near_minimums, n), scenario.jobs.new * rng.uniform(0.5, 1.5, n)
        ),
        "jobs.retained": rng.choice(np.array([0, 149, 150, 249, 250, 499, 500, 999, 1000, 1200]), n).astype(float),
        "discount_rate": rng.uniform(0.0, 0.12, n),
        "commitment.extended_years": rng.integers(0, 4, n).astype(float),
    }
    if scenario.business.small_business:
        values.pop("jobs.new")  # keep the 25% growth test of 71(c)(1)(a) meaningful
        values["business.full_time_employees_at_application"] = rng.choice(np.array([30.0, 40.0, 48.0, 60.0]), n)
    for flag in FLAGS:
        values[flag] = rng.random(n) < 0.3
    section_75 = getattr(scenario.award, "section_75", None)
    if section_75 is not None:  # the section 75 calculator builds the credit per job
        values["award.section_75.labor_harmony"] = rng.random(n) < 0.5
        values["award.section_75.qualified_opportunity_zone"] = rng.random(n) < 0.5
        for i, bonus in enumerate(section_75.bonuses):
            values[f"award.section_75.bonuses.{i}.per_job"] = bonus.per_job * rng.uniform(0.0, 3.0, n)
    else:
        award = "award.annual_credit" if scenario.award.annual_credit is not None else "award.per_new_job"
        values[award] = float(scenario.value_at(award)) * rng.uniform(0.3, 1.5, n)
    if scenario.revenue is not None:
        if scenario.revenue.multiplier_table is None:  # a table supplies the multipliers instead
            values["revenue.earnings_multiplier"] = rng.uniform(1.0, 2.0, n)
        if getattr(scenario.revenue.income_tax, "method", None) == "brackets":
            values["revenue.income_tax.wage_dispersion"] = rng.uniform(0.0, 1.0, n)
            values["jobs.median_salary"] = rng.uniform(20_000.0, 250_000.0, n)
    values["inflation"] = rng.uniform(0.0, 0.05, n)
    if scenario.phases:
        values["phases.0.jobs.new"] = scenario.phases[0].jobs.new * rng.uniform(0.5, 2.0, n)
        values["phases.0.award.annual_credit"] = rng.uniform(2e5, 2e6, n)
        values["phases.0.start_year"] = rng.integers(1, 6, n).astype(float)
    return values


def _python(value):
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    return float(value)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_variants_agree_with_evaluate(path):
    scenario = netbenefit.load_scenario(path)
    rng = np.random.default_rng(zlib.crc32(path.stem.encode()))
    values = _variants(scenario, rng)
    table = evaluate_variants(scenario, values)
    assert len(table) == VARIANTS
    integer_keys = {"commitment.extended_years", "phases.0.start_year"}
    for i, row in table.iterrows():
        changes = {key: (int(v) if key in integer_keys else _python(v)) for key, v in ((k, row[k]) for k in values)}
        variant = scenario.replace(changes)
        if row["note"] != "":
            with pytest.raises(netbenefit.ScenarioError):
                netbenefit.evaluate(variant)
            assert np.isnan(row["ratio"]) and not row["passes"] and not row["eligible"]
            continue
        result = netbenefit.evaluate(variant)
        for name in ("ratio", "pv_benefits", "pv_credits", "threshold"):
            assert row[name] == pytest.approx(getattr(result, name), rel=1e-9), (i, name, changes)
        assert bool(row["passes"]) == result.passes, (i, changes)
        assert bool(row["eligible"]) == result.eligible, (i, changes)


def test_variants_cover_both_outcomes():
    """The random variants above are not all alike: some pass and some fail, across scenarios."""
    outcomes = set()
    for path in SCENARIOS:
        scenario = netbenefit.load_scenario(path)
        table = evaluate_variants(scenario, _variants(scenario, np.random.default_rng(zlib.crc32(path.stem.encode()))))
        outcomes.update(zip(table["passes"], table["eligible"], strict=True))
    assert {(True, True), (False, False)} <= outcomes


def test_sweep_row_equals_evaluate_of_the_scenario_itself():
    scenario = netbenefit.load_scenario(SCENARIOS[0])
    table = netbenefit.sweep(scenario, {})
    result = netbenefit.evaluate(scenario)
    assert len(table) == 1
    assert table["ratio"].iloc[0] == pytest.approx(result.ratio, rel=1e-12)
    assert bool(table["eligible"].iloc[0]) == result.eligible
