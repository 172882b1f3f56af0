"""The steps of :func:`netbenefit.model.after_approval.follow` that read a scenario: what the approval
projected for each phase, the certification of each phase's credit and the re-run flag of 76(a)(2)
and N.J.A.C. 19:31U-1.14(b) (the clawback on each phase's own clock is
:mod:`netbenefit.model.after_approval.recapture`, the 80 percent floor of 19:31U-1.14(c)
:mod:`netbenefit.model.after_approval.floor`, a reduction under C.34:1B-341(a)(4)
:mod:`netbenefit.model.after_approval.reduction`).

The pure rules they apply are :mod:`netbenefit.law.rules.certification` and
:mod:`netbenefit.law.rules.clawback`; the readings and their grades are in :mod:`netbenefit.model.after_approval`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ...errors import ScenarioError
from ...labels import jobs as jobs_words
from ...law.parameters import parameter
from ...law.rules import repayment_schedule
from ...law.rules.certification import (
    allocate_to_phases,
    certified_credit,
    fall_share,
    forfeited_years,
    more_than,
    prior_report,
    retained_first,
)
from ..result import Result
from ..scenario import Scenario
from .actuals import Actuals, ActualYear

# ----------------------------------------------------------------------------------------------
# What the approval projected, phase by phase
# ----------------------------------------------------------------------------------------------


def phase_models(scenario: Scenario) -> list:
    """The initial phase (the top level of the scenario) and each later phase."""
    return [scenario, *scenario.phases]


def year_row(array: ArrayLike, width: int) -> np.ndarray:
    """A model array of one row (or one value) as a row of ``width`` years (floats)."""
    return np.broadcast_to(np.asarray(array, dtype=float), (1, width))[0]


@dataclass(frozen=True)
class Projection:
    """The approved projection of each phase (rows) in the reported project years (columns)."""

    year: np.ndarray  # the reported project years, 1..N
    start: np.ndarray  # each phase's start year (0 for the initial phase)
    new: np.ndarray  # (phases, N) projected new full-time jobs
    retained: np.ndarray  # (phases, N) projected retained full-time jobs
    credits: np.ndarray  # (phases, N) approved credits [USD]
    credits_from_year_1: np.ndarray  # (phases, years of the timeline from year 1) approved credits [USD]
    salary: np.ndarray  # (phases, N) projected median salary [USD/year]; NaN without one


def projection(scenario: Scenario, projected: Result, years: int) -> Projection:
    """Each phase's projected jobs, credits and median salary in project years 1..``years``."""
    c = projected.computation
    width = len(c.years)
    timeline = np.asarray(c.years)
    year = np.arange(1, years + 1)
    at = np.searchsorted(timeline, year)
    inside = at < width
    at = np.minimum(at, width - 1)

    def by_phase(name: str) -> np.ndarray:
        values = np.array([year_row(getattr(p, name), width) for p in c.phases])
        return np.where(inside[None, :], values[:, at], 0.0)

    start = np.array([0.0] + [float(p.start_year) for p in scenario.phases])
    salary = np.full((len(c.phases), years), np.nan)
    for k, model in enumerate(phase_models(scenario)):
        if model.jobs.median_salary is not None:
            phase_year = np.maximum(year - start[k], 1.0)
            salary[k] = model.jobs.median_salary * (1.0 + model.jobs.salary_growth) ** (phase_year - 1.0)
    paid = timeline >= 1  # a year-0 column, the approval year, never holds a credit
    return Projection(
        year=year,
        start=start,
        new=by_phase("new_full_time_jobs"),
        retained=by_phase("retained_full_time_jobs"),
        credits=by_phase("credits"),
        credits_from_year_1=np.array([year_row(p.credits, width)[paid] for p in c.phases]),
        salary=salary,
    )


def projected_salary(plan: Projection) -> np.ndarray:
    """The project's projected median salary of each reported year: the phases' salaries weighted by
    their projected new jobs (the initial phase's where no phase projects a new job) [convention]. [USD/year]"""
    salary = plan.salary
    weights = np.where(np.isnan(salary), 0.0, plan.new)
    total = weights.sum(axis=0)
    weighted = np.divide(np.nansum(salary * weights, axis=0), total, out=np.full(total.shape, np.nan), where=total > 0)
    return np.where(total > 0, weighted, salary[0])


