"""Life after approval: certification in proportion to jobs, forfeiture on a workforce drop of more
than 20%, the re-run flag on a fall of more than 10%, and the extended-commitment repayment
(N.J.A.C. 19:31U-1.14 [secondary]; 71(a)(5)(d))."""

import numpy as np
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.law.parameters import PARAMETERS, parameter
from netbenefit.model.after_approval import (
    Actuals,
    certified_credit,
    extension_repayment,
    fall_share,
    follow,
    forfeited_years,
    more_than,
)


def actuals(rows, workforce_before_approval=1000.0, **extra):
    """Actual results: rows of (new_jobs, statewide_workforce[, median_salary]) for years 1, 2, ..."""
    years = []
    for year, row in enumerate(rows, start=1):
        item = {"year": year, "new_jobs": float(row[0]), "statewide_workforce": float(row[1])}
        if len(row) > 2:
            item["median_salary"] = float(row[2])
        years.append(item)
    return Actuals.from_dict({"workforce_before_approval": float(workforce_before_approval), "years": years, **extra})


def scenario(**changes):
    return netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), changes))


# --- the cited parameters ---------------------------------------------------------------------------
def test_bounds_are_cited_statute_parameters_with_the_words_read():
    # Section 76(a)(1) and (a)(2) of P.L.2020, c.156 (C.34:1B-344), read: graded statute.
    for name, value, comparison, clause, words in [
        ("statewide_workforce_forfeiture_drop_share", 0.2, "more_than", "s.76(a)(1)", "by more than 20 percent"),
        ("net_benefit_rerun_fall_share", 0.1, "more_than", "s.76(a)(2)", "reduced by more than 10 percent"),
    ]:
        entry = PARAMETERS[name]
        assert (entry.value, entry.comparison, entry.source) == (value, comparison, "statute")
        assert clause in entry.reference and "C.34:1B-344" in entry.reference and "https://" in entry.reference
        assert words in entry.quote
    # The threshold level of 76(a)(1): a reading of its words.
    assert PARAMETERS["statewide_workforce_restoration_share"].source == "statute"
    assert "threshold levels" in PARAMETERS["statewide_workforce_restoration_share"].quote
    assert PARAMETERS["statewide_workforce_restoration_share"].value == 0.8


def test_19_31U_1_14b_the_small_business_exception_is_the_rules_words_and_not_the_statutes():
    entry = PARAMETERS["net_benefit_rerun_small_business_excepted"]
    assert entry.source == "rule" and entry.value == 1
    assert entry.quote.startswith("Except for a small business")
    assert "N.J.A.C. 19:31U-1.14(b)" in entry.reference and "has no such exception" in entry.reference
    statute = PARAMETERS["net_benefit_rerun_fall_share"]
    assert "Except" not in statute.quote and "no small-business exception" in statute.reference


def test_19_31U_1_14c_floor_is_the_rules_opening_words():
    entry = PARAMETERS["project_agreement_floor_share"]
    assert (entry.value, entry.comparison, entry.source) == (0.8, "at_least", "rule")
    assert "drops below 80 percent" in entry.quote and "N.J.A.C. 19:31U-1.14(c)" in entry.reference


# --- forfeiture: more than 20% below the pre-approval workforce --------------------------------------
@pytest.mark.parametrize(
    "before, workforce, forfeited",
    [
        (1000, 800, False),  # exactly 20% below: not more than 20%
        (1000, 799.9, True),  # 20.01% below
        (1200, 960, False),  # exactly 20% of 1,200
        (1200, 959.88, True),  # 20.01% of 1,200
        (3, 2.4, False),  # exactly 20%, with a quotient that rounds
        (1000, 1000, False),
        (1000, 1500, False),  # growth
    ],
)
def test_forfeiture_boundary(before, workforce, forfeited):
    drop, result = forfeited_years([workforce], before)
    assert bool(result[0]) is forfeited


def test_forfeiture_lasts_until_the_workforce_is_restored():
    # 1,000 before approval: 700 forfeits; 790 is not yet restored to the threshold level (800); 800 restores.
    _, forfeited = forfeited_years([1000, 700, 790, 799.9, 800, 850], 1000)
    assert forfeited.tolist() == [False, True, True, True, False, False]
    # The full level as an option: 900 and 999 are not yet restored; 1,000 restores.
    _, forfeited = forfeited_years([1000, 700, 900, 999, 1000, 850], 1000, restoration_share=1.0)
    assert forfeited.tolist() == [False, True, True, True, False, False]


