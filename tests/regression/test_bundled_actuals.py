"""The bundled actual results (scenarios/actuals) give their expected figures, each checked by hand."""

from pathlib import Path

import pytest

from netbenefit.model.after_approval import follow

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def test_office_hq_actuals():
    after = follow(SCENARIOS / "office_hq_default_area.yaml", SCENARIOS / "actuals" / "office_hq_actuals.yaml")
    assert after.forfeited_years == (4, 5) and after.rerun_flag_years == (1, 4)
    assert after.recapture == 0.0 and after.repayment == 0.0
    assert len(after.phases) == 1


def test_life_sciences_phased_actuals():
    # Half the projected new jobs, 40 retained jobs (which 71(c) does not make credit-eligible),
    # left after year 6. New jobs to the phases in proportion to their projections: phase 1 has
    # 32, 58, 76, 90, then 120 x 180/240 = 90 and 150 x 180/300 = 90; phase 2 30 and 60.
    after = follow(SCENARIOS / "life_sciences_phased.yaml", SCENARIOS / "actuals" / "life_sciences_phased_actuals.yaml")
    jobs = after.phase_years["actual_new_jobs"].unstack("year")
    assert jobs.loc[1].tolist() == pytest.approx([32, 58, 76, 90, 90, 90])
    assert jobs.loc[2].tolist() == pytest.approx([0, 0, 0, 0, 30, 60])
    per_job = 1_600_000 / 180  # phase 1's award per new job; phase 2's is $3,500
    assert after.phases.loc[1, "certified_credits"] == pytest.approx(436 * per_job)
    assert after.phases.loc[2, "certified_credits"] == pytest.approx(90 * 3500)
    # Each phase's own clock: phase 1 served 6 of 10.5 years; phase 2 (credits from year 5) 2 of 10.5.
    assert after.phases["commitment_start"].tolist() == [0.0, 4.0]
    assert after.phases.loc[1, "recapture"] == pytest.approx(436 * per_job * 4.5 / 10.5)
    assert after.phases.loc[2, "recapture"] == pytest.approx(90 * 3500 * 8.5 / 10.5)
    assert after.recapture == pytest.approx(after.phases["recapture"].sum())
    assert after.years.loc[7, "recapture"] == pytest.approx(after.recapture)
    # The file's 40 retained jobs are shown; certification counts none of them.
    assert after.years.loc[1:6, "actual_retained_jobs"].eq(40).all()
    assert after.years.loc[1:6, "counted_retained_jobs"].eq(0).all()
    # The re-run: nothing of the business after year 6; both cumulative tests fail.
    streams = after.actual.streams
    assert streams.loc[(streams["year"] > 6) & (streams["kind"] == "revenue"), "amount"].eq(0).all()
    assert after.rerun_tests["passes"].tolist() == [False, False]
    assert not after.projected.eligible
    assert any("the projection itself was not eligible" in line for line in after.warnings)


def test_the_bundled_actuals_floor_against_the_agreement_at_full_ramp():
    office = follow(SCENARIOS / "office_hq_default_area.yaml", SCENARIOS / "actuals" / "office_hq_actuals.yaml")
    floor = office.floor
    # 260 approved new jobs every year (the ramp's 130 and 208 are the applicant's projection)
    assert floor["full_time_jobs_agreement"].eq(260).all()
    assert floor.index[floor["full_time_jobs_below_floor"]].tolist() == [1, 2, 4]
    assert floor.loc[2, "full_time_jobs_share_of_agreement"] == pytest.approx(190 / 260)
    assert floor.index[floor["withholdings_below_floor"]].tolist() == [1, 2, 4]
    campus = follow(
        SCENARIOS / "life_sciences_phased.yaml", SCENARIOS / "actuals" / "life_sciences_phased_actuals.yaml"
    )
    # 180 + 40 in years 1-4; with phase 2's 120 from its first year, 5
    assert campus.floor["full_time_jobs_agreement"].tolist() == [220.0] * 4 + [340.0] * 2
    assert len([w for w in campus.warnings if "below 80% of the project agreement's at full ramp" in w]) == 2


def test_the_floor_of_the_ramp_reading_gives_the_figures_before():
    # readings.floor_basis: ramp restores the comparison before: year 1's jobs against the approved
    # jobs, every other figure against the ramp's projection (office_hq: jobs 42.31% in year 1,
    # 76.92% in year 4; withholdings 74.59% in year 4; nothing else below).
    from netbenefit import load_scenario

    office = load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    ramp = office.replace({"readings.floor_basis": "ramp"})
    floor = follow(ramp, SCENARIOS / "actuals" / "office_hq_actuals.yaml").floor
    assert floor.index[floor["full_time_jobs_below_floor"]].tolist() == [1, 4]
    assert floor.index[floor["withholdings_below_floor"]].tolist() == [4]
    assert floor.loc[[1, 4], "full_time_jobs_share_of_agreement"].tolist() == pytest.approx(
        [0.423077, 0.769231], abs=1e-6
    )
    assert floor.loc[4, "withholdings_share_of_agreement"] == pytest.approx(0.745877, abs=1e-6)


def test_the_bundled_actuals_credits_received():
    campus = follow(
        SCENARIOS / "life_sciences_phased.yaml", SCENARIOS / "actuals" / "life_sciences_phased_actuals.yaml"
    )
    assert campus.credits.received == pytest.approx(campus.certified_credits)  # left after its last report
    assert campus.net_credits_received == pytest.approx(campus.certified_credits - campus.recapture)
    assert campus.ratio_on_credits_received == pytest.approx(campus.actual.pv_benefits / campus.credits.pv)
    assert campus.ratio_on_credits_received == pytest.approx(6.2108, abs=1e-4)
    office = follow(SCENARIOS / "office_hq_default_area.yaml", SCENARIOS / "actuals" / "office_hq_actuals.yaml")
    assert office.net_credits_received == pytest.approx(office.certified_credits)
    assert office.credits.note == "the credits of year 7 are not yet certified"
