"""The Excel workbook: a model a reviewer can audit, change and recompute.

:func:`write_workbook` writes one or several evaluated scenarios. The layout (docs/workbook.md):

- **Inputs**: every scenario input as validated (dotted key, human label, unit, value), defaults
  included. Two cells are live: the discount rate (workbook name ``discount_rate``) and the
  timing (``timing``: ``end_of_year`` or ``mid_year``). The other inputs are the record of
  what netbenefit evaluated; changing them changes nothing in the workbook.
- a **cash-flow sheet** per scenario: one row per project year. The amount of each benefit or
  cost stream of each phase, and each phase's requested credits, are values computed by
  netbenefit from the inputs (salaries, tax rates, ramp-up...). Everything that follows from
  them is an Excel formula: each phase's counted net benefits (abated streams left out,
  71(a)(5)(e)), its benefit-window weight (from the phase's window end, a fractional final year
  weighing its fraction), the counted net benefits of the year, the discount factor
  ``(1 + discount_rate) ^ -(t - offset)`` (offset 0.5 for mid-year timing), the present
  values, their sums and the net benefit ratio. Below the table: the PV of benefits (name
  ``pv_benefits``), of credits (``pv_credits``), the ratio (``ratio``), the threshold and the
  benefit window of each phase.
- **Phase tests**: the cumulative test of 71(a)(5) per phase, as formulas on the cash-flow sheet.
- **Checks**, **Benefits by tax**, **Clawback schedule**, **Warnings**: values. The first three
  carry a visible note under their table: their present values and messages are at the discount
  rate of the run and do not follow the discount-rate cell; the message of the net benefit test
  points to the ratio cell, which does.

A comparison (several scenarios) starts with a **Summary** sheet and gives each scenario one value
column of the Inputs sheet and one cash-flow sheet; its names carry the scenario's number as a
suffix (``discount_rate_1``, ``ratio_1``, ``pv_benefits_2``...), listed on the Summary sheet.

Every text that comes from a scenario or a message is written through :func:`_cell_text`, so that
no cell starts a formula.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from . import safe_text
from .disclosures import applied_multipliers

if TYPE_CHECKING:
    from .result import Result
    from .scenario import Scenario

# ----------------------------------------------------------------------------------------------
# Sheet names, formats
# ----------------------------------------------------------------------------------------------

#: Fixed sheet names.
SUMMARY_SHEET = "Summary"
INPUTS_SHEET = "Inputs"
CASHFLOW_SHEET = "Cash flows"  # the cash-flow sheet of a single result
PHASE_TESTS_SHEET = "Phase tests"
CHECKS_SHEET = "Checks"
BY_TAX_SHEET = "Benefits by tax"
CLAWBACK_SHEET = "Clawback schedule"
WARNINGS_SHEET = "Warnings"
FIXED_SHEETS = (
    SUMMARY_SHEET,
    INPUTS_SHEET,
    CASHFLOW_SHEET,
    PHASE_TESTS_SHEET,
    CHECKS_SHEET,
    BY_TAX_SHEET,
    CLAWBACK_SHEET,
    WARNINGS_SHEET,
)
#: Sheet names Excel reserves for itself (a sheet so named cannot be opened): never given to a scenario.
EXCEL_RESERVED_SHEETS = ("History",)
#: Excel's limit on the length of a sheet name. [characters]
SHEET_NAME_LIMIT = 31
#: Excel's limits on a formula: its length and the arguments of one function. [characters, arguments]
FORMULA_LENGTH_LIMIT = 8192
FORMULA_ARGUMENT_LIMIT = 255
#: Excel's limit on the length of a cell's text. [characters]
CELL_TEXT_LIMIT = 32767
MONEY_FORMAT, PERCENT_FORMAT, RATE_FORMAT = '"$"#,##0', "0.0%", "0.00%"
JOBS_FORMAT, WEIGHT_FORMAT, FACTOR_FORMAT = "#,##0.0", "0.00", "0.000000"
DATE_FORMAT, NUMBER_FORMAT = "yyyy-mm-dd", "General"
#: The widest a workbook column is made. [characters]
MAX_COLUMN_WIDTH = 64
#: Fill of the cells a reviewer may change (discount rate, timing).
LIVE_FILL = "FFF2CC"

# ----------------------------------------------------------------------------------------------
# Text written to cells
# ----------------------------------------------------------------------------------------------



def _cell_text(text: Any) -> str:
    """User-provided text as a cell can hold it and no spreadsheet reads as a formula
    (:func:`netbenefit.safe_text.cell`), cut at Excel's cell limit."""
    return safe_text.cell(str(text))[:CELL_TEXT_LIMIT]


# ----------------------------------------------------------------------------------------------
# Labels and units (one table; see the project's labels for the wider set)
# ----------------------------------------------------------------------------------------------

