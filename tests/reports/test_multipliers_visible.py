"""The multipliers applied, and the row they came from, on every surface a reader sees: the JSON
result's conventions, the CLI summary, the HTML report and the workbook's Inputs sheet."""

import json
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

import netbenefit
from netbenefit.model.disclosures import applied_multipliers

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "scenarios" / "industry_multipliers_example.yaml"
ROW = "revenue.multiplier_table data/multipliers_example.csv, row naics 523"


def test_the_applied_multipliers_are_the_table_row():
    scenario = netbenefit.load_scenario(TABLE)
    applied = {m.name: m for m in applied_multipliers(scenario)}
    assert applied["earnings_multiplier"].value == scenario.multipliers["earnings_multiplier"] != 1.0
    assert all(ROW in m.source and not m.is_the_key for m in applied.values())


@pytest.mark.slow
def test_the_json_result_and_the_summary_name_the_multipliers_and_their_row():
    result = netbenefit.evaluate(TABLE)
    line = next(n for n in result.to_dict()["conventions"] if n.startswith("multipliers applied"))
    assert "earnings 1.65" in line and "employment 2.1" in line and ROW in line
    out = subprocess.run(
        [sys.executable, "-m", "netbenefit", "evaluate", str(TABLE)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and "multipliers applied (total / direct): earnings 1.65" in out.stdout
    as_json = json.loads(
        subprocess.run(
            [sys.executable, "-m", "netbenefit", "evaluate", str(TABLE), "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )
    assert line in as_json["conventions"]


@pytest.mark.slow
def test_the_html_report_names_the_multipliers(tmp_path):
    result = netbenefit.evaluate(TABLE)
    page = result.to_html(tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Multipliers applied (total / direct)" in page and "row naics 523" in page


@pytest.mark.slow
@pytest.mark.parametrize("name, value", [("earnings_multiplier", 1.65), ("employment_multiplier", 2.1)])
def test_the_workbook_inputs_sheet_shows_the_value_applied_not_the_unused_default(tmp_path, name, value):
    result = netbenefit.evaluate(TABLE)
    path = tmp_path / "w.xlsx"
    result.to_excel(path)
    rows = {row[1]: row for row in openpyxl.load_workbook(path)["Inputs"].iter_rows(values_only=True)}
    row = rows[f"revenue.{name}"]
    # looked up by formula in the table's sheet (the value it gives is recomputed in the workbook tests)
    column = {"earnings_multiplier": 2, "employment_multiplier": 3}[name]
    assert row[3] == f"=VLOOKUP(business_naics,multiplier_table,{column},FALSE)"
    assert row[4] == "applied" and ROW in row[5]
    table = openpyxl.load_workbook(path)["Multiplier table"]
    letter = "B" if name == "earnings_multiplier" else "C"
    assert [c.value for c in table["A"][1:3]] == ["523", "541"] and table[f"{letter}2"].value == value


def test_a_scenario_without_a_table_shows_its_own_multipliers():
    scenario = netbenefit.load_scenario(ROOT / "scenarios" / "office_hq_default_area.yaml")
    applied = {m.name: m for m in applied_multipliers(scenario)}
    assert applied["earnings_multiplier"].source == "revenue.earnings_multiplier"
    assert applied["construction_earnings_multiplier"].source.startswith("revenue.earnings_multiplier")
