"""What netbenefit's workbook and its reader agree on: the sheets a scenario is read back from, the
names of its input cells, and the **Round trip** sheet (docs/workbook.md, "The round trip").

The writer (:mod:`netbenefit.views.workbook`) puts every input of a scenario in a named cell of the
Inputs sheet or a named row of the Inputs by year sheet; the reader
(:mod:`netbenefit.model.scenario.from_workbook`) reads them back. The Round trip sheet tells the
reader what it cannot see in the cells themselves:

- its head: the mark of a netbenefit workbook, the version of this form, the number of scenarios;
- one row per key of each scenario: the key, the workbook name of its cell or row, where that name
  referred to when written (a name that refers elsewhere now, or no longer exists, means the
  structure was changed), whether the scenario gave the key or its default applies, and how the
  cell holds the value (:class:`Kind`); where the cell does not hold the scenario's value itself (a
  formula standing for it, a text a cell cannot hold exactly) the value follows in the row;
- one row per sheet listing the cells that hold formulas, so that a value typed over one is named.

Nothing here reads or writes a file: both sides import these names.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from ...io import safe_text

INPUTS_SHEET = "Inputs"
INPUTS_BY_YEAR_SHEET = "Inputs by year"
ROUND_TRIP_SHEET = "Round trip"
#: The column of the Inputs sheet that holds each row's key, and of the Inputs by year sheet that
#: holds each row's name; row 1 of the Inputs by year sheet heads each column of year t "Year t".
KEY_COLUMN = 2

#: The first cell of the Round trip sheet, and the version of this form beside it (B1).
MARK = "netbenefit workbook"
FORMAT_VERSION = 1
#: Rows of the Round trip sheet's head, their value in column B.
HEAD_ROWS = {"mark": 1, "scenarios": 2, "written_by": 3}
#: The header row of the table of keys; the keys follow it.
HEADER_ROW = 5
COLUMNS = ("Scenario", "Key", "Name", "Refers to", "Given", "Kind", "Value")
#: The column of the value (and of the further parts of a long value, in the columns after it).
VALUE_COLUMN = COLUMNS.index("Value") + 1

#: A scenario's key given in its file, or left to its default.
GIVEN, DEFAULT = "yes", "default"

#: Excel's limit on the length of a cell's text. [characters]
CELL_TEXT_LIMIT = 32767
#: The longest part of a value written across the Round trip sheet's cells. [characters]
PART_LENGTH = 32000  # under CELL_TEXT_LIMIT, with room for a leading quote


class Kind:
    """How the workbook holds a key's value (the Kind column of the Round trip sheet)."""

    #: The named cell holds the value.
    CELL = "cell"
    #: The named row holds amounts by year: its k-th cell is year k (an empty cell: no amount).
    YEARS = "years"
    #: The named row holds a list, from its first cell (the ramp from phase year 1).
    LIST = "list"
    #: The named cell is a formula standing for the value recorded beside it (a multiplier a table
    #: gives); a value typed over it is ignored, and named in a warning.
    FORMULA = "formula"
    #: The named cell is a formula standing for the value recorded beside it (the construction
    #: multiplier that follows the earnings multiplier); a value typed over it is the value.
    FORMULA_OR_VALUE = "formula or value"
    #: The named cell of a later phase is a formula of the key the phases share (``shared``): not
    #: read while ``shared`` lists it; read as a cell if the key is no longer shared.
    SHARED = "shared"
    #: The named cell shows a text no cell holds exactly (too long, a carriage return): the text is
    #: recorded beside it; a text typed in the cell replaces it.
    TEXT = "text"
    #: The named cell records where values came from (a stream's ``from_csv``): not read back,
    #: since the values are in the stream's row.
    RECORD = "record"
    #: The named range of the multiplier table's sheet (``revenue.multiplier_table``).
    TABLE = "table"
    #: The cells of a sheet that hold formulas (the key column holds the sheet's title).
    FORMULAS = "formulas"

    READ = (CELL, YEARS, LIST, FORMULA, FORMULA_OR_VALUE, SHARED, TEXT, RECORD, TABLE)
    ALL = (*READ, FORMULAS)


#: An item of a list by year: (the list's key, the year or item).
BY_YEAR_ITEM = re.compile(r"^((?:phases\.\d+\.)?(?:capital_investment|jobs\.ramp|streams\.\d+\.by_year))\.(\d+)$")


def input_name(key: str) -> str:
    """A dotted input key as a workbook name: dots as underscores (``phases.0.jobs.new`` ->
    ``phases_0_jobs_new``)."""
    return key.replace(".", "_")


def list_name(list_key: str) -> str:
    """The name of a list's row: ``capital_investment`` -> ``capital_investment_by_year``,
    ``jobs.ramp`` -> ``jobs_ramp``, ``streams.0.by_year`` -> ``streams_0_by_year``."""
    name = input_name(list_key)
    return f"{name}_by_year" if list_key.endswith("capital_investment") else name


#: The first bytes of a zip archive (an .xlsx file is one).
ZIP_MAGIC = b"PK\x03\x04"


def is_workbook_file(path: str | Path) -> bool:
    """Whether ``path`` names an Excel workbook: its name ends in ``.xlsx``, or the file starts as a
    zip archive does (a workbook renamed). A file that cannot be opened is not one (its reader says why)."""
    path = Path(path)
    if path.suffix.lower() == ".xlsx":
        return True
    try:  # opened without waiting (a pipe could wait forever), read only if a regular file
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(descriptor, "rb") as handle:
            return stat.S_ISREG(os.fstat(descriptor).st_mode) and handle.read(len(ZIP_MAGIC)) == ZIP_MAGIC
    except (OSError, ValueError):
        return False


