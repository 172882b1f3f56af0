"""The sections of a director's memo (:mod:`netbenefit.views.html.memo`): the facts of one scenario read
once from their records, the first page, the charts, the comparison page, the optional pages
(sensitivity, Monte Carlo, a diff, actual results) and the appendix.

Every figure is read from the record that decided it; none applies a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...analysis import break_even_discount_rate, montecarlo, sensitivity
from ...analysis.bands import cumulative_pv_bands
from ...analysis.diff import Diff
from ...analysis.diff import diff as make_diff
from ...io.safe_text import Markup
from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...io.writing import import_held
from ...law.labels import (
    margin_points,
    money_exact,
    percentage_points,
    ratio,
    ratio_verdict,
    share,
    short_label,
    value,
)
from ...law.labels import value as formatted
from ...law.parameters import PARAMETERS
from ...model.scenario.paths import at_path
from .. import charts
from ..charts.style import new_figure
from ..explore import RANKING_CHANGE, ranked_drivers
from .memo_actuals import actuals_page_html
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
#: Draws of the Monte Carlo page's fan chart at most (all computed at once).
FAN_DRAWS = 500  # not a statutory number: the bands' memory grows with draws x years


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


def _written_ratio(result: Result, deciding: DecidingTest) -> str:
    """The deciding test's ratio with the digits its verdict needs to be true of it."""
    return ratio_verdict(deciding.ratio, result.threshold, deciding.passes, 1)[0]


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
    """What the memo says of one result, each read once from its record."""

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
    """The facts of ``result``: the deciding test, the break-even discount rate and the default
    tornado (the ``count`` keys whose +/-20% moves the ratio most, :func:`netbenefit.views.explore.ranked_drivers`)."""
    import warnings

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


def _phases(phases: Sequence[int]) -> str:
    return "the initial phase" if tuple(phases) == (1,) else "phases " + "+".join(str(k) for k in phases)


def _verdict_words(result: Result) -> str:
    if result.eligible:
        return "Eligible: every check of section 71 passes"
    failed = [row.id for row in result.checks.itertuples(index=False) if not row.passed]
    checks = f"{len(failed)} check fails" if len(failed) == 1 else f"{len(failed)} checks fail"
    return f"Not eligible: {checks} ({', '.join(failed)})"


def break_even_words(facts: MemoFacts) -> str:
    """The break-even discount rate as the solver found it, in a sentence."""
    solver = facts.break_even
    if solver.solved:
        side = solver.details.get("passes_side", "below")
        return (
            f"{share(solver.value, 2)} a year: the test passes at rates {side} it "
            f"(the scenario's rate is {share(facts.result.discount_rate, 2)} a year)"
        )
    return solver.message


def _driver_rows(facts: MemoFacts, count: int) -> str:
    rows = [
        [
            short_label(row.key),
            Cell(value(row.key, row.base), numeric=True),
            Cell(f"{value(row.key, row.low)} \u2192 {ratio(row.ratio_low, 1)}", numeric=True),
            Cell(f"{value(row.key, row.high)} \u2192 {ratio(row.ratio_high, 1)}", numeric=True),
            Cell(percentage_points(row.swing), numeric=True),
            facts.grades.get(row.key, ""),
        ]
        for row in facts.drivers.head(count).itertuples(index=False)
    ]
    if not rows:
        return "<p>No driver could be moved by +/-20% (no numeric key with a nonzero value).</p>"
    head = ["Driver", "Value", "At -20%: ratio", "At +20%: ratio", "Swing", "Grade"]
    return table_html(head, rows, attributes="class='drivers'")


def summary_sentence(facts: MemoFacts) -> str:
    """The memo's summary paragraph, every figure from its record."""
    result, deciding = facts.result, facts.deciding
    test = "passes" if deciding.passes else "fails"
    phased = len(result.phase_tests) > 1
    which = f"The deciding test is that of {_phases(deciding.phases)}" if phased else "The net benefit test"
    return (
        f"{_verdict_words(result)}. {which} {test}: a net benefit ratio of {_written_ratio(result, deciding)} "
        "against a "
        f"threshold of {ratio(result.threshold)} ({result.threshold_clause}), a margin of "
        f"{margin_points(facts.margin, facts.deciding.passes)}. The requested tax credits total "
        f"{money_exact(result.requested_credits)} "
        f"(present value {money_exact(result.pv_credits)}); the present value of the net benefits to the State is "
        f"{money_exact(result.pv_benefits)}."
    )