# ----------------------------------------------------------------------------------------------
# The actual jobs, phase by phase
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PhaseJobs:
    """The jobs the business reported, by phase (rows) and reported year (columns)."""

    new: np.ndarray  # (phases, N)
    retained: np.ndarray  # (phases, N)
    salary: np.ndarray  # (phases, N) [USD/year]; NaN where none is reported
    withholding_share: np.ndarray  # (phases, N); NaN: the scenario's


def phase_jobs(scenario: Scenario, actuals: Actuals, plan: Projection, source: str = "actual results") -> PhaseJobs:
    """The reported jobs by phase: rows naming their phase as given; the project's totals allocated
    (new jobs by ``actuals.allocation``, retained jobs to the initial phase; every phase's median
    salary moved in the proportion of the reported salary to the projected one of the year, and
    the reported withholding share for every phase) [convention]."""
    phases, years = plan.new.shape
    totals = actuals.totals()
    if actuals.by_phase:
        new, retained = np.zeros((phases, years)), np.zeros((phases, years))
        salary, share = np.full((phases, years), np.nan), np.full((phases, years), np.nan)
        for i, row in enumerate(actuals.years):
            if row.phase > phases:
                problem = f"phase {row.phase}: the scenario has {phases} phase{'s' if phases > 1 else ''}"
                raise ScenarioError(source, f"years.{i}.phase", problem)
            k, t = row.phase - 1, row.year - 1
            new[k, t], retained[k, t] = row.new_jobs, row.retained_jobs
            salary[k, t] = np.nan if row.median_salary is None else row.median_salary
            share[k, t] = np.nan if row.nj_withholding_share is None else row.nj_withholding_share
        return PhaseJobs(new, retained, salary, share)
    total_new = np.array([row.new_jobs for row in totals], dtype=float)
    new = allocate_to_phases(total_new, plan.new, actuals.allocation)
    retained = np.zeros((phases, years))
    retained[0] = [row.retained_jobs for row in totals]
    reported = np.array([np.nan if row.median_salary is None else row.median_salary for row in totals])
    ratio = reported / projected_salary(plan)
    salary = plan.salary * ratio[None, :]
    if phases == 1 or "jobs.median_salary" in scenario.shared:
        # the reported salary itself (no rounding through the ratio): one phase, or one salary path the phases share
        salary = np.broadcast_to(reported, (phases, years)).copy()
    salary[plan.year[None, :] <= plan.start[:, None]] = np.nan  # a phase has no salary before its first year
    share = np.array([np.nan if row.nj_withholding_share is None else row.nj_withholding_share for row in totals])
    return PhaseJobs(new, retained, salary, np.broadcast_to(share, (phases, years)).copy())


def early_jobs_warnings(jobs: PhaseJobs, plan: Projection) -> tuple[str, ...]:
    """Rows giving a later phase jobs before it starts: they earn no credit (nothing is approved for
    the phase yet) and the re-run leaves them out; one line each."""
    lines = []
    for k in range(1, plan.start.size):
        start = int(plan.start[k])
        for t in range(min(start, plan.year.size)):
            count = jobs.new[k, t] + jobs.retained[k, t]
            if count > 0:
                lines.append(
                    f"Phase {k + 1}: {jobs_words(count)} jobs reported in year {t + 1}, before it starts (its first "
                    f"year is project year {start + 1}): they earn no credit and are left out of the re-run"
                )
    return tuple(lines)


# ----------------------------------------------------------------------------------------------
# Certification, phase by phase; the 76(a) tests on the project as a whole
# ----------------------------------------------------------------------------------------------


