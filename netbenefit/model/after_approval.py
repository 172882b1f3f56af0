"""Life after approval: annual certification, forfeiture, re-run of the test on actual results.

After an Emerge award is approved, the authority certifies the credit each year against what the
business actually did. Section 76 of P.L.2020, c.156 (C.34:1B-344), subsections (a)(1) and (a)(2),
read in a stored public copy [statute], and the authority's Emerge Program rules, N.J.A.C.
19:31U-1.14 ((a), (b) and the opening of (c) read [rule]) and 19:31U-1.4(c) [secondary]:

- the credit is certified in proportion to the full-time jobs actually in place, never more than
  the approved amount of the year (as summarized by the authority) [secondary]; where the
  business has new and retained jobs, the jobs in place meet the retained requirement first and
  only the rest count as new jobs (N.J.A.C. 19:31U-1.4(c)) [secondary];
- in a tax period in which the business's statewide full-time workforce is **more than** 20
  percent below its level in the last tax period before approval, the credit is forfeited, and
  in later periods until the workforce is restored to the threshold level of that subsection (a
  fall of no more than 20 percent), 76(a)(1) [statute]; an actual-results file may ask for the
  level itself (``restored_at: full_level``);
- where new full-time jobs or their salaries fall by **more than** 10 percent below the prior
  year's annual report ("or the project agreement if the annual report is the first such report
  filed": by default the new jobs the agreement approves, ``readings.first_report_basis``), the
  authority may re-run the net benefit test and reduce the award, 76(a)(2) [statute]. The rule,
  N.J.A.C. 19:31U-1.14(b), excepts a small business [rule]; the statute has no such exception
  (parameter ``net_benefit_rerun_small_business_excepted``);
- where a year's withholdings, full-time jobs or their salaries drop below 80 percent of those the
  project agreement specifies, N.J.A.C. 19:31U-1.14(c) begins [rule, opening read]; its
  consequence is not read, so :func:`follow` warns (``AfterApproval.warnings``) and changes nothing.
  76(b)-(f) and 19:31U-1.14(d)-(f) are not read.

To these this module adds the clawback of :mod:`netbenefit.law.rules.clawback` in the year the
project stops: recapture within the commitment period and the repayment of the incremental
credit of an extended commitment, 71(a)(5)(d), both on the credits actually certified, each phase
on its own clock; and the net benefit test re-run on the actual results instead of the projections
(a variant scenario, :func:`netbenefit.model.actual_scenario.actual_scenario`, evaluated like any other).

A phased project is followed phase by phase: the file's project totals are allocated to the
phases (:func:`netbenefit.law.rules.certification.allocate_to_phases`), or its rows name their
phases; each phase is certified on its own award and clawed back on its own clock; the 76(a)
tests read the project as a whole; one stop (``maintained_through_year``) ends every phase.

The actual results are read by :mod:`netbenefit.model.actuals` (:class:`Actuals`, :func:`load_actuals`,
re-exported here); the steps are :mod:`netbenefit.model.after_approval_steps` (the floor
:mod:`netbenefit.model.after_approval_floor`), the tables :mod:`netbenefit.model.after_approval_tables`.

Every bound comes from the cited parameters file ``after_approval.yaml``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..law.rules.certification import (
    certified_credit,
    fall_share,
    forfeited_years,
    more_than,
    prior_report,
    retained_first,
)
from ..law.rules.clawback import RECAPTURE_CLAUSE, RECAPTURE_RANGE_NOTE
from .actual_scenario import actual_scenario as _actual_scenario
from .actual_scenario import unshared
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
    read_inputs,
)
from .after_approval_floor import floor_table, floor_warnings
from .after_approval_steps import (
    Certification,
    Clawback,
    RerunFlags,
    early_jobs_warnings,
    extension_repayment,
    first_report_jobs,
    phase_jobs,
    projection,
)
from .after_approval_steps import certification as _certification
from .after_approval_steps import clawback as _clawback
from .after_approval_steps import rerun_flags as _rerun_flags
from .after_approval_tables import (
    clawback_rows,
    comparison_table,
    phase_years_table,
    phases_table,
    rerun_tests_table,
    years_table,
)
from .evaluate import evaluate
from .plausibility import PlausibilityWarning, quiet
from .result import Result
from .scenario import Scenario
from .scenario.paths import key_label

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
# The steps, with the signatures they had before (a scenario, its actual results and its projection)
# ----------------------------------------------------------------------------------------------


def _plan(scenario: Scenario, actuals: Actuals, projected: Result):
    plan = projection(scenario, projected, len(actuals.totals()))
    return plan, phase_jobs(scenario, actuals, plan)


def actual_scenario(scenario: Scenario, actuals: Actuals, projected: Result) -> Scenario:
    """The scenario of the test re-run on actual results (:mod:`netbenefit.model.actual_scenario`)."""
    return _actual_scenario(scenario, actuals, projected, *_plan(scenario, actuals, projected))


def certification(scenario: Scenario, actuals: Actuals, projected: Result) -> Certification:
    """Annual certification and forfeiture (:func:`netbenefit.model.after_approval_steps.certification`)."""
    return _certification(scenario, actuals, projected, *_plan(scenario, actuals, projected))


def rerun_flags(scenario: Scenario, actuals: Actuals, certified: Certification, projected: Result | None = None):
    """The re-run flag of 76(a)(2) (:func:`netbenefit.model.after_approval_steps.rerun_flags`)."""
    projected = evaluate(scenario) if projected is None else projected
    return _rerun_flags(scenario, actuals, certified, projection(scenario, projected, len(actuals.totals())))


def clawback(scenario: Scenario, projected: Result, stop: int | None, certified) -> Clawback:
    """The clawback in the year the project stops (:func:`netbenefit.model.after_approval_steps.clawback`);
    ``certified`` is a :class:`Certification`, or (a project without later phases) the credits
    certified in the reported years."""
    if not isinstance(certified, Certification):
        values = np.atleast_2d(np.asarray(certified, dtype=float))
        certified = Certification(*([np.zeros(values.shape[1])] * 11), certified_by_phase=values)
    return _clawback(scenario, projected, stop, certified, projection(scenario, projected, certified.year.size))


# ----------------------------------------------------------------------------------------------
# The pipeline: scenario + actual results -> AfterApproval
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AfterApproval:
    """An approved scenario followed through its actual results.

    - ``years``: one row per reported project year (the project's totals): approved, in-proportion,
      forfeited and certified credits [USD], projected and actual jobs, salaries, workforce, the
      falls, the flags, and in a flagged year the ratio of the test re-run on actual results;
    - ``phases``: one row per phase: credits approved and certified, its clock, what it owes;
    - ``phase_years``: one row per phase and reported year;
    - ``comparison``: the net benefit test on the projections and re-run on actual results;
    - ``rerun_tests``: the re-run, one row per cumulative test (initial phase, then 1..k);
    - ``floor``: the 80 percent floor of N.J.A.C. 19:31U-1.14(c), by year and measure;
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
    phases: pd.DataFrame | None = field(default=None, repr=False)
    phase_years: pd.DataFrame | None = field(default=None, repr=False)
    rerun_tests: pd.DataFrame | None = field(default=None, repr=False)
    floor: pd.DataFrame | None = field(default=None, repr=False)
    warnings: tuple[str, ...] = ()  # odd rows; the 80 percent floor, N.J.A.C. 19:31U-1.14(c)

    def summary(self) -> str:
        """A short plain-text account of the actual results against the approval."""
        stop = self.actuals.maintained_through_year
        lines = [
            f"{self.scenario.name}: actual results, years 1-{len(self.actuals.totals())}",
            f"  credits certified ${self.certified_credits:,.0f} of ${self.approved_credits:,.0f} approved "
            "for these years (N.J.A.C. 19:31U-1.14)",
        ]
        if self.phases is not None and len(self.phases) > 1:
            for phase, row in self.phases.iterrows():
                lines.append(
                    f"    phase {phase}: certified ${row.certified_credits:,.0f} of ${row.approved_credits:,.0f}; "
                    f"its commitment period of {row.commitment_period_years:g} years from "
                    f"{row.commitment_start:g} years after approval"
                )
        if self.forfeited_years:
            years = ", ".join(str(y) for y in self.forfeited_years)
            lines.append(f"  forfeited for a fall of the statewide workforce in years {years}, 76(a)(1)")
        if self.rerun_flag_years:
            years = ", ".join(str(y) for y in self.rerun_flag_years)
            lines.append(
                f"  new jobs or median salary fell beyond the bound in years {years}: the test may be re-run, 76(a)(2)"
            )
        # Each verdict written from its result's 71(a)(5) record (the deciding test first, phased).
        lines.append(f"  net benefit, projected: {self.projected.headline(2)}")
        lines.append(f"  net benefit, on actual results: {self.actual.headline(2)}")
        if not self.rerun_passes:
            lines.append(f"  the actual results support {self.supported_award_share:.1%} of the approved credits")
        if stop is not None:
            lines.append(f"  maintained through year {stop}: nothing of the business counts in the re-run after it")
        if self.recapture > 0:
            lines.append(
                f"  stopped after year {self.repayment_year - 1}, within the commitment period: recapture "
                f"${self.recapture:,.0f} in year {self.repayment_year} (rule: {self.scenario.commitment.recapture!r}; "
                f"the statute allows none ... all, {RECAPTURE_CLAUSE}, {RECAPTURE_RANGE_NOTE})"
            )
        if self.interest > 0:
            lines.append(f"  interest on the recapture ${self.interest:,.0f} in year {self.repayment_year}")
        if self.repayment > 0:
            lines.append(
                f"  extended commitment: {self.extended_years_maintained} of {self.projected.extended_years} years "
                f"maintained; repayment ${self.repayment:,.0f} in year {self.repayment_year}, 71(a)(5)(d)"
            )
        lines += [f"  warning: {line}" for line in self.warnings]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def to_dict(self) -> dict[str, Any]:
        """The whole follow result as plain data (``netbenefit actuals --json``): the years, each
        phase's certified credits and clawback, the recapture and repayment, the re-run's ratio per
        cumulative test, and the warnings."""
        return _plain(
            {
                "scenario": self.scenario.name,
                "actuals": self.actuals.name,
                "maintained_through_year": self.actuals.maintained_through_year,
                "approved_credits": self.approved_credits,
                "certified_credits": self.certified_credits,
                "forfeited_years": list(self.forfeited_years),
                "rerun_flag_years": list(self.rerun_flag_years),
                "recapture": self.recapture,
                "interest": self.interest,
                "repayment": self.repayment,
                "repayment_year": self.repayment_year,
                "extended_years_maintained": self.extended_years_maintained,
                "projected": {
                    "ratio": self.projected.ratio,
                    "threshold": self.projected.threshold,
                    "passes": self.projected.passes,
                },
                "rerun": {
                    "ratio": self.rerun_ratio,
                    "threshold": self.actual.threshold,
                    "passes": self.rerun_passes,
                    "supported_award_share": self.supported_award_share,
                    "tests": self.rerun_tests.to_dict(orient="records") if self.rerun_tests is not None else [],
                },
                "phases": self.phases.reset_index().to_dict(orient="records") if self.phases is not None else [],
                "years": self.years.reset_index().to_dict(orient="records"),
                "phase_years": (
                    self.phase_years.reset_index().to_dict(orient="records") if self.phase_years is not None else []
                ),
                "warnings": list(self.warnings),
            }
        )


def _plain(value):
    """JSON-ready values: numpy scalars to Python, NaN to None."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | np.ndarray):
        return [_plain(v) for v in value]
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return None if not np.isfinite(value) else float(value)
    return value


@np.errstate(all="ignore")  # an overflowing amount is a non-finite value or an error, not a warning
def follow(scenario: Scenario | str | Path, actuals: Actuals | str | Path) -> AfterApproval:
    """Follow an approved scenario through its actual annual results.

    Parameters
    ----------
    scenario : Scenario, or the path of a scenario file
        The approved application, with any later phases.
    actuals : Actuals, or the path of a YAML file of actual results

    Returns
    -------
    AfterApproval

    Raises
    ------
    ScenarioError
        When either input cannot be read or evaluated, or a row names a phase the scenario lacks.
    """
    source = "actual results" if isinstance(actuals, Actuals) else str(actuals)
    scenario, actuals = read_inputs(scenario, actuals)  # netbenefit.model.actuals
    projected = evaluate(scenario)
    plan = projection(scenario, projected, len(actuals.totals()))
    jobs = phase_jobs(scenario, actuals, plan, source)
    certified = _certification(scenario, actuals, projected, plan, jobs)
    flags = _rerun_flags(scenario, actuals, certified, plan)
    # The test re-run on actual results (a variant scenario, evaluated like any other).
    # The package builds it: what a plausibility check says of it is in actual.warnings, not warned again.
    with quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore", PlausibilityWarning)
        variant = _actual_scenario(scenario, actuals, projected, plan, jobs)
        actual = evaluate(variant)
    supported = 1.0 if actual.passes else min(1.0, actual.max_credit_pv / projected.pv_credits)
    owed = _clawback(scenario, projected, actuals.maintained_through_year, certified, plan)
    floor = floor_table(scenario, plan, certified, flags, actual, projected)
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
        phases=phases_table(certified, owed),
        phase_years=phase_years_table(certified),
        rerun_tests=rerun_tests_table(actual),
        floor=floor,
        warnings=early_jobs_warnings(jobs, plan) + unshared_lines(scenario, actuals) + floor_warnings(floor, projected),
    )


def unshared_lines(scenario: Scenario, actuals: Actuals) -> tuple[str, ...]:
    """What the re-run says where it writes a shared salary out phase by phase (rows naming their
    phases and reporting salaries), one line; none otherwise."""
    items = unshared(scenario, actuals)
    if not items:
        return ()
    words = ", ".join(f"{key_label(scenario, item, short=True)} ({item})" for item in items)
    return (
        f"the rows name their phases and report salaries: the re-run sets each phase's salary from its own "
        f"rows, so {words} is no longer shared in it (shared: {', '.join(items)} at the top level)",
    )
