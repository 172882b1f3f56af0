"""Section 71 as pure functions on numbers and numpy arrays (they broadcast over variants)."""

from .eligibility import (
    CHECK_IDS,
    JOB_CLAUSES,
    accommodation_and_withholding_satisfied,
    application_date_satisfied,
    capital_investment_minimum,
    capital_investment_rate,
    job_minimum_clause,
    prevailing_wage_satisfied,
    retained_jobs_count,
    retained_jobs_minimum,
    weighted_withholding_share,
)
from .net_benefit import (
    THRESHOLD_CLAUSES,
    extension_counts,
    incremental_credit,
    incremental_credit_by_test,
    meets_threshold,
    repayment_schedule,
    statutory_threshold,
)

__all__ = [
    "CHECK_IDS",
    "JOB_CLAUSES",
    "THRESHOLD_CLAUSES",
    "accommodation_and_withholding_satisfied",
    "application_date_satisfied",
    "capital_investment_minimum",
    "capital_investment_rate",
    "extension_counts",
    "incremental_credit",
    "incremental_credit_by_test",
    "job_minimum_clause",
    "meets_threshold",
    "prevailing_wage_satisfied",
    "repayment_schedule",
    "retained_jobs_count",
    "retained_jobs_minimum",
    "statutory_threshold",
    "weighted_withholding_share",
]
