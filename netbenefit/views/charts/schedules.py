"""Charts of benefits by tax, the clawback schedule and the change of a ratio between two scenarios.

Each draws tables the model computed (``Result.streams`` with its ``tax`` column,
``Result.clawback_schedule``, a ``Diff``), takes an optional ``ax=`` and returns the Axes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...law import labels
from .style import (
    FAIL_COLOUR,
    LABEL_BACKING,
    NEUTRAL_COLOUR,
    PALETTE,
    PASS_COLOUR,
    THRESHOLD_COLOUR,
    axes_or_new,
    characters_across,
    conventions_footnote,
    label_every,
    money_axis,
    pass_fail,
    pass_fail_handles,
    percent_axis,
    scenario_label,
    set_title,
    tick_text,
    year_axis,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ...model.result import Result

#: Order and colours of the taxes of ``Result.benefits_by_tax``.
TAXES = ("gross_income_tax", "sales_and_use_tax", "corporation_business_tax", "other")
TAX_COLOURS = dict(zip(TAXES, (PALETTE[0], PALETTE[2], PALETTE[3], PALETTE[6]), strict=True))


def _note(ax: Axes, text: str) -> None:
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", fontsize=11, color="#444444")
    ax.set_xticks([])
    ax.set_yticks([])


def benefits_by_tax(result: Result, ax: Axes | None = None) -> Axes:
    """Counted benefits by year, stacked by tax (gross income, sales and use, CBT, other).

    Bars from ``result.streams`` summed by year and its ``tax`` column (the ``counted``
    amounts, nominal); costs to the State below zero. The legend gives each tax's PV from
    ``result.benefits_by_tax`` when the result has it. A result whose streams have no ``tax``
    column gives an empty chart with a note.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, (10.0, 5.5))
    ax.set_title(
        f"{scenario_label(result.name, width=70, lines=1)}\nBenefits to the State by tax, counted in the window"
    )
    ax.set_xlabel("Project year after approval [year]")
    ax.set_ylabel("Counted amount in the year [USD, nominal]")
    streams = result.streams
    if "tax" not in streams.columns:
        _note(ax, "This result has no breakdown of its benefits by tax.")
        conventions_footnote(result, ax)
        return ax
    years = result.cashflows.index.to_numpy()
    revenue = streams[streams["kind"] == "revenue"]
    by_tax = revenue.groupby(["tax", "year"])["counted"].sum().unstack("tax", fill_value=0.0)
    by_tax = by_tax.reindex(index=years, fill_value=0.0)
    order = [t for t in TAXES if t in by_tax.columns] + sorted(t for t in by_tax.columns if t not in TAXES)
    pv = {}
    if result.benefits_by_tax is not None:
        pv = dict(zip(result.benefits_by_tax["tax"], result.benefits_by_tax["pv"], strict=True))
    bottom = np.zeros(len(years))
    for i, tax in enumerate(order):
        values = by_tax[tax].to_numpy(dtype=float)
        if not values.any():
            continue
        name = labels.TAX_LABELS.get(tax, str(tax).replace("_", " "))
        if tax in pv:
            name += f" (PV {labels.money(pv[tax])})"
        colour = TAX_COLOURS.get(tax, PALETTE[(i + 4) % len(PALETTE)])
        ax.bar(years, values, bottom=bottom, width=0.75, color=colour, label=name)
        bottom = bottom + values
    costs = streams[streams["kind"] == "cost"]
    low = 0.0
    if not costs.empty and (costs["counted"] != 0).any():
        amounts = -costs.groupby("year")["counted"].sum().reindex(years, fill_value=0.0).abs().to_numpy()
        ax.bar(
            years, amounts, width=0.75, facecolor=FAIL_COLOUR, edgecolor="black", hatch="//", label="Costs to the State"
        )
        low = float(amounts.min())
    ax.axhline(0, color="black", linewidth=0.8)
    year_axis(ax, years)
    top = float(bottom.max(initial=0.0))
    money_axis(ax.yaxis, max(top, -low))
    ax.set_ylim(low * 1.2, top * 1.45 if top else 1.0)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8.5, framealpha=0.9)
    conventions_footnote(result, ax)
    return ax