#: Input field -> (label, unit, number format). Keyed by the last named segment of a dotted key.
INPUT_LABELS: dict[str, tuple[str, str, str]] = {
    "name": ("Name", "", NUMBER_FORMAT),
    "description": ("Description", "", NUMBER_FORMAT),
    "application_date": ("Application date, 71(f)", "date", DATE_FORMAT),
    "approval_date": ("Approval date (project year 1)", "date", DATE_FORMAT),
    "discount_rate": ("Discount rate, 71(a)(5)(c)", "decimal per year", RATE_FORMAT),
    "timing": ("Discount timing", "end_of_year or mid_year", NUMBER_FORMAT),
    "method": ("Method (set of conventions, netbenefit.methods)", "netbenefit or authority", NUMBER_FORMAT),
    "dependents_per_return": ("Dependants per return, N.J.S.A. 54A:3-1(b)(2)", "dependants", NUMBER_FORMAT),
    "property_tax_deduction": ("Property tax deduction per return, N.J.S.A. 54A:3A-17", "USD", MONEY_FORMAT),
    "earned_income_tax_credit": ("NJ earned income tax credit netted, N.J.S.A. 54A:4-7", "yes/no", NUMBER_FORMAT),
    "threshold_override": ("Threshold override, 71(a)(5)(f)", "multiple of PV of credits", NUMBER_FORMAT),
    "small_business": ("Small business", "yes/no", NUMBER_FORMAT),
    "targeted_industry": ("Targeted industry", "yes/no", NUMBER_FORMAT),
    "full_time_employees_at_application": ("Full-time employees at application", "employees", JOBS_FORMAT),
    "qualified_incentive_area": ("Qualified incentive area, 71(a)(3)", "yes/no", NUMBER_FORMAT),
    "qualified_incentive_tract": ("Qualified incentive tract", "yes/no", NUMBER_FORMAT),
    "government_restricted_municipality": ("Government-restricted municipality", "yes/no", NUMBER_FORMAT),
    "distressed_municipality": ("Distressed municipality", "yes/no", NUMBER_FORMAT),
    "enhanced_area": ("Enhanced area", "yes/no", NUMBER_FORMAT),
    "mega_project": ("Mega project", "yes/no", NUMBER_FORMAT),
    "use": ("Use of the portion", "", NUMBER_FORMAT),
    "work": ("Work on the portion", "", NUMBER_FORMAT),
    "gross_leasable_area_sqft": ("Gross leasable area", "sq ft", "#,##0"),
    "accommodates_share": ("Share of jobs the facility accommodates, 71(d)", "decimal share", RATE_FORMAT),
    "capital_investment": ("Capital investment", "USD", MONEY_FORMAT),
    "new": ("New full-time jobs at full ramp-up", "jobs", JOBS_FORMAT),
    "retained": ("Retained full-time jobs", "jobs", JOBS_FORMAT),
    "ramp": ("Share of new jobs in place", "decimal share", RATE_FORMAT),
    "median_salary": ("Median salary in year 1", "USD per year", MONEY_FORMAT),
    "salary_growth": ("Salary growth", "decimal per year", RATE_FORMAT),
    "nj_withholding_share": ("Share of jobs with NJ withholding, 71(d)", "decimal share", RATE_FORMAT),
    "annual_credit": ("Annual tax credit", "USD per year", MONEY_FORMAT),
    "per_new_job": ("Credit per new job", "USD per job per year", MONEY_FORMAT),
    "per_retained_job": ("Credit per retained job", "USD per job per year", MONEY_FORMAT),
    "per_job": ("Bonus per job", "USD per job per year", MONEY_FORMAT),
    "cap_per_job": ("Cap per job", "USD per job per year", MONEY_FORMAT),
    "qualified_opportunity_zone": ("Qualified opportunity zone", "yes/no", NUMBER_FORMAT),
    "employment_and_investment_corridor": ("Employment and investment corridor", "yes/no", NUMBER_FORMAT),
    "labor_harmony": ("Labor harmony agreement", "yes/no", NUMBER_FORMAT),
    "eligibility_period_years": ("Eligibility period", "years", NUMBER_FORMAT),
    "first_credit_year": ("First credit year", "project (phase) year", NUMBER_FORMAT),
    "period_years": ("Commitment period", "years", NUMBER_FORMAT),
    "extended_years": ("Extended commitment, 71(a)(5)(d)", "years", NUMBER_FORMAT),
    "income_tax_effective_rate": ("Income tax effective rate", "decimal", RATE_FORMAT),
    "income_tax": ("Income tax", "", NUMBER_FORMAT),
    "taxable_spending_share": ("Taxable spending share of wages", "decimal share", RATE_FORMAT),
    "construction_taxable_share": ("Taxable share of capital investment", "decimal share", RATE_FORMAT),
    "construction_labor_share": ("Labor share of capital investment", "decimal share", RATE_FORMAT),
    "construction_income_tax_rate": ("Construction income tax rate", "decimal", RATE_FORMAT),
    "earnings_multiplier": ("Earnings multiplier", "total / direct", NUMBER_FORMAT),
    "construction_earnings_multiplier": ("Construction earnings multiplier", "total / direct", NUMBER_FORMAT),
    "employment_multiplier": ("Employment multiplier", "total / direct jobs", NUMBER_FORMAT),
    "corporate_business_tax": ("Corporation business tax", "USD per year", MONEY_FORMAT),
    "sales_and_use_tax_rate": ("Sales and use tax rate", "decimal", RATE_FORMAT),
    "kind": ("Stream kind", "revenue or cost", NUMBER_FORMAT),
    "abated": ("Abated, excluded under 71(a)(5)(e)", "yes/no", NUMBER_FORMAT),
    "by_year": ("Stream amount", "USD", MONEY_FORMAT),
    "from_csv": ("Stream read from CSV (values inline)", "file", NUMBER_FORMAT),
    "material_factor": ("Attested: material factor, 71(a)(4)", "yes/no", NUMBER_FORMAT),
    "environmental_standards": ("Attested: environmental standards, 71(a)(6)", "yes/no", NUMBER_FORMAT),
    "affirmative_action": ("Attested: affirmative action, 71(a)(7)", "yes/no", NUMBER_FORMAT),
    "construction": ("Prevailing wage: construction", "yes/no", NUMBER_FORMAT),
    "building_services": ("Prevailing wage: building services", "yes/no", NUMBER_FORMAT),
    "landlord_not_assisted": ("Exemption: landlord not assisted", "yes/no", NUMBER_FORMAT),
    "landlord_party_to_contract": ("Exemption: landlord party to contract", "yes/no", NUMBER_FORMAT),
    "lease_share_of_facility": ("Exemption: lease share of facility", "decimal share", RATE_FORMAT),
    "construction_starts_years_after_first_certificate": (
        "Construction starts after first certificate",
        "years",
        NUMBER_FORMAT,
    ),
    "start_year": ("Phase start", "years after approval", NUMBER_FORMAT),
}

#: The check whose result follows the discount rate.
NET_BENEFIT_CHECK = "71(a)(5)"
#: Short titles of the checks (the clause column of the Checks sheet).
CHECK_TITLES = {
    "71(a)(1)": "capital investment minimum, or the infrastructure fund donation of 71(b)(2)",
    "71(a)(2)": "minimum number of new or retained full-time jobs, 71(c)",
    "71(a)(3)": "located in a qualified incentive area",
    "71(a)(4)": "the award is a material factor in the business decision",
    "71(a)(5)": "net positive benefit test",
    "71(a)(6)": "environmental standards",
    "71(a)(7)": "affirmative action",
    "71(a)(8)": "prevailing wage",
    "71(d)": "jobs accommodated and NJ withholding",
    "71(f)": "application date",
}

