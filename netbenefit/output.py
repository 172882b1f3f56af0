"""Writing results to disk: every file is written to a temporary name and renamed into place,
so that a failing or interrupted run never leaves a half-written file."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from .compare import compare
from .result import Result


class OutputError(Exception):
    """The output folder cannot be written as asked (exists and is not empty, not a folder...)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(temporary_path)``, then rename the temporary file to ``path``.

    The file gets the permissions of an ordinary new file (``0o666`` less the umask), not the
    owner-only mode of the temporary file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(handle)
    try:
        write(Path(temporary))
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))


def check_output_folder(folder: Path, force: bool) -> Path:
    """Check that ``folder`` may be written: missing, empty, or ``force`` given (creates nothing)."""
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


#: The first sheet of ``comparison.xlsx``.
SUMMARY_SHEET = "Summary"
#: Excel's limit on the length of a sheet name. [characters]
SHEET_NAME_LIMIT = 31
#: Summary columns shown as money, as percentages (ratios and thresholds) and as rates.
MONEY_COLUMNS = (
    "pv_benefits",
    "pv_credits",
    "max_credit_pv",
    "requested_credits",
    "capital_investment_minimum",
    "infrastructure_fund_donation",
    "incremental_credit",
)
PERCENT_COLUMNS = ("ratio", "threshold")
RATE_COLUMNS = ("discount_rate",)
#: Cash-flow columns that are not money: job counts, window weights, discount factors.
JOB_COLUMNS = ("new_full_time_jobs", "retained_full_time_jobs", "full_time_jobs")
MONEY_FORMAT, PERCENT_FORMAT, RATE_FORMAT = '"$"#,##0', "0.0%", "0.00%"
JOBS_FORMAT, WEIGHT_FORMAT, FACTOR_FORMAT = "#,##0.0", "0.00", "0.000000"
#: The widest a workbook column is made. [characters]
MAX_COLUMN_WIDTH = 64


