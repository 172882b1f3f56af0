"""Monte Carlo on the model's structure: a few sums over years for each draw, no draws x years arrays.

Where the varied keys enter the yearly benefits and credits multilinearly (each key to the first
power: jobs, salaries, multipliers, shares, tax rates) and the discount rate may vary as well,
the present values of a draw are

    PV = D1(r) x sum over subsets S of the keys of  v_S x sum over years t of  a_S[t] x^(t - 1)

with ``v_k`` the key's value divided by its largest size over the box the distributions draw in
(:func:`box`: a uniform's or triangular's bounds, a normal's mean +- 8 sd, within the key's valid
range), ``v_S`` the product over ``S``, ``x = D(t + 1) / D(t)`` the model's one-year discount
factor and ``D1`` its factor of year 1. The coefficient rows ``a_S`` are not written out from
formulas: they are read from the model itself (:func:`netbenefit.model.cashflows.compute`) at the
corners of the box (the counted benefits by year, summed over phases, the credits by year and
the requested credits), then turned into the coefficients of the multilinear form (the Moebius
transform of the corner values, then a change of variable key by key); a subset whose
coefficients are all within the rounding of the sums that made them (a product the model does
not form, such as jobs alone) is left out. So the fast path follows the model when it changes.
The box is the same for every chunk and every worker of a cluster, and each draw is computed
alone (the sums over years a product with a block of fixed width), so that a draw's numbers do
not depend on the chunk size; a draw outside the box is computed by the general path.

It is used only when a structural test on the model's own numbers says it gives the general
path's numbers (:func:`plan`), else the general path runs:

- the yearly benefits and credits the model gives at points inside the box (the centre and
  random points) are those of the multilinear form, to 1e-11 relative to the largest (any
  nonlinear term, a step, a bracket, fails this);
- they do not depend on the discount rate (probed at two rates);
- the model's discount factors are ``D1 x x^(t - 1)`` and its present values the sums above (a
  year-0 column, the approval year (docs/model.md#timeline), has factor 1: its row is added as is);
- one phase, no counted extension (the test on the whole project is then the test of this
  ratio, and the present value without the extension is the same one);
- every result other than the present values (the threshold and its clause, the job clause,
  retained jobs' eligibility, every check but the net benefit test, the horizon) is the same at
  every probe: at the corners, the centre, the random points and at 17 evenly spaced values of
  each key over the box. When they do not depend on a key at all this is exact; when they do
  (the job minimum on ``jobs.new``) it relies on the eligibility rules being minimums and
  maximums (monotone in each key), which those of s.71 are.

The pass flag and the ratio are then made by the model's own functions
(:func:`netbenefit.model.cashflows.present_values.ratio`, :func:`netbenefit.law.rules.net_benefit.meets_threshold`), and
the table's columns by :func:`netbenefit.analysis.variants.result_columns`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from ..law.finance import discount_factors
from ..law.rules.net_benefit import meets_threshold
from ..model.cashflows import Computation, compute, present_values
from ..model.scenario import Scenario
from .columns import OVERFLOW, ZERO_CREDITS, general_columns, result_columns
from .keys import key_spec

#: The varied key the fast path treats as the discount rate.
RATE = "discount_rate"
#: Relative agreement the structural test asks of the model's numbers at the probes.
TOLERANCE = 1e-11  # not a statutory number: the fast path must give the general path's numbers to 1e-12
#: Draws evaluated at once within a chunk, so that their arrays stay in the processor's cache.
BLOCK = 8192
#: At most this many keys besides the discount rate (2^k corners).
MAX_KEYS = 6
#: Where in the box (0 to 1 of each key's range) the flags are probed.
FLAG_STEPS = np.linspace(0.0, 1.0, 17)

#: The results other than the present values that must be the same at every probe.
_FLAG_FIELDS = (
    "threshold",
    "threshold_clause_code",
    "statutory_threshold_clause_code",
    "job_clause_code",
    "retained_jobs_eligible",
    "extension_counts",
    "extended_years",
    "capital_investment_minimum",
    "initial_capital_investment",
    "infrastructure_fund_donation",
)


@dataclasses.dataclass(frozen=True)
class Plan:
    """The multilinear form of one box of draws (see the module's text)."""

    keys: tuple[str, ...]  # the varied keys besides the discount rate
    fixed: dict  # keys drawn from a distribution of one value: that value
    low: np.ndarray  # (k,) the box
    high: np.ndarray
    scale: np.ndarray  # (k,) v_k = value / scale_k, at most 1 in size over the box
    subsets: tuple[tuple[int, ...], ...]  # the subsets S of the keys whose term is kept
    benefits: np.ndarray  # (subsets, years): coefficient rows a_S of the counted benefits
    credits: np.ndarray  # (subsets, years)
    requested: np.ndarray  # (subsets,): of the requested credits (undiscounted)
    template: Computation  # one probe's computation: the flags, the checks, the phase
    timing: str
    rate: float  # the scenario's discount rate (when it is not varied)
    year_zero: bool = False  # the first column is year 0, the approval year, at factor 1

    def inside(self, overrides: Mapping[str, np.ndarray]) -> np.ndarray:
        """Which draws lie in the box (the others are computed by the general path)."""
        size = len(next(iter(overrides.values())))
        inside = np.ones(size, dtype=bool)
        for key, low, high in zip(self.keys, self.low, self.high, strict=True):
            values = overrides[key]
            inside &= (values >= low) & (values <= high)
        for key, value in self.fixed.items():
            inside &= overrides[key] == value
        return inside

    def columns(self, overrides: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """:func:`~netbenefit.analysis.variants.result_columns` of the draws, as the general path gives them."""
        size = len(next(iter(overrides.values())))
        pv_benefits, pv_credits, requested = np.empty(size), np.empty(size), np.empty(size)
        for start in range(0, size, BLOCK):  # blocks whose arrays stay in the processor's cache
            part = slice(start, min(size, start + BLOCK))
            self._present_values(
                {key: values[part] for key, values in overrides.items()}, pv_benefits[part], pv_credits[part],
                requested[part],
            )
        return self._result_columns(pv_benefits, pv_credits, requested)

    def _present_values(self, overrides, pv_benefits, pv_credits, requested) -> None:
        """The present values of one block of draws. Each draw's numbers do not depend on the
        other draws of its block or on where the block starts (the results are the same whatever
        the chunk size, on a cluster as in one process): the sums over years are a product with a
        block always :data:`BLOCK` wide (padded), the rest elementwise."""
        size = len(pv_benefits)
        monomials = self.monomials(overrides, size)  # (subsets, n)
        rows, benefit_rows, credit_rows = self._rows
        zero = None
        if self.year_zero:  # year 0 is discounted at t = 0 (docs/model.md#timeline): added as is
            zero, rows = rows[:, :1], rows[:, 1:]
        rates = overrides.get(RATE)
        years = rows.shape[1]
        if rates is None:
            first, step = _factors(np.array([self.rate]), self.timing)
            sums = np.empty((len(rows), size))
            sums[:] = ((rows * first[0]) * step[0] ** np.arange(years)).sum(axis=1)[:, None]
        else:
            first, step = _factors(np.asarray(rates, dtype=float), self.timing)
            powers = np.zeros((years, BLOCK))  # x^(t - 1), one row a year: a few sums over years
            powers[0, :size] = 1.0
            for t in range(1, years):
                np.multiply(powers[t - 1, :size], step, out=powers[t, :size])
            sums = (rows @ powers)[:, :size]  # (rows, n)
            sums *= first
        if zero is not None:
            sums += zero
        _sum_of_products(monomials[benefit_rows], sums[: len(benefit_rows)], pv_benefits)
        _sum_of_products(monomials[credit_rows], sums[len(benefit_rows) :], pv_credits)
        _sum_of_products(monomials, np.broadcast_to(self.requested[:, None], monomials.shape), requested)

    def monomials(self, overrides: Mapping[str, np.ndarray], size: int) -> np.ndarray:
        """``v_S``, the product of the scaled values of the keys of S, for each kept subset, ``(subsets, n)``."""
        scaled = [np.asarray(overrides[key], dtype=float) / self.scale[k] for k, key in enumerate(self.keys)]
        rows = np.empty((len(self.subsets), size))
        for row, subset in enumerate(self.subsets):
            if not subset:
                rows[row] = 1.0
                continue
            rows[row] = scaled[subset[0]]
            for k in subset[1:]:
                rows[row] *= scaled[k]
        return rows

    def __post_init__(self) -> None:
        # the coefficient rows that are not all zero (exactly: a key that does not move a
        # quantity gives equal corners), benefits then credits, and the subsets they belong to
        benefit_rows = np.flatnonzero(np.any(self.benefits != 0, axis=1))
        credit_rows = np.flatnonzero(np.any(self.credits != 0, axis=1))
        rows = np.ascontiguousarray(np.concatenate([self.benefits[benefit_rows], self.credits[credit_rows]]))
        object.__setattr__(self, "_rows", (rows, benefit_rows, credit_rows))

    def _result_columns(self, pv_benefits, pv_credits, requested) -> dict[str, np.ndarray]:
        """:func:`~netbenefit.analysis.columns.result_columns` of the draws, as the general path
        gives them: the ratio, the test of 71(a)(5) and the notes by the model's own functions;
        every other check is the template's (a key that moves one fails the structural test)."""
        base = self.template
        size = len(pv_benefits)
        threshold = np.asarray(base.threshold).reshape(-1)[:1]
        ratio = present_values.ratio(pv_benefits, pv_credits)
        passes = meets_threshold(ratio, threshold) & (pv_credits > 0)  # 71(a)(5)
        others_pass, failed_alike = True, 0  # the checks that do not vary: passed by every draw, or failed
        for bit, (check, value) in enumerate(base.checks.items()):
            if check == "71(a)(5)":
                net_benefit_bit = bit
                continue
            passed = bool(np.asarray(value, dtype=bool).reshape(-1)[0])
            others_pass = others_pass and passed
            failed_alike |= int(not passed) << bit
        failed = ((~passes).astype(np.int32) << net_benefit_bit) | failed_alike
        note = np.zeros(size, dtype=np.int8)
        note[(requested <= 0) | ~(pv_credits > 0)] = ZERO_CREDITS
        note[~(np.isfinite(pv_benefits) & np.isfinite(pv_credits))] = OVERFLOW
        eligible = passes & others_pass
        flagged = note > 0
        if flagged.any():
            ratio[flagged] = np.nan
            passes[flagged] = False
            eligible[flagged] = False
        return {
            "failed_checks": failed,
            "pv_benefits": pv_benefits,
            "pv_credits": pv_credits,
            "whole_project_ratio": ratio,  # one phase: its test is the whole project's
            "ratio": ratio,
            "threshold": np.full(size, float(threshold[0])),
            "passes": passes,
            "eligible": eligible,
            "note": note,
        }


def _sum_of_products(left: np.ndarray, right: np.ndarray, out: np.ndarray) -> None:
    """``out[n] = sum over j of left[j, n] x right[j, n]``, in the order of j, elementwise."""
    out[:] = 0.0
    for j in range(len(left)):
        out += left[j] * right[j]


def _factors(rates: np.ndarray, timing: str) -> tuple[np.ndarray, np.ndarray]:
    """The model's discount factor of year 1 and its one-year factor ``D(2) / D(1)`` for each rate."""
    two = discount_factors(rates, np.array([1, 2]), timing).reshape(-1, 2)
    return two[:, 0], two[:, 1] / two[:, 0]


def _profile(c: Computation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The model's counted benefits by year (summed over phases), credits by year and requested
    credits of each probe row."""
    size, years = c.size, len(c.years)
    benefits = np.zeros((size, years))
    credits = np.zeros((size, years))
    for phase in c.phases:
        benefits = benefits + np.broadcast_to(phase.net_benefits * phase.weight, (size, years))
        credits = credits + np.broadcast_to(phase.credits, (size, years))
    requested = np.broadcast_to(c.requested_credits, (size, 1))[:, 0]
    return benefits, credits, requested


def _flags(c: Computation) -> list[np.ndarray]:
    size = c.size
    values = [np.broadcast_to(np.asarray(getattr(c, name)), (size, 1)) for name in _FLAG_FIELDS]
    values += [np.broadcast_to(np.asarray(v), (size, 1)) for k, v in c.checks.items() if k != "71(a)(5)"]
    return values


def _close(model: np.ndarray, form: np.ndarray) -> bool:
    scale = float(np.max(np.abs(model), initial=0.0))
    return bool(np.all(np.isfinite(form))) and float(np.max(np.abs(model - form), initial=0.0)) <= TOLERANCE * max(
        scale, 1e-300
    )


def plan(scenario: Scenario, overrides: Mapping[str, np.ndarray], seed: int = 0) -> Plan | None:
    """The multilinear form of the model over the box of ``overrides`` (already checked draws),
    or None when the structural test fails (module text): the general path is to run."""
    keys = tuple(key for key in overrides if key != RATE)
    if len(keys) > MAX_KEYS or scenario.phases:
        return None
    if any(np.asarray(overrides[key]).dtype.kind not in "fiu" for key in overrides):
        return None  # a flag drawn

    if any(key_spec(scenario, key).kind != "number" for key in keys):
        return None  # a whole number (years): the probes between its values are not valid values
    low = np.array([float(np.min(overrides[key])) for key in keys])
    high = np.array([float(np.max(overrides[key])) for key in keys])
    spread = high > low
    fixed = {key: value for key, value, s in zip(keys, low, spread, strict=True) if not s}
    keys, low, high = tuple(k for k, s in zip(keys, spread, strict=True) if s), low[spread], high[spread]
    rates = np.asarray(overrides[RATE], dtype=float) if RATE in overrides else np.array([scenario.discount_rate])
    rate_low, rate_high = float(np.min(rates)), float(np.max(rates))

    probe, probe_rates = _probes(keys, fixed, low, high, (rate_low, rate_high), RATE in overrides, seed)
    if not probe:
        return None
    try:
        with np.errstate(all="ignore"):
            c = compute(scenario, probe)
    except Exception:  # noqa: BLE001 - any failure of the probe: the general path runs and reports it
        return None
    if len(c.phases) != 1 or np.any(np.asarray(c.extension_counts) & (np.asarray(c.extended_years) > 0)):
        return None
    if any(not np.all(flag == flag[0]) for flag in _flags(c)):
        return None
    benefits, credits, requested = _profile(c)
    values = np.concatenate([benefits, credits, requested[:, None]], axis=1)
    scale = np.maximum(np.abs(low), np.abs(high))
    coefficients, kept = _coefficients(values[: 1 << len(keys)], low, high, scale)
    years = benefits.shape[1]
    result = Plan(
        keys=keys,
        fixed=fixed,
        low=low,
        high=high,
        scale=scale,
        subsets=tuple(tuple(k for k in range(len(keys)) if (m >> k) & 1) for m in kept),
        benefits=coefficients[kept, :years],
        credits=coefficients[kept, years : 2 * years],
        requested=coefficients[kept, -1],
        template=_template(c),
        timing=scenario.timing,
        rate=float(scenario.discount_rate),
        year_zero=bool(c.years[0] == 0),
    )
    return result if _form_holds(result, c, probe, probe_rates, values, coefficients[kept]) else None


def _probes(keys, fixed, low, high, rates, rate_drawn: bool, seed: int):
    """The points the model is computed at, and the discount rate at each: every corner of the box
    of the keys (one corner, where only the discount rate varies), its centre and a few random
    points inside, and each key at evenly spaced values with the others at the centre."""
    rate_low, rate_high = rates
    count = len(keys)
    corners = np.array([[(m >> k) & 1 for k in range(count)] for m in range(1 << count)], dtype=float).reshape(
        1 << count, count  # one corner, (1, 0), where only the discount rate varies
    )
    rng = np.random.default_rng(seed)
    inside = np.vstack([np.full((1, count), 0.5), rng.random((2 + count, count))])
    steps = []  # the flags at evenly spaced values of each key over the box, the others at the centre
    for k in range(count):
        block = np.full((len(FLAG_STEPS), count), 0.5)
        block[:, k] = FLAG_STEPS
        steps.append(block)
    units = np.vstack([corners, inside, *steps])
    points = low + units * (high - low)
    size = len(points)
    probe = {key: points[:, k] for k, key in enumerate(keys)}
    probe.update({key: np.full(size, value) for key, value in fixed.items()})
    probe_rates = np.full(size, rate_low)
    probe_rates[len(corners) :: 2] = rate_high  # half the other probes at the other rate
    if rate_drawn or rate_low != rate_high:
        probe[RATE] = probe_rates
    return probe, probe_rates


def _coefficients(corner_values: np.ndarray, low, high, scale) -> tuple[np.ndarray, list[int]]:
    """The coefficients of the multilinear form from its values at the corners of the box, in the
    scaled values of the keys, and the subsets of keys whose products the model forms."""
    count = len(low)
    coefficients = corner_values.copy()
    size_of = np.abs(coefficients)  # beside each coefficient, the sum of the sizes of its terms
    for k in range(count):  # Moebius transform: corner values -> coefficients of u_S
        bit = 1 << k
        for m in range(1 << count):
            if m & bit:
                coefficients[m] -= coefficients[m ^ bit]
                size_of[m] += size_of[m ^ bit]
    # to the scaled values v_k = value / scale_k: u_k = alpha_k v_k + beta_k, key by key
    for k in range(count):
        alpha, beta, bit = scale[k] / (high[k] - low[k]), -low[k] / (high[k] - low[k]), 1 << k
        for m in range(1 << count):
            if m & bit:
                coefficients[m ^ bit] += beta * coefficients[m]
                size_of[m ^ bit] += abs(beta) * size_of[m]
                coefficients[m] *= alpha
                size_of[m] *= alpha
    # a subset whose coefficients are all within the rounding of the sums that made them is a
    # product the model does not form (jobs alone, where it forms jobs x salary x multiplier):
    # left out; the tests below hold the rest
    rounding = 8.0 * ((1 << count) + 2 * count) * np.finfo(float).eps  # a bound on the rounding, with room
    kept = [m for m in range(1 << count) if np.any(np.abs(coefficients[m]) > rounding * size_of[m])] or [0]
    return coefficients, kept


def _form_holds(result: Plan, c: Computation, probe, probe_rates, values, coefficients) -> bool:
    """Whether the form gives the model's values at every probe, its discount factors are the
    model's, and its sums the model's present values, verdicts, failed checks and notes."""
    size, years = len(probe_rates), result.benefits.shape[1]
    form = result.monomials(probe, size).T @ coefficients  # the form at every probe
    parts = (slice(0, years), slice(years, 2 * years), slice(2 * years, None))  # benefits, credits, requested
    if not all(_close(values[:, part], form[:, part]) for part in parts):
        return False  # not multilinear in the keys, or dependent on the discount rate
    # the model's discount factors and present values are the sums of the form
    first, step = _factors(probe_rates, result.timing)
    factors = np.broadcast_to(c.discount_factor, (size, years))
    expected = first[:, None] * step[:, None] ** np.arange(years - int(result.year_zero))
    if result.year_zero:  # year 0's factor is 1 under every timing (docs/model.md#timeline)
        expected = np.hstack([np.ones((size, 1)), expected])
    if not _close(factors, expected):
        return False
    check = result.columns(probe)
    model = result_columns(c)
    return bool(
        _close(model["pv_benefits"], check["pv_benefits"])
        and _close(model["pv_credits"], check["pv_credits"])
        and np.array_equal(model["passes"], check["passes"])
        and np.array_equal(model["eligible"], check["eligible"])
        and np.array_equal(model["failed_checks"], check["failed_checks"])
        and np.array_equal(model["note"], check["note"])
    )


def _template(c: Computation) -> Computation:
    """Row 0 of a probe computation: the flags every draw shares."""

    def row(value):
        array = np.asarray(value)
        return array[:1] if array.ndim == 2 else value

    return dataclasses.replace(
        c,
        size=1,
        threshold=row(c.threshold),
        checks={check: row(value) for check, value in c.checks.items()},
    )


def plan_for(scenario: Scenario, distributions: Mapping) -> Plan | None:
    """:func:`plan` over the box of the distributions (:func:`box`): the same for every chunk of a
    run and on every worker of a cluster, so that a draw's numbers depend on the draw alone."""
    bounds = box(scenario, distributions)
    return None if bounds is None else plan(scenario, bounds)


#: How far a normal (or lognormal) distribution's box reaches: mean +- this many sd. A draw
#: beyond it (about 1 in 1e15) is computed by the general path.
REACH = 8.0  # not a statutory number


def box(scenario: Scenario, distributions: Mapping) -> dict[str, np.ndarray] | None:
    """The lowest and highest value each key's distribution draws (a uniform's or triangular's
    bounds, the listed values' extremes, a normal's mean +- :data:`REACH` sd), kept within the
    key's valid range, as two "draws" of each key; None for a flag."""
    bounds = {}
    for key, distribution in distributions.items():
        p = distribution.parameters
        if distribution.name in ("uniform", "triangular"):
            low, high = p[0], p[-1]
        elif distribution.name == "normal":
            low, high = p[0] - REACH * p[1], p[0] + REACH * p[1]
        elif distribution.name == "lognormal":
            low, high = float(np.exp(p[0] - REACH * p[1])), float(np.exp(p[0] + REACH * p[1]))
        else:
            values = np.asarray(distribution.values)
            if values.dtype.kind not in "fiu":
                return None
            low, high = float(values.min()), float(values.max())
        spec = key_spec(scenario, key)
        if spec.lower is not None and low <= spec.lower:
            low = spec.lower if spec.lower_inclusive else max(low, float(np.nextafter(spec.lower, np.inf)))
        if spec.upper is not None and high >= spec.upper:
            high = spec.upper if spec.upper_inclusive else min(high, float(np.nextafter(spec.upper, -np.inf)))
        if not (np.isfinite(low) and np.isfinite(high)) or low > high:
            return None
        bounds[key] = np.array([low, high], dtype=float)
    return bounds


def columns_on_structure(scenario: Scenario, structure: Plan | None, overrides: Mapping[str, np.ndarray], size: int):
    """The result columns of one chunk of draws: on the structure for the draws inside its box,
    by the general path for the others (and for every draw without a structure)."""
    if structure is None or not overrides:
        return general_columns(scenario, overrides, size)
    inside = structure.inside(overrides)
    if inside.all():
        return structure.columns(overrides)
    if not inside.any():
        return general_columns(scenario, overrides, size)
    columns = structure.columns({key: values[inside] for key, values in overrides.items()})
    outside = result_columns(compute(scenario, {key: values[~inside] for key, values in overrides.items()}))
    merged = {}
    for name, values in columns.items():
        merged[name] = np.empty(size, dtype=values.dtype)
        merged[name][inside] = values
        merged[name][~inside] = outside[name]
    return merged


def chunks(scenario: Scenario, size: int, make_overrides, chunk_size: int, progress, distributions: Mapping):
    """:func:`netbenefit.analysis.variants.iter_chunks` of a Monte Carlo run on the model's
    structure (:func:`plan_for`) where the structural test allows it, else the general path."""
    structure = plan_for(scenario, distributions)
    for start in range(0, size, chunk_size):
        stop = min(size, start + chunk_size)
        overrides = make_overrides(start, stop)
        columns = columns_on_structure(scenario, structure, overrides, stop - start)
        if progress is not None:
            progress.update(stop - start)
        yield start, stop, overrides, columns
