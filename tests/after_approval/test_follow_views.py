"""Every chart and table of a follow result draws for stopped, under-performing and phased projects
(and the projection and the re-run drawn by every per-scenario chart)."""

import copy

import matplotlib
import numpy as np
import pytest
from support import base_scenario_dict, with_changes

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

import netbenefit  # noqa: E402
from netbenefit.model.after_approval import Actuals, follow  # noqa: E402
from netbenefit.model.economics import economist_view_of  # noqa: E402
from netbenefit.views import charts  # noqa: E402

CREDIT_COLUMNS = ["approved_credit", "actual_new_jobs", "counted_retained_jobs", "forfeited_credit", "certified_credit"]

DRIVERS = {
    "jobs.new": 100,
    "jobs.retained": 40,
    "jobs.ramp": [0.5, 1.0],
    "jobs.median_salary": 80000,
    "jobs.salary_growth": 0.02,
    "revenue": {"income_tax_effective_rate": 0.05, "taxable_spending_share": 0.3, "corporate_business_tax": 350000},
    "streams": [],
    "award": {"annual_credit": 150000, "eligibility_period_years": 7},
    "commitment": {"extended_years": 3},
    "discount_rate": 0.05,
}
PHASE_2 = {
    "name": "Phase 2",
    "start_year": 2,
    "jobs": {"new": 50, "ramp": [1.0], "median_salary": 60000, "nj_withholding_share": 1.0},
    "award": {"annual_credit": 100000, "eligibility_period_years": 7},
}


def rows(new, years, workforce=1000.0, salary=80000.0, retained=40.0):
    return [
        {
            "year": y,
            "new_jobs": float(new),
            "retained_jobs": retained,
            "statewide_workforce": workforce,
            "median_salary": salary,
        }
        for y in range(1, years + 1)
    ]


SHAPES = {
    "stopped": ({}, {"maintained_through_year": 4, "years": rows(100, 4)}),
    "stopped_before_reporting_ends": ({}, {"maintained_through_year": 3, "years": rows(100, 5)}),
    "under_performing": ({}, {"years": rows(30, 6, workforce=700.0, salary=60000.0)}),
    "phased": ({"phases": [PHASE_2]}, {"years": rows(120, 5)}),
    "phased_stopped": ({"phases": [PHASE_2]}, {"maintained_through_year": 6, "years": rows(75, 6)}),
    "stopped_at_zero": ({}, {"maintained_through_year": 0, "years": rows(0, 2, retained=0.0)}),
}


@pytest.fixture(scope="module", params=sorted(SHAPES))
def after(request):
    changes, facts = SHAPES[request.param]
    scenario = netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), copy.deepcopy({**DRIVERS, **changes})))
    return follow(scenario, Actuals.from_dict({"workforce_before_approval": 1000.0, **facts}))


@pytest.mark.slow
def test_credits_by_year_draws(after):
    ax = charts.credits_by_year(after)
    assert ax.get_title()
    plt.close(ax.figure)


@pytest.mark.parametrize("kind", sorted(charts.SCENARIO_CHARTS))
@pytest.mark.slow
def test_every_scenario_chart_draws_the_rerun(after, kind):
    ax = charts.SCENARIO_CHARTS[kind](after.actual)
    plt.close(ax.figure)


def test_the_economists_view_of_the_rerun(after):
    table = economist_view_of(after.actual, but_for_share=0.25, cost_per_new_job=1000.0)
    assert table["ratio"].notna().all()
    ax = charts.economist_view_chart(table)
    plt.close(ax.figure)


def test_every_table_and_text(after):
    assert after.years["rerun_flag"].dtype == bool and after.years["maintained"].dtype == bool
    assert after.years.to_csv().startswith("year,")
    data = after.to_dict()
    assert len(data["years"]) == len(after.years) and len(data["phases"]) == 1 + len(after.scenario.phases)
    assert after.summary().startswith(after.scenario.name)
    assert not after.phase_years[CREDIT_COLUMNS].isna().any().any() and not after.phases["recapture"].isna().any()
    stop = after.actuals.maintained_through_year
    if stop is not None:  # nothing of the business counts after it leaves
        streams = after.actual.streams
        assert streams.loc[(streams["year"] > stop) & (streams["kind"] == "revenue"), "amount"].eq(0).all()
        assert np.all(after.years.loc[after.years.index > stop, "certified_credit"].fillna(0) == 0)
