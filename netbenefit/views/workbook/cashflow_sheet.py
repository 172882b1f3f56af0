"""The cash-flow sheet of one scenario: one row per project year, the amounts as values and the
model as formulas (:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .book import Book
from .cells import ScenarioCells, column_letter, fit_widths, header_row, put, put_formula, sum_of_columns
from .layout import FACTOR_FORMAT, JOBS_FORMAT, MONEY_FORMAT, NUMBER_FORMAT, PERCENT_FORMAT, WEIGHT_FORMAT
from .model import SheetModel, SheetPhase, cashflow_model

if TYPE_CHECKING:
    from result import Result


#: Context columns of the year table: (column of the result's cash flows, header, number format).
CONTEXT_COLUMNS = (
    ("full_time_jobs", "Full-time jobs (all phases)", JOBS_FORMAT),
    ("wages", "Wages (all phases) [USD]", MONEY_FORMAT),
    ("capital_investment", "Capital investment (all phases) [USD]", MONEY_FORMAT),
)
#: Headers of the benefit windows' table, below the year table.
WINDOW_HEADERS = (
    "Phase",
    "Starts [years after approval]",
    "First credit year [phase year]",
    "Commitment period [years]",
    "Extended years counted [years]",
    "End of the benefit window [years after approval]",
)
#: The labels (column A) of the results under the year table run over the empty columns B to D.
VALUE_COLUMN = 5


@dataclass
class _Columns:
    """The 1-based columns of the year table, their headers and number formats."""

    headers: list[str] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    year: int = 0
    context: list[tuple[str, int]] = field(default_factory=list)  # (cash-flow column, sheet column)
    phases: list[tuple[list[int], int, int, int | None]] = field(default_factory=list)  # streams, net, weight, credits
    counted: int = 0
    factor: int = 0
    pv: int = 0
    credits_total: int = 0
    pv_credits: int = 0
    cumulative: int = 0
    cumulative_credits: int = 0

    def add(self, header: str, number_format: str) -> int:
        self.headers.append(header)
        self.formats.append(number_format)
        return len(self.headers)


def cashflow_sheet(workbook: Book, result: Result, cells: ScenarioCells) -> None:
    """The cash-flow sheet of ``result``: the year table, its totals, the results under it (PV of
    benefits and credits, ratio, threshold, passed) and the benefit window of each phase."""
    sheet = workbook.create_sheet(cells.sheet)
    model = cashflow_model(result)
    first, last = 2, 1 + len(model.years)
    columns = _year_table_columns(model.phases)
    header_row(sheet, columns.headers)
    total_row = last + 1
    block = total_row + 2
    rows = {
        "pv_benefits": (block, "PV of counted net benefits [USD]"),
        "pv_credits": (block + 1, "PV of requested credits [USD]"),
        "ratio": (block + 2, "Net benefit ratio, PV of net benefits / PV of credits"),
        "threshold": (block + 3, f"Threshold, {result.threshold_clause}"),
        "passes": (block + 4, "Net positive benefit test passed (every cumulative phase test)"),
    }
    # The benefit windows (below the table, so that the header row alone is frozen).
    window_end = _benefit_windows(sheet, model.phases, block + 6)
    # Year 0, the approval year (docs/model.md#timeline), has a row only when the scenario gives an
    # amount in it: discounted at t = 0 under both timings, inside the initial phase's window.
    year_zero = bool(model.years) and model.years[0] == 0
    for i in range(len(model.years)):
        _year_row(sheet, model, columns, i, first + i, window_end, cells.suffix, year_zero)
    _totals(sheet, columns, total_row, first, last)
    _results(sheet, result, cells, columns, rows, total_row)
    cells.years = (first, last)
    letter = column_letter
    cells.phase_columns = tuple(
        (letter(net), letter(weight), letter(credit_column if credit_column else columns.credits_total))
        for _, net, weight, credit_column in columns.phases
    )
    cells.discount_factor_column = letter(columns.factor)
    fit_widths(sheet, last_row=last)
    sheet.set_width("A", 12)
    sheet.freeze_panes = "B2"


def _year_table_columns(phases: list[SheetPhase]) -> _Columns:
    """The columns of the year table: the year, the context, each phase's streams, net benefits,
    weight (and credits when phased), then the counted net benefits, the discount factor, the
    present values and their cumulative sums."""
    phased = len(phases) > 1
    columns = _Columns()
    column = columns.add
    columns.year = column("Project year", NUMBER_FORMAT)
    columns.context = [(name, column(header, fmt)) for name, header, fmt in CONTEXT_COLUMNS]
    for phase in phases:
        prefix = f"Phase {phase.number}: " if phased else ""
        stream_columns = []
        for stream in phase.streams:
            note = " (abated: not counted, 71(a)(5)(e))" if stream.abated else ""
            stream_columns.append(column(f"{prefix}{stream.label}{note} [USD]", MONEY_FORMAT))
        net = column(f"{prefix}Net benefits of the counted streams [USD]", MONEY_FORMAT)
        weight = column(f"{prefix}Weight (share of the year in the benefit window)", WEIGHT_FORMAT)
        credits = column(f"{prefix}Requested credits [USD]", MONEY_FORMAT) if phased else None
        columns.phases.append((stream_columns, net, weight, credits))
    columns.counted = column("Counted net benefits [USD]", MONEY_FORMAT)
    columns.factor = column("Discount factor", FACTOR_FORMAT)
    columns.pv = column("PV of counted net benefits [USD]", MONEY_FORMAT)
    all_credits = "Requested credits (all phases) [USD]" if phased else "Requested credits [USD]"
    columns.credits_total = column(all_credits, MONEY_FORMAT)
    columns.pv_credits = column("PV of requested credits [USD]", MONEY_FORMAT)
    columns.cumulative = column("Cumulative PV of counted net benefits [USD]", MONEY_FORMAT)
    columns.cumulative_credits = column("Cumulative PV of requested credits [USD]", MONEY_FORMAT)
    return columns


def _benefit_windows(sheet, phases: list[SheetPhase], window_row: int) -> dict[int, tuple[str, str]]:
    """The table of the phases' benefit windows from ``window_row``; per phase index, the absolute
    cells of its start and of the end of its window."""
    header_row(sheet, WINDOW_HEADERS, row=window_row)
    window_end = {}
    for k, phase in enumerate(phases):
        row = window_row + 1 + k
        put(sheet, row, 1, phase.number)
        put(sheet, row, 2, phase.start_year)
        put(sheet, row, 3, phase.first_credit_year)
        put(sheet, row, 4, phase.commitment_period_years)
        put(sheet, row, 5, phase.counted_extension_years)
        put_formula(sheet, row, 6, f"=B{row}+C{row}-1+D{row}+E{row}")
        window_end[k] = (f"$B${row}", f"$F${row}")
    return window_end


def _year_row(
    sheet,
    model: SheetModel,
    columns: _Columns,
    i: int,
    r: int,
    window_end: dict[int, tuple[str, str]],
    suffix: str,
    year_zero: bool,
) -> None:
    """Row ``r`` of the year table, the ``i``-th year: amounts as values, the model as formulas."""
    letter = column_letter
    phases = model.phases
    layout = columns.phases
    put(sheet, r, columns.year, model.years[i])
    for name, c in columns.context:
        put(sheet, r, c, float(model.context[name][i]), columns.formats[c - 1])
    for (stream_columns, net, weight, credit_column), phase in zip(layout, phases, strict=True):
        counted_columns = []
        for c, stream in zip(stream_columns, phase.streams, strict=True):
            put(sheet, r, c, float(stream.amounts[i]), MONEY_FORMAT)
            if not stream.abated:
                counted_columns.append(c)
        put_formula(sheet, r, net, "=" + sum_of_columns(counted_columns, r), MONEY_FORMAT)
        start, end = window_end[phase.number - 1]
        after = ">=" if year_zero and phase.number == 1 else ">"  # year 0 is in the initial phase's window
        put_formula(sheet, r, weight, f"=IF(A{r}{after}{start},MAX(0,MIN(1,{end}-(A{r}-1))),0)", WEIGHT_FORMAT)
        if credit_column is not None:
            put(sheet, r, credit_column, float(phase.credits[i]), MONEY_FORMAT)
    counted, factor, pv = columns.counted, columns.factor, columns.pv
    credits_total, pv_credits = columns.credits_total, columns.pv_credits
    terms = "+".join(f"{letter(net)}{r}*{letter(weight)}{r}" for _, net, weight, _ in layout)
    put_formula(sheet, r, counted, f"={terms}", MONEY_FORMAT)
    exponent = f'A{r}-IF(timing{suffix}="mid_year",0.5,0)'
    if year_zero:
        exponent = f"MAX(0,{exponent})"
    put_formula(
        sheet,
        r,
        factor,
        f"=POWER(1+discount_rate{suffix},-({exponent}))",
        FACTOR_FORMAT,
    )
    put_formula(sheet, r, pv, f"={letter(counted)}{r}*{letter(factor)}{r}", MONEY_FORMAT)
    if len(phases) > 1:
        put_formula(sheet, r, credits_total, "=" + "+".join(f"{letter(c)}{r}" for *_, c in layout), MONEY_FORMAT)
    else:
        put(sheet, r, credits_total, float(phases[0].credits[i]), MONEY_FORMAT)
    put_formula(sheet, r, pv_credits, f"={letter(credits_total)}{r}*{letter(factor)}{r}", MONEY_FORMAT)
    previous = f"{letter(columns.cumulative)}{r - 1}+" if i else ""
    put_formula(sheet, r, columns.cumulative, f"={previous}{letter(pv)}{r}", MONEY_FORMAT)
    previous = f"{letter(columns.cumulative_credits)}{r - 1}+" if i else ""
    put_formula(sheet, r, columns.cumulative_credits, f"={previous}{letter(pv_credits)}{r}", MONEY_FORMAT)


def _totals(sheet, columns: _Columns, total_row: int, first: int, last: int) -> None:
    """The totals of the money columns, under the year table."""
    letter = column_letter
    put(sheet, total_row, columns.year, "Total").bold = True
    summed = [c for _, c in columns.context[1:]]
    summed += [columns.counted, columns.pv, columns.credits_total, columns.pv_credits]
    for stream_columns, net, _, credit_column in columns.phases:
        summed += [*stream_columns, net] + ([credit_column] if credit_column else [])
    for c in summed:
        put_formula(sheet, total_row, c, f"=SUM({letter(c)}{first}:{letter(c)}{last})", MONEY_FORMAT).bold = True


def _results(sheet, result: Result, cells: ScenarioCells, columns: _Columns, rows, total_row: int) -> None:
    """The results under the table (PV of benefits and credits, ratio, threshold; "passes" is filled
    in by the Phase tests sheet, which holds the cumulative tests), and their cells in ``cells``."""
    letter = column_letter
    value = letter(VALUE_COLUMN)
    for name, (row, label) in rows.items():
        put(sheet, row, 1, label).bold = True
        setattr(cells, name, f"{value}{row}")
    put_formula(sheet, rows["pv_benefits"][0], VALUE_COLUMN, f"={letter(columns.pv)}{total_row}", MONEY_FORMAT)
    pv_credits = f"={letter(columns.pv_credits)}{total_row}"
    put_formula(sheet, rows["pv_credits"][0], VALUE_COLUMN, pv_credits, MONEY_FORMAT)
    put_formula(
        sheet,
        rows["ratio"][0],
        VALUE_COLUMN,
        f"={value}{rows['pv_benefits'][0]}/{value}{rows['pv_credits'][0]}",
        PERCENT_FORMAT,
    )
    put(sheet, rows["threshold"][0], VALUE_COLUMN, float(result.threshold), PERCENT_FORMAT)
