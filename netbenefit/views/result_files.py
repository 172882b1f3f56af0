"""Writing results to disk: every file is written to a temporary name and renamed into place,
so that a failing or interrupted run never leaves a half-written file."""

from __future__ import annotations

import contextlib
import csv
import ctypes
import gc
import io
import os
import signal
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from ..io import safe_text
from ..io.writing import CHART_FILE_STEMS, OutputError, atomic_write, file_stems, import_held, source_date
from ..model.compare import SUMMARY_COLUMNS, summary_row
from ..model.result import Result
from . import charts
from .chart_cache import charts_may_be_kept, kept_charts, warm_up
from .charts import meaningful_charts
from .charts.printing import canvases_kept, figure_bytes, keep_canvases
from .workbook import write_workbook


def check_output_folder(folder: Path, force: bool) -> Path:
    """Check that ``folder`` may be written: missing, empty, or ``force`` given (creates nothing);
    and that ``SOURCE_DATE_EPOCH``, if set, can be read (:func:`source_date`)."""
    source_date()
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise OutputError(f"{folder}: the output folder is not empty; give --force to overwrite its files")
    for name in OUTPUT_SUBFOLDERS:  # refused before any file is written, not when the first chart is
        sub = folder / name
        if sub.is_symlink() or (sub.exists() and not sub.is_dir()):
            what = "a link" if sub.is_symlink() else "not a folder"
            raise OutputError(
                f"{sub}: is {what} where netbenefit keeps a folder of its outputs; "
                "nothing is written through it: remove it or give another --out"
            )
    return folder


#: The folders a run writes inside its output folder.
OUTPUT_SUBFOLDERS = ("charts", "cashflows")


def prepare_output_folder(folder: Path, force: bool) -> Path:
    """Check that ``folder`` may be written: missing, empty, or ``force`` given; create it."""
    folder = check_output_folder(folder, force)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def prepare_output_file(path: Path, force: bool) -> Path:
    """Check that the file ``path`` may be written: in a folder that exists (the folder of a file
    is not made, as pandas' writers do not make it; an output folder, ``compare --out DIR``, is),
    missing, or ``force`` given; and that ``SOURCE_DATE_EPOCH``, if set, can be read (:func:`source_date`)."""
    source_date()
    path = Path(path)
    if not path.parent.is_dir():
        what = "is not a folder" if path.parent.exists() else "does not exist"
        raise OutputError(f"{path}: the folder {path.parent} {what}; make it first (the folder of a file is not made)")
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


#: Linux's prctl option that has a signal sent to a process when its parent ends (PR_SET_PDEATHSIG).
_PR_SET_PDEATHSIG = 1


def _stop_with_parent(parent: int) -> None:
    """Have the system kill this process (SIGKILL, which it cannot ignore) when its parent ends
    (Linux's ``prctl(PR_SET_PDEATHSIG)``, through the C library); then, if the parent ``parent`` has
    already ended meanwhile, end now. Elsewhere the worker ends when it next reads the pool's closed
    pipe."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no C library to ask: the pool's pipe ends the worker
        return
    if os.getppid() != parent:  # the parent ended before the request: nothing would be sent
        os._exit(128 + int(signal.SIGTERM))


def _chart_worker_started(parent: int) -> None:
    """In a worker process of :func:`write_charts`, which draws charts and exits: the objects it
    inherited are set aside from the garbage collector (``gc.freeze``), and it collects after
    10,000 new objects instead of 700 (a chart makes tens of thousands; what a collection frees
    is the same, later; the bytes are the same). What it saves is measured in
    docs/charts-and-reports.md.

    Signals: the worker leaves the stop to the command (its parent), which reports it in one line,
    cancels the charts not yet drawn and waits for the chart being drawn. SIGINT, SIGTERM and SIGHUP,
    which a terminal or a ``kill`` of the process group sends to every process of the group, are
    ignored here: a worker ended by one while it sent a chart back would leave half a message in
    the pool's pipe, and the parent's reader waiting for the rest for ever. And the worker stops
    with its parent: when the parent ends, however it ends (a SIGKILL sent to it alone included),
    the system kills the worker (:func:`_stop_with_parent`), so no worker goes on drawing."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    _stop_with_parent(parent)
    gc.freeze()
    gc.set_threshold(10_000)  # the older generations' thresholds as they were


def _forked_chart_images(
    index: int | None, chart: str, formats: Sequence[str]
) -> tuple[list[tuple[str, bytes]], list[tuple[str, type]]]:
    """The images of one chart: of the result ``_CHART_JOBS[index]``, or of them all (index None);
    and the warnings drawing it gave (message, category), which the parent gives in its own
    process (:func:`_warned_again`): a worker writes nothing on stderr itself. A worker prints
    its charts on the canvases it keeps (:func:`~netbenefit.views.charts.printing.keep_canvases`)."""
    keep_canvases()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        images = _chart_images(_CHART_JOBS if index is None else _CHART_JOBS[index], chart, formats)
    return images, [(str(record.message), record.category) for record in caught]


def _warned_again(drawn: tuple[list[tuple[str, bytes]], list[tuple[str, type]]]) -> list[tuple[str, bytes]]:
    """The images a worker drew, once the warnings it gave are given again in this process."""
    images, caught = drawn
    for message, category in caught:
        warnings.warn(message, category if issubclass(category, Warning) else UserWarning, stacklevel=2)
    return images


