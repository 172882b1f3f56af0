"""Solvers: the value of an input at which the net positive benefit test just passes.

Each solver returns a :class:`SolverResult`: ``value`` (None when there is no solution),
``status`` (``"solved"`` or ``"no_solution"``), a one-line ``message`` that says what was found
or why nothing was, and ``details``. A solver never returns a number that is not a solution.

- :func:`max_award`: the largest award that passes, in closed form (credits are linear in it);
  several award keys may move together (``keys=[...]``, one common value).
- :func:`min_new_jobs`: the fewest new full-time jobs that meet the job minimum of section
  71(c)(1) and pass the test.

The solvers of a discount rate (:func:`~netbenefit.analysis.rates.break_even_discount_rate`,
:func:`~netbenefit.analysis.rates.implied_discount_rate`) are in :mod:`netbenefit.analysis.rates`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ScenarioError
from ..io import arguments
from ..labels import money_exact
from ..law import award
from ..law.parameters import parameter
from ..law.rules import section_75
from ..model.cashflows import Computation, Inputs, compute
from ..model.plausibility import warn_entered
from ..model.scenario import Scenario
from .columns import result_columns
from .keys import check_values

SOLVED, NO_SOLUTION = "solved", "no_solution"
#: The discount rates searched by default, (low, high]. [1/year]
RATE_RANGE = (-0.99, 1.0)
_AWARD_KEY = re.compile(
    r"^(phases\.\d+\.)?award\.(annual_credit|per_new_job|per_retained_job|section_75\.bonuses\.\d+\.per_job)$"
)


@dataclass(frozen=True)
class SolverResult:
    """The answer of a solver.

    Attributes
    ----------
    value : float or None
        The solution, in the unit of the input solved for; None when there is none.
    status : {"solved", "no_solution"}
    message : str
        One line: the solution and what it means, or why there is none.
    details : dict
        Supporting numbers (present values, ratios, the range searched, other roots).
    """

    value: float | None
    status: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: :func:`netbenefit.views.notebook.solver_html`."""
        from ..views.notebook import solver_html

        return solver_html(self)

    def __str__(self) -> str:
        return self.message


def warn_range(low: float, high: float, **where: Any) -> None:
    """A bound of the rates searched, given by hand, outside the discount rate's plausible range
    (``high=6`` for 6%): a PlausibilityWarning with the likely fix. The default bounds are not checked."""
    given = [bound for bound, default in zip((low, high), RATE_RANGE, strict=True) if bound != default]
    warn_entered("discount_rate", given, via="a bound of the rates searched", stacklevel=3, **where)


def no_solution(message: str, **details: Any) -> SolverResult:
    return SolverResult(None, NO_SOLUTION, message, details)


# ----------------------------------------------------------------------------------------------
# The largest award
# ----------------------------------------------------------------------------------------------


