"""C.34:1B-341(a)(4): a significant reduction of the full-time jobs, or their salaries, a phase
certified at the commencement of its eligibility period, while the business stays: named in a
warning per measure with its years (never a silent "recapture 0"), and recaptured pro rata only
under ``readings.reduction_recapture: pro_rata``."""

import copy

import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.law.parameters import PARAMETERS
from netbenefit.law.rules.reduction import kept_share, reduced, reduction_recapture
from netbenefit.model.after_approval import Actuals, follow

DRIVERS = {
    "jobs.new": 200,
    "jobs.ramp": [1.0],
    "jobs.median_salary": 80000,
    "jobs.salary_growth": 0.0,
    "award": {"per_new_job": 1000, "eligibility_period_years": 7},  # $200,000 a year at 200 jobs
}


def scenario(**changes):
    return netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), copy.deepcopy({**DRIVERS, **changes})))


def actuals(jobs, salaries=None, stop=None):
    rows = []
    for year, count in enumerate(jobs, start=1):
        row = {"year": year, "new_jobs": float(count), "statewide_workforce": 1000.0}
        if salaries is not None:
            row["median_salary"] = float(salaries[year - 1])
        rows.append(row)
    return Actuals.from_dict({"workforce_before_approval": 1000.0, "maintained_through_year": stop, "years": rows})


HALF = ([200] + [100] * 5, [80000] + [60000] * 5)  # 200 certified, then 100 for five years at 75% of the salary


def lines(after, start):
    return [line for line in after.warnings if line.startswith(start)]


def test_the_trigger_share_is_a_cited_convention():
    entry = PARAMETERS["reduction_trigger_share"]
    assert (entry.value, entry.source) == (0.8, "convention")
    assert "C.34:1B-341(a)(4)" in entry.reference and "significantly reduces" in entry.quote


def test_a_reduction_is_named_per_measure_with_its_years_and_the_statutes_words():
    after = follow(scenario(), actuals(*HALF))
    [jobs] = lines(after, "full-time jobs (new and retained) below 80% of those certified")
    [salary] = lines(after, "median salary below 80% of those certified")
    assert "in years 2-6 (lowest in year 2: 100, 50.00% of 200)" in jobs
    assert "in years 2-6 (lowest in year 2: $60,000, 75.00% of $80,000)" in salary
    for line in (jobs, salary):
        assert "significantly reduces the number of full-time employees, or the salaries thereof" in line
        assert "not recaptured here: readings.reduction_recapture: pro_rata" in line
    assert after.reduction_recapture == 0.0 and after.recapture == 0.0
    table = after.reduction.loc[1]
    assert table["full_time_jobs_at_start"].eq(200).all() and table["median_salary_at_start"].eq(80000).all()
    assert table["full_time_jobs_reduced"].tolist() == [False] + [True] * 5


def test_under_the_option_the_hand_computed_recapture():
    # Certified 200,000 + 5 x 100,000 = 700,000; each of years 2-6 kept half of the first credit year
    # (jobs 50%, salary 75%: the smaller), so 5 x 0.5 = 2.5 of the 10.5 years of the commitment are
    # unserved: 700,000 x 2.5 / 10.5 = 166,666.67, owed in year 7, the year after the last report.
    after = follow(scenario(**{"readings.reduction_recapture": "pro_rata"}), actuals(*HALF))
    assert after.certified_credits == pytest.approx(700_000.0)
    assert after.reduction_recapture == pytest.approx(700_000 * 2.5 / 10.5)
    assert after.years.loc[7, "reduction_recapture"] == pytest.approx(after.reduction_recapture)
    assert after.phases.loc[1, "reduction_recapture"] == pytest.approx(after.reduction_recapture)
    assert after.net_credits_received == pytest.approx(700_000 - 700_000 * 2.5 / 10.5)
    reductions = [line for line in after.warnings if "certified in the phase's first credit year" in line]
    assert len(reductions) == 2 and all("recaptured: $166,667" in line for line in reductions)


