"""Rich display in Jupyter: scenarios, solver and Monte Carlo results, sensitivity tables, and
DataFrames indexed by check id or scenario with display formats.

Each ``*_html`` function is the ``_repr_html_`` of one object; :func:`styled` formats any
result table by the units of its columns (:mod:`netbenefit.law.labels`): ``$35,734,024``, ``480.6%``,
``6%``, never ``2.607269e+07``. Nothing here computes a rule; the HTML escapes every user text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from ..law import labels
from ..model.compare import compare
from .charts import new_figure, ratio_waterfall
from .html import STYLE, figure_png_base64, flatten, html_table, written_value

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis.montecarlo import MonteCarloResult
    from ..analysis.solvers import SolverResult
    from ..model.result import Result
    from ..model.scenario import Scenario


def _wrap(body: str) -> str:
    return f'<div class="netbenefit"><style>{STYLE}</style>{body}</div>'


def _rows(pairs) -> str:
    return "".join(f"<tr><th>{escape(str(name))}</th><td>{escape(str(value))}</td></tr>" for name, value in pairs)


def scenario_html(scenario: Scenario) -> str:
    """A scenario in a notebook: its name, source and every input as written, with its label."""
    rows = []
    for key, value in flatten(scenario.as_written):
        words = labels.label(key, default="")
        rows.append(
            f"<tr><td><code>{escape(key)}</code></td><td>{escape(words)}</td>"
            f"<td>{escape(written_value(value))}</td></tr>"
        )
    return _wrap(
        f"<b>Scenario {escape(scenario.name)}</b> <small>({escape(scenario.source)})</small>"
        "<details open><summary>Inputs as written</summary><table><thead><tr><th>Key</th><th>Input</th>"
        f"<th>Value</th></tr></thead><tbody>{''.join(rows)}</tbody></table></details>"
    )


def _detail(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        try:
            return labels.value(name, value, short=False)
        except KeyError:
            return labels.number(value)
    return str(value)


def solver_html(result: SolverResult) -> str:
    """A solver's answer: the value, the status, the message and the supporting numbers."""
    value = "none" if result.value is None else labels.number(result.value)
    details = _rows((name.replace("_", " "), _detail(name, v)) for name, v in result.details.items())
    style = "background:#e8f1fa;color:#0b4f8a" if result.solved else "background:#fde9d9;color:#a34700"
    return _wrap(
        f'<div class="headline" style="{style}"><b>{escape(result.status.replace("_", " "))}</b>: '
        f"{escape(result.message)}</div><table><tbody>{_rows([('Value', value)])}{details}</tbody></table>"
    )


def montecarlo_html(run: MonteCarloResult) -> str:
    """A Monte Carlo run: probabilities, percentiles of the ratio and failures by check."""
    summary = run.summary
    pairs = [
        ("Draws", f"{summary.draws:,}"),
        ("Probability of passing the net benefit test", labels.share(summary.probability_passes, 1)),
        ("Probability of eligibility (every check)", labels.share(summary.probability_eligible, 1)),
        ("Mean net benefit ratio", labels.ratio(summary.ratio_mean, 1)),
    ]
    pairs += [(f"Ratio, {p}th percentile", labels.ratio(v, 1)) for p, v in summary.ratio_percentiles.items()]
    if summary.undefined:
        pairs.append(("Draws with an undefined ratio (failing)", f"{summary.undefined:,}"))
    most = summary.most_failed_check
    if most is not None:
        pairs.append(("Check failed most often", f"{most[0]}, {labels.share(most[1] / summary.draws, 1)} of draws"))
    known = getattr(run, "key_labels", None) or {}  # with each key's phase
    varied = ", ".join(labels.varied_short_label(key, known) for key in run.vary)
    failures = ""
    if summary.check_failures:
        failures = "<h3>Draws failing each check</h3><table><thead><tr><th>Check</th><th>Draws</th><th>Share</th>"
        failures += "</tr></thead><tbody>"
        failures += "".join(
            f"<tr><td><code>{escape(check_id)}</code></td><td class='num'>{count:,}</td>"
            f"<td class='num'>{labels.share(count / summary.draws, 1)}</td></tr>"
            for check_id, count in summary.check_failures.items()
        )
        failures += "</tbody></table>"
    return _wrap(
        f"<b>Monte Carlo</b>: {escape(varied)}; seed {run.seed}<table><tbody>{_rows(pairs)}</tbody></table>{failures}"
    )