#: Headers (label with unit) of the value tables.
TABLE_HEADERS = {
    "scenario": "Scenario",
    "name": "Name",
    "eligible": "Eligible",
    "passes": "Net benefit test passed",
    "ratio": "Net benefit ratio",
    "threshold": "Threshold (multiple of PV of credits)",
    "threshold_clause": "Threshold clause",
    "pv_benefits": "PV of net benefits [USD]",
    "pv_credits": "PV of requested credits [USD]",
    "max_credit_pv": "Largest credit that passes, PV [USD]",
    "requested_credits": "Requested credits, nominal [USD]",
    "discount_rate": "Discount rate [per year]",
    "jobs_clause": "Jobs clause, 71(c)",
    "retained_jobs_eligible": "Retained jobs counted",
    "capital_investment_minimum": "Capital investment minimum [USD]",
    "infrastructure_fund_donation": "Infrastructure fund donation [USD]",
    "extended_years": "Extended commitment [years]",
    "incremental_credit": "Incremental credit [USD]",
    "failed_checks": "Failed checks",
    "tax": "Tax",
    "nominal": "Counted benefits, nominal [USD]",
    "pv": "Counted benefits, PV [USD]",
    "years_maintained": "Years maintained",
    "credits_received": "Credits received [USD]",
    "recapture": "Recapture [USD]",
    "recapture_none": "Recapture, least: none [USD]",
    "recapture_all": "Recapture, most: all [USD]",
    "interest": "Interest on the recapture [USD]",
    "extension_repayment": "Extension repayment [USD]",
    "total": "Total at risk [USD]",
    "pv_total": "Total at risk, PV [USD]",
}
_TABLE_FORMATS = {
    "ratio": PERCENT_FORMAT,
    "threshold": PERCENT_FORMAT,
    "discount_rate": RATE_FORMAT,
    "extended_years": NUMBER_FORMAT,
    "years_maintained": NUMBER_FORMAT,
}
_STREAM_LABELS = {
    "income_tax": "Income tax",
    "spending_sales_tax": "Sales tax on spending",
    "construction_income_tax": "Construction income tax",
    "construction_spending_sales_tax": "Sales tax on construction workers' spending",
    "construction_sales_tax": "Sales tax on construction materials",
    "corporation_business_tax": "Corporation business tax",
}
_EFFECT_LABELS = {"direct": "direct", "indirect_and_induced": "indirect and induced"}


def input_label(key: str) -> tuple[str, str, str]:
    """(label, unit, number format) of a dotted input key (``phases.0.capital_investment.2``)."""
    segments = key.split(".")
    named = [s for s in segments if not s.isdigit()]
    label, unit, number_format = INPUT_LABELS.get(named[-1], (named[-1].replace("_", " ").capitalize(), "", ""))
    if segments[-1].isdigit():
        if named[-1] in ("capital_investment", "by_year"):
            label = f"{label}, year {segments[-1]}"
        else:
            label = f"{label}, item {int(segments[-1]) + 1}"
    if segments[0] == "phases" and len(segments) > 1 and segments[1].isdigit():
        label = f"Phase {int(segments[1]) + 2}: {label}"
    return label, unit, number_format


def _header(column: str) -> str:
    return TABLE_HEADERS.get(column, column.replace("_", " ").capitalize())


# ----------------------------------------------------------------------------------------------
# Inputs as rows
# ----------------------------------------------------------------------------------------------


def input_rows(scenario: Scenario) -> list[tuple[str, Any, bool]]:
    """Every input of ``scenario`` as (dotted key, value, given in the scenario), defaults included.

    Lists and year mappings are opened into one row per item; an empty list or mapping has no
    row; a value not given (None) has an empty value.
    """
    from pydantic import BaseModel

    rows: list[tuple[str, Any, bool]] = []

    def walk(node: Any, key: str, given: bool) -> None:
        if isinstance(node, BaseModel):
            for name in type(node).model_fields:
                walk(getattr(node, name), f"{key}.{name}" if key else name, given and name in node.model_fields_set)
        elif isinstance(node, Mapping):
            for item, value in node.items():
                walk(value, f"{key}.{item}", given)
        elif isinstance(node, list | tuple):
            for index, value in enumerate(node):
                walk(value, f"{key}.{index}", given)
        else:
            rows.append((key, node, given))

    walk(scenario, "", True)
    return rows


# ----------------------------------------------------------------------------------------------
# The model behind a cash-flow sheet
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Stream:
    label: str
    amounts: np.ndarray  # signed: revenues > 0, costs < 0 [USD, nominal]
    abated: bool


@dataclass(frozen=True)
class _Phase:
    number: int
    name: str
    start_year: float  # [years after approval]
    first_credit_year: float
    commitment_period_years: float
    counted_extension_years: float
    streams: tuple[_Stream, ...]
    credits: np.ndarray  # [USD, nominal]


@dataclass(frozen=True)
class _Model:
    years: list[int]  # [project year]
    context: dict[str, np.ndarray]  # full_time_jobs, wages, capital_investment: all phases, by year
    phases: list[_Phase]


def _model(result: Result) -> _Model:
    """The years, the context columns and each phase's streams, credits and benefit window, from
    the model (:mod:`netbenefit.cashflows`)."""
    scenario, computation = result.scenario, result.computation
    n_years = len(computation.years)
    extension = float(result.extended_years) if result.extension_counted else 0.0
    awards = [scenario.award] + [phase.award for phase in scenario.phases]
    phases = []
    for flows, award in zip(computation.phases, awards, strict=True):
        streams = []
        for component in flows.components:
            sign = 1.0 if component.kind == "revenue" else -1.0
            label = _STREAM_LABELS.get(component.name, component.name)
            if component.source != "explicit":
                label = f"{label}, {_EFFECT_LABELS.get(component.effect, component.effect)}"
            amounts = sign * np.broadcast_to(component.values, (1, n_years))[0]
            streams.append(_Stream(label, amounts.astype(float), bool(component.abated)))
        phases.append(
            _Phase(
                number=flows.number,
                name=flows.name,
                start_year=float(np.asarray(flows.start_year).reshape(-1)[0]),
                first_credit_year=float(award.first_credit_year),
                commitment_period_years=float(np.asarray(flows.commitment_period_years).reshape(-1)[0]),
                counted_extension_years=extension,
                streams=tuple(streams),
                credits=np.broadcast_to(flows.credits, (1, n_years))[0].astype(float),
            )
        )
    columns, rows = result._columns_and_rows("cashflows")  # the result's own totals over phases
    context = {
        name: np.array([row[columns.index(name)] for row in rows], dtype=float)
        for name in ("full_time_jobs", "wages", "capital_investment")
    }
    return _Model([int(year) for year in computation.years], context, phases)


