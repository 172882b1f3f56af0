"""The section 75 award calculator: base amounts by location, bonuses, cap, labor harmony,
retained jobs at half, and the credit that evaluate() uses."""

import math

import numpy as np
import pandas as pd
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import ScenarioError
from netbenefit.law.award import BASE_AREAS, annual_credit, award_table, base_credit_per_job, credit_per_job
from netbenefit.law.parameters import PARAMETERS, parameter
from netbenefit.model.cashflows import compute


def calculator_scenario(section_75=None, **changes):
    """The shared base scenario with its award given by the section 75 calculator."""
    data = base_scenario_dict()
    data["award"] = {"section_75": section_75 or {}, "eligibility_period_years": 7}
    return netbenefit.Scenario.from_dict(with_changes(data, changes))


# --- 75(b): base amounts by location ------------------------------------------------------------
ZONE = "qualified opportunity zone or employment and investment corridor"
BASES = [
    ({}, 500, "other eligible area"),
    ({"qualified_opportunity_zone": True}, 2500, ZONE),
    ({"employment_and_investment_corridor": True}, 2500, ZONE),
    ({"distressed_municipality": True}, 3000, "distressed municipality"),
    ({"enhanced_area": True}, 3500, "enhanced area"),
    ({"government_restricted_municipality": True}, 4000, "government-restricted municipality or mega project"),
    ({"mega_project": True}, 4000, "government-restricted municipality or mega project"),
    # Several at once: the highest applicable base amount (a convention).
    ({"distressed_municipality": True, "enhanced_area": True}, 3500, "enhanced area"),
    ({"qualified_opportunity_zone": True, "distressed_municipality": True}, 3000, "distressed municipality"),
    ({"mega_project": True, "enhanced_area": True, "qualified_opportunity_zone": True}, 4000,
     "government-restricted municipality or mega project"),
]


@pytest.mark.parametrize("flags, amount, area", BASES)
def test_base_amount_by_location(flags, amount, area):
    base, code = base_credit_per_job(**flags)
    assert float(base) == amount
    assert BASE_AREAS[int(code)] == area


def test_base_amounts_are_the_cited_parameters():
    assert [parameter(name) for name in sorted(PARAMETERS) if name.startswith("award_base_credit_")] == [
        3000, 3500, 4000, 2500, 500,  # alphabetical: distressed, enhanced, restricted/mega, zone/corridor, other
    ]


def test_base_amount_broadcasts_over_variants():
    base, code = base_credit_per_job(enhanced_area=np.array([[True], [False]]), distressed_municipality=True)
    assert base.ravel().tolist() == [3500.0, 3000.0]


# --- cap and labor harmony ----------------------------------------------------------------------
def test_cap_exactly_reached():
    # 3,500 + 4,500 = 8,000: exactly the cap, nothing cut.
    per_job = credit_per_job(3500.0, 4500.0)
    assert float(per_job.uncapped) == 8000 and float(per_job.capped) == 8000
    assert float(per_job.capped - per_job.uncapped) == 0


def test_one_dollar_above_the_cap_is_cut():
    # 3,500 + 4,501 = 8,001 -> 8,000.
    assert float(credit_per_job(3500.0, 4501.0).new_job) == 8000


def test_below_the_cap_is_unchanged():
    assert float(credit_per_job(500.0, 1000.0).new_job) == 1500


def test_labor_harmony_adds_1000_above_the_cap():
    # min(3,500 + 6,000, 8,000) + 1,000 = 9,000.
    assert float(credit_per_job(3500.0, 6000.0, labor_harmony=True).new_job) == 9000
    # Below the cap the addition is added too: 500 + 1,000 = 1,500 (a convention).
    assert float(credit_per_job(500.0, 0.0, labor_harmony=True).new_job) == 1500


def test_a_scenario_may_replace_the_cap():
    assert float(credit_per_job(4000.0, 5000.0, cap=6000.0).new_job) == 6000


# --- retained jobs at half ------------------------------------------------------------------------
def test_retained_job_earns_half_of_a_new_job():
    per_job = credit_per_job(4000.0, 1000.0, labor_harmony=True)  # 5,000 + 1,000 = 6,000
    assert float(per_job.new_job) == 6000 and float(per_job.retained_job) == 3000


