"""Charts of the award calculator, life after approval and the economist's view (matplotlib).

Each function takes results that the library computed, draws on ``ax`` (a new figure when it is
None) and returns the Axes. No chart computes a rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...law import labels
from .style import (
    FAIL_COLOUR,
    FAIL_HATCH,
    HIGH_COLOUR,
    LABEL_BACKING,
    LOW_COLOUR,
    NEUTRAL_COLOUR,
    PALETTE,
    PASS_COLOUR,
    THRESHOLD_COLOUR,
    axes_or_new,
    characters_across,
    conventions_footnote,
    money_axis,
    pass_fail,
    pass_fail_handles,
    percent_axis,
    scenario_label,
    set_title,
    tick_text,
)

_STEP_COLOURS = {"base": PALETTE[0], "bonus": PALETTE[2], "cap": FAIL_COLOUR, "labor_harmony": PALETTE[4]}


def award_waterfall(award_calculation, ax=None, phase: int | None = None, *, result: Any = None):
    """The credit per job per year built up step by step: base, bonuses, cap, labor harmony.

    Parameters
    ----------
    award_calculation : DataFrame
        ``Result.award_calculation`` (or :func:`netbenefit.law.award.award_table`).
    ax : matplotlib Axes, optional
    phase : int, optional
        The phase to draw; default the first one in the table.
    result : Result, optional
        The evaluated scenario: its name in the title and its conventions in the footnote.

    Returns
    -------
    matplotlib Axes
    """
    ax = axes_or_new(ax, (10.0, 5.5))
    table = award_calculation
    phase = int(table["phase"].iloc[0]) if phase is None else phase
    table = table[table["phase"] == phase]
    steps = table[table["step"].isin(["base", "bonus", "cap", "labor_harmony"])]
    names, bottoms, heights, colours, signed, hatches = [], [], [], [], [], []
    level = 0.0
    for row in steps.itertuples(index=False):
        amount = float(row.per_job)
        if row.step == "base":
            names.append("Base amount")
        elif row.step == "bonus":
            names.append(f"Bonus: {str(row.item).replace('_', ' ')}")
        else:
            names.append("Cap per job" if row.step == "cap" else "Labor harmony")
        bottoms.append(level if amount >= 0 else level + amount)
        heights.append(abs(amount))
        signed.append(amount)
        colours.append(_STEP_COLOURS[row.step])
        hatches.append(FAIL_HATCH if amount < 0 else None)
        level += amount
    by_step = table.set_index("step")
    for step, name, colour in (
        ("per_new_job", "Per new job", THRESHOLD_COLOUR),
        ("per_retained_job", "Per retained job", NEUTRAL_COLOUR),
    ):
        names.append(name)
        bottoms.append(0.0)
        heights.append(float(by_step.loc[step, "per_job"]))
        signed.append(heights[-1])
        colours.append(colour)
        hatches.append(None)
    positions = np.arange(len(names))
    for x, bottom, height, colour, hatch in zip(positions, bottoms, heights, colours, hatches, strict=True):
        ax.bar(x, height, bottom=bottom, color=colour, hatch=hatch, edgecolor="black" if hatch else "white", width=0.65)
    scale = max(heights, default=0.0)
    for x, bottom, height, amount in zip(positions, bottoms, heights, signed, strict=True):
        ax.annotate(
            labels.money_exact(amount),
            (x, bottom + height),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=8.5,
        )
    width = max(6, characters_across(ax, 10) // max(len(names), 1) - 1)  # a tick label's line [characters]
    ax.set_xticks(positions, [tick_text(name, width) for name in names])
    money_axis(ax.yaxis, scale)
    ax.set_ylim(0, scale * 1.2 if scale else 1.0)
    ax.set_xlabel("Step of the section 75 calculation")
    ax.set_ylabel("Tax credit per job per year [USD/job/year]")
    name = f"{scenario_label(result.name, width=70, lines=1)}\n" if result is not None else ""
    ax.set_title(f"{name}Award build-up, section 75 of P.L.2020, c.156 (phase {phase})")
    ax.grid(True, axis="y", alpha=0.3)
    conventions_footnote(result, ax, extra="Amounts per job and year, nominal USD.")
    return ax


def credits_by_year(after, ax=None):
    """Approved vs certified credits by project year, forfeitures and any repayment.

    Parameters
    ----------
    after : netbenefit.model.after_approval.AfterApproval
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = axes_or_new(ax, (10.0, 5.5))
    years = after.years
    x = years.index.to_numpy()
    width = 0.4
    ax.bar(x - width / 2, years["approved_credit"], width, label="Approved (projected)", color=LOW_COLOUR)
    ax.bar(x + width / 2, years["certified_credit"], width, label="Certified", color=PASS_COLOUR)
    ax.bar(
        x + width / 2,
        years["forfeited_credit"],
        width,
        bottom=years["certified_credit"],
        label="Forfeited (statewide workforce fell)",
        facecolor="none",
        edgecolor=FAIL_COLOUR,
        hatch=FAIL_HATCH,
    )
    if years["repayment"].any():
        ax.bar(
            x + width / 2,
            -years["repayment"],
            width,
            label="Repayment, 71(a)(5)(d)",
            facecolor=FAIL_COLOUR,
            edgecolor="black",
            hatch=FAIL_HATCH,
        )
    top = float(years["approved_credit"].max())
    flagged = years.index[years["rerun_flag"]].to_numpy()
    if flagged.size:
        ax.scatter(
            flagged,
            np.full(flagged.shape, top * 1.08),
            marker="v",
            color=FAIL_COLOUR,
            edgecolor="black",
            zorder=3,
            label="Jobs or salary fell: the test may be re-run",
        )
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(x)
    ax.set_xlabel("Project year after approval [year]")
    low = min(0.0, float(-years["repayment"].max()))
    money_axis(ax.yaxis, max(top, -low))
    ax.set_ylabel("Tax credit in the year [USD, nominal]")
    ax.set_title(
        f"{scenario_label(after.scenario.name, width=70, lines=1)}\n"
        f"Projected vs actual: credits by year ({labels.money(after.certified_credits)} certified of "
        f"{labels.money(after.approved_credits)} approved)"
    )
    ax.set_ylim(low * 1.2, top * 1.55 if top else 1.0)  # room for the legend above the bars
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8.5, loc="upper center", ncol=2, framealpha=0.9)
    conventions_footnote(after.projected, ax)
    return ax