def test_forfeited_year_certifies_nothing():
    after = follow(scenario(), actuals([(35, 1000), (35, 799.9), (35, 799.5), (35, 800)]))
    table = after.years
    # Year 2 forfeits (20.01%); year 3 is not yet at the threshold level (800); year 4 at exactly 800 is.
    assert table["forfeited"].tolist() == [False, True, True, False]
    assert table["certified_credit"].tolist() == [100000.0, 0.0, 0.0, 100000.0]
    assert table["forfeited_credit"].tolist() == [0.0, 100000.0, 100000.0, 0.0]
    assert after.forfeited_years == (2, 3)


def test_drop_of_exactly_20_percent_never_forfeits():
    after = follow(scenario(), actuals([(35, 800)] * 3))
    assert not after.years["forfeited"].any()
    assert after.certified_credits == 300000.0


# --- certification in proportion to the jobs in place --------------------------------------------------
def test_credit_is_certified_in_proportion_to_jobs():
    # $100,000 a year for 35 jobs: 28 jobs in place -> 28/35 = 80% -> $80,000.
    after = follow(scenario(), actuals([(28, 1000)]))
    assert after.years["certified_credit"].iloc[0] == pytest.approx(80000.0)


def test_certified_credit_is_capped_at_the_approved_amount():
    after = follow(scenario(), actuals([(70, 1000)]))
    assert after.years["certified_credit"].iloc[0] == 100000.0


def test_no_credit_outside_the_eligibility_period():
    after = follow(scenario(), actuals([(35, 1000)] * 8))
    assert after.years["approved_credit"].tolist() == [100000.0] * 7 + [0.0]
    assert after.years["certified_credit"].iloc[-1] == 0.0


def test_per_job_award_values_new_and_retained_jobs_at_their_amounts():
    # 35 new x $4,000 + 500 retained x $2,000 (71(c)(1)(d) elsewhere: 500) = $1,140,000 a year.
    base = scenario(**{"award": {"per_new_job": 4000, "per_retained_job": 2000}, "jobs.retained": 500})
    data = {
        "workforce_before_approval": 2000.0,
        "years": [{"year": 1, "new_jobs": 30.0, "retained_jobs": 500.0, "statewide_workforce": 2000.0}],
    }
    after = follow(base, Actuals.from_dict(data))
    assert after.years["certified_credit"].iloc[0] == 30 * 4000 + 500 * 2000


@pytest.mark.parametrize(
    "new, retained, certified, counted",
    [
        # 35 new + 250 retained approved in a qualified incentive tract (71(c)(1)(d): 250) at $2,000 / $1,000,
        # $320,000 a year. The jobs in place meet the 250 approved retained jobs first; the rest count as new.
        (20.0, 270.0, 320_000.0, (40.0, 250.0)),  # above: 40 x 2,000 + 250 x 1,000 = 330,000, capped at 320,000
        (10.0, 260.0, 290_000.0, (20.0, 250.0)),  # above, under the cap: 20 x 2,000 + 250 x 1,000
        (20.0, 250.0, 290_000.0, (20.0, 250.0)),  # at the approval
        (30.0, 200.0, 230_000.0, (0.0, 230.0)),  # below: the 30 new jobs fill the requirement first
    ],
)
def test_19_31U_1_4c_jobs_in_place_meet_the_approved_retained_jobs_first(new, retained, certified, counted):
    base = scenario(
        **{
            "award": {"per_new_job": 2000, "per_retained_job": 1000},
            "jobs.retained": 250,
            "location.qualified_incentive_tract": True,
        }
    )
    assert base.jobs.new == 35 and follow(base, actuals([(35, 1000)])).projected.retained_jobs_eligible
    rows = [{"year": 1, "new_jobs": new, "retained_jobs": retained, "statewide_workforce": 2000.0}]
    after = follow(base, Actuals.from_dict({"workforce_before_approval": 2000.0, "years": rows}))
    assert after.years["certified_credit"].iloc[0] == pytest.approx(certified)
    assert (after.years["actual_new_jobs"].iloc[0], after.years["counted_retained_jobs"].iloc[0]) == counted
    assert after.years["actual_retained_jobs"].iloc[0] == retained  # as the file reports them


def test_certified_credit_function():
    assert certified_credit(1000.0, 10.0, 5.0, [50, 120], [20, 0]).tolist() == [600.0, 1000.0]


