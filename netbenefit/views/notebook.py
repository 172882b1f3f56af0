"""Rich display in Jupyter: scenarios, solver and Monte Carlo results, sensitivity tables, and
DataFrames indexed by check id or scenario with display formats.

Each ``*_html`` function is the ``_repr_html_`` of one object; :func:`styled` formats any
result table by the units of its columns (:mod:`netbenefit.labels`): ``$35,734,024``, ``480.6%``,
``6%``, never ``2.607269e+07``. Nothing here computes a rule; every table is made by the one
renderer, :mod:`netbenefit.views.html.table`, which escapes every value, header and index label.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import labels
from ..io.safe_text import Markup
from ..io.safe_text import html as escape  # one rule for user text in HTML
from ..model.compare import compare
from .charts import new_figure, ratio_waterfall
from .html import STYLE, figure_png_base64, flatten, written_value
from .html.table import Cell, frame_html, pairs_html, plain_text, table_html

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis.montecarlo import MonteCarloResult
    from ..analysis.solvers import SolverResult
    from ..model.result import Result
    from ..model.scenario import Scenario


def _wrap(body: str) -> str:
    return f'<div class="netbenefit"><style>{STYLE}</style>{body}</div>'


def _code(text: Any) -> Markup:
    return Markup(f"<code>{escape(text)}</code>")


def scenario_html(scenario: Scenario) -> str:
    """A scenario in a notebook: its name, source and every input as written, with its label."""
    rows = [
        [_code(key), labels.label(key, default=""), written_value(value)]
        for key, value in flatten(scenario.as_written)
    ]
    return _wrap(
        f"<b>Scenario {escape(scenario.name)}</b> <small>({escape(scenario.source)})</small>"
        f"<details open><summary>Inputs as written</summary>{table_html(['Key', 'Input', 'Value'], rows)}</details>"
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
    details = [(name.replace("_", " "), _detail(name, v)) for name, v in result.details.items()]
    style = "background:#e8f1fa;color:#0b4f8a" if result.solved else "background:#fde9d9;color:#a34700"
    return _wrap(
        f'<div class="headline" style="{style}"><b>{escape(result.status.replace("_", " "))}</b>: '
        f"{escape(result.message)}</div>{pairs_html([('Value', value), *details])}"
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
        rows = [
            [_code(check_id), Cell(f"{count:,}", numeric=True), Cell(labels.share(count / summary.draws, 1), True)]
            for check_id, count in summary.check_failures.items()
        ]
        failures = f"<h3>Draws failing each check</h3>{table_html(['Check', 'Draws', 'Share'], rows)}"
    return _wrap(f"<b>Monte Carlo</b>: {escape(varied)}; seed {escape(run.seed)}{pairs_html(pairs)}{failures}")


def sensitivity_html(table: pd.DataFrame) -> str:
    """A sensitivity table with inputs in words, values by unit, ratios as percents, and each end
    at which the project is not eligible marked."""
    rows = []
    known = table.attrs.get("key_labels") or {}  # each key in words, with its phase
    for row in table.to_dict("records"):
        key = row["key"]
        ends = []
        for end in ("low", "high"):
            text = f"{escape(_detail(key, row[end]))} &rarr; {escape(labels.ratio(row[f'ratio_{end}'], 1))}"
            if not row.get(f"eligible_{end}", True):
                text += ' <b style="color:#a34700">not eligible</b>'
            ends.append(Markup(text))
        rows.append(
            [
                known.get(key) or labels.label(key, default=key),
                Cell(_detail(key, row["base"]), numeric=True),
                *ends,
                Cell(labels.ratio(row["swing"], 1), numeric=True),
            ]
        )
    base = labels.ratio(float(table["ratio_base"].iloc[0]), 1) if len(table) else ""
    threshold = labels.ratio(float(table["threshold"].iloc[0])) if len(table) else ""
    head = ["Input", "Base", Markup("Low value &rarr; ratio"), Markup("High value &rarr; ratio"), "Swing"]
    return _wrap(
        f"<b>One-way sensitivity</b>: base ratio {escape(base)} vs {escape(threshold)} threshold"
        f"{table_html(head, rows)}"
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
    formatter (``$35,734,024``, ``-$1,234``: :func:`netbenefit.labels.money_exact`), shares and
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
    """``frame`` as a pandas Styler: each column formatted by its unit, headers in words, and every
    value, header, index label and index name escaped as the one renderer escapes them
    (:mod:`netbenefit.views.html.table`; the Styler itself leaves a name or a callable's text raw).
    A notebook shows netbenefit's tables through the renderer, which also cuts a long table as
    pandas does; this is for a Styler of your own.

    >>> styled(result.cashflows)  # doctest: +SKIP
    """
    shown = formats(frame, unknown=unknown, units=units)

    def cell_of(column):
        form = shown.get(column)
        if callable(form):
            return lambda value: escape(form(value))
        if isinstance(form, str):
            return lambda value: escape(plain_text(value) if isinstance(value, str) else form.format(value))
        return lambda value: escape(plain_text(value))

    def header(name):
        return escape(labels.label(str(name), default=str(name)))

    safe = frame.rename_axis(index=[None if n is None else escape(n) for n in frame.index.names])
    safe = safe.rename_axis(columns=[None if n is None else escape(n) for n in frame.columns.names])
    styler = safe.style.format({column: cell_of(column) for column in frame.columns}, na_rep="")
    return styler.format_index(header, axis=1).format_index(lambda label: escape(label), axis=0)


def result_table_html(table: pd.DataFrame, unknown: str = "", units: Mapping[str, str] | None = None) -> str:
    """A table in a notebook (:class:`netbenefit.model.tables.ResultTable`): headers in words with
    units, cells by unit (``units`` by column name, before the labels'), every value, header and
    index label escaped, and cut as pandas cuts its own tables (``display.max_rows``,
    ``display.min_rows``, ``display.max_columns``: :func:`netbenefit.views.html.table.frame_html`)."""
    import pandas as pd

    plain = pd.DataFrame(table)
    shown = formats(plain, unknown=unknown, units=units)

    def cell(column, value) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ""
        form = shown.get(column)
        if callable(form):
            return form(value)
        if isinstance(form, str) and not isinstance(value, str):
            return form.format(value)
        return plain_text(value)

    def header(name) -> str:
        return labels.label(str(name), default=str(name))

    index = None
    if plain.index.name is not None or not isinstance(plain.index, pd.RangeIndex):
        index = "" if plain.index.name is None else header(plain.index.name)
    return _wrap(frame_html(plain, cell, header=header, index=index, truncate=True))


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
    inputs = [
        [labels.label(row.key, default=row.key), _detail(row.key, row.old), _detail(row.key, row.new)]
        for row in diff.inputs.itertuples(index=False)
    ]
    inputs_table = (
        f"<h3>Inputs that differ</h3>{table_html(['Input', 'A', 'B'], inputs)}"
        if inputs
        else "<p>The two scenarios have the same inputs.</p>"
    )
    attribution = ""
    table = diff.attribution_shown
    if not table.empty:
        rows = [
            [_group_label(row.key), Cell(f"{100 * row.contribution:+.1f} pts", numeric=True)]
            for row in table.itertuples(index=False)
        ]
        total = 100 * float(table["contribution"].sum())
        rows.append([Cell("Total", header=True), Cell(f"{total:+.1f} pts", numeric=True)])
        how = "by block" if diff.grouped else "by input"
        what = "the ratio" if table is diff.attribution else "the margin (the threshold and the window as rows)"
        attribution = (
            f"<h3>What moved {what}, {how} (Shapley values; they add up)</h3>"
            f"{table_html(['Input', 'Contribution [percentage points]'], rows)}"
        )
    figure, ax = new_figure()
    ratio_waterfall(diff, ax=ax)
    chart = f'<img alt="Ratio waterfall from A to B" src="data:image/png;base64,{figure_png_base64(figure)}">'
    return _wrap(f"<b>Diff</b>{pairs_html(pairs)}{inputs_table}{attribution}{chart}")


def _ratios(a: float, b: float) -> str:
    return f"{labels.ratio(a, 1)} to {labels.ratio(b, 1)} ({100 * (b - a):+.1f} pts)"


def _change(a: float, b: float) -> str:
    return f"{labels.money_exact(a)} to {labels.money_exact(b)}"


def _group_label(key: str) -> str:
    return " + ".join(labels.label(part, default=part) for part in str(key).split(" + "))
