"""The ``netbenefit`` command: parses arguments, calls the library, sets the exit status.

Exit status: 0 when evaluated (eligible or not); 2 for input that cannot be evaluated (a bad
scenario file or value, a bad option, an existing output that --force does not allow), with one
line on stderr naming the file, the key and the problem; 1 when an output cannot be written (a
full disk, a read-only folder), with one line naming the file; the files written before stay
whole, since each is written to a temporary name and renamed. A run stopped by SIGINT (Ctrl-C),
SIGTERM or SIGHUP (its terminal closed) removes its temporary file, prints one line and exits with
130, 143 or 129 (128 + the signal's number, as shells report it); its chart workers stop with it.

An empty ``SOURCE_DATE_EPOCH`` is removed from the environment before any import (a library
imported later would read it itself: :mod:`netbenefit._startup`); one that is not a whole number
of seconds is refused in one line (exit 2) before any work, by every command.

Plausibility warnings (:mod:`netbenefit.model.plausibility`) are printed on stderr, one line each,
beginning ``netbenefit: warning:``, and the status stays 0; with ``--strict`` (every command) they
are errors: each is printed as a problem and the status is 2, before anything is written.

The command-line floor, this folder: the parser (here) and the sub-commands (``commands/``), which
parse and call; they may import every floor below and nothing imports them but ``__main__``."""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Sequence

from .. import _startup
from ..errors import ScenarioError
from ..io.safe_text import terminal
from ..io.writing import STOP_SIGNALS, OutputError, put_back_handlers, source_date
from ..model.plausibility import PlausibilityWarning
from ..version import installed_version
from .commands import actuals, award, compare, diff, evaluate, montecarlo, portfolio, report, schema, sweep
from .commands.options import add_workbook_option

EXIT_OK, EXIT_WRITE_FAILED, EXIT_BAD_INPUT = 0, 1, 2

#: The sub-command modules, in the order ``--help`` lists them.
COMMANDS = (evaluate, compare, diff, sweep, montecarlo, report, award, actuals, portfolio, schema)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as for a bad scenario
        self.exit(EXIT_BAD_INPUT, f"netbenefit: {message}\n")


class _VersionAction(argparse.Action):
    """``--version``: the installed version, read only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help or "show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"netbenefit {installed_version('unknown')}")
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
    for name, subparser in subparsers.choices.items():  # every command loads scenarios
        subparser.add_argument(
            "--strict", action="store_true", help="treat plausibility warnings as errors (exit status 2)"
        )
        if name != "schema":  # a scenario file may be a workbook netbenefit wrote (docs/workbook.md)
            add_workbook_option(subparser)
    return parser


class _Stopped(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP (as :class:`_Interrupted` is by SIGINT), so that every
    ``finally`` and ``except BaseException`` runs: temporary files are removed, locks released."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


#: The signals that asked this command to stop, in order. The exception a handler raises can be
#: lost: Python drops an exception raised in a finalizer or a weakref callback (where a handler
#: may happen to run), and the command then goes on to its end; main reports the stop all the same.
_RECEIVED: list[int] = []

#: The word of the one-line message for each signal that stops a command (netbenefit.io.writing.STOP_SIGNALS).
_STOP_WORDS = {
    number: word
    for number, word in ((signal.SIGINT, "interrupted"), (signal.SIGTERM, "terminated"),
                         (getattr(signal, "SIGHUP", None), "hung up"))
    if number in STOP_SIGNALS
}  # fmt: skip


class _Interrupted(KeyboardInterrupt):
    """Raised in the main thread by SIGINT in place of a KeyboardInterrupt, of which it is a kind
    (code that catches KeyboardInterrupt still does). CPython 3.11 ends the process by SIGINT,
    whatever status the command returns, once a KeyboardInterrupt itself (its exact type) has left
    an ``exec`` of a string, as happens when Ctrl-C lands while a module defining dataclasses is
    imported; a subclass leaves the exit status alone (130)."""


def _stop(number: int, frame) -> None:
    _RECEIVED.append(number)
    if number == signal.SIGINT:
        raise _Interrupted
    raise _Stopped(number)


def _quiet_stops(hook: Callable) -> Callable:
    """``hook`` (a ``sys.unraisablehook``), silent for the stop a signal handler raised where Python
    cannot raise it (a finalizer, a weakref callback): that stop is in :data:`_RECEIVED` and main
    reports it in its one line, so it is not printed as an exception ignored."""

    def unraisable(info) -> None:
        if not isinstance(info.exc_value, (_Stopped, _Interrupted)):
            hook(info)

    return unraisable


#: A Matplotlib warning of a character its font cannot draw (one per character and chart).
_MISSING_GLYPH = re.compile(r"^Glyph \d+ \((.*)\) missing from font\(s\) (.*?)\.?$", re.DOTALL)
#: The library warnings already written by this command (each is written once).
_SHOWN: set[str] = set()


def library_warning_line(message: str) -> str:
    """The one line the command writes for a library's warning (Matplotlib, pandas...): a missing
    glyph, of which a chart with a name in another script gives one per character and chart, is
    said once for them all."""
    if message.startswith("constrained_layout not applied"):  # a chart of very many applications
        return (
            "a chart has too many items to lay out its labels fully (its figure keeps its size): "
            "some labels may overlap; the tables, workbook and HTML hold every value"
        )
    glyph = _MISSING_GLYPH.match(message)
    if glyph is not None:
        return (
            f"the charts' font ({glyph.group(2)}) has no glyph for some characters of the names: they are "
            "drawn as empty boxes in the charts (the tables, workbook and HTML hold the text)"
        )
    return " ".join(message.split())


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """The command's warning writer: every warning, the libraries' included, is one line
    ``netbenefit: warning: ...`` on stderr; a library's warning is written once."""
    if issubclass(category, PlausibilityWarning):
        print(f"netbenefit: warning: {terminal(str(message))}", file=sys.stderr)
        return
    text = library_warning_line(str(message))
    if text in _SHOWN:
        return
    _SHOWN.add(text)
    print(f"netbenefit: warning: {terminal(text)}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; in its own process (``python -m netbenefit``, the ``netbenefit``
    script) the process ends here, with the command's exit status (:func:`_end_process`)."""
    code = _command(argv)
    if _startup.is_command_line():
        _end_process(code)
    return code