def prepare_output_file(path: Path, force: bool) -> Path:
    """Check that the file ``path`` may be written: missing, or ``force`` given."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give the path of the file to write")
    if path.exists() and not force:
        raise OutputError(f"{path}: the file exists; give --force to overwrite it")
    return path


def sheet_names(stems: Sequence[str], reserved: Sequence[str] = (SUMMARY_SHEET,)) -> list[str]:
    """A distinct Excel sheet name for each stem: at most 31 characters, none of ``[]:*?/\\``,
    unique without regard to case (as Excel compares them) and distinct from ``reserved``."""
    taken = {name.casefold() for name in reserved}
    names = []
    for stem in stems:
        base = re.sub(r"[\[\]:*?/\\]", "_", stem).strip("'") or "scenario"
        candidate, n = base[:SHEET_NAME_LIMIT], 2
        while candidate.casefold() in taken:
            suffix = f"~{n}"
            candidate, n = base[: SHEET_NAME_LIMIT - len(suffix)] + suffix, n + 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


def _cashflow_format(column: str) -> str:
    if column in JOB_COLUMNS:
        return JOBS_FORMAT
    if column == "weight" or column.startswith("weight_phase_"):
        return WEIGHT_FORMAT
    if column == "discount_factor":
        return FACTOR_FORMAT
    return MONEY_FORMAT


def _shown_width(value, number_format: str) -> int:
    """Approximate characters that ``value`` takes when shown in ``number_format``."""
    if isinstance(value, bool) or value is None or not isinstance(value, (int, float)):
        return len(str(value if value is not None else ""))
    if number_format == MONEY_FORMAT:
        return len(f"${value:,.0f}")
    if number_format in (PERCENT_FORMAT, RATE_FORMAT):
        return len(f"{value:.2%}")
    return len(f"{value:,.2f}")


def _format_sheet(sheet, formats: dict[int, str], freeze: str) -> None:
    """Number formats by column (1-based), a bold frozen header, a filter and fitted widths."""
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    for column_index, column in enumerate(sheet.iter_cols(min_row=1), start=1):
        number_format = formats.get(column_index)
        width = 0
        for cell in column[1:]:
            if number_format and isinstance(cell.value, (int, float)) and not isinstance(cell.value, bool):
                cell.number_format = number_format
            width = max(width, _shown_width(cell.value, number_format or ""))
        header = str(column[0].value or "")
        width = max(width, min(len(header), 24))
        sheet.column_dimensions[get_column_letter(column_index)].width = min(width + 3, MAX_COLUMN_WIDTH)
    sheet.freeze_panes = freeze
    sheet.auto_filter.ref = sheet.dimensions


def write_workbook(results: Sequence[Result], path: Path) -> Path:
    """``comparison.xlsx``: a summary sheet, then one cash-flow sheet per scenario.

    The summary sheet is :func:`netbenefit.compare` with a last column ``cash_flow_sheet``
    naming each scenario's sheet; each cash-flow sheet is ``result.cashflows``, one row per
    project year. Money is formatted as dollars, ratios and thresholds as percentages; the
    header row is frozen. Written atomically.
    """
    import pandas as pd

    names = sheet_names(file_stems(results))
    summary = compare(results)
    summary["cash_flow_sheet"] = names

    def write(temporary: Path) -> None:
        with pd.ExcelWriter(temporary, engine="openpyxl") as writer:
            summary.to_excel(writer, sheet_name=SUMMARY_SHEET, index=False)
            columns = list(summary.columns)
            formats = {columns.index(c) + 1: MONEY_FORMAT for c in MONEY_COLUMNS}
            formats |= {columns.index(c) + 1: PERCENT_FORMAT for c in PERCENT_COLUMNS}
            formats |= {columns.index(c) + 1: RATE_FORMAT for c in RATE_COLUMNS}
            _format_sheet(writer.sheets[SUMMARY_SHEET], formats, freeze="C2")
            for result, name in zip(results, names, strict=True):
                result.cashflows.to_excel(writer, sheet_name=name, index=True)
                formats = {k + 2: _cashflow_format(c) for k, c in enumerate(result.cashflows.columns)}
                _format_sheet(writer.sheets[name], formats, freeze="B2")

    atomic_write(Path(path), write)
    return Path(path)


#: What ``netbenefit compare --charts`` draws: every chart, the comparison chart alone, or none.
CHART_CHOICES = ("all", "summary", "none")


#: The results whose charts the worker processes of :func:`write_charts` draw: they inherit them
#: when forked (a Scenario cannot be pickled), and receive only an index.
_CHART_JOBS: list[Result] = []


def _forked_scenario_images(index: int, formats: Sequence[str]) -> list[tuple[str, bytes]]:
    return _scenario_images(_CHART_JOBS[index], formats)


def _scenario_images(result: Result, formats: Sequence[str]) -> list[tuple[str, bytes]]:
    """One scenario's meaningful charts drawn, each once, as ``(file name, image bytes)``; the
    caller writes the files (in a worker process of :func:`write_charts`, nothing is written)."""
    from . import charts
    from .charts.style import figure_bytes

    images = []
    for chart in charts.meaningful_charts(result):
        figure = charts.draw(chart, result)
        images.extend((f"{chart}.{image_format}", figure_bytes(figure, image_format)) for image_format in formats)
    return images


def _write_images(folder: Path, images: list[tuple[str, bytes]], progress) -> list[Path]:
    written = []
    for name, data in images:
        path = folder / name
        atomic_write(path, lambda temporary, data=data: Path(temporary).write_bytes(data))
        written.append(path)
    if progress is not None:
        progress.update(len(images))
    return written


def chart_count(results: Sequence[Result], formats: Sequence[str] = ("png",), charts: str = "all") -> int:
    """How many files :func:`write_charts` writes."""
    if charts == "none":
        return 0
    from .charts import meaningful_charts

    per_scenario = sum(len(meaningful_charts(result)) for result in results) if charts == "all" else 0
    return (1 + per_scenario) * len(formats)


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
    alone, ``"none"`` nothing. The scenarios' charts are drawn in up to ``workers`` processes
    (default: one per core), which send back the images; the files are those one process writes.
    ``progress`` (an object with ``update(n)``, a progress bar) is told of each file written.
    """
    if charts not in CHART_CHOICES:
        raise ValueError(f"charts must be one of {CHART_CHOICES}, not {charts!r}")
    if charts == "none":
        return []
    from . import charts as chart_module

    folder = Path(folder) / "charts"
    written = []
    figure = chart_module.draw("compare_ratios", results)
    for image_format in formats:
        written.append(chart_module.save_figure(figure, folder / f"comparison_ratios.{image_format}"))
    if progress is not None:
        progress.update(len(formats))
    if charts == "summary":
        return written
    folders = [folder / stem for stem in file_stems(results)]
    workers = min(len(results), os.cpu_count() or 1) if workers is None else min(len(results), max(1, workers))
    import multiprocessing

    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for result, stem_folder in zip(results, folders, strict=True):
            written.extend(_write_images(stem_folder, _scenario_images(result, formats), progress))
        return written
    from concurrent.futures import ProcessPoolExecutor

    _CHART_JOBS[:] = results
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_forked_scenario_images, index, tuple(formats)) for index in range(len(results))]
            for stem_folder, future in zip(folders, futures, strict=True):  # in order: the files of one process
                written.extend(_write_images(stem_folder, future.result(), progress))
    finally:
        _CHART_JOBS.clear()
    return written


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
    - ``comparison.xlsx``: the same in one workbook (:func:`write_workbook`);
    - ``charts/``: the charts of :func:`write_charts` (``charts``, ``workers``), in each of ``formats``.

    ``progress`` (an object with ``update(n)``) is told of each file written; :func:`file_count`
    gives their number.
    """
    folder = Path(folder)
    written = []
    summary = compare(results)
    path = folder / "summary.csv"
    atomic_write(path, lambda temporary: summary.to_csv(temporary, index=False))
    written.append(path)
    for result, stem in zip(results, file_stems(results), strict=True):
        path = folder / "cashflows" / f"{stem}.csv"
        atomic_write(path, lambda temporary, r=result: r.cashflows.to_csv(temporary))
        written.append(path)
    written.append(write_workbook(results, folder / "comparison.xlsx"))
    if progress is not None:
        progress.update(len(written))
    written.extend(write_charts(results, folder, formats, charts=charts, workers=workers, progress=progress))
    return written


def file_count(results: Sequence[Result], formats: Sequence[str] = ("png",), charts: str = "all") -> int:
    """How many files :func:`write_comparison` writes."""
    return 2 + len(results) + chart_count(results, formats, charts)
