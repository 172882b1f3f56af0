"""A scenario read back from a workbook netbenefit wrote (:meth:`Scenario.from_excel`, and
:func:`load_scenario` of an ``.xlsx`` file): what an economist edits in Excel comes back as a
scenario (docs/workbook.md, "The round trip").

The workbook's **Round trip** sheet (:mod:`netbenefit.model.scenario.workbook_form`) lists every
key of each scenario with the name of its cell or row; the reader checks that each name still
refers where it was written (a name deleted, or a cell, row or column inserted into what a name
covers, is refused: the structure was changed), reads the cells, and builds the plain data a
scenario file would hold: a key the scenario gave, and a key left to its default whose cell now
holds another value. That data goes through the same strict loader as a YAML file
(:meth:`Scenario.from_dict`): the same validation, each problem naming the cell and the key
(``book.xlsx: Inputs!jobs_median_salary (jobs.median_salary): must be a number``), the same
plausibility warnings when evaluated. A value typed over a cell that holds a formula is named in a
warning (:class:`OverwrittenFormulaWarning`) and ignored: the scenario is its inputs alone.
"""

from __future__ import annotations

import csv
import io
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import ScenarioError
from ...io.workbook_file import MAX_SHEET_ROWS, WorkbookFile, open_workbook
from ..plausibility import PlausibilityWarning
from .cell_values import csv_cell, empty, is_formula, key_field, listed, parents, put, same, typed
from .csv_files import MULTIPLIER_COLUMNS
from .format import Scenario
from .paths import MISSING, plain
from .problems import short_repr
from .shared import covered
from .workbook_form import (
    COLUMNS,
    DEFAULT,
    FORMAT_VERSION,
    GIVEN,
    HEAD_ROWS,
    HEADER_ROW,
    INPUTS_BY_YEAR_SHEET,
    INPUTS_SHEET,
    KEY_COLUMN,
    MARK,
    ROUND_TRIP_SHEET,
    VALUE_COLUMN,
    Kind,
    column_letters,
    joined,
    positions_of,
    range_positions,
    same_shown,
)

#: The most columns of the Round trip sheet read (a value recorded in parts runs across them).
RECORD_COLUMNS = 64  # not a statutory number: 57 parts of 32,000 characters, past the file's bound
#: The most cells of a sheet the list of its formula cells may name.
FORMULA_CELLS_LIMIT = 5_000_000  # not a statutory number: 1,000 project years by 4,096 columns, and more
#: Cells named in a warning of formulas typed over, at most (then how many more).
CELLS_NAMED = 8  # not a statutory number: a warning stays one readable line
#: Said of a workbook netbenefit did not write (or wrote before the round trip).
NOT_NETBENEFITS = (
    "not a workbook written by netbenefit (only one that netbenefit wrote, as edited, is read back: "
    "Result.to_excel, netbenefit compare)"
)


class OverwrittenFormulaWarning(PlausibilityWarning):
    """A value typed over a cell of a workbook that holds a formula: ignored when the scenario is read back."""


@dataclass(frozen=True)
class Entry:
    """One row of the Round trip sheet."""

    row: int
    scenario: int
    key: str
    name: str
    refers_to: str  # Sheet!A1 or Sheet!A1:B1, as written
    given: bool
    kind: str
    value: tuple  # the texts of the parts of a recorded value

    @property
    def sheet(self) -> str:
        return self.refers_to.rsplit("!", 1)[0]

    @property
    def reference(self) -> str:
        return self.refers_to.rsplit("!", 1)[-1]

    def recorded(self, source: str) -> Any:
        try:
            return joined(self.value)
        except ValueError:
            raise _malformed(source, self.row, "its value cannot be read") from None


def read_workbook(path: str | Path, scenario: int | None = None) -> Scenario:
    """The scenario ``scenario`` (1, 2...; None: the workbook's only one) of the workbook ``path``.
    Raises ScenarioError; warns (OverwrittenFormulaWarning) of formulas typed over."""
    path = Path(path)
    source = str(path)
    if scenario is not None and (isinstance(scenario, bool) or not isinstance(scenario, int)):
        raise ScenarioError(source, "", f"scenario= is a whole number from 1 (got {short_repr(scenario)})")
    book = open_workbook(path, source)
    count, entries = _record(book, source)
    chosen = _chosen(count, scenario, source)
    mine = [entry for entry in entries if entry.scenario == chosen and entry.kind != Kind.FORMULAS]
    _check_names(book, mine, source)
    reader = _Reader(book, source, mine)
    reader.check_layout()
    data, held = reader.data()
    places = {entry.key: reader.place(entry.key) for entry in mine}
    try:
        built = Scenario.from_dict(data, source=source, base_dir=path.parent, held_files=held, places=places)
    except ScenarioError as error:
        (key, problem), *more = [(reader.place(key), empty(problem)) for key, problem in error.problems]
        raise ScenarioError(error.source, key, problem, more=more) from None
    sheets = [entry for entry in entries if entry.kind == Kind.FORMULAS and entry.scenario in (0, chosen)]
    typed_over = reader.typed_over + _typed_over(book, sheets, source)
    if typed_over:
        shown = ", ".join(typed_over[:CELLS_NAMED]) + (
            f" and {len(typed_over) - CELLS_NAMED:,} more" if len(typed_over) > CELLS_NAMED else ""
        )
        warnings.warn(
            OverwrittenFormulaWarning(
                f"{source}: a value is typed over the formula of {shown}: ignored; the scenario is rebuilt from "
                "the input cells alone, and netbenefit computes every figure from them"
            ),
            stacklevel=3,
        )
    return built


