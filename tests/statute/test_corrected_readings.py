"""Readings of section 71, section 69 and N.J.A.C. 19:31U as corrected, each against its clause.

Each test names its clause. Base scenario (tests/support.py): credits $100,000 a year for 7 years,
benefits $1,000,000 a year in years 1..11, rate 0, default area, 35 new jobs.
"""

import pytest
from support import evaluate, scenario

import netbenefit
from netbenefit.model.after_approval import Actuals, follow

PASSES_ONLY_WITH_EXTENSION = {
    "commitment": {"extended_years": 3},
    "streams": [{"name": "state taxes", "kind": "revenue", "by_year": {y: 210000 for y in range(1, 15)}}],
}
INCREMENTAL = 148750.0  # 700,000 x (1 - (2,205,000 / 4) / 700,000)


def phase(**changes):
    data = {
        "name": "Phase 2",
        "start_year": 1,
        "jobs": {"new": 100, "nj_withholding_share": 1.0},
        "award": {"annual_credit": 100000, "eligibility_period_years": 7},
        "streams": [{"name": "phase taxes", "kind": "revenue", "by_year": {y: 10_000_000 for y in range(2, 13)}}],
    }
    for key, value in changes.items():
        node = data
        *parents, last = key.split("__")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return data


def actuals(rows, **extra):
    years = [{"year": i + 1, "new_jobs": float(n), "statewide_workforce": float(w)} for i, (n, w) in enumerate(rows)]
    return Actuals.from_dict({"workforce_before_approval": 1000.0, "years": years, **extra})


# --- item 2: 71(a)(5)(d) incremental credit per cumulative phase test ---------------------------------
def test_71a5d_incremental_credit_is_the_largest_over_the_cumulative_phase_tests():
    # The initial phase passes only thanks to the extension; phases 1+2 pass without it. On whole-
    # project totals the incremental credit was 0; on the initial phase's test it is $148,750.
    result = evaluate(**PASSES_ONLY_WITH_EXTENSION, phases=[phase()])
    assert result.passes
    assert result.incremental_credit == pytest.approx(INCREMENTAL)
    assert result.clawback_schedule["extension_repayment"].max() > 0


def test_71a5d_no_award_no_incremental_credit_when_the_project_fails_even_with_the_extension():
    changes = dict(PASSES_ONLY_WITH_EXTENSION)
    changes["streams"] = [{"name": "state taxes", "kind": "revenue", "by_year": {y: 200000 for y in range(1, 15)}}]
    result = evaluate(**changes)  # 13.5 x 200,000 = 2,700,000 < 2,800,000: fails with the extension
    assert not result.passes
    assert result.incremental_credit == 0.0
    assert (result.repayment_schedule["repayment"] == 0).all()
    assert (result.clawback_schedule["extension_repayment"] == 0).all()
    assert "fails even with it" in result.checks.set_index("id").loc["71(a)(5)", "message"]


@pytest.mark.parametrize(
    "b0, expected",
    [(2_800_000.0, 0.0), (2_799_999.0, 700_000.0 * (1 - 699_999.75 / 700_000)), (2_800_001.0, 0.0)],
)
def test_71a5d_incremental_credit_at_the_threshold_boundary(b0, expected):
    from netbenefit.law.rules import incremental_credit_by_test

    value = incremental_credit_by_test([[700_000.0]], [[700_000.0]], [[b0]], 4.0, True)
    assert value.item() == pytest.approx(expected, abs=1e-6)


def test_71a5d_after_approval_repayment_on_the_credits_actually_received():
    # Stops after year 3: $300,000 received of $700,000, so 3/7 of the incremental credit; and the
    # pro rata recapture of the rest, (300,000 - 3/7 x incremental) x 7.5 / 10.5 (C.34:1B-341(a)(4)).
    after = follow(scenario(**PASSES_ONLY_WITH_EXTENSION), actuals([(35, 1000)] * 3, maintained_through_year=3))
    assert after.repayment == pytest.approx(INCREMENTAL * 3 / 7)
    assert after.recapture == pytest.approx((300000.0 - INCREMENTAL * 3 / 7) * 7.5 / 10.5)


# --- item 3: 71(d) over all phases ----------------------------------------------------------------------
@pytest.mark.parametrize("share, met", [(0.59, False), (0.6, True), (0.61, True)])
def test_71d_withholding_share_weighted_by_the_jobs_of_all_phases(share, met):
    # 35 new jobs at 100% and 35 at the phase's share: (35 + 35 x share) / 70 >= 80% at share 0.6.
    result = evaluate(phases=[phase(jobs__new=35, jobs__nj_withholding_share=share)])
    assert result.check("71(d)") is met


