"""The ``netbenefit`` command: parses arguments, calls the library, sets the exit status.

Exit status: 0 when evaluated (eligible or not); 2 for input that cannot be evaluated (a bad
scenario file or value, a bad option, an existing output that --force does not allow), with one
line on stderr naming the file, the key and the problem; 1 when an output cannot be written (a
full disk, a read-only folder), with one line naming the file; the files written before stay
whole, since each is written to a temporary name and renamed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .commands import actuals, award, compare, evaluate, montecarlo, report, sweep
from .errors import ScenarioError

EXIT_OK, EXIT_WRITE_FAILED, EXIT_BAD_INPUT = 0, 1, 2

#: The sub-command modules, in the order ``--help`` lists them.
COMMANDS = (evaluate, compare, sweep, montecarlo, report, award, actuals)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as for a bad scenario
        self.exit(EXIT_BAD_INPUT, f"netbenefit: {message}\n")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("netbenefit")
    except PackageNotFoundError:
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version``: the installed version, read only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help or "show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"netbenefit {_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="netbenefit",
        description="Emerge Program eligibility and net positive benefit test, P.L.2020, c.156, s.71 (C.34:1B-339).",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .output import OutputError

    try:
        return args.handler(args)
    except (ScenarioError, OutputError) as error:
        print(f"netbenefit: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return EXIT_OK
    except OSError as error:  # the disk is full, a folder is read-only...: earlier outputs stay whole
        where = f" {error.filename}" if error.filename else ""
        print(f"netbenefit: cannot write{where}: {error.strerror or error}", file=sys.stderr)
        return EXIT_WRITE_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