# -- the Round trip sheet ------------------------------------------------------------------------


def _malformed(source: str, row: int, problem: str) -> ScenarioError:
    return ScenarioError(
        source,
        f"{_quoted(ROUND_TRIP_SHEET)}!A{row}",
        f"{problem}: the sheet is not as netbenefit wrote it; write the workbook again",
    )


def _record(book: WorkbookFile, source: str) -> tuple[int, list[Entry]]:
    """The number of scenarios and the rows of the Round trip sheet."""
    if ROUND_TRIP_SHEET not in book.titles:
        raise ScenarioError(source, "", f"{NOT_NETBENEFITS}: it has no sheet {ROUND_TRIP_SHEET!r}")
    cells = book.cells(ROUND_TRIP_SHEET, MAX_SHEET_ROWS, RECORD_COLUMNS)
    mark_row, count_row = HEAD_ROWS["mark"], HEAD_ROWS["scenarios"]
    if cells.get((mark_row, 1)) != MARK:
        raise ScenarioError(
            source, "", f"{NOT_NETBENEFITS}: its sheet {ROUND_TRIP_SHEET!r} does not start with {MARK!r}"
        )
    version = cells.get((mark_row, 2))
    if version != FORMAT_VERSION:
        raise ScenarioError(
            source,
            "",
            f"its sheet {ROUND_TRIP_SHEET!r} is of form {short_repr(version)}; this netbenefit reads form "
            f"{FORMAT_VERSION} (write the workbook again with this version)",
        )
    count = cells.get((count_row, 2))
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise _malformed(source, count_row, "the number of scenarios is missing")
    entries = []
    last = max((row for row, _ in cells), default=0)
    for row in range(HEADER_ROW + 1, last + 1):
        line = [cells.get((row, column)) for column in range(1, len(COLUMNS))]
        if all(value is None for value in line):
            continue
        number, key, name, refers_to, given, kind = line
        ok = (
            isinstance(number, int)
            and not isinstance(number, bool)
            and 0 <= number <= count
            and isinstance(key, str)
            and kind in Kind.ALL
            and (kind == Kind.FORMULAS or (isinstance(name, str) and isinstance(refers_to, str) and "!" in refers_to))
            and given in (GIVEN, DEFAULT, None)
        )
        if not ok:
            raise _malformed(source, row, "a row of keys cannot be read")
        parts = [cells.get((row, column)) for column in range(VALUE_COLUMN, RECORD_COLUMNS + 1)]
        while parts and parts[-1] is None:
            parts.pop()
        entries.append(Entry(row, number, key, name or "", refers_to or "", given == GIVEN, kind, tuple(parts)))
    return count, entries


def _chosen(count: int, scenario: int | None, source: str) -> int:
    if scenario is None:
        if count > 1:
            raise ScenarioError(
                source,
                "",
                f"a comparison workbook of {count} scenarios (names suffixed _1 to _{count}): choose one with "
                "--scenario N on the command line (scenario=N in Python)",
            )
        return 1
    if not 1 <= scenario <= count:
        held = "one scenario" if count == 1 else f"{count} scenarios (1 to {count})"
        raise ScenarioError(source, "", f"has no scenario {scenario}: it holds {held}")
    return scenario


def _check_names(book: WorkbookFile, entries: list[Entry], source: str) -> None:
    """Every name of the record still defined, and referring where the workbook wrote it."""
    problems = []
    for entry in entries:
        found = book.names.get(entry.name)
        where = f"{_quoted(entry.sheet)}!{entry.name} ({entry.key})"
        if found is None:
            problems.append(
                (
                    where,
                    "the named cell is missing (its name, row or sheet was deleted): the workbook's structure was "
                    "changed; edit the values of its input cells only, or write the workbook again",
                )
            )
        elif found != (entry.sheet, entry.reference):
            problems.append(
                (
                    where,
                    f"the name refers to {_quoted(found[0])}!{found[1]}, where the workbook wrote "
                    f"{_quoted(entry.sheet)}!{entry.reference}: its structure was changed (a cell, row or column "
                    "inserted or deleted); undo the change, or write the workbook again",
                )
            )
    if problems:
        (key, problem), *more = problems
        if more:
            problem += f" (and {len(more)} more names)"
        raise ScenarioError(source, key, problem)