def per_job_amounts(scenario: Scenario, projected: Result, k: int) -> tuple[float, float]:
    """Phase k's approved award per new and per retained full-time job per year. [USD]"""
    model = phase_models(scenario)[k]
    award = model.award
    retained = model.jobs.retained if projected.retained_jobs_eligible else 0.0
    if award.annual_credit is not None:
        jobs = model.jobs.new + retained
        per_job = award.annual_credit / jobs if jobs > 0 else 0.0
        return per_job, per_job
    if award.section_75 is not None:
        table = projected.award_calculation
        steps = table[table["phase"] == k + 1].set_index("step")
        return float(steps.loc["per_new_job", "per_job"]), float(steps.loc["per_retained_job", "per_job"])
    return award.per_new_job, award.per_retained_job or 0.0


@dataclass(frozen=True)
class Certification:
    """The certification step, by reported year: the credit approved, in proportion to the jobs in
    place, forfeited for a fall of the workforce, and certified [USD]; the jobs it rests on. The
    ``*_by_phase`` arrays are (phases, years); the others the project's totals."""

    year: np.ndarray  # the reported project years
    approved: np.ndarray
    projected_new: np.ndarray
    projected_retained: np.ndarray
    actual_new: np.ndarray  # after the retained requirement is met first, N.J.A.C. 19:31U-1.4(c)
    actual_retained: np.ndarray
    maintained: np.ndarray
    in_proportion: np.ndarray
    drop: np.ndarray  # the fall of the statewide workforce (share)
    forfeited: np.ndarray
    certified: np.ndarray
    reported_new: np.ndarray | None = None  # as the file reports them (project totals)
    reported_retained: np.ndarray | None = None
    approved_by_phase: np.ndarray | None = None
    new_by_phase: np.ndarray | None = None  # counted, after the retained requirement
    retained_by_phase: np.ndarray | None = None
    certified_by_phase: np.ndarray | None = None
    in_proportion_by_phase: np.ndarray | None = None  # before forfeiture

    def forfeited_by_phase(self) -> np.ndarray:
        """Each phase's credit forfeited for a fall of the statewide workforce (phases, years). [USD]"""
        before = self.certified_by_phase if self.in_proportion_by_phase is None else self.in_proportion_by_phase
        return np.where(self.forfeited[None, :], before, 0.0)


def certification(
    scenario: Scenario, actuals: Actuals, projected: Result, plan: Projection, jobs: PhaseJobs
) -> Certification:
    """Annual certification and forfeiture, each phase on its own award: the credit in proportion to
    the full-time jobs actually in place (never more than the approved credit of the phase's year),
    the retained requirement met first, and nothing in a year of forfeiture (a fall of the statewide
    workforce of more than 20 percent, 76(a)(1), on the business as a whole)."""
    totals = actuals.totals()
    year = plan.year
    counted = projected.retained_jobs_eligible  # 71(c) decides whether retained jobs count
    stop = actuals.maintained_through_year
    maintained = np.ones(year.shape, dtype=bool) if stop is None else year <= stop
    new_by_phase, retained_by_phase = jobs.new.copy(), jobs.retained * counted
    in_proportion = np.zeros(plan.credits.shape)
    for k, model in enumerate(phase_models(scenario)):
        if counted:  # N.J.A.C. 19:31U-1.4(c): the retained requirement is met first
            new_by_phase[k], retained_by_phase[k] = retained_first(
                new_by_phase[k], retained_by_phase[k], model.jobs.retained
            )
        per_new, per_retained = per_job_amounts(scenario, projected, k)
        in_proportion[k] = (
            certified_credit(plan.credits[k], per_new, per_retained, new_by_phase[k], retained_by_phase[k]) * maintained
        )
    restoration = 1.0 if actuals.restored_at == "full_level" else None
    drop, forfeited = forfeited_years(
        [row.statewide_workforce for row in totals], actuals.workforce_before_approval, restoration
    )
    certified_by_phase = np.where(forfeited[None, :], 0.0, in_proportion)
    return Certification(
        year=year,
        approved=plan.credits.sum(axis=0),
        projected_new=plan.new.sum(axis=0),
        projected_retained=plan.retained.sum(axis=0),
        actual_new=new_by_phase.sum(axis=0),
        actual_retained=retained_by_phase.sum(axis=0),
        maintained=maintained,
        in_proportion=in_proportion.sum(axis=0),
        drop=drop,
        forfeited=forfeited,
        certified=certified_by_phase.sum(axis=0),
        reported_new=np.array([row.new_jobs for row in totals], dtype=float),
        reported_retained=np.array([row.retained_jobs for row in totals], dtype=float),
        approved_by_phase=plan.credits,
        new_by_phase=new_by_phase,
        retained_by_phase=retained_by_phase,
        certified_by_phase=certified_by_phase,
        in_proportion_by_phase=in_proportion,
    )


