"""The CSV files a scenario names: a stream's ``from_csv`` (``year,amount``) and the multiplier
table (``revenue.multiplier_table``), each read through the one rule of named files
(:mod:`netbenefit.io.named_files`) and strictly: every problem names the file and the line."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import ScenarioError
from ...io.named_files import csv_number, read_named_file
from ...io.text_rule import refused_character
from .limits import MAX_YEARS
from .problems import short_repr

if TYPE_CHECKING:
    from .format import Scenario

def read_csv_streams(data: dict, source: str, base: Path, problems: list | None = None) -> dict:
    """Replace each stream's ``from_csv`` by the ``by_year`` values its CSV holds.

    ``problems``: a list to which each stream's problem is added as ``(key, problem)`` (the stream
    then holds no amount, so that the file's other problems are told in the same run); None: the
    first problem raises ScenarioError.
    """
    if "streams" in data:  # streams: null is a value of the wrong kind, refused as such (not "none given")
        data["streams"] = _csv_stream_list(data["streams"], "streams", source, base, problems)
    phases = data.get("phases")
    if isinstance(phases, list | tuple):
        data["phases"] = [
            {**phase, "streams": _csv_stream_list(phase.get("streams"), f"phases.{i}.streams", source, base, problems)}
            if isinstance(phase, Mapping) and "streams" in phase
            else phase
            for i, phase in enumerate(phases)
        ]
    return data


def _csv_stream_list(streams: Any, key: str, source: str, base: Path, problems: list | None) -> Any:
    if not isinstance(streams, list | tuple):
        return streams
    resolved = []
    for i, stream in enumerate(streams):
        if isinstance(stream, Mapping):
            try:
                stream = _csv_stream(stream, f"{key}.{i}", source, base)
            except ScenarioError as error:
                if problems is None:
                    raise
                problems.append((error.key, error.problem))
                stream = {name: value for name, value in stream.items() if name not in ("from_csv", "by_year")}
                stream["by_year"] = {}  # told above; nothing more to say of its amounts
        resolved.append(stream)
    return resolved


def _csv_stream(stream: Mapping, key: str, source: str, base: Path) -> Mapping:
    has_csv = stream.get("from_csv") is not None
    has_years = "by_year" in stream
    if has_csv and has_years:
        raise ScenarioError(source, key, "give by_year or from_csv, not both")
    if not has_csv and not has_years:
        raise ScenarioError(source, key, "a stream needs by_year or from_csv")
    if has_csv:
        stream = {**stream, "by_year": read_stream_csv(stream["from_csv"], base, source, f"{key}.from_csv")}
    return stream


def read_stream_csv(name: Any, base: Path, source: str, key: str) -> dict[int, float]:
    """Read a stream CSV (header ``year,amount``) into ``{year: amount}``. Raises ScenarioError."""
    path, text = read_named_file(name, base, source, key, "the scenario file's folder")
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise ScenarioError(source, key, f"cannot read CSV file {path}: {error}") from None
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if not rows or [cell.strip().lower() for cell in rows[0]] != ["year", "amount"]:
        raise ScenarioError(source, key, f"{path}: the first line must be the header year,amount")
    values: dict[int, float] = {}
    for line, row in enumerate(rows[1:], start=2):
        where = f"{path} line {line}"
        if len(row) != 2:
            raise ScenarioError(source, key, f"{where}: expected 2 cells (year,amount), got {len(row)}")
        year_text, amount_text = (cell.strip() for cell in row)
        whole = year_text.isascii() and year_text.isdigit() and len(year_text.lstrip("0")) <= len(str(MAX_YEARS))
        if not whole or not 0 <= int(year_text) <= MAX_YEARS:  # 0: the approval year, docs/model.md#timeline
            raise ScenarioError(
                source, key, f"{where}: year must be a whole number from 0 to {MAX_YEARS}, got {short_repr(year_text)}"
            )
        try:
            amount = csv_number(amount_text)
        except ValueError:
            raise ScenarioError(
                source, key, f"{where}: amount must be a number, got {short_repr(amount_text)}"
            ) from None
        if not math.isfinite(amount) or amount < 0:
            raise ScenarioError(
                source, key, f"{where}: amount must be a finite number >= 0, got {short_repr(amount_text)}"
            )
        year = int(year_text)
        if year in values:
            raise ScenarioError(source, key, f"{where}: year {year} appears twice")
        values[year] = amount
    if not values:
        raise ScenarioError(source, key, f"{path}: the CSV has a header but no rows")
    return values


#: Columns of a multiplier table (docs/scenario-format.md, "Multiplier tables").
MULTIPLIER_COLUMNS = (
    "naics",
    "earnings_multiplier",
    "employment_multiplier",
    "construction_earnings_multiplier",
    "source",
)


def read_multiplier_table(
    scenario: Scenario, base: Path, source: str, held: tuple[str, str] | None = None
) -> dict[str, Any]:
    """The row of ``revenue.multiplier_table`` for ``business.naics``. Raises ScenarioError.

    The CSV has the header ``naics, earnings_multiplier, employment_multiplier,
    construction_earnings_multiplier, source``; every multiplier is a number >= 1 (total / direct).
    It is read strictly: a column named twice, a row whose cells do not match the header, or a
    NAICS code listed twice is an error naming the line (no first or last one silently wins).
    ``held``: (where, CSV text) of a table held in memory in place of the file (a workbook's
    Multiplier table sheet, read back), read by the same rules.
    """
    key = "revenue.multiplier_table"
    path, text = held or read_named_file(
        scenario.revenue.multiplier_table, base, source, key, "the scenario file's folder"
    )
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        rows = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as error:
        raise ScenarioError(source, key, f"cannot read CSV file {path}: {error}") from None
    header_line, header = (rows[0][0], [cell.strip().lower() for cell in rows[0][1]]) if rows else (1, [])
    for i, column in enumerate(header):
        if column in header[:i]:
            raise ScenarioError(source, key, f"{path} line {header_line}: column {short_repr(column)} appears twice")
    missing = [column for column in MULTIPLIER_COLUMNS if column not in header]
    if missing:
        raise ScenarioError(
            source, key, f"{path}: missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        )
    naics, chosen, seen = scenario.business.naics, None, {}
    for line, row in rows[1:]:
        if len(row) != len(header):
            raise ScenarioError(
                source, key, f"{path} line {line}: expected {len(header)} cells (as the header), got {len(row)}"
            )
        cells = dict(zip(header, (cell.strip() for cell in row), strict=True))
        code = cells["naics"]
        if code in seen:
            twice = f"NAICS code {short_repr(code)} is listed twice (lines {seen[code]} and {line})"
            raise ScenarioError(source, key, f"{path} line {line}: {twice}")
        seen[code] = line
        if code == naics:
            chosen = (line, cells)
    if chosen is None:
        raise ScenarioError(source, "business.naics", f"NAICS code {naics!r} is not in the multiplier table {path}")
    line, cells = chosen
    values: dict[str, Any] = {"naics": naics, "source": cells.get("source", "")}
    problem = refused_character(values["source"])
    if problem is not None:
        raise ScenarioError(source, key, f"{path} line {line}: source {problem}")
    for column in MULTIPLIER_COLUMNS[1:4]:
        try:
            value = csv_number(cells[column])
        except ValueError:
            raise ScenarioError(
                source, key, f"{path} line {line}: {column} must be a number, got {short_repr(cells[column])}"
            ) from None
        if not math.isfinite(value) or value < 1:
            raise ScenarioError(
                source,
                key,
                f"{path} line {line}: {column} must be a number >= 1 (total / direct), got {short_repr(cells[column])}",
            )
        values[column] = value
    return values


def multiplier_table_rows(scenario: Scenario) -> list[dict[str, str]]:
    """Every row of the scenario's ``revenue.multiplier_table`` as written (column -> text), for a
    view that shows the whole table (the workbook's Multiplier table sheet); [] without a table.
    The file is read as :func:`read_multiplier_table` reads it (the one rule of named files), or held
    in memory (a scenario read back from a workbook)."""
    if scenario.revenue is None or scenario.revenue.multiplier_table is None:
        return []
    key = "revenue.multiplier_table"
    _, text = scenario.held_files.get(key) or read_named_file(
        scenario.revenue.multiplier_table, scenario.base_dir, scenario.source, key, "the scenario file's folder"
    )
    rows = [row for row in csv.reader(io.StringIO(text, newline="")) if any(cell.strip() for cell in row)]
    if not rows:
        return []
    header = [cell.strip().lower() for cell in rows[0]]
    return [dict(zip(header, (cell.strip() for cell in row), strict=False)) for row in rows[1:]]
