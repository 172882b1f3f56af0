"""Solvers: the value of an input at which the net positive benefit test just passes.

Each solver returns a :class:`SolverResult`: ``value`` (None when there is no solution),
``status`` (``"solved"`` or ``"no_solution"``), a one-line ``message`` that says what was found
or why nothing was, and ``details``. A solver never returns a number that is not a solution.

- :func:`max_award`: the largest award that passes, in closed form (credits are linear in it);
  several award keys may move together (``keys=[...]``, one common value).
- :func:`break_even_discount_rate`: the rate at which the ratio equals the threshold.
- :func:`min_new_jobs`: the fewest new full-time jobs that meet the job minimum of section
  71(c)(1) and pass the test.
- :func:`implied_discount_rate`: the rate at which level annual credits have a given present
  value (e.g. a published award).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import views
from ..errors import ScenarioError
from ..io import arguments
from ..law import award, finance
from ..law.labels import money_exact
from ..law.parameters import parameter
from ..law.rules import section_75
from ..model.cashflows import Inputs, compute
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
        return views.solver_html(self)

    def __str__(self) -> str:
        return self.message


def _warn_range(low: float, high: float, **where: Any) -> None:
    """A bound of the rates searched, given by hand, outside the discount rate's plausible range
    (``high=6`` for 6%): a PlausibilityWarning with the likely fix. The default bounds are not checked."""
    given = [bound for bound, default in zip((low, high), RATE_RANGE, strict=True) if bound != default]
    warn_entered("discount_rate", given, via="a bound of the rates searched", stacklevel=3, **where)


def _no_solution(message: str, **details: Any) -> SolverResult:
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
        return _no_solution(f"present values are not finite at a discount rate of {scenario.discount_rate!r}")
    base, slope = credits[0], credits[1] - credits[0]
    if not np.allclose(credits[2] - credits[0], 2 * slope, rtol=1e-10, atol=1e-6) or not np.allclose(
        benefits[0], benefits[2], rtol=1e-12
    ):
        return _no_solution(f"the present values are not linear in {key}; no closed form")
    b = benefits[0]
    labels = [f"phases 1..{k + 1}" if k else "the initial phase" for k in range(len(b))]
    bounds = []
    for k in range(len(b)):
        if slope[k] > 0:
            bounds.append(((b[k] / threshold - base[k]) / slope[k], k))  # the test's own index k
        elif not (base[k] > 0 and b[k] >= threshold * base[k]):
            return _no_solution(
                f"the test of {labels[k]} does not depend on {key} and fails "
                f"(PV benefits {money_exact(b[k])}, PV credits {money_exact(base[k])}, threshold {threshold:.2f})",
                threshold=threshold,
            )
    if not bounds:
        return _no_solution(f"{key} does not change the present value of the credits, so it has no largest value")
    best, binding = min(bounds)  # the tightest test, the earliest on a tie
    best = float(best)
    if best <= 0:
        return _no_solution(
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
    # Confirm; the comparison has a relative tolerance, so x* itself passes unless rounding bites.
    tolerance = parameter("net_benefit_ratio_relative_tolerance")
    for candidate in (best, best * (1 - 1e-12), math.nextafter(best * (1 - tolerance), 0)):
        check = compute(scenario, dict.fromkeys(keys, np.array([candidate])))
        if bool(check.column("passes")[0]):
            best = candidate
            break
    else:  # pragma: no cover - closed form and model disagree
        return _no_solution(f"the closed-form {key} {best:,.2f} does not pass when evaluated")
    pv_credits = float(check.column("pv_credits")[0])
    predicted = float(base[binding] + best * slope[binding]) if binding == len(b) - 1 else None
    if predicted is not None and not np.isclose(pv_credits, predicted, rtol=1e-10):
        return _no_solution(
            f"the credits stop growing in step with {key} (a cap per job?) before the test binds: "
            "the closed form does not apply"
        )
    unit = "a job a year" if all("per_" in k for k in keys) else "a year"
    common = "largest common value of " if len(keys) > 1 else "largest "
    held = held_awards(scenario, keys)
    return SolverResult(
        best,
        SOLVED,
        f"{common}{key} that passes: ${best:,.2f} {unit} (PV of credits {money_exact(pv_credits)} = PV benefits "
        f"{money_exact(b[binding])} / threshold {threshold:.2f}, binding test: {labels[binding]})"
        f"{held_text(held)}",
        {
            "held": held,
            "key": key,
            "keys": keys,
            "threshold": threshold,
            "pv_credits": pv_credits,
            "pv_benefits": float(b[-1]),
            "binding_test": binding + 1,
            "current": scenario.value_at(keys[0]) if len(keys) == 1 else [scenario.value_at(k) for k in keys],
        },
    )


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
# The break-even discount rate
# ----------------------------------------------------------------------------------------------


def _margin(scenario: Scenario, rates: np.ndarray) -> np.ndarray:
    """min over cumulative tests of (ratio - threshold); NaN where undefined or not finite."""
    c = compute(scenario, {"discount_rate": rates})
    threshold = np.broadcast_to(c.threshold, (c.size, 1))
    margin = np.min(c.cumulative_ratio - threshold, axis=1)
    columns = result_columns(c)
    margin[columns["note"] > 0] = np.nan
    return margin


class _Undefined(Exception):
    """The function of a root search is undefined (NaN) inside its bracket."""


def _root(function, low: float, high: float, tolerance: float = 1e-12) -> float | None:
    """A root of ``function`` in [low, high], given a sign change (``scipy.optimize.brentq``); None
    where the function is undefined (NaN, an undefined ratio) inside the bracket."""
    from scipy.optimize import brentq

    def guarded(x: float) -> float:
        value = function(x)
        if not math.isfinite(value):
            raise _Undefined
        return value

    try:
        return float(brentq(guarded, low, high, xtol=tolerance * max(1.0, abs(low), abs(high)), maxiter=200))
    except (_Undefined, ValueError, RuntimeError):
        return None


def _irr(scenario: Scenario) -> float | None:
    """numpy-financial's ``npf.irr`` of the yearly counted net benefits less the threshold times the
    credits of a project of one phase (None for a phased project, or when there is no such rate)."""
    import numpy_financial as npf

    c = compute(scenario)
    if len(c.phases) != 1:
        return None
    phase = c.phases[0]
    threshold = float(np.asarray(c.threshold).reshape(-1)[0])
    flows = np.asarray(phase.weight * phase.net_benefits - threshold * phase.credits, dtype=float).reshape(-1)
    with np.errstate(all="ignore"):
        rate = float(npf.irr(np.concatenate([[0.0], flows])))  # year t at t; year 0 has no flow
    return rate if math.isfinite(rate) else None


@arguments.checked(low=arguments.number, high=arguments.number, points=arguments.count(2))  # netbenefit.io.arguments
def break_even_discount_rate(
    scenario: Scenario, low: float = RATE_RANGE[0], high: float = RATE_RANGE[1], points: int = 400
) -> SolverResult:
    """The discount rate at which the net benefit ratio equals the threshold.

    Parameters
    ----------
    scenario : Scenario
    low, high : float
        The range searched, (low, high]. [1/year]
    points : int
        Rates of the first scan; each sign change found is refined with ``scipy.optimize.brentq``
        to 1e-12 (a bracket in which the ratio is undefined gives no root).

    Notes
    -----
    The margin ``min over cumulative tests k of (ratio_k(r) - threshold)`` is scanned on a grid
    of rates in one vectorised run, then the root in each bracket with a sign change is found with
    ``brentq``. For a project of one phase, ``details["irr"]`` is also numpy-financial's ``npf.irr``
    of the yearly counted net benefits less the threshold times the credits (the rate at which
    their present value is zero, where the ratio equals the threshold). Benefits
    usually come later than credits, so the ratio falls as the rate rises and the test passes
    below the break-even rate; the message says which side passes. When the margin has one sign
    over the whole range there is no break-even rate: the test passes at every rate, or fails at
    every rate (the ratio is then on the wrong side of the threshold throughout). With several
    roots, ``value`` is the one nearest the scenario's rate and ``details["roots"]`` lists all.
    """
    if not -1 < low < high:
        raise ValueError(f"need -1 < low < high, got {low}, {high}")
    _warn_range(low, high, scenario=scenario)
    rates = np.linspace(low, high, points + 1)[1:]
    margin = _margin(scenario, rates)
    finite = np.isfinite(margin)
    searched = f"({low:g}, {high:g}]"
    if not finite.any():
        return _no_solution(f"the ratio is undefined at every discount rate in {searched}")
    r, m = rates[finite], margin[finite]
    trend = "falls" if m[-1] < m[0] else "rises"
    details = {"range": (low, high), "margin_at_low": float(m[0]), "margin_at_high": float(m[-1])}
    if np.all(m >= 0):
        return _no_solution(
            f"no break-even rate in {searched}: the test passes at every rate (the ratio {trend} with the rate; "
            f"margin over the threshold {100 * m.min():.2f} percentage points at least)",
            **details,
        )
    if np.all(m < 0):
        return _no_solution(
            f"no break-even rate in {searched}: the test fails at every rate (the ratio {trend} with the rate "
            f"and stays below the threshold, by {-100 * m.max():.2f} percentage points at best)",
            **details,
        )

    def function(rate: float) -> float:
        return float(_margin(scenario, np.array([rate]))[0])

    roots = []
    for i in np.flatnonzero(np.signbit(m[:-1]) != np.signbit(m[1:])):
        root = _root(function, float(r[i]), float(r[i + 1]))
        if root is not None:
            roots.append(root)
    roots = sorted(set(roots))
    if not roots:
        return _no_solution(f"the ratio is undefined where the margin changes sign in {searched}", **details)
    value = min(roots, key=lambda x: abs(x - scenario.discount_rate))
    irr = _irr(scenario)
    if irr is not None:
        details["irr"] = irr
    side = "below" if function(value - 1e-6) >= 0 else "above"
    others = f"; other roots: {', '.join(f'{x:.4%}' for x in roots if x != value)}" if len(roots) > 1 else ""
    return SolverResult(
        value,
        SOLVED,
        f"break-even discount rate {value:.4%}: the test passes at rates just {side} it "
        f"(scenario rate {scenario.discount_rate:.4%}){others}",
        {**details, "roots": roots, "passes_side": side},
    )


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
                {"ratio": float(columns["ratio"][i]), "threshold": float(columns["threshold"][i]),
                 "current": scenario.jobs.new},
            )
    jobs, rule, ratio, threshold = last
    reason = (
        f"at {jobs:,.0f} new jobs the job minimum of 71(c)(1) is still not met"
        if not rule
        else f"at {jobs:,.0f} new jobs the ratio is {ratio:.2%}, below the threshold {threshold:.0%}"
    )
    return _no_solution(f"no count of new jobs up to {max_jobs:,} passes: {reason}", max_jobs=max_jobs)


# ----------------------------------------------------------------------------------------------
# The rate implied by a published present value
# ----------------------------------------------------------------------------------------------


@arguments.checked(years=arguments.count(1), first_year=arguments.count(0), low=arguments.number, high=arguments.number)
def implied_discount_rate(
    annual_credit: float,
    years: int,
    present_value: float,
    *,
    first_year: int = 1,
    timing: str = "end_of_year",
    low: float = RATE_RANGE[0],
    high: float = RATE_RANGE[1],
) -> SolverResult:
    """The discount rate at which level annual credits have a given present value.

    Parameters
    ----------
    annual_credit : float
        Credit paid in each year. [USD/year]
    years : int
        Number of years of credits (the eligibility period). [years]
    present_value : float
        The published present value of the credits. [USD]
    first_year : int
        Project year of the first credit: 1 for credits in years 1..E, 2 for a one-year lag.
    timing : {"end_of_year", "mid_year"}
    low, high : float
        The range searched, (low, high]. [1/year]

    Notes
    -----
    ``PV(r) = annual_credit x sum over t = s..s+E-1 of (1 + r)^-t`` (``t - 0.5`` mid-year) falls
    strictly as r rises, so there is at most one root; it is bracketed by the range and found with
    ``scipy.optimize.brentq`` to 1e-12. With credits from year 1 at the end of each year,
    ``details["npf_rate"]`` is numpy-financial's ``npf.rate`` of the same annuity (the same rate).
    No solution when the present value is outside ``[PV(high), PV(low))``.

    Examples
    --------
    Party City (NJEDA, 2021): $1,428,000 a year for 7 years, PV about $7.4 million.

    >>> round(implied_discount_rate(1_428_000, 7, 7_400_000).value, 3)
    0.081
    >>> round(implied_discount_rate(1_428_000, 7, 7_400_000, first_year=2).value, 3)
    0.064
    """
    for name, number in (("annual_credit", annual_credit), ("present_value", present_value)):
        if not (isinstance(number, int | float) and math.isfinite(number) and number > 0):
            raise ValueError(f"{name} must be a finite number > 0, not {number!r}")
    for name, number in (("years", years), ("first_year", first_year)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValueError(f"{name} must be a whole number >= 1, not {number!r}")
    _warn_range(low, high, source="implied_discount_rate")
    credit_years = np.arange(first_year, first_year + years)

    def pv(rate: float) -> float:
        return float(annual_credit * np.sum(finance.discount_factors(rate, credit_years, timing)))

    pv_low, pv_high = pv(np.nextafter(low, high)), pv(high)
    details = {"range": (low, high), "pv_at_low": pv_low, "pv_at_high": pv_high, "first_year": first_year}
    where = f"credits in years {first_year}..{first_year + years - 1}, {timing.replace('_', ' ')}"
    if not pv_high <= present_value < pv_low:
        return _no_solution(
            f"no discount rate in ({low:g}, {high:g}] gives a PV of {money_exact(present_value)} ({where}): "
            f"the PV runs from {money_exact(pv_high)} to {money_exact(pv_low)}",
            **details,
        )
    rate = _root(lambda r: pv(r) - present_value, float(np.nextafter(low, high)), high)
    if rate is None:  # pragma: no cover - PV is finite and monotone on the bracket
        return _no_solution(f"no discount rate found in ({low:g}, {high:g}]", **details)
    if first_year == 1 and timing == "end_of_year":  # level payments from year 1: numpy-financial's rate
        import numpy_financial as npf

        details["npf_rate"] = float(npf.rate(years, annual_credit, -present_value, 0.0, guess=rate))
    return SolverResult(
        rate,
        SOLVED,
        f"implied discount rate {rate:.4%} ({where}: {money_exact(annual_credit)} a year for {years} years "
        f"has a PV of {money_exact(present_value)})",
        details,
    )
