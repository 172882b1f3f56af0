"""approval_date: project year 1 is the approval year; the tax schedules are read from it."""

import datetime as dt
from pathlib import Path

import pytest

import netbenefit
from netbenefit import ScenarioError

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_approval_date_defaults_to_the_application_date():
    scenario = netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    assert scenario.approval_date is None
    assert scenario.approval == scenario.application_date
    assert netbenefit.evaluate(scenario).approval_year == scenario.application_date.year


def test_the_tax_years_follow_the_approval_date():
    scenario = netbenefit.load_scenario(SCENARIOS / "party_city_estimate.yaml")
    later = scenario.replace({"approval_date": dt.date(scenario.application_date.year + 1, 3, 1).isoformat()})
    result = netbenefit.evaluate(later)
    assert result.approval_year == scenario.application_date.year + 1
    assert later.approval == dt.date(scenario.application_date.year + 1, 3, 1)


@pytest.mark.parametrize("days, ok", [(-1, False), (0, True), (1, True)])
def test_approval_on_or_after_the_application(days, ok):
    scenario = netbenefit.load_scenario(SCENARIOS / "party_city_estimate.yaml")
    date = (scenario.application_date + dt.timedelta(days=days)).isoformat()
    if ok:
        assert scenario.replace({"approval_date": date}).approval.isoformat() == date
    else:
        with pytest.raises(ScenarioError, match="approval_date: .* is before application_date"):
            scenario.replace({"approval_date": date})