def clawback_schedule(result: Result, ax: Axes | None = None) -> Axes:
    """The amount at risk if the project is not maintained: by years maintained.

    Stacked bars of ``result.clawback_schedule``: the recapture of credits received and the
    repayment of an extended commitment's incremental credit, 71(a)(5)(d); the total is written
    on each bar, and a line shows the credits received by then. A result without the schedule
    gives an empty chart with a note.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, (10.0, 5.5))
    ax.set_title(f"{scenario_label(result.name, width=70, lines=1)}\nClawback: amount owed if the project stops")
    ax.set_xlabel("Years the project is maintained [years]")
    ax.set_ylabel("Amount owed to the State [USD, nominal]")
    schedule = result.clawback_schedule
    if schedule is None or schedule.empty:
        _note(ax, result.clawback_note or "This result has no clawback schedule.")
        conventions_footnote(result, ax)
        return ax
    years = schedule["years_maintained"].to_numpy()
    recapture = schedule["recapture"].to_numpy(dtype=float)
    extension = schedule["extension_repayment"].to_numpy(dtype=float)
    total = schedule["total"].to_numpy(dtype=float)
    received = schedule["credits_received"].to_numpy(dtype=float)
    ax.bar(
        years,
        recapture,
        width=0.65,
        facecolor=FAIL_COLOUR,
        edgecolor="black",
        hatch="//",
        label="Recapture of credits received",
    )
    interest = schedule["interest"].to_numpy(dtype=float) if "interest" in schedule else np.zeros_like(recapture)
    if interest.any():
        ax.bar(
            years,
            interest,
            bottom=recapture,
            width=0.65,
            facecolor="#fee391",
            edgecolor="black",
            hatch="xx",
            label="Interest on the recapture",
        )
    if extension.any():
        ax.bar(
            years,
            extension,
            bottom=recapture + interest,
            width=0.65,
            facecolor="#fdd0a2",
            edgecolor="black",
            hatch="..",
            label="Extension repayment, 71(a)(5)(d)",
        )
    ax.plot(years, received, color=PASS_COLOUR, marker="o", linewidth=1.8, label="Credits received by then")
    if "recapture_all" in schedule:
        ax.step(
            years,
            schedule["recapture_all"].to_numpy(dtype=float),
            where="mid",
            color="black",
            linestyle="--",
            linewidth=1.2,
            label="Range of the recapture: none ... all, C.34:1B-341(a)(4) (provisional: 76(f) unread)",
        )
    scale = float(max(total.max(initial=0.0), received.max(initial=0.0)))
    pvs = schedule["pv_total"].to_numpy(dtype=float)
    texts = [f"{labels.money(amount)}\n(PV {labels.money(pv)})" for amount, pv in zip(total, pvs, strict=True)]
    widest = max((len(line) for text in texts for line in text.split("\n")), default=0)
    step = label_every(ax, len(years), widest, 7)  # a long schedule: every k-th bar and the largest
    largest = int(np.argmax(total)) if len(total) else -1
    for i, (year, amount, text) in enumerate(zip(years, total, texts, strict=True)):
        crowded = step > 1 and i % step != largest % step
        if amount > 0 and not crowded:
            ax.annotate(
                text,
                (year, amount),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=7,
                **LABEL_BACKING,  # the credits-received line passes behind the label, never through it
            )
    ax.set_xticks(years)
    ax.set_xlim(years.min() - 0.6, years.max() + 0.6)
    money_axis(ax.yaxis, scale)
    ax.set_ylim(0, scale * 1.4 if scale else 1.0)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8.5, framealpha=0.9)
    conventions_footnote(result, ax)
    return ax


#: Characters of a value shown in a tick label of the ratio waterfall (a list or a mapping is cut).
_VALUE_CHARACTERS = 24  # not a statutory number: what a tick label holds


def _change_name(key: str, change: tuple | None) -> str:
    """An input of a Diff in words, with its change: ``Discount rate\n5% to 6%``. A group of keys
    (``award + jobs``) is named by each key's label."""
    parts = []
    for part in str(key).split(" + "):
        parts.append(labels.short_label(part, default=part.replace("_", " ").capitalize()))
    name = " + ".join(parts)
    if change is not None:
        shown = []
        for value in change:
            try:
                text = labels.value(key, value)
            except KeyError:
                text = labels.number(value)
            shown.append(text if len(text) <= _VALUE_CHARACTERS else text[: _VALUE_CHARACTERS - 3] + "...")
        name += f"\n{shown[0]} to {shown[1]}"
    return name


