"""The memo's page on actual results (:func:`actuals_page_html`): the scenario followed through its
actual results (:func:`netbenefit.model.after_approval.follow`), as a board reads it: the verdicts
on the projections and on the actual results, the credits actually received, a table by phase
(approved, certified, forfeited, recaptured, repaid, kept), the credits chart and the warnings,
one line per measure. Every figure is read from the follow result's tables and records; none
applies a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...labels import cell, money_exact
from ...model.after_approval import follow
from .. import charts
from ..charts.style import new_figure
from .pieces import FAIL_STYLE, PASS_STYLE, figure_html, html_table

if TYPE_CHECKING:
    from ...model.result import Result

#: The columns of the memo's table by phase, in order.
PHASE_COLUMNS = (
    "approved_credits",
    "certified_credits",
    "forfeited_credits",
    "recapture",
    "reduction_recapture",
    "interest",
    "extension_repayment",
    "net_credits_received",
)
#: The columns of the memo's table of the two tests.
TEST_COLUMNS = ("pv_benefits", "pv_credits", "ratio", "deciding_test", "threshold", "passes")
#: The line of the floor's warnings that quotes the rule: set apart, in small print.
_WORDS_READ = "N.J.A.C. 19:31U-1.14(c), the words read: "


def _cells(column: Any, value: Any) -> str:
    return escape(cell(str(column), value))


def _verdict(title: str, result: Result) -> str:
    style = PASS_STYLE if result.passes else FAIL_STYLE
    return f'<div class="verdict" style="{style}"><b>{escape(title)}:</b> {escape(result.headline(1))}</div>'


def _credits_sentence(after) -> str:
    """The credits actually received beside the approved, and the ratio on them (no verdict)."""
    credits = after.credits
    years = len(after.actuals.totals())
    text = (
        f"Credits approved for years 1-{years}: {money_exact(after.approved_credits)}; certified: "
        f"{money_exact(after.certified_credits)}; received less recapture and repayment: "
        f"{money_exact(credits.net)}."
    )
    if credits.note:
        return text + f" No ratio on the credits received yet: {credits.note}."
    return text + (
        " Not a statutory test, and no verdict: the PV of the benefits on actual results (whole project) is "
        f"{cell('ratio', credits.ratio)} of the PV of the credits received less recapture and repayment, each "
        "discounted in the year it falls (the re-run above counts the approved credits)."
    )


def _phase_table(after) -> str:
    table = after.phases[[c for c in PHASE_COLUMNS if c in after.phases]].copy()
    table.index = [f"Phase {phase}" for phase in table.index]
    table.index.name = "phase"
    return html_table(table, _cells, index="phase")


def _tests_table(after) -> str:
    table = after.comparison[list(TEST_COLUMNS)].copy()
    table.index = ["Projected (approved credits)", "Re-run on actual results (approved credits)"]
    table.index.name = "test"
    return html_table(table, _cells, index="test")


def _warnings(after) -> str:
    lines = [line for line in after.warnings if not line.startswith(_WORDS_READ)]
    words = [line[len(_WORDS_READ) :] for line in after.warnings if line.startswith(_WORDS_READ)]
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    quoted = f'<p style="font-size:8.5pt">{escape(_WORDS_READ + words[0])}</p>' if words else ""
    return f"<h3>Warnings, one line per measure</h3><ul>{items}</ul>{quoted}" if items else ""


def actuals_page_html(result: Result, actuals: Any) -> str:
    """The page on the scenario's actual results (see the module)."""
    after = follow(result.scenario, actuals)
    stop = after.actuals.maintained_through_year
    figure, ax = new_figure((10.0, 5.5))
    charts.credits_by_year(after, ax=ax)
    alt = (
        f"Credits by project year: {money_exact(after.certified_credits)} certified of "
        f"{money_exact(after.approved_credits)} approved; recapture {money_exact(after.recapture)}, repayment "
        f"{money_exact(after.repayment)}"
    )
    caption = "Credits approved and certified by project year (by phase), and what was given back in the year it fell."
    left = f" The business left after year {stop}: nothing of it counts in the re-run after that year." if stop else ""
    return (
        f'<section class="memo-page actuals"><h2>{escape(result.name)}: actual results</h2>'
        f"{_verdict('Projected', after.projected)}{_verdict('On actual results', after.actual)}"
        f"<p>{escape(_credits_sentence(after) + left)}</p>"
        f"<h3>Credits by phase</h3>{_phase_table(after)}"
        f"{figure_html(figure, alt, caption)}"
        f"<h3>The net benefit test, projected and re-run</h3>{_tests_table(after)}"
        f"{_warnings(after)}</section>"
    )
