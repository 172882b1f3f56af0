"""The cash-flow sheet of one scenario: one row per project year, every figure a formula of the
named input cells where :mod:`netbenefit.views.workbook.drivers` has one, netbenefit's value (said in
its header) where not (:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...labels import ratio
from ...law.parameters import parameter
from ...model.cashflows.steps import YEAR_ROUNDING  # a window ending within this of a whole year ends in that year
from . import drivers
from .book import Book
from .cells import (
    ScenarioCells,
    column_letter,
    fit_widths,
    header_row,
    put,
    put_formula,
    quote_sheetname,
    sum_of_columns,
)
from .drivers import NOT_RECOMPUTED, PhaseRefs
from .eligibility_cells import (
    PHASE_FACT_COLUMNS,
    SECTION_75_HEADERS,
    capital_rows,
    job_minimum_rows,
    needed_year,
    section_75_per_job,
    withholding_rows,
)
from .layout import (
    FACTOR_FORMAT,
    JOBS_FORMAT,
    MONEY_FORMAT,
    MULTIPLE_FORMAT,
    NUMBER_FORMAT,
    PERCENT_FORMAT,
    WEIGHT_FORMAT,
)
from .model import SheetModel, SheetPhase, SheetStream, cashflow_model

if TYPE_CHECKING:
    from ...model.result import Result


#: Context columns of the year table: (column of the result's cash flows, header, number format).
CONTEXT_COLUMNS = (
    ("full_time_jobs", "Full-time jobs (all phases)", JOBS_FORMAT),
    ("wages", "Wages (all phases) [USD]", MONEY_FORMAT),
    ("capital_investment", "Capital investment (all phases) [USD]", MONEY_FORMAT),
)
#: The model columns of each phase: role -> (header, number format).
MODEL_COLUMNS = {
    "new_jobs": ("New full-time jobs", JOBS_FORMAT),
    "retained_jobs": ("Retained full-time jobs", JOBS_FORMAT),
    "jobs": ("Full-time jobs", JOBS_FORMAT),
    "salary": ("Median salary [USD]", MONEY_FORMAT),
    "wages": ("Wages [USD]", MONEY_FORMAT),
    "capital": ("Capital investment [USD]", MONEY_FORMAT),
    "construction_wages": ("Construction wages [USD]", MONEY_FORMAT),
}
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
    model: list[dict[str, int]] = field(default_factory=list)  # per phase: jobs, wages... -> column
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
    scenario = result.scenario
    refs = [PhaseRefs(cells, "" if k == 0 else f"phases.{k - 1}.") for k in range(len(model.phases))]
    probe = dict.fromkeys((*MODEL_COLUMNS, *drivers.bracket_columns(result)), "A")
    formulas = [
        [_has_formula(result, ref, stream, probe) for stream in phase.streams]
        for ref, phase in zip(refs, model.phases, strict=True)
    ]
    first, last = 2, 1 + len(model.years)
    columns = _year_table_columns(model.phases, formulas, drivers.bracket_columns(result))
    header_row(sheet, columns.headers)
    total_row = last + 1
    block = total_row + 2
    rows = result_rows(block, phased=len(model.phases) > 1)
    value = column_letter(VALUE_COLUMN)
    statutory_row, eligible_row = block + len(rows), block + len(rows) + 1
    statutory = f"${value}${statutory_row}"
    _statutory_threshold_row(sheet, cells, statutory_row, scenario.readings.several_locations)
    next_row, met, retained_eligible = job_minimum_rows(sheet, result, refs[0], eligible_row, VALUE_COLUMN)
    jobs_created_cell = f"${value}${eligible_row}"  # the first row of the job minimum's
    sigma = f"${value}${next_row}"
    if drivers.bracket_columns(result):  # one short reference for the many ramps of the brackets
        put(sheet, next_row, 1, "Wage dispersion: standard deviation of the log wages (the brackets' law)").bold = True
        put_formula(sheet, next_row, VALUE_COLUMN, f"={cells.name('revenue.income_tax.wage_dispersion')}")
        next_row += 1
    cells.checks["71(a)(2)"] = f"{quote_sheetname(cells.sheet)}!{met}"
    # The benefit windows (below the table, so that the header row alone is frozen).
    awards = [scenario.award] + [phase.award for phase in scenario.phases]
    per_job: dict[int, tuple[str, str]] = {}  # the section 75 credit per new and retained job, by phase
    next_row, capital_met, minimum, investment = capital_rows(sheet, result, refs[0], next_row, VALUE_COLUMN)
    # under them: 71(d) (2 rows), the horizon (2 rows), a blank row, then the windows' table
    window_row = next_row + 5
    next_row, withholding_met, share = withholding_rows(sheet, result, refs, next_row, VALUE_COLUMN, sigma, window_row)
    where = quote_sheetname(cells.sheet)
    cells.checks["71(a)(1)"] = f"{where}!{capital_met}"
    cells.checks["71(d)"] = f"{where}!{withholding_met}"
    cells.facts = {
        "jobs_created": f"{where}!{jobs_created_cell}",
        "capital_minimum": f"{where}!{minimum}",
        "capital_investment": f"{where}!{investment}",
        "withholding_share": f"{where}!{share}",
    }
    _horizon_rows(sheet, cells, refs, window_row, next_row, last)
    window_end = _benefit_windows(
        sheet, model.phases, refs, cells, statutory, window_row, awards, per_job, scenario.readings
    )
    # Year 0, the approval year (docs/model.md#timeline), has a row only when the scenario gives an
    # amount in it: discounted at t = 0 under both timings, inside the initial phase's window.
    year_zero = bool(model.years) and model.years[0] == 0
    counted = retained_eligible if scenario.readings.retained_benefits == "credit_eligible_only" else None
    row_model = _RowModel(
        result,
        model,
        refs,
        formulas,
        awards,
        counted,
        retained_eligible,
        drivers.bracket_columns(result),
        per_job,
        sigma,
    )
    for i in range(len(model.years)):
        _year_row(sheet, row_model, columns, i, first + i, window_end, cells.suffix, year_zero)
    _totals(sheet, columns, total_row, first, last)
    _results(sheet, result, cells, columns, rows, total_row, statutory)
    _record_columns(cells, columns, model, first, last)
    fit_widths(sheet, last_row=last)
    sheet.set_width("A", 12)
    sheet.freeze_panes = "B2"


def _statutory_threshold_row(sheet, cells: ScenarioCells, statutory_row: int, several_locations: str) -> None:
    """The statutory threshold of 71(a)(5), from the location cells (its three values in its label)."""
    thresholds = (
        f"{ratio(parameter('net_benefit_threshold_default'))}; "
        f"(a) {ratio(parameter('net_benefit_threshold_distressed_or_enhanced'))}; "
        f"(b) {ratio(parameter('net_benefit_threshold_restricted_or_mega'))}"
    )
    put(sheet, statutory_row, 1, f"Statutory threshold, 71(a)(5): {thresholds}, from the location cells").bold = True
    put_formula(
        sheet,
        statutory_row,
        VALUE_COLUMN,
        "=" + drivers.statutory_threshold(cells, several_locations),
        PERCENT_FORMAT,
    )


def _horizon_rows(sheet, cells: ScenarioCells, refs: list, window_row: int, next_row: int, last: int) -> None:
    """The last project year the model needs (each phase's, beside its benefit window) and whether
    the year rows reach it."""
    # The year rows are the evaluated horizon's: an edit that needs more years is refused (#N/A).
    value = column_letter(VALUE_COLUMN)
    needed_column, needed_header = PHASE_FACT_COLUMNS["needed"]
    put(sheet, window_row, needed_column, needed_header).header = True
    for k, ref in enumerate(refs):
        w = window_row + 1 + k
        put_formula(sheet, w, needed_column, "=" + needed_year(ref, w, YEAR_ROUNDING), NUMBER_FORMAT)
    letter = column_letter(needed_column)
    needed = f"${letter}${window_row + 1}:${letter}${window_row + len(refs)}"
    put(sheet, next_row, 1, "Last project year the model needs (the window's end, the last credit year)").bold = True
    put_formula(sheet, next_row, VALUE_COLUMN, f"=MAX({needed})", NUMBER_FORMAT)
    put(
        sheet,
        next_row + 1,
        1,
        "The year rows reach it (else the ratio and the test show #N/A: write the workbook again)",
    )
    sheet.cell(next_row + 1, 1).bold = True
    put_formula(sheet, next_row + 1, VALUE_COLUMN, f"={value}{next_row}<=A{last}")
    cells.covered = f"${value}${next_row + 1}"


def _record_columns(cells: ScenarioCells, columns, model, first: int, last: int) -> None:
    """Where the other sheets find the year rows, each phase's columns, the discount factor and the
    streams of each tax."""
    cells.years = (first, last)
    letter = column_letter
    cells.phase_columns = tuple(
        (letter(net), letter(weight), letter(credit_column if credit_column else columns.credits_total))
        for _, net, weight, credit_column in columns.phases
    )
    cells.discount_factor_column = letter(columns.factor)
    for (stream_columns, _, weight, _), phase in zip(columns.phases, model.phases, strict=True):
        for c, stream in zip(stream_columns, phase.streams, strict=True):
            if not stream.abated:
                cells.by_tax.setdefault(stream.tax, []).append((letter(c), letter(weight)))


def result_rows(block: int, *, phased: bool) -> dict[str, tuple[int, str]]:
    """The results under the year table from row ``block``: name -> (row, label). The ratio is the
    deciding test's, 71(a)(5): for a phased project the lowest of the cumulative tests' ratios (the
    Phase tests sheet), the whole project's beside it under its own name."""
    ratio = (
        "Net benefit ratio of the deciding test, 71(a)(5): the lowest of the cumulative tests' ratios (Phase tests)"
        if phased
        else "Net benefit ratio, PV of net benefits / PV of credits"
    )
    labels = {
        "pv_benefits": "PV of counted net benefits [USD]" + (" (all phases)" if phased else ""),
        "pv_credits": "PV of requested credits [USD]" + (" (all phases)" if phased else ""),
        "ratio": ratio,
        "threshold": "Threshold (the override of 71(a)(5)(f) where given, else the statutory one)",
        "passes": "Net positive benefit test passed (every cumulative phase test)",
        "margin": "Margin: the net benefit ratio minus the threshold [multiple]",
        "max_credit_pv": (
            "Requested credits scaled alike until every test passes, PV [USD]: the PV of credits x the ratio / the "
            "threshold, never below 0"
        ),
    }
    if phased:
        labels["whole_project_ratio"] = (
            "Whole project's ratio, PV of net benefits / PV of credits of all phases (not the test that decides)"
        )
    return {name: (block + k, label) for k, (name, label) in enumerate(labels.items())}


@dataclass
class _RowModel:
    """What each row's formulas read: the result, the sheet's model, each phase's names and
    which of its streams are formulas, the awards and the 71(c) cells."""

    result: Result
    model: SheetModel
    refs: list[PhaseRefs]
    formulas: list[list[bool]]
    awards: list
    counted: str | None  # the cell deciding whether retained jobs count, or None: all count
    retained_eligible: str
    brackets: list[str]  # the helper columns of the Gross Income Tax on the brackets
    per_job: dict[int, tuple[str, str]]  # the section 75 credit per new and retained job, by phase
    sigma: str  # the cell of the wage dispersion (brackets)


def _has_formula(result: Result, ref: PhaseRefs, stream: SheetStream, probe: dict[str, str]) -> bool:
    """Whether the stream is a formula of the inputs (a driver with a formula, or a stream by year)."""
    if stream.source == "explicit":
        return True
    return drivers.driver_stream(result, ref, stream.name, 2, probe) is not None


def _year_table_columns(phases: list[SheetPhase], formulas: list[list[bool]], brackets: list[str]) -> _Columns:
    """The columns of the year table: the year, the context, each phase's streams, net benefits,
    weight (and credits when phased), then the counted net benefits, the discount factor, the
    present values and their cumulative sums."""
    phased = len(phases) > 1
    columns = _Columns()
    column = columns.add
    columns.year = column("Project year", NUMBER_FORMAT)
    if phased:  # (one phase: its own jobs, wages and capital columns are the project's)
        columns.context = [(name, column(header, fmt)) for name, header, fmt in CONTEXT_COLUMNS]
    for phase, phase_formulas in zip(phases, formulas, strict=True):
        prefix = f"Phase {phase.number}: " if phased else ""
        model_columns = {role: column(f"{prefix}{header}", fmt) for role, (header, fmt) in MODEL_COLUMNS.items()}
        for role in brackets:  # the Gross Income Tax on the brackets, in closed form
            header, fmt = drivers.BRACKET_HEADERS[role]
            model_columns[role] = column(f"{prefix}{header}", MONEY_FORMAT if fmt == "money" else FACTOR_FORMAT)
        columns.model.append(model_columns)
        stream_columns = []
        for stream, formula in zip(phase.streams, phase_formulas, strict=True):
            note = " (abated: not counted, 71(a)(5)(e))" if stream.abated else ""
            if not formula:
                note += f" ({NOT_RECOMPUTED})"
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


def _benefit_windows(
    sheet,
    phases: list[SheetPhase],
    refs: list[PhaseRefs],
    cells: ScenarioCells,
    statutory: str,
    window_row: int,
    awards: list,
    per_job: dict[int, tuple[str, str]],
    readings,
) -> dict[int, tuple[str, str]]:
    """The table of the phases' benefit windows from ``window_row``, formulas of the input cells;
    per phase index, the absolute cells of its start and of the end of its window. ``readings``:
    the scenario's (``stated_commitment_period`` is fixed when the workbook is written)."""
    section_75 = any(phase.section_75 for phase in phases)
    header_row(sheet, WINDOW_HEADERS + (SECTION_75_HEADERS if section_75 else ()), row=window_row)
    window_end = {}
    extension = drivers.counted_extension(cells, statutory)
    for k, (phase, ref) in enumerate(zip(phases, refs, strict=True)):
        row = window_row + 1 + k
        put(sheet, row, 1, phase.number)
        put_formula(sheet, row, 2, f"={ref.name('start_year')}" if k else "=0")
        put_formula(sheet, row, 3, f"={ref.name('award.first_credit_year')}")
        put_formula(sheet, row, 4, "=" + drivers.commitment_period(ref, statutory, readings.stated_commitment_period))
        put_formula(sheet, row, 5, f"={extension}")
        put_formula(sheet, row, 6, f"=B{row}+C{row}-1+D{row}+E{row}")
        window_end[k] = (f"$B${row}", f"$F${row}")
        if phase.section_75:
            new_job, retained_share = section_75_per_job(ref, awards[k])
            put_formula(sheet, row, 7, "=" + new_job, MONEY_FORMAT)
            put_formula(sheet, row, 8, f"=G{row}*{retained_share}", MONEY_FORMAT)
            per_job[k] = (f"$G${row}", f"$H${row}")
    return window_end


def _year_row(
    sheet,
    rm: _RowModel,
    columns: _Columns,
    i: int,
    r: int,
    window_end: dict[int, tuple[str, str]],
    suffix: str,
    year_zero: bool,
) -> None:
    """Row ``r`` of the year table, the ``i``-th year: the model as formulas of the input cells."""
    letter = column_letter
    model, result = rm.model, rm.result
    phases = model.phases
    layout = columns.phases
    revenue = result.scenario.revenue
    put(sheet, r, columns.year, model.years[i])
    for k, ((stream_columns, net, weight, credit_column), phase) in enumerate(zip(layout, phases, strict=True)):
        ref, at_columns = rm.refs[k], columns.model[k]
        at = {role: letter(c) for role, c in at_columns.items()}
        put_formula(sheet, r, at_columns["new_jobs"], "=" + drivers.new_jobs(ref, r), JOBS_FORMAT)
        put_formula(sheet, r, at_columns["retained_jobs"], "=" + drivers.retained_jobs(ref, r, rm.counted), JOBS_FORMAT)
        put_formula(sheet, r, at_columns["jobs"], f"={at['new_jobs']}{r}+{at['retained_jobs']}{r}", JOBS_FORMAT)
        put_formula(sheet, r, at_columns["salary"], "=" + drivers.median_salary(ref, r), MONEY_FORMAT)
        wages = drivers.wages(result, ref, f"{at['jobs']}{r}", f"{at['salary']}{r}")
        put_formula(sheet, r, at_columns["wages"], "=" + wages, MONEY_FORMAT)
        put_formula(sheet, r, at_columns["capital"], "=" + ref.by_year("capital_investment", r), MONEY_FORMAT)
        share = ref.top("revenue.construction_labor_share") if revenue else "0"
        put_formula(sheet, r, at_columns["construction_wages"], f"={at['capital']}{r}*{share}", MONEY_FORMAT)
        for role in rm.brackets:
            formula = drivers.bracket_helper(result, ref, role, r, at, rm.sigma)
            put_formula(sheet, r, at_columns[role], "=" + formula)
        counted_columns = []
        direct: dict[tuple[str, str], str] = {}
        for c, stream, formula in zip(stream_columns, phase.streams, rm.formulas[k], strict=True):
            if not formula:
                put(sheet, r, c, float(stream.amounts[i]), MONEY_FORMAT)
            elif stream.source == "explicit":
                cost = bool(stream.amounts.size) and _is_cost(result, ref, stream)
                put_formula(
                    sheet, r, c, "=" + drivers.explicit_stream(ref, stream.explicit_index, r, cost), MONEY_FORMAT
                )
            elif stream.effect == "direct":
                put_formula(sheet, r, c, "=" + drivers.driver_stream(result, ref, stream.name, r, at), MONEY_FORMAT)
                direct[(stream.source, stream.name)] = f"{letter(c)}{r}"
            else:
                text = drivers.indirect(ref, stream.source, direct[(stream.source, stream.name)])
                put_formula(sheet, r, c, "=" + text, MONEY_FORMAT)
            if not stream.abated:
                counted_columns.append(c)
        put_formula(sheet, r, net, "=" + sum_of_columns(counted_columns, r), MONEY_FORMAT)
        start, end = window_end[phase.number - 1]
        after = ">=" if year_zero and phase.number == 1 else ">"  # year 0 is in the initial phase's window
        put_formula(sheet, r, weight, f"=IF(A{r}{after}{start},MAX(0,MIN(1,{end}-(A{r}-1))),0)", WEIGHT_FORMAT)
        target = credit_column if credit_column is not None else columns.credits_total
        credit = drivers.credits(result, ref, rm.awards[k], r, rm.retained_eligible, rm.per_job.get(k))
        if credit is None:
            put(sheet, r, target, float(phase.credits[i]), MONEY_FORMAT)
        else:
            put_formula(sheet, r, target, "=" + credit, MONEY_FORMAT)
    for name, c in columns.context:
        role = {"full_time_jobs": "jobs", "wages": "wages", "capital_investment": "capital"}[name]
        total = "+".join(f"{letter(m[role])}{r}" for m in columns.model)
        put_formula(sheet, r, c, f"={total}", columns.formats[c - 1])
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
    put_formula(sheet, r, pv_credits, f"={letter(credits_total)}{r}*{letter(factor)}{r}", MONEY_FORMAT)
    previous = f"{letter(columns.cumulative)}{r - 1}+" if i else ""
    put_formula(sheet, r, columns.cumulative, f"={previous}{letter(pv)}{r}", MONEY_FORMAT)
    previous = f"{letter(columns.cumulative_credits)}{r - 1}+" if i else ""
    put_formula(sheet, r, columns.cumulative_credits, f"={previous}{letter(pv_credits)}{r}", MONEY_FORMAT)


def _is_cost(result: Result, ref: PhaseRefs, stream: SheetStream) -> bool:
    phase = result.scenario if not ref.prefix else result.scenario.phases[int(ref.prefix.split(".")[1])]
    return phase.streams[stream.explicit_index].kind == "cost"


def _totals(sheet, columns: _Columns, total_row: int, first: int, last: int) -> None:
    """The totals of the money columns, under the year table."""
    letter = column_letter
    put(sheet, total_row, columns.year, "Total").bold = True
    summed = [c for _, c in columns.context[1:]] or [columns.model[0]["wages"], columns.model[0]["capital"]]
    summed += [columns.counted, columns.pv, columns.credits_total, columns.pv_credits]
    for stream_columns, net, _, credit_column in columns.phases:
        summed += [*stream_columns, net] + ([credit_column] if credit_column else [])
    for c in summed:
        put_formula(sheet, total_row, c, f"=SUM({letter(c)}{first}:{letter(c)}{last})", MONEY_FORMAT).bold = True


def _results(
    sheet, result: Result, cells: ScenarioCells, columns: _Columns, rows, total_row: int, statutory: str
) -> None:
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
    quotient = f"=IF({cells.covered},{value}{rows['pv_benefits'][0]}/{value}{rows['pv_credits'][0]},NA())"
    # a phased project's ratio, the lowest cumulative test's, is written by the Phase tests sheet
    put_formula(sheet, rows["ratio"][0], VALUE_COLUMN, "=NA()" if "whole_project_ratio" in rows else quotient)
    sheet.cell(rows["ratio"][0], VALUE_COLUMN).number_format = PERCENT_FORMAT
    if "whole_project_ratio" in rows:
        put_formula(sheet, rows["whole_project_ratio"][0], VALUE_COLUMN, quotient, PERCENT_FORMAT)
    put_formula(sheet, rows["threshold"][0], VALUE_COLUMN, "=" + drivers.threshold(cells, statutory), PERCENT_FORMAT)
    ratio, threshold = f"{value}{rows['ratio'][0]}", f"{value}{rows['threshold'][0]}"
    put_formula(sheet, rows["margin"][0], VALUE_COLUMN, f"={ratio}-{threshold}", MULTIPLE_FORMAT)
    put_formula(
        sheet,
        rows["max_credit_pv"][0],
        VALUE_COLUMN,
        f"=MAX(0,{value}{rows['pv_credits'][0]}*{ratio}/{threshold})",  # 0 where a test's net benefits are negative
        MONEY_FORMAT,
    )
