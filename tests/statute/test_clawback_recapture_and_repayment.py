"""The clawback as the statute frames it: C.34:1B-341(a)(4) lets the authority "recapture all or
part of any tax credits awarded, at its discretion"; the recapture is measured on the credits
received; the extension repayment of 71(a)(5)(d) takes the incremental slice only; each phase's
commitment and extension run on its own clock; an ineligible project has nothing to recapture.
"""

import glob

import numpy as np
import pytest
from support import evaluate

import netbenefit
from netbenefit.law.rules.clawback import incremental_shares, recapture, recapture_interest

# --- C.34:1B-341(a)(4): pro rata on what was received ----------------------------------------------


@pytest.mark.parametrize("rule", ["pro_rata", "all"])
def test_34_1B_341a4_an_under_performer_never_owes_less_than_in_proportion(rule):
    # Award $700 over 7 years, C = 10.5; exit after 6 years. Full performer received 600, a business
    # certified at 50% received 300: it owes more than 0 and no more than the full performer.
    full = float(recapture(600.0, 700.0, 6, 0.0, 10.5, rule))
    half = float(recapture(300.0, 700.0, 6, 0.0, 10.5, rule))
    assert 0 < half <= full
    assert half == pytest.approx(full / 2)


def test_34_1B_341a4_the_measure_before_is_reachable_as_pro_rata_award():
    # max(0, 300 - 700 x 6 / 10.5) = 0: the defect the new measure removes.
    assert float(recapture(300.0, 700.0, 6, 0.0, 10.5, "pro_rata_award")) == 0.0
    assert float(recapture(600.0, 700.0, 6, 0.0, 10.5, "pro_rata_award")) == pytest.approx(200.0)


@pytest.mark.parametrize(
    "m, owed",
    [(10, 700.0 * 0.5 / 10.5), (10.49, 700.0 * 0.01 / 10.5), (10.5, 0.0), (10.51, 0.0)],
)
def test_34_1B_341a4_pro_rata_at_below_and_above_the_end_of_the_commitment_period(m, owed):
    assert float(recapture(700.0, 700.0, m, 0.0, 10.5)) == pytest.approx(owed)


def test_34_1B_341a4_range_none_to_all_beside_the_rule():
    table = evaluate().clawback_schedule.set_index("years_maintained")
    assert (table["recapture_none"] == 0).all()
    assert table.loc[6, "recapture_all"] == 600000
    assert 0 < table.loc[6, "recapture"] < table.loc[6, "recapture_all"]
    assert table.loc[11 - 1, "recapture_all"] == 700000 and table.loc[10, "recapture"] > 0
    assert "C.34:1B-341(a)(4)" in evaluate().summary()


# --- interest (off by default), N.J.A.C. 19:31Q-1.10(b)3 as a model --------------------------------


def test_19_31Q_1_10b3_recapture_interest_off_by_default():
    assert (evaluate().clawback_schedule["interest"] == 0).all()


def test_19_31Q_1_10b3_recapture_interest_simple_from_the_end_of_each_year_received():
    # Exit after 3 years, pro rata: recapture 300,000 x 7.5 / 10.5, taken from each year's credit in
    # the same share; 5% simple interest for 2, 1 and 0 years.
    table = evaluate(commitment={"recapture_interest": {"rate": 0.05}}).clawback_schedule.set_index("years_maintained")
    recaptured = 300000 * 7.5 / 10.5
    assert table.loc[3, "interest"] == pytest.approx(recaptured / 300000 * 0.05 * 100000 * (2 + 1 + 0))
    assert table.loc[3, "total"] == pytest.approx(recaptured + table.loc[3, "interest"])
    assert table.loc[1, "interest"] == 0  # a credit received at the end of year 1, exit then
    assert recapture_interest([0.0], [100.0], [1], 0.05).tolist() == [0.0]


def test_19_31Q_1_10b3_recapture_interest_rate_is_a_decimal():
    with pytest.raises(netbenefit.ScenarioError, match="commitment.recapture_interest.rate"):
        evaluate(commitment={"recapture_interest": {"rate": 5}})


# --- no dollar twice: every bundled schedule, every year -------------------------------------------


@pytest.mark.parametrize("path", sorted(glob.glob("scenarios/*.yaml")))
def test_71a5d_no_dollar_repaid_twice_in_any_bundled_schedule(path):
    result = netbenefit.evaluate(path)
    table = result.clawback_schedule
    if not result.eligible:
        assert table.empty and result.clawback_note
        return
    c = result.computation
    shares = incremental_shares(
        np.cumsum([float(p.requested_credits.reshape(-1)[0]) for p in c.phases]),
        c.cumulative_pv_credits[0],
        np.cumsum([float(p.pv_benefits_without_extension.reshape(-1)[0]) for p in c.phases]),
        result.threshold,
        result.incremental_credit,
    )
    years = table["years_maintained"].to_numpy()
    received = np.zeros((len(c.phases), len(years)))
    for p, phase in enumerate(c.phases):
        cumulative = np.concatenate([[0.0], np.cumsum(np.broadcast_to(phase.credits, (1, len(c.years)))[0])])
        received[p] = cumulative[np.minimum(years, len(c.years))]
    incremental_received = (shares[:, None] * received).sum(axis=0)
    tolerance = 1e-6 * max(1.0, result.requested_credits)
    assert np.all(table["recapture"] <= received.sum(axis=0) - incremental_received + tolerance)
    assert np.all(table["extension_repayment"] <= incremental_received + tolerance)
    assert np.all(table["recapture"] + table["extension_repayment"] <= table["credits_received"] + tolerance)