def _quoted(sheet: str) -> str:
    return sheet if sheet.replace("_", "").isalnum() else "'" + sheet.replace("'", "''") + "'"


# -- the cells, as a scenario file's data -----------------------------------------------------------


class _Reader:
    """The cells of one scenario's entries, and the plain data they make."""

    def __init__(self, book: WorkbookFile, source: str, entries: list[Entry]) -> None:
        self.book, self.source, self.entries = book, source, entries
        self.by_key = {entry.key: entry for entry in entries}
        self.typed_over: list[str] = []
        self.shared: set[str] = set()  # the keys of a later phase that shared stands for
        self._cells: dict[tuple[str, bool], dict[tuple[int, int], Any]] = {}
        extent: dict[str, tuple[int, int]] = {}
        for entry in entries:
            span = range_positions(entry.reference)
            if span is None:
                raise _malformed(source, entry.row, f"{entry.refers_to!r} is not a cell or a row of cells")
            (_, _), (row, column) = span
            rows, columns = extent.get(entry.sheet, (0, 0))
            extent[entry.sheet] = (max(rows, row), max(columns, column + (1 if entry.kind == Kind.TABLE else 0)))
        self.extent = extent

    def cells(self, sheet: str, values: bool = False) -> dict[tuple[int, int], Any]:
        """The cells of ``sheet`` that the entries cover, and its column of keys or names: what each
        holds, or (``values``) the value saved for a formula."""
        if (sheet, values) not in self._cells:
            rows, columns = self.extent[sheet]
            self._cells[(sheet, values)] = self.book.cells(sheet, rows, max(columns, KEY_COLUMN), values=values)
        return self._cells[(sheet, values)]

    def value(self, entry: Entry, position: tuple[int, int], key: str) -> Any:
        """What the cell at ``position`` of the entry's sheet holds: its value, or for a formula (a
        value typed as ``=...``, a flag saved by LibreOffice as ``=TRUE()``) the value saved for it."""
        held = self.cells(entry.sheet).get(position)
        if is_formula(held):
            held = self.cells(entry.sheet, values=True).get(position)
            if held is None:
                raise ScenarioError(
                    self.source,
                    self.place(key),
                    "holds a formula with no value saved: type the value, or open and save the workbook in a "
                    "spreadsheet program (which computes it)",
                )
        return held

    def data(self) -> tuple[dict, dict[str, tuple[str, str]]]:
        """The plain data of a scenario file, and the files held in memory (the multiplier table)."""
        data: dict = {}
        held: dict[str, tuple[str, str]] = {}
        shared = self.shared = covered(
            tuple(
                self.read(entry)
                for entry in self.entries
                if entry.key.startswith("shared.") and entry.kind == Kind.CELL
            )
        )
        for entry in self.entries:
            segments = entry.key.split(".")
            if entry.kind == Kind.TABLE:
                held[entry.key] = (f"the sheet {entry.sheet!r}", self.table(entry))
                continue
            if entry.kind == Kind.RECORD:
                continue
            if entry.kind == Kind.SHARED and ".".join(segments[2:]) in shared:
                if not is_formula(self.cells(entry.sheet).get(range_positions(entry.reference)[0])):
                    self.typed_over.append(self.place(entry.key))  # ignored: the phases share one value
                continue  # the initial phase's, written once (Scenario.to_dict)
            parents(data, segments)
            value = self.read(entry)
            default = key_field(Scenario, segments)[1]
            if entry.given or default is MISSING or not same(value, plain(default)) or segments[-1] == "by_year":
                put(data, segments, value)
        return listed(data, Scenario), held

    def read(self, entry: Entry) -> Any:
        """The value of one entry: the cell (or row) as the key's type reads it."""
        (first, column), (_, last) = range_positions(entry.reference)
        annotation = key_field(Scenario, entry.key.split("."))[0]
        if entry.kind == Kind.YEARS:
            amounts = {}
            for year, c in enumerate(range(column, last + 1)):
                value = self.value(entry, (first, c), f"{entry.key}.{year}")
                if value is not None:
                    amounts[year] = typed(value, float)
            return amounts
        if entry.kind == Kind.LIST:
            return [
                typed(self.value(entry, (first, c), f"{entry.key}.{k}"), float)
                for k, c in enumerate(range(column, last + 1))
            ]
        raw = self.cells(entry.sheet).get((first, column))
        if entry.kind in (Kind.FORMULA, Kind.FORMULA_OR_VALUE) and (is_formula(raw) or entry.kind == Kind.FORMULA):
            if not is_formula(raw):
                self.typed_over.append(self.place(entry.key))
            return entry.recorded(self.source)
        value = self.value(entry, (first, column), entry.key)
        if entry.kind == Kind.TEXT:
            text = entry.recorded(self.source)
            if isinstance(value, str) and same_shown(value, text):
                return text
        return typed(value, annotation)

    def table(self, entry: Entry) -> str:
        """The multiplier table's sheet as the CSV text of its file (its rows, the five columns)."""
        (first, _), (last, _) = range_positions(entry.reference)
        cells = self.cells(entry.sheet, values=True)
        lines = io.StringIO()
        writer = csv.writer(lines, lineterminator="\n")
        writer.writerow(MULTIPLIER_COLUMNS)
        for row in range(first, last + 1):
            writer.writerow([csv_cell(cells.get((row, column))) for column in range(1, len(MULTIPLIER_COLUMNS) + 1)])
        return lines.getvalue()

    def check_layout(self) -> None:
        """Each input's row still holds its key (Inputs) or its name (Inputs by year), and each list
        by year still lies under its years' headers: a sheet edited by a program that moves cells
        without moving the names (a row or column inserted) is refused, not read askew."""
        for entry in self.entries:
            if entry.kind in (Kind.TABLE,) or entry.sheet not in (INPUTS_SHEET, INPUTS_BY_YEAR_SHEET):
                continue
            (row, column), (_, last) = range_positions(entry.reference)
            wanted = entry.key if entry.sheet == INPUTS_SHEET else entry.name
            found = self.cells(entry.sheet).get((row, KEY_COLUMN))
            problem = None
            if found != wanted:
                problem = f"row {row} holds {short_repr(found)} where the workbook wrote {wanted!r}"
            elif entry.kind in (Kind.YEARS, Kind.LIST):
                start = 0 if entry.kind == Kind.YEARS else 1
                headers = self.cells(entry.sheet)
                for k, c in enumerate(range(column, last + 1)):
                    if headers.get((1, c)) != f"Year {start + k}":
                        problem = f"column {column_letters(c)} is not headed Year {start + k}"
                        break
            if problem is not None:
                raise ScenarioError(
                    self.source,
                    self.place(entry.key),
                    f"{problem}: the sheet's structure was changed (a row, column or cell inserted or deleted); "
                    "undo the change, or write the workbook again",
                )

    def place(self, key: str) -> str:
        """Where a key's value is in the workbook, as an error names it: ``Inputs!jobs_new (jobs.new)``,
        ``'Inputs by year'!F7 (capital_investment.2)``; a block of keys by its sheet (``Inputs (award)``)."""
        if not key:
            return key
        entry = self.by_key.get(key)
        if entry is not None:
            return f"{_quoted(entry.sheet)}!{entry.name} ({key})"
        parent, _, item = key.rpartition(".")
        entry = self.by_key.get(parent)
        if entry is not None and entry.kind in (Kind.YEARS, Kind.LIST) and item.isdigit():
            (row, column), _ = range_positions(entry.reference)
            return f"{_quoted(entry.sheet)}!{column_letters(column + int(item))}{row} ({key})"
        if any(other.startswith(key + ".") for other in self.by_key):
            return f"{INPUTS_SHEET} ({key})"
        return key


def _typed_over(book: WorkbookFile, sheets: list[Entry], source: str) -> list[str]:
    """The cells of the FORMULAS entries that no longer hold a formula, named (with their workbook
    name where they have one)."""
    names = {(sheet, reference): name for name, (sheet, reference) in book.names.items()}
    found = []
    for entry in sheets:
        if entry.key not in book.titles:
            continue  # (a sheet removed: its names, if read, are refused; its figures are not read)
        try:
            runs = positions_of(str(entry.recorded(source)), FORMULA_CELLS_LIMIT)
        except ValueError:
            raise _malformed(source, entry.row, "its list of formula cells cannot be read") from None
        if not runs:
            continue
        rows = max(last for _, _, last in runs)
        columns = max(column for column, _, _ in runs)
        cells = book.cells(entry.key, rows, columns)
        for row, column in ((row, column) for column, first, last in runs for row in range(first, last + 1)):
            if not is_formula(cells.get((row, column))):
                reference = f"{column_letters(column)}{row}"
                name = names.get((entry.key, reference))
                found.append(f"{_quoted(entry.key)}!{reference}" + (f" ({name})" if name else ""))
    return found