def summary_page_html(facts: MemoFacts, *, first: bool) -> str:
    """The first page of one scenario: the verdict, the deciding test and its margin, the award,
    the break-even discount rate and the three drivers that move the ratio most."""
    result, deciding = facts.result, facts.deciding
    style = PASS_STYLE if result.eligible and result.passes else FAIL_STYLE
    award = result.scenario.award
    facts_rows = [
        ("Verdict", escape(_verdict_words(result))),
        (
            "Deciding test, 71(a)(5)",
            f"{escape(_phases(deciding.phases))}: {_written_ratio(result, deciding)} vs {ratio(result.threshold)} "
            f"({escape(result.threshold_clause)}), {'passes' if deciding.passes else 'fails'}",
        ),
        ("Margin (ratio minus threshold)", margin_points(facts.margin, facts.deciding.passes)),
        (
            "Award: tax credits requested",
            f"{money_exact(result.requested_credits)} nominal over {award.eligibility_period_years} years "
            f"from project year {award.first_credit_year}; present value {money_exact(result.pv_credits)}",
        ),
        ("Present value of net benefits", money_exact(result.pv_benefits)),
        ("Largest credit that passes, present value", money_exact(result.max_credit_pv)),
        ("Break-even discount rate", escape(break_even_words(facts))),
    ]
    table = pairs_html(((name, Markup(text)) for name, text in facts_rows), attributes='class="facts"')
    return f"""<section class="memo-page summary{" first" if first else ""}">
<h1>{escape(result.name)}</h1>
<p>Memo on an application to the Emerge Program: eligibility and the net positive benefit test.</p>
<div class="verdict" style="{style}"><b>{escape(summary_sentence(facts))}</b></div>
{table}
<h3>The {FIRST_PAGE_DRIVERS} drivers that move the ratio most</h3>
<p>Each moved by 20% either way, the others kept (the default tornado); the grade says where its value
comes from (a cited parameter's grade, a convention of this model, or an assumption of the scenario).</p>
{_driver_rows(facts, FIRST_PAGE_DRIVERS)}
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


def comparison_page_html(all_facts: Sequence[MemoFacts]) -> str:
    """The first page of a memo on several scenarios: one row each, the threshold and the margin
    beside the ratio, and the chart of the ratios."""
    rows, styles = [], []
    for facts in all_facts:
        result = facts.result
        styles.append(PASS_STYLE if result.eligible and result.passes else FAIL_STYLE)
        rows.append(
            [
                result.name,
                Cell(_written_ratio(result, facts.deciding), numeric=True),
                Cell(ratio(result.threshold), numeric=True),
                Cell(margin_points(facts.margin, facts.deciding.passes), numeric=True),
                "passes" if facts.deciding.passes else "fails",
                "yes" if result.eligible else "no",
                Cell(money_exact(result.requested_credits), numeric=True),
                Cell(share(facts.break_even.value, 2) if facts.break_even.solved else "none", numeric=True),
            ]
        )
    header = list(
        (
            "Scenario",
            "Net benefit ratio",
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
    alt = "Bar chart of the net benefit ratios: " + "; ".join(
        f"{r.name} {ratio(r.ratio)} vs {ratio(r.threshold)}" for r in results
    )
    return (
        f'<section class="memo-page comparison first"><h1>Comparison of {len(results)} scenarios</h1>'
        "<p>Each scenario's deciding test of 71(a)(5) against its own threshold; the margin is the ratio minus "
        "the threshold. Each scenario's first pages follow.</p>"
        f"{table_html(header, rows, row_styles=styles)}"
        f"{figure_html(figure, alt, 'Net benefit ratio of each scenario against its own threshold.')}</section>"
    )


# ----------------------------------------------------------------------------------------------
# Optional pages
# ----------------------------------------------------------------------------------------------


def sensitivity_page_html(facts: MemoFacts) -> str:
    """The tornado of the default drivers, with their table."""
    if facts.drivers.empty:
        return ""
    figure, ax = new_figure((10.0, 4.8))
    charts.tornado(facts.drivers, ax=ax)
    alt = "Tornado chart: " + "; ".join(
        f"{row.key} {ratio(row.ratio_low, 1)} to {ratio(row.ratio_high, 1)}" for row in facts.drivers.itertuples()
    )
    caption = "The net benefit ratio with each driver moved by 20% either way, the others kept."
    return (
        f'<section class="memo-page sensitivity"><h2>{escape(facts.result.name)}: sensitivity</h2>'
        f"{figure_html(figure, alt, caption)}"
        f"{_driver_rows(facts, len(facts.drivers))}</section>"
    )


def _distribution_words(key: str, spec: Any) -> str:
    shown = ", ".join(str(v) for v in spec) if isinstance(spec, list | tuple) else str(spec)
    return f"{short_label(key)} ({shown})"


def montecarlo_page_html(facts: MemoFacts, sections: MemoSections) -> str:
    """The fan of the cumulative PV of net benefits and the probability of passing."""
    scenario, vary = facts.result.scenario, dict(sections.montecarlo or {})
    run = montecarlo(scenario, draws=sections.draws, vary=vary, seed=sections.seed, progress=False, keep_draws=False)
    summary = run.summary
    bands = cumulative_pv_bands(scenario, vary, draws=min(sections.draws, FAN_DRAWS), seed=sections.seed)
    figure, ax = new_figure((10.0, 5.0))
    charts.fan(bands, ax=ax)
    p = summary.ratio_percentiles
    drawn = "; ".join(_distribution_words(key, spec) for key, spec in vary.items())
    sentence = (
        f"Over {summary.draws:,} draws (seed {run.seed}) of {drawn}, the net benefit test passes in "
        f"{share(summary.probability_passes, 1)} of draws and every check in {share(summary.probability_eligible, 1)}; "
        f"the ratio's median is {ratio(p[50], 1)}, its 5th to 95th percentiles {ratio(p[5], 1)} to {ratio(p[95], 1)}, "
        f"against a threshold of {ratio(facts.result.threshold)}."
    )
    caption = (
        f"Cumulative present value of net benefits, percentile bands over {min(sections.draws, FAN_DRAWS):,} draws."
    )
    return (
        f'<section class="memo-page montecarlo"><h2>{escape(facts.result.name)}: Monte Carlo</h2>'
        f"<p>{escape(sentence)}</p>{figure_html(figure, sentence, caption)}</section>"
    )


def diff_page_html(diff: Any, *, first: bool = False) -> str:
    """What changed between two scenarios and what moved the ratio (:class:`~netbenefit.analysis.diff.Diff`)."""

    def shown(key: str, value: Any) -> str:
        try:
            return formatted(key, value)
        except KeyError:
            return str(value)

    def key_words(key: str) -> str:
        return short_label(key, default=key)

    sentence = (
        f"From {diff.name_a} to {diff.name_b}, the net benefit ratio moves from {ratio(diff.ratio_a, 1)} to "
        f"{ratio(diff.ratio_b, 1)} ({percentage_points(diff.ratio_change)}); the present value of net benefits from "
        f"{money_exact(diff.pv_benefits_a)} to {money_exact(diff.pv_benefits_b)}, of the credits from "
        f"{money_exact(diff.pv_credits_a)} to {money_exact(diff.pv_credits_b)}."
    )
    inputs = [
        [key_words(row.key), shown(row.key, row.old), shown(row.key, row.new)]
        for row in diff.inputs.itertuples(index=False)
        if row.key not in ("name", "description")
    ]
    how = "by block" if diff.grouped else "by input"
    attribution = [
        [key_words(str(row.key)), Cell(percentage_points(row.contribution, 2), numeric=True)]
        for row in diff.attribution.itertuples(index=False)
    ]
    waterfall = ""
    if not diff.attribution.empty:
        figure, ax = new_figure((10.0, 4.6))
        charts.ratio_waterfall(diff, ax=ax)
        caption = f"The change of the ratio attributed {how} (Shapley values; they add up)."
        waterfall = figure_html(figure, sentence, caption)
    return (
        f'<section class="memo-page diff{" first" if first else ""}"><h2>What changed: {escape(diff.name_a)} and '
        f"{escape(diff.name_b)}</h2><p>{escape(sentence)}</p>"
        f"{table_html(['Input', 'Reference', 'This scenario'], inputs)}"
        f"{table_html([f'Attributed {how}', 'Change of the ratio'], attribution)}{waterfall}</section>"
    )


def optional_pages_html(facts: MemoFacts, sections: MemoSections, *, diff: Any = None, actuals: Any = None) -> str:
    """The optional pages asked for, in this order: sensitivity, Monte Carlo, diff, actual results."""
    parts = []
    if sections.sensitivity:
        parts.append(sensitivity_page_html(facts))
    if sections.montecarlo:
        parts.append(montecarlo_page_html(facts, sections))
    if diff is not None:
        parts.append(diff_page_html(diff if isinstance(diff, Diff) else make_diff(diff, facts.result.scenario)))
    if actuals is not None:
        parts.append(actuals_page_html(facts.result, actuals))
    return "".join(parts)


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
            f"<h3>Extended commitment, 71(a)(5)(d)</h3><p>{result.extended_years} extended years; incremental credit "
            f"{money_exact(result.incremental_credit)}.{(' ' + escape(note)) if note else ''}</p>"
        )
        if not note:
            extended += html_table(
                result.repayment_schedule, lambda column, value: escape(schedule_cell(column, value))
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
