"""Charts of analysis results: matplotlib only; they take tables and return the Axes."""

from __future__ import annotations

from typing import Any


def tornado(sensitivity_table, ax: Any = None, *, threshold: bool = True):
    """A tornado chart of a one-way sensitivity table (:func:`~netbenefit.analysis.sensitivity`).

    One horizontal bar per key, from the ratio at its low value to the ratio at its high value,
    the largest swing at the top; a vertical line at the base ratio and, when ``threshold`` is
    True and the table has a ``threshold`` column, a dashed one at the threshold. Computes no
    rule: it draws the table.

    Parameters
    ----------
    sensitivity_table : DataFrame
        Columns ``key``, ``low``, ``high``, ``ratio_low``, ``ratio_high`` (and ``ratio_base``,
        ``threshold``).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    threshold : bool
        Draw the threshold line.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 0.5 * len(sensitivity_table) + 1.5))
    table = sensitivity_table.iloc[::-1]  # largest swing drawn last, at the top
    positions = range(len(table))
    base = float(table["ratio_base"].iloc[0]) if "ratio_base" in table and len(table) else None
    for y, row in zip(positions, table.itertuples(index=False), strict=True):
        for ratio, value, color in ((row.ratio_low, row.low, "tab:red"), (row.ratio_high, row.high, "tab:blue")):
            start = base if base is not None else min(row.ratio_low, row.ratio_high)
            ax.barh(y, ratio - start, left=start, color=color, alpha=0.75, height=0.6)
            ax.annotate(
                f"{value:g}",
                (ratio, y),
                xytext=(3 if ratio >= start else -3, 0),
                textcoords="offset points",
                va="center",
                ha="left" if ratio >= start else "right",
                fontsize=8,
            )
    ax.set_yticks(list(positions))
    ax.set_yticklabels(list(table["key"]))
    if base is not None:
        ax.axvline(base, color="black", linewidth=1, label=f"base ratio {base:.2f}")
    if threshold and "threshold" in table and len(table):
        value = float(table["threshold"].iloc[0])
        ax.axvline(value, color="gray", linestyle="--", linewidth=1, label=f"threshold {value:.2f}")
    ax.set_xlabel("net benefit ratio (PV benefits / PV credits)")
    ax.set_title("One-way sensitivity of the net benefit ratio")
    ax.legend(loc="lower right", fontsize=8)
    return ax