def test_with_a_stop_each_year_is_counted_once():
    # 200 then 100 for three years, then the business leaves after year 4: the stop's pro rata
    # recapture counts the 6.5 years after it (500,000 x 6.5 / 10.5), the reduction the three years
    # before it at half (500,000 x 1.5 / 10.5); together 500,000 x 8 / 10.5, never above the credits.
    facts = actuals([200, 100, 100, 100], stop=4)
    after = follow(scenario(**{"readings.reduction_recapture": "pro_rata"}), facts)
    assert after.recapture == pytest.approx(500_000 * 6.5 / 10.5)
    assert after.reduction_recapture == pytest.approx(500_000 * 1.5 / 10.5)
    assert after.years.loc[5, ["recapture", "reduction_recapture"]].sum() == pytest.approx(500_000 * 8 / 10.5)
    assert follow(scenario(), facts).recapture == pytest.approx(after.recapture)  # the stop's is unchanged


@pytest.mark.parametrize("reading", ["none", "pro_rata"])
def test_an_on_plan_ramp_is_never_a_reduction(reading):
    # 40 approved on a [0.35, 0.65, 1] ramp, reported on plan: the first credit year certified 14, and
    # every later year is above it. No trigger, no recapture (the floor warns against the agreement).
    base = scenario(**{"jobs.new": 40, "jobs.ramp": [0.35, 0.65, 1.0], "readings.reduction_recapture": reading})
    after = follow(base, actuals([14, 26, 40, 40, 40]))
    assert not after.reduction["full_time_jobs_reduced"].any()
    assert not any("certified in the phase's first credit year" in line for line in after.warnings)
    assert after.reduction_recapture == 0.0


@pytest.mark.parametrize("jobs, triggered", [(160.0, False), (159.99, True), (200.0, False)])
def test_the_trigger_at_just_below_and_above_80_percent(jobs, triggered):
    after = follow(scenario(), actuals([200, jobs]))
    assert bool(after.reduction.loc[(1, 2), "full_time_jobs_reduced"]) is triggered
    assert bool(lines(after, "full-time jobs (new and retained) below")) is triggered


def test_each_phase_on_its_own_baseline_and_clock():
    # Phase 2 (50 jobs, from project year 4; its first credit year is year 4) certifies 50, then 20.
    phase = {
        "name": "Phase 2",
        "start_year": 3,
        "jobs": {"new": 50, "ramp": [1.0], "median_salary": 60000, "nj_withholding_share": 1.0},
        "award": {"per_new_job": 1000, "eligibility_period_years": 7},
    }
    base = scenario(**{"phases": [phase], "readings.reduction_recapture": "pro_rata"})
    rows = [{"year": y, "phase": 1, "new_jobs": 200.0} for y in range(1, 6)]
    rows += [{"year": 4, "phase": 2, "new_jobs": 50.0}, {"year": 5, "phase": 2, "new_jobs": 20.0}]
    rows = sorted(({**row, "statewide_workforce": 1000.0} for row in rows), key=lambda r: (r["year"], r["phase"]))
    after = follow(base, Actuals.from_dict({"workforce_before_approval": 1000.0, "years": rows}))
    assert after.reduction.loc[(2, 4), "full_time_jobs_at_start"] == 50.0
    assert (
        after.reduction.loc[(2, 5), "full_time_jobs_reduced"]
        and not after.reduction.loc[1, "full_time_jobs_reduced"].any()
    )
    [line] = lines(after, "full-time jobs (new and retained) below")
    assert "Phase 2: year 5 (lowest in year 5: 20, 40.00% of 50)" in line and "Phase 1" not in line
    # phase 2 received 50,000 + 20,000; year 5 kept 40%: 70,000 x 0.6 / 10.5
    assert after.phases.loc[2, "reduction_recapture"] == pytest.approx(70_000 * 0.6 / 10.5)
    assert after.phases.loc[1, "reduction_recapture"] == 0.0


def test_the_pure_rules():
    assert reduced([159.99, 160.0], 200.0, 0.8).tolist() == [True, False]
    assert kept_share([100.0], 200.0, [70000.0], 80000.0).tolist() == [0.5]
    assert kept_share([100.0], 200.0, [30000.0], 80000.0).tolist() == [0.375]
    assert float(reduction_recapture(500.0, 1.5, 10.5, recaptured_already=450.0)) == 50.0