# ----------------------------------------------------------------------------------------------
# Writing cells
# ----------------------------------------------------------------------------------------------


@functools.cache
def column_letter(index: int) -> str:
    """Excel's letters of the 1-based column ``index`` (1 -> A, 27 -> AA)."""
    from xlsxwriter.utility import xl_col_to_name

    return xl_col_to_name(index - 1)


def _row_column(coordinate: str) -> tuple[int, int]:
    """``B2`` or ``$B$2`` -> (2, 2): 1-based row and column."""
    from xlsxwriter.utility import xl_cell_to_rowcol

    row, column = xl_cell_to_rowcol(coordinate)
    return row + 1, column + 1


def quote_sheetname(name: str) -> str:
    """``'Sheet name'``: a sheet name as a formula refers to it (quoted, quotes doubled)."""
    return "'" + name.replace("'", "''") + "'"


@dataclass(slots=True)
class _Cell:
    """One cell of a :class:`_Sheet`: a value (text, number, boolean, date) or a formula, and its look."""

    value: Any = None
    number_format: str = NUMBER_FORMAT
    formula: bool = False
    bold: bool = False
    header: bool = False  # wrapped text, top-aligned
    fill: str | None = None  # RGB of a solid fill


class _Sheet:
    """A worksheet held in memory: its cells, column widths, frozen panes and data validations."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.cells: dict[tuple[int, int], _Cell] = {}
        self.widths: dict[int, float] = {}  # 1-based column -> width [characters]
        self.freeze_panes: str | None = None  # the first cell that scrolls, e.g. B2
        self.validations: list[tuple[dict[str, Any], list[str]]] = []  # (XlsxWriter options, coordinates)
        self.max_row = self.max_column = 0

    def cell(self, row: int, column: int) -> _Cell:
        cell = self.cells.get((row, column))
        if cell is None:
            cell = self.cells[(row, column)] = _Cell()
            self.max_row, self.max_column = max(self.max_row, row), max(self.max_column, column)
        return cell

    def __getitem__(self, coordinate: str) -> _Cell:
        return self.cell(*_row_column(coordinate))

    def set_width(self, column: int | str, width: float) -> None:
        self.widths[column if isinstance(column, int) else _row_column(f"{column}1")[1]] = width


class _Book:
    """The workbook held in memory (sheets in order, workbook names); :meth:`save` writes it."""

    def __init__(self) -> None:
        self.sheets: dict[str, _Sheet] = {}
        self.names: dict[str, str] = {}  # name -> absolute reference, e.g. 'Inputs'!$D$5

    def create_sheet(self, title: str) -> _Sheet:
        self.sheets[title] = sheet = _Sheet(title)
        return sheet

    def __getitem__(self, title: str) -> _Sheet:
        return self.sheets[title]

    def save(self, path: str | Path) -> None:
        """Write the ``.xlsx`` file with XlsxWriter. Formulas
        are written without a computed value and the workbook asks to be fully calculated on
        opening, so that every number a spreadsheet shows is one it computed."""
        import xlsxwriter

        options = {"strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False}
        options["in_memory"] = True  # the parts zipped from memory, not from temporary files
        book = xlsxwriter.Workbook(str(path), options)
        from .files import NO_DATE, source_date

        # No time of writing, so that the same results give the same file (SOURCE_DATE_EPOCH to set one)
        book.set_properties({"created": source_date() or dt.datetime(*NO_DATE, tzinfo=dt.UTC)})
        formats: dict[tuple, Any] = {}

        def look(cell: _Cell):
            key = (cell.number_format, cell.bold, cell.header, cell.fill)
            if key not in formats:
                properties: dict[str, Any] = {}
                if cell.number_format != NUMBER_FORMAT:
                    properties["num_format"] = cell.number_format
                if cell.bold or cell.header:
                    properties["bold"] = True
                if cell.header:
                    properties.update(text_wrap=True, valign="top")
                if cell.fill:
                    properties.update(pattern=1, bg_color=f"#{cell.fill}")
                formats[key] = book.add_format(properties) if properties else None
            return formats[key]

        worksheet_class = _worksheet_class()
        for sheet in self.sheets.values():
            worksheet = book.add_worksheet(sheet.title, worksheet_class=worksheet_class)
            for (row, column), cell in sheet.cells.items():
                r, c, value, cell_format = row - 1, column - 1, cell.value, look(cell)
                if cell.formula:
                    worksheet.write_formula(r, c, value, cell_format, "")  # "": no cached value
                elif value is None:
                    worksheet.write_blank(r, c, None, cell_format)
                elif isinstance(value, bool):
                    worksheet.write_boolean(r, c, value, cell_format)
                elif isinstance(value, int | float):
                    worksheet.write_number(r, c, value, cell_format)
                elif isinstance(value, dt.date):
                    worksheet.write_datetime(r, c, value, cell_format)
                else:
                    worksheet.write_string(r, c, value, cell_format)
            for column, width in sheet.widths.items():
                worksheet.set_column(column - 1, column - 1, width)
            if sheet.freeze_panes is not None:
                worksheet.freeze_panes(sheet.freeze_panes)
            for rule, coordinates in sheet.validations:
                for coordinate in coordinates:
                    worksheet.data_validation(f"{coordinate}:{coordinate}", rule)
        for name, reference in self.names.items():
            book.define_name(name, f"={reference}")
        book.close()


#: The functions the workbook's formulas use: none is one that XlsxWriter renames for Excel
#: (``_xlfn.`` prefixes of functions newer than Excel 2007).
FORMULA_FUNCTIONS = frozenset({"ABS", "AND", "IF", "MAX", "MIN", "NA", "OR", "POWER", "SUM", "SUMPRODUCT"})


@functools.cache
def _worksheet_class():
    """XlsxWriter's Worksheet, but that a formula made only of :data:`FORMULA_FUNCTIONS` is written
    as it is, without the 29 to 100+ renaming passes XlsxWriter makes over every formula (about
    40% of the time to write the workbook), which could change none of them."""
    from xlsxwriter.worksheet import Worksheet

    class _Worksheet(Worksheet):
        def _prepare_formula(self, formula, *args, **kwargs):
            if set(_FUNCTION_CALL.findall(formula)) <= FORMULA_FUNCTIONS and not formula.startswith("{"):
                return formula[1:] if formula.startswith("=") else formula
            return super()._prepare_formula(formula, *args, **kwargs)

    return _Worksheet


_FUNCTION_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\(")


def _put(sheet: _Sheet, row: int, column: int, value: Any, number_format: str | None = None) -> _Cell:
    """Write a value (text through :func:`_cell_text`; NaN and None as an empty cell)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str):
        value = _cell_text(value)
    elif isinstance(value, float) and not np.isfinite(value):
        value = None
    elif value is not None and not isinstance(value, bool | int | float | dt.date):
        value = _cell_text(value)
    cell = sheet.cell(row, column)
    if value is not None:
        cell.value, cell.formula = value, False
    if number_format and isinstance(value, int | float | dt.date) and not isinstance(value, bool):
        cell.number_format = number_format
    return cell


