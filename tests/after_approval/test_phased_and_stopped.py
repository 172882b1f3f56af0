"""Actual results of phased projects (allocation, certification and clawback on each phase's own
clock), nothing of a business after it leaves, the 80 percent floor of N.J.A.C. 19:31U-1.14(c),
and a recapture table read on each phase's own clock."""

import copy
import json

import numpy as np
import pytest
import yaml
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import ScenarioError
from netbenefit.cli import main
from netbenefit.law.rules.certification import allocate_to_phases, below_floor
from netbenefit.law.rules.clawback import YearsAfterApproval, recapture
from netbenefit.model.after_approval import Actuals, follow

DRIVERS = {
    "jobs.new": 100,
    "jobs.ramp": [1.0],
    "jobs.median_salary": 80000,
    "jobs.salary_growth": 0.0,
    "jobs.nj_withholding_share": 1.0,
    "revenue": {"income_tax_effective_rate": 0.05, "taxable_spending_share": 0.3, "corporate_business_tax": 350000},
    "streams": [],
    "award": {"annual_credit": 150000, "eligibility_period_years": 7},
    "discount_rate": 0.05,
}
PHASE_2 = {
    "name": "Phase 2",
    "start_year": 3,
    "jobs": {"new": 50, "ramp": [1.0], "median_salary": 60000, "nj_withholding_share": 1.0},
    "award": {"annual_credit": 100000, "eligibility_period_years": 7},
}


def scenario(**changes):
    return netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), copy.deepcopy(changes)))


def phased(**changes):
    return scenario(**{**DRIVERS, "phases": [PHASE_2], **changes})


def actuals(rows, workforce_before_approval=1000.0, **extra):
    """Rows of mappings (new_jobs, statewide_workforce default 1000) for years 1, 2, ... or with phase."""
    years, year = [], 0
    for row in rows:
        year = row.get("year", year + (0 if "phase" in row and row["phase"] > 1 else 1))
        years.append({"year": year, "statewide_workforce": 1000.0, **row})
    return Actuals.from_dict({"workforce_before_approval": float(workforce_before_approval), "years": years, **extra})


# --- allocation of the project's totals to the phases ---------------------------------------------------
def test_totals_are_allocated_in_proportion_or_in_order():
    assert allocate_to_phases([75.0], [[100.0], [50.0]]).tolist() == [[50.0], [25.0]]
    assert allocate_to_phases([75.0], [[100.0], [50.0]], "in_order").tolist() == [[75.0], [0.0]]
    assert allocate_to_phases([120.0], [[100.0], [50.0]], "in_order").tolist() == [[100.0], [20.0]]
    assert allocate_to_phases([9.0], [[0.0], [0.0]]).tolist() == [[9.0], [0.0]]  # nothing projected: phase 1
    with pytest.raises(ValueError, match="in_proportion or in_order"):
        allocate_to_phases([1.0], [[1.0]], "first")


def test_a_phased_project_is_followed_phase_by_phase():
    # Years 1-3: only phase 1 is projected (100 jobs); years 4-5 (phase 2 from year 4): 100 + 50.
    after = follow(phased(), actuals([{"new_jobs": 75.0}] * 5))
    jobs = after.phase_years["actual_new_jobs"].unstack("year")
    assert jobs.loc[1].tolist() == [75.0, 75.0, 75.0, 50.0, 50.0]
    assert jobs.loc[2].tolist() == [0.0, 0.0, 0.0, 25.0, 25.0]
    certified = after.phase_years["certified_credit"].unstack("year")
    # Each phase at its own award per job: 150,000 / 100 and 100,000 / 50.
    assert certified.loc[1].tolist() == pytest.approx([112500.0, 112500.0, 112500.0, 75000.0, 75000.0])
    assert certified.loc[2].tolist() == pytest.approx([0.0, 0.0, 0.0, 50000.0, 50000.0])
    assert after.years["certified_credit"].tolist() == pytest.approx(certified.sum().tolist())
    assert after.phases["certified_credits"].sum() == pytest.approx(after.certified_credits)
    in_order = follow(phased(), actuals([{"new_jobs": 75.0}] * 5, allocation="in_order"))
    assert in_order.phase_years["actual_new_jobs"].unstack("year").loc[2].tolist() == [0.0] * 5


