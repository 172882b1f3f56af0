"""What a board sees of a followed project: the credits chart (certified by phase, forfeited only
where something was, recapture and repayment in the year each falls, an axis that reaches them, a
title that fits) and the memo's actuals page (the verdicts, the credits received, the table by
phase, the chart, the warnings one line per measure), over the after-approval shapes: stopped,
under-performing, phased, a phase not yet started by the stop, a reduction recaptured."""

import copy
import re
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from support import base_scenario_dict, with_changes

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

import netbenefit  # noqa: E402
from netbenefit.model.after_approval import Actuals, follow  # noqa: E402
from netbenefit.views import charts  # noqa: E402
from netbenefit.views.html.memo_actuals import actuals_page_html  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "charts"))
from text_fit import text_problems  # noqa: E402

DRIVERS = {
    "jobs.new": 100,
    "jobs.ramp": [1.0],
    "jobs.median_salary": 80000,
    "jobs.salary_growth": 0.0,
    "revenue": {"income_tax_effective_rate": 0.05, "taxable_spending_share": 0.3},
    "streams": [],
    "award": {"per_new_job": 1500, "eligibility_period_years": 7},
    "commitment": {"extended_years": 3},
    "discount_rate": 0.05,
}
PHASE_2 = {
    "name": "Phase 2",
    "start_year": 3,
    "jobs": {"new": 50, "ramp": [1.0], "median_salary": 60000, "nj_withholding_share": 1.0},
    "award": {"annual_credit": 100000, "eligibility_period_years": 7},
}


def rows(jobs, workforce=1000.0):
    return [
        {"year": y, "new_jobs": float(n), "statewide_workforce": float(w), "median_salary": 80000.0}
        for y, (n, w) in enumerate(zip(jobs, np.broadcast_to(workforce, len(jobs)), strict=True), start=1)
    ]


SHAPES = {
    "stopped": ({}, {"maintained_through_year": 4, "years": rows([100] * 4)}),
    "under_performing": ({}, {"years": rows([40, 50, 60, 50], workforce=[1000, 1000, 700, 1000])}),
    "phased": ({"phases": [PHASE_2]}, {"maintained_through_year": 6, "years": rows([100, 100, 100, 150, 150, 150])}),
    "phase_not_started": ({"phases": [PHASE_2]}, {"maintained_through_year": 2, "years": rows([100] * 5)}),
    "reduction_recaptured": (
        {"readings.reduction_recapture": "pro_rata"},
        {"years": rows([100, 50, 50, 50])},
    ),
}


@pytest.fixture(scope="module", params=sorted(SHAPES))
def shape(request):
    changes, facts = SHAPES[request.param]
    base = netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), copy.deepcopy({**DRIVERS, **changes})))
    return request.param, follow(base, Actuals.from_dict({"workforce_before_approval": 1000.0, **facts}))


def _bars(ax, label):
    container = [c for c in ax.containers if c.get_label() == label]
    return [patch for c in container for patch in c.patches]


@pytest.mark.slow
def test_the_credits_chart_draws_what_was_given_back_where_it_falls(shape):
    name, after = shape
    ax = charts.credits_by_year(after)
    try:
        years = after.years
        low, high = ax.get_ylim()
        owed = years[["recapture", "reduction_recapture", "interest", "repayment"]].sum(axis=1)
        assert low < -owed.max() or owed.max() == 0  # the axis reaches what was given back
        for column, label in (
            ("recapture", "Recapture (left within the commitment), C.34:1B-341(a)(4)"),
            ("reduction_recapture", "Recapture on a reduction, C.34:1B-341(a)(4)"),
            ("repayment", "Extension repayment, 71(a)(5)(d)"),
        ):
            drawn = _bars(ax, label)
            if years[column].any():
                at = {round(p.get_x() + p.get_width() / 2 - 0.2): -p.get_height() for p in drawn if p.get_height()}
                assert at == pytest.approx({int(y): v for y, v in years[column].items() if v})
            else:
                assert not drawn
        forfeited = _bars(ax, "Forfeited (statewide workforce fell), 76(a)(1)")
        assert bool(forfeited) is bool(years["forfeited_credit"].fillna(0).any())  # only where forfeited
        if forfeited:
            assert all(p.get_height() > 0 for p in forfeited if p.get_x() + 0.2 in years.index[years["forfeited"]])
        names = ax.get_legend().get_texts()
        if name == "phase_not_started":
            assert any("Phase 2: not started by the stop (year 2): no credit" in t.get_text() for t in names)
        if name == "phased":
            assert {"Phase 1: certified", "Phase 2: certified"} <= {t.get_text() for t in names}
        assert not text_problems(ax.figure, name)  # the title fits, nothing overlaps
    finally:
        plt.close(ax.figure)


@pytest.mark.slow
def test_the_memos_actuals_page(shape):
    name, after = shape
    page = actuals_page_html(after.projected, after.actuals)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r'src="data:image/png;base64,[^"]*"', "", page)))
    assert f"Projected: {after.projected.headline(1)}" in text
    assert f"On actual results: {after.actual.headline(1)}" in text
    assert "Credits by phase" in text and '<img alt="Credits by project year' in page
    for phase in after.phases.index:
        assert f"Phase {phase} " in text
    assert ">Actual<" not in page and "Actual [" not in text  # no column headed "actual"
    listed = re.findall(r"<li>(.*?)</li>", page)
    assert len(listed) == len([w for w in after.warnings if not w.startswith("N.J.A.C. 19:31U-1.14(c), the words")])
    for measure in ("full-time jobs (new and retained) below 80% of the project agreement", "median salary below"):
        assert sum(item.startswith(measure) for item in listed) <= 1  # one line per measure
    if name == "reduction_recaptured":
        assert any("certified in the phase&#x27;s first credit year in years 2-4" in item for item in listed)
        assert after.reduction_recapture > 0 and "$" in text
    if after.credits.note:
        assert "No ratio on the credits received yet" in text
    else:
        assert "Not a statutory test, and no verdict" in text