# --- the re-run flag: new jobs or median salary more than 10% below the projection ----------------------
@pytest.mark.parametrize(
    "new_jobs, flagged",
    [
        (90.0, False),  # exactly 10% below 100
        (89.99, True),  # 10.01% below
        (100.0, False),
        (120.0, False),
    ],
)
def test_jobs_fall_boundary(new_jobs, flagged):
    base = scenario(**{"jobs.new": 100})
    after = follow(base, actuals([(new_jobs, 1000)]))
    assert bool(after.years["rerun_flag"].iloc[0]) is flagged


@pytest.mark.parametrize("salary, flagged", [(90000.0, False), (89990.0, True), (100000.0, False)])
def test_salary_fall_boundary(salary, flagged):
    # Revenue drivers with a median salary of $100,000, no growth: 90,000 is exactly 10% below.
    base = scenario(
        **{
            "jobs.median_salary": 100000,
            "revenue": {"income_tax_effective_rate": 0.05},
        }
    )
    after = follow(base, actuals([(35, 1000, salary)]))
    assert bool(after.years["rerun_flag"].iloc[0]) is flagged
    assert after.years["salary_fall_share"].iloc[0] == pytest.approx(1 - salary / 100000)


def test_fall_is_measured_against_the_ramped_projection_then_the_prior_report():
    # readings.first_report_basis: ramp. Ramp [0.5, 1.0] of 100: 50 projected in year 1, where 45 is
    # exactly 10% below; later years are compared with the prior year's report (N.J.A.C.
    # 19:31U-1.14(b)): 89 > 45, then 80 < 89 by 10.1%.
    base = scenario(**{"jobs.new": 100, "jobs.ramp": [0.5, 1.0], "readings.first_report_basis": "ramp"})
    after = follow(base, actuals([(45, 1000), (89, 1000), (80, 1000)]))
    assert after.years["rerun_flag"].tolist() == [False, False, True]
    assert np.isnan(after.years["rerun_ratio"].iloc[0]) and after.years["rerun_ratio"].iloc[2] == after.rerun_ratio
    assert after.rerun_flag_years == (3,)


def test_more_than_and_fall_share():
    assert more_than(0.1, parameter("net_benefit_rerun_fall_share")) == np.False_
    assert fall_share([90.0], [100.0]).tolist() == pytest.approx([0.1])


# --- the test re-run on actual results ------------------------------------------------------------------
DRIVERS = {
    "jobs.new": 100,
    "jobs.ramp": [0.5, 1.0],
    "jobs.median_salary": 80000,
    "jobs.salary_growth": 0.03,
    "revenue": {"income_tax_effective_rate": 0.05, "taxable_spending_share": 0.3},
    "streams": [],
    "award": {"annual_credit": 150000, "eligibility_period_years": 7},
    "discount_rate": 0.05,
}


def test_rerun_on_results_equal_to_the_projection_gives_the_projected_ratio():
    base = scenario(**DRIVERS)
    rows = [(50, 1000, 80000), (100, 1000, 80000 * 1.03), (100, 1000, 80000 * 1.03**2)]
    after = follow(base, actuals(rows))
    assert after.rerun_ratio == pytest.approx(after.projected.ratio, rel=1e-9)
    assert after.actual.pv_credits == pytest.approx(after.projected.pv_credits)
    assert after.comparison.loc["rerun", "ratio"] == pytest.approx(after.projected.ratio)


def test_rerun_ratio_falls_with_fewer_jobs_and_the_award_is_cut_to_what_passes():
    base = scenario(**DRIVERS)
    after = follow(base, actuals([(20, 1000, 80000), (30, 1000, 82400), (30, 1000, 84872)]))
    assert after.rerun_ratio < after.projected.ratio
    # With 30 jobs instead of 100 the re-run fails; the supported share is max credit PV / PV credits.
    assert not after.rerun_passes
    assert after.supported_award_share == pytest.approx(after.actual.max_credit_pv / after.projected.pv_credits)
    # 20 against the projected 50 in year 1; then 30 and 30 do not fall against the prior report.
    assert after.rerun_flag_years == (1,)
    assert after.years["rerun_ratio"].iloc[0] == after.rerun_ratio


def test_rerun_keeps_the_approved_credits_of_a_per_job_award():
    base = scenario(**{**DRIVERS, "award": {"per_new_job": 1500, "eligibility_period_years": 7}})
    after = follow(base, actuals([(10, 1000, 80000)]))
    assert after.actual.requested_credits == after.projected.requested_credits == 7 * 150000


