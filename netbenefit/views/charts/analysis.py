"""Charts of analysis results: sensitivity (tornado), sweeps; Monte Carlo and percentile bands
(:mod:`netbenefit.views.charts.montecarlo`, their names kept here).

Each takes a table or result of :mod:`netbenefit.analysis` and an optional ``ax=``, draws it and
returns the Axes. Eligibility, passing and percentiles come from the analysis engine; no chart
computes a rule. The conventions footnote is read from ``table.attrs["conventions"]`` (or
``MonteCarloResult.conventions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ... import labels
from ...model.columns import RESULT_COLUMNS
from .montecarlo import FAN_NOTE, fan, montecarlo_distribution  # noqa: F401  (their names here too)
from .style import (
    FAIL_COLOUR,
    FAIL_HATCH,
    HIGH_COLOUR,
    LABEL_BACKING,
    LOW_COLOUR,
    NEUTRAL_COLOUR,
    PASS_COLOUR,
    RATIO_AXIS_LABEL,
    THRESHOLD_COLOUR,
    axes_or_new,
    characters_across,
    conventions_footnote,
    percent_axis,
    plain_text,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis

#: Font size of the labels at the ends of a tornado's bars. [pt]
_END_FONTSIZE = 8
#: Columns of an analysis table that are results, not varied keys.
_RESULT_COLUMNS = (*RESULT_COLUMNS, "failed_checks")


def _key_label(key: str, known: Any = None, keys: Any = ()) -> str:
    """A varied key in words with its unit as people write it (``% a year``); ``known``: the labels
    an analysis result carries (``attrs["key_labels"]``: with the key's phase,
    netbenefit.analysis.keys.key_label); else tagged with its phase when ``keys`` name a later
    phase's key."""
    if known and key in known:
        return labels.spoken(known[key])
    try:
        return labels.spoken(labels.phase_tagged(key, keys))
    except KeyError:
        return key


def _value(key: str, value: Any) -> str:
    try:
        return labels.value(key, value)
    except KeyError:
        return labels.number(value)


# ----------------------------------------------------------------------------------------------
# Tornado
# ----------------------------------------------------------------------------------------------


