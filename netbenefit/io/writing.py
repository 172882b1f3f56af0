"""Writing one file safely: to a temporary name, synced, then renamed into place, with the signals
that end a run held while it is named; the output folder's own folders are never made through a link.
A failing or interrupted run never leaves a half-written file.

The ground floor of file writing: it imports nothing of netbenefit's but the argument checks
(:mod:`netbenefit.io.arguments`), and everything that writes
a file (:mod:`netbenefit.views.result_files`, the workbook, the HTML report, the charts) writes through it."""

from __future__ import annotations

import calendar
import contextlib
import contextvars
import datetime as dt
import errno
import hashlib
import importlib
import os
import re
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .arguments import output_file


class OutputError(Exception):
    """The output folder cannot be written as asked (exists and is not empty, not a folder...)."""


class WriteError(OSError):
    """Writing a file failed; ``filename`` is always the file being written, whatever the
    operating system's error named (a full disk often names none)."""

    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(error.errno, error.strerror or str(error) or type(error).__name__, str(path))


#: While a run keeps a manifest (:func:`netbenefit.io.run_folder.one_run`), every file written into
#: place, in the order of first writing, with the SHA-256 of the bytes it was written with (taken
#: from the temporary file before it is renamed into place: what the run wrote, whatever happens to
#: the file after): path -> hex digest.
WRITTEN_DIGESTS: contextvars.ContextVar[dict[Path, str] | None] = contextvars.ContextVar("digests", default=None)


#: While a run writes into its output folder (:func:`netbenefit.io.run_folder.one_run`), that folder: the
#: folders netbenefit makes inside it are made by :func:`make_folders`, never through a link.
OUTPUT_ROOT: contextvars.ContextVar[Path | None] = contextvars.ContextVar("output_root", default=None)


def make_folders(folder: Path) -> None:
    """Make ``folder`` and the folders above it. Inside the output folder of a run
    (:data:`OUTPUT_ROOT`), each folder between it and ``folder`` must be a folder itself: a link
    (or a file) where netbenefit keeps a folder of its outputs (``cashflows``, ``charts``) is
    refused (:class:`OutputError`), never written through, so nothing is written outside the
    output folder."""
    folder = Path(folder)
    root = OUTPUT_ROOT.get()
    if root is None or not folder.is_relative_to(root):
        folder.mkdir(parents=True, exist_ok=True)
        return
    current = Path(root)
    for part in folder.relative_to(root).parts:
        current = current / part
        try:
            os.mkdir(current)
        except FileExistsError:
            pass
        mode = os.lstat(current).st_mode
        if not stat.S_ISDIR(mode):
            what = "a link" if stat.S_ISLNK(mode) else "not a folder"
            raise OutputError(
                f"{current}: is {what} where netbenefit keeps a folder of its outputs; "
                "nothing is written through it: remove it or give another --out"
            )


