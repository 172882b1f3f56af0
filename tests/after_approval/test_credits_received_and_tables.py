"""The credits actually received beside the approved, the ratio on them (labelled, no verdict), and
every after-approval table shown by unit in a notebook and on the command line while its values
stay numbers."""

import copy
import re

import numpy as np
import pandas as pd
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.cli import main
from netbenefit.model.after_approval import Actuals, follow

DRIVERS = {
    "jobs.new": 100,
    "jobs.ramp": [1.0],
    "jobs.median_salary": 80000,
    "jobs.salary_growth": 0.0,
    "award": {"per_new_job": 1000, "eligibility_period_years": 7},  # $100,000 a year
    "discount_rate": 0.05,
}
TABLES = ("years", "phases", "phase_years", "comparison", "rerun_tests", "floor", "reduction")


def scenario(**changes):
    return netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), copy.deepcopy({**DRIVERS, **changes})))


def actuals(jobs, stop=None):
    rows = [{"year": y, "new_jobs": float(n), "statewide_workforce": 1000.0} for y, n in enumerate(jobs, start=1)]
    return Actuals.from_dict({"workforce_before_approval": 1000.0, "maintained_through_year": stop, "years": rows})


def test_the_credits_received_less_recapture_each_discounted_in_its_year():
    # 100,000 certified in years 1-3, the business leaves after year 3: pro rata recapture of
    # 300,000 x 7.5 / 10.5 in year 4. Each discounted at 5% in the year it falls.
    after = follow(scenario(), actuals([100, 100, 100], stop=3))
    recapture = 300_000 * 7.5 / 10.5
    assert after.recapture == pytest.approx(recapture)
    assert after.net_credits_received == pytest.approx(300_000 - recapture)
    pv = sum(100_000 / 1.05**t for t in (1, 2, 3)) - recapture / 1.05**4
    assert after.credits.pv == pytest.approx(pv)
    assert after.ratio_on_credits_received == pytest.approx(after.actual.pv_benefits / pv)
    row = after.comparison.loc["rerun"]
    assert row["pv_net_credits_received"] == pytest.approx(pv)
    assert row["ratio_on_credits_received"] == pytest.approx(after.actual.pv_benefits / pv)
    assert np.isnan(after.comparison.loc["projected", "ratio_on_credits_received"])
    # beside it, the re-run's ratio on the approved credits, read from the re-run's result
    assert row["ratio"] == after.actual.ratio and row["pv_credits"] == after.actual.pv_credits
    assert row["deciding_test"] == after.actual.deciding_test.what
    data = after.to_dict()["credits_received"]
    assert data["ratio_on_credits_received"] == pytest.approx(after.ratio_on_credits_received)
    text = after.summary()
    assert "not a statutory test: PV of the actual-results benefits / PV of the credits received" in text
    assert "$300,000, less recapture and repayment: $85,714" in text


def test_no_ratio_on_the_credits_received_while_credits_are_still_to_come():
    after = follow(scenario(), actuals([100, 100, 100]))  # maintained; credits of years 4-7 to come
    assert np.isnan(after.ratio_on_credits_received)
    assert after.credits.note == "the credits of years 4-7 are not yet certified"
    assert "ratio on the credits received: none (the credits of years 4-7 are not yet certified)" in after.summary()
    assert after.to_dict()["credits_received"]["ratio_on_credits_received"] is None


def test_no_column_headed_actual_holds_approved_figures():
    after = follow(scenario(), actuals([50, 60], stop=2))
    for name in TABLES:
        table = getattr(after, name)
        headings = [str(c) for c in table.columns] + [str(i) for i in table.index.names]
        headings += [str(i) for i in table.index] if name == "comparison" else []
        assert "actual" not in headings, name
    assert list(after.comparison.index) == ["projected", "rerun"]


SHAPES = {
    "stopped": ({}, actuals([100, 100, 100, 100], stop=4)),
    "under_performing": ({}, actuals([30, 40, 50, 45])),
    "phased": (
        {
            "phases": [
                {
                    "name": "Phase 2",
                    "start_year": 2,
                    "jobs": {"new": 50, "ramp": [1.0], "median_salary": 60000, "nj_withholding_share": 1.0},
                    "award": {"annual_credit": 50000, "eligibility_period_years": 7},
                }
            ]
        },
        actuals([100, 100, 150, 150, 150]),
    ),
    "phase_not_started": (
        {
            "phases": [
                {
                    "name": "Phase 2",
                    "start_year": 3,
                    "jobs": {"new": 50, "ramp": [1.0], "median_salary": 60000, "nj_withholding_share": 1.0},
                    "award": {"annual_credit": 50000, "eligibility_period_years": 7},
                }
            ]
        },
        actuals([100, 100, 100, 100, 100], stop=2),
    ),
}


@pytest.fixture(scope="module", params=sorted(SHAPES))
def after(request):
    changes, facts = SHAPES[request.param]
    return follow(scenario(**changes), facts)


@pytest.mark.parametrize("name", TABLES)
def test_every_table_shows_money_and_percents_in_a_notebook_staying_numeric(after, name):
    table = getattr(after, name)
    html = table._repr_html_()
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", html)
    assert cells or not len(table)
    for text in cells:
        assert not re.search(r"\d\.\d{5,}|e[+-]\d\d|^\d{7,}(\.0)?$", text.strip()), (name, text)
    for column in table.columns:  # numbers stay numbers
        values = table[column]
        if column in ("phases", "deciding_test"):
            continue
        assert pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values), (name, column)
    money = [c for c in table.columns if netbenefit.labels.unit(str(c)).startswith("USD")]
    if money and len(table) and table[money].abs().max().max() >= 1000:
        assert "$" in html


def test_the_command_line_shows_money_and_percents_never_scientific(capsys):
    facts = SHAPES["phased"][1]
    base = scenario(**SHAPES["phased"][0])
    after = follow(base, facts)
    for name in TABLES:
        text = getattr(after, name).to_text()
        assert not re.search(r"\de[+-]\d", text), name
    assert "$" in after.comparison.to_text() and "%" in after.comparison.to_text()


def test_the_actuals_command_prints_money_and_percents(tmp_path, capsys):
    root = __import__("pathlib").Path(__file__).resolve().parents[2] / "scenarios"
    assert (
        main(
            [
                "actuals",
                str(root / "life_sciences_phased.yaml"),
                str(root / "actuals" / "life_sciences_phased_actuals.yaml"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert not re.search(r"\de[+-]\d", out)
    assert "$12,683,237" in out and "117.56%" in out and "$1,915,952" in out
