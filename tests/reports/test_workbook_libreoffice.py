"""LibreOffice headless opens the workbook, recomputes it and shows evaluate's ratio, and the ratio
netbenefit gives at a new rate once the ``discount_rate`` cell is edited: single, phased,
extended-commitment and mid-year scenarios. Skipped where ``soffice`` is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbook_engines import libreoffice_values, set_named_cell, soffice

import netbenefit

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
STEMS = ("party_city", "phased_campus", "extended_commitment", "mega_project")
RATIO_TOLERANCE = 1e-9
RATE_CHANGE = 0.025

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        soffice() is None,
        reason="LibreOffice (soffice) is not installed: apt-get install -y libreoffice-calc-nogui",
    ),
]


@pytest.mark.parametrize("stem", STEMS)
def test_libreoffice_shows_evaluates_ratio_before_and_after_the_rate_changes(stem, tmp_path):
    result = netbenefit.evaluate(SCENARIOS / f"{stem}.yaml")
    path = result.to_excel(tmp_path / f"{stem}.xlsx")
    shown = libreoffice_values(path, ["ratio", "pv_benefits", "pv_credits", "passes"])
    assert abs(shown["ratio"] - result.ratio) <= RATIO_TOLERANCE
    assert shown["pv_benefits"] == pytest.approx(result.pv_benefits, rel=1e-12)
    assert shown["pv_credits"] == pytest.approx(result.pv_credits, rel=1e-12)
    assert bool(shown["passes"]) is result.passes

    rate = round(result.discount_rate + RATE_CHANGE, 6)
    changed = set_named_cell(path, "discount_rate", rate, tmp_path / f"{stem}_changed.xlsx")
    expected = netbenefit.evaluate(result.scenario.replace(discount_rate=rate))
    shown = libreoffice_values(changed, ["ratio", "passes"])
    assert abs(shown["ratio"] - expected.ratio) <= RATIO_TOLERANCE
    assert abs(shown["ratio"] - result.ratio) > 0.01
    assert bool(shown["passes"]) is expected.passes


def test_libreoffice_recomputes_a_comparison_workbook(tmp_path):
    from netbenefit.views.html import Comparison

    comparison = Comparison.of([SCENARIOS / "party_city.yaml", SCENARIOS / "mega_project.yaml"])
    path = comparison.to_excel(tmp_path / "comparison.xlsx")
    changed = set_named_cell(path, "discount_rate_2", 0.04, tmp_path / "changed.xlsx")
    shown = libreoffice_values(changed, ["ratio_1", "ratio_2"])
    expected = netbenefit.evaluate(comparison.results[1].scenario.replace(discount_rate=0.04))
    assert abs(shown["ratio_1"] - comparison.results[0].ratio) <= RATIO_TOLERANCE
    assert abs(shown["ratio_2"] - expected.ratio) <= RATIO_TOLERANCE
