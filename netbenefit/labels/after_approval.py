"""Labels with units of the columns of the after-approval tables (``AfterApproval.years``, ``phases``,
``phase_years``, ``comparison``, ``rerun_tests``, ``floor``, ``reduction``), part of the one table
:data:`netbenefit.labels.LABELS`: every view (notebook, command line, memo) writes their headers
and formats their cells by these units."""

from __future__ import annotations


def _measure_labels(measure: str, words: str, unit: str) -> dict[str, str]:
    """The columns of one measure of the 80 percent floor and of a reduction."""
    return {
        f"{measure}_agreement": f"{words}, project agreement [{unit}]",
        f"{measure}_share_of_agreement": f"{words}, share of the project agreement [share]",
        f"{measure}_below_floor": f"{words} below the floor, N.J.A.C. 19:31U-1.14(c) [yes/no]",
        f"{measure}_at_start": f"{words} certified in the first credit year [{unit}]",
        f"{measure}_share_of_start": f"{words}, share of the first credit year's [share]",
        f"{measure}_reduced": f"{words} significantly reduced, C.34:1B-341(a)(4) [yes/no]",
    }


AFTER_APPROVAL_LABELS: dict[str, str] = {
    # years and phase years
    "approved_credit": "Credit approved [USD]",
    "projected_new_jobs": "New full-time jobs projected [jobs]",
    "actual_new_jobs": "New full-time jobs counted [jobs]",
    "projected_retained_jobs": "Retained full-time jobs projected [jobs]",
    "actual_retained_jobs": "Retained full-time jobs reported [jobs]",
    "counted_retained_jobs": "Retained full-time jobs counted [jobs]",
    "maintained": "Maintained [yes/no]",
    "credit_in_proportion": "Credit in proportion to the jobs in place [USD]",
    "statewide_workforce": "Statewide full-time workforce [jobs]",
    "workforce_drop_share": "Fall of the statewide workforce, 76(a)(1) [share]",
    "forfeited": "Forfeited, 76(a)(1) [yes/no]",
    "forfeited_credit": "Credit forfeited [USD]",
    "certified_credit": "Credit certified [USD]",
    "projected_median_salary": "Median salary projected [USD/year]",
    "actual_median_salary": "Median salary reported [USD/year]",
    "new_jobs_fall_share": "Fall of the new jobs below the prior report, 76(a)(2) [share]",
    "salary_fall_share": "Fall of the median salary below the prior report, 76(a)(2) [share]",
    "rerun_flag": "Test may be re-run, 76(a)(2) [yes/no]",
    "rerun_ratio": "Ratio of the test re-run on actual results [%]",
    "reduction_recapture": "Recapture on a reduction, C.34:1B-341(a)(4) [USD]",
    # phases
    "approved_credits": "Credits approved, reported years [USD]",
    "certified_credits": "Credits certified [USD]",
    "forfeited_credits": "Credits forfeited [USD]",
    "phase_years_maintained": "Years of the phase maintained [years]",
    "commitment_start": "Commitment period begins, years after approval [years]",
    "commitment_period_years": "Commitment period [years]",
    "extended_years_maintained": "Extended years maintained [years]",
    "net_credits_received": "Credits received less recapture and repayment [USD]",
    # the comparison and the re-run's tests
    "pv_net_credits_received": "PV of the credits received less recapture and repayment [USD]",
    "ratio_on_credits_received": "PV of actual benefits / PV of credits received, whole project, no statutory test [%]",
    "deciding": "Deciding test [yes/no]",
    "test": "Test",
    # the 80 percent floor and a reduction, by measure
    "median_salary": "Median salary [USD/year]",
    "withholdings": "Withholdings, income tax [USD]",
    "kept_share": "Share of the first credit year kept [share]",
    "commitment_weight": "Share of the year in the commitment period [share]",
    "unserved_years": "Commitment left unserved by a reduction [years]",
    **_measure_labels("full_time_jobs", "Full-time jobs", "jobs"),
    **_measure_labels("median_salary", "Median salary", "USD/year"),
    **_measure_labels("withholdings", "Withholdings", "USD"),
}
