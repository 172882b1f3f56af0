"""Writing results to disk: every file is written to a temporary name and renamed into place,
so that a failing or interrupted run never leaves a half-written file."""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import errno
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import safe_text
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


#: While a run writes into its output folder (:func:`netbenefit.outdir.one_run`), that folder: the
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
    not set), for the libraries that stamp a file with it: fontTools, which WeasyPrint uses to
    embed fonts in a PDF, records the time of writing in each font otherwise. A set value is
    checked first (:func:`source_date`) and kept."""
    if source_date() is not None:
        yield
        return
    import calendar

    os.environ["SOURCE_DATE_EPOCH"] = str(calendar.timegm((*NO_DATE, 0, 0, 0)))
    try:
        yield
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None)


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
        with _signals_held():  # a signal between creating the temporary file and naming it waits
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        os.close(handle)
        write(Path(temporary))
        os.chmod(temporary, 0o666 & ~_umask())
        _synced(temporary)
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
    """Hold SIGINT and SIGTERM back while the body runs; they are acted on after it.

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
        for number in (signal.SIGINT, signal.SIGTERM):
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
    """Import ``modules`` with SIGINT and SIGTERM held (:func:`_signals_held`): a signal landing
    while a C extension initialises is acted on once the import is done, never inside it (an
    exception raised there can abort the interpreter)."""
    import importlib

    with _signals_held():
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


def check_output_folder(folder: Path, force: bool) -> Path:
    """Check that ``folder`` may be written: missing, empty, or ``force`` given (creates nothing);
    and that ``SOURCE_DATE_EPOCH``, if set, can be read (:func:`source_date`)."""
    source_date()
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise OutputError(f"{folder}: the output folder is not empty; give --force to overwrite its files")
    return folder


def prepare_output_folder(folder: Path, force: bool) -> Path:
    """Check that ``folder`` may be written: missing, empty, or ``force`` given; create it."""
    folder = check_output_folder(folder, force)
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
    """Check that the file ``path`` may be written: missing, or ``force`` given; and that
    ``SOURCE_DATE_EPOCH``, if set, can be read (:func:`source_date`)."""
    source_date()
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give the path of the file to write")
    if path.exists() and not force:
        raise OutputError(f"{path}: the file exists; give --force to overwrite it")
    return path


#: What ``netbenefit compare --charts`` draws: every chart, the comparison chart alone, or none.
CHART_CHOICES = ("all", "summary", "none")


#: The results whose charts the worker processes of :func:`write_charts` draw: they inherit them
#: when forked (a Scenario cannot be pickled), and receive only an index and a chart's name.
_CHART_JOBS: list[Result] = []


def _forked_chart_images(index: int | None, chart: str, formats: Sequence[str]) -> list[tuple[str, bytes]]:
    """The images of one chart: of the result ``_CHART_JOBS[index]``, or of them all (index None)."""
    return _chart_images(_CHART_JOBS if index is None else _CHART_JOBS[index], chart, formats)


#: The file names of charts not named after their function.
_FILE_STEMS = {"compare_ratios": "comparison_ratios"}


def _chart_images(results, chart: str, formats: Sequence[str]) -> list[tuple[str, bytes]]:
    """``chart`` drawn once for ``results`` and printed in each format, as ``(file name, image
    bytes)``; the caller writes the files (in a worker process of :func:`write_charts`, nothing
    is written)."""
    from . import charts
    from .charts.style import figure_bytes

    figure = charts.draw(chart, results)
    stem = _FILE_STEMS.get(chart, chart)
    return [(f"{stem}.{image_format}", figure_bytes(figure, image_format)) for image_format in formats]


def write_named_bytes(folder: Path, files) -> list[Path]:
    """Write each ``(file name, bytes)`` of ``files`` into ``folder``, atomically and in order;
    return their paths."""
    written = []
    for name, data in files:
        path = Path(folder) / name
        atomic_write(path, lambda temporary, data=data: Path(temporary).write_bytes(data))
        written.append(path)
    return written


def _write_images(folder: Path, images: list[tuple[str, bytes]], progress) -> list[Path]:
    written = write_named_bytes(folder, images)
    if progress is not None:
        progress.update(len(images))
    return written


