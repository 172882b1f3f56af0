"""A director's memo: a few printed pages on one scenario or several, as a PDF (WeasyPrint).

One scenario: a first page with the verdict, the test that decides 71(a)(5) and its margin over
the threshold, the award, the break-even discount rate, the three drivers that move the ratio
most (each with its grade, or "assumption"), the date and the preparer; a page of charts; the
optional sections asked for (sensitivity, Monte Carlo, a diff, actual results); then the checks,
the conventions, the tests by phase, the cash flows and the clawback as an appendix. Several
scenarios: a comparison page first (threshold and margin beside each ratio), then each
scenario's first pages; their appendices only when asked for.

Every figure is read from the records that decided it (the result, the solver's answer, the
sensitivity table, the Monte Carlo summary, the diff); none is recomputed here. The pieces are
:mod:`netbenefit.views.html.memo_sections` and :mod:`netbenefit.views.html.memo_pages`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import ScenarioError
from ...io import arguments
from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...io.writing import source_date
from ...model.result import Result
from ...version import installed_version
from .memo_pages import diff_page_html, optional_pages_html
from .memo_sections import (
    MEMO_CSS,
    MemoSections,
    appendix_html,
    comparison_page_html,
    first_pages_html,
    memo_facts,
)
from .pieces import STYLE
from .report import PAPER_SIZES, print_css, write_pdf

if TYPE_CHECKING:
    from ...analysis.diff import Diff


def memo_date(date: dt.date | str | None = None) -> dt.date:
    """The date a memo carries: ``date`` (a date or exactly ``YYYY-MM-DD``: a ScenarioError
    otherwise), else the date of ``SOURCE_DATE_EPOCH`` when it is set (reproducible builds), else today."""
    if date is not None:
        return arguments.date(date, "date", "memo")
    fixed = source_date()
    return fixed.date() if fixed is not None else dt.date.today()


#: The options of the memo (:func:`memo_html`), each with its check (:mod:`netbenefit.io.arguments`).
MEMO_OPTIONS = {
    "date": arguments.optional(arguments.date),
    "preparer": arguments.text,
    "appendix": arguments.optional(arguments.flag),
    "sensitivity": arguments.flag,
    "montecarlo": arguments.optional(arguments.mapping),
    "draws": arguments.count(1),
    "seed": arguments.optional(arguments.count(0)),
    "diff": lambda value, argument, function: value,  # a Diff, a Scenario or a path: read by netbenefit.diff
    "actuals": lambda value, argument, function: value,  # Actuals or a path: read by netbenefit.follow
    "paper": lambda value, argument, function: arguments.choice(*PAPER_SIZES)(
        value.lower() if isinstance(value, str) else value, argument, function
    ),  # any case, as the report takes it
}
#: The options of the memo of a diff (:func:`diff_memo_html`).
DIFF_MEMO_OPTIONS = ("date", "preparer", "paper")


def memo_options(options: dict[str, Any], function: str = "memo_html", *, diff: bool = False) -> dict[str, Any]:
    """``options`` of :func:`memo_html` (of :func:`diff_memo_html` with ``diff``), each checked: an
    unknown option, or a value of the wrong kind, is a ScenarioError naming ``function`` and the
    option (``to_pdf: draws: must be a whole number >= 1, not '5'``)."""
    known = DIFF_MEMO_OPTIONS if diff else tuple(MEMO_OPTIONS)
    checked = {}
    for name, value in options.items():
        if name not in known:
            raise ScenarioError(function, name, f"is not an option of the memo; the options are {', '.join(known)}")
        checked[name] = MEMO_OPTIONS[name](value, name, function)
    return checked


def _page(title: str, body: str, *, paper: str, date: dt.date, preparer: str) -> str:
    prepared = f"Prepared by {escape(preparer)}; " if preparer else "Preparer not named; "
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>{STYLE}
{print_css(paper)}
{MEMO_CSS}
</style>
</head>
<body class="netbenefit memo">
<p class="dateline">{prepared}{date.isoformat()}. netbenefit {escape(installed_version("unknown"))}; Emerge
Program, section 71 of P.L.2020, c.156 (C.34:1B-339), as amended by P.L.2021, c.160 and P.L.2023, c.98.</p>
{body}
</body>
</html>
"""


