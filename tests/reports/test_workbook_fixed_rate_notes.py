"""The workbook never shows two answers without saying so: the sheets of values (Checks, Benefits
by tax, Clawback schedule) carry a visible note that their present values are at the run's rate,
and the message of the net benefit test points to the ratio cell, which follows the rate cell."""

from pathlib import Path

import openpyxl
import pytest

import netbenefit

pytestmark = pytest.mark.slow  # every test here writes outputs or starts a process

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def workbook(tmp_path_factory):
    result = netbenefit.evaluate(SCENARIOS / "extended_commitment.yaml")
    assert result.benefits_by_tax is not None and result.clawback_schedule is not None
    path = result.to_excel(tmp_path_factory.mktemp("wb") / "w.xlsx")
    return openpyxl.load_workbook(path)


def _texts(sheet) -> list[str]:
    return [str(c.value) for row in sheet.iter_rows() for c in row if isinstance(c.value, str)]


@pytest.mark.parametrize("sheet", ["Checks", "Benefits by tax", "Clawback schedule"])
def test_each_sheet_of_values_notes_that_it_is_fixed_at_the_run_rate(workbook, sheet):
    notes = [t for t in _texts(workbook[sheet]) if t.startswith("Note:")]
    assert len(notes) == 1, _texts(workbook[sheet])[-3:]
    assert "discount rate of the run (5.5%)" in notes[0] and "do not follow the discount-rate cell" in notes[0]
    assert "ratio cell" in notes[0]


def test_the_net_benefit_message_says_see_the_ratio_cell(workbook):
    sheet = workbook["Checks"]
    rows = [[c.value for c in row] for row in sheet.iter_rows(min_row=2)]
    message = next(row[2] for row in rows if row[0] == "71(a)(5)")
    assert "see the ratio cell, named ratio" in message