_VIEW_NAMES = {
    "statutory": "Statutory test, 71(a)(5)",
    "but_for": "But-for benefits only",
    "but_for_net_of_cost_of_growth": "But-for, net of the cost of growth",
}


def economist_view_chart(table, ax=None):
    """Net benefit ratio of each view (statutory, but-for, net of the cost of growth) against the
    statutory threshold and break-even, the but-for share in the title.

    Parameters
    ----------
    table : DataFrame
        :func:`netbenefit.model.economics.economist_view` (its ``attrs`` give the but-for share and,
        from :func:`~netbenefit.model.economics.economist_view_of`, the conventions).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = axes_or_new(ax, (10.0, 4.5))
    names = [_VIEW_NAMES.get(view, str(view).replace("_", " ")) for view in table.index]
    rows = np.arange(len(table))[::-1]
    ratios = table["ratio"].to_numpy(dtype=float)
    threshold = float(table["threshold"].iloc[0])
    for row, ratio, passes in zip(rows, ratios, table["passes_threshold"], strict=True):
        ax.barh(row, ratio, height=0.6, **pass_fail(bool(passes)))
        ax.annotate(
            f"{labels.ratio(ratio)} {'passes' if passes else 'fails'}",
            (max(ratio, 0.0), row),
            xytext=(5, 0),
            textcoords="offset points",
            va="center",
            fontsize=9,
            **LABEL_BACKING,  # the threshold and break-even lines may pass behind it
        )
    line = ax.axvline(threshold, color=THRESHOLD_COLOUR, linestyle="--", label=f"Statutory threshold {threshold:.0%}")
    even = ax.axvline(1.0, color=HIGH_COLOUR, linestyle=":", label="Break-even: benefits = credits (100%)")
    ax.set_yticks(rows, names)
    right = float(max(np.nanmax(ratios), threshold))
    ax.set_xlim(min(0.0, float(np.nanmin(ratios)) * 1.15), right * 1.3)
    percent_axis(ax.xaxis)
    ax.set_xlabel("Net benefit ratio, PV benefits / PV credits [%]")
    ax.set_ylabel("View")
    share = table.attrs.get("but_for_share")
    growth = table.attrs.get("pv_cost_of_growth")
    title = "The statutory test and the economist's view"
    if share is not None:
        title += f": but-for share {labels.share(share)}"
    if growth:
        title += f", PV cost of growth {labels.money(growth)}"
    set_title(ax, title)
    ax.grid(True, axis="x", alpha=0.3)
    handles = pass_fail_handles("Meets the statutory threshold", "Below the statutory threshold")
    ax.legend(handles=[*handles, line, even], fontsize=8, loc="lower right", framealpha=0.9)
    conventions_footnote(
        table, ax, extra="The but-for share is an explicit assumption; the statute counts all the benefits."
    )
    return ax