def memo_html(
    results: Result | Sequence[Result],
    *,
    date: dt.date | str | None = None,
    preparer: str = "",
    appendix: bool | None = None,
    sensitivity: bool = False,
    montecarlo: dict[str, Any] | None = None,
    draws: int = 2_000,
    seed: int | None = 0,
    diff: Any = None,
    actuals: Any = None,
    paper: str = "letter",
) -> str:
    """The memo of one result or several, as an HTML page made for print (see the module).

    Parameters
    ----------
    results : Result or sequence of Result
    date : date or str, optional
        The memo's date; default :func:`memo_date` (``SOURCE_DATE_EPOCH``, else today).
    preparer : str
        Who prepared the memo, on its first line.
    appendix : bool, optional
        Whether each scenario's appendix (checks, conventions, cash flows, clawback) follows;
        default: for one scenario yes, for several no.
    sensitivity : bool
        A page with the tornado of the drivers (each moved by +/-20%).
    montecarlo : mapping of dotted key -> distribution, optional
        A page with the fan of the cumulative PV of net benefits and the probability of passing
        over ``draws`` draws (seed ``seed``), the keys drawn as :func:`netbenefit.montecarlo` draws them.
    diff : Diff, Scenario or path, optional
        A page on what changed from this reference scenario to each result, with the attribution
        of the ratio's change (:func:`netbenefit.diff`).
    actuals : Actuals or path, optional
        A page on the actual results of the (one) scenario (:func:`netbenefit.follow`).
    paper : {"letter", "a4"}
    """
    options = memo_options(
        {"date": date, "preparer": preparer, "appendix": appendix, "sensitivity": sensitivity, "montecarlo": montecarlo,
         "draws": draws, "seed": seed, "paper": paper}
    )  # fmt: skip
    date, montecarlo, draws, seed = options["date"], options["montecarlo"], options["draws"], options["seed"]
    results = [results] if isinstance(results, Result) else list(results)
    if not results:
        raise ValueError("a memo needs at least one result")
    if actuals is not None and len(results) > 1:
        raise ValueError("actual results belong to one scenario: give one result with actuals")
    when = memo_date(date)
    appendix = len(results) == 1 if appendix is None else bool(appendix)
    sections = MemoSections(sensitivity=sensitivity, montecarlo=montecarlo, draws=draws, seed=seed)
    all_facts = [memo_facts(result) for result in results]
    body = []
    if len(results) > 1:
        body.append(comparison_page_html(all_facts))
    for facts in all_facts:
        body.append(first_pages_html(facts, first=len(results) == 1))
        body.append(optional_pages_html(facts, sections, diff=diff, actuals=actuals))
    if appendix:
        body.extend(appendix_html(result) for result in results)
    title = results[0].name if len(results) == 1 else f"{len(results)} scenarios"
    return _page(f"{title}: Emerge Program memo", "".join(body), paper=paper, date=when, preparer=preparer)


def diff_memo_html(diff: Diff, *, date: dt.date | str | None = None, preparer: str = "", paper: str = "letter") -> str:
    """The memo of a :class:`~netbenefit.analysis.diff.Diff`: the ratio of each scenario, the inputs that
    differ and the attribution of the change, with its waterfall chart."""
    memo_options({"date": date, "preparer": preparer, "paper": paper}, diff=True)
    body = diff_page_html(diff, first=True)
    return _page(
        f"{diff.name_a} and {diff.name_b}: Emerge Program memo",
        body,
        paper=paper,
        date=memo_date(date),
        preparer=preparer,
    )


def write_memo(results: Result | Sequence[Result], path: str | Path, **options: Any) -> Path:
    """:func:`memo_html` of ``results`` written as a PDF at ``path`` (``Result.to_pdf``,
    ``Comparison.to_pdf``); ``options`` as for :func:`memo_html`. Returns the path."""
    return write_pdf(memo_html(results, **options), path)


def write_diff_memo(diff: Diff, path: str | Path, **options: Any) -> Path:
    """:func:`diff_memo_html` of ``diff`` written as a PDF at ``path`` (``Diff.to_pdf``)."""
    return write_pdf(diff_memo_html(diff, **options), path)