def _synced(path: str) -> None:
    """Flush the file's data to the disk, so that once it is renamed into place a power cut leaves
    the old file or the new one, never an empty one."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: The date a workbook records as written when ``SOURCE_DATE_EPOCH`` is not set: the date XlsxWriter
#: already gives every part inside the file, so that the same results make the same bytes.
NO_DATE = (1980, 1, 1)


def source_date() -> dt.datetime | None:
    """The date to record in a file's metadata, or None to record none: ``SOURCE_DATE_EPOCH``
    (whole seconds since 1970-01-01 UTC, the reproducible-builds convention) when it is set.

    Without it the outputs carry no time of writing, so that running the same scenarios again
    writes the same bytes: an SVG or PDF has no date, and a workbook (whose format requires
    one) the date of :data:`NO_DATE`.
    """
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return None
    if not re.fullmatch(r"[0-9]+", value):
        raise OutputError(
            f"SOURCE_DATE_EPOCH: must be a whole number of seconds since 1970-01-01 UTC (as `date +%s` "
            f"prints), not {value!r}"
        )
    try:
        return dt.datetime.fromtimestamp(int(value), tz=dt.UTC)
    except (OverflowError, OSError, ValueError):
        raise OutputError(f"SOURCE_DATE_EPOCH: {value} seconds is past any date a file can record") from None


@contextlib.contextmanager
def dates_fixed():
    """Within the block, ``SOURCE_DATE_EPOCH`` is set (to the date of :data:`NO_DATE` when it was
    not set, or set empty), for the libraries that stamp a file with it: fontTools, which
    WeasyPrint uses to embed fonts in a PDF, records the time of writing in each font otherwise. A
    set value is checked first (:func:`source_date`) and kept; the environment is put back after."""
    if source_date() is not None:
        yield
        return
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(calendar.timegm((*NO_DATE, 0, 0, 0)))
    try:
        yield
    finally:
        _put_back_source_date(before)


def _put_back_source_date(value: str | None) -> None:
    if value is None:
        os.environ.pop("SOURCE_DATE_EPOCH", None)
    else:
        os.environ["SOURCE_DATE_EPOCH"] = value


def blank_source_date() -> bool:
    """Whether ``SOURCE_DATE_EPOCH`` is set to empty text (or spaces), as CI templates set it."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    return value is not None and not value.strip()


@contextlib.contextmanager
def blank_source_date_unset():
    """Within the block, an empty ``SOURCE_DATE_EPOCH`` is not in the environment (and is put back
    after): netbenefit reads it as not set (:func:`source_date`), but a library imported inside
    the block may read it itself when it is imported (``numpy.f2py``, which SciPy loads, reads it
    with ``int()``, and fails on empty text). The command line removes it for good before any
    import (:mod:`netbenefit._startup`)."""
    if not blank_source_date():
        yield
        return
    before = os.environ.pop("SOURCE_DATE_EPOCH")
    try:
        yield
    finally:
        if "SOURCE_DATE_EPOCH" not in os.environ:
            _put_back_source_date(before)


@contextlib.contextmanager
def written_file(function: str, path: Any):
    """The checks of a file the Python API writes (``to_pdf``, ``to_excel``, ``to_html``), before
    any work: its path (:func:`netbenefit.io.arguments.output_file`: a name a file can have, in a
    folder that exists), then ``SOURCE_DATE_EPOCH`` (:func:`source_date`); the block runs with an
    empty ``SOURCE_DATE_EPOCH`` unset (:func:`blank_source_date_unset`). Yields the path."""
    target = output_file(path, "path", function)
    source_date()
    with blank_source_date_unset():
        yield target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(temporary_path)``, then rename the temporary file to ``path``.

    The file gets the permissions of an ordinary new file (``0o666`` less the umask), not the
    owner-only mode of the temporary file, and is flushed to the disk (``fsync``) before the
    rename. Its folder is made by :func:`make_folders` (never through a link inside a run's
    output folder). An operating-system error is raised as
    :class:`WriteError` naming ``path``; on any error or interruption (a signal raising in the
    main thread) the temporary file is removed.
    """
    path = Path(path)
    temporary = None
    try:
        make_folders(path.parent)
        with signals_held():  # a signal between creating the temporary file and naming it waits
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        os.close(handle)
        write(Path(temporary))
        os.chmod(temporary, 0o666 & ~_umask())
        _synced(temporary)
        digests = WRITTEN_DIGESTS.get()
        digest = sha256_of(temporary) if digests is not None else None
        os.replace(temporary, path)
        if digests is not None:
            digests[path] = digest
    except BaseException as error:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError) and not isinstance(error, WriteError):
            raise WriteError(path, error) from error
        raise


def sha256_of(path: str | Path) -> str:
    """The SHA-256 of the bytes of the file ``path``, as hex digits."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