def test_rows_may_give_each_phase():
    rows = [{"year": 1, "phase": 1, "new_jobs": 90.0}, {"year": 2, "phase": 1, "new_jobs": 90.0}]
    rows += [{"year": 3, "phase": 1, "new_jobs": 90.0}, {"year": 3, "phase": 2, "new_jobs": 40.0}]
    after = follow(phased(), actuals(rows))
    jobs = after.phase_years["actual_new_jobs"].unstack("year")
    assert jobs.loc[1].tolist() == [90.0, 90.0, 90.0] and jobs.loc[2].tolist() == [0.0, 0.0, 40.0]
    assert after.years["actual_new_jobs"].tolist() == [90.0, 90.0, 130.0]


ROW = {"year": 1, "phase": 1, "new_jobs": 1.0}


@pytest.mark.parametrize(
    "rows, key, words",
    [
        (
            [ROW, {"year": 2, "new_jobs": 1.0}],
            "years.1.phase",
            "every row or in none",
        ),
        (
            [ROW, {**ROW, "new_jobs": 2.0}],
            "years.1.phase",
            "twice",
        ),
        (
            [
                {"year": 1, "phase": 1, "new_jobs": 1.0},
                {"year": 1, "phase": 2, "new_jobs": 1.0, "statewide_workforce": 9.0},
            ],
            "years.1.statewide_workforce",
            "the same in every row of a year",
        ),
    ],
)
def test_rows_by_phase_are_checked(rows, key, words):
    with pytest.raises(ScenarioError, match=f"{key}: .*{words}"):
        Actuals.from_dict(
            {"workforce_before_approval": 1000.0, "years": [{"statewide_workforce": 1000.0, **r} for r in rows]}
        )


def test_a_phase_the_scenario_lacks_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "actuals.yaml"
    path.write_text(
        "workforce_before_approval: 1000\nyears:\n  - {year: 1, phase: 3, new_jobs: 5, statewide_workforce: 1000}\n"
    )
    with pytest.raises(ScenarioError, match=r"actuals.yaml: years.0.phase: phase 3: the scenario has 2 phases"):
        follow(phased(), path)


def test_each_phase_is_clawed_back_on_its_own_clock():
    # Stop after year 6: phase 1 served 6 of 10.5 years, phase 2 (credits from year 4) 3 of 10.5.
    after = follow(phased(), actuals([{"new_jobs": 150.0}] * 6, maintained_through_year=6))
    phases = after.phases
    assert phases["commitment_start"].tolist() == [0.0, 3.0]
    assert phases.loc[1, "recapture"] == pytest.approx(6 * 150000 * 4.5 / 10.5)
    assert phases.loc[2, "recapture"] == pytest.approx(3 * 100000 * 7.5 / 10.5)
    assert after.recapture == pytest.approx(phases["recapture"].sum())
    assert after.years.loc[7, "recapture"] == pytest.approx(after.recapture)


def test_76a_forfeiture_reads_the_project_as_a_whole():
    rows = [{"new_jobs": 150.0}] * 3 + [{"new_jobs": 150.0, "statewide_workforce": 700.0}]
    after = follow(phased(), actuals(rows))
    assert after.forfeited_years == (4,)
    assert after.phase_years.xs(4, level="year")["certified_credit"].tolist() == [0.0, 0.0]


def test_the_rerun_gives_a_ratio_per_cumulative_test():
    after = follow(phased(), actuals([{"new_jobs": 150.0}] * 5))
    assert after.rerun_tests["phases"].tolist() == [[1], [1, 2]]
    assert after.rerun_tests["ratio"].iloc[-1] == pytest.approx(after.rerun_ratio)


def test_actuals_json_is_one_object(capsys, tmp_path):
    path = tmp_path / "phased.yaml"
    path.write_text(yaml.safe_dump(with_changes(base_scenario_dict(), copy.deepcopy({**DRIVERS, "phases": [PHASE_2]}))))
    facts = tmp_path / "actuals.yaml"
    facts.write_text(
        "workforce_before_approval: 1000\nmaintained_through_year: 4\nyears:\n"
        + "".join(f"  - {{year: {y}, new_jobs: 75, statewide_workforce: 1000}}\n" for y in range(1, 5))
    )
    code = main(["actuals", str(path), str(facts), "--json"])
    assert code == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    assert {"years", "phases", "recapture", "repayment", "rerun", "warnings"} <= set(data)
    assert [row["phase"] for row in data["phases"]] == [1, 2]
    assert [test["phases"] for test in data["rerun"]["tests"]] == [[1], [1, 2]]
    assert data["recapture"] == pytest.approx(sum(row["recapture"] for row in data["phases"]))


