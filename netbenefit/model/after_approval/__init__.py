"""Life after approval: an approved scenario followed through its actual results (:func:`follow`).

One subject, one folder; every after-approval name is importable from here:

- ``pipeline.py``: :func:`follow` and what it returns, :class:`AfterApproval` (the laws it reads,
  and their grades, are written at its top);
- ``actuals.py``: the actual-results file (:class:`Actuals`, :func:`load_actuals`, a CSV of years);
- ``annual_certification.py``: what the approval projected for each phase, the jobs each phase
  reports, the certification of each phase's credit and forfeiture, the re-run flag of 76(a)(2);
- ``recapture.py``: the clawback when a project stops or reduces its jobs, each phase on its own
  clock, and the credits actually received;
- ``reduction.py``: a significant reduction while the business stays, C.34:1B-341(a)(4);
- ``floor.py``: the 80 percent floor of N.J.A.C. 19:31U-1.14(c);
- ``rerun_scenario.py``: the scenario of the test re-run on actual results;
- ``tables.py``: the tables of a follow result; ``summary.py``: its plain-text account.
"""

from ...law.rules.certification import (
    certified_credit,
    fall_share,
    forfeited_years,
    more_than,
    prior_report,
    retained_first,
)
from .actuals import (
    CSV_OPTIONAL,
    CSV_REQUIRED,
    Actuals,
    ActualYear,
    Count,
    Money,
    Share,
    YearKey,
    load_actuals,
    read_actual_years_csv,
)
from .annual_certification import Certification, RerunFlags, extension_repayment, first_report_jobs
from .pipeline import AfterApproval, actual_scenario, certification, clawback, follow, rerun_flags
from .recapture import Clawback, CreditsReceived
from .tables import clawback_rows, comparison_table, years_table

__all__ = [
    "CSV_OPTIONAL",
    "CSV_REQUIRED",
    "ActualYear",
    "Actuals",
    "AfterApproval",
    "Certification",
    "Clawback",
    "CreditsReceived",
    "RerunFlags",
    "Count",
    "Money",
    "Share",
    "YearKey",
    "actual_scenario",
    "certification",
    "certified_credit",
    "clawback",
    "clawback_rows",
    "comparison_table",
    "extension_repayment",
    "fall_share",
    "first_report_jobs",
    "follow",
    "forfeited_years",
    "load_actuals",
    "more_than",
    "prior_report",
    "read_actual_years_csv",
    "rerun_flags",
    "retained_first",
    "years_table",
]