def max_award(scenario: Scenario, key: str | None = None, *, keys: Sequence[str] | None = None) -> SolverResult:
    """The largest award at ``key`` (or the largest common value of ``keys``) with which every
    cumulative net benefit test passes.

    Parameters
    ----------
    scenario : Scenario
    key : str, optional
        ``award.annual_credit`` [USD/year] or ``award.per_new_job`` [USD/job/year] (or
        ``award.per_retained_job``, a section 75 bonus ``award.section_75.bonuses.0.per_job``, or the
        same keys of a later phase, ``phases.0.award...``).
        Default: the initial phase's ``annual_credit`` if the scenario gives one, else its
        ``per_new_job``.
    keys : sequence of str, optional
        Several award keys that move together, set to one common value ("which common award per
        job, in every phase, passes?": ``["award.per_new_job", "phases.0.award.per_new_job"]``).
        Give ``key`` or ``keys``, not both.

    Notes
    -----
    The benefits do not depend on the award (they are counted before the credit, 71(a)(5)),
    and the present value of the credits of cumulative test k is affine in the award x:
    ``K_k(x) = K_k(0) + x * d_k``, with ``d_k`` the present value of the credits per unit of x
    (for a per-job award, the jobs times the discount factors of the credit years). Test k passes
    when ``B_k >= T * K_k(x)``, so the largest award is, in closed form,
    ``x* = min over k with d_k > 0 of (B_k / T - K_k(0)) / d_k``. The solver measures ``K(0)``,
    ``d`` and ``B`` with three runs of the model (x = 0, 1, 2), checks linearity, and confirms
    that x* passes. There is no solution when x* < 0, when a test that does not depend on x fails,
    or when the award does not change the credits (e.g. per-retained-job when the retained jobs
    do not count).
    """
    keys = _award_keys(scenario, key, keys)
    key = " + ".join(keys)  # the name of the common value in messages
    probe = np.arange(3, dtype=float)  # x = 0, 1, 2
    c = compute(scenario, {k: check_values(scenario, k, probe) for k in keys})
    benefits = np.broadcast_to(c.cumulative_pv_benefits, (3, c.cumulative_pv_benefits.shape[1]))
    credits = np.broadcast_to(c.cumulative_pv_credits, benefits.shape)
    threshold = float(c.column("threshold")[0])
    if not (np.all(np.isfinite(benefits)) and np.all(np.isfinite(credits))):
        return no_solution(f"present values are not finite at a discount rate of {scenario.discount_rate!r}")
    base, slope = credits[0], credits[1] - credits[0]
    if not np.allclose(credits[2] - credits[0], 2 * slope, rtol=1e-10, atol=1e-6) or not np.allclose(
        benefits[0], benefits[2], rtol=1e-12
    ):
        return no_solution(f"the present values are not linear in {key}; no closed form")
    b = benefits[0]
    labels = [f"phases 1..{k + 1}" if k else "the initial phase" for k in range(len(b))]
    bounds = _bounds(b, base, slope, threshold, labels, key)
    if isinstance(bounds, SolverResult):
        return bounds
    if not bounds:
        return no_solution(f"{key} does not change the present value of the credits, so it has no largest value")
    best, binding = min(bounds)  # the tightest test, the earliest on a tie
    best = float(best)
    if best <= 0:
        return no_solution(
            f"no positive {key} passes: the test of {labels[binding]} fails even at 0 "
            f"(PV benefits {money_exact(b[binding])} / threshold {threshold:.2f} is below the other credits' PV "
            f"{money_exact(base[binding])})",
            threshold=threshold,
            bound=best,
        )
    retained_eligible = bool(c.column("retained_jobs_eligible")[0])
    capped = _capped_by_section_75(scenario, keys, key, retained_eligible, best, threshold, labels[binding], binding)
    if capped is not None:
        return capped
    confirmed = _confirmed(scenario, keys, key, best, float(base[binding]), float(slope[binding]), binding)
    if isinstance(confirmed, SolverResult):
        return confirmed
    best, check = confirmed
    pv_credits = float(check.column("pv_credits")[0])
    binding_credits = float(check.cumulative_pv_credits[0, binding])  # the binding test's own credits
    unit = "a job a year" if all("per_" in k for k in keys) else "a year"
    common = "largest common value of " if len(keys) > 1 else "largest "
    held = held_awards(scenario, keys)
    return SolverResult(
        best,
        SOLVED,
        f"{common}{key} that passes: ${best:,.2f} {unit} (binding test: {labels[binding]}; its PV of credits "
        f"{money_exact(binding_credits)} = its PV of benefits {money_exact(b[binding])} / threshold {threshold:.2f})"
        f"{held_text(held)}",
        {
            "held": held,
            "key": key,
            "keys": keys,
            "threshold": threshold,
            "pv_credits": pv_credits,
            "pv_benefits": float(b[-1]),
            "binding_test": binding + 1,
            "binding_pv_credits": binding_credits,
            "binding_pv_benefits": float(b[binding]),
            "current": scenario.value_at(keys[0]) if len(keys) == 1 else [scenario.value_at(k) for k in keys],
        },
    )


def _bounds(
    b: np.ndarray, base: np.ndarray, slope: np.ndarray, threshold: float, labels: list[str], key: str
) -> list[tuple[float, int]] | SolverResult:
    """``(the largest value at which test k passes, k)`` of each cumulative test whose credits grow
    with the value; no solution where a test that does not depend on it fails."""
    bounds = []
    for k in range(len(b)):
        if slope[k] > 0:
            bounds.append(((b[k] / threshold - base[k]) / slope[k], k))  # the test's own index k
        elif not (base[k] > 0 and b[k] >= threshold * base[k]):
            return no_solution(
                f"the test of {labels[k]} does not depend on {key} and fails "
                f"(PV benefits {money_exact(b[k])}, PV credits {money_exact(base[k])}, threshold {threshold:.2f})",
                threshold=threshold,
            )
    return bounds