def _formula(sheet: _Sheet, row: int, column: int, formula: str, number_format: str | None = None) -> _Cell:
    """Write a formula (built here from cell references and names, never from user text)."""
    cell = sheet.cell(row, column)
    cell.value, cell.formula = formula, True
    if number_format:
        cell.number_format = number_format
    return cell


def _sum_of_columns(columns: Sequence[int], row: int) -> str:
    """The sum of the cells of ``columns`` in ``row``, as a formula (without ``=``): one cell as
    itself, else ``SUM`` over the runs of adjacent columns as ranges (``SUM(D5:K5,M5)``), nested
    so that no ``SUM`` takes more than :data:`FORMULA_ARGUMENT_LIMIT` arguments; ``0`` for none."""
    runs: list[list[int]] = []
    for column in columns:
        if runs and column == runs[-1][-1] + 1:
            runs[-1].append(column)
        else:
            runs.append([column])
    if not runs:
        return "0"
    if len(runs) == 1 and len(runs[0]) == 1:
        return f"{column_letter(runs[0][0])}{row}"
    references = [
        f"{column_letter(run[0])}{row}" + (f":{column_letter(run[-1])}{row}" if len(run) > 1 else "") for run in runs
    ]
    while len(references) > FORMULA_ARGUMENT_LIMIT:
        references = [
            f"SUM({','.join(references[k : k + FORMULA_ARGUMENT_LIMIT])})"
            for k in range(0, len(references), FORMULA_ARGUMENT_LIMIT)
        ]
    return f"SUM({','.join(references)})"


def _ref(sheet_name: str, cell: str) -> str:
    """``'Sheet name'!$A$1``: an absolute reference to a cell of a sheet."""
    row, column = _row_column(cell)
    return f"{quote_sheetname(sheet_name)}!${column_letter(column)}${row}"


def _define(workbook: _Book, name: str, sheet_name: str, cell: str) -> None:
    workbook.names[name] = _ref(sheet_name, cell)


def _header_row(sheet: _Sheet, headers: Sequence[str], row: int = 1) -> None:
    for column, header in enumerate(headers, start=1):
        _put(sheet, row, column, header).header = True


def _fit_widths(sheet: _Sheet, last_row: int | None = None, minimum: int = 8) -> None:
    """Column widths fitted to the shown values of rows 2..last_row and to the header (wrapped)."""
    last_row = last_row or sheet.max_row
    widths = dict.fromkeys(range(1, sheet.max_column + 1), minimum)
    headers = dict.fromkeys(widths, "")
    for (row, column), cell in sheet.cells.items():
        if row == 1:
            headers[column] = str(cell.value or "")
        elif row <= last_row:
            widths[column] = max(widths[column], _shown_width(cell, cell.number_format))
    for column, width in widths.items():
        width = max(width, min(len(headers[column]), 24))
        sheet.widths[column] = min(width + 3, MAX_COLUMN_WIDTH)


def _shown_width(cell: _Cell, number_format: str) -> int:
    """Approximate characters that ``cell`` takes when shown in ``number_format``."""
    value = cell.value
    if value is None:
        return 0
    if cell.formula:
        return 14  # a formula: an amount in dollars or a factor
    if isinstance(value, bool) or not isinstance(value, int | float):
        return len(str(value))
    if number_format == MONEY_FORMAT:
        return len(f"${value:,.0f}")
    if number_format in (PERCENT_FORMAT, RATE_FORMAT):
        return len(f"{value:.2%}")
    return len(f"{value:,.2f}")


def _value_table(
    sheet: _Sheet,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    scenario_column: Sequence[str] | None = None,
    formats: Mapping[str, str] = {},
):
    """A table (column names, rows) as a value table with human headers, formats and a frozen header row."""
    headers = ([TABLE_HEADERS["scenario"]] if scenario_column is not None else []) + [_header(c) for c in columns]
    _header_row(sheet, headers)
    offset = 1 if scenario_column is not None else 0
    for row_number, row in enumerate(rows, start=2):
        if scenario_column is not None:
            _put(sheet, row_number, 1, scenario_column[row_number - 2])
        for k, (column, value) in enumerate(zip(columns, row, strict=True), start=1 + offset):
            _put(sheet, row_number, k, value, formats.get(column) or _TABLE_FORMATS.get(column, MONEY_FORMAT))
    _fit_widths(sheet)
    sheet.freeze_panes = "A2"


# ----------------------------------------------------------------------------------------------
# The workbook
# ----------------------------------------------------------------------------------------------


@dataclass
class _Cells:
    """Where one scenario's live cells and totals are (for names and cross-sheet formulas)."""

    suffix: str
    inputs_column: int = 0
    discount_rate: str = ""  # absolute reference, e.g. 'Inputs'!$D$5
    timing: str = ""
    sheet: str = ""  # the cash-flow sheet
    pv_benefits: str = ""  # cell on the cash-flow sheet, e.g. E45
    pv_credits: str = ""
    ratio: str = ""
    threshold: str = ""
    passes: str = ""
    years: tuple[int, int] = (2, 2)  # first and last row of the year table
    phase_columns: tuple[tuple[str, str, str], ...] = ()  # (net benefits, weight, credits) column letters
    discount_factor_column: str = ""


def write_workbook(results: Sequence[Result], path: Path, *, comparison: bool = True) -> Path:
    """Write the workbook of ``results`` to ``path`` (atomically); returns the path.

    ``comparison``: the layout of ``netbenefit compare`` (a Summary sheet, one cash-flow sheet per
    scenario named after its file, names suffixed ``_1``, ``_2``...); otherwise the layout of a
    single result (:meth:`Result.to_excel`): one cash-flow sheet ``Cash flows`` and unsuffixed
    names ``discount_rate``, ``timing``, ``pv_benefits``, ``pv_credits``, ``ratio``.

    Raises OSError naming ``path`` when it cannot be written.
    """
    from .files import file_stems, write_file

    results = list(results)
    if not comparison and len(results) != 1:
        raise ValueError("a single-result workbook holds exactly one result")
    workbook = build_workbook(results, comparison=comparison, sheet_stems=file_stems(results))
    return write_file(Path(path), workbook.save)