@plain_text
def tornado(sensitivity_table: pd.DataFrame, ax: Axes | None = None, *, threshold: bool = True) -> Axes:
    """A tornado chart of a one-way sensitivity table (:func:`~netbenefit.analysis.sensitivity`).

    One horizontal bar per input (its label in words with its unit), from the base ratio to the
    ratio at the input's low value (light) and at its high value (dark), the largest swing at the
    top; each end is labelled with the input's value and the ratio. An end at which the project
    is not eligible (the table's ``eligible_low`` / ``eligible_high``, from the engine) is hatched
    and labelled "not eligible", whatever its ratio. Lines mark the base ratio and the threshold.

    Parameters
    ----------
    sensitivity_table : DataFrame
        Columns ``key``, ``low``, ``high``, ``ratio_low``, ``ratio_high``, ``ratio_base``,
        ``threshold`` (and ``eligible_low``, ``eligible_high``).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    threshold : bool
        Draw the threshold line.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    ax = axes_or_new(ax, (10.0, 0.6 * len(sensitivity_table) + 2.6))
    table = sensitivity_table.iloc[::-1]  # largest swing drawn last, at the top
    positions = np.arange(len(table))
    base = float(table["ratio_base"].iloc[0]) if len(table) else float("nan")
    any_ineligible, extremes, widest = _bars(ax, table, positions, base)
    known, keys = table.attrs.get("key_labels"), list(table["key"])
    ax.set_yticks(positions, [_key_label(key, known, keys) for key in keys], fontsize=9)
    handles: list[Artist] = [
        Patch(color=LOW_COLOUR, label="Input at its low value"),
        Patch(color=HIGH_COLOUR, label="... at its high value"),
    ]
    if any_ineligible:
        handles.append(
            Patch(facecolor="white", edgecolor=FAIL_COLOUR, hatch=FAIL_HATCH, label="Not eligible at that value")
        )
    if len(table):
        ax.axvline(base, color="black", linewidth=1)
        handles.append(Line2D([], [], color="black", linewidth=1, label=f"Base ratio {labels.ratio(base)}"))
    if threshold and "threshold" in table and len(table):
        value = float(table["threshold"].iloc[0])
        extremes.append(value)
        ax.axvline(value, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1.4)
        handles.append(Line2D([], [], color=THRESHOLD_COLOUR, linestyle="--", label=f"Threshold {labels.ratio(value)}"))
    _room_for_end_labels(ax, extremes, widest)
    ax.set_ylim(-0.7, len(table) + 0.6)  # room for the legend above the bars
    percent_axis(ax.xaxis)
    ax.set_xlabel(RATIO_AXIS_LABEL)
    ax.set_ylabel("Input varied (one at a time)")
    ax.set_title("One-way sensitivity of the net benefit ratio")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(handles=handles, loc="upper center", fontsize=8, ncols=3, framealpha=0.95)
    conventions_footnote(sensitivity_table, ax)
    return ax


def _bars(
    ax: Axes, table: pd.DataFrame, positions: np.ndarray, base: float
) -> tuple[bool, list[float], dict[bool, int]]:
    """A tornado's bars, from the base ratio to each end, and each end's label: whether an end is
    not eligible, the ratios the axis must hold, the longest label right and left of the bars."""
    any_ineligible = False
    extremes = [base]
    widest = {True: 0, False: 0}  # the longest label right and left of the bars [characters]
    for y, row in zip(positions, table.to_dict("records"), strict=True):
        ends = []
        for end, colour in (("low", LOW_COLOUR), ("high", HIGH_COLOUR)):
            ratio = float(row[f"ratio_{end}"])
            eligible = bool(row.get(f"eligible_{end}", True))
            any_ineligible |= not eligible
            extremes.append(ratio)
            ax.barh(
                y,
                ratio - base,
                left=base,
                height=0.6,
                color=colour,
                hatch=None if eligible else FAIL_HATCH,
                edgecolor="white" if eligible else FAIL_COLOUR,
                linewidth=0.8 if eligible else 1.5,
            )
            text = f"{_value(row['key'], row[end])}: {labels.ratio(ratio)}"
            ends.append((ratio, text + ("" if eligible else ", not eligible"), eligible))
        for ratio, text, eligible, right in _end_labels(ends, base):
            widest[right] = max(widest[right], len(text))
            ax.annotate(
                text,
                (ratio, y),
                xytext=(4 if right else -4, 0),
                textcoords="offset points",
                va="center",
                ha="left" if right else "right",
                fontsize=_END_FONTSIZE,
                color="black" if eligible else "#a34700",
                fontweight="normal" if eligible else "bold",
                **LABEL_BACKING,  # the base and threshold lines may pass behind it
            )
    return any_ineligible, extremes, widest


def _room_for_end_labels(ax: Axes, extremes: list[float], widest: dict[bool, int]) -> None:
    """The ratio axis's limits: every ratio shown, with room for the end labels beside the bars."""
    finite = [v for v in extremes if np.isfinite(v)]
    if finite:
        low, high = min(finite), max(finite)
        span = high - low if high > low else 1.0
        # Room for the end labels: a label of n characters takes n / across of the Axes' width.
        across = characters_across(ax, _END_FONTSIZE, share=0.55)  # the tick labels take the rest
        left, right = ((widest[side] + 2) / across for side in (False, True))
        inner = max(0.2, 1.0 - left - right)  # the share of the width left for the bars
        ax.set_xlim(low - span * left / inner, high + span * right / inner)


