"""The change of the net benefit ratio between two scenarios split among the inputs that differ,
by their Shapley values (:func:`netbenefit.analysis.diff.diff`).

The Shapley value of an input i among the n changed inputs N is the average, over every order in
which the changes could be made one after another, of the change in the ratio when i is made:

    phi_i = sum over S in N without i of |S|! (n - |S| - 1)! / n! * (v(S + i) - v(S))

where v(S) is the ratio of scenario A with the changes of S made (taken from B). It is exact: all
2^n combinations are evaluated, and the values add up to v(N) - v({}) = ratio_B - ratio_A. The
numeric changes are evaluated at once, as one batch of variants of the model
(:func:`netbenefit.model.cashflows.compute` with arrays of values, as sweeps are); a change that cannot
be an array of numbers (a flag, a date, a choice of text, a year or a list item added or removed,
a block given or left out) is applied with :meth:`Scenario.replace`, one batch for each
combination of such changes. With more than :data:`MAX_PLAYERS` changed inputs, the changes are
grouped by their top-level block (``jobs``, ``revenue``, ``award``...), and each block gets one
value; so too when a change cannot be made without another one (an award given as
``per_new_job`` instead of ``annual_credit``): the two are attributed together to their block
(and blocks that need each other, such as ``jobs`` and ``revenue``, together to one player).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..errors import ScenarioError
from ..model.cashflows import compute
from ..model.plausibility import quiet
from ..model.scenario import Scenario
from .columns import result_columns
from .keys import key_spec

#: Beyond this many changed inputs, changes are grouped by top-level block (2^12 = 4,096 variants).
MAX_PLAYERS = 12  # not a statutory number: a limit on the work of an exact attribution
#: The batch of variants must give the evaluated ratios of A and B to this relative tolerance.
REPRODUCTION_TOLERANCE = 1e-9  # not a statutory number: the agreement of the variants engine and evaluate


def attribute(
    scenario: Scenario, changes: Mapping[str, Any], ratio_a: float, ratio_b: float
) -> tuple[list[str], np.ndarray, bool]:
    """Shapley values of ``changes`` (dotted key -> new value) for the ratio of ``scenario``.

    Returns ``(labels, contributions, grouped)``. The players are the keys, or their top-level
    blocks when there are more than :data:`MAX_PLAYERS` of them (``grouped`` True). When a change
    cannot be made without another (the scenario format refuses a combination), the changes are
    grouped by their block, then by top-level block; then the changes that are not numbers are
    attributed together (one player, their keys joined by " + "); at last all changes are one.
    """
    keys = list(changes)
    if not keys:
        return [], np.zeros(0), False
    for players in _player_sets(scenario, changes):
        try:
            values = _coalition_ratios(scenario, changes, players)
            break
        except _InvalidCombination:
            continue
    grouped = [label for label, _ in players] != keys
    if not (
        math.isclose(values[0], ratio_a, rel_tol=REPRODUCTION_TOLERANCE, abs_tol=1e-12)
        and math.isclose(values[-1], ratio_b, rel_tol=REPRODUCTION_TOLERANCE, abs_tol=1e-12)
    ):
        raise RuntimeError(
            f"the attribution does not reproduce the two ratios ({values[0]!r} vs {ratio_a!r}, "
            f"{values[-1]!r} vs {ratio_b!r})"
        )
    values[0], values[-1] = ratio_a, ratio_b  # the evaluated ratios themselves: the sum is the change
    return [label for label, _ in players], shapley_values(values), grouped


class _InvalidCombination(Exception):
    """A combination of changes that the scenario format refuses (one change needs another)."""


def _player_sets(scenario: Scenario, changes: Mapping[str, Any]) -> Iterator[list[tuple[str, list[str]]]]:
    """The ways to split the changes into players, finest first (see :func:`attribute`)."""
    keys = list(changes)
    deepest = max(len(key.split(".")) for key in keys)
    depths = ([None] if len(keys) <= MAX_PLAYERS else []) + list(range(deepest - 1, 0, -1))
    tried = []
    for depth in depths:
        players = _players(keys, depth)
        if players not in tried and (len(players) <= MAX_PLAYERS or depth == 1):
            tried.append(players)
            yield players
    blocks = _players(keys, 1)
    numeric = [p for p in blocks if all(_is_numeric(scenario, key, changes[key]) for key in p[1])]
    others = [p for p in blocks if p not in numeric]
    if len(others) > 1:
        yield [*numeric, (" + ".join(label for label, _ in others), [key for _, ks in others for key in ks])]
    if len(blocks) > 1:
        yield [(" + ".join(label for label, _ in blocks), keys)]


def _players(keys: list[str], depth: int | None) -> list[tuple[str, list[str]]]:
    """``(label, keys)`` per player: each key, or the keys grouped by their first ``depth`` segments."""
    if depth is None:
        return [(key, [key]) for key in keys]
    groups: dict[str, list[str]] = {}
    for key in keys:
        groups.setdefault(".".join(key.split(".")[:depth]), []).append(key)
    return list(groups.items())


def shapley_values(values: np.ndarray) -> np.ndarray:
    """Exact Shapley values from the value of every coalition.

    Parameters
    ----------
    values : ndarray, shape (2**n,)
        ``values[m]`` is the value of the coalition whose members are the set bits of ``m``.

    Returns
    -------
    ndarray, shape (n,)
        Player i's value: sum over coalitions S without i of |S|!(n-|S|-1)!/n! (v(S+i) - v(S)).
        They add up to ``values[-1] - values[0]``.
    """
    values = np.asarray(values, dtype=float)
    n = int(round(math.log2(values.size)))
    if values.size != 2**n:
        raise ValueError(f"need 2**n coalition values, got {values.size}")
    masks = np.arange(values.size)
    sizes = np.array([bin(m).count("1") for m in masks])
    weights = np.array([math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n) for s in range(n)] + [0.0])
    out = np.empty(n)
    for i in range(n):
        without = masks[(masks >> i) & 1 == 0]
        out[i] = math.fsum(weights[sizes[without]] * (values[without | (1 << i)] - values[without]))
    return out


def _coalition_ratios(
    scenario: Scenario, changes: Mapping[str, Any], players: list[tuple[str, list[str]]]
) -> np.ndarray:
    """The ratio of every coalition of ``players`` (bit i of the index: player i's changes made)."""
    numeric = [i for i, (_, keys) in enumerate(players) if all(_is_numeric(scenario, k, changes[k]) for k in keys)]
    other = [i for i in range(len(players)) if i not in numeric]
    size = 2 ** len(numeric)
    inner = np.arange(size)
    values = np.empty(2 ** len(players))
    for outer in range(2 ** len(other)):
        made = [other[j] for j in range(len(other)) if (outer >> j) & 1]
        base = scenario
        if made:
            made_changes = {key: changes[key] for i in made for key in players[i][1]}
            try:
                with quiet():  # the values of the other scenario, warned about when it is evaluated
                    base = scenario.replace({**made_changes, "name": scenario.name})
            except ScenarioError as error:
                raise _InvalidCombination(str(error)) from None
        overrides = {}
        for position, i in enumerate(numeric):
            on = (inner >> position) & 1 == 1
            for key in players[i][1]:
                old = float(key_spec(base, key).base)
                overrides[key] = np.where(on, float(changes[key]), old)
        with np.errstate(all="ignore"):
            columns = result_columns(compute(base, overrides or None))
        ratio = np.broadcast_to(columns["ratio"], (size,))
        if not np.all(np.isfinite(ratio)):
            raise ScenarioError(
                scenario.source,
                "",
                "the ratio is undefined (zero credits or overflowing present values) for a combination "
                "of the changes, so the change cannot be attributed",
            )
        index = np.zeros(size, dtype=np.int64)
        for position, i in enumerate(numeric):
            index |= ((inner >> position) & 1) << i
        for i in made:
            index |= 1 << i
        values[index] = ratio
    return values


def _is_numeric(scenario: Scenario, key: str, new: Any) -> bool:
    """Whether a change can be an array of variants: a number (not a flag) at a variable key."""
    try:
        old = scenario.value_at(key)
    except ScenarioError:
        return False
    if any(isinstance(value, bool) or not isinstance(value, int | float) for value in (old, new)):
        return False
    try:
        return key_spec(scenario, key).kind in ("number", "integer")
    except ScenarioError:
        return False
