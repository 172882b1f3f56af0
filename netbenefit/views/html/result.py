"""What a notebook shows of a result and of several results, and the tables on one result that
the report reuses.

- :func:`result_html` is what a :class:`~netbenefit.model.result.Result` shows in a notebook
  (``Result._repr_html_``): the ratio against its threshold, the checks and the cash flows.
- :func:`comparison_html` is what a :class:`~netbenefit.model.compare.Comparison` shows: a styled
  summary table, one row per result.

Every function reads the result's fields and tables; none applies a rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...io.safe_text import Markup
from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...labels import cell, jobs, money_exact, ratio, share
from ...labels import net_benefit_headline as labels_headline
from ..decision_words import MAX_CREDIT_WORDS, deciding_name, deciding_ratio, max_credit_text, phased
from .pieces import FAIL_STYLE, PASS_STYLE, STYLE, html_table
from .table import Cell, table_html

if TYPE_CHECKING:
    from ...model.result import Result

#: Columns of the cash-flow table shown in a notebook (the report shows every column).
CASHFLOW_HEADLINE_COLUMNS = (
    "full_time_jobs",
    "capital_investment",
    "revenues",
    "costs",
    "weight",
    "counted_net_benefits",
    "discount_factor",
    "pv_net_benefits",
    "credits",
    "pv_credits",
    "cumulative_pv_net_benefits",
    "cumulative_pv_credits",
)


# ----------------------------------------------------------------------------------------------
# One result
# ----------------------------------------------------------------------------------------------


def _verdict(passed: bool) -> Markup:
    style = PASS_STYLE if passed else FAIL_STYLE
    word = "PASS" if passed else "FAIL"
    return Markup(f'<span style="{style};font-weight:bold;padding:0 4px;white-space:nowrap">{word}</span>')


_NO_WRAP = "white-space:nowrap"


def _cashflow_cell(column: str, value) -> str:
    """A cell of the cash flows, by the unit of its column's label; a scenario's own stream is USD."""
    return cell(column, value, unknown="USD")


def headline_html(result: Result) -> str:
    """The verdict: the deciding test's ratio against the threshold and clause, passes or fails (where
    the pass rests on the elected extension, what the test gives without it), eligible or not; then the
    present values (for a phased project the deciding test's and the whole project's, each named) and
    the requested credits scaled alike until every test passes."""
    style = PASS_STYLE if result.passes else FAIL_STYLE
    value, threshold, others = labels_headline(result.net_benefit_decision, 1)  # from the 71(a)(5) record
    extension = result.extension_words()
    if phased(result):
        row = result.table_rows("phase_tests")[result.net_benefit_decision.deciding]
        values = (
            f"Deciding test, {escape(deciding_name(result))}: PV of net benefits {money_exact(row.pv_benefits)}; "
            f"PV of requested credits {money_exact(row.pv_credits)}. Whole project: PV of net benefits "
            f"{money_exact(result.pv_benefits)}; PV of requested credits {money_exact(result.pv_credits)}; "
            f"whole project's ratio {ratio(result.whole_project_ratio, 1)}."
        )
    else:
        values = (
            f"PV of net benefits {money_exact(result.pv_benefits)}; "
            f"PV of requested credits {money_exact(result.pv_credits)}."
        )
    return (
        f'<div class="headline" style="{style}"><b>{escape(result.name)}</b>: net benefit '
        f"{'test' if others else 'ratio'} <b>{escape(value)}</b> vs threshold <b>{threshold}</b> "
        f"({escape(result.threshold_clause)}): <b>{'passes' if result.passes else 'fails'}</b>"
        f"{f' ({escape(others)})' if others else ''}{f'; {escape(extension)}' if extension else ''}; "
        f"<b>{'ELIGIBLE' if result.eligible else 'NOT ELIGIBLE'}</b><br>{values} "
        f"{MAX_CREDIT_WORDS}, PV {escape(max_credit_text(result, money_exact))}.</div>"
    )


def checks_html(result: Result) -> str:
    """The checks of ``result.checks``: clause id, PASS or FAIL, message."""
    rows = [
        [
            Cell(Markup(f"<code>{escape(row.id)}</code>"), style=_NO_WRAP),
            Cell(_verdict(bool(row.passed)), style=_NO_WRAP),
            row.message,
        ]
        for row in result.checks.itertuples(index=False)
    ]
    return table_html(["Clause", "Result", "Message"], rows)


def _own_streams(result: Result) -> set[str]:
    scenario = result.scenario
    return {s.name for s in scenario.streams} | {s.name for phase in scenario.phases for s in phase.streams}


def cashflows_html(
    result: Result, columns: Sequence[str] | None = None, *, group: int | None = None, truncate: bool = False
) -> str:
    """``result.cashflows`` by project year (every column, or ``columns``), money as dollars.

    With ``group``, the columns are split into tables of at most ``group`` columns, each with
    the project year, so that a printed page keeps every column. With ``truncate`` (a notebook),
    the years are cut as pandas cuts a long table (``display.max_rows``).
    """
    frame = result.cashflows
    if columns is not None:
        frame = frame[[c for c in columns if c in frame.columns]]
    streams = _own_streams(result)
    names = list(frame.columns)
    size = group or max(len(names), 1)
    parts = []
    for start in range(0, len(names), size):
        part = frame[names[start : start + size]]
        parts.append(
            html_table(part, _cashflow_cell, index="year", streams=streams, truncate=truncate)
        )
    return "".join(parts)


def phase_tests_html(result: Result) -> str:
    """The cumulative tests of a phased project (``result.phase_tests``)."""
    deciding = result.net_benefit_decision.deciding if len(result.phase_tests) > 1 else None
    rows = [
        [
            "+".join(str(k) for k in row.phases) + (" (decides)" if i == deciding else ""),
            Cell(money_exact(row.pv_benefits), numeric=True),
            Cell(money_exact(row.pv_credits), numeric=True),
            Cell(ratio(row.ratio, 1), numeric=True),
            Cell(_verdict(bool(row.passes)), style=_NO_WRAP),
        ]
        for i, row in enumerate(result.phase_tests.itertuples(index=False))
    ]
    head = ["Phases", "PV of net benefits [USD]", "PV of tax credits [USD]", "Net benefit ratio [%]", "Test"]
    return table_html(head, rows)


def award_calculation_html(result: Result) -> str:
    """The section 75 build-up of the credit (``result.award_calculation``), or "" when the award
    was given directly."""
    table = getattr(result, "award_calculation", None)
    if table is None or table.empty:
        return ""

    def cell(column, value) -> str:
        if isinstance(value, float) and math.isnan(value):
            return ""
        if column in ("per_job", "annual", "total"):
            return money_exact(value)
        if column == "jobs":
            return jobs(value)
        return escape(str(value))

    return html_table(table, cell)


def warnings_html(result: Result) -> str:
    """The plausibility warnings of a result (``Result.warnings``) as a list; "" when there are none."""
    if not result.warnings:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in result.warnings)
    return (
        f'<div class="warnings" style="{FAIL_STYLE}"><b>Plausibility warnings</b> (valid inputs that are '
        f"probably a slip; evaluated as given)<ul>{items}</ul></div>"
    )


def result_html(result: Result) -> str:
    """The notebook view of one result: headline, checks, and the main cash-flow columns."""
    phases = ""
    if len(result.phase_tests) > 1:
        phases = f"<h3>Cumulative tests by phase, 71(a)(5)</h3>{phase_tests_html(result)}"
    return (
        f'<div class="netbenefit"><style>{STYLE}</style>{headline_html(result)}{warnings_html(result)}'
        f"<h3>Checks, P.L.2020, c.156, s.71</h3>{checks_html(result)}{phases}"
        f"<details><summary><b>Cash flows by project year</b> (nominal USD; present values at approval, "
        f"{share(result.discount_rate, 2)} discount rate)</summary>"
        f"{cashflows_html(result, CASHFLOW_HEADLINE_COLUMNS, truncate=True)}</details></div>"
    )


# ----------------------------------------------------------------------------------------------
# Several results
# ----------------------------------------------------------------------------------------------


def comparison_html(results: Sequence[Result]) -> str:
    """A styled summary table, one row per result, each row coloured by its net benefit test."""
    rows, styles = [], []
    for result in results:
        failed = " ".join(row.id for row in result.checks.itertuples(index=False) if not row.passed)
        styles.append(PASS_STYLE if result.passes else FAIL_STYLE)
        value, threshold = deciding_ratio(result, 1)  # the deciding test's, written true to its verdict
        name = deciding_name(result)
        verdict = result.extension_words() or ("passes" if result.passes else "fails")
        rows.append(
            [
                result.name,
                Cell(f"{name}: {value}" if name else value, numeric=True),
                Cell(threshold, numeric=True),
                result.threshold_clause,
                verdict,
                "yes" if result.eligible else "no",
                Cell(money_exact(result.pv_benefits), numeric=True),
                Cell(money_exact(result.pv_credits), numeric=True),
                Cell(money_exact(result.max_credit_pv), numeric=True),
                Cell(share(result.discount_rate, 2), numeric=True),
                failed,
            ]
        )
    header = list(
        (
            "Scenario",
            "Net benefit ratio of the deciding test [%]",
            "Threshold [%]",
            "Threshold clause",
            "Net benefit test",
            "Eligible",
            "PV of net benefits, whole project [USD]",
            "PV of tax credits, whole project [USD]",
            f"{MAX_CREDIT_WORDS}, PV [USD]",
            "Discount rate [%/year]",
            "Failed checks",
        )
    )
    return f'<div class="netbenefit"><style>{STYLE}</style>{table_html(header, rows, row_styles=styles)}</div>'