def _confirmed(
    scenario: Scenario, keys: list[str], key: str, best: float, base: float, slope: float, binding: int
) -> tuple[float, Computation] | SolverResult:
    """The closed form's ``best`` evaluated: the value that passes and its computation, or no
    solution where the model and the closed form disagree. The comparison has a relative
    tolerance, so ``best`` itself passes unless rounding bites; the binding test's credits must
    still be ``base + best * slope`` (a cap per job would stop them)."""
    tolerance = parameter("net_benefit_ratio_relative_tolerance")
    for candidate in (best, best * (1 - 1e-12), math.nextafter(best * (1 - tolerance), 0)):
        check = compute(scenario, dict.fromkeys(keys, np.array([candidate])))
        if bool(check.column("passes")[0]):
            break
    else:  # pragma: no cover - closed form and model disagree
        return no_solution(f"the closed-form {key} {best:,.2f} does not pass when evaluated")
    binding_credits = float(check.cumulative_pv_credits[0, binding])  # the binding test's own credits
    if not np.isclose(binding_credits, base + candidate * slope, rtol=1e-10):
        return no_solution(
            f"the credits stop growing in step with {key} (a cap per job?) before the test binds: "
            "the closed form does not apply"
        )
    return candidate, check


def _capped_by_section_75(
    scenario: Scenario,
    keys: list[str],
    key: str,
    retained_eligible: bool,
    best: float,
    threshold: float,
    binding_label: str,
    binding: int,
) -> SolverResult | None:
    """The solution where the section 75 maximum binds before the net benefit test does (the
    largest award the section allows passes: its credits are below those of ``best``), else None."""
    capped_by_key = [bound for k in keys if (bound := _section_75_bound(scenario, k, retained_eligible)) is not None]
    capped = min(capped_by_key) if capped_by_key else None  # a common value: the tightest maximum binds
    if capped is None or best <= capped[0]:
        return None
    bound, maximum = capped
    unit = "a job a year" if "per_" in key else "a year"
    common = "largest common value of " if len(keys) > 1 else "largest "
    held = held_awards(scenario, keys)
    return SolverResult(
        bound,
        SOLVED,
        f"{common}{key}: ${bound:,.2f} {unit}, set by the section 75 maximum of {money_exact(maximum)} per job "
        f"per year (C.34:1B-343); the net benefit test alone would allow ${best:,.2f} "
        f"(binding test: {binding_label}){held_text(held)}",
        {
            "held": held,
            "key": key,
            "keys": keys,
            "threshold": threshold,
            "section_75_maximum_binds": True,
            "section_75_maximum_per_job": maximum,
            "net_benefit_bound": best,
            "binding_test": binding + 1,
            "current": scenario.value_at(keys[0]) if len(keys) == 1 else [scenario.value_at(k) for k in keys],
        },
    )


def held_awards(scenario: Scenario, keys: Sequence[str]) -> list[dict[str, Any]]:
    """The awards :func:`max_award` holds at the scenario's values: each phase none of whose award
    keys is among ``keys``, as ``{"phase", "keys", "values"}`` (phase 1 the initial phase)."""
    held = []
    blocks = [("", scenario.award)] + [(f"phases.{i}.", phase.award) for i, phase in enumerate(scenario.phases)]
    for number, (prefix, block) in enumerate(blocks, 1):
        names = ["annual_credit", "per_new_job", "per_retained_job", "section_75"]
        given = [f"{prefix}award.{name}" for name in names if getattr(block, name) is not None]
        if any(k.startswith(prefix + "award.") and (prefix or not k.startswith("phases.")) for k in keys):
            continue
        values = [None if k.endswith("section_75") else scenario.value_at(k) for k in given]
        held.append({"phase": number, "keys": given, "values": values})
    return held


def held_text(held: list[dict[str, Any]]) -> str:
    """``"; held: phase 2's award stays (phases.0.award.annual_credit $540,000)"``, or ``""``."""
    if not held:
        return ""
    parts = []
    for item in held:
        shown = ", ".join(
            key if value is None else f"{key} {money_exact(value)}"
            for key, value in zip(item["keys"], item["values"], strict=True)
        )
        parts.append(f"phase {item['phase']}'s award stays ({shown})")
    return "; held: " + "; ".join(parts)


def _section_75_bound(scenario: Scenario, key: str, retained_eligible: bool) -> tuple[float, float] | None:
    """The largest value of an award key the section 75 maximum allows (:mod:`netbenefit.law.rules.section_75`),
    and that maximum per job; None where the key is not bounded by it."""
    prefix = key[: key.index("award.")]
    inputs = Inputs(scenario)
    maximum = float(
        section_75.maximum_per_job(
            section_75.labor_harmony_applies(inputs, prefix),
            inputs.optional_number(prefix + "award.section_75.cap_per_job"),
        ).reshape(-1)[0]
    )
    name = key[len(prefix) + len("award.") :]
    if name == "annual_credit":
        jobs = section_75.credit_eligible_jobs(
            inputs.number(prefix + "jobs.new"), inputs.number(prefix + "jobs.retained"), retained_eligible
        )
        return float(maximum * jobs.reshape(-1)[0]), maximum
    if name == "per_new_job":
        return maximum, maximum
    if name == "per_retained_job":
        return maximum * float(parameter("award_retained_job_share_of_new_job")), maximum
    per_job = award.scenario_credit_per_job(inputs, prefix)  # a bonus: up to the cap on base + bonuses
    others = float((per_job.uncapped - inputs.number(key)).reshape(-1)[0])
    return max(0.0, float(per_job.cap.reshape(-1)[0]) - others), maximum


