"""``netbenefit report FILE --out report.html``: one scenario as a self-contained HTML page.

The page holds the inputs, every check with its clause and message, the conventions used, the
cash flows and the charts (PNG images embedded in the page); it loads nothing from the network.
An existing file is refused unless ``--force`` is given; the file is written to a temporary name
and renamed into place.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("report", help="write a self-contained HTML report on one scenario")
    parser.add_argument("file", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="the HTML file to write")
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate
    from ..html import write_report
    from ..output import prepare_output_file

    path = prepare_output_file(args.out, args.force)
    result = evaluate(args.file)
    write_report(result, path)  # the whole page first, then written atomically: nothing written on error
    verdict = "eligible" if result.eligible else "not eligible"
    print(f"{result.name}: ratio {result.ratio:.4f} vs {result.threshold:.2f} ({result.threshold_clause}); {verdict}")
    print(f"wrote {path}")
    return 0
