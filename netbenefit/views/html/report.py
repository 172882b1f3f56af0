"""The self-contained report of ``netbenefit report``: :func:`report_html` (inputs, every check
with its clause, the conventions used, the cash flows and the charts embedded as PNG images, with
captions and alternative text), the print style sheet, :func:`write_report` and :func:`write_pdf`.
The page needs no network access to be read (no external style sheets, scripts or fonts).

Every function reads the result's fields and tables; none applies a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...analysis.keys import key_label
from ...errors import ScenarioError
from ...io.safe_text import Markup
from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...io.writing import atomic_write, dates_fixed, import_held, write_file
from ...labels import TAX_LABELS, label, money_exact, ratio, ratio_verdict, share, years
from ...model.result import Result
from ...version import installed_version
from .. import charts
from ..decision_words import deciding_label, deciding_name, name_of_test
from .pieces import STYLE, figure_html, flatten, html_table, written_value
from .result import (
    award_calculation_html,
    cashflows_html,
    checks_html,
    comparison_html,
    headline_html,
    phase_tests_html,
    warnings_html,
)
from .table import Cell, pairs_html, table_html

#: Paper sizes of the printed report (CSS ``@page size``).
PAPER_SIZES = {"letter": "letter", "a4": "A4"}
#: Cash-flow columns per printed table (with the project year), so that no column is cut.
CASHFLOW_COLUMNS_PER_TABLE = 6


def check_paper(paper: str) -> None:
    """Raise ValueError unless ``paper`` is one of :data:`PAPER_SIZES` (any case)."""
    if paper.lower() not in PAPER_SIZES:
        raise ValueError(f"paper must be one of {', '.join(PAPER_SIZES)}, not {paper!r}")


def print_css(paper: str = "letter") -> str:
    """The print style sheet: page size and margins, page numbers, a page break before each
    section, headers repeated on each page, rows and figures never split."""
    size = PAPER_SIZES[paper.lower()]
    return f"""