def _award_keys(scenario: Scenario, key: str | None, keys: Sequence[str] | None) -> list[str]:
    """The award keys a solver moves: ``key``, ``keys``, or the scenario's default award key."""
    if key is not None and keys is not None:
        raise ScenarioError(scenario.source, key, "give key or keys, not both")
    if keys is not None:
        if isinstance(keys, str) or not keys:
            raise ScenarioError(scenario.source, str(keys), "keys must be a non-empty list of award keys")
        keys = list(dict.fromkeys(keys))
    elif key is not None:
        keys = [key]
    elif scenario.award.annual_credit is not None:
        keys = ["award.annual_credit"]
    elif scenario.award.per_new_job is not None:
        keys = ["award.per_new_job"]
    else:
        raise ScenarioError(
            scenario.source,
            "award",
            "the award is built by the section 75 calculator: give the key to solve for, "
            "e.g. award.section_75.bonuses.0.per_job",
        )
    for name in keys:
        if not isinstance(name, str) or not _AWARD_KEY.match(name):
            raise ScenarioError(
                scenario.source,
                str(name),
                "max_award solves for an award key: award.annual_credit, award.per_new_job, "
                "award.per_retained_job or award.section_75.bonuses.N.per_job (of the initial phase or phases.N)",
            )
    return keys


# ----------------------------------------------------------------------------------------------
# The fewest new jobs
# ----------------------------------------------------------------------------------------------


@arguments.checked(max_jobs=arguments.count(1), chunk_size=arguments.count(1))  # netbenefit.io.arguments
def min_new_jobs(scenario: Scenario, max_jobs: int = 100_000, chunk_size: int = 20_000) -> SolverResult:
    """The smallest whole number of new full-time jobs (``jobs.new``) that meets the job minimum
    of section 71(c)(1) (check ``71(a)(2)``) and passes the net positive benefit test.

    Parameters
    ----------
    scenario : Scenario
    max_jobs : int
        Largest count searched. [jobs]
    chunk_size : int
        Counts evaluated at once (0, 1, 2, ... in one vectorised run per chunk).

    Notes
    -----
    More jobs do not always help: with a per-job award the credits grow with the jobs too, and
    reaching a retained-jobs clause changes the credits. The solver therefore scans every whole
    count in order rather than assuming monotonicity, and reports the first that passes both.
    Other checks (attestations, 71(d), ...) are not part of this answer.
    """
    last = None
    for start in range(0, max_jobs + 1, chunk_size):
        counts = np.arange(start, min(max_jobs, start + chunk_size - 1) + 1, dtype=float)
        counts = check_values(scenario, "jobs.new", counts)
        c = compute(scenario, {"jobs.new": counts})
        columns = result_columns(c)
        job_rule = np.broadcast_to(c.checks["71(a)(2)"], (c.size, 1))[:, 0]
        ok = job_rule & columns["passes"]
        last = (counts[-1], bool(job_rule[-1]), float(columns["ratio"][-1]), float(columns["threshold"][-1]))
        if ok.any():
            i = int(np.argmax(ok))
            jobs = float(counts[i])
            return SolverResult(
                jobs,
                SOLVED,
                f"fewest new full-time jobs that meet 71(c)(1) and pass the test: {jobs:,.0f} "
                f"(ratio {columns['ratio'][i]:.2%} vs threshold {columns['threshold'][i]:.0%})",
                {
                    "ratio": float(columns["ratio"][i]),
                    "threshold": float(columns["threshold"][i]),
                    "current": scenario.jobs.new,
                },
            )
    jobs, rule, ratio, threshold = last
    reason = (
        f"at {jobs:,.0f} new jobs the job minimum of 71(c)(1) is still not met"
        if not rule
        else f"at {jobs:,.0f} new jobs the ratio is {ratio:.2%}, below the threshold {threshold:.0%}"
    )
    return no_solution(f"no count of new jobs up to {max_jobs:,} passes: {reason}", max_jobs=max_jobs)
