"""Jupyter: a Diff shows its inputs, attribution and waterfall; every table reachable from a
Result shows headers in words with units and cells by unit (never 2.524182e+07, never a list
cell, never "$-1,234")."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

import netbenefit
from netbenefit.views import notebook

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def phased():
    return netbenefit.evaluate(SCENARIOS / "phased_campus.yaml")


@pytest.fixture(scope="module")
def extended():
    return netbenefit.evaluate(SCENARIOS / "extended_commitment.yaml")


def test_diff_has_a_rich_display_with_inputs_attribution_and_waterfall():
    difference = netbenefit.diff(SCENARIOS / "party_city_estimate.yaml", SCENARIOS / "party_city.yaml")
    page = difference._repr_html_()
    assert "Inputs that differ" in page and "What moved the ratio" in page
    assert "data:image/png;base64," in page and "Total" in page and " pts" in page
    text = re.sub(r"base64,[^\"]+", "", page)
    assert "e+0" not in text and "Diff(" not in text
    assert difference.name_a in page


@pytest.mark.parametrize("table", ["phase_tests", "benefits_by_tax", "clawback_schedule", "cashflows", "checks"])
def test_each_result_table_shows_units_and_formats(phased, extended, table):
    for result in (phased, extended):
        frame = getattr(result, table)
        page = frame._repr_html_()
        assert "e+0" not in page and "e-0" not in page, table
        assert "$-" not in page
        assert not re.search(r">\s*\[[0-9, ]+\]\s*<", page), "a list cell"
        if table != "checks":
            assert "[USD]" in page, table
            # An ineligible project's clawback schedule is empty (nothing awarded to recapture).
            assert re.search(r"\$\d{1,3}(,\d{3})+", page) or (table == "clawback_schedule" and not len(frame)), table


def test_phase_tests_name_the_phases_counted(phased):
    page = phased.phase_tests._repr_html_()
    assert "1 + 2" in page and "Net benefit ratio [%]" in page and "390.7%" in page


def test_a_derived_table_keeps_its_display_and_its_numbers(phased):
    sliced = phased.cashflows[["wages", "pv_credits"]].head(4)
    assert isinstance(sliced, pd.DataFrame) and sliced["wages"].dtype.kind == "f"
    page = sliced._repr_html_()
    assert "e+07" not in page and re.search(r"\$\d{1,3}(,\d{3})+", page)
    tests = phased.phase_tests[phased.phase_tests["ratio"] < 10]
    assert "390.7%" in tests._repr_html_() and tests["ratio"].iloc[-1] == pytest.approx(3.9066, abs=1e-4)
    plain = pd.DataFrame(sliced)  # the user's way back to pandas' own display
    assert "$" not in plain.to_html()


def test_compare_sweep_and_montecarlo_tables_show_money_and_percents():
    table = netbenefit.compare([SCENARIOS / "party_city.yaml", SCENARIOS / "mega_project.yaml"])
    page = table[["name", "pv_benefits", "ratio"]]._repr_html_()
    assert "480.6%" in page and "$35,734,024" in page and "e+07" not in page
    assert table["ratio"].dtype.kind == "f" and table["ratio"].iloc[0] == pytest.approx(4.806386, abs=1e-6)
    scenario = netbenefit.load_scenario(SCENARIOS / "party_city.yaml")
    swept = netbenefit.sweep(scenario, {"discount_rate": [0.05, 0.08]})
    assert "%" in swept[["discount_rate", "ratio"]]._repr_html_()
    run = netbenefit.montecarlo(
        scenario, draws=50, vary={"discount_rate": ("uniform", 0.05, 0.09)}, seed=1, progress=False
    )
    assert "$" in run.draws[["pv_benefits"]].head()._repr_html_()


def test_a_users_own_table_shows_by_unit_and_keeps_its_attrs():
    from netbenefit.model.tables import shown

    frame = pd.DataFrame({"pv_benefits": [25_249_050.0], "ratio": [3.000024], "my_cost": [1_500_000.0]})
    frame.attrs["note"] = "kept"
    table = shown(frame, units={"my_cost": "USD"})
    page = table._repr_html_()
    assert "300.0%" in page and "$25,249,050" in page and "$1,500,000" in page
    assert table["ratio"].iloc[0] == 3.000024
    assert table[["ratio"]].attrs["note"] == "kept"  # attrs survive a slice (pandas >= 2.0)
    assert pd.get_option("display.float_format") is None  # pandas' own options untouched


@pytest.mark.slow
def test_styler_format_writes_negative_dollars_one_way():
    frame = pd.DataFrame({"net_benefits": [-1234.0, 5678.0]})
    html = notebook.styled(frame).to_html()
    assert "-$1,234" in html and "$-1,234" not in html and "$5,678" in html


def test_without_jinja2_the_tables_still_show_units_and_formats(phased, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "jinja2", None)  # the notebook extra not installed
    page = phased.cashflows._repr_html_()
    assert "PV of tax credits [USD]" in page and "e+0" not in page and "$-" not in page
    assert "1 + 2" in phased.phase_tests._repr_html_()
