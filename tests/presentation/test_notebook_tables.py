"""Jupyter: a Diff shows its inputs, attribution and waterfall; every table reachable from a
Result shows headers in words with units and cells by unit (never 2.524182e+07, never a list
cell, never "$-1,234")."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

import netbenefit
from netbenefit import notebook

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


def test_a_derived_table_is_a_plain_dataframe(phased):
    assert type(phased.cashflows[["wages"]]) is pd.DataFrame
    assert type(phased.phase_tests.copy()) is pd.DataFrame


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
