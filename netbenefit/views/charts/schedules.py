"""Charts of benefits by tax, the clawback schedule and the change of a ratio between two scenarios.

Each draws tables the model computed (``Result.streams`` with its ``tax`` column,
``Result.clawback_schedule``, a ``Diff``), takes an optional ``ax=`` and returns the Axes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ... import labels
from .style import (
    FAIL_COLOUR,
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
    plain_text,
    points_axis,
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


@plain_text
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


#: Font size of the amounts written above the clawback chart's columns. [pt]
_OWED_FONTSIZE = 7
#: Space between the Axes' top and the amounts above it, and between them and the title. [pt]
_OWED_GAP = 4


@plain_text
def clawback_schedule(result: Result, ax: Axes | None = None) -> Axes:
    """The amount at risk if the project is not maintained: by years maintained.

    Stacked bars of ``result.clawback_schedule``: the recapture of credits received, the interest on
    it and the repayment of an extended commitment's incremental credit, 71(a)(5)(d); the credits
    received by then, and the statute's most the recapture may be (all of the credits, C.34:1B-341(a)(4)),
    as steps over the columns (each value belongs to its whole year, not to the years between). The
    total owed and its PV are written in a row above the Axes, each over its column, where no line
    of the chart can cross them. A result without the schedule gives an empty chart with a note.

    Parameters
    ----------
    result : Result
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax, (10.0, 5.5))
    title = f"{scenario_label(result.name, width=70, lines=1)}\nClawback: amount owed if the project stops"
    ax.set_title(title)
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
    ax.step(years, received, where="mid", color=PASS_COLOUR, linewidth=1.8, label="Credits received by then")
    highest = received
    if "recapture_all" in schedule:
        most = schedule["recapture_all"].to_numpy(dtype=float)
        highest = np.maximum(highest, most)
        ax.step(
            years,
            most,
            where="mid",
            color="black",
            linestyle="--",
            linewidth=1.2,
            label="Range of the recapture: none ... all, C.34:1B-341(a)(4) (provisional: 76(f) unread)",
        )
    scale = float(max(total.max(initial=0.0), highest.max(initial=0.0)))
    lines = _owed_above(ax, years, total, schedule["pv_total"].to_numpy(dtype=float))
    ax.set_title(title, pad=_OWED_GAP * 2 + lines * _OWED_FONTSIZE * 1.25 if lines else None)
    ax.set_xticks(years)
    ax.set_xlim(years.min() - 0.6, years.max() + 0.6)
    money_axis(ax.yaxis, scale)
    ax.set_ylim(0, scale * 1.4 if scale else 1.0)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8.5, framealpha=0.9)
    conventions_footnote(result, ax)
    return ax


def _owed_above(ax: Axes, years, total, pvs) -> int:
    """The total owed and its PV of each column, written in a row above the Axes over its column
    (every k-th column and the largest where they would touch), with the row's heading at its left;
    returns the lines the row takes (0 when nothing is owed)."""
    from matplotlib.transforms import blended_transform_factory

    texts = [f"{labels.money(amount)}\n(PV {labels.money(pv)})" for amount, pv in zip(total, pvs, strict=True)]
    if not (total > 0).any():
        return 0
    widest = max((len(line) for text in texts for line in text.split("\n")), default=0)
    step = label_every(ax, len(years), widest, _OWED_FONTSIZE)  # a long schedule: every k-th column and the largest
    largest = int(np.argmax(total))
    above = blended_transform_factory(ax.transData, ax.transAxes)  # x of the column, y just above the Axes
    for i, (year, amount, text) in enumerate(zip(years, total, texts, strict=True)):
        if amount > 0 and not (step > 1 and i % step != largest % step):
            ax.annotate(
                text,
                (year, 1.0),
                xycoords=above,
                xytext=(0, _OWED_GAP),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=_OWED_FONTSIZE,
                annotation_clip=False,
            )
    ax.annotate(
        "Owed\n(PV)",
        (0.0, 1.0),
        xycoords="axes fraction",
        xytext=(-6, _OWED_GAP),
        textcoords="offset points",
        ha="right",
        va="bottom",
        fontsize=_OWED_FONTSIZE,
        fontweight="bold",
        annotation_clip=False,
    )
    return 2


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


def _points(value: float, passes: bool | None = None) -> str:
    """A margin or a change of it in points, as the chart writes it: ``+23.82 pts``; a margin with the
    digits its verdict needs (:func:`netbenefit.labels.margin_points`)."""
    if passes is not None:
        return labels.margin_points(value, passes).replace(" points", " pts")
    text = f"{100 * value:+.2f}"
    return f"{text[1:] if float(text) == 0 else text} pts"


