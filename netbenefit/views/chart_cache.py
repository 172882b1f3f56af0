"""Charts that are not drawn again: which chart files of a run into a folder are kept as they are.

A run into an output folder (:func:`netbenefit.io.run_folder.one_run`) finds in the folder's manifest,
for each chart file the previous run wrote, the SHA-256 of its bytes and the digest of everything
that drew it (:func:`netbenefit.views.chart_keys.chart_key`). A chart whose files all have both still
matching is kept; the others are drawn. The kept files are the bytes a drawing would give: the
digest covers every input of the drawing, and drawing is deterministic
(``tests/outputs/test_chart_cache.py`` compares a rerun with a cold run byte for byte).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..io.run_folder import current_run, relative_name
from ..io.writing import CHART_FILE_STEMS, import_held, source_date
from ..model.result import Result
from .chart_keys import NotDigestible, chart_key, result_digest, style_digest
from .charts.printing import DPI, PNG_OPTIONS, figure_bytes


def _options(image_format: str) -> dict:
    """The printing options of a chart file that are not in the package's code: the date an SVG
    or PDF records (``SOURCE_DATE_EPOCH``); and, for the record, the resolution and PNG options."""
    options: dict = {"dpi": DPI}
    if image_format == "png":
        options["png"] = dict(PNG_OPTIONS)
    else:
        date = source_date()
        options["date"] = None if date is None else date.isoformat()
    return options


def charts_may_be_kept(root: Path) -> bool:
    """Whether the run writing into ``root`` may keep a chart of the previous run: it keeps its cache
    on and the previous run recorded what drew a chart (:meth:`Run.may_keep`). Outside a run, no."""
    run = current_run(root)
    return run is not None and run.may_keep()


def kept_charts(
    root: Path,
    results: Sequence[Result],
    jobs: Sequence[tuple[int | None, str]],
    places: Sequence[Path],
    formats: Sequence[str],
) -> list[list[Path] | None]:
    """For each chart of ``jobs`` (``(index of the result or None for all, chart)``, drawn into
    the folder of ``places``), the paths of its files in each of ``formats`` when the run writing
    into ``root`` keeps them as they are, else None (it is to be drawn). Outside a run, every
    chart is drawn. The digest of each file is recorded for the run's manifest either way."""
    run = current_run(root)
    if run is None:
        return [None] * len(jobs)

    try:
        digests: list[str] | None = [result_digest(result) for result in results]
    except NotDigestible:  # a value of a kind the digest does not know: draw every chart
        digests = None
    style = style_digest() if digests is not None else ""
    options = {image_format: _options(image_format) for image_format in formats}
    kept: list[list[Path] | None] = []
    for (index, chart), place in zip(jobs, places, strict=True):
        stem = CHART_FILE_STEMS.get(chart, chart)
        paths = [place / f"{stem}.{image_format}" for image_format in formats]
        same = []
        for path, image_format in zip(paths, formats, strict=True):
            name = relative_name(run.folder, path)
            key = None
            if digests is not None:
                reads = digests if index is None else [digests[index]]
                key = chart_key(name, chart, image_format, reads, style, options[image_format])
            same.append(run.unchanged(name, key))
        kept.append(run.keep(paths) if all(same) else None)
    return kept


def warm_up() -> None:
    """Import the chart machinery and draw one small text in this process, so that the worker
    processes forked after it inherit Matplotlib's modules and its list of fonts instead of each
    loading them (its text is never written anywhere)."""
    import_held()  # the chart library imported with the signals held
    from matplotlib.figure import Figure

    figure = Figure(figsize=(2.0, 1.0), layout="constrained")
    ax = figure.add_subplot()
    ax.plot([1, 2], [1, 2])
    ax.set_title("Net benefit ratio 400%")
    figure_bytes(figure, "png")  # as the charts are printed: the font loaded
