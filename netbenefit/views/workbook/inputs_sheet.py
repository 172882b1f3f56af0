"""The Inputs sheet and the Inputs by year sheet: every input of a scenario in a cell named by its
key, the lists by year as named rows (:mod:`netbenefit.views.workbook`).

A scalar input ``jobs.median_salary`` is the cell named ``jobs_median_salary`` (dots as
underscores; a later phase's key keeps its prefix, ``phases_0_jobs_new``; a comparison suffixes
every name with the scenario's number, ``jobs_new_1``). A list by year is a named row of the
Inputs by year sheet over the years 0 to the horizon, read by ``INDEX``: ``capital_investment_by_year``,
``phases_0_capital_investment_by_year``, ``streams_0_by_year``, and ``jobs_ramp`` (the share of
phase year t in the column of year t, its last value held by the formulas).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...io.named_files import csv_number
from ...model.disclosures import applied_multipliers
from ...model.scenario.csv_files import multiplier_table_rows
from ...model.scenario.shared import covered
from ...model.scenario.workbook_form import BY_YEAR_ITEM, Kind, exact_in_cell, list_name
from .book import Book, Sheet
from .cells import (
    ScenarioCells,
    column_letter,
    define_name,
    fit_widths,
    header_row,
    input_name,
    put,
    put_formula,
    quote_sheetname,
)
from .layout import (
    INPUTS_BY_YEAR_SHEET,
    INPUTS_SHEET,
    LIVE_FILL,
    MAX_COLUMN_WIDTH,
    MONEY_FORMAT,
    WEIGHT_FORMAT,
    input_label,
)
from .model import input_rows

if TYPE_CHECKING:
    from ...model.result import Result

#: The first column of the years on the Inputs by year sheet (year 0).
FIRST_YEAR_COLUMN = 4


def shared_formula(key: str, suffix: str) -> str:
    """A later phase's key that the phases share, as a formula of the initial phase's cells
    (netbenefit.model.scenario.shared): its salary that of the initial phase in the phase's first
    project year, ``jobs_median_salary x (1 + jobs_salary_growth)^start_year``; its growth the initial phase's."""
    prefix = key.rsplit(".", 2)[0].replace(".", "_")  # phases_0
    if key.endswith("jobs.median_salary"):
        growth = f"POWER(1+jobs_salary_growth{suffix},{prefix}_start_year{suffix})"
        return f"=jobs_median_salary{suffix}*{growth}"
    return f"=jobs_salary_growth{suffix}"


def shared_note(key: str) -> str:
    """The note of a shared key's cell: what it follows."""
    if key.endswith("jobs.median_salary"):
        return "jobs_median_salary grown by jobs_salary_growth to the phase's start"
    return "jobs_salary_growth"


def scenario_lists(result: Result) -> dict[str, tuple[str, dict[int, float]]]:
    """Every list by year of the scenario, its key -> (kind, {year or phase year: value}): the
    capital investment and the ramp of every phase, and every stream's amounts."""
    scenario = result.scenario
    lists: dict[str, tuple[str, dict[int, float]]] = {}
    for prefix, phase in [("", scenario)] + [(f"phases.{i}.", p) for i, p in enumerate(scenario.phases)]:
        lists[f"{prefix}capital_investment"] = (
            "years",
            {int(y): float(v) for y, v in phase.capital_investment.items()},
        )
        lists[f"{prefix}jobs.ramp"] = ("ramp", {t: float(v) for t, v in enumerate(phase.jobs.ramp, start=1)})
        for j, stream in enumerate(phase.streams):
            lists[f"{prefix}streams.{j}.by_year"] = ("years", {int(y): float(v) for y, v in stream.by_year.items()})
    return lists