def test_annual_credit_counts_retained_jobs_only_when_eligible():
    # 100 new x 4,000 + 300 retained x 2,000 = 1,000,000; without eligibility 400,000.
    assert float(annual_credit(4000.0, 2000.0, 100, 300, True)) == 1_000_000
    assert float(annual_credit(4000.0, 2000.0, 100, 300, False)) == 400_000


# --- the calculation table ----------------------------------------------------------------------------
def test_award_table_shows_each_step():
    table = award_table(
        location={"enhanced_area": True},
        bonuses=[("targeted industry", 1500.0), ("transit", 4000.0)],
        labor_harmony=True,
        new_jobs=100,
        retained_jobs=300,
        retained_jobs_eligible=True,
        eligibility_period_years=7,
    )
    steps = table.set_index("step")
    assert table["step"].tolist() == [
        "base", "bonus", "bonus", "cap", "labor_harmony", "per_new_job", "per_retained_job", "annual_credit", "total",
    ]
    # 3,500 + 1,500 + 4,000 = 9,000, cut by 1,000 to the 8,000 cap, plus 1,000 = 9,000 per new job.
    assert steps.loc["base", "per_job"] == 3500
    assert steps.loc["cap", "per_job"] == -1000
    assert steps.loc["labor_harmony", "per_job"] == 1000
    assert steps.loc["per_new_job", "per_job"] == 9000
    assert steps.loc["per_retained_job", "per_job"] == 4500
    # 100 x 9,000 + 300 x 4,500 = 2,250,000 a year; x 7 = 15,750,000.
    assert steps.loc["annual_credit", "annual"] == 2_250_000
    assert steps.loc["total", "total"] == 15_750_000
    # The build-up rows add up to the credit per new job (the waterfall closes).
    build_up = table[table["step"].isin(["base", "bonus", "cap", "labor_harmony"])]["per_job"].sum()
    assert build_up == steps.loc["per_new_job", "per_job"]


def test_award_table_does_not_count_ineligible_retained_jobs():
    table = award_table(location={}, new_jobs=35, retained_jobs=100, eligibility_period_years=7).set_index("step")
    assert table.loc["per_retained_job", "jobs"] == 0
    assert table.loc["annual_credit", "annual"] == 35 * 500


# --- the scenario key and evaluate() ----------------------------------------------------------------
def test_calculator_credit_equals_evaluates_credits():
    scenario = calculator_scenario(
        {"bonuses": [{"name": "bonus", "per_job": 1000}], "labor_harmony": True},
        **{"location.enhanced_area": True, "jobs.retained": 250},
    )
    result = netbenefit.evaluate(scenario)
    table = result.award_calculation.set_index("step")
    # (3,500 + 1,000) + 1,000 = 5,500 per new job; 2,750 per retained job (250 in an enhanced area: 71(c)(1)(d)).
    assert result.retained_jobs_eligible
    annual = 35 * 5500 + 250 * 2750
    assert table.loc["annual_credit", "annual"] == annual
    assert result.cashflows["credits"].loc[1:7].tolist() == [annual] * 7
    assert result.cashflows["credits"].sum() == table.loc["total", "total"] == result.requested_credits


def test_calculator_equals_an_explicit_per_job_award():
    # The calculator's 500 + 2,000 = 2,500 per new job gives the same result as per_new_job: 2,500.
    by_calculator = netbenefit.evaluate(calculator_scenario({"bonuses": [{"name": "b", "per_job": 2000}]}))
    explicit = netbenefit.evaluate(netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), {
        "award": {"per_new_job": 2500, "per_retained_job": 1250, "eligibility_period_years": 7}})))
    # Check 75's message names each award's maximum: the calculator's says whether labor harmony
    # applies ($8,000 here); an explicit award does not, so its maximum includes the addition.
    calculated, given = by_calculator.to_dict(), explicit.to_dict()
    for data in (calculated, given):
        data["checks"] = [check if check["id"] != "75" else {**check, "message": None} for check in data["checks"]]
    assert calculated == given
    assert explicit.award_calculation is None


def test_to_dict_keys_are_unchanged_by_the_calculator():
    result = netbenefit.evaluate(calculator_scenario())
    assert "award_calculation" not in result.to_dict()


def test_compute_varies_the_calculator_inputs():
    scenario = calculator_scenario({"bonuses": [{"name": "b", "per_job": 1000}]})
    computation = compute(scenario, {"award.section_75.bonuses.0.per_job": np.array([0.0, 1000.0, 9000.0])})
    # 35 x (500 + bonus), capped at 8,000.
    assert computation.phases[0].credits[:, 0].tolist() == [35 * 500, 35 * 1500, 35 * 8000]
    flags = compute(scenario, {"award.section_75.labor_harmony": np.array([False, True])})
    assert flags.phases[0].credits[:, 0].tolist() == [35 * 1500, 35 * 2500]


