"""N.J.A.C. 19:31U-1.14(c), the 80 percent floor against the project agreement, as far as it was
read: where a year's withholdings, full-time jobs or their salaries drop below 80 percent of those
the project agreement specifies (:func:`floor_table`), :func:`netbenefit.model.after_approval.follow`
warns (:func:`floor_warnings`); the rule's consequence is not read, so nothing is changed."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..law.labels import money_exact, written_pair
from ..law.parameters import parameter
from ..law.rules.certification import below_floor
from .after_approval_steps import Certification, Projection, RerunFlags, first_report_jobs, phase_models, year_row
from .result import Result
from .scenario import Scenario

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
FLOOR_MEASURES = ("full_time_jobs", "median_salary", "withholdings")  # the keys of floor_table, in order


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


def floor_table(
    scenario: Scenario, plan: Projection, certified: Certification, flags: RerunFlags, actual: Result, projected: Result
) -> pd.DataFrame:
    """One row per maintained reported year and measure (jobs, median salary, withholdings): the
    actual value, the project agreement's, the share and whether it drops below the floor,
    N.J.A.C. 19:31U-1.14(c) [rule, opening read]. The jobs of the first year are compared with the
    agreement's approved jobs (``readings.first_report_basis``, as under 19:31U-1.14(b)); the median
    salaries are those of the re-run step (``flags``)."""
    floor = parameter("project_agreement_floor_share")
    year = plan.year
    projected_jobs = certified.projected_new + certified.projected_retained
    if scenario.readings.first_report_basis == "approved_jobs" and year.size:
        projected_jobs = projected_jobs.copy()
        retained = sum(float(m.jobs.retained) for m in phase_models(scenario) if getattr(m, "start_year", 0) == 0)
        projected_jobs[0] = first_report_jobs(scenario, 0.0) + retained * bool(certified.projected_retained[0] > 0)
    reported_jobs = certified.reported_new + certified.reported_retained
    rows = {
        "full_time_jobs": (reported_jobs, projected_jobs),
        "median_salary": (flags.actual_salary, flags.projected_salary),
        "withholdings": (_income_tax_by_year(actual, year), _income_tax_by_year(projected, year)),
    }
    measures = FLOOR_MEASURES  # the rows year by year, then by measure
    value = np.stack([np.asarray(rows[m][0], dtype=float) for m in measures], axis=1).ravel()
    agreed = np.stack([np.asarray(rows[m][1], dtype=float) for m in measures], axis=1).ravel()
    share = np.divide(value, agreed, out=np.full(value.shape, np.nan), where=np.nan_to_num(agreed) > 0)
    below = below_floor(value, agreed, floor) & np.repeat(certified.maintained, len(measures))
    table = pd.DataFrame(
        {
            "year": np.repeat(year, len(measures)),
            "measure": np.tile(measures, year.size),
            "actual": value,
            "project_agreement": agreed,
            "share": share,
            "below_floor": below,
        }
    )
    table.attrs["floor"] = floor
    return table


def floor_warnings(table: pd.DataFrame, projected: Result) -> tuple[str, ...]:
    """The lines of the 80 percent floor (:func:`floor_table`), each from its row, the words of the
    rule once, and whether the projection itself was eligible."""
    floor = table.attrs.get("floor", parameter("project_agreement_floor_share"))
    names = {
        "full_time_jobs": "full-time jobs",
        "median_salary": "median salary",
        "withholdings": "withholdings (income tax)",
    }
    lines = []
    below = table["below_floor"].to_numpy()
    columns = [table[name].to_numpy()[below] for name in ("year", "measure", "actual", "project_agreement", "share")]
    for year, measure, actual, agreement, share in zip(*columns, strict=True):
        money = measure != "full_time_jobs"
        value = money_exact(actual) if money else f"{actual:,.1f}"
        agreed = money_exact(agreement) if money else f"{agreement:,.1f}"
        written, _ = written_pair(share, floor, "<", "share")  # the digits that keep it written below the floor
        lines.append(
            f"year {year}: {names[measure]} {value}, {written} of the project agreement's "
            f"{agreed}: below its {floor:.0%} floor (N.J.A.C. 19:31U-1.14(c))"
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
