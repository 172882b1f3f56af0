"""Each phase on its own clock, whatever the stop: a business that leaves before, at or after a later
phase's start is followed without error, as project totals and as rows naming their phases, and a
phase that has not started by the stop has no jobs and no credit in the re-run."""

import copy
from pathlib import Path

import numpy as np
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.cli import main
from netbenefit.model.after_approval import Actuals, follow

CREDIT_COLUMNS = ["approved_credit", "actual_new_jobs", "counted_retained_jobs", "forfeited_credit", "certified_credit"]

DRIVERS = {
    "jobs.new": 100,
    "jobs.retained": 20,
    "jobs.ramp": [0.5, 1.0],
    "jobs.median_salary": 80000,
    "jobs.salary_growth": 0.0,
    "revenue": {"income_tax_effective_rate": 0.05, "taxable_spending_share": 0.3, "corporate_business_tax": 350000},
    "streams": [],
    "award": {"annual_credit": 150000, "eligibility_period_years": 7},
    "discount_rate": 0.05,
    "phases": [
        {
            "name": "Phase 2",
            "start_year": 2,  # its first year is project year 3
            "capital_investment": {1: 500000},
            "jobs": {"new": 50, "ramp": [1.0], "median_salary": 60000, "nj_withholding_share": 1.0},
            "award": {"annual_credit": 100000, "eligibility_period_years": 7},
        },
        {
            "name": "Phase 3",
            "start_year": 4,  # its first year is project year 5
            "jobs": {"new": 40, "ramp": [0.5, 1.0], "median_salary": 70000, "nj_withholding_share": 1.0},
            "award": {"annual_credit": 80000, "eligibility_period_years": 7},
        },
    ],
}
STARTS = {2: 2, 3: 4}  # phase -> start_year: its first project year is start_year + 1


def three_phases():
    return netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), copy.deepcopy(DRIVERS)))


SCENARIO = three_phases()


def totals(last_year: int, stop: int) -> Actuals:
    rows = [
        {"year": y, "new_jobs": 60.0 + 20 * y, "retained_jobs": 20.0, "statewide_workforce": 1000.0}
        for y in range(1, last_year + 1)
    ]
    return Actuals.from_dict({"workforce_before_approval": 1000.0, "maintained_through_year": stop, "years": rows})


def by_phase_of(after) -> Actuals:
    """Rows naming their phases with the jobs the totals' allocation gave each phase."""
    table = after.phase_years
    rows = []
    for (phase, year), row in table.iterrows():
        retained = float(after.actuals.years[year - 1].retained_jobs) if phase == 1 else 0.0
        rows.append(
            {
                "year": int(year),
                "phase": int(phase),
                "new_jobs": float(row["actual_new_jobs"]),
                "retained_jobs": retained,
                "statewide_workforce": 1000.0,
            }
        )
    rows.sort(key=lambda r: (r["year"], r["phase"]))
    data = {"workforce_before_approval": 1000.0, "maintained_through_year": after.actuals.maintained_through_year}
    return Actuals.from_dict({**data, "years": rows})


CASES = [
    (phase, stop, last)
    for phase, start in STARTS.items()
    for stop in (start - 1, start, start + 1)  # before, at, after the phase's start
    for last in (start, start + 2)  # rows ending before its first year, and after it
]


@pytest.mark.parametrize("phase, stop, last", CASES, ids=[f"phase{p}-stop{s}-rows{n}" for p, s, n in CASES])
def test_a_stop_before_at_or_after_a_phase_start_is_followed(phase, stop, last):
    after = follow(SCENARIO, totals(last, stop))
    rerun = after.actual.computation.phases
    for k, start in STARTS.items():
        started = stop > start
        credits = np.ravel(rerun[k - 1].credits)
        jobs = np.ravel(rerun[k - 1].new_full_time_jobs)
        if not started:  # no jobs and no credit in the re-run; nothing certified; the tables say so
            assert credits.sum() == 0.0 and jobs.sum() == 0.0
            assert after.phases.loc[k, "certified_credits"] == 0.0
            assert after.phase_years.loc[k, "certified_credit"].sum() == 0.0
            assert after.phases.loc[k, "phase_years_maintained"] == 0
            assert f"Phase {k}: certified $0 of" in after.summary() and "not started by the stop" in after.summary()
        else:  # its approved credits, and jobs through the stop only
            assert credits.max() == pytest.approx(float(np.max(after.projected.computation.phases[k - 1].credits)))
            years = np.asarray(after.actual.computation.years)
            assert jobs[years > stop].sum() == 0.0
    streams = after.actual.streams
    assert streams.loc[(streams["year"] > stop) & (streams["kind"] == "revenue"), "amount"].eq(0).all()
    assert not after.phase_years[CREDIT_COLUMNS].isna().any().any() and after.summary()
    # The same jobs given as rows naming their phases: the same certification and re-run.
    named = follow(SCENARIO, by_phase_of(after))
    assert named.phase_years["certified_credit"].tolist() == pytest.approx(
        after.phase_years["certified_credit"].tolist()
    )
    assert named.rerun_ratio == pytest.approx(after.rerun_ratio, rel=1e-12)
    assert named.rerun_tests["ratio"].tolist() == pytest.approx(after.rerun_tests["ratio"].tolist(), rel=1e-12)
    assert named.recapture == pytest.approx(after.recapture)


def test_the_bundled_campus_leaving_before_its_second_phase(tmp_path, capsys):
    # life_sciences_phased.yaml: phase 2 from year 4 (its first year is project year 5); the business
    # leaves after year 2 and the rows run to year 6: actuals exited 1 with a traceback.
    root = Path(__file__).resolve().parents[2] / "scenarios"
    text = (root / "actuals" / "life_sciences_phased_actuals.yaml").read_text(encoding="utf-8")
    (tmp_path / "life_sciences_phased_actuals.csv").write_bytes(
        (root / "actuals" / "life_sciences_phased_actuals.csv").read_bytes()
    )
    for stop in (0, 2, 3, 4):
        path = tmp_path / f"stop{stop}.yaml"
        path.write_text(
            text.replace("maintained_through_year: 6", f"maintained_through_year: {stop}"), encoding="utf-8"
        )
        assert main(["actuals", str(root / "life_sciences_phased.yaml"), str(path)]) == 0
        after = follow(root / "life_sciences_phased.yaml", path)
        assert after.phases.loc[2, "certified_credits"] == 0.0
        assert np.ravel(after.actual.computation.phases[1].credits).sum() == 0.0
    assert "Traceback" not in capsys.readouterr().err