def inputs_sheet(workbook: Book, results: Sequence[Result], cells: Sequence[ScenarioCells], comparison: bool) -> None:
    """The Inputs sheet (one row per scalar input and per list, a value column per scenario), and
    the Inputs by year sheet; every input cell named, its name in ``cells``, and the scenario's
    rows of the Round trip sheet in ``cells`` (:mod:`netbenefit.model.scenario.workbook_form`)."""
    sheet = workbook.create_sheet(INPUTS_SHEET)
    per_scenario = []
    for result in results:
        rows: dict[str, tuple[object, bool]] = {}
        for key, value, given in input_rows(result.scenario):
            item = BY_YEAR_ITEM.match(key)
            if item is not None:
                list_key = item.group(1)
                rows[list_key] = (None, given or rows.get(list_key, (None, False))[1])
            else:
                rows[key] = (value, given)
        for list_key in scenario_lists(result):
            rows.setdefault(list_key, (None, False))
        per_scenario.append(rows)
    keys = list(dict.fromkeys(key for rows in per_scenario for key in rows))
    value_headers = [r.name for r in results] if comparison else ["Value"]
    extra = [] if comparison else ["Given in the scenario"]
    header_row(sheet, ["Input", "Key", "Unit", *value_headers, *extra, "Note"])
    first_value = 4
    note_column = first_value + len(results) + len(extra)
    list_rows = _by_year_sheet(workbook, results, cells, comparison)
    tables = [
        multiplier_table_sheet(workbook, result, cell, table_title(k, comparison))
        for k, (result, cell) in enumerate(zip(results, cells, strict=True), start=1)
    ]
    # The multipliers as applied (a table row, or the earnings multiplier standing for the
    # construction one), not the scenario's unused defaults (netbenefit.model.disclosures).
    writers = [
        _InputCells(workbook, result, cell, tables[k], comparison, note_column)
        for k, (result, cell) in enumerate(zip(results, cells, strict=True))
    ]
    for row, key in enumerate(keys, start=2):
        label, unit, number_format = input_label(key)
        put(sheet, row, 1, label)
        put(sheet, row, 2, key)
        put(sheet, row, 3, unit)
        for k, rows in enumerate(per_scenario):
            if key not in rows:
                continue
            value, given = rows[key]
            column = first_value + k
            if key in list_rows[k]:
                name, by_year_row, reference, kind = list_rows[k][key]
                put(sheet, row, column, f"by year: {INPUTS_BY_YEAR_SHEET}, row {by_year_row} ({name})")
                if not comparison:
                    put(sheet, row, first_value + 1, "yes" if given else "default")
                cells[k].record.append((key, name, reference, given, kind, None, False))
                continue
            writers[k].write(key, value, given, row, column, number_format)
        if key in ("discount_rate", "timing"):
            for k, cell in enumerate(cells):
                setattr(cell, key, f"{column_letter(first_value + k)}{row}")
            _validate(sheet, key, [f"{column_letter(first_value + k)}{row}" for k in range(len(cells))])
    fit_widths(sheet)
    sheet.set_width(note_column, MAX_COLUMN_WIDTH)
    sheet.freeze_panes = f"{column_letter(first_value)}2"