# --- nothing of a business counts after it leaves -------------------------------------------------------
STOPPED = {
    **DRIVERS,
    "jobs.retained": 40,
    "capital_investment": {1: 40000, 8: 500000},
    "revenue.construction_taxable_share": 0.3,
    "streams": [
        {"name": "fees", "kind": "revenue", "by_year": {y: 20000 for y in range(1, 13)}},
        {"name": "roads", "kind": "cost", "by_year": {y: 5000 for y in range(1, 13)}},
    ],
}


def test_after_the_stop_no_stream_of_the_business_counts_and_costs_stay():
    base = scenario(**STOPPED)
    after = follow(base, actuals([{"new_jobs": 50.0, "retained_jobs": 40.0}] * 6, maintained_through_year=6))
    streams = after.actual.streams
    later = streams[streams["year"] > 6]
    assert later.loc[later["kind"] == "revenue", "amount"].eq(0).all()
    projected = after.projected.streams
    costs = later[later["kind"] == "cost"]["amount"].to_numpy()
    stated = projected[(projected["year"] > 6) & (projected["kind"] == "cost")]["amount"].to_numpy()
    assert costs.tolist() == stated.tolist() and costs.min() == -5000  # signed: a cost
    cashflows = after.actual.cashflows.loc[7:]
    for column in ("full_time_jobs", "wages", "capital_investment", "corporation_business_tax", "revenues"):
        assert cashflows[column].eq(0).all(), column
    # Before the stop the retained jobs and the business tax count as projected.
    assert after.actual.cashflows.loc[1:6, "full_time_jobs"].eq(90).all()

    def business_tax(result):
        s = result.streams
        return s[s["tax"] == "corporation_business_tax"].groupby("year")["amount"].sum()

    assert business_tax(after.actual).loc[1:6].tolist() == pytest.approx(
        business_tax(after.projected).loc[1:6].tolist()
    )
    assert business_tax(after.actual).loc[7:].eq(0).all() and business_tax(after.projected).loc[7:].gt(0).all()


def test_actual_retained_jobs_show_what_the_file_reports():
    after = follow(scenario(**STOPPED), actuals([{"new_jobs": 50.0, "retained_jobs": 40.0}] * 3))
    assert after.years["actual_retained_jobs"].tolist() == [40.0, 40.0, 40.0]


# --- N.J.A.C. 19:31U-1.14(c): the 80 percent floor, at, below and above ---------------------------------
@pytest.mark.parametrize("share, warned", [(0.7999, True), (0.8, False), (0.8001, False)])
def test_19_31U_1_14c_jobs_floor(share, warned):
    after = follow(scenario(**DRIVERS), actuals([{"new_jobs": 100.0}, {"new_jobs": 100.0 * share}]))
    assert bool(after.floor.loc[2, "full_time_jobs_below_floor"]) is warned
    lines = [line for line in after.warnings if line.startswith("full-time jobs")]
    assert bool(lines) is warned and (not warned or "in year 2 (lowest in year 2" in lines[0])


@pytest.mark.parametrize("share, warned", [(0.7999, True), (0.8, False), (0.8001, False)])
def test_19_31U_1_14c_salary_floor(share, warned):
    after = follow(scenario(**DRIVERS), actuals([{"new_jobs": 100.0, "median_salary": 80000.0 * share}]))
    assert bool(after.floor.loc[1, "median_salary_below_floor"]) is warned
    assert any(line.startswith("median salary below") for line in after.warnings) is warned


@pytest.mark.parametrize("share, warned", [(0.7999, True), (0.8, False), (0.8001, False)])
def test_19_31U_1_14c_withholdings_floor(share, warned):
    # The jobs and the salary as projected; the share of the income tax withheld for New Jersey is not.
    after = follow(scenario(**DRIVERS), actuals([{"new_jobs": 100.0, "nj_withholding_share": share}]))
    assert after.floor.loc[1, "withholdings_share_of_agreement"] == pytest.approx(share)
    assert bool(after.floor.loc[1, "withholdings_below_floor"]) is warned
    words = [line for line in after.warnings if "the words read" in line]
    assert bool(words) is warned and (not warned or "drops below 80 percent" in words[0])


RAMP = {**DRIVERS, "jobs.new": 40, "jobs.ramp": [0.35, 0.65, 1.0]}