@page {{ size: {size}; margin: 14mm 12mm 16mm 12mm;
  @bottom-right {{ content: "page " counter(page) " of " counter(pages); font-size: 8pt; color: #666; }} }}
@media print {{
  body {{ margin: 0; max-width: none; padding: 0; }}
  .netbenefit {{ font-size: 9pt; }}
  .netbenefit .scroll {{ overflow: visible; }}
  .netbenefit section.page {{ break-before: page; }}
  .netbenefit section.page.first {{ break-before: auto; }}
  .netbenefit h2, .netbenefit h3 {{ break-after: avoid; }}
  .netbenefit table {{ font-size: 7.5pt; width: 100%; }}
  .netbenefit th, .netbenefit td {{ padding: 2px 4px; overflow-wrap: normal; word-break: normal; }}
  .netbenefit thead {{ display: table-header-group; }}
  .netbenefit tr, .netbenefit figure, .netbenefit img {{ break-inside: avoid; }}
  .netbenefit figure img {{ max-height: 120mm; width: auto; max-width: 100%; }}
  .netbenefit .cashflows table {{ table-layout: fixed; }}
  .netbenefit .cashflows th {{ font-size: 7pt; }}
}}
"""


CHART_CAPTIONS = {
    "cumulative_pv": "Cumulative present value of the net benefits of the test that decides 71(a)(5) (for a phased "
    "project, the phases it counts), against the present value of that test's requested credits and the threshold "
    "multiple of it; the dotted line marks the year by which the benefits reach the threshold multiple.",
    "benefit_streams": "Counted benefits to the State by year (nominal, inside the benefit window), by source "
    "and effect; costs to the State below zero; the line is the counted net benefit of the year.",
    "benefits_by_tax": "Counted benefits to the State by year, by tax (nominal, inside the benefit window).",
    "phase_ratios": "The net benefit test of the initial phase, then of phases 1..k cumulatively, 71(a)(5).",
    "repayment_schedule": "Repayment owed if the project is not maintained through the extended commitment, "
    "by extended years maintained, 71(a)(5)(d).",
    "clawback_schedule": "Amount owed to the State if the project stops after a number of years.",
    "scorecard": "Every eligibility check of section 71 with its clause.",
}


def chart_alt(chart: str, result: Result) -> str:
    """Alternative text of a chart of ``result``: what it shows, with its numbers."""
    head = f"{result.name}: net benefit {result.verdict(0)}."
    if chart == "cumulative_pv":
        met = result.first_year_test_met
        benefits, credits = result.deciding_test_cumulative_pv()
        name = deciding_name(result)
        reached = (
            f"reach the threshold multiple of the credits in year {met}"
            if met
            else "never reach the threshold multiple of the credits"
        )
        return (
            f"Line chart of cumulative present values by project year. {head} The PV of net benefits"
            f"{' of ' + name + ', the test that decides,' if name else ''} grows to {money_exact(benefits[-1])} "
            f"against {money_exact(credits)} of credits; the benefits {reached}."
        )
    if chart == "benefit_streams":
        return f"Stacked bar chart of counted benefits by year and source. {head}"
    if chart == "benefits_by_tax":
        table = result.benefits_by_tax
        parts = ""
        if table is not None and len(table):
            parts = (
                " PV by tax: "
                + "; ".join(
                    f"{row.tax.replace('_', ' ')} {money_exact(row.pv)}" for row in table.itertuples(index=False)
                )
                + "."
            )
        return f"Stacked bar chart of counted benefits by year and tax. {head}{parts}"
    if chart == "phase_ratios":
        tests = "; ".join(  # from the 71(a)(5) record: each test's ratio written true to its verdict
            f"{name_of_test(test.what)}: {ratio_verdict(test.value, test.limit, test.holds, 0)[0]} "
            f"{'passes' if test.holds else 'fails'}"
            for test in result.net_benefit_decision.comparisons
        )
        return f"Bar chart of the cumulative net benefit tests by phase. {tests}."
    if chart == "repayment_schedule":
        return (
            f"Bar chart of the repayment owed by extended years maintained; incremental credit "
            f"{money_exact(result.incremental_credit)} over {years(result.extended_years)} of extended commitment."
        )
    if chart == "clawback_schedule":
        table = result.clawback_schedule
        largest = money_exact(float(table["total"].max())) if table is not None and len(table) else "$0"
        return f"Bar chart of the amount owed if the project stops, by years maintained; at most {largest}."
    if chart == "scorecard":
        failed = [row.id for row in result.checks.itertuples(index=False) if not row.passed]
        return f"Scorecard of the {len(result.checks)} checks of section 71: " + (
            f"failed {', '.join(failed)}." if failed else "every check passes."
        )
    return head


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
        extension = f"{years(result.extended_years)} elected and counted, 71(a)(5)(d)"
    else:
        extension = (
            f"{years(result.extended_years)} elected, not counted: the {escape(result.threshold_clause)} test counts "
            "benefits through the end of the commitment period only"
        )
    override = " (an override under 71(a)(5)(f))" if scenario.threshold_override is not None else ""
    excluded = ", ".join(escape(s) for s in result.excluded_streams) or "none"
    rows = [
        (
            "Discount rate",
            f"{share(result.discount_rate)} a year, nominal; the same rate for benefits and credits, 71(a)(5)(c)",
        ),
        ("Timing", f"{timing}; years are numbered 1, 2, ... from approval; present values are at approval"),
        ("Dollars", "nominal USD"),
        (
            "Eligibility period (credits)",
            f"{years(award.eligibility_period_years)}, project years {first} to {last}; credits are never weighted",
        ),
        (
            "Commitment period",
            f"{years(result.commitment_period_years)} from the start of project year {first} "
            "(initial phase); benefits count through its end, a final part-year by its fraction",
        ),
        ("Extended commitment", extension),
        ("Threshold", f"{ratio(result.threshold)}, {escape(result.threshold_clause)}{override}"),
        (
            "Benefits",
            "counted before the value of the requested credit, 71(a)(5); streams excluded as abated, "
            f"71(a)(5)(e): {excluded}",
        ),
    ]
    rows.append(("Method", f"{escape(scenario.method)} (the set of conventions, netbenefit.methods)"))
    for note in result.conventions:  # the model's own notes: multipliers, payroll, taxes left out
        label, _, text = note.partition(": ")
        rows.append((escape(label[:1].upper() + label[1:]), escape(text)))
    # each row the package's own words around the text it escaped above
    return pairs_html((Markup(name), Markup(text)) for name, text in rows)


def inputs_html(result: Result) -> str:
    """The scenario's inputs as its author wrote them (:attr:`Scenario.as_written`): one row per
    value, its key, its label in words with its unit (with its phase in a phased project: ``Phase 1:
    New full-time jobs [jobs]``, ``Every phase: Median salary [USD/year]`` for a shared key), and the
    value (no ``300.0`` for 300, no empty keys)."""
    rows = []
    scenario = result.scenario
    for key, value in flatten(scenario.as_written):
        words = label(key, default="")
        if words and scenario.phases:  # a phased project's key with its phase ("Every phase:" if shared)
            try:
                words = key_label(scenario, key)
            except (ScenarioError, KeyError, ValueError):
                pass
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        rows.append([Markup(f"<code>{escape(key)}</code>"), words, Cell(written_value(value), numeric=numeric)])
    return table_html(["Key", "Input", "Value as written"], rows)


def benefits_by_tax_html(result: Result) -> str:
    """``result.benefits_by_tax`` as a table with a total, or "" when the result has none."""
    table = result.benefits_by_tax
    if table is None or table.empty:
        return ""
    rows = [
        [
            TAX_LABELS.get(row.tax, str(row.tax)),
            Cell(money_exact(row.nominal), numeric=True),
            Cell(money_exact(row.pv), numeric=True),
        ]
        for row in table.itertuples(index=False)
    ]
    rows.append(
        [
            Cell("Total", header=True),
            Cell(money_exact(float(table["nominal"].sum())), numeric=True),
            Cell(money_exact(float(table["pv"].sum())), numeric=True),
        ]
    )
    return table_html(["Tax", "Nominal amount [USD]", "Present value [USD]"], rows)


def clawback_html(result: Result) -> str:
    """``result.clawback_schedule`` with headers in words, or "" when the result has none."""
    table = result.clawback_schedule
    if table is None or table.empty:
        return ""

    return html_table(table, schedule_cell)


def schedule_cell(column, value) -> str:
    """A cell of a repayment or clawback schedule: the years maintained as a count, else dollars."""
    return f"{int(value)}" if column == "years_maintained" else money_exact(value)


def clawback_section_html(result: Result) -> str:
    """The clawback schedule under its heading, else the result's note on it under a heading, else ""."""
    clawback = clawback_html(result)
    if clawback:
        return f"<h3>Clawback schedule: amount owed if the project stops</h3>{clawback}"
    if result.clawback_note:
        return f"<h3>Clawback schedule</h3><p>{escape(result.clawback_note)}</p>"
    return ""


def chart_or_sentence(chart: str, result: Result) -> str:
    """A chart of ``result`` as a figure, or its one sentence when it has nothing to show."""
    note = charts.chart_note(chart, result)
    if note:
        return f"<p class='chart-note'>{escape(note)}</p>"
    return figure_html(charts.draw(chart, result), chart_alt(chart, result), CHART_CAPTIONS[chart])


def _scenario_sections(result: Result) -> str:
    """Every section on one result, each a printed page of its own."""
    import_held()  # matplotlib's C extensions initialised with the signals held

    figures = [chart_or_sentence(chart, result) for chart in charts.meaningful_charts(result)]
    scenario = result.scenario
    extended = ""
    if result.extended_years > 0:
        schedule = [
            [Cell(f"{int(row.years_maintained)}", numeric=True), Cell(money_exact(row.repayment), numeric=True)]
            for row in result.repayment_schedule.itertuples(index=False)
        ]
        extended = (
            f"<h3>Extended commitment, 71(a)(5)(d)</h3><p>{years(result.extended_years)} of extended commitment "
            "elected; PV of net benefits "
            f"without the extension {money_exact(result.pv_benefits_without_extension)}; incremental credit "
            f"{money_exact(result.incremental_credit)}.</p>"
            f"{table_html(['Extended years maintained [years]', 'Repayment owed [USD]'], schedule)}"
        )
    donation = (
        f"<p>Infrastructure fund donation, 71(b)(2): {money_exact(result.infrastructure_fund_donation)}.</p>"
        if result.infrastructure_fund_donation > 0
        else ""
    )
    award = award_calculation_html(result)
    if award:
        award = f"<h3>Tax credit amount, section 75</h3>{award}"
    optional = ""
    warnings = warnings_html(result)
    if warnings:
        optional += f"<h3>Warnings on the inputs</h3>{warnings}"
    by_tax = benefits_by_tax_html(result)
    if by_tax:
        optional += f"<h3>Benefits by tax</h3>{by_tax}"
    optional += clawback_section_html(result)
    return f"""<section class="page scenario">
<h2>{escape(result.name)}</h2>
<p>{escape(scenario.description)}</p>
<p>Scenario file: <code>{escape(scenario.source)}</code>; application date {scenario.application_date.isoformat()}.</p>
{headline_html(result)}
{donation}
<h3>Eligibility checks</h3>
{checks_html(result)}
<h3>Conventions used</h3>
{conventions_html(result)}
<h3>Net positive benefit test by phase, 71(a)(5)</h3>
{phase_tests_html(result)}
{extended}
{award}
{optional}
</section>
<section class="page charts">
<h2>{escape(result.name)}: charts</h2>
{"".join(figures)}
</section>
<section class="page cashflows">
<h2>{escape(result.name)}: cash flows by project year</h2>
<p>Nominal USD; present values at approval. The share of the year in the benefit window weighs each year's
benefits. The columns are split into tables of {CASHFLOW_COLUMNS_PER_TABLE}, each with the project year.</p>
{cashflows_html(result, group=CASHFLOW_COLUMNS_PER_TABLE)}
</section>
<section class="page inputs">
<h2>{escape(result.name)}: inputs</h2>
<p>The scenario as written in its file; keys left out take their defaults.</p>
{inputs_html(result)}
</section>
"""


def report_html(results: Result | Sequence[Result], *, version: str = "", paper: str = "letter") -> str:
    """A self-contained HTML page on one result or several (the ``netbenefit report`` command).

    With several results, the page opens with their comparison (a table and the chart of their
    ratios). For each result: the verdict; every check with its clause and message; the
    conventions used; the cumulative tests by phase; the extended commitment; the section 75
    build-up when the calculator gives the award; warnings, benefits by tax and the clawback
    schedule when the result has them; the charts (PNG images embedded in the page, each with
    alternative text that states its numbers); the cash flows by project year, every column, in
    tables of a few columns; the inputs as written. Printed (Letter or A4), each section starts a
    page and no column is cut. The page loads nothing from the network.

    Parameters
    ----------
    results : Result or sequence of Result
    version : str
        The netbenefit version, shown in the footer.
    paper : {"letter", "a4"}
        The paper size of the printed page.
    """
    check_paper(paper)
    results = [results] if isinstance(results, Result) else list(results)
    if not results:
        raise ValueError("a report needs at least one result")
    comparison = ""
    if len(results) > 1:
        figure = charts.draw("compare_ratios", results)
        passed = sum(r.passes for r in results)
        alt = f"Bar chart of the net benefit ratios of {len(results)} scenarios, {passed} passing: " + "; ".join(
            f"{r.name} {deciding_label(r)}" for r in results
        )
        comparison = (
            f'<section class="comparison"><h2>Comparison of {len(results)} scenarios</h2>'
            f"{comparison_html(results)}"
            f"{figure_html(figure, alt, 'Net benefit ratio of each scenario against its own threshold.')}</section>"
        )
        title_text = f"Emerge Program net benefit report: {len(results)} scenarios"
        heading = title_text
    else:
        title_text = f"{results[0].name}: Emerge Program net benefit report"
        heading = results[0].name
    sections = "".join(_scenario_sections(result) for result in results)
    if len(results) == 1:  # no comparison before it: the scenario starts on the title's page
        sections = sections.replace('<section class="page scenario">', '<section class="page scenario first">', 1)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title_text)}</title>
<style>{STYLE}
body {{ margin: 2em auto; max-width: 1100px; padding: 0 1em; }}
.netbenefit .cashflows table {{ margin-bottom: 0.8em; }}
{print_css(paper)}
</style>
</head>
<body class="netbenefit">
<h1>{escape(heading)}</h1>
<p>Emerge Program eligibility and net positive benefit test, section 71 of P.L.2020, c.156 (C.34:1B-339).</p>
{comparison}
{sections}
<hr>
<p style="font-size:11px;color:#666">netbenefit {escape(version)}. Reference: P.L.2020, c.156, s.71, as
amended by P.L.2021, c.160 and P.L.2023, c.98.</p>
</body>
</html>
"""


def write_report(results: Result | Sequence[Result], path: str | Path, *, paper: str = "letter") -> Path:
    """Write :func:`report_html` of ``results`` to ``path``, as ``netbenefit report`` does.
    Atomic; returns the path; an OSError names the file."""
    # the whole page first: nothing written on error
    page = report_html(results, version=installed_version("unknown"), paper=paper)
    return write_file(Path(path), lambda temporary: temporary.write_text(page, encoding="utf-8"))


def write_pdf(page: str, path: str | Path) -> Path:
    """Write the HTML ``page`` as a PDF at ``path`` with WeasyPrint (the ``pdf`` extra).

    Raises
    ------
    ModuleNotFoundError
        When WeasyPrint is not installed, with the command that installs it.
    """
    try:
        from weasyprint import HTML
    except ImportError as error:  # an optional dependency
        raise ModuleNotFoundError(
            "writing a PDF needs WeasyPrint: pip install 'netbenefit[pdf]'", name="weasyprint"
        ) from error

    path = Path(path)
    document = HTML(string=page).render()
    with dates_fixed():  # the fonts embedded in the PDF carry no time of writing
        atomic_write(path, lambda temporary: document.write_pdf(str(temporary)))
    return path