#: The file names of charts not named after their function.


def _chart_images(results, chart: str, formats: Sequence[str]) -> list[tuple[str, bytes]]:
    """``chart`` drawn once for ``results`` and printed in each format, as ``(file name, image
    bytes)``; the caller writes the files (in a worker process of :func:`write_charts`, nothing
    is written)."""
    figure = charts.draw(chart, results)
    stem = CHART_FILE_STEMS.get(chart, chart)
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
    charts of :func:`netbenefit.views.charts.meaningful_charts`. Each file is written atomically, by
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

    # the charts a run keeps as they are; when none can be (a cold run), their digests are taken for
    # the manifest once the workers draw, instead of before they start
    may_keep = charts_may_be_kept(folder.parent)
    kept = kept_charts(folder.parent, results, jobs, places, formats) if may_keep else [None] * len(jobs)
    draw = [job for job, keep in zip(jobs, kept, strict=True) if keep is None]
    workers = min(len(draw), os.cpu_count() or 1) if workers is None else min(len(draw), max(1, workers))
    import multiprocessing  # deferred: only a run that draws charts needs it (3.4 ms; compare --charts none)

    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        if not may_keep:
            kept_charts(folder.parent, results, jobs, places, formats)  # digests only: none is kept

        def in_this_process(progress) -> list[Path]:
            written: list[Path] = []
            with canvases_kept():
                for (index, chart), place, keep in zip(jobs, places, kept, strict=True):
                    if keep is not None:
                        written.extend(_kept_images(keep, progress))
                        continue
                    images = _chart_images(results if index is None else results[index], chart, formats)
                    written.extend(_write_images(place, images, progress))
            return written

        yield in_this_process
        return
    from concurrent.futures import ProcessPoolExecutor  # deferred: only a run whose charts are drawn in workers (4 ms)

    warm_up()  # once here, inherited by every worker
    _CHART_JOBS[:] = results
    # What this process holds is set aside from its garbage collector while the workers draw (as
    # Python advises before a fork): its collections while it writes the tables skip it, and the
    # workers inherit it set aside. Not when the caller has set objects aside itself (kept so).
    frozen = gc.get_freeze_count() == 0
    if frozen:
        gc.freeze()
    try:
        fork = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=fork, initializer=_chart_worker_started, initargs=(os.getpid(),)
        ) as pool:
            futures = [pool.submit(_forked_chart_images, index, chart, tuple(formats)) for index, chart in draw]

            def in_workers(progress) -> list[Path]:
                written: list[Path] = []
                drawn = iter(futures)
                for place, keep in zip(places, kept, strict=True):  # in order: the files of one process
                    if keep is not None:
                        written.extend(_kept_images(keep, progress))
                    else:
                        written.extend(_write_images(place, _warned_again(next(drawn).result()), progress))
                return written

            try:
                if not may_keep:
                    kept_charts(folder.parent, results, jobs, places, formats)  # digests only: none is kept
                yield in_workers
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        _CHART_JOBS.clear()
        if frozen:
            gc.unfreeze()


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
    - ``comparison.xlsx``: the workbook of :func:`netbenefit.views.workbook.write_workbook`;
    - ``charts/``: the charts of :func:`write_charts` (``charts``, ``workers``), in each of ``formats``.

    ``progress`` (an object with ``update(n)``) is told of each file written; :func:`file_count`
    gives their number. Each file is written atomically, in the order above.
    """
    folder = Path(folder)
    written = []
    # the charts are drawn in worker processes while this process writes the tables
    with _charts_drawn(results, folder, formats, charts, workers) as finish_charts:
        written.extend(write_named_bytes(folder, csv_files(results)))

        written.append(write_workbook(results, folder / "comparison.xlsx"))
        if progress is not None:
            progress.update(len(written))
        written.extend(finish_charts(progress))
    return written


def csv_files(results: Sequence[Result]) -> list[tuple[str, bytes]]:
    """``summary.csv`` and ``cashflows/<scenario>.csv`` of :func:`write_comparison`, as
    ``(path in the folder, contents)``: the bytes pandas' ``to_csv`` writes for
    ``netbenefit.compare(results)`` and for each ``result.cashflows`` (text through
    :func:`netbenefit.io.safe_text.csv_field`), made from the results' rows and columns without
    pandas (tests/outputs/test_csv.py holds them to pandas' output)."""
    summary = [summary_row(result) for result in results]
    files = [("summary.csv", csv_bytes(SUMMARY_COLUMNS, [[row[c] for c in SUMMARY_COLUMNS] for row in summary]))]
    for result, stem in zip(results, file_stems(results), strict=True):
        columns, rows = result.table_columns_and_rows("cashflows")
        files.append((f"cashflows/{stem}.csv", csv_bytes(columns, rows)))
    return files


def csv_bytes(columns: Sequence[str], rows: Sequence[Sequence]) -> bytes:
    """A table as pandas' ``DataFrame(rows, columns=columns).to_csv(index=False)`` writes it,
    after :func:`netbenefit.io.safe_text.csv_table`: each column typed as pandas types it (whole
    numbers with a missing value or a fraction are floats, ``3.0``), floats written as Python's
    ``repr`` (the shortest text that reads back as the same float), a missing value empty."""
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
