"""Writing cells: text, values and formulas, references, headers and widths, value tables; where a
scenario's live cells are (:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...model.scenario.workbook_form import guarded
from ...model.scenario.workbook_form import input_name as input_name
from .book import Book, Cell, Sheet, row_column
from .layout import (
    CELL_TEXT_LIMIT,
    FORMULA_ARGUMENT_LIMIT,
    MAX_COLUMN_WIDTH,
    MONEY_FORMAT,
    PERCENT_FORMAT,
    RATE_FORMAT,
    TABLE_FORMATS,
    TABLE_HEADERS,
    table_header,
)

# ----------------------------------------------------------------------------------------------
# Text written to cells
# ----------------------------------------------------------------------------------------------


def cell_text(text: Any) -> str:
    """User-provided text as a cell can hold it and no spreadsheet reads as a formula
    (:func:`netbenefit.io.safe_text.cell`; a text starting with the quote that guards one gets
    one more, so that the workbook's reader gives every text back: :func:`netbenefit.model.scenario.
    workbook_form.guarded`), cut at Excel's cell limit."""
    return guarded(str(text))[:CELL_TEXT_LIMIT]


# ----------------------------------------------------------------------------------------------
# Writing cells
# ----------------------------------------------------------------------------------------------


@functools.cache
def column_letter(index: int) -> str:
    """Excel's letters of the 1-based column ``index`` (1 -> A, 27 -> AA)."""
    from xlsxwriter.utility import xl_col_to_name

    return xl_col_to_name(index - 1)


def quote_sheetname(name: str) -> str:
    """``'Sheet name'``: a sheet name as a formula refers to it (quoted, quotes doubled)."""
    return "'" + name.replace("'", "''") + "'"


def put(sheet: Sheet, row: int, column: int, value: Any, number_format: str | None = None) -> Cell:
    """Write a value (text through :func:`cell_text`; NaN and None as an empty cell)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str):
        value = cell_text(value)
    elif isinstance(value, float) and not np.isfinite(value):
        value = None
    elif value is not None and not isinstance(value, bool | int | float | dt.date):
        value = cell_text(value)
    cell = sheet.cell(row, column)
    if value is not None:
        cell.value, cell.formula = value, False
    if number_format and isinstance(value, int | float | dt.date) and not isinstance(value, bool):
        cell.number_format = number_format
    return cell


def put_formula(sheet: Sheet, row: int, column: int, formula: str, number_format: str | None = None) -> Cell:
    """Write a formula (built here from cell references and names, never from user text)."""
    cell = sheet.cell(row, column)
    cell.value, cell.formula = formula, True
    if number_format:
        cell.number_format = number_format
    return cell


def sum_of_columns(columns: Sequence[int], row: int) -> str:
    """The sum of the cells of ``columns`` in ``row``, as a formula (without ``=``): one cell as
    itself, else ``SUM`` over the runs of adjacent columns as ranges (``SUM(D5:K5,M5)``), nested
    so that no ``SUM`` takes more than :data:`FORMULA_ARGUMENT_LIMIT` arguments; ``0`` for none."""
    runs: list[list[int]] = []
    for column in columns:
        if runs and column == runs[-1][-1] + 1:
            runs[-1].append(column)
        else:
            runs.append([column])
    if not runs:
        return "0"
    if len(runs) == 1 and len(runs[0]) == 1:
        return f"{column_letter(runs[0][0])}{row}"
    references = [
        f"{column_letter(run[0])}{row}" + (f":{column_letter(run[-1])}{row}" if len(run) > 1 else "") for run in runs
    ]
    while len(references) > FORMULA_ARGUMENT_LIMIT:
        references = [
            f"SUM({','.join(references[k : k + FORMULA_ARGUMENT_LIMIT])})"
            for k in range(0, len(references), FORMULA_ARGUMENT_LIMIT)
        ]
    return f"SUM({','.join(references)})"


def absolute_reference(sheet_name: str, cell: str) -> str:
    """``'Sheet name'!$A$1``: an absolute reference to a cell of a sheet."""
    row, column = row_column(cell)
    return f"{quote_sheetname(sheet_name)}!${column_letter(column)}${row}"


def define_name(workbook: Book, name: str, sheet_name: str, cell: str) -> None:
    workbook.names[name] = absolute_reference(sheet_name, cell)


def header_row(sheet: Sheet, headers: Sequence[str], row: int = 1) -> None:
    for column, header in enumerate(headers, start=1):
        put(sheet, row, column, header).header = True


def fit_widths(sheet: Sheet, last_row: int | None = None, minimum: int = 8) -> None:
    """Column widths fitted to the shown values of rows 2..last_row and to the header (wrapped)."""
    last_row = last_row or sheet.max_row
    widths = dict.fromkeys(range(1, sheet.max_column + 1), minimum)
    headers = dict.fromkeys(widths, "")
    for (row, column), cell in sheet.cells.items():
        if row == 1:
            headers[column] = str(cell.value or "")
        elif row <= last_row:
            widths[column] = max(widths[column], _shown_width(cell, cell.number_format))
    for column, width in widths.items():
        width = max(width, min(len(headers[column]), 24))
        sheet.widths[column] = min(width + 3, MAX_COLUMN_WIDTH)


def _shown_width(cell: Cell, number_format: str) -> int:
    """Approximate characters that ``cell`` takes when shown in ``number_format``."""
    value = cell.value
    if value is None:
        return 0
    if cell.formula:
        return 14  # a formula: an amount in dollars or a factor
    if isinstance(value, bool) or not isinstance(value, int | float):
        return len(str(value))
    if number_format == MONEY_FORMAT:
        return len(f"${value:,.0f}")
    if number_format in (PERCENT_FORMAT, RATE_FORMAT):
        return len(f"{value:.2%}")
    return len(f"{value:,.2f}")


def value_table(
    sheet: Sheet,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    scenario_column: Sequence[str] | None = None,
    formats: Mapping[str, str] = {},
):
    """A table (column names, rows) as a value table with human headers, formats and a frozen header row."""
    headers = ([TABLE_HEADERS["scenario"]] if scenario_column is not None else []) + [table_header(c) for c in columns]
    header_row(sheet, headers)
    offset = 1 if scenario_column is not None else 0
    for row_number, row in enumerate(rows, start=2):
        if scenario_column is not None:
            put(sheet, row_number, 1, scenario_column[row_number - 2])
        for k, (column, value) in enumerate(zip(columns, row, strict=True), start=1 + offset):
            put(sheet, row_number, k, value, formats.get(column) or TABLE_FORMATS.get(column, MONEY_FORMAT))
    fit_widths(sheet)
    sheet.freeze_panes = "A2"


# ----------------------------------------------------------------------------------------------
# Where a scenario's cells are
# ----------------------------------------------------------------------------------------------


@dataclass
class ScenarioCells:
    """Where one scenario's live cells and totals are (for names and cross-sheet formulas)."""

    suffix: str
    inputs_column: int = 0
    discount_rate: str = ""  # absolute reference, e.g. 'Inputs'!$D$5
    timing: str = ""
    sheet: str = ""  # the cash-flow sheet
    pv_benefits: str = ""  # cell on the cash-flow sheet, e.g. E45
    pv_credits: str = ""
    ratio: str = ""
    threshold: str = ""
    passes: str = ""
    margin: str = ""
    max_credit_pv: str = ""
    whole_project_ratio: str = ""  # a phased project's (its ratio is the deciding test's)
    phase_ratios: str = ""  # the cumulative tests' ratios on the Phase tests sheet, an absolute range
    phase_labels: str = ""  # their phases ("1", "1+2"...), an absolute range
    years: tuple[int, int] = (2, 2)  # first and last row of the year table
    phase_columns: tuple[tuple[str, str, str], ...] = ()  # (net benefits, weight, credits) column letters
    discount_factor_column: str = ""
    names: dict[str, str] = field(default_factory=dict)  # dotted input key -> workbook name (suffixed)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (row, column) on the Inputs sheet
    by_year: dict[str, str] = field(default_factory=dict)  # list key (capital_investment...) -> name of its row
    horizon: int = 0  # the last project year of the year table
    by_tax: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # tax -> (stream, weight) columns
    covered: str = ""  # the cell saying whether the year rows reach the last year the model needs
    facts: dict[str, str] = field(default_factory=dict)  # figures a check's sentence quotes -> their cells
    checks: dict[str, str] = field(default_factory=dict)  # check id -> the cell of its formula, e.g. 'Cash flows'!$E$40
    #: The rows of the Round trip sheet for this scenario: (key, name, refers to, given, kind, value
    #: recorded or None, whether a value is recorded) (netbenefit.model.scenario.workbook_form).
    record: list[tuple] = field(default_factory=list)
    number: int = 1  # the scenario's number (its names' suffix in a comparison)

    def name(self, key: str) -> str:
        """The workbook name of the input cell of a dotted key (``jobs.new`` -> ``jobs_new``)."""
        return self.names[key]