def sheet_names(stems: Sequence[str], reserved: Sequence[str] = FIXED_SHEETS) -> list[str]:
    """A distinct Excel sheet name for each stem: at most 31 characters, none of ``[]:*?/\\``,
    unique without regard to case (as Excel compares them) and distinct from ``reserved`` and from
    the names Excel reserves (:data:`EXCEL_RESERVED_SHEETS`)."""
    taken = {name.casefold() for name in (*reserved, *EXCEL_RESERVED_SHEETS)}
    names = []
    for stem in stems:
        base = re.sub(r"[\[\]:*?/\\]", "_", stem).strip("'") or "scenario"
        candidate, n = base[:SHEET_NAME_LIMIT], 2
        while candidate.casefold() in taken:
            suffix = f"~{n}"
            candidate, n = base[: SHEET_NAME_LIMIT - len(suffix)] + suffix, n + 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


def build_workbook(results: Sequence[Result], *, comparison: bool, sheet_stems: Sequence[str]):
    """The workbook of :func:`write_workbook`, in memory (its ``save(path)`` writes it)."""
    workbook = _Book()
    cells = [_Cells(suffix=f"_{i}" if comparison else "") for i in range(1, len(results) + 1)]
    cashflow_sheets = sheet_names(sheet_stems) if comparison else [CASHFLOW_SHEET]
    if comparison:
        summary = workbook.create_sheet(SUMMARY_SHEET)
    _inputs_sheet(workbook, results, cells, comparison)
    for result, cell, name in zip(results, cells, cashflow_sheets, strict=True):
        cell.sheet = name
        _cashflow_sheet(workbook, result, cell)
    _phase_tests_sheet(workbook, results, cells, comparison)
    if comparison:
        _summary_sheet(summary, results, cells)
    labels = [r.name for r in results] if comparison else None
    _checks_sheet(workbook, results, labels, cells)
    _by_tax_sheet(workbook, results, labels)
    _clawback_sheet(workbook, results, labels)
    _warnings_sheet(workbook, results, labels)
    for cell in cells:
        _define(workbook, f"discount_rate{cell.suffix}", INPUTS_SHEET, cell.discount_rate)
        _define(workbook, f"timing{cell.suffix}", INPUTS_SHEET, cell.timing)
        for name in ("pv_benefits", "pv_credits", "ratio", "threshold", "passes"):
            _define(workbook, f"{name}{cell.suffix}", cell.sheet, getattr(cell, name))
    # (no cached values: the workbook asks for every formula to be computed on opening, see _Book.save)
    return workbook


def _inputs_sheet(workbook, results: Sequence[Result], cells: Sequence[_Cells], comparison: bool) -> None:
    sheet = workbook.create_sheet(INPUTS_SHEET)
    per_scenario = [{key: (value, given) for key, value, given in input_rows(r.scenario)} for r in results]
    # The multipliers as applied (a table row, or the earnings multiplier standing for the
    # construction one), not the scenario's unused defaults (netbenefit.disclosures).
    applied = [{f"revenue.{m.name}": m for m in applied_multipliers(r.scenario)} for r in results]
    keys = list(dict.fromkeys(key for rows in per_scenario for key in rows))
    value_headers = [r.name for r in results] if comparison else ["Value"]
    extra = [] if comparison else ["Given in the scenario"]
    _header_row(sheet, ["Input", "Key", "Unit", *value_headers, *extra, "Note"])
    first_value = 4
    note_column = first_value + len(results) + len(extra)
    for row, key in enumerate(keys, start=2):
        label, unit, number_format = input_label(key)
        _put(sheet, row, 1, label)
        _put(sheet, row, 2, key)
        _put(sheet, row, 3, unit)
        for k, rows in enumerate(per_scenario):
            if key in rows:
                value, given = rows[key]
                multiplier = applied[k].get(key)
                derived = multiplier is not None and not multiplier.is_the_key
                _put(sheet, row, first_value + k, multiplier.value if derived else value, number_format)
                if not comparison:
                    _put(sheet, row, first_value + 1, "applied" if derived else "yes" if given else "default")
                if derived:
                    _put(sheet, row, note_column, f"Applied: {multiplier.value:g} from {multiplier.source}")
        if key in ("discount_rate", "timing"):
            for k, cell in enumerate(cells):
                coordinate = f"{column_letter(first_value + k)}{row}"
                sheet[coordinate].fill = LIVE_FILL
                setattr(cell, key, coordinate)
            _validate(sheet, key, [f"{column_letter(first_value + k)}{row}" for k in range(len(cells))])
            what = "the discount factors" if key == "discount_rate" else "the discount factors (mid_year: t - 0.5)"
            names = ", ".join(f"{key}{cell.suffix}" for cell in cells)
            _put(sheet, row, note_column, f"Live: {what} of the cash-flow sheets use this cell (name {names})")
    _fit_widths(sheet)
    sheet.set_width(note_column, MAX_COLUMN_WIDTH)
    sheet.freeze_panes = f"{column_letter(first_value)}2"


def _validate(sheet: _Sheet, key: str, coordinates: Sequence[str]) -> None:
    """Refuse an edit of a live cell that netbenefit would refuse: a rate of -1 or less, a timing
    other than end_of_year or mid_year."""
    if key == "timing":
        rule = {"validate": "list", "source": ["end_of_year", "mid_year"], "error_message": "end_of_year or mid_year"}
    else:
        rule = {"validate": "decimal", "criteria": ">", "value": -1}
        rule["error_message"] = "a decimal rate greater than -1 (0.06 for 6%)"
    sheet.validations.append(({**rule, "ignore_blank": False, "show_error": True}, list(coordinates)))


