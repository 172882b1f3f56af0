"""Charts of evaluated scenarios: one result, or several compared."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ... import labels
from ...labels import ratio_verdict
from ..decision_words import deciding_label
from .cumulative import cumulative_pv, shade_uncounted_years
from .schedules import benefits_by_tax, clawback_schedule
from .style import (
    FAIL_COLOUR,
    FAIL_HATCH,
    LABEL_BACKING,
    PASS_COLOUR,
    RATIO_AXIS_LABEL,
    THRESHOLD_COLOUR,
    axes_or_new,
    conventions_footnote,
    figure_size,
    label_every,
    money_axis,
    new_figure,
    percent_axis,
    plain_text,
    scenario_label,
    text_width,
    verdict,
    wrapped_lines,
    year_axis,
)

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ...model.result import Result

#: Categories of :func:`benefit_streams`, bottom to top, with their colours.
STREAM_CATEGORIES = (
    ("operations", "direct", "Operations, direct", "#1f77b4"),
    ("operations", "indirect_and_induced", "Operations, indirect and induced", "#9ecae1"),
    ("construction", "direct", "Construction (one-time), direct", "#8c564b"),
    ("construction", "indirect_and_induced", "Construction (one-time), indirect and induced", "#d7b5a6"),
    ("explicit", None, "Explicit streams", "#2ca02c"),
)
COST_LABEL, COST_COLOUR = "Costs to the State", "#d62728"


# --- one scenario -----------------------------------------------------------------------------


def stream_categories(result: Result):
    """Counted amounts of ``result.streams`` summed by year and chart category.

    Returns
    -------
    pandas.DataFrame
        Index: project year; one column per category of :data:`STREAM_CATEGORIES` that has a
        counted revenue, then :data:`COST_LABEL` (negative) if the scenario has costs. [USD, nominal]
    """
    streams = result.streams
    years = result.cashflows.index
    columns = {}
    revenue = streams[streams["kind"] == "revenue"]
    for source, effect, label, _ in STREAM_CATEGORIES:
        rows = revenue[(revenue["source"] == source) & ((revenue["effect"] == effect) if effect else True)]
        if not rows.empty and (rows["counted"] != 0).any():
            columns[label] = rows.groupby("year")["counted"].sum().reindex(years, fill_value=0.0)
    costs = streams[streams["kind"] == "cost"]
    if not costs.empty and (costs["counted"] != 0).any():
        columns[COST_LABEL] = costs.groupby("year")["counted"].sum().reindex(years, fill_value=0.0)
    import pandas as pd

    return pd.DataFrame(columns, index=years)


@plain_text
def benefit_streams(result: Result, ax: Axes | None = None) -> Axes:
    """Counted benefits by year, stacked by kind: operations, one-time construction, explicit.

    Bars from ``result.streams`` (the ``counted`` amounts: inside the benefit window, weighted,
    abated streams left out under 71(a)(5)(e)); operations and construction are split into
    direct and indirect-and-induced effects; costs to the State are drawn below zero. A line
    shows the counted net benefits of each year (``result.cashflows``). Amounts are nominal,
    not discounted. Years after the benefit window are shaded, as in :func:`cumulative_pv`.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figure_size("benefit_streams", result))
    table = stream_categories(result)
    years = table.index.to_numpy()
    colours = {label: colour for *_, label, colour in STREAM_CATEGORIES} | {COST_LABEL: COST_COLOUR}
    bottom = np.zeros(len(years))
    for label in table.columns:
        values = table[label].to_numpy()
        if label == COST_LABEL:
            ax.bar(years, values, width=0.75, color=colours[label], label=label)
        else:
            ax.bar(years, values, width=0.75, bottom=bottom, color=colours[label], label=label)
            bottom = bottom + values
    net = result.cashflows["counted_net_benefits"].to_numpy()
    ax.plot(years, net, color="black", marker="o", markersize=4, linewidth=1.4, label="Counted net benefits")
    ax.axhline(0, color="black", linewidth=0.8)
    shade_uncounted_years(ax, result)  # uncounted years shaded as in cumulative_pv, not drawn as zero bars alone
    year_axis(ax, years)
    scale = float(max(np.abs(bottom).max(initial=0.0), np.abs(net).max(initial=0.0)))
    money_axis(ax.yaxis, scale)
    ax.set_ylabel("Counted amount in the year [USD, nominal]")
    excluded = ""
    if result.excluded_streams:
        excluded = f"; excluded as abated, 71(a)(5)(e): {', '.join(result.excluded_streams)}"
    ax.set_title(
        f"{scenario_label(result.name, width=70, lines=1)}\n"
        f"Benefits to the State by year, counted in the window{excluded}",
        fontsize=11,
    )
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8, framealpha=0.9)
    if len(table.columns):
        ax.set_ylim(top=scale * 1.45 if scale else 1.0)  # room for the legend above the bars
    conventions_footnote(result, ax)
    return ax


