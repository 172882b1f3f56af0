"""Emerge-model 2.1, year 0: LibreOffice recomputes the workbook of a scenario with capital in year 0,
the approval year, and shows evaluate's ratio under both timings, before and after the discount-rate
cell (or the timing cell) is changed. Skipped where ``soffice`` is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from workbook_engines import libreoffice_values, set_named_cell, soffice

import netbenefit

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "office_hq_default_area.yaml"
RATIO_TOLERANCE = 1e-9

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        soffice() is None,
        reason="LibreOffice (soffice) is not installed: apt-get install -y libreoffice-calc-nogui",
    ),
]


def year_zero_scenario(timing: str) -> netbenefit.Scenario:
    data = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))
    data["capital_investment"] = {0: 30_000_000, 2: 8_000_000}  # the fit-out in the approval year
    data["timing"] = timing
    return netbenefit.Scenario.from_dict(data, source="year_zero.yaml")


@pytest.mark.parametrize("timing, other", [("end_of_year", "mid_year"), ("mid_year", "end_of_year")])
def test_emerge_model_2_1_libreoffice_shows_evaluates_ratio_with_year_0(timing, other, tmp_path):
    result = netbenefit.evaluate(year_zero_scenario(timing))
    assert result.cashflows.index[0] == 0
    path = result.to_excel(tmp_path / "year_zero.xlsx")
    shown = libreoffice_values(path, ["ratio", "pv_benefits", "pv_credits"])
    assert abs(shown["ratio"] - result.ratio) <= RATIO_TOLERANCE
    assert shown["pv_benefits"] == pytest.approx(result.pv_benefits, rel=1e-12)
    assert shown["pv_credits"] == pytest.approx(result.pv_credits, rel=1e-12)

    rate = round(result.discount_rate + 0.025, 6)
    changed = set_named_cell(path, "discount_rate", rate, tmp_path / "rate.xlsx")
    expected = netbenefit.evaluate(result.scenario.replace(discount_rate=rate))
    assert abs(libreoffice_values(changed, ["ratio"])["ratio"] - expected.ratio) <= RATIO_TOLERANCE

    changed = set_named_cell(path, "timing", other, tmp_path / "timing.xlsx")
    expected = netbenefit.evaluate(result.scenario.replace(timing=other))
    assert abs(libreoffice_values(changed, ["ratio"])["ratio"] - expected.ratio) <= RATIO_TOLERANCE