def ratio_waterfall(diff: Any, ax: Axes | None = None) -> Axes:
    """How the net benefit ratio moves from scenario A to scenario B, input by input.

    A bar for A's ratio, one floating bar per row of ``diff.attribution`` (its contribution,
    blue when it raises the ratio, orange and hatched when it lowers it; the input named in words
    with its change from ``diff.inputs``), and a bar for B's ratio. The contributions add up to
    ``ratio_b - ratio_a`` (the Diff's contract); the chart only draws them.

    Parameters
    ----------
    diff : Diff
        :func:`netbenefit.diff`: ``name_a``, ``name_b``, ``ratio_a``, ``ratio_b``, ``inputs``
        (``key``, ``old``, ``new``) and ``attribution`` (``key``, ``contribution``).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    attribution = getattr(diff, "attribution_shown", diff.attribution)
    # Where the threshold, the benefit window or a phased project's deciding test moves too, the
    # chart walks the margin (ratio minus threshold) from A to B, with those as bars of their own.
    margin = attribution is not diff.attribution
    start, end_value = (diff.margin_a, diff.margin_b) if margin else (diff.ratio_a, diff.ratio_b)

    def shown(value, passes=None):
        return (
            labels.margin_points(value, passes if passes is not None else value >= 0) if margin else labels.ratio(value)
        )

    ax = axes_or_new(ax, (10.0, 5.5))
    changes = {}
    inputs = getattr(diff, "inputs", None)
    if inputs is not None and len(inputs):
        for row in inputs.to_dict("records"):
            changes[row["key"]] = (row["old"], row["new"])
    rows = attribution.to_dict("records")
    width = max(6, characters_across(ax, 8) // (len(rows) + 2) - 1)  # a tick label's line [characters]
    names = [tick_text(f"A: {diff.name_a}", width)]
    positions = [0]
    ax.bar(0, start, width=0.6, color=NEUTRAL_COLOUR)
    ax.annotate(
        shown(start, getattr(diff, "passes_a", None)),
        (0, start),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        fontsize=8.5,
    )
    level = float(start)
    reached = [level, float(end_value)]  # every level a bar reaches, for the limits
    for i, row in enumerate(rows, start=1):
        key, contribution = row["key"], float(row["contribution"])
        ax.bar(i, contribution, bottom=level, width=0.6, **pass_fail(contribution >= 0))
        ax.plot([i - 1.3, i + 0.3], [level, level], color="#999999", linewidth=0.8)
        sign = "+" if contribution >= 0 else "-"
        ax.annotate(
            f"{sign}{abs(contribution) * 100:.0f} pts",
            (i, max(level, level + contribution)),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            fontsize=8.5,
        )
        names.append(tick_text(_change_name(key, changes.get(key)), width, lines=4))
        positions.append(i)
        level += contribution
        reached.append(level)
    end = len(positions)
    ax.bar(end, end_value, width=0.6, color=THRESHOLD_COLOUR)
    ax.annotate(
        shown(end_value, getattr(diff, "passes_b", None)),
        (end, end_value),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        fontsize=8.5,
    )
    names.append(tick_text(f"B: {diff.name_b}", width))
    positions.append(end)
    ax.set_xticks(positions, [name for name in names], fontsize=8, rotation=0)
    percent_axis(ax.yaxis)
    top, bottom = max(reached), min(0.0, *reached)
    ax.set_ylim(bottom * 1.1, top + 0.3 * (top - bottom))
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("Scenario and change of input")
    if margin:
        ax.set_ylabel("Margin: ratio minus threshold [percentage points]")
        set_title(
            ax,
            f"Margin over the threshold: A {shown(start, diff.passes_a)} ({labels.ratio(diff.threshold_a)}), "
            f"B {shown(end_value, diff.passes_b)} ({labels.ratio(diff.threshold_b)})\n"
            f"A: {diff.name_a}\nB: {diff.name_b}",
            lines=3,
        )
    else:
        ax.set_ylabel("Net benefit ratio, PV benefits / PV credits [%]")
        set_title(
            ax,
            f"Net benefit ratio {labels.ratio(diff.ratio_a)} (A) to {labels.ratio(diff.ratio_b)} (B)\n"
            f"A: {diff.name_a}\nB: {diff.name_b}",
            lines=3,
        )
    ax.grid(True, axis="y", alpha=0.3)
    what = "margin" if margin else "ratio"
    ax.legend(handles=pass_fail_handles(f"Raises the {what}", f"Lowers the {what}"), loc="upper right", fontsize=8.5)
    source = [getattr(diff, name, None) for name in ("result_a", "result_b")]
    conventions_footnote(
        [r for r in source if r is not None] or getattr(diff, "conventions", None),
        ax,
        extra=(
            "Contributions (percentage points of the margin: the ratio's Shapley values, the threshold and the "
            "benefit window) are the Diff's margin attribution; they add up to the change."
            if margin
            else "Contributions (percentage points of the ratio) are the Diff's attribution; they add up to the change."
        ),
    )
    return ax
