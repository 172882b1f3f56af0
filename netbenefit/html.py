"""HTML views of results: rich display in Jupyter, and the self-contained report.

- :func:`result_html` is what a :class:`~netbenefit.result.Result` shows in a notebook
  (``Result._repr_html_``): the ratio against its threshold, the checks and the cash flows.
- :class:`Comparison` wraps several results: in a notebook it shows a styled summary table,
  ``.table`` is :func:`netbenefit.compare`'s DataFrame and ``.plot()`` draws
  :func:`netbenefit.charts.compare_ratios`.
- :func:`report_html` is the stand-alone page of ``netbenefit report``: inputs, every check with
  its clause, the conventions used, the cash flows and the charts embedded as PNG images. It
  needs no network access to be read (no external style sheets, scripts or fonts).

Every function reads the result's fields and tables; none applies a rule.

>>> import netbenefit
>>> from netbenefit.html import Comparison
>>> comparison = Comparison.of(["scenarios/party_city.yaml", "scenarios/mega_project.yaml"])  # doctest: +SKIP
>>> comparison  # doctest: +SKIP
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from .result import Result
    from .scenario import Scenario

#: Background and text colours of a passed and a failed check (as in :mod:`netbenefit.charts`).
PASS_STYLE = "background:#e8f1fa;color:#0b4f8a"
FAIL_STYLE = "background:#fde9d9;color:#a34700"

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

#: Inline style sheet, scoped to the ``netbenefit`` class so that it leaves a notebook's own alone.
STYLE = """
.netbenefit { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; font-size: 13px;
  line-height: 1.4; color: #222; }
.netbenefit table { border-collapse: collapse; margin: 0.4em 0 1em 0; }
.netbenefit th, .netbenefit td { border: 1px solid #d0d0d0; padding: 3px 7px; vertical-align: top; }
.netbenefit th { background: #f3f3f3; text-align: left; }
.netbenefit td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.netbenefit .headline { font-size: 15px; padding: 8px 12px; border-radius: 4px; display: inline-block;
  margin: 4px 0 10px 0; }
.netbenefit .scroll { max-width: 100%; overflow-x: auto; }
.netbenefit h2 { font-size: 17px; margin: 1.2em 0 0.3em 0; }
.netbenefit h3 { font-size: 14px; margin: 1em 0 0.3em 0; }
.netbenefit pre { background: #f7f7f7; padding: 8px; border: 1px solid #e0e0e0; overflow-x: auto; }
.netbenefit figure { margin: 0.5em 0 1.5em 0; }
.netbenefit figure img { max-width: 100%; height: auto; border: 1px solid #e0e0e0; }
.netbenefit figcaption { font-size: 12px; color: #555; }
"""


# ----------------------------------------------------------------------------------------------
# Formatting
# ----------------------------------------------------------------------------------------------


def money(value: float) -> str:
    """``$1,234,567`` (negative ``-$1,234``). [USD]"""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"-${-value:,.0f}" if value < 0 else f"${value:,.0f}"


def percent(ratio: float, digits: int = 1) -> str:
    """A ratio as the statute writes it: 4.8064 -> ``480.6%``."""
    return f"{ratio:.{digits}%}"


def _verdict(passed: bool) -> str:
    style = PASS_STYLE if passed else FAIL_STYLE
    return f'<span style="{style};font-weight:bold;padding:0 4px">{"PASS" if passed else "FAIL"}</span>'


def _cashflow_cell(column: str, value) -> str:
    if column in ("new_full_time_jobs", "retained_full_time_jobs", "full_time_jobs"):
        return f"{value:,.1f}"
    if column == "weight" or column.startswith("weight_phase_"):
        return f"{value:.2f}"
    if column == "discount_factor":
        return f"{value:.6f}"
    return money(value)


def _table(frame: pd.DataFrame, cell, *, index: str | None = None) -> str:
    """An HTML table of ``frame``; ``cell(column, value)`` gives each cell's text (HTML)."""
    header = "".join(f"<th>{escape(str(c))}</th>" for c in ([index] if index else []) + list(frame.columns))
    rows = []
    for label, row in frame.iterrows():
        cells = [f'<td class="num">{escape(str(label))}</td>'] if index else []
        for column, value in row.items():
            text = cell(column, value)
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            cells.append(f'<td class="num">{text}</td>' if numeric else f"<td>{text}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f'<div class="scroll"><table><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'


def headline_html(result: Result) -> str:
    """One line: ratio against threshold and clause, passes or fails, eligible or not."""
    style = PASS_STYLE if result.passes else FAIL_STYLE
    return (
        f'<div class="headline" style="{style}"><b>{escape(result.name)}</b>: net benefit ratio '
        f"<b>{percent(result.ratio)}</b> vs threshold <b>{percent(result.threshold, 0)}</b> "
        f"({escape(result.threshold_clause)}): <b>{'passes' if result.passes else 'fails'}</b>; "
        f"<b>{'ELIGIBLE' if result.eligible else 'NOT ELIGIBLE'}</b><br>"
        f"PV of net benefits {money(result.pv_benefits)}; PV of requested credits {money(result.pv_credits)}; "
        f"largest credit that passes, PV {money(result.max_credit_pv)}</div>"
    )


def checks_html(result: Result) -> str:
    """The checks of ``result.checks``: clause id, PASS or FAIL, message."""
    rows = "".join(
        f'<tr><td style="white-space:nowrap"><code>{escape(row.id)}</code></td><td>{_verdict(bool(row.passed))}</td>'
        f"<td>{escape(row.message)}</td></tr>"
        for row in result.checks.itertuples(index=False)
    )
    return f"<table><thead><tr><th>clause</th><th>result</th><th>message</th></tr></thead><tbody>{rows}</tbody></table>"


def cashflows_html(result: Result, columns: Sequence[str] | None = None) -> str:
    """``result.cashflows`` by project year (every column, or ``columns``), money as dollars."""
    frame = result.cashflows
    if columns is not None:
        frame = frame[[c for c in columns if c in frame.columns]]
    return _table(frame, lambda column, value: escape(_cashflow_cell(column, value)), index="year")


def phase_tests_html(result: Result) -> str:
    """The cumulative tests of a phased project (``result.phase_tests``)."""
    rows = "".join(
        f"<tr><td>{'+'.join(str(k) for k in row.phases)}</td><td class='num'>{money(row.pv_benefits)}</td>"
        f"<td class='num'>{money(row.pv_credits)}</td><td class='num'>{percent(row.ratio)}</td>"
        f"<td>{_verdict(bool(row.passes))}</td></tr>"
        for row in result.phase_tests.itertuples(index=False)
    )
    return (
        "<table><thead><tr><th>phases</th><th>PV net benefits</th><th>PV credits</th><th>ratio</th>"
        f"<th>test</th></tr></thead><tbody>{rows}</tbody></table>"
    )


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
            return money(value)
        if column == "jobs":
            return f"{value:,.1f}"
        return escape(str(value))

    return _table(table, cell)


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
        f"{percent(result.discount_rate, 2)} discount rate)</summary>"
        f"{cashflows_html(result, CASHFLOW_HEADLINE_COLUMNS)}</details></div>"
    )


# ----------------------------------------------------------------------------------------------
# Several results
# ----------------------------------------------------------------------------------------------


def comparison_html(results: Sequence[Result]) -> str:
    """A styled summary table, one row per result, each row coloured by its net benefit test."""
    rows = []
    for result in results:
        failed = " ".join(row.id for row in result.checks.itertuples(index=False) if not row.passed)
        style = PASS_STYLE if result.passes else FAIL_STYLE
        rows.append(
            f'<tr style="{style}"><td>{escape(result.name)}</td><td class="num">{percent(result.ratio)}</td>'
            f'<td class="num">{percent(result.threshold, 0)}</td><td>{escape(result.threshold_clause)}</td>'
            f"<td>{'passes' if result.passes else 'fails'}</td><td>{'yes' if result.eligible else 'no'}</td>"
            f'<td class="num">{money(result.pv_benefits)}</td><td class="num">{money(result.pv_credits)}</td>'
            f'<td class="num">{money(result.max_credit_pv)}</td><td class="num">{percent(result.discount_rate, 2)}</td>'
            f"<td>{escape(failed)}</td></tr>"
        )
    header = "".join(
        f"<th>{h}</th>"
        for h in (
            "scenario",
            "ratio",
            "threshold",
            "clause",
            "net benefit test",
            "eligible",
            "PV net benefits",
            "PV credits",
            "largest credit that passes (PV)",
            "discount rate",
            "failed checks",
        )
    )
    return (
        f'<div class="netbenefit"><style>{STYLE}</style><table><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


@dataclass(frozen=True)
class Comparison:
    """Several evaluated scenarios, displayed side by side in a notebook.

    ``Comparison.of(items)`` evaluates scenario files or scenarios (results are kept as they
    are). In a notebook the comparison shows as a table coloured by the net benefit test;
    :attr:`table` is the DataFrame of :func:`netbenefit.compare`; :meth:`plot` draws the ratios.
    """

    results: tuple[Result, ...]

    @classmethod
    def of(cls, items: Iterable[Result | Scenario | str | Path]) -> Comparison:
        from .evaluate import evaluate
        from .result import Result

        return cls(tuple(item if isinstance(item, Result) else evaluate(item) for item in items))

    @property
    def table(self) -> pd.DataFrame:
        """One row per scenario: :func:`netbenefit.compare`."""
        from .compare import compare

        return compare(self.results)

    def plot(self, ax=None):
        """:func:`netbenefit.charts.compare_ratios` of these results; returns the Axes."""
        from .charts import compare_ratios

        return compare_ratios(self.results, ax=ax)

    def _repr_html_(self) -> str:
        return comparison_html(self.results)


# ----------------------------------------------------------------------------------------------
# The report
# ----------------------------------------------------------------------------------------------


def figure_png_base64(figure, *, dpi: float = 110) -> str:
    """``figure`` as a base64-encoded PNG, for an ``<img src="data:image/png;base64,...">``."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


CHART_CAPTIONS = {
    "cumulative_pv": "Cumulative present value of net benefits and of the requested credits, with the threshold "
    "multiple of the credits; the dotted line marks the year by which the benefits reach the threshold multiple "
    "of all the credits.",
    "benefit_streams": "Counted benefits to the State by year (nominal, inside the benefit window), by source "
    "and effect; costs to the State below zero; the line is the counted net benefit of the year.",
    "phase_ratios": "The net benefit test of the initial phase, then of phases 1..k cumulatively, 71(a)(5).",
    "repayment_schedule": "Repayment owed if the project is not maintained through the extended commitment, "
    "by extended years maintained, 71(a)(5)(d).",
    "scorecard": "Every eligibility check of section 71 with its clause.",
}


def conventions_html(result: Result) -> str:
    """The conventions behind the numbers: discount rate, timing, periods, threshold."""
    scenario = result.scenario
    award = scenario.award
    timing = (
        "end of year: a flow in project year t is discounted by (1 + r)<sup>-t</sup>"
        if scenario.timing == "end_of_year"
        else "mid-year: a flow in project year t is discounted by (1 + r)<sup>-(t - 0.5)</sup>"
    )
    first, last = award.first_credit_year, award.first_credit_year + award.eligibility_period_years - 1
    if result.extended_years == 0:
        extension = "none elected"
    elif result.extension_counted:
        extension = f"{result.extended_years} years elected and counted, 71(a)(5)(d)"
    else:
        extension = (
            f"{result.extended_years} years elected, not counted: the {escape(result.threshold_clause)} test counts "
            "benefits through the end of the commitment period only"
        )
    override = " (an override under 71(a)(5)(f))" if scenario.threshold_override is not None else ""
    excluded = ", ".join(escape(s) for s in result.excluded_streams) or "none"
    rows = [
        (
            "Discount rate",
            f"{percent(result.discount_rate, 2)} a year, nominal; the same rate for benefits and credits, 71(a)(5)(c)",
        ),
        ("Timing", f"{timing}; years are numbered 1, 2, ... from approval; present values are at approval"),
        (
            "Eligibility period (credits)",
            f"{award.eligibility_period_years} years, project years {first} to {last}; credits are never weighted",
        ),
        (
            "Commitment period",
            f"{result.commitment_period_years:g} years from the start of project year {first} "
            "(initial phase); benefits count through its end, a final part-year by its fraction",
        ),
        ("Extended commitment", extension),
        ("Threshold", f"{percent(result.threshold, 0)}, {escape(result.threshold_clause)}{override}"),
        (
            "Benefits",
            "counted before the value of the requested credit, 71(a)(5); streams excluded as abated, "
            f"71(a)(5)(e): {excluded}",
        ),
    ]
    body = "".join(f"<tr><th>{name}</th><td>{text}</td></tr>" for name, text in rows)
    return f"<table><tbody>{body}</tbody></table>"


def inputs_html(result: Result) -> str:
    """The scenario as validated (every value, defaults included), as YAML."""
    import yaml

    text = yaml.safe_dump(result.scenario.to_dict(), sort_keys=False, allow_unicode=True, width=100)
    return f"<pre>{escape(text)}</pre>"


def report_html(result: Result, *, version: str = "") -> str:
    """A self-contained HTML page on one result (the ``netbenefit report`` command).

    Sections: the verdict; every check with its clause and message; the conventions used; the
    cumulative tests by phase; the extended commitment; the section 75 build-up of the credit
    when the scenario uses the award calculator; the charts (PNG images embedded in the
    page as base64 data); the cash flows by project year, every column; the inputs. The page
    loads nothing from the network.

    Parameters
    ----------
    result : Result
    version : str
        The netbenefit version, shown in the footer.
    """
    from . import charts

    figures = []
    for chart in charts.meaningful_charts(result):
        figure = charts.draw(chart, result)
        figures.append(
            f'<figure><img alt="{escape(chart)} chart" src="data:image/png;base64,{figure_png_base64(figure)}">'
            f"<figcaption>{escape(CHART_CAPTIONS[chart])}</figcaption></figure>"
        )
    scenario = result.scenario
    extended = ""
    if result.extended_years > 0:
        schedule = "".join(
            f"<tr><td class='num'>{int(row.years_maintained)}</td><td class='num'>{money(row.repayment)}</td></tr>"
            for row in result.repayment_schedule.itertuples(index=False)
        )
        extended = (
            f"<h2>Extended commitment, 71(a)(5)(d)</h2><p>{result.extended_years} extended years; PV of net benefits "
            f"without the extension {money(result.pv_benefits_without_extension)}; incremental credit "
            f"{money(result.incremental_credit)}.</p><table><thead><tr><th>extended years maintained</th>"
            f"<th>repayment owed</th></tr></thead><tbody>{schedule}</tbody></table>"
        )
    donation = (
        f"<p>Infrastructure fund donation, 71(b)(2): {money(result.infrastructure_fund_donation)}.</p>"
        if result.infrastructure_fund_donation > 0
        else ""
    )
    award = award_calculation_html(result)
    if award:
        award = f"<h2>Tax credit amount, section 75</h2>{award}"
    title = escape(f"{result.name}: Emerge Program net benefit report")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{STYLE}
body {{ margin: 2em auto; max-width: 1100px; padding: 0 1em; }}
</style>
</head>
<body class="netbenefit">
<h1>{escape(result.name)}</h1>
<p>{escape(scenario.description)}</p>
<p>Emerge Program eligibility and net positive benefit test, section 71 of P.L.2020, c.156 (C.34:1B-339).
Scenario file: <code>{escape(scenario.source)}</code>; application date {scenario.application_date.isoformat()}.</p>
{headline_html(result)}
{warnings_html(result)}
{donation}
<h2>Eligibility checks</h2>
{checks_html(result)}
<h2>Conventions used</h2>
{conventions_html(result)}
<h2>Net positive benefit test by phase, 71(a)(5)</h2>
{phase_tests_html(result)}
{extended}
{award}
<h2>Charts</h2>
{"".join(figures)}
<h2>Cash flows by project year</h2>
<p>Nominal USD. <code>weight</code> is the share of the year inside the benefit window; present values are at
approval.</p>
{cashflows_html(result)}
<h2>Inputs</h2>
<p>The scenario as validated, defaults included.</p>
{inputs_html(result)}
<hr>
<p style="font-size:11px;color:#666">netbenefit {escape(version)}. Reference: P.L.2020, c.156, s.71, as
amended by P.L.2021, c.160 and P.L.2023, c.98.</p>
</body>
</html>
"""
