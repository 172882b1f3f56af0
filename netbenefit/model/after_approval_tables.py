"""The tables of :class:`netbenefit.model.after_approval.AfterApproval`: the years, each phase's years,
the comparison of the test on the projections and on actual results, and the clawback's row."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .actuals import Actuals
from .after_approval_steps import Certification, Clawback, RerunFlags
from .result import Result

#: Columns of the years table that are flags (False in a row added for a clawback).
FLAG_COLUMNS = ("maintained", "forfeited", "rerun_flag")


def years_table(
    actuals: Actuals, certified: Certification, flags: RerunFlags, actual: Result, owed: Clawback
) -> pd.DataFrame:
    """One row per reported project year (and the year a clawback is owed): see
    :class:`~netbenefit.model.after_approval.AfterApproval`. ``actual_new_jobs`` and ``counted_retained_jobs``
    are the jobs certification counts (the retained requirement met first, N.J.A.C. 19:31U-1.4(c);
    retained jobs only where 71(c) makes them eligible); ``actual_retained_jobs`` is what the file reports."""
    in_proportion, forfeited, flag = certified.in_proportion, certified.forfeited, flags.flag
    table = pd.DataFrame(
        {
            "approved_credit": certified.approved,
            "projected_new_jobs": certified.projected_new,
            "actual_new_jobs": certified.actual_new,
            "projected_retained_jobs": certified.projected_retained,
            "actual_retained_jobs": certified.reported_retained,
            "counted_retained_jobs": certified.actual_retained,
            "maintained": certified.maintained,
            "credit_in_proportion": in_proportion,
            "statewide_workforce": [row.statewide_workforce for row in actuals.totals()],
            "workforce_drop_share": certified.drop,
            "forfeited": forfeited,
            "forfeited_credit": np.where(forfeited, in_proportion, 0.0),
            "certified_credit": certified.certified,
            "projected_median_salary": flags.projected_salary,
            "actual_median_salary": flags.actual_salary,
            "new_jobs_fall_share": flags.new_fall,
            "salary_fall_share": flags.salary_fall,
            "rerun_flag": flag,
            "rerun_ratio": np.where(flag, float(actual.ratio), np.nan),  # the test re-run on actual results
        },
        index=pd.Index(certified.year, name="year"),
    )
    return clawback_rows(table, owed.year, owed.recaptured, owed.interest, owed.repayment)


def phase_years_table(certified: Certification) -> pd.DataFrame:
    """One row per phase and reported year: the credit approved and certified and the jobs counted."""
    phases, years = certified.approved_by_phase.shape
    return pd.DataFrame(
        {
            "approved_credit": certified.approved_by_phase.ravel(),
            "actual_new_jobs": certified.new_by_phase.ravel(),
            "counted_retained_jobs": certified.retained_by_phase.ravel(),
            "certified_credit": certified.certified_by_phase.ravel(),
        },
        index=pd.MultiIndex.from_product([range(1, phases + 1), certified.year.tolist()], names=["phase", "year"]),
    )


def phases_table(certified: Certification, owed: Clawback) -> pd.DataFrame:
    """One row per phase: the credits approved and certified over the reported years, its clock
    (commitment start and period, years after approval) and what it owes [USD]."""
    table = owed.by_phase.copy()
    table.insert(0, "certified_credits", certified.certified_by_phase.sum(axis=1))
    table.insert(0, "approved_credits", certified.approved_by_phase.sum(axis=1))
    return table


def rerun_tests_table(actual: Result) -> pd.DataFrame:
    """The net benefit test re-run on actual results, one row per cumulative test (initial phase,
    then 1..k): its phases, ratio, the threshold and whether it passes."""
    tests = actual.phase_tests.copy()
    tests["threshold"] = actual.threshold
    return tests[["phases", "pv_benefits", "pv_credits", "ratio", "threshold", "passes"]]


def comparison_table(projected: Result, actual: Result, approved: float, certified: float) -> pd.DataFrame:
    """The net benefit test on the projections and re-run on actual results, with the credits of the
    reported years (``approved`` and ``certified``) [USD]."""
    return pd.DataFrame(
        {
            "projected": [
                projected.pv_benefits,
                projected.pv_credits,
                projected.ratio,
                projected.threshold,
                projected.passes,
                projected.max_credit_pv,
                approved,
            ],
            "actual": [
                actual.pv_benefits,
                actual.pv_credits,
                actual.ratio,
                actual.threshold,
                actual.passes,
                actual.max_credit_pv,
                certified,
            ],
        },
        index=pd.Index(
            ["pv_benefits", "pv_credits", "ratio", "threshold", "passes", "max_credit_pv", "credits_reported_years"],
            name="measure",
        ),
        dtype=object,
    )


def clawback_rows(table: pd.DataFrame, owed_year: int | None, recaptured: float, interest: float, repayment: float):
    """The years table with the clawback in the year it is owed: ``recapture``, ``interest`` and
    ``repayment`` columns, and a row for that year when it follows the last year reported (its
    amounts empty, its flags False: nothing was reported for it)."""
    if owed_year is not None and owed_year not in table.index:
        table = table.reindex(table.index.append(pd.Index([owed_year], name="year")))
        for column in FLAG_COLUMNS:
            if column in table:
                table[column] = table[column].fillna(False).astype(bool)
    at = table.index.to_numpy() == (owed_year or 0)
    return table.assign(
        repayment=np.where(at, repayment, 0.0),
        recapture=np.where(at, recaptured, 0.0),
        interest=np.where(at, interest, 0.0),
    )