def _cashflow_sheet(workbook: _Book, result: Result, cells: _Cells) -> None:
    letter = column_letter
    sheet = workbook.create_sheet(cells.sheet)
    model = _model(result)
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
    _header_row(sheet, headers)

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
    _header_row(sheet, window_headers, row=window_row)
    window_end = {}
    for k, phase in enumerate(phases):
        row = window_row + 1 + k
        _put(sheet, row, 1, phase.number)
        _put(sheet, row, 2, phase.start_year)
        _put(sheet, row, 3, phase.first_credit_year)
        _put(sheet, row, 4, phase.commitment_period_years)
        _put(sheet, row, 5, phase.counted_extension_years)
        _formula(sheet, row, 6, f"=B{row}+C{row}-1+D{row}+E{row}")
        window_end[k] = (f"$B${row}", f"$F${row}")

    suffix = cells.suffix
    # Year 0, the approval year (emerge-model.md 2.1), has a row only when the scenario gives an
    # amount in it: discounted at t = 0 under both timings, inside the initial phase's window.
    year_zero = bool(years) and years[0] == 0
    for i, year in enumerate(years):
        r = first + i
        _put(sheet, r, year_column, year)
        for name, c in context_columns:
            _put(sheet, r, c, float(model.context[name][i]), formats[c - 1])
        for (stream_columns, net, weight, credit_column), phase in zip(layout, phases, strict=True):
            counted_columns = []
            for c, stream in zip(stream_columns, phase.streams, strict=True):
                _put(sheet, r, c, float(stream.amounts[i]), MONEY_FORMAT)
                if not stream.abated:
                    counted_columns.append(c)
            _formula(sheet, r, net, "=" + _sum_of_columns(counted_columns, r), MONEY_FORMAT)
            start, end = window_end[phase.number - 1]
            after = ">=" if year_zero and phase.number == 1 else ">"  # year 0 is in the initial phase's window
            _formula(sheet, r, weight, f"=IF(A{r}{after}{start},MAX(0,MIN(1,{end}-(A{r}-1))),0)", WEIGHT_FORMAT)
            if credit_column is not None:
                _put(sheet, r, credit_column, float(phase.credits[i]), MONEY_FORMAT)
        terms = "+".join(f"{letter(net)}{r}*{letter(weight)}{r}" for _, net, weight, _ in layout)
        _formula(sheet, r, counted, f"={terms}", MONEY_FORMAT)
        exponent = f'A{r}-IF(timing{suffix}="mid_year",0.5,0)'
        if year_zero:
            exponent = f"MAX(0,{exponent})"
        _formula(
            sheet,
            r,
            factor,
            f"=POWER(1+discount_rate{suffix},-({exponent}))",
            FACTOR_FORMAT,
        )
        _formula(sheet, r, pv, f"={letter(counted)}{r}*{letter(factor)}{r}", MONEY_FORMAT)
        if phased:
            _formula(sheet, r, credits_total, "=" + "+".join(f"{letter(c)}{r}" for *_, c in layout), MONEY_FORMAT)
        else:
            _put(sheet, r, credits_total, float(phases[0].credits[i]), MONEY_FORMAT)
        _formula(sheet, r, pv_credits, f"={letter(credits_total)}{r}*{letter(factor)}{r}", MONEY_FORMAT)
        previous = f"{letter(cumulative)}{r - 1}+" if i else ""
        _formula(sheet, r, cumulative, f"={previous}{letter(pv)}{r}", MONEY_FORMAT)
        previous = f"{letter(cumulative_credits)}{r - 1}+" if i else ""
        _formula(sheet, r, cumulative_credits, f"={previous}{letter(pv_credits)}{r}", MONEY_FORMAT)

    # Totals of the money columns.
    _put(sheet, total_row, year_column, "Total").bold = True
    summed = [c for _, c in context_columns[1:]] + [counted, pv, credits_total, pv_credits]
    for stream_columns, net, _, credit_column in layout:
        summed += [*stream_columns, net] + ([credit_column] if credit_column else [])
    for c in summed:
        _formula(sheet, total_row, c, f"=SUM({letter(c)}{first}:{letter(c)}{last})", MONEY_FORMAT).bold = True

    value = letter(value_column)
    for name, (row, label) in rows.items():
        _put(sheet, row, 1, label).bold = True
        setattr(cells, name, f"{value}{row}")
    _formula(sheet, rows["pv_benefits"][0], value_column, f"={letter(pv)}{total_row}", MONEY_FORMAT)
    _formula(sheet, rows["pv_credits"][0], value_column, f"={letter(pv_credits)}{total_row}", MONEY_FORMAT)
    _formula(
        sheet,
        rows["ratio"][0],
        value_column,
        f"={value}{rows['pv_benefits'][0]}/{value}{rows['pv_credits'][0]}",
        PERCENT_FORMAT,
    )
    _put(sheet, rows["threshold"][0], value_column, float(result.threshold), PERCENT_FORMAT)
    # "passes" is filled in by the Phase tests sheet, which holds the cumulative tests.
    cells.years = (first, last)
    cells.phase_columns = tuple(
        (letter(net), letter(weight), letter(credit_column if credit_column else credits_total))
        for _, net, weight, credit_column in layout
    )
    cells.discount_factor_column = letter(factor)
    _fit_widths(sheet, last_row=last)
    sheet.set_width("A", 12)
    sheet.freeze_panes = "B2"


