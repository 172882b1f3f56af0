"""The Excel workbook: a model a reviewer can audit, change and recompute (docs/workbook.md).

:func:`write_workbook` writes one or several evaluated scenarios. The layout:

- **Inputs**: every scalar input of the scenario as validated (dotted key, human label, unit,
  value), defaults included, each value cell named by its key with dots as underscores
  (``jobs_median_salary``; ``phases_0_jobs_new`` for a later phase); **Inputs by year**: the lists
  by year as named rows (``capital_investment_by_year``, ``jobs_ramp``, ``streams_0_by_year``).
  Each input's note says whether a formula reads it.
- a **cash-flow sheet** per scenario: one row per project year, every figure a formula of those
  cells (:mod:`~netbenefit.views.workbook.drivers`): jobs, wages, construction, the streams of the
  revenue drivers (the Gross Income Tax on the brackets in closed form), the streams given by year,
  the credits, the benefit windows, the present values, the ratio (``ratio``), the threshold
  from the location cells (``threshold``); under the table the job minimum of 71(c)(1), the checks
  71(a)(1) and 71(d) (:mod:`~netbenefit.views.workbook.eligibility_cells`) and each phase's window. A
  figure no formula computes (the CBT of an allocated income) is netbenefit's value, its header
  saying so.
- **Phase tests**: the cumulative test of 71(a)(5) per phase, as formulas on the cash-flow sheet.
- **Checks**: 71(a)(1), (a)(2), (a)(5) and (d) as formulas with ``TEXT`` sentences; the others,
  **Benefits by tax**, **Clawback schedule**, **Warnings**: values, noted as netbenefit's.

A comparison (several scenarios) starts with a **Summary** sheet and gives each scenario one value
column of the Inputs sheet and one cash-flow sheet; its names carry the scenario's number as a
suffix (``discount_rate_1``, ``jobs_new_1``, ``ratio_1``...), listed on the Summary sheet.

Every text that comes from a scenario or a message is written through
:func:`~netbenefit.views.workbook.cells.cell_text`, so that no cell starts a formula.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...io.writing import file_stems, write_file
from .book import FORMULA_FUNCTIONS, Book, Cell, Sheet, row_column, worksheet_class
from .cashflow_sheet import cashflow_sheet
from .cells import ScenarioCells, cell_text, column_letter, define_name, quote_sheetname
from .inputs_sheet import inputs_sheet, mark_live_inputs, table_title
from .layout import (
    BY_TAX_SHEET,
    CASHFLOW_SHEET,
    CELL_TEXT_LIMIT,
    CHECK_TITLES,
    CHECKS_SHEET,
    CLAWBACK_SHEET,
    DATE_FORMAT,
    EXCEL_RESERVED_SHEETS,
    FACTOR_FORMAT,
    FIXED_SHEETS,
    FORMULA_ARGUMENT_LIMIT,
    FORMULA_LENGTH_LIMIT,
    INPUT_LABELS,
    INPUTS_SHEET,
    JOBS_FORMAT,
    LIVE_FILL,
    MAX_COLUMN_WIDTH,
    MONEY_FORMAT,
    NET_BENEFIT_CHECK,
    NUMBER_FORMAT,
    PERCENT_FORMAT,
    PHASE_TESTS_SHEET,
    RATE_FORMAT,
    SHEET_NAME_LIMIT,
    SUMMARY_SHEET,
    TABLE_HEADERS,
    WARNINGS_SHEET,
    WEIGHT_FORMAT,
    input_label,
)
from .model import input_rows
from .round_trip import round_trip_sheet
from .sheets import by_tax_sheet, checks_sheet, clawback_sheet, phase_tests_sheet, summary_sheet, warnings_sheet

if TYPE_CHECKING:
    from ...model.result import Result

#: The names of the results under a cash-flow sheet beside ratio, threshold and passes: the margin,
#: the requested credits scaled alike until every test passes and, for a phased project, the whole
#: project's ratio.
RESULT_NAMES = ("margin", "max_credit_pv", "whole_project_ratio")

#: The names of the single module this package was, kept for their callers.

__all__ = [
    "BY_TAX_SHEET",
    "CASHFLOW_SHEET",
    "CELL_TEXT_LIMIT",
    "CHECK_TITLES",
    "CHECKS_SHEET",
    "CLAWBACK_SHEET",
    "DATE_FORMAT",
    "EXCEL_RESERVED_SHEETS",
    "FACTOR_FORMAT",
    "FIXED_SHEETS",
    "FORMULA_ARGUMENT_LIMIT",
    "FORMULA_FUNCTIONS",
    "FORMULA_LENGTH_LIMIT",
    "INPUT_LABELS",
    "INPUTS_SHEET",
    "JOBS_FORMAT",
    "LIVE_FILL",
    "MAX_COLUMN_WIDTH",
    "MONEY_FORMAT",
    "NET_BENEFIT_CHECK",
    "NUMBER_FORMAT",
    "PERCENT_FORMAT",
    "PHASE_TESTS_SHEET",
    "RATE_FORMAT",
    "SHEET_NAME_LIMIT",
    "SUMMARY_SHEET",
    "TABLE_HEADERS",
    "WARNINGS_SHEET",
    "WEIGHT_FORMAT",
    "Book",
    "Cell",
    "ScenarioCells",
    "Sheet",
    "build_workbook",
    "cell_text",
    "column_letter",
    "input_label",
    "input_rows",
    "quote_sheetname",
    "row_column",
    "sheet_names",
    "worksheet_class",
    "write_workbook",
]


def write_workbook(results: Sequence[Result], path: Path, *, comparison: bool = True) -> Path:
    """Write the workbook of ``results`` to ``path`` (atomically); returns the path.

    ``comparison``: the layout of ``netbenefit compare`` (a Summary sheet, one cash-flow sheet per
    scenario named after its file, names suffixed ``_1``, ``_2``...); otherwise the layout of a
    single result (:meth:`Result.to_excel`): one cash-flow sheet ``Cash flows`` and unsuffixed
    names ``discount_rate``, ``timing``, ``pv_benefits``, ``pv_credits``, ``ratio``.

    Raises OSError naming ``path`` when it cannot be written.
    """
    results = list(results)
    if not comparison and len(results) != 1:
        raise ValueError("a single-result workbook holds exactly one result")
    workbook = build_workbook(results, comparison=comparison, sheet_stems=file_stems(results))
    return write_file(Path(path), workbook.save)


def sheet_names(stems: Sequence[str], reserved: Sequence[str] = FIXED_SHEETS) -> list[str]:
    """A distinct Excel sheet name for each stem: at most 31 characters, none of ``[]:*?/\\``,
    unique without regard to case (as Excel compares them) and distinct from ``reserved`` and from
    the names Excel reserves (:data:`EXCEL_RESERVED_SHEETS`)."""
    taken = {name.casefold() for name in (*reserved, *EXCEL_RESERVED_SHEETS)}
    names = []
    for stem in stems:
        base = re.sub(r"[\[\]:*?/\\]", "_", stem).strip("'") or "scenario"
        candidate, n = base[:SHEET_NAME_LIMIT], 2
        while candidate.casefold() in taken:
            suffix = f"~{n}"
            candidate, n = base[: SHEET_NAME_LIMIT - len(suffix)] + suffix, n + 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


def build_workbook(results: Sequence[Result], *, comparison: bool, sheet_stems: Sequence[str]):
    """The workbook of :func:`write_workbook`, in memory (its ``save(path)`` writes it)."""
    workbook = Book()
    cells = [ScenarioCells(suffix=f"_{i}" if comparison else "", number=i) for i in range(1, len(results) + 1)]
    tables = [table_title(k, comparison) for k in range(1, len(results) + 1)]  # (where a table is used)
    cashflow_sheets = sheet_names(sheet_stems, (*FIXED_SHEETS, *tables)) if comparison else [CASHFLOW_SHEET]
    if comparison:
        summary = workbook.create_sheet(SUMMARY_SHEET)
    inputs_sheet(workbook, results, cells, comparison)
    for result, cell, name in zip(results, cells, cashflow_sheets, strict=True):
        cell.sheet = name
        cashflow_sheet(workbook, result, cell)
    phase_tests_sheet(workbook, results, cells, comparison)
    if comparison:
        summary_sheet(summary, results, cells)
    labels = [r.name for r in results] if comparison else None
    checks_sheet(workbook, results, labels, cells)
    by_tax_sheet(workbook, results, labels, cells)
    clawback_sheet(workbook, results, labels)
    warnings_sheet(workbook, results, labels)
    for cell in cells:
        for name in ("pv_benefits", "pv_credits", "ratio", "threshold", "passes", *RESULT_NAMES):
            if getattr(cell, name):
                define_name(workbook, f"{name}{cell.suffix}", cell.sheet, getattr(cell, name))
    mark_live_inputs(workbook, cells)
    round_trip_sheet(workbook, cells)  # last: what the reader reads back (Scenario.from_excel)
    # (no cached values: the workbook asks for every formula to be computed on opening, see Book.save)
    return workbook
