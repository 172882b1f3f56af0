"""Writing results to disk: every file is written to a temporary name and renamed into place,
so that a failing or interrupted run never leaves a half-written file."""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import re
import signal
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from . import safe_text
from .compare import compare
from .result import Result


class OutputError(Exception):
    """The output folder cannot be written as asked (exists and is not empty, not a folder...)."""


class WriteError(OSError):
    """Writing a file failed; ``filename`` is always the file being written, whatever the
    operating system's error named (a full disk often names none)."""

    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(error.errno, error.strerror or str(error) or type(error).__name__, str(path))


#: While a run keeps a manifest (:func:`netbenefit.outdir.one_run`), every file written into place.
WRITTEN: contextvars.ContextVar[list[Path] | None] = contextvars.ContextVar("written", default=None)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(temporary_path)``, then rename the temporary file to ``path``.

    The file gets the permissions of an ordinary new file (``0o666`` less the umask), not the
    owner-only mode of the temporary file. An operating-system error is raised as
    :class:`WriteError` naming ``path``; on any error or interruption (a signal raising in the
    main thread) the temporary file is removed.
    """
    path = Path(path)
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _signals_held():  # a signal between creating the temporary file and naming it waits
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        os.close(handle)
        write(Path(temporary))
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
        if (record := WRITTEN.get()) is not None:
            record.append(path)
    except BaseException as error:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError) and not isinstance(error, WriteError):
            raise WriteError(path, error) from error
        raise


@contextlib.contextmanager
def _signals_held():
    """Hold SIGINT and SIGTERM back (POSIX) while the body runs; they are delivered after it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))


def write_file(path: Path, write: Callable[[Path], None]) -> Path:
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


def prepare_output_folder(folder: Path, force: bool) -> Path:
    """Check that ``folder`` may be written: missing, empty, or ``force`` given."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise OutputError(f"{folder}: the output folder is not empty; give --force to overwrite its files")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def file_stems(results: Sequence[Result]) -> list[str]:
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


def prepare_output_file(path: Path, force: bool) -> Path:
    """Check that the file ``path`` may be written: missing, or ``force`` given."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give the path of the file to write")
    if path.exists() and not force:
        raise OutputError(f"{path}: the file exists; give --force to overwrite it")
    return path


def write_charts(results: Sequence[Result], folder: Path, formats: Sequence[str] = ("png",)) -> list[Path]:
    """The comparison chart and each scenario's meaningful charts, in every image format.

    ``charts/comparison_ratios.<format>``, then ``charts/<scenario>/<chart>.<format>`` for the
    charts of :func:`netbenefit.charts.meaningful_charts`. Each file is written atomically.
    """
    from . import charts

    folder = Path(folder) / "charts"
    written = []

    def save(figure, stem_path: Path) -> None:
        for image_format in formats:
            written.append(charts.save_figure(figure, stem_path.with_name(f"{stem_path.name}.{image_format}")))

    save(charts.draw("compare_ratios", results), folder / "comparison_ratios")
    for result, stem in zip(results, file_stems(results), strict=True):
        for chart in charts.meaningful_charts(result):
            save(charts.draw(chart, result), folder / stem / chart)
    return written


def write_comparison(results: Sequence[Result], folder: Path, *, formats: Sequence[str] = ("png",)) -> list[Path]:
    """Everything ``netbenefit compare`` writes into ``folder``; returns the paths, in order.

    - ``summary.csv``: one row per scenario (:func:`netbenefit.compare`);
    - ``cashflows/<scenario>.csv``: each scenario's cash flows by project year;
    - ``comparison.xlsx``: the workbook of :func:`netbenefit.workbook.write_workbook`;
    - ``charts/``: the charts of :func:`write_charts`, in each of ``formats``.
    """
    folder = Path(folder)
    written = []
    summary = safe_text.csv_table(compare(results))
    path = folder / "summary.csv"
    atomic_write(path, lambda temporary: summary.to_csv(temporary, index=False))
    written.append(path)
    for result, stem in zip(results, file_stems(results), strict=True):
        path = folder / "cashflows" / f"{stem}.csv"
        atomic_write(path, lambda temporary, r=result: safe_text.csv_table(r.cashflows).to_csv(temporary))
        written.append(path)
    from .workbook import write_workbook

    written.append(write_workbook(results, folder / "comparison.xlsx"))
    written.extend(write_charts(results, folder, formats))
    return written
