"""Every command and view over the shapes a real application takes: one phase, phased (its initial
phase failing alone while the phases together pass), extended, ineligible, year 0, and a phased
application with an extension in a distressed municipality. A feature is done when it handles every
shape, not when it works on one.

Each view must draw or write without an error, and every verdict it states must agree with the
result's own record (:mod:`netbenefit.law.rules.decision`).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import matplotlib
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.cli import main
from netbenefit.views.charts import SCENARIO_CHARTS

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def _stream(amount: float, years: range) -> dict:
    return {"name": "state taxes", "kind": "revenue", "by_year": {year: amount for year in years}}


def _phased_initial_fails(extended: int = 0) -> dict:
    """Initial phase 255% alone, 315% with phase 2, in a distressed municipality (300%)."""
    return with_changes(
        base_scenario_dict(),
        {
            "name": "Phased, initial phase fails alone",
            "location": {"qualified_incentive_area": True, "distressed_municipality": True},
            "commitment": {"extended_years": extended},
            "streams": [_stream(170_000, range(1, 12))],
            "phases": [
                {
                    "name": "Phase 2",
                    "start_year": 2,
                    "jobs": {"new": 100, "nj_withholding_share": 1.0},
                    "award": {"annual_credit": 100_000},
                    "streams": [_stream(250_000, range(1, 12))],
                }
            ],
        },
    )


def _year_zero() -> dict:
    return with_changes(
        base_scenario_dict(),
        {"name": "Year 0 investment", "streams": [_stream(300_000, range(0, 12))]},
    )


SHAPES = {
    "one phase": SCENARIOS / "office_hq_default_area.yaml",
    "phased": SCENARIOS / "phased_campus.yaml",
    "extended": SCENARIOS / "extended_commitment.yaml",
    "ineligible": SCENARIOS / "fiserv_estimate.yaml",
    "phased, extended, distressed (bundled)": SCENARIOS / "life_sciences_phased.yaml",
    "phased, initial phase fails alone": _phased_initial_fails(),
    "phased, extended, distressed": _phased_initial_fails(extended=3),
    "year 0": _year_zero(),
}


def scenario_of(shape: str) -> netbenefit.Scenario:
    source = SHAPES[shape]
    if isinstance(source, Path):
        return netbenefit.load_scenario(source)
    return netbenefit.Scenario.from_dict(source)


@pytest.fixture(scope="module")
def results():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {shape: netbenefit.evaluate(scenario_of(shape)) for shape in SHAPES}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_the_shapes_are_what_they_say(results):
    assert len(results["phased"].phase_tests) == 2
    initial = results["phased, initial phase fails alone"]
    assert not initial.passes and initial.deciding_test.what == "phases 1"
    assert initial.ratio < initial.threshold < initial.whole_project_ratio
    assert results["extended"].extension_counted
    assert not results["ineligible"].eligible
    assert 0 in results["year 0"].cashflows.index


@pytest.mark.parametrize("shape", SHAPES)
def test_the_result_and_its_text(shape, results):
    result = results[shape]
    verdict = "passes" if result.passes else "fails"
    assert f"): {verdict}" in result.headline()
    assert result.headline() in result.summary() and result.headline() in repr(result)
    data = json.loads(result.to_json())
    assert data["net_benefit"]["deciding_test"]["passes"] == result.deciding_test.holds
    assert result.headline().split(":")[0] in result._repr_html_() or result.headline()[:5] in result._repr_html_()


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("chart", sorted(set(SCENARIO_CHARTS)))
@pytest.mark.slow
def test_every_chart_draws(shape, chart, results):
    import matplotlib.pyplot as plt

    ax = results[shape].plot(chart)
    assert ax is not None
    plt.close("all")


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_workbook_and_report(shape, results, tmp_path):
    result = results[shape]
    assert result.to_excel(tmp_path / "result.xlsx").stat().st_size > 0
    page = result.to_html(tmp_path / "report.html").read_text(encoding="utf-8")
    assert result.name.split(",")[0] in page


@pytest.mark.parametrize("shape", SHAPES)
def test_diff_against_a_variant(shape):
    scenario = scenario_of(shape)
    variant = scenario.replace({"discount_rate": scenario.discount_rate + 0.01})
    d = netbenefit.diff(scenario, variant)
    assert sum(row.contribution for row in d.margin_attribution.itertuples()) == pytest.approx(d.margin_change)
    assert "margin" in d.summary()


def test_compare_every_shape(results):
    table = netbenefit.compare(list(results.values()))
    assert list(table["deciding_test"]) == [r.deciding_test.what for r in results.values()]
    assert list(table["margin"]) == pytest.approx([r.margin for r in results.values()])


@pytest.mark.parametrize("shape", SHAPES)
def test_montecarlo_sensitivity_and_solver(shape):
    from netbenefit.analysis import max_award, montecarlo, sensitivity

    scenario = scenario_of(shape)
    run = montecarlo(scenario, draws=200, vary={"discount_rate": ("uniform", 0.03, 0.07)}, seed=1, progress=False)
    assert 0.0 <= run.summary.probability_passes <= 1.0
    table = sensitivity(scenario, {"discount_rate": (0.03, 0.07)})
    assert len(table) == 1
    solved = max_award(scenario)
    assert solved is not None


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.slow
def test_explore_opens(shape):
    pytest.importorskip("ipywidgets")
    shown = netbenefit.explore(scenario_of(shape), keys=["discount_rate"])
    assert shown is not None


def test_portfolio_of_every_shape(results):
    book = netbenefit.portfolio(list(results.values()))
    assert len(book.fiscal_years) > 0


@pytest.mark.slow
def test_the_command_line_over_every_bundled_shape(tmp_path, capsys):
    files = [str(path) for path in SHAPES.values() if isinstance(path, Path)]
    for path in files:
        assert main(["evaluate", path, "--json"]) == 0
        assert main(["evaluate", path]) == 0
    assert main(["compare", *files, "--out", str(tmp_path / "out"), "--force", "--charts", "summary"]) == 0
    assert main(["diff", files[0], files[1]]) == 0
    assert main(["report", *files[:2], "--out", str(tmp_path / "report.html"), "--force"]) == 0
    capsys.readouterr()
    # Actual results: one phase under-performing, and two phases stopped after year 6.
    for scenario, actuals in [
        ("office_hq_default_area.yaml", "office_hq_actuals.yaml"),
        ("life_sciences_phased.yaml", "life_sciences_phased_actuals.yaml"),
    ]:
        assert main(["actuals", str(SCENARIOS / scenario), str(SCENARIOS / "actuals" / actuals), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data
        assert main(["actuals", str(SCENARIOS / scenario), str(SCENARIOS / "actuals" / actuals)]) == 0
        assert "net benefit, on actual results" in capsys.readouterr().out
