"""The workbook held in memory (sheets of cells, workbook names) and its writing with XlsxWriter
(:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...io.writing import NO_DATE, source_date
from .layout import NUMBER_FORMAT


def row_column(coordinate: str) -> tuple[int, int]:
    """``B2`` or ``$B$2`` -> (2, 2): 1-based row and column."""
    from xlsxwriter.utility import xl_cell_to_rowcol

    row, column = xl_cell_to_rowcol(coordinate)
    return row + 1, column + 1


@dataclass(slots=True)
class Cell:
    """One cell of a :class:`Sheet`: a value (text, number, boolean, date) or a formula, and its look."""

    value: Any = None
    number_format: str = NUMBER_FORMAT
    formula: bool = False
    bold: bool = False
    header: bool = False  # wrapped text, top-aligned
    fill: str | None = None  # RGB of a solid fill


class Sheet:
    """A worksheet held in memory: its cells, column widths, frozen panes and data validations."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.cells: dict[tuple[int, int], Cell] = {}
        self.widths: dict[int, float] = {}  # 1-based column -> width [characters]
        self.freeze_panes: str | None = None  # the first cell that scrolls, e.g. B2
        self.validations: list[tuple[dict[str, Any], list[str]]] = []  # (XlsxWriter options, coordinates)
        self.max_row = self.max_column = 0

    def cell(self, row: int, column: int) -> Cell:
        cell = self.cells.get((row, column))
        if cell is None:
            cell = self.cells[(row, column)] = Cell()
            self.max_row, self.max_column = max(self.max_row, row), max(self.max_column, column)
        return cell

    def __getitem__(self, coordinate: str) -> Cell:
        return self.cell(*row_column(coordinate))

    def set_width(self, column: int | str, width: float) -> None:
        self.widths[column if isinstance(column, int) else row_column(f"{column}1")[1]] = width