@pytest.mark.parametrize("basis", ["agreement", "ramp"])
def test_19_31U_1_14c_one_basis_for_every_measure_and_year(basis):
    # 40 approved jobs on a [0.35, 0.65, 1] ramp, the business exactly on its ramp: 14, 26, 40 jobs.
    # Against the agreement at full ramp (the default) years 1 and 2 are below 80% of 40 jobs (35%,
    # 65%), their withholdings too (the same salary); against the ramp's projection nothing is.
    base = scenario(**{**RAMP, "readings.floor_basis": basis})
    after = follow(base, actuals([{"new_jobs": n, "median_salary": 80000.0} for n in (14.0, 26.0, 40.0)]))
    floor = after.floor
    if basis == "agreement":
        assert floor["full_time_jobs_agreement"].tolist() == [40.0, 40.0, 40.0]
        assert floor["full_time_jobs_share_of_agreement"].tolist() == pytest.approx([0.35, 0.65, 1.0])
        assert floor["withholdings_share_of_agreement"].tolist() == pytest.approx([0.35, 0.65, 1.0])
        assert floor["full_time_jobs_below_floor"].tolist() == [True, True, False]
        assert floor["withholdings_below_floor"].tolist() == [True, True, False]
        [jobs] = [line for line in after.warnings if line.startswith("full-time jobs")]
        assert "of the project agreement's at full ramp in years 1, 2 (lowest in year 1: 14, 35" in jobs
    else:  # the ramp's projection: on plan every year (year 1's jobs against the approved jobs, as before)
        assert floor["full_time_jobs_agreement"].tolist() == [40.0, 26.0, 40.0]
        assert floor["withholdings_share_of_agreement"].tolist() == pytest.approx([1.0, 1.0, 1.0])
        assert floor["full_time_jobs_below_floor"].tolist() == [True, False, False]
    assert floor["median_salary_share_of_agreement"].tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert floor.attrs["basis"] == basis


def test_the_agreement_of_a_later_phase_counts_from_its_first_year():
    # Phase 2 (50 jobs) from project year 4: the agreement specifies 100 jobs in years 1-3, 150 after.
    after = follow(phased(), actuals([{"new_jobs": 100.0}] * 3 + [{"new_jobs": 150.0}] * 2))
    assert after.floor["full_time_jobs_agreement"].tolist() == [100.0, 100.0, 100.0, 150.0, 150.0]
    assert not after.floor["full_time_jobs_below_floor"].any()


def test_the_floor_says_when_the_projection_was_not_eligible():
    base = scenario(**{**DRIVERS, "award.annual_credit": 5_000_000})  # fails 71(a)(5)
    after = follow(base, actuals([{"new_jobs": 10.0}]))
    assert not after.projected.eligible
    assert any("the projection itself was not eligible" in line for line in after.warnings)


def test_below_floor_function():
    assert below_floor([79.99, 80.0, 80.01, np.nan], [100.0] * 4, 0.8).tolist() == [True, False, False, False]
    assert below_floor([0.0], [0.0], 0.8).tolist() == [False]  # nothing projected


# --- a recapture table on each phase's own clock --------------------------------------------------------
TABLE = {0: 1.0, 3: 0.65, 6: 0.45}


def test_recapture_table_on_the_phase_clock():
    # Exit after 6 years after approval; the phase's commitment began in year 3: 3 years served.
    assert float(recapture(1_000_000.0, 0.0, 6, 3.0, 10.5, TABLE)) == pytest.approx(650_000.0)
    assert float(recapture(1_000_000.0, 0.0, 6, 3.0, 10.5, YearsAfterApproval(TABLE))) == pytest.approx(450_000.0)


@pytest.mark.parametrize("reading, share", [("phase", 0.65), ("approval", 0.45)])
def test_recapture_table_of_a_later_phase_in_follow_and_the_schedule(reading, share):
    base = phased(**{"commitment.recapture": TABLE, "readings.recapture_table_years": reading})
    after = follow(base, actuals([{"new_jobs": 150.0}] * 6, maintained_through_year=6))
    assert after.phases.loc[2, "recapture"] == pytest.approx(share * 3 * 100000)
    assert after.phases.loc[1, "recapture"] == pytest.approx(0.45 * 6 * 150000)  # phase 1's clock is approval's
    # The result's clawback schedule reads the table the same way: after m = 6, phase 1 (6 years served)
    # and phase 2 (3 years served) together.
    schedule = after.projected.clawback_schedule.set_index("years_maintained")
    assert schedule.loc[6, "recapture"] == pytest.approx(0.45 * 6 * 150000 + share * 3 * 100000)


