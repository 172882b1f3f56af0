"""``netbenefit evaluate FILE [--json]``: one scenario, as a readable summary or the JSON contract."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...io.safe_text import terminal_lines
from ...model.evaluate import evaluate
from .options import scenario_inputs


def register(subparsers) -> None:
    parser = subparsers.add_parser("evaluate", help="evaluate one scenario file (YAML, or a workbook netbenefit wrote)")
    parser.add_argument("file", type=Path)
    parser.add_argument("--json", action="store_true", help="print the JSON result object alone")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    (scenario,) = scenario_inputs(args, [args.file])
    result = evaluate(scenario)
    print(result.to_json() if args.json else terminal_lines(result.summary()))
    return 0