class Book:
    """The workbook held in memory (sheets in order, workbook names); :meth:`save` writes it."""

    def __init__(self) -> None:
        self.sheets: dict[str, Sheet] = {}
        self.names: dict[str, str] = {}  # name -> absolute reference, e.g. 'Inputs'!$D$5
        self.plain_formulas: set[str] = set()  # formulas of FORMULA_FUNCTIONS only (scan_formulas)

    def scan_formulas(self) -> set[str]:
        """The words every formula reads (names, references' letters, texts' words), in one pass;
        the formulas made of :data:`FORMULA_FUNCTIONS` only are kept in :attr:`plain_formulas`, so
        that writing them skips the check of :func:`worksheet_class`."""
        words: set[str] = set()
        for sheet in self.sheets.values():
            texts = [cell.value for cell in sheet.cells.values() if cell.formula]
            if not texts:
                continue
            text = "\n".join(texts)  # one pass over the sheet's formulas (a newline is in none)
            words.update(_NAME.findall(text))
            if FORMULA_FUNCTIONS.issuperset(_FUNCTION_CALL.findall(text)):
                self.plain_formulas.update(t for t in texts if not t.startswith("{"))
            else:  # some formula of the sheet calls another function: formula by formula
                self.plain_formulas.update(
                    t
                    for t in texts
                    if FORMULA_FUNCTIONS.issuperset(_FUNCTION_CALL.findall(t)) and not t.startswith("{")
                )
        return words

    def create_sheet(self, title: str) -> Sheet:
        self.sheets[title] = sheet = Sheet(title)
        return sheet

    def __getitem__(self, title: str) -> Sheet:
        return self.sheets[title]

    def save(self, path: str | Path) -> None:
        """Write the ``.xlsx`` file with XlsxWriter. Formulas
        are written without a computed value and the workbook asks to be fully calculated on
        opening, so that every number a spreadsheet shows is one it computed."""
        import xlsxwriter

        options = {"strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False}
        options["in_memory"] = True  # the parts zipped from memory, not from temporary files
        book = xlsxwriter.Workbook(str(path), options)

        # No time of writing, so that the same results give the same file (SOURCE_DATE_EPOCH to set one)
        book.set_properties({"created": source_date() or dt.datetime(*NO_DATE, tzinfo=dt.UTC)})
        formats: dict[tuple, Any] = {}

        def look(cell: Cell):
            key = (cell.number_format, cell.bold, cell.header, cell.fill)
            if key not in formats:
                properties: dict[str, Any] = {}
                if cell.number_format != NUMBER_FORMAT:
                    properties["num_format"] = cell.number_format
                if cell.bold or cell.header:
                    properties["bold"] = True
                if cell.header:
                    properties.update(text_wrap=True, valign="top")
                if cell.fill:
                    properties.update(pattern=1, bg_color=f"#{cell.fill}")
                formats[key] = book.add_format(properties) if properties else None
            return formats[key]

        written_by = worksheet_class()
        for sheet in self.sheets.values():
            worksheet = book.add_worksheet(sheet.title, worksheet_class=written_by)
            worksheet.plain_formulas = self.plain_formulas
            for (row, column), cell in sheet.cells.items():
                r, c, value, cell_format = row - 1, column - 1, cell.value, look(cell)
                if cell.formula:
                    worksheet.write_formula(r, c, value, cell_format, "")  # "": no cached value
                elif value is None:
                    worksheet.write_blank(r, c, None, cell_format)
                elif isinstance(value, bool):
                    worksheet.write_boolean(r, c, value, cell_format)
                elif isinstance(value, int | float):
                    worksheet.write_number(r, c, value, cell_format)
                elif isinstance(value, dt.date):
                    worksheet.write_datetime(r, c, value, cell_format)
                else:
                    worksheet.write_string(r, c, value, cell_format)
            for column, width in sheet.widths.items():
                worksheet.set_column(column - 1, column - 1, width)
            if sheet.freeze_panes is not None:
                worksheet.freeze_panes(sheet.freeze_panes)
            for rule, coordinates in sheet.validations:
                for coordinate in coordinates:
                    worksheet.data_validation(f"{coordinate}:{coordinate}", rule)
        for name, reference in self.names.items():
            book.define_name(name, f"={reference}")
        book.close()


#: The functions the workbook's formulas use: none is one that XlsxWriter renames for Excel
#: (``_xlfn.`` prefixes of functions newer than Excel 2007).
FORMULA_FUNCTIONS = frozenset(
    {
        *("ABS", "AND", "COLUMNS", "EXP", "IF", "INDEX", "ISNUMBER", "LN", "MATCH", "MAX", "MIN", "NA"),
        *("NORMSDIST", "NOT"),
        *("OR", "POWER", "ROUNDUP", "SUM", "SUMPRODUCT", "TEXT", "VLOOKUP"),
    }
)


@functools.cache
def worksheet_class():
    """XlsxWriter's Worksheet, but that a formula made only of :data:`FORMULA_FUNCTIONS` is written
    as it is, without the 29 to 100+ renaming passes XlsxWriter makes over every formula (about
    40% of the time to write the workbook), which could change none of them.

    ``Worksheet._prepare_formula(formula, expand_future_functions=False)`` is XlsxWriter's private
    method (3.x) that ``write_formula`` calls on every formula; XlsxWriter offers no public way to
    skip its renaming. Being private, it may change in any release: pyproject.toml caps XlsxWriter
    to the major version tested (3), and tests/reports/test_workbook_xlsxwriter.py fails if the
    method's signature changes or the override stops being called. Without the override the
    workbook's bytes are the same, only slower to write.

    To remove it (should XlsxWriter change the method, or offer a public way): delete this function,
    ``Book.scan_formulas``'s ``plain_formulas`` and the ``worksheet_class=`` argument of
    ``add_worksheet`` in :meth:`Book.save`, and the tests of tests/reports/test_workbook_xlsxwriter.py."""
    from xlsxwriter.worksheet import Worksheet

    class _Worksheet(Worksheet):
        plain_formulas: set[str] = set()  # checked already (Book.scan_formulas)

        def _prepare_formula(self, formula, *args, **kwargs):
            if formula in self.plain_formulas or (
                set(_FUNCTION_CALL.findall(formula)) <= FORMULA_FUNCTIONS and not formula.startswith("{")
            ):
                return formula[1:] if formula.startswith("=") else formula
            return super()._prepare_formula(formula, *args, **kwargs)

    return _Worksheet


_FUNCTION_CALL = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_.]*+)\(")  # no backtracking in a word
#: A word of a formula that is not a function's name (no parenthesis follows it).
_NAME = re.compile(r"(?<![A-Za-z0-9_.\\])[A-Za-z_\\][A-Za-z0-9_.\\]*+(?!\()")
