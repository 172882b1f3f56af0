"""The sections of a director's memo (:mod:`netbenefit.views.html.memo`): the facts of one scenario read
once from their records, the first page, the charts, the comparison page and the appendix; the
optional pages (sensitivity, Monte Carlo, a diff, actual results) are
:mod:`netbenefit.views.html.memo_pages`.

Every figure is read from the record that decided it; none applies a rule. Every ratio set beside a
threshold is the ratio of the test that decides 71(a)(5) (``Result.ratio``), written with the digits
its verdict needs; a figure of the whole project says so; every key in a table carries its phase.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...analysis import break_even_discount_rate, sensitivity
from ...io.safe_text import Markup
from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...io.writing import import_held
from ...labels import margin_points, money_exact, ratio, ratio_verdict, share, value, varied_short_label
from ...labels import years as years_words
from ...law.parameters import PARAMETERS
from ...model.scenario.paths import at_path
from .. import charts
from ..decision_words import (
    MAX_CREDIT_WORDS,
    deciding_label,
    deciding_name,
    deciding_ratio,
    deciding_sentence,
    deciding_words,
    max_credit_text,
    other_failed_checks,
    phased,
    verdict_word,
)
from ..explore import RANKING_CHANGE, ranked_drivers
from .pieces import FAIL_STYLE, PASS_STYLE, figure_html, html_table
from .report import chart_or_sentence, clawback_section_html, conventions_html, schedule_cell
from .result import cashflows_html, checks_html, phase_tests_html
from .table import Cell, pairs_html, table_html

if TYPE_CHECKING:
    import pandas as pd

    from ...analysis import SolverResult
    from ...model.result import Result
    from ...model.scenario import Scenario

#: The print style of the memo, after the report's: tables wrap at spaces only (never inside a
#: word), every section but the first starts a page, charts sized for two on a page.
MEMO_CSS = """
.netbenefit.memo { font-size: 10pt; }
.netbenefit.memo .dateline { font-size: 8.5pt; color: #555; margin: 0 0 0.6em 0; }
.netbenefit.memo h1 { font-size: 17pt; margin: 0.2em 0 0.3em 0; }
.netbenefit.memo h2 { font-size: 13pt; }
.netbenefit.memo table { width: auto; max-width: 100%; }
.netbenefit.memo th, .netbenefit.memo td { overflow-wrap: normal; word-break: normal; hyphens: manual; }
.netbenefit.memo td.num { white-space: nowrap; }
.netbenefit.memo .verdict { font-size: 12pt; padding: 8px 12px; margin: 0.4em 0 0.8em 0; }
.netbenefit.memo section.memo-page { break-before: page; }
.netbenefit.memo section.memo-page.first { break-before: auto; }
.netbenefit.memo figure img { max-height: 100mm; }
.netbenefit.memo .facts th { width: 38%; }
.netbenefit.memo .cashflows table { table-layout: auto; }
@media print { .netbenefit.memo th, .netbenefit.memo td { overflow-wrap: normal; word-break: normal; } }
"""

#: Drivers on the first page, and on the sensitivity page's tornado.
FIRST_PAGE_DRIVERS, TORNADO_DRIVERS = 3, 6  # not statutory numbers: a memo's choices
#: Cash-flow columns per printed table of the appendix (with the project year).
APPENDIX_CASHFLOW_COLUMNS = 7


@dataclass(frozen=True)
class MemoSections:
    """The optional sections asked for: the tornado, and the Monte Carlo's keys and draws."""

    sensitivity: bool = False
    montecarlo: dict[str, Any] | None = None
    draws: int = 2_000
    seed: int | None = 0


@dataclass(frozen=True)
class DecidingTest:
    """The cumulative test that decides 71(a)(5): its phases, ratio and verdict."""

    phases: tuple[int, ...]
    ratio: float
    passes: bool


def deciding_test(result: Result) -> DecidingTest:
    """The test that decides 71(a)(5), as the result's record writes it (``Result.deciding_test``,
    the JSON's ``deciding_test``): the cumulative test with the lowest ratio, the earliest on a
    tie; for one phase, its only test."""
    decided = result.deciding_test
    return DecidingTest(result.deciding_phases, float(decided.value), bool(decided.holds))


def driver_grade(scenario: Scenario, key: str) -> str:
    """The grade of a driver's value: ``assumption`` where the scenario file gives it (the
    applicant's or the analyst's figure), else the grade of the cited parameter it defaults to
    (``statute``, ``rule``, ``secondary``), else ``convention`` (a default this project chose)."""
    if at_path(scenario.as_written, key, None) is not None:
        return "assumption"
    leaf = key.rsplit(".", 1)[-1]
    for name in (leaf, f"{leaf}_default"):
        if name in PARAMETERS:
            return PARAMETERS[name].source
    return "convention"


@dataclass
class MemoFacts:
    """What the memo says of one result, each read once from its record.

    ``drivers`` holds, for each driver, the ratio of the test that decides at its low and its high
    value, the verdict there and the checks that fail there (:func:`netbenefit.sensitivity`), so that
    each end's ratio is written with its own verdict."""

    result: Result
    deciding: DecidingTest
    break_even: SolverResult
    drivers: pd.DataFrame  # the default tornado: the sensitivity of the ranked drivers, largest swing first
    grades: dict[str, str] = field(default_factory=dict)

    @property
    def margin(self) -> float:
        """The deciding test's ratio minus the threshold (as multiples), ``Result.margin``."""
        return self.result.margin


def memo_facts(result: Result, count: int = TORNADO_DRIVERS) -> MemoFacts:
    """The facts of ``result``: the deciding test, the break-even discount rate, the default
    tornado (the ``count`` keys whose +/-20% moves the ratio most, :func:`netbenefit.views.explore.ranked_drivers`)
    with each end's verdict."""
    scenario = result.scenario
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the range searched is the solver's own
        break_even = break_even_discount_rate(scenario)
    keys = [key for key, _, _ in ranked_drivers(scenario, count)]
    drivers = sensitivity(scenario, dict.fromkeys(keys, RANKING_CHANGE)) if keys else None
    if drivers is None:
        import pandas as pd

        drivers = pd.DataFrame(columns=["key", "base", "low", "high", "ratio_low", "ratio_high", "swing"])
    grades = {key: driver_grade(scenario, key) for key in keys}
    return MemoFacts(result, deciding_test(result), break_even, drivers, grades)


# ----------------------------------------------------------------------------------------------
# Pieces
# ----------------------------------------------------------------------------------------------


def verdict_words(result: Result) -> str:
    """``Eligible: every check of section 71 passes``, or the checks that fail."""
    if result.eligible:
        return "Eligible: every check of section 71 passes"
    failed = [row.id for row in result.checks.itertuples(index=False) if not row.passed]
    checks = f"{len(failed)} check fails" if len(failed) == 1 else f"{len(failed)} checks fail"
    return f"Not eligible: {checks} ({', '.join(failed)})"


def break_even_words(facts: MemoFacts) -> str:
    """The break-even discount rate as the solver found it, in a sentence true of its scan: the side
    on which the test passes just around it; where there is none, that the test passes (or fails) at
    every rate tried, and nothing of how the ratio moves with the rate."""
    solver = facts.break_even
    scenario_rate = f"the scenario's rate is {share(facts.result.discount_rate, 2)} a year"
    if solver.solved:
        side = solver.details.get("passes_side", "below")
        other = "above" if side == "below" else "below"
        roots = [root for root in solver.details.get("roots", ()) if root != solver.value]
        again = f"; the test changes side again at {', '.join(share(r, 2) for r in roots)}" if roots else ""
        return (
            f"{share(solver.value, 2)} a year: the test passes at rates just {side} it and fails just {other} it "
            f"({scenario_rate}){again}"
        )
    every = solver.details.get("passes_at_every_rate")
    if every is None:
        return solver.message
    low, high = solver.details.get("range", (None, None))
    tried = f" ({share(low)} to {share(high)} a year)" if low is not None else ""
    return f"none: the test {'passes' if every else 'fails'} at every rate tried{tried}; {scenario_rate}"


def break_even_cell(facts: MemoFacts) -> str:
    """The break-even discount rate in a table cell: the rate, or "none: passes at every rate tried"."""
    solver = facts.break_even
    if solver.solved:
        return share(solver.value, 2)
    every = solver.details.get("passes_at_every_rate")
    if every is None:
        return "none"
    return f"none: {'passes' if every else 'fails'} at every rate tried"


def _driver_name(facts: MemoFacts, key: str) -> str:
    """A driver in words with its phase (``Every phase: Median salary``, ``Phase 1: New full-time
    jobs``), as the sensitivity table labels it."""
    return varied_short_label(key, facts.drivers.attrs.get("key_labels"))


def _end_cell(key: str, at: Any, ratio_at: float, threshold: float, passes: bool, failed: str) -> Markup:
    """One end of a driver, from the sensitivity's row: its value, the deciding test's ratio there
    with its verdict (written true to it), and the other checks that fail there."""
    written, _ = ratio_verdict(ratio_at, threshold, passes, 1)
    other = [check for check in str(failed).split() if check != "71(a)(5)"]
    words = f"not eligible: {', '.join(other)} {'fails' if len(other) == 1 else 'fail'}" if other else ""
    failing = f"; {escape(words)}" if words else ""
    return Markup(f"{escape(value(key, at))} &#8594; {escape(written)}, {verdict_word(passes)}{failing}")


def driver_rows(facts: MemoFacts, count: int) -> str:
    rows = [
        [
            _driver_name(facts, row.key),
            Cell(value(row.key, row.base), numeric=True),
            _end_cell(row.key, row.low, row.ratio_low, row.threshold, row.passes_low, row.failed_low),
            _end_cell(row.key, row.high, row.ratio_high, row.threshold, row.passes_high, row.failed_high),
            Cell(f"{100 * row.swing:.1f} points", numeric=True),
            facts.grades.get(row.key, ""),
        ]
        for row in facts.drivers.head(count).itertuples(index=False)
    ]
    if not rows:
        return "<p>No driver could be moved by +/-20% (no numeric key with a nonzero value).</p>"
    head = ["Driver", "Value", "At -20%: ratio, test", "At +20%: ratio, test", "Swing", "Grade"]
    return table_html(head, rows, attributes="class='drivers'")


def deciding_row(result: Result):
    """The deciding test's row of ``phase_tests`` (its own present values and ratio)."""
    return result.table_rows("phase_tests")[result.net_benefit_decision.deciding]


def summary_sentence(facts: MemoFacts) -> str:
    """The memo's summary paragraph, every figure from its record: the verdict, the deciding test
    (one grammar: ``The deciding test, phases 1+2, passes: ...``) and, for a phased project, its own
    present values beside the whole project's."""
    result = facts.result
    text = f"{verdict_words(result)}. {deciding_sentence(result)}"
    if phased(result):
        row = deciding_row(result)
        return (
            f"{text} That test counts net benefits with a present value of {money_exact(row.pv_benefits)} against "
            f"requested credits with a present value of {money_exact(row.pv_credits)}. The whole project's requested "
            f"tax credits total {money_exact(result.requested_credits)} (present value "
            f"{money_exact(result.pv_credits)}); the present value of its net benefits to the State is "
            f"{money_exact(result.pv_benefits)}."
        )
    return (
        f"{text} The requested tax credits total {money_exact(result.requested_credits)} (present value "
        f"{money_exact(result.pv_credits)}); the present value of the net benefits to the State is "
        f"{money_exact(result.pv_benefits)}."
    )


def summary_page_html(facts: MemoFacts, *, first: bool) -> str:
    """The first page of one scenario: the verdict, the deciding test and its margin, the award,
    the break-even discount rate and the three drivers that move the ratio most."""
    result = facts.result
    style = PASS_STYLE if result.eligible and result.passes else FAIL_STYLE
    award = result.scenario.award
    facts_rows = [
        ("Verdict", escape(verdict_words(result))),
        ("Deciding test, 71(a)(5)", escape(deciding_words(result))),
        ("Margin (ratio minus threshold)", margin_points(facts.margin, facts.deciding.passes)),
    ]
    if phased(result):
        row = deciding_row(result)
        facts_rows.append(
            (
                f"Present values of the deciding test, {escape(deciding_name(result))}",
                f"net benefits {money_exact(row.pv_benefits)}; requested credits {money_exact(row.pv_credits)}",
            )
        )
    facts_rows += [
        (
            "Award: tax credits requested" + (", every phase" if phased(result) else ""),
            f"{money_exact(result.requested_credits)} nominal over {years_words(award.eligibility_period_years)} "
            f"from project year {award.first_credit_year}; present value {money_exact(result.pv_credits)}",
        ),
        (
            "Present value of net benefits" + (", whole project" if phased(result) else ""),
            money_exact(result.pv_benefits)
            + (f" (whole project's ratio {ratio(result.whole_project_ratio, 1)})" if phased(result) else ""),
        ),
        (f"{MAX_CREDIT_WORDS}, present value", escape(max_credit_text(result, money_exact))),
        ("Break-even discount rate", escape(break_even_words(facts))),
    ]
    # each name and text the package's own words around the text it escaped above
    table = pairs_html(((Markup(name), Markup(text)) for name, text in facts_rows), attributes='class="facts"')
    return f"""<section class="memo-page summary{" first" if first else ""}">
<h1>{escape(result.name)}</h1>
<p>Memo on an application to the Emerge Program: eligibility and the net positive benefit test.</p>
<div class="verdict" style="{style}"><b>{escape(summary_sentence(facts))}</b></div>
{table}
<h3>The {FIRST_PAGE_DRIVERS} drivers that move the ratio most</h3>
<p>Each moved by 20% either way, the others kept (the default tornado): at each end, the ratio of the test
that decides there and its verdict. The grade says where its value comes from (a cited parameter's grade, a
convention of this model, or an assumption of the scenario).</p>
{driver_rows(facts, FIRST_PAGE_DRIVERS)}
</section>"""


def charts_page_html(result: Result) -> str:
    """The page of charts: the cumulative present values, and the tests by phase of a phased project
    (else the benefits by year)."""
    second = "phase_ratios" if len(result.phase_tests) > 1 else "benefit_streams"
    return (
        f'<section class="memo-page charts"><h2>{escape(result.name)}: charts</h2>'
        f"{chart_or_sentence('cumulative_pv', result)}{chart_or_sentence(second, result)}</section>"
    )


def first_pages_html(facts: MemoFacts, *, first: bool) -> str:
    """One scenario's first pages: the summary page, then the charts."""
    import_held()  # matplotlib's C extensions initialised with the signals held
    return summary_page_html(facts, first=first) + charts_page_html(facts.result)


# ----------------------------------------------------------------------------------------------
# Several scenarios
# ----------------------------------------------------------------------------------------------


#: The caption of the comparison page's chart.
CAPTION = "The ratio of the test that decides, of each scenario, against its own threshold."


def comparison_page_html(all_facts: Sequence[MemoFacts]) -> str:
    """The first page of a memo on several scenarios: one row each, the deciding test's ratio with the
    threshold, the margin and the verdict beside it (and a pass that rests on the elected extension
    said below the table), and the chart of the ratios."""
    rows, styles, notes = [], [], []
    for facts in all_facts:
        result = facts.result
        styles.append(PASS_STYLE if result.eligible and result.passes else FAIL_STYLE)
        value_text, threshold = deciding_ratio(result, 1)
        name = deciding_name(result)
        verdict = verdict_word(facts.deciding.passes)
        if result.extension_decides:
            verdict += " only with the extension (see below)"
            notes.append(f"{result.name} {result.extension_words()}.")
        failed = other_failed_checks(result)  # where another check fails, the cell names it
        eligible = "yes" if result.eligible else (f"no: {', '.join(failed)} {'fails' if len(failed) == 1 else 'fail'}"
                                                  if failed else "no")
        rows.append(
            [
                result.name,
                name or "the project",
                Cell(value_text, numeric=True),
                Cell(threshold, numeric=True),
                Cell(margin_points(facts.margin, facts.deciding.passes), numeric=True),
                verdict,
                eligible,
                Cell(money_exact(result.requested_credits), numeric=True),
                break_even_cell(facts),
            ]
        )
    header = list(
        (
            "Scenario",
            "Deciding test",
            "Its net benefit ratio",
            "Threshold",
            "Margin",
            "Net benefit test",
            "Eligible",
            "Tax credits requested",
            "Break-even discount rate",
        )
    )
    results = [facts.result for facts in all_facts]
    figure = charts.draw("compare_ratios", results)
    alt = "Bar chart of the net benefit ratios: " + "; ".join(f"{r.name} {deciding_label(r)}" for r in results)
    note = "".join(f"<p>{escape(text)}</p>" for text in notes)
    return (
        f'<section class="memo-page comparison first"><h1>Comparison of {len(results)} scenarios</h1>'
        "<p>Each scenario's deciding test of 71(a)(5) (the cumulative test with the lowest ratio; the project's "
        "only test where it has no later phases) against its own threshold; the margin is the ratio minus the "
        "threshold. Each scenario's first pages follow.</p>"
        f"{table_html(header, rows, row_styles=styles)}{note}"
        f"{figure_html(figure, alt, CAPTION)}</section>"
    )


# ----------------------------------------------------------------------------------------------
# The appendix
# ----------------------------------------------------------------------------------------------


def appendix_html(result: Result) -> str:
    """The appendix of one scenario: the checks, the conventions, the tests by phase, the extended
    commitment, the cash flows (every column) and the clawback schedule."""
    extended = ""
    if result.extended_years > 0:
        note = charts.chart_note("repayment_schedule", result)
        extended = (
            f"<h3>Extended commitment, 71(a)(5)(d)</h3><p>{years_words(result.extended_years)} of extended "
            "commitment elected; incremental credit "
            f"{money_exact(result.incremental_credit)}.{(' ' + escape(note)) if note else ''}</p>"
        )
        if not note:
            extended += html_table(
                result.repayment_schedule, lambda column, amount: escape(schedule_cell(column, amount))
            )
    clawback = clawback_section_html(result)
    return f"""<section class="memo-page appendix">
<h2>Appendix: {escape(result.name)}</h2>
<h3>Eligibility checks</h3>
{checks_html(result)}
<h3>Net positive benefit test by phase, 71(a)(5)</h3>
{phase_tests_html(result)}
{extended}
<h3>Conventions used</h3>
{conventions_html(result)}
</section>
<section class="memo-page cashflows">
<h2>Appendix: {escape(result.name)}: cash flows by project year</h2>
<p>Nominal USD; present values at approval. The columns are split into tables of {APPENDIX_CASHFLOW_COLUMNS},
each with the project year.</p>
{cashflows_html(result, group=APPENDIX_CASHFLOW_COLUMNS)}
{clawback}
</section>"""