def _phase_label(phases) -> str:
    phases = list(phases)
    return f"Phase {phases[0]}" if len(phases) == 1 else f"Phases {phases[0]}-{phases[-1]}"


@plain_text
def phase_ratios(result: Result, ax: Axes | None = None) -> Axes:
    """The net benefit ratio of the initial phase, then of phases 1..k cumulatively, 71(a)(5).

    One bar per row of ``result.phase_tests``, blue when that cumulative test passes, orange
    and hatched when it fails, against the threshold line. A project passes 71(a)(5) only when
    every cumulative test passes.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figure_size("phase_ratios", result))
    tests = result.phase_tests
    labels = [_phase_label(p) for p in tests["phases"]]
    crowded = label_every(ax, len(labels), max(map(len, labels), default=0), 10) > 1
    if crowded:  # many phases: "1-12" under the bars, "Phases" in the axis label
        labels = [_phase_label(p).split(" ", 1)[1] for p in tests["phases"]]
    positions = np.arange(len(tests))
    ratios = tests["ratio"].to_numpy()
    for position, ratio, passes in zip(positions, ratios, tests["passes"], strict=True):
        ax.bar(
            position,
            ratio,
            width=0.6,
            color=PASS_COLOUR if passes else FAIL_COLOUR,
            hatch=None if passes else FAIL_HATCH,
            edgecolor="white" if passes else "black",
        )
        written, _ = ratio_verdict(ratio, result.threshold, bool(passes), 0)  # true of the verdict
        ax.annotate(
            f"{written}{chr(10) if crowded else ' '}{verdict(passes)}",
            (position, max(ratio, 0.0)),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=9,
            **LABEL_BACKING,  # the threshold line may pass behind it
        )
    threshold = ax.axhline(
        result.threshold,
        color=THRESHOLD_COLOUR,
        linestyle="--",
        linewidth=1.6,
        label=f"Threshold {result.threshold:.0%} ({result.threshold_clause})",
    )
    from matplotlib.patches import Patch

    handles = [
        Patch(color=PASS_COLOUR, label="Cumulative test passes"),
        Patch(facecolor=FAIL_COLOUR, hatch=FAIL_HATCH, edgecolor="black", label="Cumulative test fails"),
        threshold,
    ]
    ax.set_xticks(positions, labels)
    ax.set_xlim(-0.7, len(tests) - 0.3)
    percent_axis(ax.yaxis)
    bottom = min(float(np.nanmin(ratios)), 0.0) * 1.15  # a negative ratio: net costs to the State
    top = max(float(np.nanmax(ratios)), result.threshold)
    ax.set_ylim(bottom, top + 0.3 * (top - bottom))  # room for the legend above the bars and the threshold
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel(
        "Cumulative test: phases 1 to k, counted from the initial phase"
        if crowded
        else "Cumulative test, phases counted from the initial phase"
    )
    ax.set_ylabel("Each test's ratio, its PV benefits / its PV credits [%]")
    ax.set_title(
        f"{scenario_label(result.name, width=70, lines=1)}\nPhase-by-phase cumulative net benefit test, 71(a)(5): "
        f"{verdict(result.passes)}"
    )
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles=handles, loc="upper right", fontsize=8.5, framealpha=0.9)
    conventions_footnote(result, ax)
    return ax


def repayment_note(result: Result) -> str | None:
    """The one sentence the repayment chart shows when there is nothing to repay, else None."""
    schedule = result.repayment_schedule
    if schedule.empty:
        return "No extended commitment elected: nothing to repay."
    if (schedule["repayment"] > 0).any():
        return None
    if not result.extension_counted:
        reason = f"(an extension is not counted under the {result.threshold_clause} test)"
    elif result.passes:
        reason = "(the project passes without the extension)"
    else:
        reason = "(the project fails the test even with the extension counted)"
    elected = labels.years(result.extended_years)
    return f"{elected} of extended commitment elected, but the incremental credit is $0 {reason}: nothing to repay."


#: The sentence of each chart that can have nothing to show (a page shows it in the chart's place).
CHART_NOTES = {"repayment_schedule": repayment_note}


def chart_note(chart: str, result: Result) -> str | None:
    """The one sentence that replaces ``chart`` of ``result`` when it has nothing to show, else None."""
    note = CHART_NOTES.get(chart)
    return note(result) if note is not None else None


@plain_text
def repayment_schedule(result: Result, ax: Axes | None = None) -> Axes:
    """Repayment owed if the project is not maintained through the extended commitment, 71(a)(5)(d).

    One bar per row of ``result.repayment_schedule``: the repayment owed after maintaining the
    project through m of the extended years. A scenario without an extended commitment (or one
    whose incremental credit is zero) gives an empty chart with a note saying why.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figure_size("repayment_schedule", result))
    schedule = result.repayment_schedule
    ax.set_xlabel("Extended-commitment years maintained [year]")
    ax.set_ylabel("Repayment owed [USD, nominal]")
    ax.set_title(
        f"{scenario_label(result.name, width=70, lines=1)}\nRepayment schedule, extended commitment, 71(a)(5)(d)"
    )
    note = repayment_note(result)
    if note:
        note = note.replace(" (", "\n(", 1)
        ax.text(0.5, 0.5, note, transform=ax.transAxes, ha="center", va="center", fontsize=11, color="#444444")
        ax.set_xticks([])
        ax.set_yticks([])
        conventions_footnote(result, ax)
        return ax
    years = schedule["years_maintained"].to_numpy()
    repayment = schedule["repayment"].to_numpy()
    ax.bar(years, repayment, width=0.6, color=FAIL_COLOUR, label="Repayment owed")
    scale = float(repayment.max())
    for year, amount in zip(years, repayment, strict=True):
        ax.annotate(
            labels.money(amount, scale),
            (year, amount),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            fontsize=9,
        )
    ax.set_xticks(years)
    ax.set_xlim(years.min() - 0.6, years.max() + 0.6)
    money_axis(ax.yaxis, scale)
    ax.set_ylim(0, scale * 1.25)
    ax.plot(
        [],
        [],
        " ",
        label=f"Incremental credit {labels.money(result.incremental_credit, scale)} over "
        f"{labels.years(result.extended_years)} of extended commitment",
    )
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8.5, framealpha=0.9)
    conventions_footnote(result, ax)
    return ax