def _phase_tests_sheet(workbook, results: Sequence[Result], cells: Sequence[_Cells], comparison: bool) -> None:
    """The cumulative net benefit tests, 71(a)(5), as formulas on the cash-flow sheets."""
    from .parameters import parameter

    tolerance = float(parameter("net_benefit_ratio_relative_tolerance"))
    sheet = workbook.create_sheet(PHASE_TESTS_SHEET)
    headers = ["Phases", "PV of counted net benefits [USD]", "PV of requested credits [USD]", "Ratio", "Threshold"]
    headers.append("Passed")
    if comparison:
        headers.insert(0, "Scenario")
    _header_row(sheet, headers)
    row = 2
    offset = 1 if comparison else 0
    for result, cell in zip(results, cells, strict=True):
        cf = quote_sheetname(cell.sheet)
        first, last = cell.years
        df = f"{cf}!${cell.discount_factor_column}${first}:${cell.discount_factor_column}${last}"
        pass_cells = []
        for k, (net, weight, credit) in enumerate(cell.phase_columns):
            if comparison:
                _put(sheet, row, 1, result.name)
            _put(sheet, row, 1 + offset, "+".join(str(j) for j in range(1, k + 2)))

            def rng(column: str, cf=cf, first=first, last=last) -> str:
                return f"{cf}!${column}${first}:${column}${last}"

            b, c, ratio, threshold, passed = (f"{chr(ord('B') + offset + j)}{row}" for j in range(5))
            previous_b = f"+{chr(ord('B') + offset)}{row - 1}" if k else ""
            previous_c = f"+{chr(ord('C') + offset)}{row - 1}" if k else ""
            _formula(sheet, row, 2 + offset, f"=SUMPRODUCT({rng(net)},{rng(weight)},{df}){previous_b}", MONEY_FORMAT)
            _formula(sheet, row, 3 + offset, f"=SUMPRODUCT({rng(credit)},{df}){previous_c}", MONEY_FORMAT)
            _formula(sheet, row, 4 + offset, f"=IF({c}>0,{b}/{c},NA())", PERCENT_FORMAT)
            _formula(sheet, row, 5 + offset, f"={cf}!${cell.threshold[0]}${cell.threshold[1:]}", PERCENT_FORMAT)
            _formula(
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
        _formula(target, int(cell.passes[1:]), column, f"=AND({first_pass}:{last_pass})")
    _fit_widths(sheet)
    sheet.freeze_panes = "A2"


def _summary_sheet(sheet, results: Sequence[Result], cells: Sequence[_Cells]) -> None:
    """One row per scenario (:func:`netbenefit.compare`); the figures that follow the discount rate
    are formulas on the names of the scenario."""
    from .compare import SUMMARY_COLUMNS, summary_row

    columns = [*SUMMARY_COLUMNS, "cash_flow_sheet", "names_suffix"]
    rows = [
        [*(summary_row(result)[column] for column in SUMMARY_COLUMNS), cell.sheet, cell.suffix]
        for result, cell in zip(results, cells, strict=True)
    ]
    headers = [_header(c) for c in columns]
    headers[columns.index("cash_flow_sheet")] = "Cash-flow sheet"
    headers[columns.index("names_suffix")] = "Names suffix (discount_rate_1, ratio_1...)"
    _header_row(sheet, headers)
    live = {
        "ratio": "ratio",
        "pv_benefits": "pv_benefits",
        "pv_credits": "pv_credits",
        "discount_rate": "discount_rate",
        "passes": "passes",
    }
    for row_number, (row, cell) in enumerate(zip(rows, cells, strict=True), start=2):
        for k, (column, value) in enumerate(zip(columns, row, strict=True), start=1):
            number_format = _TABLE_FORMATS.get(column, MONEY_FORMAT)
            if column in live:
                _formula(sheet, row_number, k, f"={live[column]}{cell.suffix}", number_format)
            elif column == "max_credit_pv":
                _formula(sheet, row_number, k, f"=pv_benefits{cell.suffix}/threshold{cell.suffix}", number_format)
            elif column == "eligible":  # every check: 71(a)(5) follows the discount rate, the others are values
                others = _other_checks_pass(results[row_number - 2])
                _formula(sheet, row_number, k, f"=AND(passes{cell.suffix},{'TRUE' if others else 'FALSE'})")
            else:
                _put(sheet, row_number, k, value, number_format)
    _fit_widths(sheet)
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
    return all(bool(check.passed) for check in result._rows("checks") if check.id != NET_BENEFIT_CHECK)


def _checks_sheet(workbook: _Book, results, labels, cells: Sequence[_Cells]) -> None:
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
            for check in result._rows("checks")
        ]
        return ["Check", "Passed", "Message", "Clause"], rows

    columns, rows, names = _scenario_labels(results, labels, table)
    sheet = workbook.create_sheet(CHECKS_SHEET)
    _value_table(sheet, columns, rows, scenario_column=names, formats=dict.fromkeys(columns, NUMBER_FORMAT))
    offset = 1 if names is not None else 0
    sheet.set_width(columns.index("Message") + 1 + offset, MAX_COLUMN_WIDTH)
    suffixes = [cell.suffix for result, cell in zip(results, cells, strict=True) for _ in result._rows("checks")]
    for row, (check, suffix) in enumerate(zip((row[0] for row in rows), suffixes, strict=True), start=2):
        if check == NET_BENEFIT_CHECK:
            _formula(sheet, row, 2 + offset, f"=passes{suffix}")
    _fixed_rate_note(sheet, results, len(rows) + 3, "The messages")


#: Appended to the message of the net benefit test: the message is at the run's rate, the cell beside
#: it and the ratio cell follow the Inputs sheet.
_SEE_RATIO = (
    " (This message is at the discount rate of the run; after a change of the discount-rate cell, "
    "see the ratio cell, named ratio{suffix}, and the Passed cell beside, which follow it.)"
)


def _fixed_rate_note(sheet: _Sheet, results, row: int, what: str) -> None:
    """A visible note under a table of values: they are at the discount rate of the run, and do not
    follow the discount-rate cell of the Inputs sheet (the ratio cell does)."""
    from .labels import share

    rates = ", ".join(dict.fromkeys(share(result.discount_rate) for result in results))
    text = (
        f"Note: {what} of this sheet are at the discount rate of the run ({rates}), fixed: they do "
        "not follow the discount-rate cell of the Inputs sheet. See the ratio cell of the cash-flow sheet "
        "(named ratio) for the net benefit ratio at the rate of that cell."
    )
    _put(sheet, row, 1, text, NUMBER_FORMAT)


def _by_tax_sheet(workbook: _Book, results, labels) -> None:
    columns, rows, names = _scenario_labels(results, labels, lambda r: r._columns_and_rows("benefits_by_tax"))
    if columns is None:
        return
    sheet = workbook.create_sheet(BY_TAX_SHEET)
    _value_table(sheet, columns, rows, scenario_column=names, formats={"tax": NUMBER_FORMAT})
    _fixed_rate_note(sheet, results, len(rows) + 3, "The present values")


def _clawback_sheet(workbook: _Book, results, labels) -> None:
    columns, rows, names = _scenario_labels(results, labels, lambda r: r._columns_and_rows("clawback_schedule"))
    if columns is None:
        return
    sheet = workbook.create_sheet(CLAWBACK_SHEET)
    _value_table(sheet, columns, rows, scenario_column=names)
    _fixed_rate_note(sheet, results, len(rows) + 3, "The present values")


def _warnings_sheet(workbook: _Book, results, labels) -> None:
    columns, rows, names = _scenario_labels(
        results, labels, lambda r: (["Warning"], [(w,) for w in (list(r.warnings) or ["No plausibility warning."])])
    )
    sheet = workbook.create_sheet(WARNINGS_SHEET)
    _value_table(sheet, columns, rows, scenario_column=names, formats={"Warning": NUMBER_FORMAT})
