"""Solvers of a discount rate: the rate at which the net positive benefit test just passes
(:func:`break_even_discount_rate`), and the rate at which level annual credits have a given present
value (:func:`implied_discount_rate`, e.g. a published award). Each returns a
:class:`~netbenefit.analysis.solvers.SolverResult`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..io import arguments
from ..labels import money_exact
from ..law import finance
from ..model.cashflows import compute
from ..model.scenario import Scenario
from .columns import result_columns
from .solvers import RATE_RANGE, SOLVED, SolverResult, no_solution, warn_range

# ----------------------------------------------------------------------------------------------
# The break-even discount rate
# ----------------------------------------------------------------------------------------------


def _margin(scenario: Scenario, rates: np.ndarray) -> np.ndarray:
    """The margin of the test that decides 71(a)(5) (its ratio less the threshold) at each rate; NaN
    where the ratio is undefined or not finite."""
    c = compute(scenario, {"discount_rate": rates})
    columns = result_columns(c)
    return columns["ratio"] - columns["threshold"]  # NaN where a note flags the ratio


class _Undefined(Exception):
    """The function of a root search is undefined (NaN) inside its bracket."""


def _root(function: Callable[[float], float], low: float, high: float, tolerance: float = 1e-12) -> float | None:
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


def _trend(margin: np.ndarray) -> str:
    """How the margin (the lowest test's ratio less the threshold) moves over the rates tried, in
    words true of the scan: it falls or rises only where it does so at every step."""
    steps = np.diff(margin)
    if np.all(steps <= 0):
        return "the ratio falls as the rate rises"
    if np.all(steps >= 0):
        return "the ratio rises with the rate"
    return "the ratio rises and falls with the rate"


@arguments.checked(low=arguments.number, high=arguments.number, points=arguments.count(2))  # io.arguments
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
    warn_range(low, high, scenario=scenario)
    rates = np.linspace(low, high, points + 1)[1:]
    margin = _margin(scenario, rates)
    finite = np.isfinite(margin)
    searched = f"({low:g}, {high:g}]"
    if not finite.any():
        return no_solution(f"the ratio is undefined at every discount rate in {searched}")
    r, m = rates[finite], margin[finite]
    details = {"range": (low, high), "margin_at_low": float(m[0]), "margin_at_high": float(m[-1])}
    if np.all(m >= 0):
        return no_solution(
            f"no break-even rate in {searched}: the test passes at every rate tried ({_trend(m)}; margin over the "
            f"threshold {100 * m.min():.2f} percentage points at least)",
            **details,
            passes_at_every_rate=True,
        )
    if np.all(m < 0):
        return no_solution(
            f"no break-even rate in {searched}: the test fails at every rate tried ({_trend(m)}; below the "
            f"threshold by {-100 * m.max():.2f} percentage points at best)",
            **details,
            passes_at_every_rate=False,
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
        return no_solution(f"the ratio is undefined where the margin changes sign in {searched}", **details)
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
    warn_range(low, high, source="implied_discount_rate")
    credit_years = np.arange(first_year, first_year + years)

    def pv(rate: float) -> float:
        return float(annual_credit * np.sum(finance.discount_factors(rate, credit_years, timing)))

    pv_low, pv_high = pv(np.nextafter(low, high)), pv(high)
    details = {"range": (low, high), "pv_at_low": pv_low, "pv_at_high": pv_high, "first_year": first_year}
    where = f"credits in years {first_year}..{first_year + years - 1}, {timing.replace('_', ' ')}"
    if not pv_high <= present_value < pv_low:
        return no_solution(
            f"no discount rate in ({low:g}, {high:g}] gives a PV of {money_exact(present_value)} ({where}): "
            f"the PV runs from {money_exact(pv_high)} to {money_exact(pv_low)}",
            **details,
        )
    rate = _root(lambda r: pv(r) - present_value, float(np.nextafter(low, high)), high)
    if rate is None:  # pragma: no cover - PV is finite and monotone on the bracket
        return no_solution(f"no discount rate found in ({low:g}, {high:g}]", **details)
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
