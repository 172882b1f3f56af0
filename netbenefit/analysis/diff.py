"""Two scenarios compared: the inputs that differ, and which of them moved the ratio, and by how much.

:func:`diff` answers "why did the ratio drop from 4.9 to 3.7?". It lists the inputs that differ
(dotted keys, old and new values), the change in the present values of benefits (by tax, where the
result gives them) and of credits, and attributes the change in the net benefit ratio to each
changed input by its Shapley value.

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
The name and description of a scenario do not enter the model and get no value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ScenarioError
from ..io.writing import written_file
from ..law.labels import margin_points, money_exact, ratio
from ..model.cashflows import compute
from ..model.evaluate import evaluate
from ..model.plausibility import quiet
from ..model.result import Result
from ..model.scenario import Scenario, load_scenario
from .changed_inputs import changed_inputs, json_value, money_change, shown_pair
from .columns import result_columns
from .keys import key_spec
from .margin import benefit_window, margin_rows

if TYPE_CHECKING:  # pandas is imported when a diff is made, not when netbenefit is
    import pandas as pd

#: Beyond this many changed inputs, changes are grouped by top-level block (2^12 = 4,096 variants).
MAX_PLAYERS = 12  # not a statutory number: a limit on the work of an exact attribution
#: The batch of variants must give the evaluated ratios of A and B to this relative tolerance.
REPRODUCTION_TOLERANCE = 1e-9  # not a statutory number: the agreement of the variants engine and evaluate
#: Keys that describe a scenario without entering the model.
_DESCRIPTIVE_KEYS = ("name", "description")
_TAXES_COLUMNS = ["tax", "pv_a", "pv_b", "change"]


@dataclass(frozen=True)
class Diff:
    """What changed between scenario A and scenario B, and what moved the ratio.

    Attributes
    ----------
    name_a, name_b : str
    ratio_a, ratio_b : float
        Net benefit ratios, 71(a)(5).
    pv_benefits_a, pv_benefits_b, pv_credits_a, pv_credits_b : float
        Present values of counted net benefits and of the requested credits. [USD]
    inputs : DataFrame
        ``key`` (dotted), ``old`` (A's value), ``new`` (B's value): every input that differs.
    attribution : DataFrame
        ``key`` (an input, or a top-level block when grouped), ``contribution`` (its Shapley
        value): the contributions add up to ``ratio_b - ratio_a``.
    by_tax : DataFrame
        ``tax``, ``pv_a``, ``pv_b``, ``change`` [USD], when both results give benefits by tax
        (``Result.benefits_by_tax``); empty otherwise.
    grouped : bool
        Whether the attribution is by top-level block rather than by input.
    threshold_a, threshold_b, threshold_clause_a, threshold_clause_b : float, str
        Each side's threshold of 71(a)(5) and its clause.
    margin_a, margin_b : float
        Each side's margin: the deciding test's ratio minus its threshold (multiples; 0.0159 is 1.59
        percentage points). Where the thresholds differ, the margins compare; the ratios do not.
    passes_a, passes_b : bool
    window_a, window_b : str
        Each side's benefit window in words (the commitment period, and an extended commitment
        where the test counts it, 71(a)(5)(d)).
    margin_attribution : DataFrame
        ``key``, ``contribution``: the change of the margin, ``margin_b - margin_a``, split into the
        inputs' Shapley values for the ratio, with the threshold and the benefit window as rows of
        their own; they add up.
    whole_project_ratio_a, whole_project_ratio_b : float
        Each side's whole project's ratio, PV of net benefits / PV of credits (the ratio of a side
        without later phases).
    extension_a, extension_b : str
        Where a side passes only with its elected extension, what its test gives without it
        (``Result.extension_words``); "" otherwise.
    """

    name_a: str
    name_b: str
    ratio_a: float
    ratio_b: float
    pv_benefits_a: float
    pv_benefits_b: float
    pv_credits_a: float
    pv_credits_b: float
    inputs: pd.DataFrame
    attribution: pd.DataFrame
    by_tax: pd.DataFrame
    grouped: bool = False
    threshold_a: float = math.nan
    threshold_b: float = math.nan
    threshold_clause_a: str = ""
    threshold_clause_b: str = ""
    margin_a: float = math.nan
    margin_b: float = math.nan
    passes_a: bool = False
    passes_b: bool = False
    window_a: str = ""
    window_b: str = ""
    margin_attribution: pd.DataFrame | None = None
    whole_project_ratio_a: float = math.nan
    whole_project_ratio_b: float = math.nan
    extension_a: str = ""
    extension_b: str = ""

    @property
    def ratio_change(self) -> float:
        return self.ratio_b - self.ratio_a

    @property
    def pv_benefits_change(self) -> float:
        """[USD]"""
        return self.pv_benefits_b - self.pv_benefits_a

    @property
    def pv_credits_change(self) -> float:
        """[USD]"""
        return self.pv_credits_b - self.pv_credits_a

    @property
    def margin_change(self) -> float:
        """``margin_b - margin_a`` (multiples)."""
        return self.margin_b - self.margin_a

    def differences_in_words(self) -> list[str]:
        """Sentences for what makes the two ratios not compare directly: a different threshold, a
        different benefit window."""
        out = []
        if self.threshold_a != self.threshold_b or self.threshold_clause_a != self.threshold_clause_b:
            out.append(
                f"the thresholds differ ({ratio(self.threshold_a)}, {self.threshold_clause_a}, in A; "
                f"{ratio(self.threshold_b)}, {self.threshold_clause_b}, in B): compare the margins, not the ratios"
            )
        if self.window_a != self.window_b:
            out.append(f"the benefit windows differ: A counts {self.window_a}; B counts {self.window_b}")
        out += [f"{side} {words}" for side, words in (("A", self.extension_a), ("B", self.extension_b)) if words]
        return out

    def summary(self) -> str:
        """Plain text: the ratio, the threshold and margin of each side, the present values, the inputs
        that differ and the attribution of the margin."""
        lines = [
            f"A: {self.name_a}",
            f"B: {self.name_b}",
            f"  net benefit ratio {self.ratio_a:.2%} -> {self.ratio_b:.2%} "
            f"(change {100 * self.ratio_change:+.2f} percentage points)",
            f"  threshold {ratio(self.threshold_a)} ({self.threshold_clause_a}) -> {ratio(self.threshold_b)} "
            f"({self.threshold_clause_b}); margin {margin_points(self.margin_a, self.passes_a)} -> "
            f"{margin_points(self.margin_b, self.passes_b)}",
            *[f"  {sentence}" for sentence in self.differences_in_words()],
        ]
        if self.whole_project_ratio_a != self.ratio_a or self.whole_project_ratio_b != self.ratio_b:
            lines.append(
                f"  whole project's ratio {self.whole_project_ratio_a:.2%} -> {self.whole_project_ratio_b:.2%} "
                "(PV net benefits / PV credits below; the ratio above is the test that decides)"
            )
        lines += [
            f"  PV net benefits {money_exact(self.pv_benefits_a)} -> {money_exact(self.pv_benefits_b)} "
            f"(change {money_change(self.pv_benefits_change)})",
            f"  PV credits {money_exact(self.pv_credits_a)} -> {money_exact(self.pv_credits_b)} "
            f"(change {money_change(self.pv_credits_change)})",
        ]
        for row in self.by_tax.itertuples(index=False):
            change = money_change(row.change)
            lines.append(f"    PV {row.tax}: {money_exact(row.pv_a)} -> {money_exact(row.pv_b)} (change {change})")
        if self.inputs.empty:
            lines.append("  the two scenarios have the same inputs")
            return "\n".join(lines)
        lines.append(f"  inputs that differ ({len(self.inputs)}):")
        for row in self.inputs.itertuples(index=False):
            old, new = shown_pair(row.old, row.new)
            lines.append(f"    {row.key}: {old} -> {new}")
        table = self.attribution_shown
        if not table.empty:
            how = "by block" if self.grouped else "by input"
            if table is self.attribution:
                lines.append(
                    f"  the ratio change attributed {how}, in percentage points (Shapley values; they add up):"
                )
            else:
                lines.append(
                    f"  the margin change attributed {how}, in percentage points (Shapley values of the ratio, "
                    "with the threshold and the benefit window as rows of their own; they add up):"
                )
            width = max(len(str(key)) for key in table["key"])
            for row in table.itertuples(index=False):
                shown = 100 * row.contribution if abs(row.contribution) >= 5e-5 else 0.0  # no "-0.00"
                lines.append(f"    {row.key:<{width}}  {shown:+.2f}")
            lines.append(f"    {'total':<{width}}  {100 * float(table['contribution'].sum()):+.2f}")
        return "\n".join(lines)

    @property
    def attribution_shown(self) -> pd.DataFrame:
        """The margin's attribution where the threshold, the window or the deciding test adds a row of
        its own; else the ratio's (the same rows: the margin and the ratio then move together)."""
        margin = self.margin_attribution
        if margin is None or len(margin) == len(self.attribution):
            return self.attribution
        return margin

    def __str__(self) -> str:
        return self.summary()

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON: the names, ratios, present values, inputs, attribution and by_tax."""
        return {
            "name_a": self.name_a,
            "name_b": self.name_b,
            "ratio_a": float(self.ratio_a),
            "ratio_b": float(self.ratio_b),
            "ratio_change": float(self.ratio_change),
            "pv_benefits_a": float(self.pv_benefits_a),
            "pv_benefits_b": float(self.pv_benefits_b),
            "pv_credits_a": float(self.pv_credits_a),
            "pv_credits_b": float(self.pv_credits_b),
            "inputs": [
                {"key": row.key, "old": json_value(row.old), "new": json_value(row.new)}
                for row in self.inputs.itertuples(index=False)
            ],
            "attribution": [
                {"key": row.key, "contribution": float(row.contribution)}
                for row in self.attribution.itertuples(index=False)
            ],
            "grouped_by_block": bool(self.grouped),
            "threshold_a": float(self.threshold_a),
            "threshold_b": float(self.threshold_b),
            "threshold_clause_a": self.threshold_clause_a,
            "threshold_clause_b": self.threshold_clause_b,
            "margin_a": float(self.margin_a),
            "margin_b": float(self.margin_b),
            "margin_change": float(self.margin_change),
            "passes_a": bool(self.passes_a),
            "passes_b": bool(self.passes_b),
            "window_a": self.window_a,
            "window_b": self.window_b,
            "whole_project_ratio_a": float(self.whole_project_ratio_a),
            "whole_project_ratio_b": float(self.whole_project_ratio_b),
            "differences": self.differences_in_words(),
            "margin_attribution": [
                {"key": row.key, "contribution": float(row.contribution)}
                for row in (
                    self.margin_attribution if self.margin_attribution is not None else self.attribution
                ).itertuples(index=False)
            ],
            "by_tax": [
                {"tax": row.tax, "pv_a": float(row.pv_a), "pv_b": float(row.pv_b), "change": float(row.change)}
                for row in self.by_tax.itertuples(index=False)
            ],
        }

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: the inputs that differ, the attribution and the waterfall
        (:func:`netbenefit.views.notebook.diff_html`)."""
        from ..views.notebook import diff_html

        return diff_html(self)

    def plot(self, ax=None):
        """The ratio waterfall, :func:`netbenefit.views.charts.ratio_waterfall`; returns the Axes."""
        from ..views.charts import ratio_waterfall

        return ratio_waterfall(self, ax=ax)

    def to_pdf(self, path: str | Path, **options: Any) -> Path:
        """Write this comparison as a memo PDF: the ratios, the inputs that differ, the attribution
        and its waterfall (options ``date``, ``preparer``, ``paper``). Returns the path; the path and
        every option checked first (:func:`netbenefit.views.html.memo.memo_options`)."""
        with written_file("to_pdf", path) as target:
            from ..views.html.memo import memo_options, write_diff_memo

            return write_diff_memo(self, target, **memo_options(options, "to_pdf", diff=True))