def _end_labels(ends: list, base: float) -> list:
    """``(ratio, text, eligible, right)`` of the labels of a tornado bar's two ends: each outside
    its end, or, when both ends fall on one side of the base (or on it), one label with both at
    the outer end, so that the two never overprint."""
    (low, low_text, low_ok), (high, high_text, high_ok) = ends
    tolerance = 1e-9 * max(1.0, abs(base))
    side_low = 0 if abs(low - base) <= tolerance else (1 if low > base else -1)
    side_high = 0 if abs(high - base) <= tolerance else (1 if high > base else -1)
    if side_low * side_high < 0:  # one end on each side
        return [(low, low_text, low_ok, low > base), (high, high_text, high_ok, high > base)]
    side = side_low or side_high or 1
    outer = max((low, high), key=lambda r: side * (r - base))
    return [(outer, f"{low_text}; {high_text}", low_ok and high_ok, side > 0)]


# ----------------------------------------------------------------------------------------------
# Sweeps
# ----------------------------------------------------------------------------------------------


def sweep_keys(table: pd.DataFrame) -> list[str]:
    """The varied keys of a sweep table (its columns that are not results)."""
    return [column for column in table.columns if column not in _RESULT_COLUMNS]


@plain_text
def sweep(
    table: pd.DataFrame,
    x: str | None = None,
    y: str | None = None,
    ax: Axes | None = None,
    *,
    where: dict[str, Any] | None = None,
) -> Axes:
    """The net benefit ratio against one or two varied keys of a sweep, the threshold drawn.

    One key: the ratio as a line over the key's values, passing points blue circles, failing ones
    orange crosses, points where the project is not eligible ringed; the threshold dashed. Two
    keys: a map of the ratio over the grid, the cells that fail hatched and the threshold as a
    contour line. The passes and eligibility are the sweep's columns, not computed here.

    Parameters
    ----------
    table : DataFrame
        :func:`netbenefit.analysis.sweep` (or :func:`~netbenefit.analysis.evaluate_variants`).
    x, y : str, optional
        The keys on the axes; default the first (and second) varied key. Any other varied key
        must hold one value in the table: select it with ``where``.
    ax : matplotlib Axes, optional
    where : dict, optional
        ``{key: value}``: draw only the rows where each of these keys has that value (e.g. the
        third key of a three-key sweep).

    Returns
    -------
    matplotlib.axes.Axes
    """
    if where:
        conventions = table.attrs.get("conventions")
        for key, value in where.items():
            if key not in table.columns:
                raise ValueError(f"{key!r} is not a column of the table")
            table = table[table[key] == value]
        if table.empty:
            raise ValueError(f"no row of the table has {where}")
        table = table.drop(columns=list(where))
        if conventions is not None:
            table.attrs["conventions"] = conventions
    keys = sweep_keys(table)
    x = x or (keys[0] if keys else None)
    if x is None:
        raise ValueError("the table has no varied key to draw")
    if y is None and len(keys) > 1 and x == keys[0]:
        y = keys[1]
    others = [k for k in keys if k not in (x, y) and table[k].nunique() > 1]
    if others:
        raise ValueError(f"the keys {others} vary too: choose one value of each with where={{key: value}}")
    ax = axes_or_new(ax, (10.0, 5.5))
    threshold = float(table["threshold"].iloc[0])
    if y is None:
        _sweep_line(table, x, threshold, ax)
    else:
        _sweep_map(table, x, y, threshold, ax)
    conventions_footnote(table, ax)
    return ax


def _format_axis(axis: Axis, key: str) -> None:
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: _value(key, value)))