@pytest.mark.parametrize("share, met", [(0.5, False), (0.51, True)])
def test_71d_accommodation_of_each_phase_that_adds_premises(share, met):
    result = evaluate(phases=[phase(facility={"accommodates_share": share})])
    assert result.check("71(d)") is met


# --- item 4: 71(c) on the jobs the ramp puts in place ------------------------------------------------
@pytest.mark.parametrize("last_share, met", [(0.99, False), (1.0, True)])
def test_71c1c_jobs_the_ramp_puts_in_place(last_share, met):
    result = evaluate(**{"jobs.ramp": [0.5, last_share]})  # 35 x 0.99 < 35
    assert result.check("71(a)(2)") is met


@pytest.mark.parametrize("years, met", [(2, False), (3, True)])
def test_71c1c_jobs_in_place_within_the_eligibility_period(years, met):
    # 35 x 1.0 only from year 3: an eligibility period of 2 years never sees them.
    result = evaluate(**{"jobs.ramp": [0.5, 0.9, 1.0], "award.eligibility_period_years": years})
    assert result.check("71(a)(2)") is met


# --- item 5: 71(b)(1)(e) needs the intent to remain --------------------------------------------------
SMALL = {
    "business.small_business": True,
    "business.full_time_employees_at_application": 40,
    "jobs.new": 10,
    "capital_investment": {1: 10000},
}


@pytest.mark.parametrize(
    "intent, minimum, donation", [(None, 40000.0, 30000.0), (False, 40000.0, 30000.0), (True, 0.0, 0.0)]
)
def test_71b1e_small_business_waiver_needs_the_demonstrated_intent_to_remain(intent, minimum, donation):
    changes = dict(SMALL)
    if intent is not None:
        changes["business.intent_to_remain_demonstrated"] = intent
    result = evaluate(**changes)
    assert result.capital_investment_minimum == minimum
    assert result.infrastructure_fund_donation == donation
    assert result.check("71(a)(1)")  # a shortfall is a donation, as for any business


# --- item 6: 71(c)(1)(e)/(f) retained jobs at application ---------------------------------------------
@pytest.mark.parametrize("at_application, clause", [(599, "71(c)(1)(e)"), (600, "71(c)(1)(e)"), (601, None)])
def test_71c1e_retained_jobs_at_least_those_at_application(at_application, clause):
    result = evaluate(
        **{
            "location.qualified_incentive_tract": True,
            "jobs.new": 10,
            "jobs.retained": 600,
            "business.retained_jobs_at_application": at_application,
        }
    )
    assert result.jobs_clause == clause


@pytest.mark.parametrize("at_application, clause", [(1099, "71(c)(1)(f)"), (1100, "71(c)(1)(f)"), (1101, None)])
def test_71c1f_retained_jobs_at_least_those_at_application(at_application, clause):
    result = evaluate(
        **{"jobs.new": 10, "jobs.retained": 1100, "business.retained_jobs_at_application": at_application}
    )
    assert result.jobs_clause == clause


def test_71c1e_retained_jobs_at_application_not_given_keeps_the_v1_reading():
    result = evaluate(**{"location.qualified_incentive_tract": True, "jobs.new": 10, "jobs.retained": 600})
    assert result.jobs_clause == "71(c)(1)(e)"
    assert "not given" in result.checks.set_index("id").loc["71(a)(2)", "message"]


# --- item 7: section 69 periods -------------------------------------------------------------------------
@pytest.mark.parametrize("years", [6, 7])
def test_s69_eligibility_period_of_at_most_seven_years(years):
    assert evaluate(**{"award.eligibility_period_years": years}).eligible


def test_s69_eligibility_period_longer_than_seven_years_is_refused():
    with pytest.raises(netbenefit.ScenarioError) as error:
        scenario(**{"award.eligibility_period_years": 8})
    assert error.value.key == "award.eligibility_period_years"
    assert "at most 7 years" in str(error.value) and "s.69" in str(error.value)


@pytest.mark.parametrize(
    "commitment, warned",
    [
        ({"period_years": 10.5}, False),
        ({"period_years": 12.0}, True),
        ({"period_years": 10.0}, True),
        ({"period_years": 12.0, "period_set_by_authority": True}, False),
        ({}, False),
    ],
)
def test_s69_commitment_period_other_than_one_and_a_half_eligibility_periods(commitment, warned):
    result = evaluate(commitment=commitment)
    assert bool(result.warnings) is warned
    if warned:
        assert "commitment.period_set_by_authority" in result.warnings[0]