def chart_count(results: Sequence[Result], formats: Sequence[str] = ("png",), charts: str = "all") -> int:
    """How many files :func:`write_charts` writes."""
    return len(_chart_jobs(results, charts)) * len(formats)


def _chart_jobs(results: Sequence[Result], charts: str) -> list[tuple[int | None, str]]:
    """The charts :func:`write_charts` draws, in the order their files are written: ``(None,
    "compare_ratios")`` for the comparison chart, then ``(index of the result, chart)``."""
    if charts == "none":
        return []
    from .charts import meaningful_charts

    jobs: list[tuple[int | None, str]] = [(None, "compare_ratios")]
    if charts == "all":
        jobs.extend((index, chart) for index, result in enumerate(results) for chart in meaningful_charts(result))
    return jobs


def write_charts(
    results: Sequence[Result],
    folder: Path,
    formats: Sequence[str] = ("png",),
    *,
    charts: str = "all",
    workers: int | None = None,
    progress=None,
) -> list[Path]:
    """The comparison chart and each scenario's meaningful charts, in every image format.

    ``charts/comparison_ratios.<format>``, then ``charts/<scenario>/<chart>.<format>`` for the
    charts of :func:`netbenefit.charts.meaningful_charts`. Each file is written atomically, by
    this process, and each figure drawn once. ``charts="summary"`` writes the comparison chart
    alone, ``"none"`` nothing. The charts are drawn in up to ``workers`` processes (default: one
    per core), each taking the next chart when it has finished one, and sent back as images; the
    files, and the order in which they are written, are those of one process drawing them all.
    ``progress`` (an object with ``update(n)``, a progress bar) is told of each file written.
    """
    with _charts_drawn(results, folder, formats, charts, workers) as finish:
        return finish(progress)


@contextlib.contextmanager
def _charts_drawn(results: Sequence[Result], folder: Path, formats: Sequence[str], charts: str, workers: int | None):
    """Start drawing the charts of :func:`write_charts` (in worker processes, which draw while
    the body runs); yield ``finish(progress)``, which writes their files in order and returns
    their paths. Leaving the block before ``finish`` cancels the charts not yet drawn."""
    if charts not in CHART_CHOICES:
        raise ValueError(f"charts must be one of {CHART_CHOICES}, not {charts!r}")
    folder = Path(folder) / "charts"
    jobs = _chart_jobs(results, charts)
    if not jobs:
        yield lambda progress: []
        return
    import_held()  # matplotlib's C extensions initialised with the signals held
    stems = file_stems(results)
    places = [folder if index is None else folder / stems[index] for index, _ in jobs]
    from .chart_cache import kept_charts

    kept = kept_charts(folder.parent, results, jobs, places, formats)  # the charts a run keeps as they are
    draw = [job for job, keep in zip(jobs, kept, strict=True) if keep is None]
    workers = min(len(draw), os.cpu_count() or 1) if workers is None else min(len(draw), max(1, workers))
    import multiprocessing

    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():

        def in_this_process(progress) -> list[Path]:
            written: list[Path] = []
            for (index, chart), place, keep in zip(jobs, places, kept, strict=True):
                if keep is not None:
                    written.extend(_kept_images(keep, progress))
                    continue
                images = _chart_images(results if index is None else results[index], chart, formats)
                written.extend(_write_images(place, images, progress))
            return written

        yield in_this_process
        return
    from concurrent.futures import ProcessPoolExecutor

    from .chart_cache import warm_up

    warm_up()  # once here, inherited by every worker
    _CHART_JOBS[:] = results
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_forked_chart_images, index, chart, tuple(formats)) for index, chart in draw]

            def in_workers(progress) -> list[Path]:
                written: list[Path] = []
                drawn = iter(futures)
                for place, keep in zip(places, kept, strict=True):  # in order: the files of one process
                    if keep is not None:
                        written.extend(_kept_images(keep, progress))
                    else:
                        written.extend(_write_images(place, next(drawn).result(), progress))
                return written

            try:
                yield in_workers
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        _CHART_JOBS.clear()