def _sweep_line(table: pd.DataFrame, x: str, threshold: float, ax: Axes) -> None:
    ordered = table.sort_values(x)
    values = ordered[x].to_numpy(dtype=float)
    ratios = ordered["ratio"].to_numpy(dtype=float)
    passes = ordered["passes"].to_numpy(dtype=bool)
    eligible = ordered["eligible"].to_numpy(dtype=bool)
    ax.plot(values, ratios, color=NEUTRAL_COLOUR, linewidth=1.2, zorder=1)
    ax.scatter(values[passes], ratios[passes], marker="o", color=PASS_COLOUR, zorder=3, label="Net benefit test passes")
    ax.scatter(
        values[~passes],
        ratios[~passes],
        marker="X",
        s=60,
        color=FAIL_COLOUR,
        edgecolor="black",
        linewidth=0.5,
        zorder=3,
        label="Net benefit test fails",
    )
    if (~eligible).any():
        ax.scatter(
            values[~eligible],
            ratios[~eligible],
            marker="o",
            s=160,
            facecolor="none",
            edgecolor="black",
            zorder=2,
            label="Not eligible (a check fails)",
        )
    ax.axhline(
        threshold, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1.5, label=f"Threshold {labels.ratio(threshold)}"
    )
    _format_axis(ax.xaxis, x)
    percent_axis(ax.yaxis)
    finite = ratios[np.isfinite(ratios)]
    top = max(float(finite.max(initial=threshold)), threshold)
    bottom = min(float(finite.min(initial=0.0)), 0.0)
    ax.set_ylim(bottom, top + 0.35 * (top - bottom))
    known = table.attrs.get("key_labels")
    ax.set_xlabel(_key_label(x, known))
    ax.set_ylabel(RATIO_AXIS_LABEL)
    ax.set_title(f"Net benefit ratio against {labels.varied_short_label(x, known)}")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=8.5, framealpha=0.9)


def _sweep_map(table: pd.DataFrame, x: str, y: str, threshold: float, ax: Axes) -> None:
    grid = table.pivot_table(index=y, columns=x, values="ratio", aggfunc="first")
    passes = table.pivot_table(index=y, columns=x, values="passes", aggfunc="first").astype(bool)
    xs, ys = grid.columns.to_numpy(dtype=float), grid.index.to_numpy(dtype=float)
    ratios = grid.to_numpy(dtype=float)
    image = ax.pcolormesh(
        np.arange(len(xs) + 1) - 0.5, np.arange(len(ys) + 1) - 0.5, ratios, cmap="Blues", shading="flat"
    )
    colourbar = ax.figure.colorbar(image, ax=ax)
    colourbar.set_label("Net benefit ratio [%]")
    from matplotlib.ticker import FuncFormatter

    colourbar.ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.0%}"))
    colourbar.ax.axhline(threshold, color=THRESHOLD_COLOUR, linewidth=2)
    failing = ~passes.to_numpy()
    from matplotlib.patches import Patch, Rectangle

    for (row, column), fails in np.ndenumerate(failing):
        if fails:
            ax.add_patch(
                Rectangle(
                    (column - 0.5, row - 0.5),
                    1,
                    1,
                    facecolor="none",
                    edgecolor=FAIL_COLOUR,
                    hatch=FAIL_HATCH,
                    linewidth=0,
                )
            )
    for (row, column), ratio in np.ndenumerate(ratios):
        dark = np.isfinite(ratio) and ratio > np.nanmean(ratios)
        ax.text(
            column, row, labels.ratio(ratio), ha="center", va="center", fontsize=7.5, color="white" if dark else "black"
        )
    handles: list[Artist] = [
        Patch(facecolor="white", edgecolor=FAIL_COLOUR, hatch=FAIL_HATCH, label="Net benefit test fails")
    ]
    if len(xs) > 1 and len(ys) > 1 and np.nanmin(ratios) < threshold < np.nanmax(ratios):
        ax.contour(
            np.arange(len(xs)),
            np.arange(len(ys)),
            ratios,
            levels=[threshold],
            colors=THRESHOLD_COLOUR,
            linewidths=2,
            linestyles="--",
        )
        from matplotlib.lines import Line2D

        handles.append(
            Line2D([], [], color=THRESHOLD_COLOUR, linestyle="--", label=f"Threshold {labels.ratio(threshold)}")
        )
    ax.set_xticks(range(len(xs)), [_value(x, v) for v in xs], fontsize=8)
    ax.set_yticks(range(len(ys)), [_value(y, v) for v in ys], fontsize=8)
    known = table.attrs.get("key_labels")
    ax.set_xlabel(_key_label(x, known))
    ax.set_ylabel(_key_label(y, known))
    names = (labels.varied_short_label(x, known), labels.varied_short_label(y, known))
    ax.set_title(f"Net benefit ratio over {names[0]} and {names[1]}")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, 1.0), fontsize=8, framealpha=0.9)
