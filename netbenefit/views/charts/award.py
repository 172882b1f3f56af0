"""Charts of the award calculator, life after approval and the economist's view (matplotlib).

Each function takes results that the library computed, draws on ``ax`` (a new figure when it is
None) and returns the Axes. No chart computes a rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import labels
from .style import (
    FAIL_COLOUR,
    FAIL_HATCH,
    HIGH_COLOUR,
    LABEL_BACKING,
    LOW_COLOUR,
    NEUTRAL_COLOUR,
    PALETTE,
    THRESHOLD_COLOUR,
    axes_or_new,
    characters_across,
    conventions_footnote,
    money_axis,
    pass_fail,
    pass_fail_handles,
    percent_axis,
    plain_text,
    scenario_label,
    set_title,
    tick_text,
)

_STEP_COLOURS = {"base": PALETTE[0], "bonus": PALETTE[2], "cap": FAIL_COLOUR, "labor_harmony": PALETTE[4]}


@plain_text
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


@plain_text
def credits_by_year(after, ax=None):
    """Approved and certified credits by project year (certified stacked by phase for a phased
    project), what was forfeited (only where something was), and what was given back: the
    recapture (of a stop and of a reduction), its interest and the extension's repayment, each in
    the year it falls, below zero; the years flagged for a re-run.

    Parameters
    ----------
    after : netbenefit.model.after_approval.AfterApproval
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    from matplotlib.patches import Patch

    ax = axes_or_new(ax, (10.0, 5.5))
    years = after.years
    x = years.index.to_numpy()
    width = 0.4
    ax.bar(x - width / 2, years["approved_credit"].fillna(0.0), width, label="Approved (projected)", color=LOW_COLOUR)
    bottom = np.zeros(x.size)
    by_phase = after.phase_years["certified_credit"].unstack("phase").reindex(x).fillna(0.0)
    phased = by_phase.shape[1] > 1
    for i, phase in enumerate(by_phase.columns):
        values = by_phase[phase].to_numpy()
        if i > 0 and not values.any():  # a later phase that received nothing: named below, not drawn
            continue
        name = f"Phase {phase}: certified" if phased else "Certified"
        ax.bar(x + width / 2, values, width, bottom=bottom, label=name, color=PALETTE[(2 * i) % len(PALETTE)])
        bottom = bottom + values
    forfeited = years["forfeited_credit"].fillna(0.0).to_numpy()
    if forfeited.any():  # only where something was forfeited
        ax.bar(
            x + width / 2,
            forfeited,
            width,
            bottom=bottom,
            label="Forfeited (statewide workforce fell), 76(a)(1)",
            facecolor="none",
            edgecolor=FAIL_COLOUR,
            hatch=FAIL_HATCH,
        )
    below = _given_back(ax, years, x, width)
    top = float(max(years["approved_credit"].fillna(0.0).max(), (bottom + forfeited).max()))
    flagged = years.index[years["rerun_flag"]].to_numpy()
    if flagged.size:
        ax.scatter(
            flagged,
            np.full(flagged.shape, top * 1.08),
            marker="v",
            color=FAIL_COLOUR,
            edgecolor="black",
            zorder=3,
            label="Jobs or salary fell: the test may be re-run, 76(a)(2)",
        )
    handles, names = ax.get_legend_handles_labels()
    stop = after.actuals.maintained_through_year
    if after.phases is not None and "phase_years_maintained" in after.phases and stop is not None:
        for phase, row in after.phases.iterrows():
            if row["phase_years_maintained"] == 0:  # the table's record: the phase never started
                handles.append(Patch(facecolor="none", edgecolor="none"))
                names.append(f"Phase {phase}: not started by the stop (year {stop}): no credit")
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(x)
    ax.set_xlabel("Project year after approval [year]")
    low = float(below.min())  # the axis reaches everything given back
    money_axis(ax.yaxis, max(top, -low))
    ax.set_ylabel("Tax credit in the year [USD, nominal]")
    set_title(
        ax,
        f"{scenario_label(after.scenario.name, width=70, lines=1)}\n"
        f"Credits by year: {labels.money(after.certified_credits)} certified of "
        f"{labels.money(after.approved_credits)} approved",
    )
    ax.set_ylim(low * 1.25 if low < 0 else 0.0, top * 1.6 if top else 1.0)  # room for the legend above the bars
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles, names, fontsize=8, loc="upper center", ncol=2, framealpha=0.9)
    conventions_footnote(after.projected, ax)
    return ax


def _given_back(ax, years, x: np.ndarray, width: float) -> np.ndarray:
    """What was given back, below zero, stacked in the year it falls (only what there was): the
    recapture of a stop and of a reduction, its interest, the extension's repayment. Returns the
    bottom of the stack, year by year."""
    given_back = [
        ("recapture", "Recapture (left within the commitment), C.34:1B-341(a)(4)", FAIL_COLOUR, FAIL_HATCH),
        ("reduction_recapture", "Recapture on a reduction, C.34:1B-341(a)(4)", PALETTE[3], "\\\\"),
        ("interest", "Interest on the recapture", PALETTE[6], ""),
        ("repayment", "Extension repayment, 71(a)(5)(d)", PALETTE[4], "xx"),
    ]
    below = np.zeros(x.size)
    for column, name, colour, hatch in given_back:
        values = years[column].fillna(0.0).to_numpy() if column in years else np.zeros(x.size)
        if values.any():
            ax.bar(
                x + width / 2,
                -values,
                width,
                bottom=below,
                label=name,
                facecolor=colour,
                edgecolor="black",
                hatch=hatch,
            )
            below = below - values
    return below


_VIEW_NAMES = {
    "statutory": "Statutory test, 71(a)(5)",
    "but_for": "But-for benefits only",
    "but_for_net_of_cost_of_growth": "But-for, net of the cost of growth",
}


@plain_text
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
    test = table.attrs.get("test")  # the test of 71(a)(5) whose present values the views divide
    named = f" of the test that decides, {labels.test_name(test)}" if test else ""
    ax.set_xlabel(f"Net benefit ratio{named}, PV benefits / PV credits [%]")
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
