"""Rich display in Jupyter and the short texts: Scenario, Result, solvers, Monte Carlo, sensitivity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import netbenefit
from netbenefit.analysis import max_award, montecarlo, sensitivity
from netbenefit.views import notebook

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def party():
    return netbenefit.evaluate(SCENARIOS / "party_city.yaml")


def test_result_repr_is_one_short_line(party):
    text = repr(party)
    assert "\n" not in text and len(text) < 200
    name = "Party City, Woodcliff Lake (published ratio arithmetic)"
    assert text.startswith(f"<Result '{name}': ratio 480.6% vs 400% threshold (71(a)(5)): passes")
    assert "passes; eligible" in text and "PV benefits $35.7M" in text


def test_summary_gives_ratios_as_percents_and_the_json_keeps_multiples(party):
    assert "net benefit ratio 480.6% vs 400% threshold (71(a)(5)): passes" in party.summary()
    ratio = json.loads(party.to_json())["net_benefit"]["ratio"]
    assert ratio == pytest.approx(4.8064, abs=1e-4)


def test_phased_summary_gives_each_phase_in_percent():
    phased = netbenefit.evaluate(SCENARIOS / "phased_campus.yaml")
    assert "phases 1+2: ratio 390.7% fails" in phased.summary()


def test_scenario_repr_html_shows_the_inputs_as_written(party):
    page = party.scenario._repr_html_()
    assert "Party City" in page and "<code>jobs.new</code>" in page and "New full-time jobs [jobs]" in page
    assert "<td>357</td>" in page and "357.0" not in page and "None" not in page


def test_scenario_repr_html_escapes_user_text(party):
    odd = party.scenario.replace({"name": "<script>alert(1)</script>"})
    assert "<script>" not in odd._repr_html_()


def test_solver_repr_html(party):
    answer = max_award(party.scenario)
    page = answer._repr_html_()
    assert "solved" in page and answer.message.split(";")[0][:30] in page


def test_montecarlo_repr_html_has_probabilities_and_failures(party):
    run = montecarlo(party.scenario, 400, {"jobs.new": ("uniform", 10, 400)}, seed=5, progress=False)
    page = run._repr_html_()
    assert "Probability of passing the net benefit test" in page and "%" in page
    assert "<code>71(a)(2)</code>" in page and "Check failed most often" in page
    assert "e+0" not in page


def test_sensitivity_table_repr_html_and_tornado(party):
    table = sensitivity(party.scenario, {"jobs.new": (20, 400), "discount_rate": (0.05, 0.1)})
    page = table._repr_html_()
    assert "New full-time jobs [jobs]" in page and "Discount rate [share/year]" in page
    assert "not eligible" in page and "jobs.new" not in page
    ax = table.tornado(ax=netbenefit.views.charts.new_figure()[1])
    assert ax.get_title().startswith("One-way sensitivity")
    derived = table[["key", "swing"]]
    assert type(derived).__name__ == "DataFrame" and "<table" in derived._repr_html_()


@pytest.mark.slow
def test_frames_indexed_by_check_id_and_scenario_with_formats(party):
    checks = notebook.checks_frame(party)
    assert checks.index.name == "id" and checks.loc["71(a)(2)", "passed"]
    other = netbenefit.evaluate(SCENARIOS / "extended_commitment.yaml")
    table = notebook.comparison_frame([party, other])
    assert list(table.index) == [party.name, other.name]
    html = notebook.styled(table).to_html()
    assert "$35,734,024" in html and "480.6%" in html and "e+0" not in html
    cashflows = notebook.styled(party.cashflows).to_html()
    assert "Cumulative PV of net benefits [USD]" in cashflows and "e+0" not in cashflows
    assert notebook.formats(party.cashflows)["discount_factor"] == "{:,.4g}"
