"""Charts of the award calculator, life after approval and the economist's view (matplotlib).

Each function takes results that the library computed, draws on ``ax`` (a new figure when it is
None) and returns the Axes. No chart computes a rule.
"""

from __future__ import annotations

import numpy as np


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    return ax


def _dollars(ax, axis: str = "y") -> None:
    from matplotlib.ticker import FuncFormatter

    formatter = FuncFormatter(lambda value, _: f"${value:,.0f}")
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(formatter)


def award_waterfall(award_calculation, ax=None, phase: int | None = None):
    """The credit per job per year built up step by step: base, bonuses, cap, labor harmony.

    Parameters
    ----------
    award_calculation : DataFrame
        ``Result.award_calculation`` (or :func:`netbenefit.award.award_table`).
    ax : matplotlib Axes, optional
    phase : int, optional
        The phase to draw; default the first one in the table.

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    table = award_calculation
    phase = int(table["phase"].iloc[0]) if phase is None else phase
    table = table[table["phase"] == phase]
    steps = table[table["step"].isin(["base", "bonus", "cap", "labor_harmony"])]
    labels, bottoms, heights, colors, signed = [], [], [], [], []
    level = 0.0
    palette = {"base": "#4c72b0", "bonus": "#55a868", "cap": "#c44e52", "labor_harmony": "#8172b2"}
    for row in steps.itertuples(index=False):
        amount = float(row.per_job)
        labels.append("base" if row.step == "base" else row.item if row.step == "bonus" else row.step.replace("_", " "))
        bottoms.append(level if amount >= 0 else level + amount)
        heights.append(abs(amount))
        signed.append(amount)
        colors.append(palette[row.step])
        level += amount
    by_step = table.set_index("step")
    for step, label in (("per_new_job", "per new job"), ("per_retained_job", "per retained job")):
        labels.append(label)
        bottoms.append(0.0)
        heights.append(float(by_step.loc[step, "per_job"]))
        signed.append(heights[-1])
        colors.append("#333333" if step == "per_new_job" else "#999999")
    positions = np.arange(len(labels))
    ax.bar(positions, heights, bottom=bottoms, color=colors)
    for x, bottom, height, amount in zip(positions, bottoms, heights, signed, strict=True):
        text = f"-${-amount:,.0f}" if amount < 0 else f"${amount:,.0f}"
        ax.annotate(text, (x, bottom + height), ha="center", va="bottom", fontsize="small")
    ax.set_xticks(positions, labels, rotation=30, ha="right")
    _dollars(ax)
    ax.set_ylabel("credit per job per year")
    ax.set_title("Award build-up, section 75 of P.L.2020, c.156")
    return ax


def credits_by_year(after, ax=None):
    """Approved vs certified credits by project year, forfeitures and any repayment.

    Parameters
    ----------
    after : netbenefit.after_approval.AfterApproval
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    years = after.years
    x = years.index.to_numpy()
    width = 0.4
    ax.bar(x - width / 2, years["approved_credit"], width, label="approved (projected)", color="#4c72b0")
    ax.bar(x + width / 2, years["certified_credit"], width, label="certified", color="#55a868")
    ax.bar(
        x + width / 2,
        years["forfeited_credit"],
        width,
        bottom=years["certified_credit"],
        label="forfeited (statewide workforce)",
        color="none",
        edgecolor="#c44e52",
        hatch="//",
    )
    if years["repayment"].any():
        ax.bar(x + width / 2, -years["repayment"], width, label="repayment, 71(a)(5)(d)", color="#c44e52")
    flagged = years.index[years["rerun_flag"]].to_numpy()
    if flagged.size:
        top = float(years["approved_credit"].max())
        ax.scatter(
            flagged,
            np.full(flagged.shape, top),
            marker="v",
            color="#dd8452",
            zorder=3,
            label="jobs or salary fell: test may be re-run",
        )
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(x)
    ax.set_xlabel("project year")
    _dollars(ax)
    ax.set_ylabel("tax credit")
    ax.set_title("Projected vs actual: credits by year")
    low, high = ax.get_ylim()
    ax.set_ylim(low, high + (high - low) * 0.45)  # room for the legend above the bars
    ax.legend(fontsize="small", loc="upper center", ncol=2)
    return ax


def economist_view_chart(table, ax=None):
    """Net benefit ratio of each view (statutory, but-for, net of the cost of growth) and the
    statutory threshold.

    Parameters
    ----------
    table : DataFrame
        :func:`netbenefit.economics.economist_view`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    labels = [name.replace("_", " ") for name in table.index]
    colors = ["#55a868" if ok else "#c44e52" for ok in table["passes_threshold"]]
    ax.barh(labels, table["ratio"], color=colors)
    threshold = float(table["threshold"].iloc[0])
    ax.axvline(threshold, color="black", linestyle="--", label=f"statutory threshold {threshold:.2f}")
    ax.axvline(1, color="grey", linestyle=":", label="break-even (benefits = credits)")
    ax.invert_yaxis()
    ax.set_xlabel("PV benefits / PV credits")
    ax.set_title("The statutory test and the economist's view")
    ax.legend(fontsize="small")
    return ax
