"""``netbenefit report A.yaml [B.yaml ...] --out report.html [--pdf]``: a self-contained report.

One scenario, or several compared on one page (a comparison table and chart, then each scenario).
The page holds the inputs as written, every check with its clause and message, the conventions
used, the cash flows and the charts (PNG images embedded in the page); it loads nothing from the
network and prints on Letter or A4 paper (``--paper``) with every column. ``--pdf`` also writes
the page as a PDF through WeasyPrint (``pip install 'netbenefit[pdf]'``), next to the HTML file
with the suffix ``.pdf`` (or only the PDF when ``--out`` ends in ``.pdf``). An existing file is
refused unless ``--force`` is given; each file is written to a temporary name and renamed.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("report", help="write a self-contained HTML (and PDF) report on scenarios")
    parser.add_argument("files", type=Path, nargs="+", metavar="file", help="one or more scenario files")
    parser.add_argument("--out", type=Path, required=True, help="the HTML file to write (or .pdf with --pdf)")
    parser.add_argument("--pdf", action="store_true", help="also write a PDF (needs WeasyPrint: the pdf extra)")
    parser.add_argument("--paper", choices=("letter", "a4"), default="letter", help="printed page size")
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate
    from ..files import OutputError, atomic_write_text
    from ..html import report_html, write_pdf
    from ..output import prepare_output_file
    from ..safe_text import terminal
    from ..version import installed_version

    pdf_only = args.out.suffix.lower() == ".pdf"
    if pdf_only and not args.pdf:
        raise OutputError(f"{args.out}: a .pdf file needs --pdf; or give an .html file")
    html_path = None if pdf_only else prepare_output_file(args.out, args.force)
    pdf_path = prepare_output_file(args.out.with_suffix(".pdf"), args.force) if args.pdf else None
    if pdf_path is not None:
        try:
            import weasyprint  # noqa: F401  (checked before any work)
        except ImportError:
            raise OutputError("--pdf needs WeasyPrint: pip install 'netbenefit[pdf]'") from None
    results = [evaluate(path) for path in args.files]
    # The whole page first: nothing written on error.
    page = report_html(results, version=installed_version("unknown"), paper=args.paper)
    if html_path is not None:
        atomic_write_text(html_path, page)
    if pdf_path is not None:
        write_pdf(page, pdf_path)
    for result in results:
        verdict = "eligible" if result.eligible else "not eligible"
        print(
            terminal(
                f"{result.name}: {result.verdict()}; {verdict}"
            )
        )
    for path in (html_path, pdf_path):
        if path is not None:
            print(terminal(f"wrote {path}"))
    return 0
