"""The workbook never shows two answers without saying so: the Clawback schedule, a sheet of
values, carries a visible note that its present values are at the run's rate; the Benefits by tax
are formulas of the cash-flow sheet and say so; the Checks sheet says which checks are formulas of
the input cells and which are netbenefit's values, and the message of the net benefit test is a
sentence of the live ratio cell."""

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


@pytest.mark.parametrize("sheet", ["Clawback schedule"])
def test_each_sheet_of_values_notes_that_it_is_fixed_at_the_run_rate(workbook, sheet):
    notes = [t for t in _texts(workbook[sheet]) if t.startswith("Note:")]
    assert len(notes) == 1, _texts(workbook[sheet])[-3:]
    assert "discount rate of the run (5.5%)" in notes[0] and "do not follow the discount-rate cell" in notes[0]
    assert "ratio cell" in notes[0]


def test_the_benefits_by_tax_are_formulas_and_say_so(workbook):
    sheet = workbook["Benefits by tax"]
    notes = [t for t in _texts(sheet) if t.startswith("Note:")]
    assert len(notes) == 1 and "follow the input cells" in notes[0]
    assert str(sheet["C2"].value).startswith("=SUMPRODUCT(") or sheet["C2"].value == "=0"


def test_the_checks_sheet_says_which_checks_follow_the_inputs(workbook):
    notes = [t for t in _texts(workbook["Checks"]) if t.startswith("Note:")]
    assert len(notes) == 1
    assert "71(a)(1), 71(a)(2), 71(a)(5), 71(d) are formulas of the input cells" in notes[0]
    assert "discount rate of the run (5.5%)" in notes[0] and "do not follow the discount-rate cell" in notes[0]


def test_the_messages_are_sentences_of_the_live_cells_or_say_they_are_not(workbook):
    sheet = workbook["Checks"]
    rows = {row[0]: row for row in ([c.value for c in row] for row in sheet.iter_rows(min_row=2)) if row[0]}
    message = rows["71(a)(5)"][2]
    assert message.startswith("=") and "TEXT(ratio," in message and "IF(passes," in message
    assert rows["71(a)(2)"][2].startswith("=TEXT(")
    not_recomputed = "(As evaluated by netbenefit, not recomputed: it does not follow the input cells.)"
    assert rows["71(a)(3)"][2].endswith(not_recomputed)
