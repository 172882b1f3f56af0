"""``netbenefit report A.yaml [B.yaml ...] --out report.html [--pdf]``: a self-contained report.

One scenario, or several compared on one page (a comparison table and chart, then each scenario).
The page holds the inputs as written, every check with its clause and message, the conventions
used, the cash flows and the charts (PNG images embedded in the page); it loads nothing from the
network and prints on Letter or A4 paper (``--paper``) with every column. ``--pdf`` also writes
the page as a PDF through WeasyPrint (``pip install 'netbenefit[pdf]'``), next to the HTML file
with the suffix ``.pdf`` (or only the PDF when ``--out`` ends in ``.pdf``). An existing file is
refused unless ``--force`` is given; each file is written to a temporary name and renamed.

The PDF is the memo a director reads (:mod:`netbenefit.views.html.memo`): for each scenario a first page
with the verdict, the deciding test and its margin, the award, the break-even discount rate and
the three drivers that move the ratio most, then its charts; several scenarios open with a
comparison page. The appendix (checks, conventions, cash flows, clawback) follows for one
scenario, and for several with ``--appendix``. ``--date`` (exactly YYYY-MM-DD; default today, or
``SOURCE_DATE_EPOCH``) and ``--preparer`` head it; ``--sensitivity``, ``--vary KEY=DIST`` (Monte
Carlo, with ``--draws`` and ``--seed``), ``--diff REFERENCE.yaml`` and ``--actuals FILE`` add their
pages. Every memo option needs ``--pdf``, and ``--draws`` and ``--seed`` need ``--vary``: an option
given without the one it works with is refused in one line (exit 2), never ignored.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ...io.arguments import date_text
from ...io.safe_text import terminal
from ...io.writing import OutputError, atomic_write_text
from ...model.evaluate import evaluate
from ...version import installed_version
from .options import is_given, parse_options, parse_vary, refuse_apart, scenario_inputs


def register(subparsers) -> None:
    parser = subparsers.add_parser("report", help="write a self-contained HTML (and PDF) report on scenarios")
    parser.add_argument("files", type=Path, nargs="+", metavar="file", help="one or more scenario files")
    parser.add_argument("--out", type=Path, required=True, help="the HTML file to write (or .pdf with --pdf)")
    parser.add_argument("--pdf", action="store_true", help="also write a PDF (needs WeasyPrint: the pdf extra)")
    parser.add_argument("--paper", choices=("letter", "a4"), default="letter", help="printed page size")
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    memo = parser.add_argument_group("the PDF memo (with --pdf)")
    memo.add_argument("--date", type=_date, help="the memo's date, YYYY-MM-DD (default today, or SOURCE_DATE_EPOCH)")
    memo.add_argument("--preparer", default="", help="who prepared the memo, on its first line")
    memo.add_argument("--appendix", action="store_true", help="each scenario's appendix after several scenarios")
    memo.add_argument("--sensitivity", action="store_true", help="a page with the tornado of the drivers")
    memo.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=DIST",
        help="a Monte Carlo page: a key and its distribution, as for netbenefit montecarlo; repeatable",
    )
    memo.add_argument("--draws", type=_draws, default=None, help="Monte Carlo draws, with --vary (default 2,000)")
    memo.add_argument("--seed", type=int, default=None, help="Monte Carlo seed, with --vary (default 0)")
    memo.add_argument("--diff", type=Path, metavar="REFERENCE.yaml", help="a page on what changed from this scenario")
    memo.add_argument("--actuals", type=Path, metavar="FILE", help="a page on the actual results (one scenario)")
    parser.set_defaults(handler=run)


def _date(text: str):
    """Exactly YYYY-MM-DD, as the help says (not ``20260310`` or ``2026-W10-1``, which Python's
    ``date.fromisoformat`` also reads): :func:`netbenefit.io.arguments.date_text`."""
    try:
        return date_text(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a date as YYYY-MM-DD, not {text!r}") from None


def _draws(text: str) -> int:
    try:
        draws = int(text)
    except ValueError:
        draws = 0
    if draws < 1:
        raise argparse.ArgumentTypeError(f"give a whole number of draws of at least 1, not {text!r}")
    return draws


#: The options that shape the PDF memo, by their command-line names.
MEMO_OPTIONS = ("date", "preparer", "appendix", "sensitivity", "vary", "draws", "seed", "diff", "actuals")


def memo_options(args: argparse.Namespace) -> dict:
    """The keyword arguments of :func:`netbenefit.views.html.memo.memo_html` from the command line
    (``--draws`` and ``--seed`` not given: the memo's own defaults)."""
    options = {
        "date": args.date,
        "preparer": args.preparer,
        "appendix": True if args.appendix else None,
        "sensitivity": args.sensitivity,
        "montecarlo": parse_options(args.vary, parse_vary, "--vary") or None,
        "draws": args.draws,
        "seed": args.seed,
        "diff": args.diff,
        "actuals": args.actuals,
        "paper": args.paper,
    }
    return {name: value for name, value in options.items() if value is not None or name not in ("draws", "seed")}


def run(args: argparse.Namespace) -> int:
    from ...views.html import report_html, write_pdf  # the HTML views: deferred past start-up
    from ...views.html.memo import memo_html  # pandas: deferred past start-up
    from ...views.result_files import prepare_output_file  # the views that write files: deferred past start-up

    pdf_only = args.out.suffix.lower() == ".pdf"
    if pdf_only and not args.pdf:
        raise OutputError(f"{args.out}: a .pdf file needs --pdf; or give an .html file")
    given = [f"--{name}" for name in MEMO_OPTIONS if is_given(getattr(args, name))]
    if given and not args.pdf:
        raise OutputError(f"{', '.join(given)}: shape the PDF memo; add --pdf")
    what = "sets the Monte Carlo page of the memo"  # refused apart, never ignored
    refuse_apart("--vary KEY=DIST", bool(args.vary), [("--draws", args.draws), ("--seed", args.seed)], what)
    if args.actuals is not None and len(args.files) > 1:
        raise OutputError("--actuals: actual results belong to one scenario; give one scenario file")
    html_path = None if pdf_only else prepare_output_file(args.out, args.force)
    pdf_path = prepare_output_file(args.out.with_suffix(".pdf"), args.force) if args.pdf else None
    if pdf_path is not None:
        try:
            import weasyprint  # noqa: F401  (checked before any work)
        except ImportError:
            raise OutputError("--pdf needs WeasyPrint: pip install 'netbenefit[pdf]'") from None
    *scenarios, reference = scenario_inputs(args, [*args.files, args.diff])
    args.diff = reference
    results = [evaluate(scenario) for scenario in scenarios]
    # The whole page first: nothing written on error.
    page = None if html_path is None else report_html(results, version=installed_version("unknown"), paper=args.paper)
    memo = memo_html(results, **memo_options(args)) if pdf_path is not None else None
    if page is not None:
        atomic_write_text(html_path, page)
    if memo is not None:
        write_pdf(memo, pdf_path)
    for result in results:
        verdict = "eligible" if result.eligible else "not eligible"
        print(terminal(f"{result.name}: {result.verdict()}; {verdict}"))
    for path in (html_path, pdf_path):
        if path is not None:
            print(terminal(f"wrote {path}"))
    return 0
