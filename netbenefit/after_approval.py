"""Life after approval: annual certification, forfeiture, re-run of the test on actual results.

After an Emerge award is approved, the authority certifies the credit each year against what the
business actually did. Following the authority's Emerge Program rules, N.J.A.C. 19:31U-1.14 and
19:31U-1.4(c), as summarized by the authority and read by an independent legal review (the rule
text itself is not in the sources in hand) [secondary]:

- the credit is certified in proportion to the full-time jobs actually in place, never more than
  the approved amount of the year (certification, P.L.2020, c.156, s.76, C.34:1B-344, and
  N.J.A.C. 19:31U-1.14, as summarized by the authority; neither text read) [secondary]; where the
  business has new and retained jobs, the jobs in place meet the retained requirement first and
  only the rest count as new jobs (N.J.A.C. 19:31U-1.4(c)) [secondary];
- in a tax period in which the business's statewide full-time workforce is **more than** 20
  percent below its level in the last tax period before approval, the credit is forfeited, and
  in later periods until the workforce is restored to the threshold level of that subsection (a
  fall of no more than 20 percent); an actual-results file may ask for the level itself
  (``restored_at: full_level``);
- except for a small business, where new full-time jobs or their median salary fall by **more
  than** 10 percent below the prior year's annual report ("or the project agreement if the annual
  report is the first such report filed": by default the new jobs the agreement approves,
  ``readings.first_report_basis``), the authority may re-run the net benefit test and reduce the
  award, N.J.A.C. 19:31U-1.14(b) [rule, read]. Subsection (c) of 19:31U-1.14 could not be read and
  is not modelled. The small-business exception is the rule's words; section 76 of P.L.2020,
  c.156 (C.34:1B-344) was not read.

To these this module adds the clawback of :mod:`netbenefit.rules.clawback` in the year the
project stops: recapture within the commitment period and the repayment of the incremental
credit of an extended commitment, 71(a)(5)(d), both on the credits actually certified; and the
net benefit test re-run on the actual results instead of the projections (a variant scenario
built with :meth:`~netbenefit.scenario.Scenario.replace`, evaluated like any other).

The actual results are read by :mod:`netbenefit.actuals` (:class:`Actuals`, :func:`load_actuals`,
re-exported here).

Every bound comes from the cited parameters file ``after_approval.yaml``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .actuals import (  # the actual results, read and validated (named here before)
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
    read_inputs,
)
from .errors import ScenarioError
from .evaluate import evaluate
from .parameters import parameter
from .result import Result
from .rules import repayment_schedule
from .rules.certification import (  # named here before
    certified_credit,
    fall_share,
    forfeited_years,
    more_than,
    prior_report,
    retained_first,
)
from .rules.clawback import extended_years_maintained, phase_clawback
from .scenario import Scenario

__all__ = [
    "CSV_OPTIONAL",
    "CSV_REQUIRED",
    "ActualYear",
    "Actuals",
    "AfterApproval",
    "Certification",
    "Clawback",
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


# ----------------------------------------------------------------------------------------------
# The rules: pure functions on numbers and arrays in netbenefit.rules.certification; here, the
# ones that read a scenario
# ----------------------------------------------------------------------------------------------


def first_report_jobs(scenario: Scenario, ramp_first_year: float) -> float:
    """The new jobs the first annual report is compared with, N.J.A.C. 19:31U-1.14(b): "the project
    agreement if the annual report is the first such report filed" [rule]. By default the new jobs
    the agreement approves (``jobs.new``); ``readings.first_report_basis: ramp`` takes the ramp's
    first year instead (the comparison before)."""
    if scenario.readings.first_report_basis == "ramp":
        return float(ramp_first_year)
    return float(scenario.jobs.new)


def extension_repayment(incremental_credit, extended_years, commitment_end, maintained_through_year):
    """Repayment of the incremental credit when the project stops during its extended commitment.

    Deprecated (a ``DeprecationWarning``; the values are unchanged): :func:`follow` does not use
    it; it applies :func:`netbenefit.rules.clawback.extended_years_maintained` and
    :func:`netbenefit.rules.clawback.extension_repayment` (through
    :func:`~netbenefit.rules.clawback.phase_clawback`). Use those.

    The extended commitment runs from ``commitment_end`` (years after approval) for
    ``extended_years`` years; the business maintained the project through the end of project year
    ``maintained_through_year``, i.e. ``m = floor(maintained_through_year - commitment_end)``
    whole extended years (0 when it stopped before the extension began). The repayment is row m of
    :func:`netbenefit.rules.net_benefit.repayment_schedule`, 71(a)(5)(d) (the formula is a
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
        "netbenefit.after_approval.extension_repayment is deprecated and will be removed: use "
        "netbenefit.rules.clawback.extended_years_maintained and netbenefit.rules.clawback.extension_repayment "
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


# ----------------------------------------------------------------------------------------------
# The pipeline: scenario + actual results -> AfterApproval
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AfterApproval:
    """An approved scenario followed through its actual results.

    - ``years``: one row per reported project year: approved, in-proportion, forfeited and
      certified credits [USD], projected and actual jobs, salaries, workforce, the falls, the
      flags, and in a flagged year the ratio of the test re-run on actual results;
    - ``comparison``: the net benefit test on the projections and re-run on actual results;
    - ``projected`` and ``actual``: the two :class:`~netbenefit.Result` objects.
    """

    scenario: Scenario
    actuals: Actuals
    projected: Result
    actual: Result
    actual_scenario: Scenario
    years: pd.DataFrame = field(repr=False)
    comparison: pd.DataFrame = field(repr=False)
    approved_credits: float  # [USD] over the reported years
    certified_credits: float  # [USD] over the reported years
    forfeited_years: tuple[int, ...]
    rerun_flag_years: tuple[int, ...]
    rerun_ratio: float
    rerun_passes: bool
    supported_award_share: float  # share of the approved credits the re-run supports (1 = all)
    extended_years_maintained: int | None
    repayment: float  # [USD] of the incremental credit of an extended commitment
    repayment_year: int | None  # the year after the project stopped, when anything is owed
    recapture: float = 0.0  # [USD] credits recaptured for leaving within the commitment period
    interest: float = 0.0  # [USD] on the recapture (commitment.recapture_interest)

    def summary(self) -> str:
        """A short plain-text account of the actual results against the approval."""
        lines = [
            f"{self.scenario.name}: actual results, years 1-{len(self.years)}",
            f"  credits certified ${self.certified_credits:,.0f} of ${self.approved_credits:,.0f} approved "
            "for these years (N.J.A.C. 19:31U-1.14)",
        ]
        if self.forfeited_years:
            years = ", ".join(str(y) for y in self.forfeited_years)
            lines.append(f"  forfeited for a fall of the statewide workforce in years {years}")
        if self.rerun_flag_years:
            years = ", ".join(str(y) for y in self.rerun_flag_years)
            lines.append(f"  new jobs or median salary fell beyond the bound in years {years}: the test may be re-run")
        lines.append(
            f"  net benefit ratio projected {self.projected.ratio:.2%}, on actual results {self.rerun_ratio:.2%} "
            f"vs threshold {self.actual.threshold:.0%}: {'passes' if self.rerun_passes else 'fails'}"
        )
        if not self.rerun_passes:
            lines.append(f"  the actual results support {self.supported_award_share:.1%} of the approved credits")
        if self.recapture > 0:
            lines.append(
                f"  stopped after year {self.repayment_year - 1}, within the commitment period: recapture "
                f"${self.recapture:,.0f} in year {self.repayment_year} (rule: {self.scenario.commitment.recapture!r}; "
                "the statute allows none ... all, C.34:1B-341(a)(4))"
            )
        if self.interest > 0:
            lines.append(f"  interest on the recapture ${self.interest:,.0f} in year {self.repayment_year}")
        if self.repayment > 0:
            lines.append(
                f"  extended commitment: {self.extended_years_maintained} of {self.projected.extended_years} years "
                f"maintained; repayment ${self.repayment:,.0f} in year {self.repayment_year}, 71(a)(5)(d)"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def _per_job_amounts(scenario: Scenario, projected: Result) -> tuple[float, float]:
    """The approved award's amount per new and per retained full-time job per year. [USD]"""
    award = scenario.award
    retained = scenario.jobs.retained if projected.retained_jobs_eligible else 0.0
    if award.annual_credit is not None:
        jobs = scenario.jobs.new + retained
        per_job = award.annual_credit / jobs if jobs > 0 else 0.0
        return per_job, per_job
    if award.section_75 is not None:
        steps = projected.award_calculation.set_index("step")
        return float(steps.loc["per_new_job", "per_job"]), float(steps.loc["per_retained_job", "per_job"])
    return award.per_new_job, award.per_retained_job or 0.0


def actual_scenario(scenario: Scenario, actuals: Actuals, projected: Result) -> Scenario:
    """The scenario with its jobs, salary and withholdings replaced by the actual results.

    Conventions (the model holds a level of new jobs times a ramp, a salary growing at a constant
    rate, and constant retained jobs):

    - new jobs: ``jobs.new`` is the largest number of new jobs reported and the ramp follows the
      reported years exactly; the last reported year holds afterwards, and zero jobs follow
      ``maintained_through_year``;
    - retained jobs and the withholding share: those of the last reported year;
    - median salary: the salary of year 1, growing at the constant rate that reaches the last
      reported salary (where salaries are reported);
    - the credits stay the approved ones (the award is given as its approved annual credit);
    - capital investment and explicit streams stay as projected.
    """
    reported = actuals.years
    new_jobs = [row.new_jobs for row in reported]
    stop = actuals.maintained_through_year
    if stop is not None:
        new_jobs = new_jobs[:stop] + [new_jobs[-1]] * max(0, stop - len(new_jobs)) + [0.0]
    peak = max(new_jobs)
    ramp = [jobs / peak if peak > 0 else 0.0 for jobs in new_jobs]
    last = reported[-1]
    changes: dict[str, Any] = {
        "name": f"{scenario.name} (actual results)",
        "jobs.new": float(peak),
        "jobs.ramp": ramp,
        "jobs.retained": float(last.retained_jobs),
        "award": {
            "annual_credit": float(projected.cashflows["credits"].max()),
            "eligibility_period_years": scenario.award.eligibility_period_years,
            "first_credit_year": scenario.award.first_credit_year,
        },
    }
    if last.nj_withholding_share is not None:
        changes["jobs.nj_withholding_share"] = float(last.nj_withholding_share)
    salaries = [(row.year, row.median_salary) for row in reported if row.median_salary is not None]
    if scenario.jobs.median_salary is not None and salaries:
        (first_year, first_salary), (last_year, last_salary) = salaries[0], salaries[-1]
        growth = scenario.jobs.salary_growth
        if last_year > first_year and first_salary > 0:
            growth = (last_salary / first_salary) ** (1.0 / (last_year - first_year)) - 1.0
        changes["jobs.median_salary"] = float(first_salary / (1.0 + growth) ** (first_year - 1))
        changes["jobs.salary_growth"] = float(growth)
    return scenario.replace(changes)


@dataclass(frozen=True)
class Certification:
    """The certification step, by reported year: the credit approved, in proportion to the jobs in
    place, forfeited for a fall of the workforce, and certified [USD]; the jobs it rests on."""

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


@dataclass(frozen=True)
class RerunFlags:
    """The re-run step's flags, N.J.A.C. 19:31U-1.14(b), by reported year."""

    new_fall: np.ndarray  # fall of the new jobs against the prior report (share)
    projected_salary: np.ndarray  # [USD/year]; NaN without a median salary
    actual_salary: np.ndarray
    salary_fall: np.ndarray  # NaN where a salary is not reported
    flag: np.ndarray


@dataclass(frozen=True)
class Clawback:
    """The clawback in the year the project stops, on the credits actually certified."""

    years_maintained: int | None  # whole extended years maintained; None without a stop or an extension
    repayment: float  # [USD] of the incremental credit, 71(a)(5)(d)
    recaptured: float  # [USD] within the commitment period
    interest: float  # [USD] on the recapture
    year: int | None  # the year after the project stopped, when anything is owed


def certification(scenario: Scenario, actuals: Actuals, projected: Result) -> Certification:
    """Annual certification and forfeiture: the credit in proportion to the full-time jobs actually in
    place (never more than the approved credit of the year), the retained requirement met first, and
    nothing in a year of forfeiture (a fall of the statewide workforce of more than 20 percent)."""
    cashflows = projected.cashflows
    reported = actuals.years
    year = np.array([row.year for row in reported])
    at = lambda column: cashflows[column].reindex(year, fill_value=0.0).to_numpy(dtype=float)  # noqa: E731
    approved = at("credits")
    projected_new = at("new_full_time_jobs")
    projected_retained = at("retained_full_time_jobs")
    actual_new = np.array([row.new_jobs for row in reported], dtype=float)
    counted = projected.retained_jobs_eligible  # 71(c) decides whether retained jobs count
    actual_retained = np.array([row.retained_jobs for row in reported], dtype=float) * counted

    stop = actuals.maintained_through_year
    maintained = np.ones(year.shape, dtype=bool) if stop is None else year <= stop
    per_new, per_retained = _per_job_amounts(scenario, projected)
    if counted:  # N.J.A.C. 19:31U-1.4(c): the retained requirement is met first
        actual_new, actual_retained = retained_first(actual_new, actual_retained, scenario.jobs.retained)
    in_proportion = certified_credit(approved, per_new, per_retained, actual_new, actual_retained) * maintained
    restoration = 1.0 if actuals.restored_at == "full_level" else None
    drop, forfeited = forfeited_years(
        [row.statewide_workforce for row in reported], actuals.workforce_before_approval, restoration
    )
    certified = np.where(forfeited, 0.0, in_proportion)
    return Certification(
        year,
        approved,
        projected_new,
        projected_retained,
        actual_new,
        actual_retained,
        maintained,
        in_proportion,
        drop,
        forfeited,
        certified,
    )


def rerun_flags(scenario: Scenario, actuals: Actuals, certified: Certification) -> RerunFlags:
    """The re-run flag: a fall of more than 10% of the new jobs or the median salary against the prior
    year's report ("the project agreement if the annual report is the first such report filed"),
    except for a small business, N.J.A.C. 19:31U-1.14(b) [rule]."""
    reported = actuals.years
    year = certified.year
    actual_new = certified.actual_new
    rerun_fall = parameter("net_benefit_rerun_fall_share")
    new_fall = fall_share(actual_new, prior_report(actual_new, first_report_jobs(scenario, certified.projected_new[0])))
    jobs = scenario.jobs
    if jobs.median_salary is not None:
        projected_salary = jobs.median_salary * (1.0 + jobs.salary_growth) ** (year - 1.0)
    else:
        projected_salary = np.full(year.shape, np.nan)
    actual_salary = np.array([np.nan if row.median_salary is None else row.median_salary for row in reported])
    compared_salary = prior_report(actual_salary, projected_salary[0])
    salary_fall = np.where(
        np.isnan(actual_salary) | np.isnan(compared_salary),
        np.nan,
        fall_share(np.nan_to_num(actual_salary), np.nan_to_num(compared_salary)),
    )
    flag = more_than(new_fall, rerun_fall) | more_than(np.nan_to_num(salary_fall), rerun_fall)
    flag = flag & (not scenario.business.small_business)  # "Except for a small business"
    return RerunFlags(new_fall, projected_salary, actual_salary, salary_fall, flag)


def clawback(scenario: Scenario, projected: Result, stop: int | None, certified: np.ndarray) -> Clawback:
    """The clawback in the year the project stops (``stop``: the last project year maintained), on the
    credits actually certified: recapture within the commitment period and its interest
    (C.34:1B-341(a)(4)), and the repayment of the incremental credit of an extended commitment,
    71(a)(5)(d) (:func:`netbenefit.rules.clawback.phase_clawback`)."""
    cashflows = projected.cashflows
    commitment_start = scenario.award.first_credit_year - 1
    commitment_end = commitment_start + projected.commitment_period_years
    extended = projected.extended_years if projected.extension_counted else 0
    years_maintained, repayment, recaptured, interest = None, 0.0, 0.0, 0.0
    if stop is not None:
        # by project year from 1 (a year-0 row, the approval year, never holds a credit)
        approved_all = cashflows.loc[cashflows.index >= 1, "credits"].to_numpy(dtype=float)
        received_by_year = approved_all[:stop].copy()
        reported_until = min(stop, len(certified))
        received_by_year[:reported_until] = certified[:reported_until]
        share = projected.incremental_credit / projected.requested_credits if extended else 0.0
        rate = scenario.commitment.recapture_interest.rate if scenario.commitment.recapture_interest else 0.0
        owed = phase_clawback(
            received_by_year,
            [stop],
            commitment_start,
            projected.commitment_period_years,
            share,
            extended,
            scenario.commitment.recapture,
            scenario.commitment.extension_years_counted,
            rate,
            award_total=projected.requested_credits,
        )
        recaptured = float(owed["recapture"][0])
        interest = float(owed["interest"][0])
        if extended:
            kept = extended_years_maintained(
                stop, commitment_end, extended, scenario.commitment.extension_years_counted
            )
            years_maintained = int(np.floor(kept))
            repayment = float(owed["extension_repayment"][0])
    repayment_year = stop + 1 if repayment > 0 or recaptured > 0 else None
    return Clawback(years_maintained, repayment, recaptured, interest, repayment_year)


def years_table(
    actuals: Actuals, certified: Certification, flags: RerunFlags, actual: Result, owed: Clawback
) -> pd.DataFrame:
    """One row per reported project year (and the year a clawback is owed): see :class:`AfterApproval`."""
    in_proportion, forfeited, flag = certified.in_proportion, certified.forfeited, flags.flag
    table = pd.DataFrame(
        {
            "approved_credit": certified.approved,
            "projected_new_jobs": certified.projected_new,
            "actual_new_jobs": certified.actual_new,
            "projected_retained_jobs": certified.projected_retained,
            "actual_retained_jobs": certified.actual_retained,
            "maintained": certified.maintained,
            "credit_in_proportion": in_proportion,
            "statewide_workforce": [row.statewide_workforce for row in actuals.years],
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


@np.errstate(all="ignore")  # an overflowing amount is a non-finite value or an error, not a warning
def follow(scenario: Scenario | str | Path, actuals: Actuals | str | Path) -> AfterApproval:
    """Follow an approved scenario through its actual annual results.

    Parameters
    ----------
    scenario : Scenario, or the path of a scenario file
        The approved application (an initial phase only: later phases are not followed).
    actuals : Actuals, or the path of a YAML file of actual results

    Returns
    -------
    AfterApproval

    Raises
    ------
    ScenarioError
        When the scenario has later phases, or either input cannot be read or evaluated.
    """
    scenario, actuals = read_inputs(scenario, actuals)  # netbenefit.actuals
    if scenario.phases:
        raise ScenarioError(scenario.source, "phases", "actual results are followed for a project without later phases")
    projected = evaluate(scenario)
    certified = certification(scenario, actuals, projected)
    flags = rerun_flags(scenario, actuals, certified)
    # The test re-run on actual results (a variant scenario, evaluated like any other).
    variant = actual_scenario(scenario, actuals, projected)
    actual = evaluate(variant)
    supported = 1.0 if actual.passes else min(1.0, actual.max_credit_pv / projected.pv_credits)
    owed = clawback(scenario, projected, actuals.maintained_through_year, certified.certified)
    reported_approved = float(certified.approved.sum())
    return AfterApproval(
        scenario=scenario,
        actuals=actuals,
        projected=projected,
        actual=actual,
        actual_scenario=variant,
        years=years_table(actuals, certified, flags, actual, owed),
        comparison=comparison_table(projected, actual, reported_approved, float(certified.certified.sum())),
        approved_credits=reported_approved,
        certified_credits=float(certified.certified.sum()),
        forfeited_years=tuple(int(y) for y in certified.year[certified.forfeited]),
        rerun_flag_years=tuple(int(y) for y in certified.year[flags.flag]),
        rerun_ratio=float(actual.ratio),
        rerun_passes=bool(actual.passes),
        supported_award_share=float(supported),
        extended_years_maintained=owed.years_maintained,
        repayment=float(owed.repayment),
        repayment_year=owed.year,
        recapture=owed.recaptured,
        interest=owed.interest,
    )


def clawback_rows(table: pd.DataFrame, owed_year: int | None, recaptured: float, interest: float, repayment: float):
    """The years table with the clawback in the year it is owed: ``recapture``, ``interest`` and
    ``repayment`` columns, and a row for that year when it follows the last year reported (its
    other columns empty: nothing was reported for it)."""
    if owed_year is not None and owed_year not in table.index:
        table = table.reindex(table.index.append(pd.Index([owed_year], name="year")))
    at = table.index.to_numpy() == (owed_year or 0)
    return table.assign(
        repayment=np.where(at, repayment, 0.0),
        recapture=np.where(at, recaptured, 0.0),
        interest=np.where(at, interest, 0.0),
    )