def _end_process(code: int) -> None:
    """End the command line's process once its command has returned: its output flushed, its
    logging shut down, then ``os._exit``. The interpreter's own ending (tens of milliseconds of
    tearing down modules) is skipped because it puts the signals' default handlers back first, so a
    Ctrl-C or SIGTERM in that window would kill the process without its one line; until ``os._exit``
    a signal is :func:`_late_stop`'s. Every file of the command is written and closed by now, and
    its worker processes and clusters are closed."""
    import logging  # deferred: 2.6 ms at every command's start-up (--help, evaluate load no logging)

    _flush_output()
    logging.shutdown()
    os._exit(int(code))


def _command(argv: Sequence[str] | None) -> int:
    _RECEIVED.clear()
    _SHOWN.clear()
    previous: dict = {}
    unraisable_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_stops(unraisable_hook)
    try:
        _take_over_signals(previous)  # first thing: from here a signal is a stop, reported in one line
        _startup.unset_blank_source_date()  # done at start-up in its own process; in-process runs too
        if _startup.RECEIVED:  # received while the command line started (netbenefit._startup)
            _RECEIVED.extend(_startup.RECEIVED)
            _startup.RECEIVED.clear()
        if _RECEIVED:
            return _stopped(_RECEIVED[0])
        args = build_parser().parse_args(argv)

        with warnings.catch_warnings():
            warnings.simplefilter("error" if getattr(args, "strict", False) else "always", PlausibilityWarning)
            warnings.showwarning = _show_warning
            code = _run(args)
        return _stopped(_RECEIVED[0]) if _RECEIVED else code  # a stop whose exception Python dropped
    except KeyboardInterrupt:
        return _stopped(signal.SIGINT)
    except _Stopped as stopped:
        return _stopped(stopped.number)
    finally:
        try:
            if previous and _startup.is_command_line():
                _hold_to_the_end(previous)  # the process ends next: a signal still gets its one line
            else:
                put_back_handlers(previous)
        finally:
            sys.unraisablehook = unraisable_hook


def _flush_output() -> None:
    """Flush stdout and stderr, as far as they can be (a closed pipe, a full disk: nothing more to do)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


def _late_stop(number: int, frame) -> None:
    """A signal after the command has finished (its files whole, its lines printed), while the
    process ends: the output is flushed, the stop reported in its one line, and the process ends
    with 128 + the signal's number, never killed by the signal without a word."""
    _flush_output()
    try:
        _stopped(number)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(128 + int(number))


def _hold_to_the_end(previous: dict) -> None:
    """In the command line's process, the handlers of :data:`_STOP_WORDS` once the command has
    returned: :func:`_late_stop`, until the process ends (the handlers from before the command
    are not put back: nothing runs after it but the interpreter's own ending)."""
    for number in previous:
        signal.signal(number, _late_stop)


def _take_over_signals(previous: dict) -> None:
    """Set :func:`_stop` as the handler of SIGINT, SIGTERM and SIGHUP (in the main thread), recording in
    ``previous`` each handler it replaces: the one before the command line held the signals while
    it started (netbenefit._startup), if it did. A signal ignored (SIG_IGN) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in _STOP_WORDS:
        handler = signal.getsignal(number)
        if handler is signal.SIG_IGN:
            continue
        previous[number] = _startup.ORIGINAL.pop(number, handler)
        signal.signal(number, _stop)


def _stopped(number: int) -> int:
    number = signal.Signals(number)
    print(
        f"netbenefit: {_STOP_WORDS[number]} (signal {number.name}); files written so far are complete", file=sys.stderr
    )
    return 128 + int(number)


def _run(args: argparse.Namespace) -> int:
    try:
        source_date()  # a SOURCE_DATE_EPOCH that cannot be read: one line, before any work or import
        return args.handler(args)
    except PlausibilityWarning as error:  # --strict: every warning of the scenario, as errors
        for line in error.lines:
            print(f"netbenefit: {line}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ScenarioError as error:  # every problem of the file, one line each
        for line in error.lines:
            print(f"netbenefit: {line}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OutputError as error:
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