def diff(a: Scenario | str | Path, b: Scenario | str | Path) -> Diff:
    """Compare scenario ``b`` with scenario ``a`` and attribute the change in the ratio.

    Parameters
    ----------
    a, b : Scenario, or the path of a scenario file

    Returns
    -------
    Diff
        See the module docstring for the attribution (exact Shapley values).

    Raises
    ------
    ScenarioError
        When either scenario cannot be evaluated, or when the ratio is undefined for a
        combination of the changes (the credits of a combination are zero).

    Examples
    --------
    >>> d = diff("scenarios/office_hq_default_area.yaml", variant)  # doctest: +SKIP
    >>> d.attribution  # doctest: +SKIP
    """
    scenario_a = a if isinstance(a, Scenario) else load_scenario(a)
    scenario_b = b if isinstance(b, Scenario) else load_scenario(b)
    result_a, result_b = evaluate(scenario_a), evaluate(scenario_b)
    changes = changed_inputs(scenario_a, scenario_b)
    import pandas as pd

    inputs = pd.DataFrame(changes, columns=["key", "old", "new"], dtype=object)
    model_changes = {key: new for key, _, new in changes if key not in _DESCRIPTIVE_KEYS}
    labels, contributions, grouped = attribute(scenario_a, model_changes, result_a.ratio, result_b.ratio)
    attribution = pd.DataFrame({"key": labels, "contribution": np.asarray(contributions, dtype=float)})
    margin_attribution = pd.DataFrame(
        margin_rows(result_a, result_b, list(labels), np.asarray(contributions, dtype=float)),
        columns=["key", "contribution"],
    )
    return Diff(
        name_a=scenario_a.name,
        name_b=scenario_b.name,
        ratio_a=result_a.ratio,
        ratio_b=result_b.ratio,
        pv_benefits_a=result_a.pv_benefits,
        pv_benefits_b=result_b.pv_benefits,
        pv_credits_a=result_a.pv_credits,
        pv_credits_b=result_b.pv_credits,
        inputs=inputs,
        attribution=attribution,
        by_tax=_by_tax(result_a, result_b),
        grouped=grouped,
        threshold_a=result_a.threshold,
        threshold_b=result_b.threshold,
        threshold_clause_a=result_a.threshold_clause,
        threshold_clause_b=result_b.threshold_clause,
        margin_a=result_a.margin,
        margin_b=result_b.margin,
        passes_a=result_a.passes,
        passes_b=result_b.passes,
        window_a=benefit_window(result_a),
        window_b=benefit_window(result_b),
        margin_attribution=margin_attribution,
        whole_project_ratio_a=result_a.whole_project_ratio,
        whole_project_ratio_b=result_b.whole_project_ratio,
        extension_a=result_a.extension_words(2),
        extension_b=result_b.extension_words(2),
    )


# ----------------------------------------------------------------------------------------------
# Shapley values
# ----------------------------------------------------------------------------------------------


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


def _player_sets(scenario: Scenario, changes: Mapping[str, Any]):
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


# ----------------------------------------------------------------------------------------------
# Benefits by tax and display
# ----------------------------------------------------------------------------------------------


def _by_tax(result_a: Result, result_b: Result) -> pd.DataFrame:
    import pandas as pd

    table_a, table_b = result_a.benefits_by_tax, result_b.benefits_by_tax
    if table_a is None or table_b is None:
        return pd.DataFrame({"tax": pd.Series(dtype=object), **{c: pd.Series(dtype=float) for c in _TAXES_COLUMNS[1:]}})
    merged = pd.merge(
        table_a[["tax", "pv"]].rename(columns={"pv": "pv_a"}),
        table_b[["tax", "pv"]].rename(columns={"pv": "pv_b"}),
        on="tax",
        how="outer",
        sort=False,
    ).fillna({"pv_a": 0.0, "pv_b": 0.0})
    merged["change"] = merged["pv_b"] - merged["pv_a"]
    return merged[_TAXES_COLUMNS].reset_index(drop=True)
