"""A workbook file read as hostile input: an ``.xlsx`` (a zip of XML parts) opened within bounds,
and the cells a reader asks for.

The file is held to the rule of every file netbenefit reads (a regular file of bounded size, read
once into memory) and, as an archive, to bounds of its own before any part is parsed: at most
:data:`MAX_WORKBOOK_MEMBERS` parts, at most :data:`MAX_WORKBOOK_UNPACKED_BYTES` once unpacked (a
zip bomb claims a small size and is cut there: Python's ``zipfile`` stops at the size a part
claims, and its checksum then fails). Every XML part is then read once as a stream through
defusedxml, which refuses entity declarations (the "billion laughs") and external references, and
every sheet is held to :data:`MAX_SHEET_ROWS` rows of at most :data:`MAX_SHEET_COLUMNS` cells and
must state its dimension (as every spreadsheet program writes it), before openpyxl (which parses
through defusedxml too) reads the parts. A sheet is read only up to the rows and columns asked
for. Every problem is one :class:`~netbenefit.errors.ScenarioError` naming the file.
"""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openpyxl
import openpyxl.xml
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from ..errors import ScenarioError

#: The largest workbook file read. [bytes]
MAX_WORKBOOK_BYTES = 16 * 1024 * 1024  # not a statutory number: a workbook of 1,000 years and 3 phases is 0.5 MB
#: The largest workbook once its parts are unpacked. [bytes]
MAX_WORKBOOK_UNPACKED_BYTES = 64 * 1024 * 1024  # not a statutory number: that workbook unpacks to 4.5 MB
#: The most parts a workbook archive may hold.
MAX_WORKBOOK_MEMBERS = 2_000  # not a statutory number: a comparison of 100 scenarios has about 120
#: The most rows and columns of a sheet a reader may ask for.
MAX_SHEET_ROWS = 200_000  # not a statutory number: 1,000 project years, 100 scenarios of keys
MAX_SHEET_COLUMNS = 4_096  # not a statutory number: 1,000 years of a list by year, 100 scenarios


@dataclass
class WorkbookFile:
    """An opened workbook: its sheets' titles, its workbook-wide names and the cells a reader asks for.

    ``names``: name -> (sheet title, reference without ``$``), for the names that refer to one
    range of one sheet; ``other_names``: the names that refer to anything else (a constant, a formula,
    several ranges), as written."""

    source: str
    data: bytes
    titles: list[str]
    names: dict[str, tuple[str, str]]
    other_names: dict[str, str]
    _books: dict[bool, Any] = field(default_factory=dict, repr=False)

    def cells(self, title: str, rows: int, columns: int, *, values: bool = False) -> dict[tuple[int, int], Any]:
        """The cells of the sheet ``title`` in its first ``rows`` rows and ``columns`` columns,
        (row, column) -> what it holds: a formula as its text (``=...``), or, with ``values``, the
        value a spreadsheet program computed and saved for it (None where none was saved). Empty
        cells are left out. Raises ScenarioError."""
        if title not in self.titles:
            raise ScenarioError(self.source, "", f"has no sheet {title!r}")
        if not (0 < rows <= MAX_SHEET_ROWS and 0 < columns <= MAX_SHEET_COLUMNS):
            raise ScenarioError(
                self.source, "", f"asks for {rows:,} rows and {columns:,} columns of the sheet {title!r}: too many"
            )
        sheet = self._book(values)[title]
        found: dict[tuple[int, int], Any] = {}
        with _refused(self.source):
            for r, row in enumerate(sheet.iter_rows(min_row=1, max_col=columns), start=1):
                if r > rows:  # (the rows are read in order: none after is parsed)
                    break
                for c, cell in enumerate(row, start=1):
                    value = getattr(cell, "value", None)
                    if value is not None:
                        found[(r, c)] = value
        return found

    def _book(self, values: bool):
        if values not in self._books:
            self._books[values] = _load(self.source, self.data, values)
        return self._books[values]


def open_workbook(path: str | Path, source: str) -> WorkbookFile:
    """Open the workbook ``path`` (``source``: how errors name it). Raises ScenarioError for a file
    that is not a regular file of at most MAX_WORKBOOK_BYTES, not an .xlsx archive, over the bounds
    of one, or a workbook openpyxl cannot read."""
    data = _read(Path(path), source)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ScenarioError(source, "", "not an Excel workbook (.xlsx): the file is not a zip archive") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_WORKBOOK_MEMBERS:
            limit = f"at most {MAX_WORKBOOK_MEMBERS:,}"
            raise ScenarioError(source, "", f"not a workbook netbenefit reads: {len(members):,} parts ({limit})")
        unpacked = sum(member.file_size for member in members)
        if unpacked > MAX_WORKBOOK_UNPACKED_BYTES:
            raise ScenarioError(
                source,
                "",
                f"not a workbook netbenefit reads: {unpacked:,} bytes once unpacked "
                f"(at most {MAX_WORKBOOK_UNPACKED_BYTES // (1024 * 1024)} MiB; a zip bomb?)",
            )
        if "xl/workbook.xml" not in {member.filename for member in members}:
            raise ScenarioError(source, "", "not an Excel workbook (.xlsx): the archive holds no xl/workbook.xml")
        for member in members:
            if member.filename.lower().endswith((".xml", ".rels")):
                _check_part(archive, member, source)
    book = _load(source, data, False)
    names: dict[str, tuple[str, str]] = {}
    other: dict[str, str] = {}
    with _refused(source):
        for name, defined in book.defined_names.items():
            destinations = list(defined.destinations) if defined.type == "RANGE" else []
            if len(destinations) == 1:
                sheet, reference = destinations[0]
                names[name] = (sheet, reference.replace("$", ""))
            else:
                other[name] = str(defined.attr_text)
        titles = list(book.sheetnames)
    workbook = WorkbookFile(source, data, titles, names, other)
    workbook._books[False] = book
    return workbook


