"""Section 71 as pure functions on numbers and numpy arrays (they broadcast over variants). Each
check's function returns its record (:class:`Decision`), built where it compares."""

from .decision import Comparison, Decision
from .eligibility import (
    CHECK_IDS,
    accommodation_and_withholding_decision,
    accommodation_and_withholding_satisfied,
    application_date_decision,
    application_date_satisfied,
    capital_investment_decision,
    capital_investment_minimum,
    capital_investment_rate,
    flag_decision,
    prevailing_wage_decision,
    prevailing_wage_satisfied,
    weighted_withholding_share,
)
from .job_minimum import (
    JOB_CLAUSES,
    job_minimum_clause,
    job_minimum_decision,
    retained_jobs_count,
    retained_jobs_minimum,
)
from .net_benefit import (
    THRESHOLD_CLAUSES,
    extension_counts,
    incremental_credit,
    incremental_credit_by_test,
    meets_threshold,
    net_benefit_decision,
    repayment_schedule,
    statutory_threshold,
)

__all__ = [
    "CHECK_IDS",
    "Comparison",
    "Decision",
    "JOB_CLAUSES",
    "THRESHOLD_CLAUSES",
    "accommodation_and_withholding_decision",
    "accommodation_and_withholding_satisfied",
    "application_date_decision",
    "application_date_satisfied",
    "capital_investment_decision",
    "capital_investment_minimum",
    "capital_investment_rate",
    "extension_counts",
    "incremental_credit",
    "incremental_credit_by_test",
    "flag_decision",
    "job_minimum_clause",
    "job_minimum_decision",
    "meets_threshold",
    "net_benefit_decision",
    "prevailing_wage_decision",
    "prevailing_wage_satisfied",
    "repayment_schedule",
    "retained_jobs_count",
    "retained_jobs_minimum",
    "statutory_threshold",
    "weighted_withholding_share",
]
