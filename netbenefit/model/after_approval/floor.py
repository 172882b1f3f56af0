"""N.J.A.C. 19:31U-1.14(c), the 80 percent floor against the project agreement, as far as it was
read: where a year's withholdings, full-time jobs or their salaries drop below 80 percent of those
the project agreement specifies (:func:`floor_table`), :func:`netbenefit.model.after_approval.follow`
warns (:func:`floor_warnings`); the rule's consequence is not read, so nothing is changed."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ...labels import jobs as job_count
from ...labels import money_exact, written_pair, year_list
from ...law.parameters import parameter
from ...law.rules.certification import below_floor
from ..cashflows.steps import phase_records
from ..evaluate import evaluate
from ..plausibility import PlausibilityWarning, quiet
from ..result import Result
from ..scenario import Scenario
from .annual_certification import (
    Certification,
    Projection,
    RerunFlags,
    first_report_jobs,
    phase_models,
    projected_salary,
    projection,
    year_row,
)

# ----------------------------------------------------------------------------------------------
# N.J.A.C. 19:31U-1.14(c): the 80 percent floor against the project agreement
# ----------------------------------------------------------------------------------------------

#: The readable opening of N.J.A.C. 19:31U-1.14(c); the copy read breaks off before its consequence.
FLOOR_WORDS = (
    '"If, in any tax period, the amount of withholdings paid to New Jersey or full-time employees employed '
    "by the eligible business subject to the project agreement or the salaries thereof, drops below 80 "
    "percent of the withholdings and number of new and retained full-time jobs, and the salaries thereof, "
    'specified in the project agreement or the ..." (N.J.A.C. 19:31U-1.14(c); the rest, its consequence, is not read)'
)
FLOOR_MEASURES = ("full_time_jobs", "median_salary", "withholdings")  # the measures of floor_table, in order


def _income_tax_by_year(result: Result, years: np.ndarray) -> np.ndarray:
    """The Gross Income Tax withheld on the jobs' wages by project year, every phase: the direct
    operations stream of the gross income tax (``result.streams`` rows of that kind, read from the
    model's components without building the long table). [USD]"""
    c = result.computation
    width = len(c.years)
    total = np.zeros(width)
    for phase in c.phases:
        for component in phase.components:
            if (component.tax, component.source, component.effect, component.kind) == (
                "gross_income_tax",
                "operations",
                "direct",
                "revenue",
            ):
                total = total + year_row(component.values, width)
    at = np.searchsorted(np.asarray(c.years), years)
    inside = at < width
    return np.where(inside, total[np.minimum(at, width - 1)], 0.0)


def agreement_at_full_ramp(scenario: Scenario, years: int) -> tuple[Projection, Result]:
    """What the project agreement specifies, every year: the approved scenario with every phase's
    ramp at 1.0 (its approved jobs from its first year), projected and evaluated like any other."""
    changes = {prefix + "jobs.ramp": [1.0] for prefix, _ in phase_records(scenario)}
    with quiet(), warnings.catch_warnings():  # the package builds the variant: nothing to warn of
        warnings.simplefilter("ignore", PlausibilityWarning)
        full = scenario.replace(changes)
        result = evaluate(full)
    return projection(full, result, years), result


def floor_table(
    scenario: Scenario,
    plan: Projection,
    certified: Certification,
    flags: RerunFlags,
    actual: Result,
    projected: Result,
    agreement: tuple[Projection, Result] | None = None,
) -> pd.DataFrame:
    """One row per reported year, with for each measure (full-time jobs, median salary,
    withholdings) the actual value, what the project agreement specifies, the share and whether it
    drops below the floor (only in years the business was there), N.J.A.C. 19:31U-1.14(c) [rule,
    opening read]. By default (``readings.floor_basis: agreement``) the agreement is its approved
    figures at full ramp, one basis for the three measures and every year (``agreement``: that
    projection and its result, :func:`agreement_at_full_ramp`); ``ramp``: the ramp's projection of
    each year, the first year's jobs read by ``readings.first_report_basis`` (the comparison before).
    The actual median salaries are those of the re-run step (``flags``)."""
    floor = parameter("project_agreement_floor_share")
    year = plan.year
    reported_jobs = certified.reported_new + certified.reported_retained
    if scenario.readings.floor_basis == "agreement":
        full_plan, full_result = agreement if agreement is not None else agreement_at_full_ramp(scenario, year.size)
        agreed = {
            "full_time_jobs": full_plan.new.sum(axis=0) + full_plan.retained.sum(axis=0),
            "median_salary": projected_salary(full_plan),
            "withholdings": _income_tax_by_year(full_result, year),
        }
    else:
        projected_jobs = certified.projected_new + certified.projected_retained
        if scenario.readings.first_report_basis == "approved_jobs" and year.size:
            projected_jobs = projected_jobs.copy()
            retained = sum(float(m.jobs.retained) for m in phase_models(scenario) if getattr(m, "start_year", 0) == 0)
            projected_jobs[0] = first_report_jobs(scenario, 0.0) + retained * bool(certified.projected_retained[0] > 0)
        agreed = {
            "full_time_jobs": projected_jobs,
            "median_salary": flags.projected_salary,
            "withholdings": _income_tax_by_year(projected, year),
        }
    value = {
        "full_time_jobs": reported_jobs,
        "median_salary": flags.actual_salary,
        "withholdings": _income_tax_by_year(actual, year),
    }
    columns = {}
    for measure in FLOOR_MEASURES:
        mine, theirs = np.asarray(value[measure], dtype=float), np.asarray(agreed[measure], dtype=float)
        columns[measure] = mine
        columns[measure + "_agreement"] = theirs
        known = np.nan_to_num(theirs) > 0
        share = np.divide(mine, theirs, out=np.full(mine.shape, np.nan), where=known)
        columns[measure + "_share_of_agreement"] = share
        columns[measure + "_below_floor"] = below_floor(mine, theirs, floor) & certified.maintained
    table = pd.DataFrame(columns, index=pd.Index(year, name="year"))
    table.attrs["floor"] = floor
    table.attrs["basis"] = scenario.readings.floor_basis
    return table


#: How the floor's lines name each measure and the agreement it is compared with.
_MEASURE_WORDS = {
    "full_time_jobs": "full-time jobs (new and retained)",
    "median_salary": "median salary",
    "withholdings": "withholdings (income tax)",
}
_BASIS_WORDS = {"agreement": "the project agreement's at full ramp", "ramp": "the ramp's projection"}


def floor_warnings(table: pd.DataFrame, projected: Result) -> tuple[str, ...]:
    """The lines of the 80 percent floor (:func:`floor_table`): one per measure, naming its years
    and its lowest share (each from its row), the words of the rule once, and whether the projection
    itself was eligible."""
    floor = table.attrs.get("floor", parameter("project_agreement_floor_share"))
    basis = _BASIS_WORDS[table.attrs.get("basis", "agreement")]
    lines = []
    for measure in FLOOR_MEASURES:
        below = table[measure + "_below_floor"].to_numpy(dtype=bool)
        if not below.any():
            continue
        rows = table.loc[below]
        lowest = rows[measure + "_share_of_agreement"].idxmin()  # the first year of the lowest share
        money = measure != "full_time_jobs"
        actual, agreement = rows.loc[lowest, measure], rows.loc[lowest, measure + "_agreement"]
        value = money_exact(actual) if money else job_count(actual)
        agreed = money_exact(agreement) if money else job_count(agreement)
        written, _ = written_pair(rows.loc[lowest, measure + "_share_of_agreement"], floor, "<", "share")
        lines.append(
            f"{_MEASURE_WORDS[measure]} below {floor:.0%} of {basis} in {year_list(rows.index)} "
            f"(lowest in year {lowest}: {value}, {written} of {agreed}) (N.J.A.C. 19:31U-1.14(c))"
        )
    if lines:
        lines.append("N.J.A.C. 19:31U-1.14(c), the words read: " + FLOOR_WORDS)
        if not projected.eligible:
            failed = ", ".join(str(i) for i in projected.checks.loc[~projected.checks["passed"], "id"])
            lines.append(
                f"the projection itself was not eligible (checks failed: {failed}): the floor is measured "
                "against a projection the Authority could not have approved"
            )
    return tuple(lines)