@plain_text
def scorecard(result: Result, ax: Axes | None = None) -> Axes:
    """The eligibility scorecard: each s.71 check of ``result.checks``, passed or failed.

    One row per check, top to bottom in statute order: its clause id on the vertical axis, a
    blue "PASS" or an orange hatched "FAIL" bar, and the start of the check's message.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, figure_size("scorecard", result))
    checks = result.checks
    rows = np.arange(len(checks))[::-1]
    for row, check in zip(rows, checks.itertuples(index=False), strict=True):
        ax.barh(
            row,
            1.0,
            height=0.8,
            color=PASS_COLOUR if check.passed else FAIL_COLOUR,
            hatch=None if check.passed else FAIL_HATCH,
            edgecolor="white" if check.passed else "black",
            alpha=0.25 if check.passed else 0.45,
        )
        ax.text(0.01, row, "PASS" if check.passed else "FAIL", va="center", fontsize=9, fontweight="bold")
        message = "\n".join(wrapped_lines(check.message, 125, 3, " ..."))
        ax.text(0.08, row, message, va="center", fontsize=7.5)
    ax.set_yticks(rows, list(checks["id"]))
    ax.set_ylim(-0.6, len(checks) - 0.4)
    ax.set_xlim(0, 1)
    ax.set_xticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel("Check result and message")
    ax.set_ylabel("Clause of P.L.2020, c.156 (s.71; s.75)")
    passed = int(checks["passed"].sum())
    ax.set_title(
        f"{scenario_label(result.name, width=70, lines=1)}\n"
        f"Eligibility scorecard: {passed} of {len(checks)} checks pass; "
        f"{'ELIGIBLE' if result.eligible else 'NOT ELIGIBLE'}"
    )
    conventions_footnote(result, ax)
    return ax


# --- several scenarios ------------------------------------------------------------------------


@plain_text
def compare_ratios(results: Sequence[Result], ax: Axes | None = None) -> Axes:
    """Net benefit ratio of each scenario against its own threshold, sorted, pass or fail.

    One horizontal bar per result, highest ratio at the top: blue when the net benefit test
    passes, orange and hatched when it fails. A black tick on each bar marks that scenario's
    threshold (400%, 300% or 200%, or an override). The label at the end of each bar gives the
    ratio and threshold, and says when the scenario is not eligible for another reason. Long
    names are wrapped to two lines.

    Parameters
    ----------
    results : sequence of Result
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure, its height growing with the number of results, when omitted.

    Returns
    -------
    matplotlib.axes.Axes
    """
    results = list(results)
    ax = axes_or_new(ax, figure_size("compare_ratios", results))
    # The deciding test's ratio (a phased project's lowest cumulative test; the whole project's otherwise).
    ordered = sorted(results, key=lambda r: r.deciding_test.value)  # barh draws bottom-up: highest at the top
    rows = np.arange(len(ordered))
    names = [scenario_label(r.name) for r in ordered]  # never cut inside a word
    ratios = np.array([r.deciding_test.value for r in ordered])
    ends = []  # (where each label starts [ratio], its width [pt])
    for row, result in zip(rows, ordered, strict=True):
        ax.barh(
            row,
            result.deciding_test.value,
            height=0.65,
            color=PASS_COLOUR if result.passes else FAIL_COLOUR,
            hatch=None if result.passes else FAIL_HATCH,
            edgecolor="white" if result.passes else "black",
        )
        text = deciding_label(result)  # the deciding test, true to its verdict; other failed checks named
        ends.append((max(result.deciding_test.value, result.threshold), text_width(text, 8.5)))
        ax.annotate(
            text,
            (max(result.deciding_test.value, result.threshold), row),  # past the threshold tick, never over it
            xytext=(7, 0),
            textcoords="offset points",
            va="center",
            fontsize=8.5,
        )
    thresholds = np.array([r.threshold for r in ordered])
    ax.scatter(thresholds, rows, marker="|", s=500, linewidths=2.5, color=THRESHOLD_COLOUR, zorder=3)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [
        Patch(color=PASS_COLOUR, label="Net benefit test passes"),
        Patch(facecolor=FAIL_COLOUR, hatch=FAIL_HATCH, edgecolor="black", label="Net benefit test fails"),
        Line2D(
            [],
            [],
            marker="|",
            markersize=16,
            markeredgewidth=2.5,
            linestyle="",
            color=THRESHOLD_COLOUR,
            label="The scenario's own threshold",
        ),
    ]
    ax.set_yticks(rows, names, fontsize=9)
    ax.set_ylim(-0.6, len(ordered) - 0.4 + (0.9 if len(ordered) > 2 else 0.5))
    right = float(max(ratios.max(initial=0.0), thresholds.max(initial=0.0)))
    left = float(min(ratios.min(initial=0.0), 0.0))  # a negative ratio: net costs to the State
    # Room for each label past its bar, measured in the house font: the Axes take the figure's width
    # less the names, the axis label and the margins; the right limit x leaves each label its share,
    # (x - start) / (x - low) >= width / the Axes' width.
    axes_width = ax.figure.get_figwidth() * 72 - max((text_width(n, 9) for n in names), default=0.0) - 60
    low, high = left * 1.15, right * 1.1
    for start, length in ends:
        needed = min(0.75, (length + 12) / max(axes_width, 1.0))
        high = max(high, (start - needed * low) / (1 - needed))
    ax.set_xlim(low, high)
    ax.axvline(0, color="black", linewidth=0.8)
    percent_axis(ax.xaxis)
    ax.set_xlabel(RATIO_AXIS_LABEL)
    ax.set_ylabel("Scenario")
    passed = sum(r.passes for r in results)
    ax.set_title(f"Net positive benefit test, 71(a)(5): {passed} of {len(results)} scenarios pass")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(handles=handles, loc="upper right", fontsize=8.5, framealpha=0.95, ncols=3)
    conventions_footnote(results, ax)
    return ax


#: The per-scenario charts, by name, for tools that draw them all (``Result.plot(kind=...)``).
SCENARIO_CHARTS = {
    "cumulative_pv": cumulative_pv,
    "benefit_streams": benefit_streams,
    "benefits_by_tax": benefits_by_tax,
    "phase_ratios": phase_ratios,
    "repayment_schedule": repayment_schedule,
    "clawback_schedule": clawback_schedule,
    "scorecard": scorecard,
}


def meaningful_charts(result: Result) -> list[str]:
    """Names of the per-scenario charts worth drawing for ``result``: the phase chart only for a
    phased project, the repayment chart only when an extended commitment is elected, the charts of
    benefits by tax and of the clawback schedule only when the result has them."""
    names = ["cumulative_pv", "benefit_streams"]
    if "tax" in result.streams.columns:
        names.append("benefits_by_tax")
    if len(result.phase_tests) > 1:
        names.append("phase_ratios")
    if result.extended_years > 0:
        names.append("repayment_schedule")
    if result.clawback_schedule is not None and not result.clawback_schedule.empty:
        names.append("clawback_schedule")
    names.append("scorecard")
    return names


@plain_text
def draw(chart: str, results, *, size: tuple[float, float] | None = None) -> Figure:
    """A new pyplot-free figure with ``chart`` (a key of :data:`SCENARIO_CHARTS` or
    ``"compare_ratios"``) drawn for ``results``."""
    function = compare_ratios if chart == "compare_ratios" else SCENARIO_CHARTS[chart]
    figure, ax = new_figure(size or figure_size(chart, results))
    function(results, ax=ax)
    return figure