def test_71a5d_bundled_extended_commitment_no_longer_repays_the_incremental_slice_twice():
    # At 7 years the measure before took 2,333,333 + 1,382,747 = 3,716,081 (4/3 of the slice):
    # now the recapture takes a third of the credits less the slice, the repayment the slice.
    result = netbenefit.evaluate("scenarios/extended_commitment.yaml")
    row = result.clawback_schedule.set_index("years_maintained").loc[7]
    incremental = result.incremental_credit
    assert row["extension_repayment"] == pytest.approx(incremental)
    assert row["recapture"] == pytest.approx((7_000_000 - incremental) * 3.5 / 10.5)
    assert 3_716_081 - row["total"] == pytest.approx(incremental / 3, abs=1)


# --- ineligible: nothing to recapture ---------------------------------------------------------------


def test_an_ineligible_project_has_an_empty_schedule_with_a_note():
    result = evaluate(attestations__material_factor=False)
    assert not result.eligible
    assert result.clawback_schedule.empty
    assert "not eligible" in result.clawback_note
    assert result.to_dict()["clawback_schedule"] == [] and result.to_dict()["clawback_note"]
    assert evaluate().clawback_note == ""


# --- 71(a)(5)(d): extensions clocked per phase ------------------------------------------------------

# Phase 1: $100,000 a year for 7 years, benefits $1,000,000 a year: passes alone (no extension needed).
# Phase 2 (start_year 3: its commitment runs 3 .. 13.5, its extension to 18.5): $2,000,000 a year for
# 7 years, benefits $4,000,000 a year. Cumulative without the extension 52.5M / 14.7M = 3.57 < 4;
# with X = 5, 73M / 14.7M = 4.97: the cumulative test of phases 1+2 needed the extension.
PHASE_2 = {
    "name": "Phase 2",
    "start_year": 3,
    "jobs": {"new": 250, "nj_withholding_share": 1.0},
    "award": {"annual_credit": 2_000_000, "eligibility_period_years": 7},
    "streams": [{"name": "phase 2 taxes", "kind": "revenue", "by_year": {y: 4_000_000 for y in range(1, 17)}}],
}


def two_phase():
    return evaluate(commitment={"extended_years": 5}, phases=[PHASE_2])


def test_71a5d_two_phase_project_whose_later_phase_needed_the_extension():
    result = two_phase()
    assert result.passes and result.eligible
    assert result.phase_tests["passes"].tolist() == [True, True]
    assert result.incremental_credit == pytest.approx(14_700_000 - 52_500_000 / 4)
    table = result.clawback_schedule.set_index("years_maintained")
    # The schedule runs to phase 2's C + X: 3 + 10.5 + 5 = 18.5, m = 0 .. 18.
    assert table.index.tolist() == list(range(19))
    # Something is owed in every year before phase 2's extension ends.
    assert (table.loc[1:18, "total"] > 0).all()
    # Years 13-14: phase 1's commitment is over but phase 2's is not (13 < 13.5), nor its extension.
    share = result.incremental_credit / 14_700_000
    assert table.loc[13, "recapture"] == pytest.approx((1 - share) * 14_000_000 * 0.5 / 10.5)
    assert table.loc[14, "recapture"] == 0
    # m = 14: phase 1 has kept 3 of 5 extended years (10.5 + 3 = 13.5), phase 2 none whole (13.5 + 0.5).
    assert table.loc[14, "extension_repayment"] == pytest.approx(share * (700_000 * 2 / 5 + 14_000_000))
    # m = 18: phase 2 has kept 4 of 5 extended years.
    assert table.loc[18, "extension_repayment"] == pytest.approx(share * 14_000_000 / 5)


def test_71a5d_the_slice_follows_the_cumulative_test_that_needed_the_extension():
    # Only the test of phases 1+2 needed it: both carry the slice in one share; a test that needed
    # nothing gives no slice.
    assert (
        incremental_shares([700.0, 14_700.0], [700.0, 14_700.0], [10_500.0, 52_500.0], 4.0, 1575.0).tolist()
        == [pytest.approx(1575 / 14_700)] * 2
    )
    assert incremental_shares([700.0, 1400.0], [700.0, 1400.0], [2100.0, 5000.0], 4.0, 175.0).tolist() == [
        0.25,
        0.0,
    ]
    assert incremental_shares([700.0], [700.0], [3000.0], 4.0, 0.0).tolist() == [0.0]
