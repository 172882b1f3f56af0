"""The plain-text account of a follow result (:meth:`netbenefit.model.after_approval.AfterApproval.summary`):
each line from the record or table that holds its figure, a phase's lines tagged with its phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...labels import money_exact
from ...law.rules.clawback import RECAPTURE_CLAUSE, RECAPTURE_RANGE_NOTE
from ...law.rules.reduction import REDUCTION_CLAUSE
from ..scenario import Scenario
from ..scenario.paths import key_label
from .actuals import Actuals
from .rerun_scenario import unshared

if TYPE_CHECKING:
    from .pipeline import AfterApproval


def summary_lines(after: AfterApproval) -> list[str]:
    """The lines of :meth:`AfterApproval.summary`, each from the record or table that holds its figure."""
    stop = after.actuals.maintained_through_year
    phased = after.phases is not None and len(after.phases) > 1
    lines = [
        f"{after.scenario.name}: actual results, years 1-{len(after.actuals.totals())}",
        f"  credits certified {money_exact(after.certified_credits)} of {money_exact(after.approved_credits)} approved "
        "for these years (N.J.A.C. 19:31U-1.14)",
    ]
    if phased:
        for phase, row in after.phases.iterrows():
            line = (
                f"    Phase {phase}: certified {money_exact(row.certified_credits)} of "
                f"{money_exact(row.approved_credits)}; "
                f"its commitment period of {row.commitment_period_years:g} years from "
                f"{row.commitment_start:g} years after approval"
            )
            if stop is not None and row.get("phase_years_maintained", 1) == 0:
                line += f"; not started by the stop (after year {stop}): no job and no credit in the re-run"
            lines.append(line)
    if after.forfeited_years:
        years = ", ".join(str(y) for y in after.forfeited_years)
        lines.append(f"  forfeited for a fall of the statewide workforce in years {years}, 76(a)(1)")
    if after.rerun_flag_years:
        years = ", ".join(str(y) for y in after.rerun_flag_years)
        each = after.scenario.readings.rerun_comparison == "each_phase"
        how = " (each phase against its own reports)" if each else ""
        lines.append(
            f"  new jobs or median salary fell beyond the bound in years {years}{how}: the test may be re-run, 76(a)(2)"
        )
    # Each verdict written from its result's 71(a)(5) record (the deciding test first, phased).
    lines.append(f"  net benefit, projected: {after.projected.headline(2)}")
    lines.append(f"  net benefit, on actual results (approved credits): {after.actual.headline(2)}")
    if not after.rerun_passes:
        lines.append(f"  the actual results support {after.supported_award_share:.1%} of the approved credits")
    lines += _credits_lines(after)
    if stop is not None:
        lines.append(f"  maintained through year {stop}: nothing of the business counts in the re-run after it")
    if after.recapture > 0:
        lines.append(
            f"  stopped after year {stop}, within the commitment period: recapture "
            f"{money_exact(after.recapture)} in year {after.repayment_year} "
            f"(rule: {after.scenario.commitment.recapture!r}; "
            f"the statute allows none ... all, {RECAPTURE_CLAUSE}, {RECAPTURE_RANGE_NOTE})"
        )
    if after.reduction_recapture > 0:
        lines.append(
            f"  recapture on a significant reduction of jobs or salaries {money_exact(after.reduction_recapture)} "
            f"in year {after.repayment_year} ({REDUCTION_CLAUSE}; readings.reduction_recapture: pro_rata, a convention)"
        )
    if after.interest > 0:
        lines.append(f"  interest on the recapture {money_exact(after.interest)} in year {after.repayment_year}")
    if after.repayment > 0:
        lines.append(
            f"  extended commitment: {after.extended_years_maintained} of {after.projected.extended_years} years "
            f"maintained; repayment {money_exact(after.repayment)} in year {after.repayment_year}, 71(a)(5)(d)"
        )
    lines += [f"  warning: {line}" for line in after.warnings]
    return lines


def _credits_lines(after: AfterApproval) -> list[str]:
    """The credits actually received, beside the approved, and the ratio on them (no verdict)."""
    credits = after.credits
    if credits is None:
        return []
    lines = [
        f"  credits received {money_exact(credits.received)}, less recapture and repayment: {money_exact(credits.net)} "
        f"(approved for these years {money_exact(after.approved_credits)})"
    ]
    if credits.note:
        lines.append(f"  ratio on the credits received: none ({credits.note})")
    else:
        lines.append(
            "  not a statutory test: PV of the actual-results benefits / PV of the credits received less recapture "
            f"and repayment (whole project, each discounted in its year) {credits.ratio:.2%}, beside the re-run's "
            f"ratio on the approved credits above"
        )
    return lines


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
