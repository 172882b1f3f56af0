"""The cumulative present value chart: the test that decides 71(a)(5), year by year.

:func:`cumulative_pv` draws the cumulative PV of the counted net benefits of the test that decides
(``Result.deciding_test_cumulative_pv``: the whole project's for a project without later phases;
phases 1..k of the deciding test otherwise), the PV of that test's requested credits and the
threshold multiple of it, so that the year the benefits reach the line is
``Result.first_year_test_met`` and the ratio in the title is the one the benefits end at. The
explorer (:class:`netbenefit.views.live_chart.LiveChart`) updates the same artists with
:func:`cumulative_pv_values`, :func:`cumulative_pv_labels` and :func:`cumulative_pv_title`, so
that a chart updated after a move says what a chart drawn anew says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..decision_words import deciding_name, deciding_ratio, phased, verdict_word
from .style import (
    LABEL_BACKING,
    PASS_COLOUR,
    THRESHOLD_COLOUR,
    axes_or_new,
    conventions_footnote,
    figure_size,
    money_axis,
    plain_text,
    scenario_label,
    year_axis,
)

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.axes import Axes

    from ...model.result import Result

#: Colour of the line of the requested credits.
CREDITS_COLOUR = "#555555"
#: Colour of the line marking the year the benefits reach the threshold multiple.
MET_COLOUR = "#2ca02c"


def weight_columns(result: Result, *, deciding: bool = False) -> list[str]:
    """The cash-flow columns that weigh each phase's benefits (``weight``, ``weight_phase_2``...):
    every phase's, or with ``deciding`` those of the phases of the test that decides."""
    columns = [c for c in result.cashflows.columns if c == "weight" or c.startswith("weight_phase_")]
    if not deciding:
        return columns
    phases = set(result.deciding_phases)
    return [c for c in columns if (1 if c == "weight" else int(c.rsplit("_", 1)[1])) in phases]


def in_benefit_window(result: Result, *, deciding: bool = False) -> np.ndarray:
    """Whether each project year of ``result.cashflows`` is inside the benefit window (some phase
    weighs it; with ``deciding``, some phase of the test that decides), as booleans in the order of
    the years."""
    return (result.cashflows[weight_columns(result, deciding=deciding)] > 0).any(axis=1).to_numpy()


def shade_uncounted_years(ax: Axes, result: Result, *, deciding: bool = False) -> None:
    """Shade the project years after the benefit window (no phase weighs them; with ``deciding``, no
    phase of the deciding test), alike in every chart by year, with the words "after the benefit
    window"."""
    years = result.cashflows.index.to_numpy()
    in_window = in_benefit_window(result, deciding=deciding)
    if in_window.all():
        return
    after = years[~in_window]
    ax.axvspan(after.min() - 0.5, after.max() + 0.5, color="#dddddd", alpha=0.6, zorder=0)
    ax.text(
        after.min() - 0.4,
        0.02,
        "after the benefit window",
        transform=ax.get_xaxis_transform(),
        fontsize=8,
        **LABEL_BACKING,
    )


def cumulative_pv_values(result: Result) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(years, benefits, credits, multiple)`` of the chart: the cumulative PV of the counted net
    benefits of the test that decides, by project year; the PV of that test's requested credits and
    the threshold times it, as lines level over the years. [USD, PV at approval]"""
    years = result.cashflows.index.to_numpy()
    benefits, credits = result.deciding_test_cumulative_pv()
    level = np.full(len(years), float(credits))
    return years, np.asarray(benefits, dtype=float), level, result.threshold * level


def cumulative_pv_labels(result: Result) -> tuple[str, str, str, str]:
    """The legend's words: the benefits, the credits, the threshold multiple, and the year the
    benefits reach it (or that they never do); for a phased project each names the test that
    decides (``phases 1+2``)."""
    name = deciding_name(result)
    of = f", {name}" if name else ""
    threshold = f"{result.threshold:.0%}"
    met = result.first_year_test_met
    reach = (
        f"The benefits reach {threshold} of the credits: year {met}"
        if met is not None
        else (f"The benefits never reach {threshold} of the credits")
    )
    return (
        f"Cumulative PV of net benefits{of}{' (the test that decides)' if name else ''}",
        f"PV of requested credits{of}",
        f"{threshold} of the PV of requested credits ({result.threshold_clause})",
        reach,
    )


def cumulative_pv_title(result: Result) -> str:
    """The chart's title: the scenario's name, then the deciding test's ratio against the threshold,
    written true to its verdict (``Net benefit ratio 492% vs 400% threshold: passes``; for a phased
    project ``Deciding test, phase 1 alone: 259% vs 300% threshold: fails (the lowest of 2
    cumulative tests)``)."""
    value, threshold = deciding_ratio(result, 0)
    test = f"{value} vs {threshold} threshold: {verdict_word(bool(result.deciding_test.holds))}"
    if phased(result):
        tests = len(result.net_benefit_decision.comparisons)
        test = f"Deciding test, {deciding_name(result)}: {test} (the lowest of {tests} cumulative tests)"
    else:
        test = f"Net benefit ratio {test}"
    return f"{scenario_label(result.name, width=70, lines=1)}\n{test}"


def cumulative_pv_note(result: Result) -> str:
    """What the footnote adds to the conventions for a phased project: which test the lines are, and
    the whole project's ratio beside it ("" for a project without later phases)."""
    if not phased(result):
        return ""
    return (
        f"The lines are those of the test that decides 71(a)(5), {deciding_name(result)}; the whole project's "
        f"ratio (every phase) is {result.whole_project_ratio:.1%}."
    )


@plain_text
def cumulative_pv(result: Result, ax: Axes | None = None) -> Axes:
    """Cumulative present value of the net benefits of the test that decides 71(a)(5), year by year,
    against the threshold multiple of that test's credits.

    Three lines from :meth:`Result.deciding_test_cumulative_pv`: the cumulative PV of counted net
    benefits, the PV of the requested credits, and the threshold multiple of the latter (e.g. 400%
    of the PV of the credits), level over the years: the test compares the benefits at the end of
    the window with it. A vertical line marks the first year by which the benefits reach it
    (``result.first_year_test_met``), if they ever do. For a phased project the lines are those of
    the deciding test (phases 1..k), named in the legend; the footnote gives the whole project's
    ratio. Years after the test's benefit window are shaded.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figure_size("cumulative_pv", result))
    years, benefits, credits, multiple = cumulative_pv_values(result)
    words = cumulative_pv_labels(result)
    ax.plot(years, benefits, marker="o", color=PASS_COLOUR, linewidth=2.2, label=words[0])
    ax.plot(years, credits, color=CREDITS_COLOUR, linewidth=1.8, label=words[1])
    ax.plot(years, multiple, linestyle="--", color=THRESHOLD_COLOUR, linewidth=1.6, label=words[2])
    shade_uncounted_years(ax, result, deciding=True)
    met = result.first_year_test_met
    if met is not None:
        ax.axvline(met, color=MET_COLOUR, linestyle=":", linewidth=1.8, label=words[3])
    else:
        ax.plot([], [], " ", label=words[3])
    year_axis(ax, years)
    top = float(np.nanmax(np.concatenate([benefits, multiple, credits])))
    money_axis(ax.yaxis, top)
    ax.set_ylim(min(0.0, float(np.nanmin(benefits)) * 1.1), top * 1.4)  # room for the legend above the lines
    ax.set_ylabel("Cumulative present value at approval [USD]")
    ax.set_title(cumulative_pv_title(result))
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8.5, framealpha=0.9)
    conventions_footnote(result, ax, extra=cumulative_pv_note(result))
    return ax
