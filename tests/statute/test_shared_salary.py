"""Drivers the phases share (docs/scenario-format.md, "Drivers the phases share").

A shared salary is the same salary in the same project year: a later phase starting ``s`` years
after approval has in its phase year t (project year s + t) the initial phase's salary of that
project year, ``m x (1 + g)^(s + t - 1)``. So a phased scenario with ``shared:
[jobs.median_salary]`` must give exactly the numbers of the same scenario with the phase's salary
written out: ``median_salary: m x (1 + g)^s`` (its salary in phase year 1) and ``salary_growth: g``.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

import netbenefit
from netbenefit.model.scenario import Scenario

M, G = 90_000.0, 0.03  # the initial phase's median salary [USD/year] in year 1, and its growth


def phased(start_year: int = 3, *, income_tax: object = None, growth: float = G) -> dict:
    """A two-phase project with the built-in drivers: 180 + 120 new jobs, 40 retained."""
    revenue = {
        "taxable_spending_share": 0.3,
        "construction_taxable_share": 0.35,
        "construction_labor_share": 0.4,
        "construction_income_tax_rate": 0.035,
        "earnings_multiplier": 1.5,
        "corporate_business_tax": 300_000,
    }
    if income_tax is None:
        revenue["income_tax_effective_rate"] = 0.05
    else:
        revenue["income_tax"] = income_tax
    return {
        "name": "Two phases",
        "application_date": "2026-06-01",
        "discount_rate": 0.06,
        "location": {"qualified_incentive_area": True, "distressed_municipality": True},
        "facility": {
            "portions": [
                {"use": "research_and_development", "work": "new_construction", "gross_leasable_area_sqft": 150_000}
            ],
            "accommodates_share": 1.0,
        },
        "capital_investment": {1: 20_000_000},
        "jobs": {"new": 180, "retained": 40, "ramp": [0.5, 1.0], "median_salary": M, "salary_growth": growth,
                 "nj_withholding_share": 0.95},
        "award": {"annual_credit": 1_200_000},
        "revenue": revenue,
        "phases": [
            {
                "name": "Phase 2",
                "start_year": start_year,
                "capital_investment": {1: 12_000_000},
                "jobs": {"new": 120, "ramp": [0.5, 1.0], "nj_withholding_share": 0.9},
                "award": {"annual_credit": 700_000},
            }
        ],
        "attestations": {
            "material_factor": True,
            "environmental_standards": True,
            "affirmative_action": True,
            "prevailing_wage": {"construction": True, "building_services": True},
        },
    }


def shared(data: dict) -> Scenario:
    data = copy.deepcopy(data)
    data["shared"] = ["jobs.median_salary"]
    return Scenario.from_dict(data, source="shared.yaml")


def written_out(data: dict) -> Scenario:
    """The same project with the phase's salary written out: its salary in phase year 1 is the
    initial phase's salary of project year start_year + 1, growing at the initial phase's rate."""
    data = copy.deepcopy(data)
    growth = data["jobs"]["salary_growth"]
    for phase in data["phases"]:
        phase["jobs"]["median_salary"] = data["jobs"]["median_salary"] * (1 + growth) ** phase["start_year"]
        phase["jobs"]["salary_growth"] = growth
    return Scenario.from_dict(data, source="written.yaml")


@pytest.mark.parametrize("start_year", [0, 1, 3, 8])
@pytest.mark.parametrize(
    "income_tax",
    [None, {"method": "brackets", "wage_dispersion": 0.5, "filing_status": {"single": 0.5, "married_joint": 0.5}}],
    ids=["effective_rate", "brackets"],
)
def test_a_shared_salary_equals_the_salary_written_out_per_year(start_year, income_tax):
    data = phased(start_year, income_tax=income_tax)
    a, b = netbenefit.evaluate(shared(data)), netbenefit.evaluate(written_out(data))
    assert a.ratio == pytest.approx(b.ratio, rel=1e-12)
    assert a.pv_benefits == pytest.approx(b.pv_benefits, rel=1e-12)
    assert a.pv_credits == b.pv_credits
    assert a.passes == b.passes and a.eligible == b.eligible
    assert list(a.checks["passed"]) == list(b.checks["passed"])  # 71(d) across phases weighs the same salaries
    pd.testing.assert_frame_equal(a.cashflows, b.cashflows, rtol=1e-12)


def test_the_phase_salary_is_the_initial_phase_salary_of_the_same_project_year():
    # start_year 3: phase year 1 is project year 4, whose salary is 90,000 x 1.03^3 = 98,345.43
    scenario = shared(phased(3))
    assert scenario.phases[0].jobs.median_salary == pytest.approx(M * 1.03**3)
    assert scenario.phases[0].jobs.salary_growth == G
    wages = netbenefit.evaluate(scenario).cashflows
    # In project year 6 (phase year 3) both phases pay 90,000 x 1.03^5 a job: the same salary.
    from netbenefit.model.cashflows import compute

    c = compute(scenario)
    year = list(c.years).index(6)
    per_job = [float(p.wages[0, year] / (p.new_full_time_jobs[0, year] + p.retained_full_time_jobs[0, year]))
               for p in c.phases]
    assert per_job == pytest.approx([M * 1.03**5] * 2, rel=1e-12)
    assert len(wages) > 0


def test_a_shared_growth_keeps_the_phase_salary_and_takes_the_initial_growth():
    data = phased(3)
    data["jobs"]["salary_growth"] = 0.04
    data["phases"][0]["jobs"]["median_salary"] = 80_000
    data["shared"] = ["jobs.salary_growth"]
    scenario = Scenario.from_dict(data, source="growth.yaml")
    assert scenario.phases[0].jobs.median_salary == 80_000 and scenario.phases[0].jobs.salary_growth == 0.04
    data.pop("shared")
    data["phases"][0]["jobs"]["salary_growth"] = 0.04
    assert netbenefit.evaluate(scenario).ratio == pytest.approx(netbenefit.evaluate(Scenario.from_dict(data)).ratio,
                                                                rel=1e-12)


def test_a_scenario_without_shared_evaluates_as_before():
    # No shared key: each phase keeps the salary it states (80,000 here, not the initial phase's path).
    data = phased(3)
    data["phases"][0]["jobs"]["median_salary"] = 80_000
    scenario = Scenario.from_dict(data, source="own.yaml")
    assert scenario.shared == () and scenario.phases[0].jobs.median_salary == 80_000
    assert netbenefit.evaluate(scenario).ratio != pytest.approx(netbenefit.evaluate(shared(phased(3))).ratio)


@pytest.mark.parametrize(
    "path",
    ["scenarios/phased_campus.yaml", "scenarios/office_hq_default_area.yaml", "scenarios/extended_commitment.yaml"],
)
def test_bundled_scenarios_share_nothing_and_keep_their_results(path):
    scenario = netbenefit.load_scenario(path)
    assert scenario.shared == ()
    again = Scenario.from_dict(scenario.to_dict(), source=path, base_dir=scenario.base_dir)
    assert netbenefit.evaluate(again).ratio == netbenefit.evaluate(scenario).ratio


def test_a_varied_shared_salary_is_every_phase_salary_in_each_variant():
    # The model reads the phase's salary from the initial phase's varied one: m x (1 + g)^s per variant.
    from netbenefit.model.cashflows import compute

    scenario = shared(phased(3))
    salaries = np.array([70_000.0, 90_000.0, 120_000.0])
    growths = np.array([0.0, 0.03, 0.05])
    c = compute(scenario, {"jobs.median_salary": salaries, "jobs.salary_growth": growths})
    for i, (m, g) in enumerate(zip(salaries, growths, strict=True)):
        data = phased(3, growth=float(g))
        data["jobs"]["median_salary"] = float(m)
        expected = netbenefit.evaluate(written_out(data))
        assert float(c.column("ratio")[i]) == pytest.approx(expected.ratio, rel=1e-12)


def test_the_inputs_give_a_later_phase_the_initial_phase_salary_of_its_first_project_year():
    # The one accessor of the model: phases.0.jobs.median_salary = m x (1 + g)^start_year, per variant,
    # whichever of m, g and start_year varies; phases.0.jobs.salary_growth = g.
    from netbenefit.model.cashflows import Inputs

    scenario = shared(phased(3))
    base = Inputs(scenario)
    assert base.number("phases.0.jobs.median_salary")[0, 0] == pytest.approx(M * (1 + G) ** 3, rel=1e-15)
    assert base.number("phases.0.jobs.salary_growth")[0, 0] == G
    varied = Inputs(
        scenario,
        {"jobs.median_salary": np.array([80_000.0, 100_000.0]), "phases.0.start_year": np.array([0.0, 5.0])},
    )
    assert varied.number("phases.0.jobs.median_salary")[:, 0] == pytest.approx([80_000.0, 100_000 * 1.03**5])
    grown = Inputs(scenario, {"jobs.salary_growth": np.array([0.0, 0.1])})
    assert grown.number("phases.0.jobs.median_salary")[:, 0] == pytest.approx([M, M * 1.1**3])
    assert grown.number("phases.0.jobs.salary_growth")[:, 0] == pytest.approx([0.0, 0.1])
    # Keys a phase does not share are its own.
    assert grown.number("phases.0.jobs.new")[0, 0] == 120
