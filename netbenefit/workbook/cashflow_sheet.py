"""The cash-flow sheet of one scenario: one row per project year, the amounts as values and the
model as formulas (:mod:`netbenefit.workbook`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .book import Book
from .cells import ScenarioCells, column_letter, fit_widths, header_row, put, put_formula, sum_of_columns
from .layout import FACTOR_FORMAT, JOBS_FORMAT, MONEY_FORMAT, NUMBER_FORMAT, PERCENT_FORMAT, WEIGHT_FORMAT
from .model import cashflow_model

if TYPE_CHECKING:
    from ...result import Result


def cashflow_sheet(workbook: Book, result: Result, cells: ScenarioCells) -> None:
    letter = column_letter
    sheet = workbook.create_sheet(cells.sheet)
    model = cashflow_model(result)
    phases, years = model.phases, model.years
    first, last = 2, 1 + len(years)
    phased = len(phases) > 1
    headers: list[str] = []
    formats: list[str] = []

    def column(header: str, number_format: str) -> int:
        headers.append(header)
        formats.append(number_format)
        return len(headers)

    year_column = column("Project year", NUMBER_FORMAT)
    context = [
        ("full_time_jobs", "Full-time jobs (all phases)", JOBS_FORMAT),
        ("wages", "Wages (all phases) [USD]", MONEY_FORMAT),
        ("capital_investment", "Capital investment (all phases) [USD]", MONEY_FORMAT),
    ]
    context_columns = [(name, column(header, fmt)) for name, header, fmt in context]
    layout = []  # per phase: (stream columns, net column, weight column, credits column)
    for phase in phases:
        prefix = f"Phase {phase.number}: " if phased else ""
        stream_columns = []
        for stream in phase.streams:
            note = " (abated: not counted, 71(a)(5)(e))" if stream.abated else ""
            stream_columns.append(column(f"{prefix}{stream.label}{note} [USD]", MONEY_FORMAT))
        net = column(f"{prefix}Net benefits of the counted streams [USD]", MONEY_FORMAT)
        weight = column(f"{prefix}Weight (share of the year in the benefit window)", WEIGHT_FORMAT)
        credits = column(f"{prefix}Requested credits [USD]", MONEY_FORMAT) if phased else None
        layout.append((stream_columns, net, weight, credits))
    counted = column("Counted net benefits [USD]", MONEY_FORMAT)
    factor = column("Discount factor", FACTOR_FORMAT)
    pv = column("PV of counted net benefits [USD]", MONEY_FORMAT)
    all_credits = "Requested credits (all phases) [USD]" if phased else "Requested credits [USD]"
    credits_total = column(all_credits, MONEY_FORMAT)
    pv_credits = column("PV of requested credits [USD]", MONEY_FORMAT)
    cumulative = column("Cumulative PV of counted net benefits [USD]", MONEY_FORMAT)
    cumulative_credits = column("Cumulative PV of requested credits [USD]", MONEY_FORMAT)
    header_row(sheet, headers)

    # The benefit windows (below the table, so that the header row alone is frozen).
    total_row = last + 1
    block = total_row + 2
    rows = {
        "pv_benefits": (block, "PV of counted net benefits [USD]"),
        "pv_credits": (block + 1, "PV of requested credits [USD]"),
        "ratio": (block + 2, "Net benefit ratio, PV of net benefits / PV of credits"),
        "threshold": (block + 3, f"Threshold, {result.threshold_clause}"),
        "passes": (block + 4, "Net positive benefit test passed (every cumulative phase test)"),
    }
    value_column = 5  # the labels (column A) run over the empty columns B to D
    window_row = block + 6
    window_headers = [
        "Phase",
        "Starts [years after approval]",
        "First credit year [phase year]",
        "Commitment period [years]",
        "Extended years counted [years]",
        "End of the benefit window [years after approval]",
    ]
    header_row(sheet, window_headers, row=window_row)
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

    suffix = cells.suffix
    # Year 0, the approval year (emerge-model.md 2.1), has a row only when the scenario gives an
    # amount in it: discounted at t = 0 under both timings, inside the initial phase's window.
    year_zero = bool(years) and years[0] == 0
    for i, year in enumerate(years):
        r = first + i
        put(sheet, r, year_column, year)
        for name, c in context_columns:
            put(sheet, r, c, float(model.context[name][i]), formats[c - 1])
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
        if phased:
            put_formula(sheet, r, credits_total, "=" + "+".join(f"{letter(c)}{r}" for *_, c in layout), MONEY_FORMAT)
        else:
            put(sheet, r, credits_total, float(phases[0].credits[i]), MONEY_FORMAT)
        put_formula(sheet, r, pv_credits, f"={letter(credits_total)}{r}*{letter(factor)}{r}", MONEY_FORMAT)
        previous = f"{letter(cumulative)}{r - 1}+" if i else ""
        put_formula(sheet, r, cumulative, f"={previous}{letter(pv)}{r}", MONEY_FORMAT)
        previous = f"{letter(cumulative_credits)}{r - 1}+" if i else ""
        put_formula(sheet, r, cumulative_credits, f"={previous}{letter(pv_credits)}{r}", MONEY_FORMAT)

    # Totals of the money columns.
    put(sheet, total_row, year_column, "Total").bold = True
    summed = [c for _, c in context_columns[1:]] + [counted, pv, credits_total, pv_credits]
    for stream_columns, net, _, credit_column in layout:
        summed += [*stream_columns, net] + ([credit_column] if credit_column else [])
    for c in summed:
        put_formula(sheet, total_row, c, f"=SUM({letter(c)}{first}:{letter(c)}{last})", MONEY_FORMAT).bold = True

    value = letter(value_column)
    for name, (row, label) in rows.items():
        put(sheet, row, 1, label).bold = True
        setattr(cells, name, f"{value}{row}")
    put_formula(sheet, rows["pv_benefits"][0], value_column, f"={letter(pv)}{total_row}", MONEY_FORMAT)
    put_formula(sheet, rows["pv_credits"][0], value_column, f"={letter(pv_credits)}{total_row}", MONEY_FORMAT)
    put_formula(
        sheet,
        rows["ratio"][0],
        value_column,
        f"={value}{rows['pv_benefits'][0]}/{value}{rows['pv_credits'][0]}",
        PERCENT_FORMAT,
    )
    put(sheet, rows["threshold"][0], value_column, float(result.threshold), PERCENT_FORMAT)
    # "passes" is filled in by the Phase tests sheet, which holds the cumulative tests.
    cells.years = (first, last)
    cells.phase_columns = tuple(
        (letter(net), letter(weight), letter(credit_column if credit_column else credits_total))
        for _, net, weight, credit_column in layout
    )
    cells.discount_factor_column = letter(factor)
    fit_widths(sheet, last_row=last)
    sheet.set_width("A", 12)
    sheet.freeze_panes = "B2"