def first_report_jobs(scenario: Scenario, ramp_first_year: float) -> float:
    """The new jobs the first annual report is compared with, N.J.A.C. 19:31U-1.14(b): "the project
    agreement if the annual report is the first such report filed" [rule]. By default the new jobs
    the agreement approves (``jobs.new``, with those of any later phase that starts at approval);
    ``readings.first_report_basis: ramp`` takes the ramp's first year instead (the comparison before)."""
    if scenario.readings.first_report_basis == "ramp":
        return float(ramp_first_year)
    return float(scenario.jobs.new) + sum(float(p.jobs.new) for p in scenario.phases if p.start_year == 0)


@dataclass(frozen=True)
class RerunFlags:
    """The re-run step's flags, 76(a)(2) and N.J.A.C. 19:31U-1.14(b), by reported year; the ``phase_*``
    arrays (phases, years) compare each phase with its own agreement and reports (NaN before its
    first year), which flag under ``readings.rerun_comparison: each_phase``."""

    new_fall: np.ndarray  # fall of the new jobs against the prior report (share)
    projected_salary: np.ndarray  # [USD/year]; NaN without a median salary
    actual_salary: np.ndarray
    salary_fall: np.ndarray  # NaN where a salary is not reported
    flag: np.ndarray
    phase_new_fall: np.ndarray | None = None
    phase_salary_fall: np.ndarray | None = None
    phase_flag: np.ndarray | None = None


def _falls(actual: ArrayLike, first: ArrayLike, start: int) -> np.ndarray:
    """The fall of each year's report below the prior one (the first, from ``start``, below
    ``first``); NaN where either is not reported and before ``start``."""
    actual = np.asarray(actual, dtype=float)
    falls = np.full(actual.shape, np.nan)
    if start >= actual.size:
        return falls
    own = actual[start:]
    compared = prior_report(own, first)
    known = ~(np.isnan(own) | np.isnan(compared))
    falls[start:] = np.where(known, fall_share(np.nan_to_num(own), np.nan_to_num(compared)), np.nan)
    return falls


def _phase_falls(
    scenario: Scenario, certified: Certification, plan: Projection, jobs: PhaseJobs | None
) -> tuple[np.ndarray, np.ndarray]:
    """Each phase's falls of new jobs and median salary against its own agreement (its first
    report) and its own prior reports, from its first year (the phase's ``jobs.new``, or the
    ramp's first year under ``readings.first_report_basis: ramp``)."""
    phases, years = plan.new.shape
    new_fall, salary_fall = np.full((phases, years), np.nan), np.full((phases, years), np.nan)
    for k, model in enumerate(phase_models(scenario)):
        start = int(plan.start[k])
        if start >= years:
            continue
        first = plan.new[k, start] if scenario.readings.first_report_basis == "ramp" else float(model.jobs.new)
        new_fall[k] = _falls(certified.new_by_phase[k], first, start)
        if jobs is not None:
            salary_fall[k] = _falls(jobs.salary[k], plan.salary[k, start], start)
    return new_fall, salary_fall


