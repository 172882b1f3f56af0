"""Every change of result keeps the old behaviour reachable (CHANGELOG.md): the bundled scenarios
under the readings of the previous version give its ratios (to 1e-12)."""

from pathlib import Path

import pytest

import netbenefit

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"

#: The ratios of the previous version (tests/regression/expected/ before the change), full precision.
BEFORE = {
    "award_calculator": 3.048303876702304,
    "extended_commitment": 4.393100677204951,
    "fiserv_estimate": 1.6263635094302176,
    "imported_streams_csv": 4.11334500698334,
    "industry_multipliers_example": 4.705009817779832,
    "mega_project": 3.9601628618429268,
    "office_hq_default_area": 4.916348806399016,
    "party_city": 4.806386416232813,
    "party_city_estimate": 2.2278923998679963,
    "phased_campus": 3.9065755829019757,
    "retained_jobs_71c1e": 9.183348166271093,
    "small_business": 3.9854362192274135,
    "warehouse_distressed_shortfall": 3.024904666211576,
}
#: The drivers the estimates had before their revision (CHANGELOG.md, "The estimates ... revised").
OLD_DRIVERS = {
    "party_city_estimate": {"jobs.retained": 0.0, "approval_date": None},
    "fiserv_estimate": {"jobs.median_salary": 90000.0},
}
OLD_READINGS = {"readings.retained_benefits": "credit_eligible_only", "readings.payroll": "median"}


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_the_old_readings_give_the_previous_ratio_exactly(name):
    scenario = netbenefit.load_scenario(SCENARIOS / f"{name}.yaml")
    old = scenario.replace({**OLD_READINGS, **OLD_DRIVERS.get(name, {})})
    # The same to the last bit with the numpy that made BEFORE; to 1e-12 with older ones, whose
    # sums round differently (as the regression expectations are compared).
    assert netbenefit.evaluate(old).ratio == pytest.approx(BEFORE[name], rel=1e-12, abs=0)
