"""Charts of a Monte Carlo run: the distribution of the deciding test's ratio over the draws, and the
percentile bands of the cumulative present value (fan).

Each takes a result of :mod:`netbenefit.analysis` and an optional ``ax=``, draws it and returns the
Axes. The verdicts, the probability of passing and the percentiles come from the analysis engine;
no chart compares a ratio with a threshold. Re-exported by :mod:`netbenefit.views.charts.analysis`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import labels
from .style import (
    NEUTRAL_COLOUR,
    PASS_COLOUR,
    RATIO_AXIS_LABEL,
    THRESHOLD_COLOUR,
    axes_or_new,
    conventions_footnote,
    money_axis,
    pass_fail,
    percent_axis,
    plain_text,
    points_axis,
    scenario_label,
    set_title,
    year_axis,
)

#: Varied keys named in a title; with more, the title counts them and the footnote names them.
KEYS_NAMED_IN_TITLE = 3  # not a statutory number: what a title line holds


# ----------------------------------------------------------------------------------------------
# Monte Carlo
# ----------------------------------------------------------------------------------------------


@plain_text
def montecarlo_distribution(run, ax: Any = None, *, bins: int = 40):
    """The distribution of the net benefit ratio of the test that decides 71(a)(5), over the draws of
    a Monte Carlo run.

    A histogram of each draw's ``ratio`` (the deciding test's, as ``Result.ratio``) against the
    threshold line, each draw coloured by its own verdict (``passes``: blue, orange and hatched where
    it fails): the bin across the line is split where the draws' verdicts split, so that no failing
    draw is drawn right of the line and no passing one left of it. Where the draws' thresholds differ
    (a varied location), each draw's margin over its own threshold is drawn, against 0. A box gives the
    probability of passing the net benefit test, the probability of eligibility and the check that
    the most draws fail (a draw can pass the ratio and fail another check: the box names it). All
    the numbers come from the draws and ``run.summary``
    (:class:`~netbenefit.analysis.MonteCarloSummary`); a run without its draws (``keep_draws=False``)
    is drawn as its percentiles.

    Parameters
    ----------
    run : MonteCarloResult
    ax : matplotlib Axes, optional
    bins : int
        Number of bins of the histogram.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, (10.0, 5.5))
    summary = run.summary
    threshold = summary.threshold
    if run.draws is not None and "threshold" in run.draws and not np.isfinite(threshold):
        threshold = float(run.draws["threshold"].iloc[0])
    margins = False  # the draws' thresholds differ: each draw's margin over its own, against 0
    if run.draws is not None:
        margins = _draw_histogram(ax, run.draws, threshold, bins)
    else:
        levels = list(summary.ratio_percentiles.items())
        ax.scatter([v for _, v in levels], [0.5] * len(levels), marker="|", s=400, color=NEUTRAL_COLOUR)
        for p, v in levels:
            ax.annotate(f"p{p}", (v, 0.5), xytext=(0, 10), textcoords="offset points", ha="center", fontsize=8)
        ax.set_yticks([])
        ax.set_ylabel("Percentiles of the ratio (draws not kept)")
    if margins:
        ax.axvline(0.0, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1.6, label="Each draw's own threshold")
    elif np.isfinite(threshold):
        ax.axvline(
            threshold,
            color=THRESHOLD_COLOUR,
            linestyle="--",
            linewidth=1.6,
            label=f"Threshold {labels.ratio(threshold)}",
        )
    median = summary.ratio_percentiles.get(50)
    if median is not None and np.isfinite(median) and not margins:
        ax.axvline(median, color=NEUTRAL_COLOUR, linestyle=":", linewidth=1.4, label=f"Median {labels.ratio(median)}")
    lines = [
        f"P(passes the net benefit test) = {labels.share(summary.probability_passes, 1)}",
        f"P(eligible, every check) = {labels.share(summary.probability_eligible, 1)}",
    ]
    most = summary.most_failed_check
    if most is not None:
        lines.append(f"Check failed most often: {most[0]}, in {labels.share(most[1] / summary.draws, 1)} of draws")
    if summary.undefined:
        lines.append(f"Draws with an undefined ratio (failing): {summary.undefined:,}")
    ax.text(
        0.99,
        0.97,
        "\n".join(lines),
        transform=ax.transAxes,
        ha="right",
        va="top",
        fontsize=9,
        bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": "#999999"},
    )
    if margins:
        points_axis(ax.xaxis)
        ax.set_xlabel("Margin of the test that decides: its ratio minus the draw's own threshold [percentage points]")
    else:
        percent_axis(ax.xaxis)
        ax.set_xlabel(RATIO_AXIS_LABEL)
    known = getattr(run, "key_labels", None)
    # Each key once, with its phases: the run's own labels where it has them (a shared driver is
    # "every phase"), else grouped by key where a key is varied in several phases.
    once = labels.named_once(list(run.vary))
    shared = known and any(text.startswith("Every phase") for text in known.values())
    own = known and len(once) == len(run.vary)  # no key varied in two phases: each with its phase
    names = [labels.varied_short_label(key, known) for key in run.vary] if shared or own else once
    if len(names) <= KEYS_NAMED_IN_TITLE:
        varied = ", ".join(names)
    else:  # the footnote names them all
        varied = f"{len(names)} inputs ({', '.join(names[:2])} and {len(names) - 2} more)"
    set_title(ax, f"Monte Carlo: {summary.draws:,} draws of {varied}")
    ax.grid(True, axis="y", alpha=0.3)
    top = ax.get_ylim()[1]
    ax.set_ylim(0, top * 1.35)  # room for the box
    ax.legend(loc="upper left", fontsize=8.5, framealpha=0.9)
    conventions_footnote(run.conventions, ax)
    return ax


