"""Life after approval, its pipeline (:func:`follow`, :class:`AfterApproval`): annual certification,
forfeiture, re-run of the test on actual results.

After an Emerge award is approved, the authority certifies the credit each year against what the
business actually did. Section 76 of P.L.2020, c.156 (C.34:1B-344), subsections (a)(1) and (a)(2),
read in a stored public copy [statute], and the authority's Emerge Program rules, N.J.A.C.
19:31U-1.14 ((a), (b) and the opening of (c) read [rule]) and 19:31U-1.4(c) [secondary]:

- the credit is certified in proportion to the full-time jobs actually in place, never more than
  the approved amount of the year (as summarized by the authority) [secondary]; where the
  business has new and retained jobs, the jobs in place meet the approved retained jobs first and
  every job beyond them counts as new, whatever the file calls it (N.J.A.C. 19:31U-1.4(c)) [secondary];
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
  (parameter ``net_benefit_rerun_small_business_excepted``). A slow decline (under 10% a year)
  never triggers it; the 80 percent floor below is what catches it;
- where a year's withholdings, full-time jobs or their salaries drop below 80 percent of those the
  project agreement specifies (its approved figures at full ramp, ``readings.floor_basis``),
  N.J.A.C. 19:31U-1.14(c) begins [rule, opening read]; its consequence is not read, so
  :func:`follow` warns (``AfterApproval.warnings``) and changes nothing;
- where a phase's jobs or salaries fall below 80 percent of what it certified in its first credit
  year, C.34:1B-341(a)(4) lets the agreement recapture while the business stays ("significantly
  reduces ...") [statute]; :func:`follow` names it per measure, and recaptures on it only under
  ``readings.reduction_recapture: pro_rata`` [convention] (:mod:`netbenefit.model.after_approval.reduction`).
  76(b)-(f) and 19:31U-1.14(d)-(f) are not read.

To these this module adds the clawback of :mod:`netbenefit.law.rules.clawback` in the year the
project stops: recapture within the commitment period and the repayment of the incremental
credit of an extended commitment, 71(a)(5)(d), both on the credits actually certified, each phase
on its own clock; the net benefit test re-run on the actual results instead of the projections
(a variant scenario, :func:`netbenefit.model.after_approval.rerun_scenario.actual_scenario`, evaluated like any other);
and beside it the credits actually received less recapture and repayment, with the ratio on them
(labelled, no verdict: :class:`CreditsReceived`).

A phased project is followed phase by phase: the file's project totals are allocated to the
phases (:func:`netbenefit.law.rules.certification.allocate_to_phases`), or its rows name their
phases; each phase is certified on its own award and clawed back on its own clock; the 76(a)
tests read the project as a whole (76(a)(2) phase by phase under ``readings.rerun_comparison:
each_phase``); one stop (``maintained_through_year``) ends every phase, and a later phase the
business left before has no job and no credit in the re-run.

The actual results are read by :mod:`netbenefit.model.after_approval.actuals` (:class:`Actuals`,
:func:`load_actuals`); the steps are :mod:`netbenefit.model.after_approval.annual_certification`
(the clawback :mod:`netbenefit.model.after_approval.recapture`, the floor
:mod:`netbenefit.model.after_approval.floor`, a reduction :mod:`netbenefit.model.after_approval.reduction`),
the tables :mod:`netbenefit.model.after_approval.tables`; every name is importable from
:mod:`netbenefit.model.after_approval`.

Every bound comes from the cited parameters file ``after_approval.yaml``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..evaluate import evaluate
from ..plausibility import PlausibilityWarning, quiet
from ..result import Result
from ..scenario import Scenario
from .actuals import (
    Actuals,
    read_inputs,
)
from .annual_certification import (
    Certification,
    early_jobs_warnings,
    phase_jobs,
    projection,
)
from .annual_certification import certification as _certification
from .annual_certification import rerun_flags as _rerun_flags
from .floor import floor_table, floor_warnings
from .recapture import Clawback, CreditsReceived, credits_received
from .recapture import clawback as _clawback
from .reduction import reduction_table, reduction_warnings, unserved_years
from .rerun_scenario import actual_scenario as _actual_scenario
from .summary import summary_lines, unshared_lines
from .tables import (
    comparison_table,
    phase_years_table,
    phases_table,
    rerun_tests_table,
    shown,
    years_table,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .annual_certification import PhaseJobs, Projection, RerunFlags

# ----------------------------------------------------------------------------------------------
# The steps, with the signatures they had before (a scenario, its actual results and its projection)
# ----------------------------------------------------------------------------------------------


def _plan(scenario: Scenario, actuals: Actuals, projected: Result) -> tuple[Projection, PhaseJobs]:
    plan = projection(scenario, projected, len(actuals.totals()))
    return plan, phase_jobs(scenario, actuals, plan)


def actual_scenario(scenario: Scenario, actuals: Actuals, projected: Result) -> Scenario:
    """The scenario of the test re-run on actual results (:mod:`netbenefit.model.after_approval.rerun_scenario`)."""
    return _actual_scenario(scenario, actuals, projected, *_plan(scenario, actuals, projected))


def certification(scenario: Scenario, actuals: Actuals, projected: Result) -> Certification:
    """Annual certification and forfeiture
    (:func:`netbenefit.model.after_approval.annual_certification.certification`)."""
    return _certification(scenario, actuals, projected, *_plan(scenario, actuals, projected))


def rerun_flags(
    scenario: Scenario, actuals: Actuals, certified: Certification, projected: Result | None = None
) -> RerunFlags:
    """The re-run flag of 76(a)(2) (:func:`netbenefit.model.after_approval.annual_certification.rerun_flags`)."""
    projected = evaluate(scenario) if projected is None else projected
    return _rerun_flags(scenario, actuals, certified, projection(scenario, projected, len(actuals.totals())))


def clawback(scenario: Scenario, projected: Result, stop: int | None, certified: Certification | ArrayLike) -> Clawback:
    """The clawback in the year the project stops (:func:`netbenefit.model.after_approval.recapture.clawback`);
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
      falls, the flags, in a flagged year the ratio of the test re-run on actual results, and the
      clawback in the year it is owed;
    - ``phases``: one row per phase: credits approved, certified and forfeited, the years of its own
      clock maintained, its clock, what it owes and the credits it received less clawback;
    - ``phase_years``: one row per phase and reported year;
    - ``comparison``: the net benefit test on the projections and re-run on actual results, and
      beside the re-run the ratio on the credits actually received (labelled: no statutory test);
    - ``rerun_tests``: the re-run, one row per cumulative test (initial phase, then 1..k);
    - ``floor``: the 80 percent floor of N.J.A.C. 19:31U-1.14(c), by year, each measure's columns;
    - ``reduction``: a reduction under C.34:1B-341(a)(4), by phase and year from its first credit year;
    - ``projected`` and ``actual``: the two :class:`~netbenefit.Result` objects.

    Every table keeps its numbers as numbers and shows them by unit (money, percents) in a notebook
    and through ``to_text()`` on the command line (:class:`netbenefit.model.tables.ResultTable`).
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
    rerun_ratio: float  # the re-run Result's ratio (its deciding test's, where the result says so)
    rerun_passes: bool
    supported_award_share: float  # share of the approved credits the re-run supports (1 = all)
    extended_years_maintained: int | None
    repayment: float  # [USD] of the incremental credit of an extended commitment
    repayment_year: int | None  # the year after the project stopped (or its last report), when anything is owed
    recapture: float = 0.0  # [USD] credits recaptured for leaving within the commitment period
    interest: float = 0.0  # [USD] on the recapture (commitment.recapture_interest)
    phases: pd.DataFrame | None = field(default=None, repr=False)
    phase_years: pd.DataFrame | None = field(default=None, repr=False)
    rerun_tests: pd.DataFrame | None = field(default=None, repr=False)
    floor: pd.DataFrame | None = field(default=None, repr=False)
    warnings: tuple[str, ...] = ()  # odd rows; the 80 percent floor, N.J.A.C. 19:31U-1.14(c); a reduction
    #: [USD] recaptured on a significant reduction, C.34:1B-341(a)(4) (``readings.reduction_recapture``)
    reduction_recapture: float = 0.0
    reduction: pd.DataFrame | None = field(default=None, repr=False)
    #: The credits actually received less the clawback, and the ratio on them (no verdict).
    credits: CreditsReceived | None = field(default=None, repr=False)

    @property
    def net_credits_received(self) -> float:
        """The credits received (certified in the reported years) less the recapture (a stop's and a
        reduction's) and the repayment. [USD]"""
        return self.credits.net if self.credits is not None else float("nan")

    @property
    def ratio_on_credits_received(self) -> float:
        """PV of the actual-results benefits (the re-run's, whole project) / PV of the credits actually
        received less recapture and repayment, each discounted in the year it falls: not a statutory
        test, no verdict; NaN where the credits are not all known (``credits.note``)."""
        return self.credits.ratio if self.credits is not None else float("nan")

    def summary(self) -> str:
        """A short plain-text account of the actual results against the approval."""
        return "\n".join(summary_lines(self))

    def __str__(self) -> str:
        return self.summary()

    def to_dict(self) -> dict[str, Any]:
        """The whole follow result as plain data (``netbenefit actuals --json``): the years, each
        phase's certified credits and clawback, the recapture and repayment, the credits received, the
        re-run's ratio per cumulative test, the floor, a reduction, and the warnings."""
        credits = self.credits
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
                "reduction_recapture": self.reduction_recapture,
                "interest": self.interest,
                "repayment": self.repayment,
                "repayment_year": self.repayment_year,
                "extended_years_maintained": self.extended_years_maintained,
                "credits_received": {
                    "received": credits.received if credits else None,
                    "net_of_recapture_and_repayment": credits.net if credits else None,
                    "pv_net": credits.pv if credits else None,
                    "ratio_on_credits_received": credits.ratio if credits else None,
                    "note": credits.note if credits else "",
                },
                "projected": {
                    "ratio": self.projected.ratio,
                    "threshold": self.projected.threshold,
                    "passes": self.projected.passes,
                },
                "rerun": {
                    "ratio": self.rerun_ratio,
                    "deciding_test": self.actual.deciding_test.what,
                    "threshold": self.actual.threshold,
                    "passes": self.rerun_passes,
                    "supported_award_share": self.supported_award_share,
                    "tests": self.rerun_tests.to_dict(orient="records") if self.rerun_tests is not None else [],
                },
                "phases": _records(self.phases),
                "years": _records(self.years),
                "phase_years": _records(self.phase_years),
                "floor": _records(self.floor),
                "reduction": _records(self.reduction),
                "warnings": list(self.warnings),
            }
        )