@plain_text
def ratio_waterfall(diff: Any, ax: Axes | None = None) -> Axes:
    """How the margin over the threshold moves from scenario A to scenario B, input by input.

    The margin is the ratio of the test that decides 71(a)(5) minus the threshold, in percentage
    points, so that the line at zero is each side's threshold. A bar from zero for A's margin, one
    floating bar per row of ``diff.attribution_shown`` (an input's Shapley value for the ratio, and,
    where they differ, the threshold and the benefit window as rows of their own; blue when it raises
    the margin, orange and hatched when it lowers it; the input named in words with its change from
    ``diff.inputs``), and a bar from zero for B's margin. Each side's tick label gives its ratio
    against its threshold. The contributions add up to ``margin_b - margin_a`` (the Diff's
    contract; where the thresholds are the same that is the ratio's change); the chart only draws
    them.

    Parameters
    ----------
    diff : Diff
        :func:`netbenefit.diff`: ``name_a``, ``name_b``, ``ratio_a``, ``ratio_b``, ``threshold_a``,
        ``threshold_b``, ``margin_a``, ``margin_b``, ``passes_a``, ``passes_b``, ``inputs`` (``key``,
        ``old``, ``new``) and ``attribution`` (``key``, ``contribution``).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    attribution = getattr(diff, "attribution_shown", diff.attribution)
    start, end_value = float(diff.margin_a), float(diff.margin_b)
    ax = axes_or_new(ax, (10.0, 5.5))
    changes = {}
    inputs = getattr(diff, "inputs", None)
    if inputs is not None and len(inputs):
        for row in inputs.to_dict("records"):
            changes[row["key"]] = (row["old"], row["new"])
    rows = attribution.to_dict("records")
    width = max(6, characters_across(ax, 8) // (len(rows) + 2) - 1)  # a tick label's line [characters]

    def side(letter: str, name: str, value: float, threshold: float, passes: bool) -> str:
        written, limit = labels.ratio_verdict(value, threshold, passes, 1)
        ratio = tick_text(f"{written} vs {limit}", width, lines=2)
        return f"{tick_text(f'{letter}: {name}', width, lines=2)}\n{ratio}"

    names = [side("A", diff.name_a, diff.ratio_a, diff.threshold_a, diff.passes_a)]
    positions = [0]
    _margin_bar(ax, 0, start, diff.passes_a, NEUTRAL_COLOUR)
    steps, levels = _contribution_bars(ax, rows, start, changes, width)
    names += steps
    positions += range(1, len(rows) + 1)
    reached = [0.0, start, end_value, *levels]  # every level a bar reaches, for the limits
    end = len(positions)
    _margin_bar(ax, end, end_value, diff.passes_b, THRESHOLD_COLOUR)
    names.append(side("B", diff.name_b, diff.ratio_b, diff.threshold_b, diff.passes_b))
    positions.append(end)
    ax.set_xticks(positions, names, fontsize=8, rotation=0)
    points_axis(ax.yaxis)
    top, bottom = max(reached), min(reached)
    span = (top - bottom) or 1.0
    ax.set_ylim(bottom - 0.1 * span if bottom < 0 else 0.0, top + 0.3 * span)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("Scenario and change of input")
    ax.set_ylabel("Margin over the threshold [percentage points]")
    set_title(
        ax,
        f"Margin over the threshold: A {_points(start, diff.passes_a)}, B {_points(end_value, diff.passes_b)}\n"
        f"A: {diff.name_a}\nB: {diff.name_b}",
        lines=3,
    )
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(handles=pass_fail_handles("Raises the margin", "Lowers the margin"), loc="upper right", fontsize=8.5)
    source = [getattr(diff, name, None) for name in ("result_a", "result_b")]
    conventions_footnote(
        [r for r in source if r is not None] or getattr(diff, "conventions", None),
        ax,
        extra=(
            "The margin is the ratio of the test that decides 71(a)(5) minus the threshold; zero is each side's "
            "threshold. Contributions (percentage points: the ratio's Shapley values, and the threshold and the "
            "benefit window where they differ) are the Diff's attribution; they add up to the change."
        ),
    )
    return ax


def _margin_bar(ax: Axes, position: int, margin: float, passes: bool, colour: str) -> None:
    """A side's margin, a bar from zero (the threshold), labelled in points."""
    ax.bar(position, margin, width=0.6, color=colour)  # from zero: the threshold
    ax.annotate(
        _points(margin, passes),
        (position, max(margin, 0.0)),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        fontsize=8.5,
    )


def _contribution_bars(ax: Axes, rows: list, level: float, changes: dict, width: int) -> tuple[list, list]:
    """One floating bar per row of the attribution, from the level the row before it left, blue
    up or orange down, labelled in points: the tick label of each, and each level reached."""
    names, reached = [], []
    for i, row in enumerate(rows, start=1):
        key, contribution = row["key"], float(row["contribution"])
        ax.bar(i, contribution, bottom=level, width=0.6, **pass_fail(contribution >= 0))
        ax.plot([i - 1.3, i + 0.3], [level, level], color="#999999", linewidth=0.8)
        ax.annotate(
            _points(contribution),
            (i, max(level, level + contribution)),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            fontsize=8.5,
        )
        names.append(tick_text(_change_name(key, changes.get(key)), width, lines=4))
        level += contribution
        reached.append(level)
    return names, reached
