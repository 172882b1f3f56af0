"""The workbook's layout: sheet names, Excel's limits, number formats, labels and units, widths
(:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

import functools

# the number formats are the one table's (netbenefit.labels.table), re-exported here
from ...labels import positioned
from ...labels.table import DATE_FORMAT as DATE_FORMAT
from ...labels.table import FACTOR_FORMAT as FACTOR_FORMAT
from ...labels.table import JOBS_FORMAT as JOBS_FORMAT
from ...labels.table import MONEY_FORMAT as MONEY_FORMAT
from ...labels.table import NUMBER_FORMAT as NUMBER_FORMAT
from ...labels.table import PERCENT_FORMAT as PERCENT_FORMAT
from ...labels.table import RATE_FORMAT as RATE_FORMAT
from ...labels.table import WEIGHT_FORMAT as WEIGHT_FORMAT
from ...labels.table import WORKBOOK_LABELS, table_entry
from ...model.scenario.workbook_form import CELL_TEXT_LIMIT as CELL_TEXT_LIMIT
from ...model.scenario.workbook_form import INPUTS_BY_YEAR_SHEET as INPUTS_BY_YEAR_SHEET
from ...model.scenario.workbook_form import INPUTS_SHEET as INPUTS_SHEET
from ...model.scenario.workbook_form import ROUND_TRIP_SHEET as ROUND_TRIP_SHEET

# ----------------------------------------------------------------------------------------------
# Sheet names, formats
# ----------------------------------------------------------------------------------------------

#: Fixed sheet names.
SUMMARY_SHEET = "Summary"
CASHFLOW_SHEET = "Cash flows"  # the cash-flow sheet of a single result
PHASE_TESTS_SHEET = "Phase tests"
CHECKS_SHEET = "Checks"
BY_TAX_SHEET = "Benefits by tax"
CLAWBACK_SHEET = "Clawback schedule"
WARNINGS_SHEET = "Warnings"
FIXED_SHEETS = (
    SUMMARY_SHEET,
    INPUTS_SHEET,
    INPUTS_BY_YEAR_SHEET,
    CASHFLOW_SHEET,
    PHASE_TESTS_SHEET,
    CHECKS_SHEET,
    BY_TAX_SHEET,
    CLAWBACK_SHEET,
    WARNINGS_SHEET,
    ROUND_TRIP_SHEET,
)
#: Sheet names Excel reserves for itself (a sheet so named cannot be opened): never given to a scenario.
EXCEL_RESERVED_SHEETS = ("History",)
#: Excel's limit on the length of a sheet name. [characters]
SHEET_NAME_LIMIT = 31
#: Excel's limits on a formula: its length and the arguments of one function. [characters, arguments]
FORMULA_LENGTH_LIMIT = 8192
FORMULA_ARGUMENT_LIMIT = 255
#: The widest a workbook column is made. [characters]
MAX_COLUMN_WIDTH = 64
#: Fill of the input cells the formulas read (a reviewer changes them and the model follows).
LIVE_FILL = "FFF2CC"

# ----------------------------------------------------------------------------------------------
# Labels and units (the scenario keys' from the one table, netbenefit.labels.table)
# ----------------------------------------------------------------------------------------------

#: Input field -> (label, unit, number format), keyed by the last named segment of a dotted key:
#: the workbook's column of the one table of scenario keys (:data:`netbenefit.labels.SCENARIO_KEYS`).
INPUT_LABELS: dict[str, tuple[str, str, str]] = WORKBOOK_LABELS

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
    "margin": "Margin, deciding test's ratio minus threshold [multiple]",
    "deciding_test": "Deciding test, 71(a)(5)",
    "pv_benefits": "PV of net benefits [USD]",
    "pv_credits": "PV of requested credits [USD]",
    "max_credit_pv": "Requested credits scaled alike until every test passes, PV [USD]",
    "whole_project_ratio": "Whole project's ratio, PV of net benefits / PV of credits (not the test that decides)",
    "ratio_without_extension": "Deciding ratio without the elected extension",
    "extension_decides": "Passes only with the elected extension, 71(a)(5)(d)",
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
#: A multiple shown as one (a margin of 0.7217 is 72.17 percentage points).
MULTIPLE_FORMAT = "0.0000"
TABLE_FORMATS = {
    "ratio": PERCENT_FORMAT,
    "whole_project_ratio": PERCENT_FORMAT,
    "ratio_without_extension": PERCENT_FORMAT,
    "margin": MULTIPLE_FORMAT,
    "threshold": PERCENT_FORMAT,
    "discount_rate": RATE_FORMAT,
    "extended_years": NUMBER_FORMAT,
    "years_maintained": NUMBER_FORMAT,
}
STREAM_LABELS = {
    "income_tax": "Income tax",
    "spending_sales_tax": "Sales tax on spending",
    "construction_income_tax": "Construction income tax",
    "construction_spending_sales_tax": "Sales tax on construction workers' spending",
    "construction_sales_tax": "Sales tax on construction materials",
    "corporation_business_tax": "Corporation business tax",
}
EFFECT_LABELS = {"direct": "direct", "indirect_and_induced": "indirect and induced"}


@functools.cache
def input_label(key: str) -> tuple[str, str, str]:
    """(label, unit, number format) of a dotted input key (``phases.0.capital_investment.2``)."""
    segments = key.split(".")
    named = [s for s in segments if not s.isdigit()]
    entry = table_entry(key)  # by the whole key: `revenue.income_tax.method` is not the top-level `method`
    if entry is None:
        label, unit, number_format = named[-1].replace("_", " ").capitalize(), "", ""
    else:
        label, unit, number_format = entry.in_workbook or (entry.text, entry.unit, "")
    return positioned(label, key), unit, number_format  # the one phase / year / item wording, netbenefit.labels


def table_header(column: str) -> str:
    return TABLE_HEADERS.get(column, column.replace("_", " ").capitalize())