class _InputCells:
    """How one scenario's scalar inputs are written to its column of the Inputs sheet: a value, or a
    formula standing for it (a multiplier a table gives or the earnings multiplier stands for; a
    later phase's key the phases share), each cell named and recorded for the reader."""

    def __init__(
        self, workbook: Book, result: Result, cell: ScenarioCells, table: str | None, comparison: bool, note: int
    ):
        self.workbook, self.sheet = workbook, workbook[INPUTS_SHEET]
        self.scenario, self.cell, self.table = result.scenario, cell, table
        self.comparison, self.note_column = comparison, note
        self.applied = {f"revenue.{m.name}": m for m in applied_multipliers(result.scenario)}
        self.shared = covered(result.scenario.shared)

    def write(self, key: str, value, given: bool, row: int, column: int, number_format: str) -> None:
        sheet, cell, suffix = self.sheet, self.cell, self.cell.suffix
        multiplier = self.applied.get(key)
        derived = multiplier is not None and not multiplier.is_the_key
        follows_earnings = derived and multiplier.source.startswith("revenue.earnings_multiplier")
        multiplier_name = key.removeprefix("revenue.")
        phase_key = key.split(".", 2)[2] if key.startswith("phases.") else None
        shared = phase_key in self.shared
        recorded, kind = False, Kind.CELL
        if follows_earnings:  # not given apart: the cell follows the earnings multiplier's
            put_formula(sheet, row, column, f"=revenue_earnings_multiplier{suffix}", number_format)
            recorded, kind = True, Kind.FORMULA_OR_VALUE
        elif derived and self.table and multiplier_name in TABLE_MULTIPLIERS:  # looked up in the table
            put_formula(sheet, row, column, multiplier_lookup(self.table, multiplier_name, suffix), number_format)
            recorded, kind = True, Kind.FORMULA
        elif shared:  # a later phase's salary, or its growth, is the initial phase's (shared)
            put_formula(sheet, row, column, shared_formula(key, suffix), number_format)
            kind = Kind.SHARED
        elif isinstance(value, str) and not exact_in_cell(value):  # the full text on the Round trip sheet
            put(sheet, row, column, value, number_format)  # (cut at the cell's limit)
            recorded, kind = True, Kind.TEXT
        else:
            put(sheet, row, column, multiplier.value if derived else value, number_format)
            if key.endswith(".from_csv"):
                kind = Kind.RECORD  # where the stream's amounts came from: they are in its row
        if not self.comparison:
            mark = "shared" if shared else "applied" if derived else "yes" if given else "default"
            put(sheet, row, column + 1, mark)
        if derived:
            note = f"Applied: {multiplier.value:g} from {multiplier.source}"
            if not follows_earnings:  # a table row: netbenefit reads the table, not this key
                title = table_title(cell.number, self.comparison)
                note += (
                    f" (replaces the scenario's value: looked up in the sheet {title} "
                    "by business.naics; change the NAICS code, typed as text, or the table)"
                )
            put(sheet, row, self.note_column, note)
        elif shared:
            put(
                sheet,
                row,
                self.note_column,
                f"Every phase: the initial phase's, as shared lists it ({shared_note(key)})",
            )
        cell.names[key] = name = input_name(key) + suffix
        define_name(self.workbook, name, INPUTS_SHEET, f"{column_letter(column)}{row}")
        cell.positions[name] = (row, column)
        reference = f"{INPUTS_SHEET}!{column_letter(column)}{row}"
        cell.record.append((key, name, reference, given, kind, value, recorded))


def _by_year_sheet(
    workbook: Book, results: Sequence[Result], cells: Sequence[ScenarioCells], comparison: bool
) -> list[dict[str, tuple[str, int, str, str]]]:
    """The Inputs by year sheet: one named row per list of each scenario, over years 0 to the
    horizon (a ramp from its first item, phase year 1). Returns, per scenario, list key -> (name,
    row, the range as the Round trip sheet records it, its kind)."""
    sheet = workbook.create_sheet(INPUTS_BY_YEAR_SHEET)
    horizons = [int(result.computation.years[-1]) for result in results]
    header_row(sheet, ["Input", "Name", "Unit", *(f"Year {t}" for t in range(max(horizons) + 1))])
    row = 2
    rows: list[dict[str, tuple[str, int, str, str]]] = []
    for result, cell, horizon in zip(results, cells, horizons, strict=True):
        cell.horizon = horizon
        placed = {}
        for list_key, (kind, values) in scenario_lists(result).items():
            label, unit, _ = input_label(list_key)
            name = list_name(list_key) + cell.suffix
            put(sheet, row, 1, f"{result.name}: {label}" if comparison else label)
            put(sheet, row, 2, name)
            if kind == "ramp":
                put(sheet, row, 3, "share of the new jobs in place in phase year t (the last held)")
                first, last = FIRST_YEAR_COLUMN + 1, FIRST_YEAR_COLUMN + len(values)
                for t, value in values.items():
                    put(sheet, row, FIRST_YEAR_COLUMN + t, value, WEIGHT_FORMAT).fill = LIVE_FILL
            else:  # a year the scenario gives no amount is an empty cell (the formulas read 0)
                put(sheet, row, 3, f"{unit or 'USD'}, by phase year")
                first, last = FIRST_YEAR_COLUMN, FIRST_YEAR_COLUMN + horizon
                for t in range(horizon + 1):
                    put(sheet, row, FIRST_YEAR_COLUMN + t, values.get(t), MONEY_FORMAT).fill = LIVE_FILL
            reference = f"${column_letter(first)}${row}:${column_letter(last)}${row}"
            workbook.names[name] = f"{quote_sheetname(INPUTS_BY_YEAR_SHEET)}!{reference}"
            cell.by_year[list_key] = name
            span = f"{INPUTS_BY_YEAR_SHEET}!{column_letter(first)}{row}:{column_letter(last)}{row}"
            placed[list_key] = (name, row, span, Kind.LIST if kind == "ramp" else Kind.YEARS)
            row += 1
        rows.append(placed)
    fit_widths(sheet)
    sheet.freeze_panes = f"{column_letter(FIRST_YEAR_COLUMN)}2"
    return rows


