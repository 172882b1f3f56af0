"""After approval: the clawback in the year it is owed, shown in the years table and its CSV even
when that year follows the last one reported; an under-performer's recapture measured on the
credits it actually received (C.34:1B-341(a)(4), pro rata on what was received)."""

import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.model.after_approval import Actuals, follow


def scenario(**changes):
    return netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), changes))


def actuals(new_jobs, years, **extra):
    rows = [{"year": y, "new_jobs": float(new_jobs), "statewide_workforce": 1000.0} for y in range(1, years + 1)]
    return Actuals.from_dict({"workforce_before_approval": 1000.0, "years": rows, **extra})


def test_the_clawback_year_after_the_last_report_is_in_the_table_and_its_csv():
    after = follow(scenario(), actuals(35, 3, maintained_through_year=3))
    assert after.repayment_year == 4
    assert 4 in after.years.index
    assert after.years.loc[4, "recapture"] == pytest.approx(after.recapture) and after.recapture > 0
    assert after.years.loc[1:3, "recapture"].eq(0).all()
    last = after.years.to_csv().strip().splitlines()[-1]
    assert last.startswith("4,") and f"{after.recapture}" in last


def test_the_clawback_year_within_the_reported_years_adds_no_row():
    after = follow(scenario(), actuals(35, 5, maintained_through_year=3))
    assert list(after.years.index) == [1, 2, 3, 4, 5]
    assert after.years.loc[4, "recapture"] == pytest.approx(after.recapture)


@pytest.mark.parametrize("certified_jobs", [17.5, 35])
def test_34_1B_341a4_a_business_certified_at_half_owes_half_of_a_full_performer(certified_jobs):
    # Award $100,000 a year for 35 jobs, C = 10.5; it leaves after 6 years.
    full = follow(scenario(), actuals(35, 6, maintained_through_year=6)).recapture
    owed = follow(scenario(), actuals(certified_jobs, 6, maintained_through_year=6)).recapture
    assert full == pytest.approx(600_000 * 4.5 / 10.5)
    assert 0 < owed <= full
    assert owed == pytest.approx(full * certified_jobs / 35)


def test_recapture_interest_after_approval():
    base = scenario(commitment={"recapture_interest": {"rate": 0.05}})
    after = follow(base, actuals(35, 3, maintained_through_year=3))
    assert after.interest == pytest.approx(after.recapture / 300_000 * 0.05 * 100_000 * 3)
    assert after.years.loc[4, "interest"] == pytest.approx(after.interest)
    assert "interest on the recapture" in after.summary()
