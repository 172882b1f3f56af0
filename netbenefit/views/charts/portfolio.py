"""Charts of a :class:`~netbenefit.analysis.portfolio.Portfolio`: the program by State fiscal year.

- :func:`credits_by_application`: requested credits by fiscal year, stacked by application
  (an application that is not eligible hatched: it awards nothing);
- :func:`benefits_vs_credits`: counted benefits and requested credits by fiscal year, with the
  cumulative net benefit on a scale of its own;
- :func:`cap_headroom`: the credits awarded in each fiscal year (eligible applications) against
  the user's cap, beside the credits requested.

Each axis stops at the last fiscal year with an amount; the legends stand beside the plot or
above the bars, never on a label; labels above many bars stand upright so that they keep apart.

Each takes the portfolio and an optional ``ax=``, returns the Axes, and ends with the conventions
of its applications, the fiscal-year placement and what is known of the cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ... import labels
from .style import (
    FAIL_COLOUR,
    FAIL_HATCH,
    LABEL_BACKING,
    NEUTRAL_COLOUR,
    PALETTE,
    PASS_COLOUR,
    THRESHOLD_COLOUR,
    axes_or_new,
    conventions_footnote,
    money_axis,
    pass_fail,
    pass_fail_handles,
    scenario_label,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ...analysis.portfolio import Portfolio

#: Colours of applications, each distinct (the house palette, then the lighter companions of
#: Matplotlib's tab20 palette): up to this many applications each has its own colour and a legend
#: entry; beyond, each is a segment in one of two shades and the legend says so.
APPLICATION_COLOURS = (
    *PALETTE,
    "#ff9896",
    "#c5b0d5",
    "#c49c94",
    "#f7b6d2",
    "#dbdb8d",
    "#98df8a",
    "#aec7e8",
    "#e377c2",
    "#bcbd22",
    "#9edae5",
    "#393b79",
    "#637939",
)
#: More bars than this on one axis: the labels above them are turned upright, so that they stay apart.
UPRIGHT_LABELS_FROM = 9


def _fiscal_year_axis(ax: Axes, years) -> None:
    years = list(years)
    step = max(1, -(-len(years) // 16))
    ax.set_xticks(years[::step], [f"FY{year}" for year in years[::step]])
    ax.set_xlim(years[0] - 0.6, years[-1] + 0.6)
    ax.set_xlabel("New Jersey State fiscal year (July 1 - June 30, named by the year it ends)")


def _years_with_amounts(table, columns) -> Any:
    """``table`` from its first to its last fiscal year with an amount in any of ``columns``."""
    amounts = (table[list(columns)].abs() > 0).any(axis=1)
    if not amounts.any():
        return table
    years = table.index[amounts.to_numpy()]
    return table.loc[years.min() : years.max()]


def _footnote(portfolio: Portfolio, ax: Axes, *, cap: bool = False) -> None:
    extra = portfolio.fiscal_years.attrs.get("conventions", "") + "."
    if cap:
        extra += " " + portfolio.cap_note
    conventions_footnote(list(portfolio.results), ax, extra=extra)


def _size(portfolio: Portfolio) -> tuple[float, float]:
    few = len(portfolio.results) <= len(APPLICATION_COLOURS)
    return (11.0, 6.0 + (0.12 * max(0, len(portfolio.results) - 10) if few else 0.0))


def _bar_labels(ax: Axes, texts: list[str], points: list[tuple[float, float]], top: float) -> None:
    """Labels just above bars, upright when there are many bars (so that neighbours stay apart),
    with room above the tallest for them."""
    upright = len(points) > UPRIGHT_LABELS_FROM
    for text, point in zip(texts, points, strict=True):
        ax.annotate(
            text,
            point,
            ha="center",
            va="bottom",
            fontsize=7,
            xytext=(0, 2),
            textcoords="offset points",
            rotation=90 if upright else 0,
            **LABEL_BACKING,  # a cap line may pass behind it
        )
    ax.set_ylim(0, top * (1.3 if upright else 1.15))


def credits_by_application(portfolio: Portfolio, ax: Axes | None = None) -> Axes:
    """Requested credits by State fiscal year, one stacked segment per application; an application
    that is not eligible (it awards nothing) hatched. [USD, nominal]"""
    from matplotlib.patches import Patch

    ax = axes_or_new(ax, _size(portfolio))
    table = _years_with_amounts(portfolio.credits_table(), portfolio.labels)
    years = table.index.to_numpy()
    bottom = np.zeros(len(years))
    eligible = dict(zip(portfolio.applications["application"], portfolio.applications["eligible"], strict=True))
    few = len(portfolio.labels) <= len(APPLICATION_COLOURS)
    for i, label in enumerate(portfolio.labels):
        values = table[label].to_numpy()
        colour = APPLICATION_COLOURS[i] if few else (PASS_COLOUR, "#6baed6")[i % 2]
        style = {"color": colour, "edgecolor": "white", "hatch": None}
        if not eligible[label]:
            style = {"color": colour if few else FAIL_COLOUR, "edgecolor": FAIL_COLOUR, "hatch": FAIL_HATCH}
        name = scenario_label(label, 36, 2) + ("" if eligible[label] else " (not eligible)")
        ax.bar(years, values, bottom=bottom, linewidth=0.6, label=name if few else None, **style)
        bottom += values
    scale = float(bottom.max()) if len(bottom) else 0.0
    points = [(year, total) for year, total in zip(years, bottom, strict=True) if total > 0]
    _bar_labels(ax, [labels.money(total, scale) for _, total in points], points, scale or 1.0)
    money_axis(ax.yaxis, scale)
    ax.set_ylabel("Requested credits [USD, nominal]")
    ax.set_title(f"Requested credits by State fiscal year: {len(portfolio.results)} applications")
    _fiscal_year_axis(ax, years)
    legend = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "fontsize": 7, "frameon": False}
    if few:
        ax.legend(**legend, title="Application (hatched: not eligible,\nawards nothing)", title_fontsize=7)
    else:
        handles = [
            Patch(color=PASS_COLOUR, label="one application a segment,\nin two shades by turns"),
            Patch(
                facecolor=FAIL_COLOUR, edgecolor=FAIL_COLOUR, hatch=FAIL_HATCH, label="not eligible:\nawards nothing"
            ),
        ]
        ax.legend(handles=handles, **legend, title=f"{len(portfolio.results)} applications", title_fontsize=7)
    _footnote(portfolio, ax)
    return ax


def benefits_vs_credits(portfolio: Portfolio, ax: Axes | None = None) -> Axes:
    """Counted benefits and requested credits by fiscal year (left scale), and the cumulative
    benefits less credits (right scale, so that the yearly bars keep their height). [USD]"""
    ax = axes_or_new(ax, _size(portfolio))
    table = _years_with_amounts(portfolio.fiscal_years, ("benefits", "credits"))
    years = table.index.to_numpy()
    width = 0.4
    benefits = ax.bar(
        years - width / 2, table["benefits"], width, color=PASS_COLOUR, label="Counted benefits to the State"
    )
    credits = ax.bar(
        years + width / 2,
        table["credits"],
        width,
        color=NEUTRAL_COLOUR,
        hatch="..",
        edgecolor="white",
        label="Requested credits",
    )
    yearly = float(np.nanmax(np.abs(np.concatenate([table["benefits"], table["credits"]])))) or 1.0
    low = min(0.0, float(np.nanmin(np.concatenate([table["benefits"], table["credits"]]))))
    ax.set_ylim(low * 1.1, yearly * 1.45)  # room above the bars for the legend
    money_axis(ax.yaxis, yearly)
    ax.set_ylabel("Amount in the fiscal year [USD, nominal]")
    cumulative = (table["cumulative_benefits"] - table["cumulative_credits"]).to_numpy()
    right = ax.twinx()
    (line,) = right.plot(
        years,
        cumulative,
        color=THRESHOLD_COLOUR,
        marker="o",
        markersize=3,
        linewidth=1.2,
        label="Cumulative benefits less credits (right scale)",
    )
    top = float(np.nanmax(np.abs(cumulative))) or 1.0
    right.set_ylim(min(0.0, float(np.nanmin(cumulative))) * 1.45, top * 1.45)
    right.axhline(0, color="black", linewidth=0.6)
    money_axis(right.yaxis, top)
    right.set_ylabel("Cumulative benefits less credits [USD, nominal]")
    ax.set_title("Counted benefits against requested credits by State fiscal year")
    _fiscal_year_axis(ax, years)
    ax.legend(handles=[benefits, credits, line], loc="upper left", fontsize=8, frameon=False)
    _footnote(portfolio, ax)
    return ax


def cap_headroom(portfolio: Portfolio, ax: Axes | None = None) -> Axes:
    """Credits awarded in each fiscal year with an approval (the requested credits of the eligible
    applications approved in it: an application that is not eligible awards nothing), against the
    user's cap where one is given: the headroom, or how far above it. [USD, nominal]"""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    ax = axes_or_new(ax, _size(portfolio))
    table = portfolio.fiscal_years
    approved = table.index[table["approved"] > 0]
    table = table.loc[approved.min() : approved.max()]
    years = table.index.to_numpy()
    awarded, requested = table["awarded"].to_numpy(), table["requested"].to_numpy()
    cap = portfolio.cap
    scale = max(float(requested.max()), cap or 0.0) or 1.0
    handles = []
    if (requested > awarded).any():
        ax.bar(years, requested, 0.7, facecolor="none", edgecolor=NEUTRAL_COLOUR, linestyle="--", linewidth=0.8)
        handles.append(
            Patch(
                facecolor="none",
                edgecolor=NEUTRAL_COLOUR,
                linestyle="--",
                label="requested, with applications\nnot eligible (they award nothing)",
            )
        )
    for year, value in zip(years, awarded, strict=True):
        over = cap is not None and value > cap
        ax.bar(year, value, 0.7, **pass_fail(not over))
    if cap is not None:
        ax.axhline(cap, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1.2)
        handles = [
            *pass_fail_handles("awarded, within the cap", "awarded, above the cap"),
            Line2D(
                [],
                [],
                color=THRESHOLD_COLOUR,
                linestyle="--",
                label=f"cap {labels.money(cap, scale)} a year\n(the user's figure)",
            ),
            *handles,
        ]
        words = [("headroom" if headroom >= 0 else "over by") for headroom in table["cap_headroom"]]
        texts = [f"{word}\n{labels.money(abs(h), scale)}" for word, h in zip(words, table["cap_headroom"], strict=True)]
        ax.set_title("Credits awarded in each State fiscal year against the cap")
    else:
        handles = [*pass_fail_handles("awarded", "awarded")[:1], *handles]
        texts = [labels.money(value, scale) for value in awarded]
        ax.set_title("Credits awarded in each State fiscal year (no cap given: no headroom)")
    tops = np.maximum(awarded, requested)
    _bar_labels(ax, texts, list(zip(years, tops, strict=True)), scale)
    money_axis(ax.yaxis, scale)
    ax.set_ylabel("Credits awarded, eligible applications [USD, nominal]")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    _fiscal_year_axis(ax, years)
    _footnote(portfolio, ax, cap=True)
    return ax


#: The portfolio's charts by name, in the order the command writes them.
PORTFOLIO_CHARTS = {
    "credits_by_application": credits_by_application,
    "benefits_vs_credits": benefits_vs_credits,
    "cap_headroom": cap_headroom,
}