#: The parts of an archive that are sheets.
_SHEET_PART = re.compile(r"^xl/worksheets/[^/]+\.xml$", re.IGNORECASE)


def _check_part(archive: zipfile.ZipFile, member: zipfile.ZipInfo, source: str) -> None:
    """Read one XML part as a stream in constant memory (each element dropped once read): no entity
    declaration or external reference (defusedxml), and a sheet within MAX_SHEET_ROWS rows of
    MAX_SHEET_COLUMNS cells that states its dimension before its cells. Raises ScenarioError."""
    sheet = bool(_SHEET_PART.match(member.filename))
    rows = cells = 0
    dimension = False
    open_elements: list = []
    refused = "not a workbook netbenefit reads"
    with _refused(source), archive.open(member) as stream:
        for event, element in iterparse(stream, events=("start", "end")):
            if event == "end":
                open_elements.pop()
                element.clear()
                if open_elements:
                    open_elements[-1].clear()  # (its children so far are read: none is kept)
                continue
            open_elements.append(element)
            if not sheet:
                continue
            tag = element.tag.rsplit("}", 1)[-1]
            if tag == "dimension":
                dimension = True
            elif tag == "sheetData" and not dimension:
                raise ScenarioError(source, "", f"{refused}: its part {member.filename} states no dimension")
            elif tag == "row":
                rows, cells = rows + 1, 0
                if rows > MAX_SHEET_ROWS:
                    raise ScenarioError(source, "", f"{refused}: a sheet of more than {MAX_SHEET_ROWS:,} rows")
            elif tag == "c":
                cells += 1
                if cells > MAX_SHEET_COLUMNS:
                    raise ScenarioError(source, "", f"{refused}: a row of more than {MAX_SHEET_COLUMNS:,} cells")


def _read(path: Path, source: str) -> bytes:
    """The bytes of a regular file of at most MAX_WORKBOOK_BYTES."""
    if "\x00" in str(path):
        raise ScenarioError(source, "", "the path of the file must not hold a NUL character (found \\x00)")
    try:
        status = path.stat()
    except FileNotFoundError:
        raise ScenarioError(source, "", "file not found") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or error
        raise ScenarioError(source, "", f"the file cannot be read ({reason})") from None
    if stat.S_ISDIR(status.st_mode):
        raise ScenarioError(source, "", "is a folder, not a workbook")
    if not stat.S_ISREG(status.st_mode):
        raise ScenarioError(source, "", "the file is not a regular file (a device, pipe or socket)")
    if status.st_size > MAX_WORKBOOK_BYTES:
        raise ScenarioError(source, "", f"the file is larger than {MAX_WORKBOOK_BYTES // (1024 * 1024)} MiB")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
        with os.fdopen(descriptor, "rb") as handle:
            data = handle.read(MAX_WORKBOOK_BYTES + 1)
    except OSError as error:
        raise ScenarioError(source, "", f"the file cannot be read ({error.strerror or error})") from None
    if len(data) > MAX_WORKBOOK_BYTES:
        raise ScenarioError(source, "", f"the file is larger than {MAX_WORKBOOK_BYTES // (1024 * 1024)} MiB")
    return data


def _load(source: str, data: bytes, values: bool):
    """The workbook opened read-only by openpyxl: formulas as their text, or (``values``) the values
    saved for them."""
    _check_defused(source)
    with _refused(source):
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=values, keep_links=False)


def _check_defused(source: str) -> None:
    """openpyxl parses through defusedxml (a dependency of netbenefit) unless told not to."""
    if not openpyxl.xml.DEFUSEDXML:
        raise ScenarioError(
            source,
            "",
            "cannot be read safely: openpyxl does not use defusedxml (is OPENPYXL_DEFUSEDXML set to False?)",
        )


class _refused:
    """Within the block, anything openpyxl or the XML parser raises on the file is one ScenarioError."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, traceback) -> bool:
        if error is None or isinstance(error, ScenarioError) or not isinstance(error, Exception):
            return False
        if isinstance(error, DefusedXmlException):
            problem = "holds an XML entity or document type declaration, refused (an XML entity attack?)"
        elif isinstance(error, RecursionError):
            problem = "cannot be read as an Excel workbook: its XML is nested too deeply"
        else:
            detail = " ".join(str(error).split())[:200]
            problem = f"cannot be read as an Excel workbook ({type(error).__name__}{': ' + detail if detail else ''})"
        raise ScenarioError(self.source, "", problem) from None