def rerun_flags(
    scenario: Scenario, actuals: Actuals, certified: Certification, plan: Projection, jobs: PhaseJobs | None = None
) -> RerunFlags:
    """The re-run flag: a fall of more than 10% of the new jobs or the median salary against the prior
    year's report ("or the project agreement if the annual report is the first such report filed"),
    76(a)(2) [statute], except for a small business, N.J.A.C. 19:31U-1.14(b) [rule]; on the project's
    totals, or (``readings.rerun_comparison: each_phase``, given ``jobs``) each phase against its own
    agreement and reports, a year flagged where any phase falls. A slow decline (under 10% a year)
    never flags: the 80 percent floor of 19:31U-1.14(c) is what catches it."""
    actual_new = certified.actual_new
    rerun_fall = parameter("net_benefit_rerun_fall_share")
    new_fall = fall_share(actual_new, prior_report(actual_new, first_report_jobs(scenario, certified.projected_new[0])))
    projected = projected_salary(plan)
    actual_salary = np.array([np.nan if row.median_salary is None else row.median_salary for row in actuals.totals()])
    compared_salary = prior_report(actual_salary, projected[0])
    salary_fall = np.where(
        np.isnan(actual_salary) | np.isnan(compared_salary),
        np.nan,
        fall_share(np.nan_to_num(actual_salary), np.nan_to_num(compared_salary)),
    )
    flag = more_than(new_fall, rerun_fall) | more_than(np.nan_to_num(salary_fall), rerun_fall)
    phase_new, phase_salary = _phase_falls(scenario, certified, plan, jobs)
    phase_flag = more_than(np.nan_to_num(phase_new), rerun_fall) | more_than(np.nan_to_num(phase_salary), rerun_fall)
    if scenario.readings.rerun_comparison == "each_phase" and jobs is not None:
        flag = phase_flag.any(axis=0)
    if scenario.business.small_business and parameter("net_benefit_rerun_small_business_excepted"):
        flag = np.zeros_like(flag)  # "Except for a small business", N.J.A.C. 19:31U-1.14(b) [rule]
        phase_flag = np.zeros_like(phase_flag)
    return RerunFlags(new_fall, projected, actual_salary, salary_fall, flag, phase_new, phase_salary, phase_flag)


# ----------------------------------------------------------------------------------------------
# Deprecated (the clawback step is netbenefit.model.after_approval.recapture)
# ----------------------------------------------------------------------------------------------


def extension_repayment(
    incremental_credit: float, extended_years: int, commitment_end: float, maintained_through_year: float | None
) -> tuple[int, float]:
    """Repayment of the incremental credit when the project stops during its extended commitment.

    Deprecated (a ``DeprecationWarning``; the values are unchanged): :func:`follow` does not use
    it; it applies :func:`netbenefit.law.rules.clawback.extended_years_maintained` and
    :func:`netbenefit.law.rules.clawback.extension_repayment` (through
    :func:`~netbenefit.law.rules.clawback.phase_clawback`). Use those.

    The extended commitment runs from ``commitment_end`` (years after approval) for
    ``extended_years`` years; the business maintained the project through the end of project year
    ``maintained_through_year``, i.e. ``m = floor(maintained_through_year - commitment_end)``
    whole extended years (0 when it stopped before the extension began). The repayment is row m of
    :func:`netbenefit.law.rules.net_benefit.repayment_schedule`, 71(a)(5)(d) (the formula is a
    convention), and 0 once every extended year was maintained.

    Returns
    -------
    (years_maintained, repayment) : (int, float)

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     extension_repayment(300.0, 3, 10.5, 12)  # 1.5 extended years maintained -> m = 1
    (1, 200.0)
    """
    warnings.warn(
        "netbenefit.model.after_approval.extension_repayment is deprecated and will be removed: use "
        "netbenefit.law.rules.clawback.extended_years_maintained and netbenefit.law.rules.clawback.extension_repayment "
        "(which follow() applies)",
        DeprecationWarning,
        stacklevel=2,
    )
    years = int(extended_years)
    if years <= 0 or maintained_through_year is None:
        return (years if maintained_through_year is None else 0), 0.0
    tolerance = parameter("after_approval_comparison_relative_tolerance")
    maintained = math.floor(maintained_through_year - commitment_end + tolerance)
    maintained = min(max(maintained, 0), years)
    if maintained >= years:
        return years, 0.0
    return maintained, dict(repayment_schedule(incremental_credit, years))[maintained]




__all__ = [
    "ActualYear",
    "Certification",
    "PhaseJobs",
    "Projection",
    "RerunFlags",
    "certification",
    "extension_repayment",
    "first_report_jobs",
    "early_jobs_warnings",
    "phase_jobs",
    "projection",
    "rerun_flags",
]
