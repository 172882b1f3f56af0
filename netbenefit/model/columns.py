"""The built-in names of a result's table: its benefit streams and its cash-flow columns.

A ground-floor module: the scenario format (which refuses a stream named like a column) and the
cash flows (which build the columns) both read these names from here."""

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