def test_rerun_scenario_stops_the_jobs_after_the_project_stops():
    base = scenario(**DRIVERS)
    after = follow(base, actuals([(50, 1000), (100, 1000)], maintained_through_year=2))
    assert after.actual_scenario.jobs.ramp == (0.5, 1.0, 0.0)
    assert after.actual.cashflows["new_full_time_jobs"].iloc[2:].eq(0).all()


# --- extended commitment: repayment when the project stops early -------------------------------------
# Credits $100,000 a year for 7 years (K = $700,000 at rate 0); benefits $210,000 a year, years 1..14.
# Without the extension (10.5 years): B0 = $2,205,000 < 4 x K; with 3 extended years (13.5 years):
# B = $2,835,000 >= $2,800,000. Incremental credit = 700,000 x (1 - (2,205,000 / 4) / 700,000) = $148,750.
EXTENDED = {
    "commitment": {"extended_years": 3},
    "streams": [{"name": "state taxes", "kind": "revenue", "by_year": {y: 210000 for y in range(1, 15)}}],
}
INCREMENTAL = 148750.0


@pytest.mark.parametrize(
    "through, maintained, repayment",
    [
        (9, 0, INCREMENTAL),  # stopped before the extension began: all of it
        (10, 0, INCREMENTAL),  # 10 < 10.5
        (11, 0, INCREMENTAL),  # 0.5 extended year: no whole year
        (12, 1, INCREMENTAL * 2 / 3),  # 1.5 -> 1 of 3
        (13, 2, INCREMENTAL * 1 / 3),  # 2.5 -> 2 of 3
        (14, 3, 0.0),  # 3.5 -> every extended year maintained
    ],
)
def test_extension_repayment_by_years_maintained(through, maintained, repayment):
    base = scenario(**EXTENDED)
    assert netbenefit.evaluate(base).incremental_credit == pytest.approx(INCREMENTAL)
    after = follow(base, actuals([(35, 1000)] * min(through, 14), maintained_through_year=through))
    assert after.extended_years_maintained == maintained
    assert after.repayment == pytest.approx(repayment)
    assert after.repayment_year == (through + 1 if repayment else None)


def test_repayment_shows_in_its_year():
    after = follow(scenario(**EXTENDED), actuals([(35, 1000)] * 13, maintained_through_year=12))
    assert after.years.loc[13, "repayment"] == pytest.approx(INCREMENTAL * 2 / 3)
    assert after.years["repayment"].sum() == pytest.approx(INCREMENTAL * 2 / 3)
    assert not after.years.loc[13, "maintained"]


def test_no_repayment_without_an_extension_or_while_maintained():
    assert follow(scenario(), actuals([(35, 1000)] * 3, maintained_through_year=2)).repayment == 0.0
    assert follow(scenario(**EXTENDED), actuals([(35, 1000)] * 3)).repayment == 0.0


def test_extension_repayment_function_is_deprecated_and_gives_the_same_values():
    use_instead = (
        r"netbenefit\.law\.rules\.clawback\.extended_years_maintained and "
        r"netbenefit\.law\.rules\.clawback\.extension_repayment"
    )
    with pytest.warns(DeprecationWarning, match=use_instead):
        assert extension_repayment(300.0, 3, 10.5, 12) == (1, 200.0)
    with pytest.warns(DeprecationWarning, match="after_approval.extension_repayment is deprecated"):
        assert extension_repayment(300.0, 0, 10.5, 12) == (0, 0.0)


def test_credits_stop_after_the_project_stops():
    after = follow(scenario(), actuals([(35, 1000)] * 4, maintained_through_year=2))
    assert after.years["certified_credit"].tolist() == [100000.0, 100000.0, 0.0, 0.0]


def test_summary_is_plain_text():
    after = follow(scenario(), actuals([(28, 1000), (35, 700)]))
    text = after.summary()
    assert "N.J.A.C. 19:31U-1.14" in text and "forfeited" in text
    assert str(after) == text


@pytest.mark.parametrize("first, flagged", [(89, True), (90, False), (91, False)])
def test_19_31U_1_14b_first_report_compared_with_the_approved_jobs_at_below_and_above(first, flagged):
    # "or the project agreement if the annual report is the first such report filed": the agreement
    # approves 100 new jobs; a first report of 90 is exactly 10% below, 89 more than 10%. The ramp's
    # first year (50) would flag none of these.
    base = scenario(**{"jobs.new": 100, "jobs.ramp": [0.5, 1.0]})
    after = follow(base, actuals([(first, 1000), (first, 1000)]))
    assert after.years["rerun_flag"].tolist()[0] is flagged