# --- item 8: N.J.A.C. 19:31U-1.14 after approval -----------------------------------------------------
def test_19_31U_1_14_no_rerun_flag_for_a_small_business():
    small = scenario(**{**SMALL, "business.intent_to_remain_demonstrated": True})
    after = follow(small, actuals([(5, 1000)]))  # half the 10 projected new jobs
    assert after.rerun_flag_years == ()
    other = follow(scenario(), actuals([(17, 1000)]))
    assert other.rerun_flag_years == (1,)


@pytest.mark.parametrize("second, flagged", [(90.0, False), (89.9, True), (110.0, False)])
def test_19_31U_1_14_fall_against_the_prior_years_annual_report(second, flagged):
    base = scenario(**{"jobs.new": 100})
    after = follow(base, actuals([(100, 1000), (second, 1000)]))
    assert bool(after.years["rerun_flag"].iloc[1]) is flagged
    from netbenefit.model.after_approval import prior_report

    assert prior_report([100.0, second], 100.0).tolist() == [100.0, 100.0]


@pytest.mark.parametrize(
    "third, restored_at, forfeited",
    [
        (799.9, "threshold_level", True),
        (800.0, "threshold_level", False),
        (800.1, "threshold_level", False),
        (999.9, "full_level", True),
        (1000.0, "full_level", False),
    ],
)
def test_19_31U_1_14a_forfeiture_until_restored(third, restored_at, forfeited):
    after = follow(scenario(), actuals([(35, 1000), (35, 700), (35, third)], restored_at=restored_at))
    assert bool(after.years["forfeited"].iloc[2]) is forfeited


def test_19_31U_1_4c_retained_requirement_met_first():
    from netbenefit.model.after_approval import retained_first

    assert [a.tolist() for a in retained_first([120.0], [80.0], 100.0)] == [[100.0], [100.0]]
    # retained jobs reported above the approved 100 are not "retained" for the award: 20 count as new
    assert [a.tolist() for a in retained_first([20.0], [120.0], 100.0)] == [[40.0], [100.0]]
    # 71(c)(1)(d) business: 35 new at $100,000 / 35 per job, 500 retained at half; it reports 40 new and 490
    # retained: 10 of the new jobs fill the retained requirement first.
    base = scenario(**{"jobs.retained": 500, "award": {"per_new_job": 2000, "per_retained_job": 1000}})
    rows = [{"year": 1, "new_jobs": 40.0, "retained_jobs": 490.0, "statewide_workforce": 1000.0}]
    after = follow(base, Actuals.from_dict({"workforce_before_approval": 1000.0, "years": rows}))
    assert after.years["counted_retained_jobs"].iloc[0] == 500  # what certification counts
    assert after.years["actual_retained_jobs"].iloc[0] == 490  # what the file reports
    assert after.years["actual_new_jobs"].iloc[0] == 30


# --- item 10: readings that stay choices ---------------------------------------------------------------
@pytest.mark.parametrize("reading, threshold", [("lowest", 2.0), ("highest", 3.0)])
def test_71a5a_71a5b_several_locations_reading(reading, threshold):
    result = evaluate(
        **{
            "location.distressed_municipality": True,
            "location.mega_project": True,
            "readings.several_locations": reading,
        }
    )
    assert result.threshold == threshold


@pytest.mark.parametrize("reading, minimum", [("lowest", 150), ("highest", 250)])
def test_71c1d_several_locations_reading(reading, minimum):
    location = {"location.qualified_incentive_tract": True, "location.government_restricted_municipality": True}
    met = evaluate(**location, **{"jobs.retained": minimum, "readings.several_locations": reading})
    below = evaluate(**location, **{"jobs.retained": minimum - 1, "readings.several_locations": reading})
    assert met.jobs_clause == "71(c)(1)(d)" and below.jobs_clause == "71(c)(1)(c)"


@pytest.mark.parametrize(
    "investment, reading, eligible, donation",
    [
        (39999, "donation", True, 1.0),
        (39999, "ineligible", False, 0.0),
        (40000, "ineligible", True, 0.0),
        (40001, "ineligible", True, 0.0),
    ],
)
def test_71b2_capital_shortfall_reading(investment, reading, eligible, donation):
    result = evaluate(capital_investment={1: investment}, **{"readings.capital_shortfall": reading})
    assert result.eligible is eligible
    assert result.infrastructure_fund_donation == donation
