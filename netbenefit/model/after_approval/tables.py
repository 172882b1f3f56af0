"""The tables of :class:`netbenefit.model.after_approval.AfterApproval`: the years, each phase and each
phase's years, the comparison of the test on the projections and on actual results, the re-run per
test, and the clawback's row. Each is a :class:`netbenefit.model.tables.ResultTable`: numbers stay
numbers, and a notebook (and ``to_text``, the command line) shows them by the unit of each column's
label (:mod:`netbenefit.labels.after_approval`): money as dollars, shares and ratios as percents."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..result import Result
from ..tables import ResultTable
from .actuals import Actuals
from .annual_certification import Certification, PhaseJobs, Projection, RerunFlags
from .recapture import Clawback, CreditsReceived

#: Columns of the years table that are flags (False in a row added for a clawback).
FLAG_COLUMNS = ("maintained", "forfeited", "rerun_flag")


def shown(frame: pd.DataFrame) -> ResultTable:
    """``frame`` as an after-approval table: its values unchanged, shown by the unit of each label."""
    return ResultTable.of(frame)


def years_table(
    actuals: Actuals, certified: Certification, flags: RerunFlags, actual: Result, owed: Clawback
) -> ResultTable:
    """One row per reported project year (and the year a clawback is owed): see
    :class:`~netbenefit.model.after_approval.AfterApproval`. ``actual_new_jobs`` and ``counted_retained_jobs``
    are the jobs certification counts (the approved retained jobs met first, N.J.A.C. 19:31U-1.4(c);
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
    return shown(clawback_rows(table, owed.year, owed.recaptured, owed.interest, owed.repayment, owed.reduction))


def phase_years_table(
    certified: Certification, flags: RerunFlags | None = None, jobs: PhaseJobs | None = None
) -> ResultTable:
    """One row per phase and reported year: the credit approved, forfeited and certified, the jobs
    counted, the median salary reported for the phase, and its falls against its own prior report
    (76(a)(2) read phase by phase: they flag under ``readings.rerun_comparison: each_phase``)."""
    phases, years = certified.approved_by_phase.shape
    forfeited = certified.forfeited_by_phase()
    columns = {
        "approved_credit": certified.approved_by_phase.ravel(),
        "actual_new_jobs": certified.new_by_phase.ravel(),
        "counted_retained_jobs": certified.retained_by_phase.ravel(),
        "forfeited_credit": forfeited.ravel(),
        "certified_credit": certified.certified_by_phase.ravel(),
    }
    if jobs is not None:
        columns["actual_median_salary"] = jobs.salary.ravel()
    if flags is not None and flags.phase_new_fall is not None:
        columns["new_jobs_fall_share"] = flags.phase_new_fall.ravel()
        columns["salary_fall_share"] = flags.phase_salary_fall.ravel()
    index = pd.MultiIndex.from_product([range(1, phases + 1), certified.year.tolist()], names=["phase", "year"])
    return shown(pd.DataFrame(columns, index=index))


def phases_table(
    certified: Certification, owed: Clawback, plan: Projection | None = None, stop: int | None = None
) -> ResultTable:
    """One row per phase: the credits approved, certified and forfeited over the reported years, the
    years of its own clock the business maintained (0: the phase had not started by the stop), its
    clock (commitment start and period, years after approval), what it owes, and the credits it
    received less recapture and repayment [USD]."""
    table = owed.by_phase.copy()
    table.insert(0, "forfeited_credits", certified.forfeited_by_phase().sum(axis=1))
    table.insert(0, "certified_credits", certified.certified_by_phase.sum(axis=1))
    table.insert(0, "approved_credits", certified.approved_by_phase.sum(axis=1))
    if plan is not None:
        last = certified.year.size if stop is None else stop
        table.insert(3, "phase_years_maintained", np.maximum(last - plan.start, 0.0))
    given_back = table["recapture"] + table["extension_repayment"]
    if "reduction_recapture" in table:
        given_back = given_back + table["reduction_recapture"]
    table["net_credits_received"] = table["credits_received"] - given_back
    table["extended_years_maintained"] = table["extended_years_maintained"].astype("Int64")  # a count, or NA
    return shown(table)


def rerun_tests_table(actual: Result) -> ResultTable:
    """The net benefit test re-run on actual results, one row per cumulative test (initial phase,
    then 1..k): its phases, PVs, ratio, the threshold, whether it passes, and which test decides
    (the re-run's 71(a)(5) record)."""
    tests = actual.phase_tests.copy()
    tests["threshold"] = actual.threshold
    tests["deciding"] = np.arange(len(tests)) == actual.net_benefit_decision.deciding
    return shown(tests[["phases", "pv_benefits", "pv_credits", "ratio", "threshold", "passes", "deciding"]])


def comparison_table(projected: Result, actual: Result, received: CreditsReceived | None = None) -> ResultTable:
    """The net benefit test on the projections and re-run on actual results (both on the approved
    credits: each row's ``ratio`` is its result's, with the test that decides), and beside the re-run
    the PV of the credits actually received and the ratio of the actual-results benefits to it
    (labelled, no verdict: not a statutory test)."""
    results = (projected, actual)
    nan = float("nan")
    table = pd.DataFrame(
        {
            "pv_benefits": [r.pv_benefits for r in results],
            "pv_credits": [r.pv_credits for r in results],
            "ratio": [r.ratio for r in results],
            "deciding_test": [r.deciding_test.what for r in results],
            "threshold": [r.threshold for r in results],
            "passes": [bool(r.passes) for r in results],
            "max_credit_pv": [r.max_credit_pv for r in results],
            "pv_net_credits_received": [nan, nan if received is None else received.pv],
            "ratio_on_credits_received": [nan, nan if received is None else received.ratio],
        },
        index=pd.Index(["projected", "rerun"], name="test"),
    )
    return shown(table)


def clawback_rows(
    table: pd.DataFrame,
    owed_year: int | None,
    recaptured: float,
    interest: float,
    repayment: float,
    reduction: float = 0.0,
) -> pd.DataFrame:
    """The years table with the clawback in the year it is owed: ``recapture``, ``reduction_recapture``,
    ``interest`` and ``repayment`` columns, and a row for that year when it follows the last year
    reported (its amounts empty, its flags False: nothing was reported for it)."""
    if owed_year is not None and owed_year not in table.index:
        table = table.reindex(table.index.append(pd.Index([owed_year], name="year")))
        for column in FLAG_COLUMNS:
            if column in table:
                table[column] = table[column].fillna(False).astype(bool)
    at = table.index.to_numpy() == (owed_year or 0)
    return table.assign(
        repayment=np.where(at, repayment, 0.0),
        recapture=np.where(at, recaptured, 0.0),
        reduction_recapture=np.where(at, reduction, 0.0),
        interest=np.where(at, interest, 0.0),
    )