def _validate(sheet: Sheet, key: str, coordinates: Sequence[str]) -> None:
    """Refuse an edit of a live cell that netbenefit would refuse: a rate of -1 or less, a timing
    other than end_of_year or mid_year."""
    if key == "timing":
        rule = {"validate": "list", "source": ["end_of_year", "mid_year"], "error_message": "end_of_year or mid_year"}
    else:
        rule = {"validate": "decimal", "criteria": ">", "value": -1}
        rule["error_message"] = "a decimal rate greater than -1 (0.06 for 6%)"
    sheet.validations.append(({**rule, "ignore_blank": False, "show_error": True}, list(coordinates)))


def mark_live_inputs(workbook: Book, cells: Sequence[ScenarioCells]) -> None:
    """Fill the input cells that a formula reads and say so in the Note column of the Inputs sheet;
    an input no formula reads says that it is the record of what netbenefit evaluated."""
    used = workbook.scan_formulas()
    sheet = workbook[INPUTS_SHEET]
    note_column = max(column for (row, column) in sheet.cells if row == 1)
    notes: dict[int, list[str]] = {}
    for cell in cells:
        for name, (row, column) in cell.positions.items():
            target = sheet.cells[(row, column)]
            if target.value is None and not target.formula:
                continue
            if name in used:
                target.fill = LIVE_FILL
                notes.setdefault(row, []).append(name)
            else:
                notes.setdefault(row, [])
    for row, names in notes.items():
        existing = sheet.cells.get((row, note_column))
        text = f"Live: the formulas read it ({', '.join(names)})" if names else _RECORD
        if existing is not None and existing.value:
            text = f"{existing.value}. {text}"
        put(sheet, row, note_column, text)


#: The note of an input that no formula reads.
_RECORD = "Record: what netbenefit evaluated; no formula of this workbook reads it (see docs/workbook.md)"


# -- the multiplier table -----------------------------------------------------------------------

#: The multipliers a table gives, and their columns in the table's named range (naics first).
TABLE_MULTIPLIERS = {"earnings_multiplier": 2, "employment_multiplier": 3, "construction_earnings_multiplier": 4}


def multiplier_table_sheet(workbook: Book, result: Result, cell: ScenarioCells, title: str) -> str | None:
    """The scenario's multiplier table (``revenue.multiplier_table``) as a sheet, every row, its
    range named ``multiplier_table`` (suffixed); None where the scenario has no table. The applied
    multipliers are looked up from it by ``business_naics`` (:func:`multiplier_lookup`)."""
    rows = multiplier_table_rows(result.scenario)
    if not rows:
        return None
    sheet = workbook.create_sheet(title)
    header_row(
        sheet, ["NAICS", "Earnings multiplier", "Employment multiplier", "Construction earnings multiplier", "Source"]
    )
    columns = ["naics", *TABLE_MULTIPLIERS, "source"]
    for r, cells in enumerate(rows, start=2):
        for c, column in enumerate(columns, start=1):
            value = cells.get(column, "")
            if column in TABLE_MULTIPLIERS:
                try:
                    value = csv_number(value)
                except ValueError:
                    pass  # shown as written; netbenefit refuses it if the row is chosen
            put(sheet, r, c, value)
    name = f"multiplier_table{cell.suffix}"
    workbook.names[name] = f"{quote_sheetname(title)}!$A$2:$D${len(rows) + 1}"
    cell.record.append(
        ("revenue.multiplier_table", name, f"{title}!A2:D{len(rows) + 1}", False, Kind.TABLE, None, False)
    )
    fit_widths(sheet)
    sheet.freeze_panes = "A2"
    return name


def table_title(number: int, comparison: bool) -> str:
    """The title of a scenario's multiplier table sheet (numbered in a comparison)."""
    return f"Multiplier table {number}" if comparison else "Multiplier table"


def multiplier_lookup(table: str, multiplier: str, suffix: str) -> str:
    """The applied multiplier: the table's row of ``business_naics`` (text, as the scenario gives it)."""
    return f"=VLOOKUP(business_naics{suffix},{table},{TABLE_MULTIPLIERS[multiplier]},FALSE)"
