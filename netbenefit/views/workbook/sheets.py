"""The sheets of the workbook but the cash-flow sheets: inputs, phase tests, summary, checks,
benefits by tax, clawback schedule, warnings (:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...labels import share
from ...labels.written import test_name
from ...law.parameters import parameter
from ...model.compare import SUMMARY_COLUMNS, summary_row
from .book import Book, Sheet
from .cells import ScenarioCells, fit_widths, header_row, put, put_formula, quote_sheetname, value_table
from .layout import (
    BY_TAX_SHEET,
    CHECK_TITLES,
    CHECKS_SHEET,
    CLAWBACK_SHEET,
    FORMULA_LENGTH_LIMIT,
    MAX_COLUMN_WIDTH,
    MONEY_FORMAT,
    NET_BENEFIT_CHECK,
    NUMBER_FORMAT,
    PERCENT_FORMAT,
    PHASE_TESTS_SHEET,
    TABLE_FORMATS,
    WARNINGS_SHEET,
    table_header,
)

if TYPE_CHECKING:
    from ...model.result import Result


def phase_tests_sheet(workbook, results: Sequence[Result], cells: Sequence[ScenarioCells], comparison: bool) -> None:
    """The cumulative net benefit tests, 71(a)(5), as formulas on the cash-flow sheets."""
    tolerance = float(parameter("net_benefit_ratio_relative_tolerance"))
    sheet = workbook.create_sheet(PHASE_TESTS_SHEET)
    headers = ["Phases", "PV of counted net benefits [USD]", "PV of requested credits [USD]", "Ratio", "Threshold"]
    headers.append("Passed")
    if comparison:
        headers.insert(0, "Scenario")
    header_row(sheet, headers)
    row = 2
    offset = 1 if comparison else 0
    for result, cell in zip(results, cells, strict=True):
        cf = quote_sheetname(cell.sheet)
        first, last = cell.years
        df = f"{cf}!${cell.discount_factor_column}${first}:${cell.discount_factor_column}${last}"
        pass_cells = []
        for k, (net, weight, credit) in enumerate(cell.phase_columns):
            if comparison:
                put(sheet, row, 1, result.name)
            put(sheet, row, 1 + offset, "+".join(str(j) for j in range(1, k + 2)))

            def rng(column: str, cf=cf, first=first, last=last) -> str:
                return f"{cf}!${column}${first}:${column}${last}"

            b, c, ratio, threshold, passed = (f"{chr(ord('B') + offset + j)}{row}" for j in range(5))
            previous_b = f"+{chr(ord('B') + offset)}{row - 1}" if k else ""
            previous_c = f"+{chr(ord('C') + offset)}{row - 1}" if k else ""
            put_formula(sheet, row, 2 + offset, f"=SUMPRODUCT({rng(net)},{rng(weight)},{df}){previous_b}", MONEY_FORMAT)
            put_formula(sheet, row, 3 + offset, f"=SUMPRODUCT({rng(credit)},{df}){previous_c}", MONEY_FORMAT)
            put_formula(sheet, row, 4 + offset, f"=IF({c}>0,{b}/{c},NA())", PERCENT_FORMAT)
            put_formula(sheet, row, 5 + offset, f"={cf}!${cell.threshold[0]}${cell.threshold[1:]}", PERCENT_FORMAT)
            put_formula(
                sheet,
                row,
                6 + offset,
                f"=AND({c}>0,OR({ratio}>={threshold},ABS({ratio}-{threshold})<={tolerance!r}*MAX(ABS({ratio}),ABS({threshold}))))",
            )
            pass_cells.append(f"{quote_sheetname(PHASE_TESTS_SHEET)}!${passed[0]}${passed[1:]}")
            row += 1
        target = workbook[cell.sheet]
        column = ord(cell.passes[0]) - ord("A") + 1
        # one range of the phases' cells, not a list of them (Excel takes at most 255 arguments)
        first_pass, last_pass = pass_cells[0], pass_cells[-1].rsplit("!", 1)[1]
        covered = f"{quote_sheetname(cell.sheet)}!{cell.covered}"
        put_formula(target, int(cell.passes[1:]), column, f"=IF({covered},AND({first_pass}:{last_pass}),NA())")
        tests = quote_sheetname(PHASE_TESTS_SHEET)
        first_row, ratio_letter, label_letter = (
            row - len(cell.phase_columns),
            chr(ord("D") + offset),
            chr(ord("A") + offset),
        )
        cell.phase_ratios = f"{tests}!${ratio_letter}${first_row}:${ratio_letter}${row - 1}"
        cell.phase_labels = f"{tests}!${label_letter}${first_row}:${label_letter}${row - 1}"
        if cell.whole_project_ratio:  # phased: the deciding test is the lowest cumulative ratio, 71(a)(5)
            formula = f"=IF({covered},MIN({cell.phase_ratios}),NA())"
            put_formula(target, int(cell.ratio[1:]), ord(cell.ratio[0]) - ord("A") + 1, formula, PERCENT_FORMAT)
    fit_widths(sheet)
    sheet.freeze_panes = "A2"


def summary_sheet(sheet, results: Sequence[Result], cells: Sequence[ScenarioCells]) -> None:
    """One row per scenario (:func:`netbenefit.compare`); the figures that follow the discount rate
    are formulas on the names of the scenario."""
    columns = [*SUMMARY_COLUMNS, "cash_flow_sheet", "names_suffix"]
    rows = [
        [*(summary_row(result)[column] for column in SUMMARY_COLUMNS), cell.sheet, cell.suffix]
        for result, cell in zip(results, cells, strict=True)
    ]
    headers = [table_header(c) for c in columns]
    headers[columns.index("cash_flow_sheet")] = "Cash-flow sheet"
    headers[columns.index("names_suffix")] = "Names suffix (discount_rate_1, ratio_1...)"
    header_row(sheet, headers)
    live = {
        "ratio": "ratio",
        "pv_benefits": "pv_benefits",
        "pv_credits": "pv_credits",
        "discount_rate": "discount_rate",
        "passes": "passes",
        "threshold": "threshold",
    }
    for row_number, (row, cell) in enumerate(zip(rows, cells, strict=True), start=2):
        for k, (column, value) in enumerate(zip(columns, row, strict=True), start=1):
            number_format = TABLE_FORMATS.get(column, MONEY_FORMAT)
            if column in live:
                put_formula(sheet, row_number, k, f"={live[column]}{cell.suffix}", number_format)
            elif column in ("margin", "max_credit_pv"):  # formulas of the deciding test's ratio
                put_formula(sheet, row_number, k, f"={column}{cell.suffix}", number_format)
            elif column == "whole_project_ratio":  # a project of one phase: its one test is the whole project
                name = "whole_project_ratio" if cell.whole_project_ratio else "ratio"
                put_formula(sheet, row_number, k, f"={name}{cell.suffix}", number_format)
            elif column == "eligible":  # every check: the formula checks follow the input cells, the others are values
                others = _other_checks_pass(results[row_number - 2])
                terms = [f"passes{cell.suffix}", *(cell.checks[c] for c in FORMULA_CHECKS if c in cell.checks)]
                put_formula(sheet, row_number, k, f"=AND({','.join(terms)},{'TRUE' if others else 'FALSE'})")
            else:
                put(sheet, row_number, k, value, number_format)
    fit_widths(sheet)
    for name in ("ratio", "threshold", "discount_rate"):
        sheet.set_width(columns.index(name) + 1, 12)
    for name in ("pv_benefits", "pv_credits", "max_credit_pv"):
        sheet.set_width(columns.index(name) + 1, 18)
    sheet.freeze_panes = "C2"


def _scenario_labels(results, labels, attribute):
    """(columns, rows, scenario labels per row) of a value table gathered over the results:
    ``attribute(result)`` gives a result's (columns, rows), or None where it has no such table.
    (None, None, None) when no result has one."""
    tables = [(i, table) for i, result in enumerate(results) if (table := attribute(result)) is not None]
    if not tables:
        return None, None, None
    columns = list(dict.fromkeys(column for _, (names, _) in tables for column in names))
    rows, names = [], []
    for i, (table_columns, table_rows) in tables:
        where = [table_columns.index(column) if column in table_columns else None for column in columns]
        rows += [[None if k is None else row[k] for k in where] for row in table_rows]
        if labels is not None:
            names += [labels[i]] * len(table_rows)
    return columns, rows, (names if labels is not None else None)


def _other_checks_pass(result: Result) -> bool:
    """Whether every check but those of :data:`FORMULA_CHECKS` passed."""
    return all(bool(check.passed) for check in result.table_rows("checks") if check.id not in FORMULA_CHECKS)


#: The checks whose rule is a formula of the input cells (their Passed and Message cells follow them).
FORMULA_CHECKS = ("71(a)(1)", "71(a)(2)", NET_BENEFIT_CHECK, "71(d)")
#: Said of a check's message that is netbenefit's, not a formula of the input cells.
_AS_EVALUATED = " (As evaluated by netbenefit, not recomputed: it does not follow the input cells.)"


def check_sentence(check: str, cell: ScenarioCells) -> str:
    """The message of a check as a ``TEXT`` formula of the live cells (FORMULA_CHECKS)."""
    facts, suffix = cell.facts, cell.suffix
    passed = f"passes{suffix}" if check == NET_BENEFIT_CHECK else cell.checks[check]
    verdict = f'IF({passed},"Met","Not met")'
    if check == "71(a)(1)":
        return (
            f'="Capital investment of the initial phase "&TEXT({facts["capital_investment"]},"$#,##0")'
            f'&" vs minimum "&TEXT({facts["capital_minimum"]},"$#,##0")&" (71(b)(1); a shortfall is donated to '
            f'the infrastructure fund where 71(b)(2) is read so). "&{verdict}&"."'
        )
    if check == "71(a)(2)":
        return (
            f'=TEXT({facts["jobs_created"]},"#,##0.0")&" new full-time jobs created within the eligibility '
            f'period, and the retained jobs, against the minimums of 71(c)(1)(a)-(f): "&{verdict}&"."'
        )
    if check == "71(d)":
        withholding = parameter("gross_income_tax_withholding_share_minimum")
        accommodation = parameter("accommodation_share_minimum")
        return (
            f'={verdict}&", 71(d): "&TEXT({facts["withholding_share"]},"0.0%")&" of the withholdings of the jobs '
            f"of all phases are subject to the NJ Gross Income Tax (at least {share(withholding)}), and every "
            f"premises must accommodate more than {share(accommodation)} of the new and retained full-time "
            'employees."'
        )
    verdict = (
        f'TEXT(ratio{suffix},"0.00%")&IF(passes{suffix}," meets"," does not meet")&" the threshold of "'
        f'&TEXT(threshold{suffix},"0%")'
    )
    if cell.whole_project_ratio:  # phased: the deciding test, the lowest cumulative ratio (earliest on a tie)
        test = f"MATCH(ratio{suffix},{cell.phase_ratios},0)"
        phases = f'IF({test}=1,"{test_name("phases 1")}","phases "&INDEX({cell.phase_labels},{test}))'
        return (
            f'="The deciding test, "&{phases}&" (the lowest of the cumulative tests\' ratios): "&{verdict}'
            f'&" (71(a)(5)) at a "&TEXT(discount_rate{suffix},"0.00%")&" discount rate."'
        )
    return (
        f'="PV of net benefits / PV of requested credits = "&{verdict}'
        f'&" (71(a)(5), every cumulative phase test) at a "&TEXT(discount_rate{suffix},"0.00%")&" discount rate."'
    )


def checks_sheet(workbook: Book, results, labels, cells: Sequence[ScenarioCells]) -> None:
    """The checks: those of :data:`FORMULA_CHECKS` as formulas of the input cells (Passed, and
    the message as a ``TEXT`` sentence of the live cells); the others as netbenefit evaluated them,
    their messages saying so."""

    def table(result):
        rows = [
            (
                check.id,
                bool(check.passed),
                check.message + ("" if check.id in FORMULA_CHECKS else _AS_EVALUATED),
                f"P.L.2020, c.156, s.{check.id}: {CHECK_TITLES.get(check.id, '')}".rstrip(": "),
            )
            for check in result.table_rows("checks")
        ]
        return ["Check", "Passed", "Message", "Clause"], rows

    columns, rows, names = _scenario_labels(results, labels, table)
    sheet = workbook.create_sheet(CHECKS_SHEET)
    value_table(sheet, columns, rows, scenario_column=names, formats=dict.fromkeys(columns, NUMBER_FORMAT))
    offset = 1 if names is not None else 0
    sheet.set_width(columns.index("Message") + 1 + offset, MAX_COLUMN_WIDTH)
    of_rows = [cell for result, cell in zip(results, cells, strict=True) for _ in result.table_rows("checks")]
    for row, (check, cell) in enumerate(zip((row[0] for row in rows), of_rows, strict=True), start=2):
        if check == NET_BENEFIT_CHECK:
            put_formula(sheet, row, 2 + offset, f"=passes{cell.suffix}")
        elif check in cell.checks:  # a check whose rule is a formula of the input cells
            put_formula(sheet, row, 2 + offset, f"={cell.checks[check]}")
        if check in FORMULA_CHECKS and (check == NET_BENEFIT_CHECK or check in cell.checks):
            put_formula(sheet, row, 3 + offset, check_sentence(check, cell))

    rates = ", ".join(dict.fromkeys(share(result.discount_rate) for result in results))
    note = (
        f"Note: the checks {', '.join(FORMULA_CHECKS)} are formulas of the input cells: their Passed and "
        "Message cells follow the Inputs sheet. The other checks are as netbenefit evaluated them, at the "
        f"discount rate of the run ({rates}): they do not follow the discount-rate cell or any other input cell."
    )
    put(sheet, len(rows) + 3, 1, note, NUMBER_FORMAT)


def _fixed_rate_note(sheet: Sheet, results, row: int, what: str) -> None:
    """A visible note under a table of values: they are at the discount rate of the run, and do not
    follow the discount-rate cell of the Inputs sheet (the ratio cell does)."""
    rates = ", ".join(dict.fromkeys(share(result.discount_rate) for result in results))
    text = (
        f"Note: {what} of this sheet are at the discount rate of the run ({rates}), fixed: they do "
        "not follow the discount-rate cell of the Inputs sheet. See the ratio cell of the cash-flow sheet "
        "(named ratio) for the net benefit ratio at the rate of that cell."
    )
    put(sheet, row, 1, text, NUMBER_FORMAT)


def by_tax_sheet(workbook: Book, results, labels, cells: Sequence[ScenarioCells]) -> None:
    """The counted benefits by tax, nominal and PV, as formulas of the cash-flow sheet: each counted
    stream of the tax weighted by its phase's window (``SUMPRODUCT`` with the weights, and with the
    discount factors for the PV), as netbenefit sums them (``result.benefits_by_tax``)."""
    tables = [(r, c) for r, c in zip(results, cells, strict=True) if r.table_columns_and_rows("benefits_by_tax")]
    columns, rows, names = _scenario_labels(results, labels, lambda r: r.table_columns_and_rows("benefits_by_tax"))
    if columns is None:
        return
    sheet = workbook.create_sheet(BY_TAX_SHEET)
    value_table(sheet, columns, rows, scenario_column=names, formats={"tax": NUMBER_FORMAT})
    offset = 1 if names is not None else 0
    row, too_long = 2, False
    for result, cell in tables:
        cf = quote_sheetname(cell.sheet)
        first, last = cell.years

        def rng(column: str, cf=cf, first=first, last=last) -> str:
            return f"{cf}!${column}${first}:${column}${last}"

        factor = rng(cell.discount_factor_column)
        for tax in result.table_columns_and_rows("benefits_by_tax")[1]:
            streams = cell.by_tax.get(tax[0], [])
            nominal = "+".join(f"SUMPRODUCT({rng(s)},{rng(w)})" for s, w in streams) or "0"
            pv = "+".join(f"SUMPRODUCT({rng(s)},{rng(w)},{factor})" for s, w in streams) or "0"
            if len(pv) < FORMULA_LENGTH_LIMIT:  # else (thousands of streams) netbenefit's values stay
                put_formula(sheet, row, columns.index("nominal") + 1 + offset, f"={nominal}", MONEY_FORMAT)
                put_formula(sheet, row, columns.index("pv") + 1 + offset, f"={pv}", MONEY_FORMAT)
            else:
                too_long = True
            row += 1
    note = (
        "Note: the counted benefits by tax are formulas of the cash-flow sheets: they follow the input "
        "cells of the Inputs sheet, the discount-rate cell included."
    )
    if too_long:
        note += (
            " Where a tax has more streams than one formula of Excel can hold, its cells are netbenefit's "
            "values at the run, as evaluated, not recomputed."
        )
    put(sheet, len(rows) + 3, 1, note, NUMBER_FORMAT)


def clawback_sheet(workbook: Book, results, labels) -> None:
    columns, rows, names = _scenario_labels(results, labels, lambda r: r.table_columns_and_rows("clawback_schedule"))
    if columns is None:
        return
    sheet = workbook.create_sheet(CLAWBACK_SHEET)
    value_table(sheet, columns, rows, scenario_column=names)
    _fixed_rate_note(sheet, results, len(rows) + 3, "The present values")


def warnings_sheet(workbook: Book, results, labels) -> None:
    columns, rows, names = _scenario_labels(
        results, labels, lambda r: (["Warning"], [(w,) for w in (list(r.warnings) or ["No plausibility warning."])])
    )
    sheet = workbook.create_sheet(WARNINGS_SHEET)
    value_table(sheet, columns, rows, scenario_column=names, formats={"Warning": NUMBER_FORMAT})
