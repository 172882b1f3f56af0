"""``netbenefit schema [--out FILE] [--force]``: the JSON Schema of a scenario file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...io.safe_text import terminal
from ...io.writing import atomic_write_text
from ...model.schema import scenario_schema_text
from .options import refuse_apart


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "schema", help="write the JSON Schema of a scenario file (for editors that validate YAML as it is typed)"
    )
    parser.add_argument("--out", type=Path, help="write the schema to this file; default: stdout")
    parser.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    refuse_apart("--out FILE", args.out is not None, [("--force", args.force)], "overwrites an existing --out file")
    text = scenario_schema_text()
    if args.out is None:
        sys.stdout.write(text)
        return 0
    from ...views.result_files import prepare_output_file  # the views that write files: deferred past start-up

    prepare_output_file(args.out, args.force)
    atomic_write_text(args.out, text)
    print(terminal(f"wrote {args.out}"))
    return 0
