"""The Round trip sheet: what netbenefit reads to rebuild each scenario from the workbook
(:mod:`netbenefit.model.scenario.workbook_form` says its form; :mod:`netbenefit.model.scenario.from_workbook`
reads it; docs/workbook.md, "The round trip")."""

from __future__ import annotations

from collections.abc import Sequence

from ...model.scenario.workbook_form import (
    COLUMNS,
    DEFAULT,
    FORMAT_VERSION,
    GIVEN,
    HEAD_ROWS,
    HEADER_ROW,
    INPUTS_SHEET,
    MARK,
    ROUND_TRIP_SHEET,
    VALUE_COLUMN,
    Kind,
    formula_ranges,
    parts,
)
from ...version import installed_version
from .book import Book
from .cells import ScenarioCells, fit_widths, header_row, put
from .layout import MAX_COLUMN_WIDTH

#: What the head of the sheet says of it.
ABOUT = (
    "What netbenefit reads to rebuild each scenario from this workbook (Scenario.from_excel, and every command "
    "that reads a scenario file): one row per key, the name of its cell or row and where it was written. "
    "Edit the input cells of the Inputs and Inputs by year sheets, not this sheet (docs/workbook.md)."
)


def round_trip_sheet(workbook: Book, cells: Sequence[ScenarioCells]) -> None:
    """The Round trip sheet, last: its head, each scenario's rows (``cells[k].record``), then one row
    per sheet listing the cells that hold formulas (a value typed over one is named when read)."""
    formulas = {
        title: [position for position, cell in sheet.cells.items() if cell.formula]
        for title, sheet in workbook.sheets.items()
        if title != INPUTS_SHEET  # (the Inputs sheet's formulas stand for inputs: their own rows say so)
    }
    number_of = {cell.sheet: cell.number for cell in cells}
    sheet = workbook.create_sheet(ROUND_TRIP_SHEET)
    put(sheet, HEAD_ROWS["mark"], 1, MARK).bold = True
    put(sheet, HEAD_ROWS["mark"], 2, FORMAT_VERSION)
    put(sheet, HEAD_ROWS["mark"], 3, ABOUT)
    put(sheet, HEAD_ROWS["scenarios"], 1, "Scenarios")
    put(sheet, HEAD_ROWS["scenarios"], 2, len(cells))
    put(sheet, HEAD_ROWS["written_by"], 1, "Written by")
    put(sheet, HEAD_ROWS["written_by"], 2, f"netbenefit {installed_version('unknown')}")
    header_row(sheet, COLUMNS, row=HEADER_ROW)
    row = HEADER_ROW + 1
    for cell in cells:
        for key, name, reference, given, kind, value, recorded in cell.record:
            mark = (GIVEN if given else DEFAULT) if kind != Kind.TABLE else None
            # keys, names and references are netbenefit's own words (a key's segments, a cell's
            # address), never a text of the scenario: written as they are
            for column, text in enumerate((cell.number, key, name, reference, mark, kind), start=1):
                if text is not None:
                    sheet.cell(row, column).value = text
            if recorded:
                for k, part in enumerate(parts(value)):
                    put(sheet, row, VALUE_COLUMN + k, part)
            row += 1
    for title, positions in formulas.items():
        if not positions:
            continue
        put(sheet, row, 1, number_of.get(title, 0))
        put(sheet, row, 2, title)
        put(sheet, row, 6, Kind.FORMULAS)
        for k, part in enumerate(parts(formula_ranges(positions))):
            put(sheet, row, VALUE_COLUMN + k, part)
        row += 1
    fit_widths(sheet)
    sheet.set_width(VALUE_COLUMN, MAX_COLUMN_WIDTH)
    sheet.freeze_panes = f"A{HEADER_ROW + 1}"