def _kept_images(paths: list[Path], progress) -> list[Path]:
    if progress is not None:
        progress.update(len(paths))
    return paths


def write_comparison(
    results: Sequence[Result],
    folder: Path,
    *,
    formats: Sequence[str] = ("png",),
    charts: str = "all",
    workers: int | None = None,
    progress=None,
) -> list[Path]:
    """Everything ``netbenefit compare`` writes into ``folder``; returns the paths, in order.

    - ``summary.csv``: one row per scenario (:func:`netbenefit.compare`);
    - ``cashflows/<scenario>.csv``: each scenario's cash flows by project year;
    - ``comparison.xlsx``: the workbook of :func:`netbenefit.workbook.write_workbook`;
    - ``charts/``: the charts of :func:`write_charts` (``charts``, ``workers``), in each of ``formats``.

    ``progress`` (an object with ``update(n)``) is told of each file written; :func:`file_count`
    gives their number. Each file is written atomically, in the order above.
    """
    folder = Path(folder)
    written = []
    # the charts are drawn in worker processes while this process writes the tables
    with _charts_drawn(results, folder, formats, charts, workers) as finish_charts:
        written.extend(write_named_bytes(folder, csv_files(results)))
        from .workbook import write_workbook

        written.append(write_workbook(results, folder / "comparison.xlsx"))
        if progress is not None:
            progress.update(len(written))
        written.extend(finish_charts(progress))
    return written


def csv_files(results: Sequence[Result]) -> list[tuple[str, bytes]]:
    """``summary.csv`` and ``cashflows/<scenario>.csv`` of :func:`write_comparison`, as
    ``(path in the folder, contents)``: the bytes pandas' ``to_csv`` writes for
    ``netbenefit.compare(results)`` and for each ``result.cashflows`` (text through
    :func:`netbenefit.safe_text.csv_field`), made from the results' rows and columns without
    pandas (tests/outputs/test_csv.py holds them to pandas' output)."""
    from .compare import SUMMARY_COLUMNS, summary_row

    summary = [summary_row(result) for result in results]
    files = [("summary.csv", csv_bytes(SUMMARY_COLUMNS, [[row[c] for c in SUMMARY_COLUMNS] for row in summary]))]
    for result, stem in zip(results, file_stems(results), strict=True):
        columns, rows = result._columns_and_rows("cashflows")
        files.append((f"cashflows/{stem}.csv", csv_bytes(columns, rows)))
    return files


def csv_bytes(columns: Sequence[str], rows: Sequence[Sequence]) -> bytes:
    """A table as pandas' ``DataFrame(rows, columns=columns).to_csv(index=False)`` writes it,
    after :func:`netbenefit.safe_text.csv_table`: each column typed as pandas types it (whole
    numbers with a missing value or a fraction are floats, ``3.0``), floats written as Python's
    ``repr`` (the shortest text that reads back as the same float), a missing value empty."""
    import csv
    import io

    texts = [_csv_column([row[k] for row in rows]) for k in range(len(columns))]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=os.linesep)
    writer.writerow([safe_text.csv_field(column) for column in columns])
    writer.writerows(zip(*texts, strict=True) if texts else [])
    return buffer.getvalue().encode("utf-8")


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _csv_column(values: list) -> list[str]:
    import numpy as np

    values = [value.item() if isinstance(value, np.generic) else value for value in values]
    present = [value for value in values if not _missing(value)]
    numbers = all(isinstance(value, int | float) and not isinstance(value, bool) for value in present)
    as_float = bool(present) and numbers and (len(present) < len(values) or any(isinstance(v, float) for v in present))
    texts = []
    for value in values:
        if _missing(value):
            texts.append("")
        elif as_float or isinstance(value, float):
            texts.append(repr(float(value)))
        elif isinstance(value, str):
            texts.append(safe_text.csv_field(value))
        else:
            texts.append(str(value))
    return texts


def file_count(results: Sequence[Result], formats: Sequence[str] = ("png",), charts: str = "all") -> int:
    """How many files :func:`write_comparison` writes."""
    return 2 + len(results) + chart_count(results, formats, charts)
