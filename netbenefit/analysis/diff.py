"""Two scenarios compared: the inputs that differ, and which of them moved the ratio, and by how much.

:func:`diff` answers "why did the ratio drop from 4.9 to 3.7?". It lists the inputs that differ
(dotted keys, old and new values), the change in the present values of benefits (by tax, where the
result gives them) and of credits, and attributes the change in the net benefit ratio to each
changed input by its Shapley value.

The Shapley values, exact over every combination of the changes, are computed by
:func:`netbenefit.analysis.shapley.attribute` (the method and its groupings are described there).
The name and description of a scenario do not enter the model and get no value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..io.writing import written_file
from ..labels import margin_points, money_exact, ratio
from ..model.evaluate import evaluate
from ..model.result import Result
from ..model.scenario import Scenario, load_scenario
from .changed_inputs import changed_inputs, json_value, money_change, shown_pair
from .margin import benefit_window, margin_rows
from .shapley import attribute

if TYPE_CHECKING:  # pandas is imported when a diff is made, not when netbenefit is
    import pandas as pd
    from matplotlib.axes import Axes

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

    def plot(self, ax: Axes | None = None) -> Axes:
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
