"""Signals while the command line starts: held from the first instruction of the package.

``python -m netbenefit`` (and the ``netbenefit`` script) import the package, numpy and pydantic
before the command line's own handlers can be set: half a second in which Ctrl-C would end the
process by SIGINT with a traceback (status -2, not 130) and SIGTERM could land inside a C
extension's initialisation (SIGHUP, a closed terminal, likewise). When (and only when) the package
is imported as the command line, :func:`hold_while_starting` sets handlers that record SIGINT,
SIGTERM and SIGHUP, first thing; the command line (:func:`netbenefit.cli.main`) takes over from
them and reports a signal received meanwhile as any other stop (130, 143 or 129, one line).
Imported as a library, the package sets no handler.

The command line's environment is read here too, first thing: an empty ``SOURCE_DATE_EPOCH`` is
removed before any library can read it (:func:`unset_blank_source_date`).
"""

import os
import signal  # the public module (enum, which it imports, is loaded by Python's start-up already)
import sys

#: The signals held while the command line starts (those that end a run: SIGHUP too, where the
#: system has it), and those received meanwhile, in order.
HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
RECEIVED: list = []
#: The handlers in place before they were held (put back when the command ends).
ORIGINAL: dict = {}


def _record(number: int, frame) -> None:
    RECEIVED.append(number)


def unset_blank_source_date() -> None:
    """Remove ``SOURCE_DATE_EPOCH`` from the environment when it is set to empty text or spaces (as
    CI templates set it), before any library is imported: netbenefit reads an empty value as not
    set, but a library imported later may read it itself, at its own import (``numpy.f2py``, which
    SciPy loads, calls ``int()`` on it and fails on empty text). A value that is not empty is left
    as it is: the command line checks it before any work (one line, exit 2)."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    if value is not None and not value.strip():
        del os.environ["SOURCE_DATE_EPOCH"]


def is_command_line() -> bool:
    """Whether this process is the command line: ``python -m netbenefit`` or the ``netbenefit`` script."""
    argv = list(getattr(sys, "orig_argv", []))
    if any(a == "-m" and b == "netbenefit" for a, b in zip(argv, argv[1:], strict=False)) or "-mnetbenefit" in argv:
        return True
    main = sys.modules.get("__main__")
    return os.path.basename(getattr(main, "__file__", "") or "") == "netbenefit"


def hold_while_starting() -> None:
    """Record SIGINT, SIGTERM and SIGHUP from now on, when this process is the command line (a signal that
    is ignored stays ignored); and remove an empty ``SOURCE_DATE_EPOCH`` from its environment
    (:func:`unset_blank_source_date`)."""
    if ORIGINAL or not is_command_line():
        return
    unset_blank_source_date()
    for number in HELD:
        handler = signal.getsignal(number)
        if handler is not signal.SIG_IGN:
            try:
                signal.signal(number, _record)
            except ValueError:  # not the main thread: no handler can be set
                return
            ORIGINAL[number] = handler