def sensitivity_html(table: pd.DataFrame) -> str:
    """A sensitivity table with inputs in words, values by unit, ratios as percents, and each end
    at which the project is not eligible marked."""
    rows = []
    known = table.attrs.get("key_labels") or {}  # each key in words, with its phase
    for row in table.to_dict("records"):
        key = row["key"]
        ends = []
        for end in ("low", "high"):
            text = f"{_detail(key, row[end])} &rarr; {labels.ratio(row[f'ratio_{end}'], 1)}"
            if not row.get(f"eligible_{end}", True):
                text += ' <b style="color:#a34700">not eligible</b>'
            ends.append(text)
        rows.append(
            f"<tr><td>{escape(known.get(key) or labels.label(key, default=key))}</td>"
            f"<td class='num'>{escape(_detail(key, row['base']))}</td>"
            f"<td>{ends[0]}</td><td>{ends[1]}</td><td class='num'>{labels.ratio(row['swing'], 1)}</td></tr>"
        )
    base = labels.ratio(float(table["ratio_base"].iloc[0]), 1) if len(table) else ""
    threshold = labels.ratio(float(table["threshold"].iloc[0])) if len(table) else ""
    return _wrap(
        f"<b>One-way sensitivity</b>: base ratio {base} vs {threshold} threshold<table><thead><tr><th>Input</th>"
        "<th>Base</th><th>Low value &rarr; ratio</th><th>High value &rarr; ratio</th><th>Swing</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


# ----------------------------------------------------------------------------------------------
# DataFrames for display
# ----------------------------------------------------------------------------------------------


def checks_frame(result: Result) -> pd.DataFrame:
    """``result.checks`` indexed by check id (``71(a)(2)``...): ``passed`` and ``message``."""
    return result.checks.set_index("id")


def comparison_frame(results: Sequence[Result]) -> pd.DataFrame:
    """:func:`netbenefit.compare` indexed by scenario name."""
    table = compare(results)
    return table.set_index("name") if "name" in table.columns else table


def formats(frame: pd.DataFrame, *, unknown: str = "", units: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A display format for each column of ``frame`` with a unit: dollars through the one money
    formatter (``$35,734,024``, ``-$1,234``: :func:`netbenefit.law.labels.money_exact`), shares and
    ratios as percents, job counts whole (one decimal where fractional), other numbers plain.
    ``unknown`` is the unit of a column without a label (``"USD"`` for a scenario's own stream);
    ``units`` gives the unit of a column by its name, before its label."""
    out: dict[str, Any] = {}
    units = units or {}
    for column in frame.columns:
        name = str(column)
        if frame[column].dtype.kind not in "if":
            if frame[column].dtype.kind == "O":  # lists (the phases of a cumulative test): "1 + 2"
                out[column] = _listed
            continue
        try:
            unit = units[name] if name in units else labels.unit(name)
        except KeyError:
            unit = unknown
            if not unit:
                continue
        if unit.startswith("USD"):
            out[column] = labels.money_exact
        elif unit.startswith("share") or (unit in ("%", "ratio") and name != "discount_factor"):
            out[column] = "{:.1%}"
        elif unit == "percentage points":  # a multiple shown as signed points: 0.7217 as +72.17
            out[column] = _points
        elif unit in ("jobs", "years", "sq ft", ""):
            whole = (frame[column].dropna() % 1 == 0).all()
            out[column] = "{:,.0f}" if whole else "{:,.1f}"
        else:
            out[column] = "{:,.4g}"
    return out


def _points(value: Any) -> str:
    return labels.cell("margin", value)


def _listed(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " + ".join(str(item) for item in value)
    return "" if value is None else str(value)


def styled(frame: pd.DataFrame, *, unknown: str = "", units: Mapping[str, str] | None = None):
    """``frame`` as a pandas Styler: each column formatted by its unit, headers in words.

    >>> styled(result.cashflows)  # doctest: +SKIP
    """
    styler = frame.style.format(formats(frame, unknown=unknown, units=units), na_rep="")

    def header(name):
        return labels.label(str(name), default=str(name))

    return styler.format_index(header, axis=1)


def result_table_html(table: pd.DataFrame, unknown: str = "", units: Mapping[str, str] | None = None) -> str:
    """A table in a notebook (:class:`netbenefit.model.tables.ResultTable`): headers in words with
    units, cells by unit (``units`` by column name, before the labels')."""
    import pandas as pd

    plain = pd.DataFrame(table)
    try:
        import jinja2  # noqa: F401 - pandas' Styler needs it (the notebook extra)
    except ImportError:  # the same headers and cells, without the Styler

        def cell(column, value) -> str:
            return escape(_cell(column, value, (units or {}).get(str(column), unknown)))

        return _wrap(html_table(plain, cell, index=plain.index.name))
    styler = styled(plain, unknown=unknown, units=units)
    if plain.index.name is None and isinstance(plain.index, pd.RangeIndex):
        styler = styler.hide(axis="index")
    return _wrap(styler.to_html())


def _cell(column: Any, value: Any, unknown: str) -> str:
    if isinstance(value, list | tuple):
        return _listed(value)
    return labels.cell(str(column), value, unknown=unknown)


def diff_html(diff: Any) -> str:
    """A Diff: the ratios and present values, the inputs that differ (in words, by unit), the
    attribution (percentage points of the ratio, adding up to the change) and the waterfall chart."""
    pairs = [
        ("A", diff.name_a),
        ("B", diff.name_b),
        ("Net benefit ratio", _ratios(diff.ratio_a, diff.ratio_b)),
        (
            "Threshold",
            f"{labels.ratio(diff.threshold_a)} ({diff.threshold_clause_a}) to "
            f"{labels.ratio(diff.threshold_b)} ({diff.threshold_clause_b})",
        ),
        (
            "Margin (ratio minus threshold)",
            f"{labels.margin_points(diff.margin_a, diff.passes_a)} to "
            f"{labels.margin_points(diff.margin_b, diff.passes_b)}",
        ),
        *[("Note", sentence[0].upper() + sentence[1:] + ".") for sentence in diff.differences_in_words()],
        ("PV of net benefits", _change(diff.pv_benefits_a, diff.pv_benefits_b)),
        ("PV of tax credits", _change(diff.pv_credits_a, diff.pv_credits_b)),
    ]
    inputs = "".join(
        f"<tr><td>{escape(labels.label(row.key, default=row.key))}</td><td>{escape(_detail(row.key, row.old))}</td>"
        f"<td>{escape(_detail(row.key, row.new))}</td></tr>"
        for row in diff.inputs.itertuples(index=False)
    )
    inputs_table = (
        "<h3>Inputs that differ</h3><table><thead><tr><th>Input</th><th>A</th><th>B</th></tr></thead>"
        f"<tbody>{inputs}</tbody></table>"
        if inputs
        else "<p>The two scenarios have the same inputs.</p>"
    )
    attribution = ""
    table = diff.attribution_shown
    if not table.empty:
        rows = "".join(
            f"<tr><td>{escape(_group_label(row.key))}</td><td class='num'>{100 * row.contribution:+.1f} pts</td></tr>"
            for row in table.itertuples(index=False)
        )
        total = 100 * float(table["contribution"].sum())
        how = "by block" if diff.grouped else "by input"
        what = "the ratio" if table is diff.attribution else "the margin (the threshold and the window as rows)"
        attribution = (
            f"<h3>What moved {what}, {how} (Shapley values; they add up)</h3><table><thead><tr><th>Input</th>"
            f"<th>Contribution [percentage points]</th></tr></thead><tbody>{rows}"
            f"<tr><th>Total</th><td class='num'>{total:+.1f} pts</td></tr></tbody></table>"
        )
    figure, ax = new_figure()
    ratio_waterfall(diff, ax=ax)
    chart = f'<img alt="Ratio waterfall from A to B" src="data:image/png;base64,{figure_png_base64(figure)}">'
    return _wrap(f"<b>Diff</b><table><tbody>{_rows(pairs)}</tbody></table>{inputs_table}{attribution}{chart}")


def _ratios(a: float, b: float) -> str:
    return f"{labels.ratio(a, 1)} to {labels.ratio(b, 1)} ({100 * (b - a):+.1f} pts)"


def _change(a: float, b: float) -> str:
    return f"{labels.money_exact(a)} to {labels.money_exact(b)}"


def _group_label(key: str) -> str:
    return " + ".join(labels.label(part, default=part) for part in str(key).split(" + "))