#: The signals that end a run: Ctrl-C (SIGINT), a request to stop (SIGTERM) and a closed terminal
#: or session (SIGHUP, where the system has it). Each is held while a file is named and while the
#: chart library is imported, and the command line ends a run on each in one line.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def signals_held():
    """Hold the signals that end a run (:data:`STOP_SIGNALS`) back while the body runs; they are
    acted on after it.

    Held at the level of Python's handlers, not with a signal mask: a mask holds a signal for
    one thread only, and the kernel hands a signal sent to the process to any other thread (a
    thread pool of numpy's, the threads of a process pool) whose mask lets it through, after
    which Python runs the handler in the main thread, mask or not. Outside the main thread, where
    no handler can be set and none runs, nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(number: int, frame) -> None:
        received.append(number)

    previous: dict[int, Any] = {}
    try:
        for number in STOP_SIGNALS:
            previous[number] = signal.signal(number, hold)
        yield
    finally:
        put_back_handlers(previous)
        for number in dict.fromkeys(received):  # each signal once, in the order received
            handler = previous[number]
            if callable(handler):
                handler(number, None)  # e.g. KeyboardInterrupt, or the command line's stop
            elif handler == signal.SIG_DFL:
                signal.raise_signal(number)


#: The modules that draw a chart: matplotlib, whose C extensions are initialised on import.
CHART_LIBRARIES = ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg")


def import_held(modules: Sequence[str] = CHART_LIBRARIES) -> None:
    """Import ``modules`` with the signals that end a run held (:func:`signals_held`): a signal
    landing while a C extension initialises is acted on once the import is done, never inside it
    (an exception raised there can abort the interpreter, or leave a half-initialised module and a
    traceback). Every first use of the chart library passes here
    (:func:`netbenefit.views.charts.style.chart_library`); once they are imported, nothing is held."""
    if all(name in sys.modules for name in modules):
        return
    with signals_held():
        for name in modules:
            importlib.import_module(name)


def put_back_handlers(handlers: dict[int, Any]) -> None:
    """Set each signal's handler back to ``handlers[signal]`` (None, a handler not set from
    Python, is put back as ``SIG_DFL``), every one of them even when a handler raises meanwhile
    (then raise its exception after).

    ``signal.signal`` runs the handlers of the signals already received before it sets a new
    one: a signal arriving once SIGINT's handler is back is acted on while SIGTERM's is put back,
    and its exception (a KeyboardInterrupt) must not leave SIGTERM held for ever."""
    raised: BaseException | None = None
    for number, handler in handlers.items():
        while True:
            try:
                signal.signal(number, signal.SIG_DFL if handler is None else handler)
                break
            except BaseException as error:  # a received signal's handler raised; set this one again
                raised = raised or error
    if raised is not None:
        raise raised


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))


def write_file(path: Path, write: Callable[[Path], object]) -> Path:
    """:func:`atomic_write` for the Python API: returns ``path``; any OSError raised names ``path``
    (a missing or read-only folder, a full disk, a folder in the way)."""
    path = Path(path)
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        atomic_write(path, write)
    except OSError as error:
        if error.filename == str(path):
            raise
        raise OSError(error.errno, error.strerror or str(error), str(path)) from error
    return path


# ----------------------------------------------------------------------------------------------
# The names of the files written for several results
# ----------------------------------------------------------------------------------------------

#: A chart whose file is not named after the chart: chart name -> file stem.
CHART_FILE_STEMS = {"compare_ratios": "comparison_ratios"}


def file_stems(results: Sequence[Any]) -> list[str]:
    """A distinct, file-system-safe stem for each result (from its scenario file name)."""
    stems: list[str] = []
    for result in results:
        base = Path(result.scenario.source).stem if result.scenario.source != "<dict>" else result.name
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", base).strip("_") or "scenario"
        candidate, n = stem, 2
        while candidate in stems:
            candidate, n = f"{stem}_{n}", n + 1
        stems.append(candidate)
    return stems
