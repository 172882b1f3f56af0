"""Charts of a :class:`~netbenefit.portfolio.Portfolio`: the program by State fiscal year.

- :func:`credits_by_application`: requested credits by fiscal year, stacked by application
  (an application failing the net benefit test hatched, as everywhere);
- :func:`benefits_vs_credits`: counted benefits and requested credits by fiscal year, with the
  cumulative net benefit;
- :func:`cap_headroom`: the credits awarded (approved) in each fiscal year against the user's cap.

Each takes the portfolio and an optional ``ax=``, returns the Axes, and ends with the conventions
of its applications, the fiscal-year placement and what is known of the cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import labels
from .style import (
    FAIL_COLOUR,
    FAIL_HATCH,
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

    from ..portfolio import Portfolio

#: Hatches that tell apart applications sharing a colour (the palette has 8 colours).
_HATCHES = (None, "..", "xx", "--", "oo", "++")


def _fiscal_year_axis(ax: Axes, years) -> None:
    years = list(years)
    step = max(1, -(-len(years) // 16))
    ax.set_xticks(years[::step], [f"FY{year}" for year in years[::step]])
    ax.set_xlim(years[0] - 0.6, years[-1] + 0.6)
    ax.set_xlabel("New Jersey State fiscal year (July 1 - June 30, named by the year it ends)")


def _footnote(portfolio: Portfolio, ax: Axes, *, cap: bool = False) -> None:
    extra = portfolio.fiscal_years.attrs.get("conventions", "") + "."
    if cap:
        extra += " " + portfolio.cap_note
    conventions_footnote(list(portfolio.results), ax, extra=extra)


def _size(portfolio: Portfolio) -> tuple[float, float]:
    return (11.0, 6.0 + 0.12 * max(0, len(portfolio.results) - 10))


def credits_by_application(portfolio: Portfolio, ax: Axes | None = None) -> Axes:
    """Requested credits by State fiscal year, one stacked segment per application. [USD, nominal]"""
    ax = axes_or_new(ax, _size(portfolio))
    table = portfolio.credits_table()
    years = table.index.to_numpy()
    bottom = np.zeros(len(years))
    passes = dict(zip(portfolio.applications["application"], portfolio.applications["passes"], strict=True))
    for i, label in enumerate(portfolio.labels):
        values = table[label].to_numpy()
        colour = PALETTE[i % len(PALETTE)]
        hatch = FAIL_HATCH if not passes[label] else _HATCHES[(i // len(PALETTE)) % len(_HATCHES)]
        edge = FAIL_COLOUR if not passes[label] else "white"
        name = scenario_label(label, 36, 2) + ("" if passes[label] else " (fails)")
        ax.bar(years, values, bottom=bottom, color=colour, hatch=hatch, edgecolor=edge, linewidth=0.6, label=name)
        bottom += values
    scale = float(bottom.max()) if len(bottom) else 0.0
    for year, total in zip(years, bottom, strict=True):
        if total > 0:
            _label_above(ax, labels.money(total, scale), (year, total))
    money_axis(ax.yaxis, scale)
    ax.set_ylabel("Requested credits [USD, nominal]")
    ax.set_title(f"Requested credits by State fiscal year: {len(portfolio.results)} applications")
    _fiscal_year_axis(ax, years)
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=7,
        frameon=False,
        title="Application (hatched: fails 71(a)(5))",
        title_fontsize=7,
    )
    _footnote(portfolio, ax)
    return ax


def benefits_vs_credits(portfolio: Portfolio, ax: Axes | None = None) -> Axes:
    """Counted benefits and requested credits by fiscal year, and the cumulative net benefit. [USD]"""
    ax = axes_or_new(ax, _size(portfolio))
    table = portfolio.fiscal_years
    years = table.index.to_numpy()
    width = 0.4
    ax.bar(years - width / 2, table["benefits"], width, color=PASS_COLOUR, label="Counted benefits to the State")
    ax.bar(
        years + width / 2,
        table["credits"],
        width,
        color=NEUTRAL_COLOUR,
        hatch="..",
        edgecolor="white",
        label="Requested credits",
    )
    cumulative = (table["cumulative_benefits"] - table["cumulative_credits"]).to_numpy()
    ax.plot(
        years,
        cumulative,
        color=THRESHOLD_COLOUR,
        marker="o",
        markersize=3,
        linewidth=1.2,
        label="Cumulative benefits less credits",
    )
    ax.axhline(0, color="black", linewidth=0.6)
    scale = float(np.nanmax(np.abs(np.concatenate([table["benefits"], table["credits"], cumulative])))) or 1.0
    money_axis(ax.yaxis, scale)
    ax.set_ylabel("Amount in the fiscal year [USD, nominal]")
    ax.set_title("Counted benefits against requested credits by State fiscal year")
    _fiscal_year_axis(ax, years)
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    _footnote(portfolio, ax)
    return ax


def cap_headroom(portfolio: Portfolio, ax: Axes | None = None) -> Axes:
    """Credits awarded (approved) in each fiscal year with an approval, against the user's cap where
    one is given: the headroom, or how far above it. [USD, nominal]"""
    ax = axes_or_new(ax, _size(portfolio))
    table = portfolio.fiscal_years
    approved = table.index[table["approved"] > 0]
    table = table.loc[approved.min() : approved.max()]
    years = table.index.to_numpy()
    awarded = table["awarded"].to_numpy()
    cap = portfolio.cap
    scale = max(float(awarded.max()), cap or 0.0) or 1.0
    for year, value in zip(years, awarded, strict=True):
        over = cap is not None and value > cap
        ax.bar(year, value, 0.7, **(pass_fail(not over) if cap is not None else pass_fail(True)))
    if cap is not None:
        ax.axhline(cap, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1.2)
        ax.annotate(
            f"cap {labels.money(cap, scale)} a year, user-supplied (--cap)",
            (1.0, cap),
            xycoords=("axes fraction", "data"),
            ha="right",
            va="bottom",
            fontsize=8,
            xytext=(-4, 3),
            textcoords="offset points",
        )
        for year, value, headroom in zip(years, awarded, table["cap_headroom"], strict=True):
            word = "headroom" if headroom >= 0 else "over by"
            _label_above(ax, f"{word} {labels.money(abs(headroom), scale)}", (year, value))
        ax.legend(
            handles=pass_fail_handles("within the cap", "above the cap"),
            loc="upper right",
            fontsize=8,
            frameon=False,
            bbox_to_anchor=(1.0, 0.93),
        )
        ax.set_title("Credits awarded in each State fiscal year against the cap")
    else:
        ax.set_title("Credits awarded in each State fiscal year (no cap given: no headroom)")
    ax.set_ylim(0, scale * 1.15)
    money_axis(ax.yaxis, scale)
    ax.set_ylabel("Credits awarded (approved) [USD, nominal]")
    _fiscal_year_axis(ax, years)
    _footnote(portfolio, ax, cap=True)
    return ax


#: The portfolio's charts by name, in the order the command writes them.
PORTFOLIO_CHARTS = {
    "credits_by_application": credits_by_application,
    "benefits_vs_credits": benefits_vs_credits,
    "cap_headroom": cap_headroom,
}


def _label_above(ax, text: str, point) -> None:
    """A small label just above a bar's top at ``point`` (x, y)."""
    ax.annotate(text, point, ha="center", va="bottom", fontsize=7, xytext=(0, 2), textcoords="offset points")