def test_later_phase_may_use_the_calculator():
    data = base_scenario_dict()
    data["phases"] = [{
        "name": "phase 2", "start_year": 2, "jobs": {"new": 10, "nj_withholding_share": 1.0},
        "award": {"section_75": {"bonuses": [{"name": "b", "per_job": 500}]}, "eligibility_period_years": 3},
    }]
    result = netbenefit.evaluate(netbenefit.Scenario.from_dict(data))
    table = result.award_calculation
    assert table["phase"].unique().tolist() == [2]
    assert table.set_index("step").loc["total", "total"] == 10 * 1000 * 3
    assert result.requested_credits == 7 * 100000 + 10 * 1000 * 3


# --- validation ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "award, key, problem",
    [
        ({"annual_credit": 1, "section_75": {}}, "award", "exactly one of annual_credit or per_new_job or section_75"),
        ({"per_new_job": 1, "section_75": {}}, "award", "exactly one of"),
        ({"section_75": {}, "per_retained_job": 1}, "award.per_retained_job", "not section_75"),
        ({"section_75": {"bonuses": [{"name": "b", "per_job": -1}]}}, "award.section_75.bonuses.0.per_job",
         "greater than"),
        ({"section_75": {"bonuses": [{"name": "b", "per_job": 1}, {"name": "b", "per_job": 2}]}},
         "award.section_75.bonuses.1.name", "names another bonus"),
        ({"section_75": {"labor_harmony": "yes"}}, "award.section_75.labor_harmony", "true or false"),
        ({"section_75": {"opportunity_zone": True}}, "award.section_75.opportunity_zone", "unknown key"),
    ],
)
def test_bad_calculator_input_is_one_scenario_error(award, key, problem):
    data = with_changes(base_scenario_dict(), {})
    data["award"] = award
    with pytest.raises(ScenarioError) as error:
        netbenefit.Scenario.from_dict(data, source="s.yaml")
    assert error.value.key == key
    assert problem in error.value.problem
    assert "\n" not in str(error.value)


def test_replace_changes_a_bonus():
    scenario = calculator_scenario({"bonuses": [{"name": "b", "per_job": 1000}]})
    variant = scenario.replace({"award.section_75.bonuses.0.per_job": 3000.0})
    result = netbenefit.evaluate(variant)
    assert result.award_calculation.set_index("step").loc["per_new_job", "per_job"] == 3500


def test_scenario_round_trips_with_the_calculator():
    scenario = calculator_scenario({"bonuses": [{"name": "b", "per_job": 1000}], "cap_per_job": 1200.0})
    again = netbenefit.Scenario.from_dict(scenario.to_dict())
    assert again == scenario
    table = netbenefit.evaluate(again).award_calculation.set_index("step")
    assert table.loc["cap", "per_job"] == -300 and table.loc["per_new_job", "per_job"] == 1200


def test_table_has_no_missing_values_where_a_number_is_due():
    table = netbenefit.evaluate(calculator_scenario()).award_calculation
    assert not math.isnan(table.set_index("step").loc["total", "total"])
    assert isinstance(table, pd.DataFrame)


def test_vectorised_variants_equal_single_evaluations():
    # jobs.new varies as an (n, 1) column: each variant's credit equals evaluate() of that variant.
    scenario = calculator_scenario(
        {"bonuses": [{"name": "b", "per_job": 2000}], "labor_harmony": True}, **{"location.enhanced_area": True}
    )
    new_jobs = np.array([35.0, 60.0, 250.0])
    bonus = np.array([0.0, 2000.0, 9000.0])
    computation = compute(scenario, {"jobs.new": new_jobs, "award.section_75.bonuses.0.per_job": bonus})
    for i in range(len(new_jobs)):
        key = "award.section_75.bonuses.0.per_job"
        variant = scenario.replace({"jobs.new": float(new_jobs[i]), key: float(bonus[i])})
        single = netbenefit.evaluate(variant)
        assert computation.phases[0].credits[i].sum() == pytest.approx(single.requested_credits)
        assert computation.column("pv_credits")[i] == pytest.approx(single.pv_credits)