# -- text in cells -------------------------------------------------------------------------------


def guarded(text: str) -> str:
    """A text as a cell holds it: a text that a spreadsheet would read as a formula gets a leading
    single quote (:func:`netbenefit.io.safe_text.cell`), and so does a text that starts with one, so
    that :func:`unguarded` gives every text back as it was."""
    if text.startswith(safe_text.FORMULA_GUARD):
        text = safe_text.FORMULA_GUARD + text
    return safe_text.cell(text)


def unguarded(text: str) -> str:
    """The text :func:`guarded` was given (a text typed in a spreadsheet, without a guard, as it is)."""
    guard = safe_text.FORMULA_GUARD
    if text.startswith(guard) and text[1:2] and text[1] in (*safe_text.FORMULA_STARTS, guard):
        return text[1:]
    return text


def exact_in_cell(text: str) -> bool:
    """Whether a cell holds ``text`` exactly: short enough, without a carriage return (which the
    file's XML turns into a line break) or a character a workbook cannot hold."""
    written = guarded(text)
    return len(written) <= CELL_TEXT_LIMIT and "\r" not in text and unguarded(written) == text


def shown(text: str) -> str:
    """What the cell of a text shows when no cell holds it exactly (its start), compared as
    :func:`same_shown` compares."""
    return guarded(text)[:CELL_TEXT_LIMIT]


def same_shown(cell: str, text: str) -> bool:
    """Whether ``cell`` still shows what :func:`shown` wrote for ``text``: the carriage returns as the
    file's XML or a spreadsheet program gives them back (or not at all), and the end of a text cut
    at the cell's limit as a program keeps it (LibreOffice drops a character or two there)."""

    def normal(value: str) -> str:
        return unguarded(value).replace("_x000D_", "").replace("\r", "")

    showing, written = normal(cell), normal(shown(text))
    if len(written) < len(normal(text)):  # cut at the limit: the start of the text, as long, less a few
        # (LibreOffice breaks such a text into lines of its own, and drops a character or two at its end)
        showing, full = showing.replace("\n", ""), normal(text).replace("\n", "")
        return full.startswith(showing) and len(showing) >= len(written.replace("\n", "")) - CUT_SLACK
    return showing == written


#: Characters a spreadsheet program may drop from a text cut at a cell's limit (the end of it).
CUT_SLACK = 8


def parts(value: object) -> list[str]:
    """A value recorded on the Round trip sheet, as the texts of consecutive cells: JSON, each
    underscore escaped (a workbook reads ``_x000D_`` as a character), cut in parts of PART_LENGTH."""
    text = json.dumps(value, ensure_ascii=True).replace("_", "\\u005f")
    return [text[k : k + PART_LENGTH] for k in range(0, len(text), PART_LENGTH)] or [""]


def joined(texts: Iterable[object]) -> object:
    """The value :func:`parts` recorded, from the texts of its cells. Raises ValueError."""
    text = "".join(unguarded(str(part)) for part in texts if part is not None)
    return json.loads(text)


# -- cells and ranges ----------------------------------------------------------------------------


def column_letters(index: int) -> str:
    """Excel's letters of the 1-based column ``index`` (1 -> A, 27 -> AA)."""
    letters = ""
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


_CELL = re.compile(r"^\$?([A-Z]{1,3})\$?([0-9]{1,7})$")


def cell_position(reference: str) -> tuple[int, int] | None:
    """``$D$5`` or ``D5`` -> (5, 4): 1-based row and column; None for anything else."""
    match = _CELL.match(reference)
    if match is None:
        return None
    column = 0
    for letter in match.group(1):
        column = column * 26 + ord(letter) - ord("A") + 1
    return int(match.group(2)), column


def range_positions(reference: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """``$D$5:$S$5`` (or one cell) -> ((first row, column), (last row, column)); None for anything else."""
    first, _, last = reference.partition(":")
    start, end = cell_position(first), cell_position(last or first)
    if start is None or end is None:
        return None
    return start, end


def formula_ranges(positions: Iterable[tuple[int, int]]) -> str:
    """The cells at ``positions`` (row, column) as ranges of runs down each column, space
    separated: ``B2:B17 B19 C2:C17``."""
    by_column: dict[int, list[int]] = {}
    for row, column in positions:
        by_column.setdefault(column, []).append(row)
    ranges = []
    for column in sorted(by_column):
        letters = column_letters(column)
        rows = sorted(by_column[column])
        start = previous = rows[0]
        for row in [*rows[1:], None]:
            if row is not None and row == previous + 1:
                previous = row
                continue
            ranges.append(f"{letters}{start}" + (f":{letters}{previous}" if previous != start else ""))
            if row is not None:
                start = previous = row
    return " ".join(ranges)


def positions_of(ranges: str, limit: int) -> list[tuple[int, int, int]]:
    """The runs of :func:`formula_ranges`' text: (column, first row, last row), at most ``limit``
    cells in all. Raises ValueError for a range it did not write, or more cells."""
    runs: list[tuple[int, int, int]] = []
    total = 0
    for item in ranges.split():
        span = range_positions(item)
        if span is None or span[0][1] != span[1][1] or span[1][0] < span[0][0]:
            raise ValueError(f"not a range of one column: {item!r}")
        (first, column), (last, _) = span
        total += last - first + 1
        if total > limit:
            raise ValueError(f"more than {limit:,} cells")
        runs.append((column, first, last))
    return runs