def test_stop_ends_new_jobs_keeps_the_rerun_before():
    facts = [{"new_jobs": 50.0, "retained_jobs": 40.0}] * 6
    before = follow(scenario(**STOPPED), actuals(facts, maintained_through_year=6, stop_ends="new_jobs"))
    now = follow(scenario(**STOPPED), actuals(facts, maintained_through_year=6))
    assert before.actual.cashflows.loc[7:11, "retained_full_time_jobs"].eq(40).all()  # counted on, as before
    assert before.actual.cashflows.loc[7:11, "new_full_time_jobs"].eq(0).all()
    assert before.rerun_ratio > now.rerun_ratio


def test_a_csv_may_name_each_rows_phase(tmp_path):
    (tmp_path / "years.csv").write_text(
        "year,phase,new_jobs,statewide_workforce\n1,1,90,1000\n2,1,95,1000\n3,1,95,1000\n4,1,100,1000\n4,2,20,1000\n"
    )
    (tmp_path / "actuals.yaml").write_text("workforce_before_approval: 1000\nyears_from_csv: years.csv\n")
    after = follow(phased(), tmp_path / "actuals.yaml")
    assert after.phase_years.loc[(2, 4), "actual_new_jobs"] == 20.0
    assert after.years["actual_new_jobs"].tolist() == [90.0, 95.0, 95.0, 120.0]
    (tmp_path / "years.csv").write_text("year,phase,new_jobs,statewide_workforce\n1,1.5,90,1000\n")
    with pytest.raises(ScenarioError, match="phase must be a whole number"):
        follow(phased(), tmp_path / "actuals.yaml")


def test_a_later_phase_reporting_jobs_before_it_starts_is_warned_about():
    rows = [{"year": 1, "phase": 1, "new_jobs": 90.0}, {"year": 2, "phase": 1, "new_jobs": 90.0}]
    rows += [{"year": 2, "phase": 2, "new_jobs": 10.0}]
    after = follow(phased(), actuals(rows))
    assert after.warnings[0].startswith("Phase 2: 10 jobs reported in year 2, before it starts")
    assert after.phase_years.loc[(2, 2), "certified_credit"] == 0.0


# --- 76(a)(2) on a phased project: the project's totals, or each phase against its own reports ----------
LATER = {**DRIVERS, "phases": [{**PHASE_2, "jobs": {**PHASE_2["jobs"], "new": 40}}]}


@pytest.mark.parametrize("reading, flagged", [("project", ()), ("each_phase", (4,))])
def test_76a2_a_later_phase_that_hires_few_in_its_first_year(reading, flagged):
    # Phase 2 (40 new jobs, from project year 4) hires 5 of them in its first year: 87.5% below its
    # agreement. The project's new jobs rose (100 -> 105): the project's totals flag nothing.
    rows = [{"year": y, "phase": 1, "new_jobs": 100.0} for y in (1, 2, 3)]
    rows += [{"year": 4, "phase": 1, "new_jobs": 100.0}, {"year": 4, "phase": 2, "new_jobs": 5.0}]
    after = follow(phased(**{**LATER, "readings.rerun_comparison": reading}), actuals(rows))
    assert after.rerun_flag_years == flagged
    assert after.phase_years.loc[(2, 4), "new_jobs_fall_share"] == pytest.approx(0.875)
    assert after.years.loc[4, "new_jobs_fall_share"] < 0  # the project's total rose


@pytest.mark.parametrize("fall, flagged", [(0.1, False), (0.1001, True)])
def test_76a2_each_phase_against_its_own_prior_report_at_the_bound(fall, flagged):
    rows = [{"year": y, "phase": 1, "new_jobs": 100.0} for y in (1, 2, 3)]
    rows += [{"year": 4, "phase": 1, "new_jobs": 100.0}, {"year": 4, "phase": 2, "new_jobs": 40.0}]
    rows += [{"year": 5, "phase": 1, "new_jobs": 100.0}, {"year": 5, "phase": 2, "new_jobs": 40.0 * (1 - fall)}]
    after = follow(phased(**{**LATER, "readings.rerun_comparison": "each_phase"}), actuals(rows))
    assert (5 in after.rerun_flag_years) is flagged


def test_a_slow_decline_is_caught_by_the_floor_not_by_76a2():
    # 9.9% fewer new jobs every year: never more than 10% below the prior report, so 76(a)(2) never
    # flags; by year 4 the jobs are 73% of the agreement's (0.901^3), below the 80% floor.
    rows = [{"new_jobs": 100.0 * 0.901**t} for t in range(6)]
    after = follow(scenario(**DRIVERS), actuals(rows))
    assert after.rerun_flag_years == ()
    assert after.floor["full_time_jobs_below_floor"].tolist() == [False, False, False, True, True, True]
