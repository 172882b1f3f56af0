"""The ``netbenefit`` command: parses arguments, calls the library, sets the exit status.

Exit status: 0 when evaluated (eligible or not); 2 for input that cannot be evaluated (a bad
scenario file or value, an output folder that may not be written), with one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .errors import ScenarioError
from .evaluate import evaluate
from .output import OutputError, prepare_output_folder, write_comparison

EXIT_OK, EXIT_BAD_INPUT = 0, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as for a bad scenario
        self.exit(EXIT_BAD_INPUT, f"netbenefit: {message}\n")


def _evaluate_command(args: argparse.Namespace) -> int:
    result = evaluate(args.file)
    print(result.to_json() if args.json else result.summary())
    return EXIT_OK


def _compare_command(args: argparse.Namespace) -> int:
    results = [evaluate(path) for path in args.files]  # every scenario first: nothing written on error
    folder = prepare_output_folder(args.out, args.force)
    written = write_comparison(results, folder)
    for result in results:
        print(
            f"{result.name}: ratio {result.ratio:.4f} vs {result.threshold:.2f} ({result.threshold_clause}) "
            f"{'passes' if result.passes else 'fails'}; {'eligible' if result.eligible else 'not eligible'}"
        )
    print(f"wrote {len(written)} files to {folder}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="netbenefit", description="Emerge Program (P.L.2020, c.156, s.71) eligibility and net benefit test.")
    parser.add_argument("--version", action="version", version=f"netbenefit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    evaluate_parser = commands.add_parser("evaluate", help="evaluate one scenario file")
    evaluate_parser.add_argument("file", type=Path)
    evaluate_parser.add_argument("--json", action="store_true", help="print the JSON result object alone")
    evaluate_parser.set_defaults(handler=_evaluate_command)

    compare_parser = commands.add_parser("compare", help="evaluate several scenarios and write a comparison")
    compare_parser.add_argument("files", type=Path, nargs="+")
    compare_parser.add_argument("--out", type=Path, required=True, help="output folder")
    compare_parser.add_argument("--force", action="store_true", help="write into a non-empty output folder")
    compare_parser.set_defaults(handler=_compare_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (ScenarioError, OutputError) as error:
        print(f"netbenefit: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
