"""The sheets of the workbook but the cash-flow sheets: inputs, phase tests, summary, checks,
benefits by tax, clawback schedule, warnings (:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.disclosures import applied_multipliers
from .book import Book, Sheet
from .cells import ScenarioCells, column_letter, fit_widths, header_row, put, put_formula, quote_sheetname, value_table
from .layout import (
    BY_TAX_SHEET,
    CHECK_TITLES,
    CHECKS_SHEET,
    CLAWBACK_SHEET,
    INPUTS_SHEET,
    LIVE_FILL,
    MAX_COLUMN_WIDTH,
    MONEY_FORMAT,
    NET_BENEFIT_CHECK,
    NUMBER_FORMAT,
    PERCENT_FORMAT,
    PHASE_TESTS_SHEET,
    TABLE_FORMATS,
    WARNINGS_SHEET,
    input_label,
    table_header,
)
from .model import input_rows

if TYPE_CHECKING:
    from result import Result


def inputs_sheet(workbook, results: Sequence[Result], cells: Sequence[ScenarioCells], comparison: bool) -> None:
    sheet = workbook.create_sheet(INPUTS_SHEET)
    per_scenario = [{key: (value, given) for key, value, given in input_rows(r.scenario)} for r in results]
    # The multipliers as applied (a table row, or the earnings multiplier standing for the
    # construction one), not the scenario's unused defaults (netbenefit.model.disclosures).
    applied = [{f"revenue.{m.name}": m for m in applied_multipliers(r.scenario)} for r in results]
    keys = list(dict.fromkeys(key for rows in per_scenario for key in rows))
    value_headers = [r.name for r in results] if comparison else ["Value"]
    extra = [] if comparison else ["Given in the scenario"]
    header_row(sheet, ["Input", "Key", "Unit", *value_headers, *extra, "Note"])
    first_value = 4
    note_column = first_value + len(results) + len(extra)
    for row, key in enumerate(keys, start=2):
        label, unit, number_format = input_label(key)
        put(sheet, row, 1, label)
        put(sheet, row, 2, key)
        put(sheet, row, 3, unit)
        for k, rows in enumerate(per_scenario):
            if key in rows:
                value, given = rows[key]
                multiplier = applied[k].get(key)
                derived = multiplier is not None and not multiplier.is_the_key
                put(sheet, row, first_value + k, multiplier.value if derived else value, number_format)
                if not comparison:
                    put(sheet, row, first_value + 1, "applied" if derived else "yes" if given else "default")
                if derived:
                    put(sheet, row, note_column, f"Applied: {multiplier.value:g} from {multiplier.source}")
        if key in ("discount_rate", "timing"):
            for k, cell in enumerate(cells):
                coordinate = f"{column_letter(first_value + k)}{row}"
                sheet[coordinate].fill = LIVE_FILL
                setattr(cell, key, coordinate)
            _validate(sheet, key, [f"{column_letter(first_value + k)}{row}" for k in range(len(cells))])
            what = "the discount factors" if key == "discount_rate" else "the discount factors (mid_year: t - 0.5)"
            names = ", ".join(f"{key}{cell.suffix}" for cell in cells)
            put(sheet, row, note_column, f"Live: {what} of the cash-flow sheets use this cell (name {names})")
    fit_widths(sheet)
    sheet.set_width(note_column, MAX_COLUMN_WIDTH)
    sheet.freeze_panes = f"{column_letter(first_value)}2"


def _validate(sheet: Sheet, key: str, coordinates: Sequence[str]) -> None:
    """Refuse an edit of a live cell that netbenefit would refuse: a rate of -1 or less, a timing
    other than end_of_year or mid_year."""
    if key == "timing":
        rule = {"validate": "list", "source": ["end_of_year", "mid_year"], "error_message": "end_of_year or mid_year"}
    else:
        rule = {"validate": "decimal", "criteria": ">", "value": -1}
        rule["error_message"] = "a decimal rate greater than -1 (0.06 for 6%)"
    sheet.validations.append(({**rule, "ignore_blank": False, "show_error": True}, list(coordinates)))


def phase_tests_sheet(workbook, results: Sequence[Result], cells: Sequence[ScenarioCells], comparison: bool) -> None:
    """The cumulative net benefit tests, 71(a)(5), as formulas on the cash-flow sheets."""
    from ...law.parameters import parameter

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
        put_formula(target, int(cell.passes[1:]), column, f"=AND({first_pass}:{last_pass})")
    fit_widths(sheet)
    sheet.freeze_panes = "A2"


def summary_sheet(sheet, results: Sequence[Result], cells: Sequence[ScenarioCells]) -> None:
    """One row per scenario (:func:`netbenefit.compare`); the figures that follow the discount rate
    are formulas on the names of the scenario."""
    from ...model.compare import SUMMARY_COLUMNS, summary_row

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
    }
    for row_number, (row, cell) in enumerate(zip(rows, cells, strict=True), start=2):
        for k, (column, value) in enumerate(zip(columns, row, strict=True), start=1):
            number_format = TABLE_FORMATS.get(column, MONEY_FORMAT)
            if column in live:
                put_formula(sheet, row_number, k, f"={live[column]}{cell.suffix}", number_format)
            elif column == "max_credit_pv":
                put_formula(sheet, row_number, k, f"=pv_benefits{cell.suffix}/threshold{cell.suffix}", number_format)
            elif column == "eligible":  # every check: 71(a)(5) follows the discount rate, the others are values
                others = _other_checks_pass(results[row_number - 2])
                put_formula(sheet, row_number, k, f"=AND(passes{cell.suffix},{'TRUE' if others else 'FALSE'})")
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
    """Whether every check but the net benefit test, 71(a)(5), passed."""
    return all(bool(check.passed) for check in result.table_rows("checks") if check.id != NET_BENEFIT_CHECK)


def checks_sheet(workbook: Book, results, labels, cells: Sequence[ScenarioCells]) -> None:
    """The checks as values, but the passed cell of the net benefit test, 71(a)(5), which is the
    formula of the cash-flow sheet (its message is the one at the scenario's rate)."""

    suffix_of = {id(result): cell.suffix for result, cell in zip(results, cells, strict=True)}

    def table(result):
        see = _SEE_RATIO.format(suffix=suffix_of[id(result)])
        rows = [
            (
                check.id,
                bool(check.passed),
                check.message + (see if check.id == NET_BENEFIT_CHECK else ""),
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
    suffixes = [cell.suffix for result, cell in zip(results, cells, strict=True) for _ in result.table_rows("checks")]
    for row, (check, suffix) in enumerate(zip((row[0] for row in rows), suffixes, strict=True), start=2):
        if check == NET_BENEFIT_CHECK:
            put_formula(sheet, row, 2 + offset, f"=passes{suffix}")
    _fixed_rate_note(sheet, results, len(rows) + 3, "The messages")


#: Appended to the message of the net benefit test: the message is at the run's rate, the cell beside
#: it and the ratio cell follow the Inputs sheet.
_SEE_RATIO = (
    " (This message is at the discount rate of the run; after a change of the discount-rate cell, "
    "see the ratio cell, named ratio{suffix}, and the Passed cell beside, which follow it.)"
)


def _fixed_rate_note(sheet: Sheet, results, row: int, what: str) -> None:
    """A visible note under a table of values: they are at the discount rate of the run, and do not
    follow the discount-rate cell of the Inputs sheet (the ratio cell does)."""
    from ...law.labels import share

    rates = ", ".join(dict.fromkeys(share(result.discount_rate) for result in results))
    text = (
        f"Note: {what} of this sheet are at the discount rate of the run ({rates}), fixed: they do "
        "not follow the discount-rate cell of the Inputs sheet. See the ratio cell of the cash-flow sheet "
        "(named ratio) for the net benefit ratio at the rate of that cell."
    )
    put(sheet, row, 1, text, NUMBER_FORMAT)


def by_tax_sheet(workbook: Book, results, labels) -> None:
    columns, rows, names = _scenario_labels(results, labels, lambda r: r.table_columns_and_rows("benefits_by_tax"))
    if columns is None:
        return
    sheet = workbook.create_sheet(BY_TAX_SHEET)
    value_table(sheet, columns, rows, scenario_column=names, formats={"tax": NUMBER_FORMAT})
    _fixed_rate_note(sheet, results, len(rows) + 3, "The present values")


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