def _draw_histogram(ax, draws, threshold: float, bins: int) -> bool:
    """The histogram of the draws, each coloured by its own verdict (``passes``); returns whether it
    draws margins (the draws' thresholds differ) rather than ratios.

    The bins share their edges; the bin across the line is split where the draws' verdicts split
    (at the line, or at the lowest passing draw where one passes just below it, within the
    tolerance of the test's own comparison), so that every bar holds draws of one verdict on the
    side of the line that verdict is on. The verdicts are the draws' own (the engine's ``passes``),
    never compared here."""
    ratios = draws["ratio"].to_numpy(dtype=float)
    thresholds = draws["threshold"].to_numpy(dtype=float) if "threshold" in draws else np.full(len(ratios), threshold)
    passes = draws["passes"].to_numpy(dtype=bool)
    finite = np.isfinite(ratios) & np.isfinite(thresholds)
    margins = len(np.unique(thresholds[finite])) > 1
    values = (ratios - thresholds) if margins else ratios
    line = 0.0 if margins else threshold
    values, passes = values[finite], passes[finite]
    edges = np.histogram_bin_edges(values, bins=bins) if len(values) else np.array([0.0, 1.0])
    split = line
    if passes.any() and np.isfinite(line):
        split = min(line, float(values[passes].min()))  # a pass within the tolerance, just below the line
    if np.isfinite(split) and edges[0] < split < edges[-1] and not np.isclose(edges, split, rtol=0, atol=0).any():
        edges = np.sort(np.append(edges, split))
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    total = max(len(values), 1)
    bottom = np.zeros(len(centres))
    for verdict in (True, False):
        counts, _ = np.histogram(values[passes == verdict], bins=edges)
        chosen = counts > 0
        if chosen.any():
            ax.bar(
                centres[chosen],
                counts[chosen] / total,
                width=widths[chosen],
                bottom=bottom[chosen],
                linewidth=0.4,
                label="Draws that pass the net benefit test" if verdict else "Draws that fail it",
                **pass_fail(verdict),
            )
        bottom = bottom + counts / total
    ax.set_ylabel("Share of draws in the bin [%]")
    from matplotlib.ticker import PercentFormatter

    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    return margins


# ----------------------------------------------------------------------------------------------
# Percentile bands (fan chart)
# ----------------------------------------------------------------------------------------------


#: The fan's words on what its bands are: every phase together, never the test that decides.
FAN_NOTE = (
    "The bands are of all phases together (the whole project), not of the test that decides 71(a)(5), "
    "which may be an earlier cumulative test and may differ from draw to draw: no threshold is drawn; the "
    "probability of passing is the Monte Carlo summary's, each draw against its own deciding test."
)


@plain_text
def fan(bands, ax: Any = None):
    """A fan chart of the cumulative PV of net benefits of all phases: percentile bands year by year.

    Draws the table of :func:`netbenefit.analysis.bands.cumulative_pv_bands` as it is: the
    5th-95th and 25th-75th percentile bands and the median of the cumulative PV of counted net
    benefits of every phase together, and the base scenario's. The bands are the whole project's,
    not the test that decides 71(a)(5) (an earlier cumulative test decides a phased project where its
    ratio is the lowest, and which one may differ from draw to draw), so no threshold line is drawn:
    the chart is labelled "all phases", and the footnote says so. The probability of passing is the
    Monte Carlo summary's (:func:`montecarlo_distribution`).

    Parameters
    ----------
    bands : DataFrame
        Columns ``year``, ``percentile``, ``cumulative_pv_net_benefits``, ``cumulative_pv_credits``.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, (10.0, 5.5))
    wide = bands.pivot(index="year", columns="percentile", values="cumulative_pv_net_benefits")
    years = wide.index.to_numpy()
    levels = sorted(wide.columns)
    shades = (0.25, 0.45)
    for i in range(len(levels) // 2):
        low, high = levels[i], levels[-1 - i]
        ax.fill_between(
            years,
            wide[low],
            wide[high],
            color=PASS_COLOUR,
            alpha=shades[min(i, 1)],
            linewidth=0,
            label=f"{low:g}th to {high:g}th percentile",
        )
    if len(levels) % 2:
        middle = levels[len(levels) // 2]
        ax.plot(years, wide[middle], color=PASS_COLOUR, linewidth=2.2, label=f"{middle:g}th percentile (median)")
    base = bands.attrs.get("base")
    if base:
        ax.plot(
            base["year"],
            base["cumulative_pv_net_benefits"],
            color="black",
            linewidth=1.2,
            marker="o",
            markersize=3,
            label="Base scenario",
        )
    year_axis(ax, years)
    top = float(np.nanmax(wide.to_numpy()))
    money_axis(ax.yaxis, top)
    ax.set_ylim(min(0.0, float(np.nanmin(wide.to_numpy())) * 1.1), top * 1.35)
    ax.set_ylabel("Cumulative PV of net benefits, all phases, at approval [USD]")
    name = bands.attrs.get("name")
    draws = bands.attrs.get("draws")
    title = "Cumulative present value of net benefits, all phases: percentile bands"
    if draws:
        title += f" over {draws:,} draws"
    ax.set_title(f"{scenario_label(name, width=70, lines=1)}\n{title}" if name else title)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8.5, framealpha=0.9)
    conventions_footnote(bands, ax, extra=FAN_NOTE)
    return ax
