"""``netbenefit diff A.yaml B.yaml [--json]``: the inputs that differ between two scenarios, and how
much of the change in the net benefit ratio each of them made (Shapley values, :mod:`netbenefit.diff`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ...io.safe_text import terminal_lines
from .options import scenario_inputs


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "diff", help="compare two scenarios: the inputs that differ and what moved the ratio"
    )
    parser.add_argument("a", type=Path, metavar="A.yaml", help="the first scenario (the reference)")
    parser.add_argument("b", type=Path, metavar="B.yaml", help="the second scenario")
    parser.add_argument("--json", action="store_true", help="print the comparison as a JSON object alone")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ...analysis.diff import diff  # pandas: deferred past start-up

    a, b = scenario_inputs(args, [args.a, args.b])
    comparison = diff(a, b)
    print(json.dumps(comparison.to_dict(), indent=2) if args.json else terminal_lines(comparison.summary()))
    return 0
