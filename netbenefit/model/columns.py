"""The built-in names of a result's tables: its benefit streams, its cash-flow columns and the
result columns of a table of variants.

A ground-floor module: the scenario format (which refuses a stream named like a column), the cash
flows (which build the columns), the analyses and the charts of their tables read these names from
here, without loading a table library."""

#: Built-in benefit streams (docs/scenario-format.md, "Benefit streams"), in the order results list them.
BUILT_IN_STREAMS = (
    "income_tax",
    "spending_sales_tax",
    "construction_income_tax",
    "construction_spending_sales_tax",
    "construction_sales_tax",
    "corporation_business_tax",
)
#: Columns of the cash-flow table; an explicit stream may not take one of these names.
CASHFLOW_COLUMNS = (
    "phase",
    "new_full_time_jobs",
    "retained_full_time_jobs",
    "full_time_jobs",
    "wages",
    "capital_investment",
    "construction_wages",
    "indirect_and_induced_jobs",
    "revenues",
    "costs",
    "net_benefits",
    "weight",
    "counted_net_benefits",
    "discount_factor",
    "pv_net_benefits",
    "credits",
    "pv_credits",
    "cumulative_pv_net_benefits",
    "cumulative_pv_credits",
    "year",
)
RESERVED_STREAM_NAMES = frozenset(BUILT_IN_STREAMS) | frozenset(CASHFLOW_COLUMNS)

#: The result columns of a table of variants (sweeps, Monte Carlo draws, sensitivity), after one
#: column per varied key: the whole project's present values and their quotient, then the ratio of
#: the test that decides 71(a)(5) beside the threshold, the verdicts and a note.
RESULT_COLUMNS = (
    "pv_benefits",
    "pv_credits",
    "whole_project_ratio",
    "ratio",
    "threshold",
    "passes",
    "eligible",
    "note",
)