def _records(table: pd.DataFrame | None) -> list[dict[str, Any]]:
    """A table's rows with its index as columns; [] without a table."""
    return [] if table is None else pd.DataFrame(table).reset_index().to_dict(orient="records")


def _plain(value: Any) -> Any:
    """JSON-ready values: numpy scalars to Python, NaN to None."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | np.ndarray):
        return [_plain(v) for v in value]
    if value is pd.NA:
        return None
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
    scenario, actuals = read_inputs(scenario, actuals)  # netbenefit.model.after_approval.actuals
    projected = evaluate(scenario)
    stop = actuals.maintained_through_year
    plan = projection(scenario, projected, len(actuals.totals()))
    jobs = phase_jobs(scenario, actuals, plan, source)
    certified = _certification(scenario, actuals, projected, plan, jobs)
    flags = _rerun_flags(scenario, actuals, certified, plan, jobs)
    # The test re-run on actual results (a variant scenario, evaluated like any other).
    # The package builds it: what a plausibility check says of it is in actual.warnings, not warned again.
    with quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore", PlausibilityWarning)
        variant = _actual_scenario(scenario, actuals, projected, plan, jobs)
        actual = evaluate(variant)
    supported = 1.0 if actual.passes else min(1.0, actual.max_credit_pv / projected.pv_credits)
    reduction = reduction_table(scenario, projected, plan, jobs, stop)
    owed = _clawback(scenario, projected, stop, certified, plan, unserved_years(reduction, plan.start.size))
    received = credits_received(scenario, plan, certified, owed, stop, actual)
    floor = floor_table(scenario, plan, certified, flags, actual, projected)
    reported_approved = float(certified.approved.sum())
    phased = len(scenario.phases) > 0
    notes = (
        early_jobs_warnings(jobs, plan)
        + unshared_lines(scenario, actuals)
        + reduction_warnings(reduction, phased, owed.reduction, scenario.readings.reduction_recapture)
        + floor_warnings(floor, projected)
    )
    return AfterApproval(
        scenario=scenario,
        actuals=actuals,
        projected=projected,
        actual=actual,
        actual_scenario=variant,
        years=years_table(actuals, certified, flags, actual, owed),
        comparison=comparison_table(projected, actual, received),
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
        phases=phases_table(certified, owed, plan, stop),
        phase_years=phase_years_table(certified, flags, jobs),
        rerun_tests=rerun_tests_table(actual),
        floor=shown(floor),
        warnings=notes,
        reduction_recapture=owed.reduction,
        reduction=shown(reduction),
        credits=received,
    )
