"""C.34:1B-341(a)(4) after approval: a significant reduction of the jobs or salaries a phase
certified at the commencement of its eligibility period, while the business stays
(:mod:`netbenefit.law.rules.reduction`). :func:`reduction_table` reads it phase by phase, each on
its own clock; :func:`reduction_warnings` names the years, one line per measure, quoting the
statute; the recapture on it (``readings.reduction_recapture: pro_rata``) is counted by
:func:`netbenefit.model.after_approval.recapture.clawback` from :func:`unserved_years`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...labels import jobs as job_count
from ...labels import money_exact, written_pair, year_list
from ...law.rules.reduction import (
    REDUCTION_CLAUSE,
    REDUCTION_WORDS,
    baseline,
    commitment_weight,
    kept_share,
    reduced,
    trigger_share,
)
from ..result import Result
from ..scenario import Scenario
from .annual_certification import PhaseJobs, Projection, phase_models

#: The measures of the reduction, in order: the phase's full-time jobs and their median salary.
REDUCTION_MEASURES = ("full_time_jobs", "median_salary")


def reduction_table(
    scenario: Scenario, projected: Result, plan: Projection, jobs: PhaseJobs, stop: int | None
) -> pd.DataFrame:
    """One row per phase and reported year from the phase's first credit year: the phase's
    full-time jobs (new and retained, as reported or allocated) and median salary, what it
    certified at the commencement of its eligibility period (its first credit year), the share
    kept and whether the year is a significant reduction (below ``reduction_trigger_share`` of the
    baseline, only in years the business was there and within the phase's commitment period), the
    share of the year in that period and the share of it left unserved (1 - the share kept, in a
    year of reduction)."""
    share = trigger_share()
    c = projected.computation
    year = plan.year
    last = year.size if stop is None else min(stop, year.size)
    parts: dict[str, list] = {name: [] for name in ("phase", "year", *_COLUMNS)}
    for k, model in enumerate(phase_models(scenario)):
        first = int(plan.start[k]) + model.award.first_credit_year  # the phase's first credit year
        period = float(np.ravel(c.phases[k].commitment_period_years)[0])
        inside = (year >= first) & (year <= last)
        if not inside.any():
            continue
        count = jobs.new[k] + jobs.retained[k]
        salary = jobs.salary[k]
        base_jobs, base_salary = baseline(count, first - 1), baseline(salary, first - 1)
        weight = commitment_weight(year, first - 1.0, period) * inside  # its commitment from the year before
        counted = inside & (year > first) & (weight > 0)
        jobs_reduced = reduced(count, base_jobs, share) & counted
        salary_reduced = reduced(salary, base_salary, share) & counted
        kept = kept_share(count, base_jobs, salary, base_salary)
        columns = {
            "phase": np.full(year.size, k + 1),
            "year": year,
            "full_time_jobs": count,
            "full_time_jobs_at_start": np.full(year.size, base_jobs),
            "full_time_jobs_share_of_start": count / base_jobs if base_jobs > 0 else np.full(year.size, np.nan),
            "full_time_jobs_reduced": jobs_reduced,
            "median_salary": salary,
            "median_salary_at_start": np.full(year.size, base_salary),
            "median_salary_share_of_start": salary / base_salary if base_salary > 0 else np.full(year.size, np.nan),
            "median_salary_reduced": salary_reduced,
            "kept_share": kept,
            "commitment_weight": weight,
            "unserved_years": np.where(jobs_reduced | salary_reduced, weight * (1.0 - kept), 0.0),
        }
        for name, values in columns.items():
            parts[name].append(np.asarray(values)[inside])
    data = {name: np.concatenate(values) if values else np.zeros(0) for name, values in parts.items()}
    index = pd.MultiIndex.from_arrays(
        [data.pop("phase").astype(int), data.pop("year").astype(int)], names=["phase", "year"]
    )
    table = pd.DataFrame(data, index=index)
    for name in ("full_time_jobs_reduced", "median_salary_reduced"):
        table[name] = table[name].astype(bool)
    table.attrs["share"] = share
    return table


_COLUMNS = (
    "full_time_jobs",
    "full_time_jobs_at_start",
    "full_time_jobs_share_of_start",
    "full_time_jobs_reduced",
    "median_salary",
    "median_salary_at_start",
    "median_salary_share_of_start",
    "median_salary_reduced",
    "kept_share",
    "commitment_weight",
    "unserved_years",
)


def unserved_years(table: pd.DataFrame, phases: int) -> np.ndarray:
    """Each phase's years of its commitment period left unserved by its reductions (the sum of
    ``unserved_years``): the recapture on a reduction is the credits received x this / C."""
    phase = table.index.get_level_values("phase").to_numpy(dtype=int)
    return np.bincount(phase - 1, weights=table["unserved_years"].to_numpy(dtype=float), minlength=phases)[:phases]


_WORDS = {"full_time_jobs": "full-time jobs (new and retained)", "median_salary": "median salary"}


def reduction_warnings(table: pd.DataFrame, phased: bool, recaptured: float, reading: str) -> tuple[str, ...]:
    """One line per measure: the years of a significant reduction, by phase, with the lowest share
    (each from its row), the statute's words, and whether anything is recaptured on it."""
    share = table.attrs.get("share", trigger_share())
    lines = []
    for measure in REDUCTION_MEASURES:
        rows = table[table[measure + "_reduced"].astype(bool)] if len(table) else table
        if not len(rows):
            continue
        parts = []
        for phase, group in rows.groupby(level="phase"):
            at = group[measure + "_share_of_start"].idxmin()
            value, start = group.loc[at, measure], group.loc[at, measure + "_at_start"]
            written, _ = written_pair(group.loc[at, measure + "_share_of_start"], share, "<", "share")
            shown = money_exact if measure == "median_salary" else job_count
            where = f"Phase {phase}: " if phased else ""
            years = year_list(group.index.get_level_values("year"))
            parts.append(f"{where}{years} (lowest in year {at[1]}: {shown(value)}, {written} of {shown(start)})")
        consequence = (
            f"recaptured: {money_exact(recaptured)} for the reductions of every measure, each year counted once "
            f"(readings.reduction_recapture: {reading}, a convention, provisional until section 76(f) is read)"
            if reading != "none"
            else "not recaptured here: readings.reduction_recapture: pro_rata recaptures the share of the credits "
            "whose jobs or salaries were not kept (a convention, provisional until section 76(f) is read)"
        )
        lines.append(
            f"{_WORDS[measure]} below {share:.0%} of those certified in the phase's first credit year in "
            f"{'; '.join(parts)}: a significant reduction, for which the project agreement may recapture credits, "
            f"{REDUCTION_CLAUSE}: {REDUCTION_WORDS}; \"significantly\" is not defined in the texts read "
            f"({share:.0%} is this project's reading); {consequence}"
        )
    return tuple(lines)
