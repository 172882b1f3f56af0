"""Printing a chart: a figure as a PNG, SVG or PDF file, or as its bytes, the same bytes each time.

:func:`save_figure` writes a file atomically; :func:`figure_bytes` gives the bytes it would write.
Both print a figure once, on Matplotlib's own canvas of the format (Agg for a PNG), at
:data:`DPI` unless told otherwise, a PNG compressed with :data:`PNG_OPTIONS`; an SVG's ids are
salted (:data:`SVG_HASH_SALT`) and an SVG or PDF records the date of ``SOURCE_DATE_EPOCH`` or none.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ...io.writing import atomic_write, source_date
from .style import chart_library, plain_text

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.figure import Figure

#: Image formats that :func:`save_figure` writes.
FORMATS = ("png", "svg", "pdf")


#: The resolution every chart file is printed at, unless a caller gives another. [dots per inch]
DPI = 150


def save_figure(figure: Figure, path: str | Path, *, dpi: float = DPI) -> Path:
    """Write ``figure`` to ``path`` atomically (a temporary file, then a rename).

    The format is read from the extension of ``path``: one of :data:`FORMATS`.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    path : str or Path
        ``.png``, ``.svg`` or ``.pdf``.
    dpi : float
        Resolution of a PNG. [dots per inch]

    Returns
    -------
    Path
        The path written.
    """
    path = Path(path)
    image_format = path.suffix.lstrip(".").lower()
    if image_format not in FORMATS:
        raise ValueError(f"{path}: the image format must be one of {FORMATS}")
    atomic_write(path, lambda temporary: _print_once(figure, temporary, image_format, dpi))
    return path


def figure_bytes(figure: Figure, image_format: str = "png", *, dpi: float = DPI) -> bytes:
    """The file :func:`save_figure` writes for ``figure`` in ``image_format``, as bytes."""
    if image_format not in FORMATS:
        raise ValueError(f"the image format must be one of {FORMATS}")
    buffer = io.BytesIO()
    _print_once(figure, buffer, image_format, dpi)
    return buffer.getvalue()


#: How a PNG is compressed: zlib level 1 (of 9), lossless like the others and the cheapest level
#: that still compresses (docs/charts-and-reports.md, "Performance notes").
PNG_OPTIONS = {"compress_level": 1}


#: The Agg canvases a run that prints many charts in a row keeps, one for each figure size, resolution
#: and text settings (:func:`canvases_kept`); None when none is kept: a new canvas for each print.
_KEPT_CANVASES: dict[tuple, object] | None = None

#: The prefixes of the settings (``rcParams``) that can change how a text measures: a canvas kept
#: for one value of them is not used for another.
_TEXT_SETTINGS = ("font.", "text.", "mathtext.")


@contextlib.contextmanager
def canvases_kept() -> Iterator[None]:
    """Within the block, each PNG of a figure is printed on the Agg canvas kept for the figure's size,
    resolution and text settings, instead of a new one: its renderer is kept with it, so a text that
    several charts draw (a tick label, an axis label, the footnote) is measured once per canvas,
    by Matplotlib's own cache of text sizes for a renderer. The bytes are the same (a renderer is
    cleared before each print; ``tests/outputs/test_compare_charts.py`` compares them). Used where
    one process prints a run's charts one after another (:func:`netbenefit.views.result_files.write_charts`);
    in a block already within one, nothing more. The canvases are let go at the end of the block.
    Matplotlib (3.11) warns of a glyph a font lacks where it measures a text: on a kept canvas, it
    may warn the first time the text is measured there only, not at each print."""
    global _KEPT_CANVASES
    if _KEPT_CANVASES is not None:
        yield
        return
    keep_canvases()
    try:
        yield
    finally:
        _KEPT_CANVASES = None


def keep_canvases() -> None:
    """From now on in this process, print as within :func:`canvases_kept`: for a process that
    prints charts until it ends (a chart worker of ``compare``)."""
    global _KEPT_CANVASES
    if _KEPT_CANVASES is None:
        _KEPT_CANVASES = {}


def _png_canvas(figure: Figure, canvas_class, dpi: float):
    """The canvas to print ``figure`` as a PNG on, at ``dpi``: a new one, or,
    within :func:`canvases_kept`, the one kept for its size, resolution and text settings, now
    showing ``figure`` (``canvas.figure``, ``figure.set_canvas``)."""
    if _KEPT_CANVASES is None:
        return canvas_class(figure)
    import matplotlib

    settings = tuple((key, repr(value)) for key, value in matplotlib.rcParams.items() if key.startswith(_TEXT_SETTINGS))
    key = (tuple(figure.get_size_inches()), dpi, settings)
    canvas = _KEPT_CANVASES.get(key)
    if canvas is None:
        canvas = _KEPT_CANVASES[key] = canvas_class(figure)
    else:
        canvas.figure = figure
        figure.set_canvas(canvas)
    return canvas


#: The salt of the ids of an SVG's elements, unless ``rcParams["svg.hashsalt"]`` sets one:
#: Matplotlib salts them with a random value otherwise, so that no two files are alike.
SVG_HASH_SALT = "netbenefit"


@plain_text  # tick labels made while printing are drawn as written too
def _print_once(figure: Figure, path, image_format: str, dpi: float) -> None:
    """Draw ``figure`` into ``path`` once, as ``figure.savefig(path, format=..., dpi=dpi)`` would
    (the same bytes; for a PNG, with ``pil_kwargs=PNG_OPTIONS``), without its first pass:
    ``Figure.draw`` runs the constrained layout itself, so the pass ``savefig`` makes beforehand to
    lay the figure out is a second draw.

    The same figure always gives the same bytes: an SVG's ids are salted with
    :data:`SVG_HASH_SALT`, and an SVG or PDF records the date of
    :func:`netbenefit.io.writing.source_date` (``SOURCE_DATE_EPOCH``), or none."""
    chart_library()
    if image_format == "png":
        from matplotlib.backends.backend_agg import FigureCanvasAgg as Canvas
    elif image_format == "svg":
        from matplotlib.backends.backend_svg import FigureCanvasSVG as Canvas
    else:
        from matplotlib.backends.backend_pdf import FigureCanvasPdf as Canvas
    import matplotlib

    date = None if image_format == "png" else source_date()  # checked before anything is drawn
    canvas, original_dpi = figure.canvas, figure.dpi
    try:
        printer = _png_canvas(figure, Canvas, dpi) if image_format == "png" else Canvas(figure)
        figure.set_dpi(dpi)
        target = path if hasattr(path, "write") else str(path)
        if image_format == "png":
            printer.print_png(target, pil_kwargs=dict(PNG_OPTIONS))  # a copy: Matplotlib may add to it
        elif image_format == "svg":
            salt = matplotlib.rcParams["svg.hashsalt"]
            with matplotlib.rc_context({"svg.hashsalt": SVG_HASH_SALT if salt is None else salt}):
                printer.print_svg(target, metadata={"Date": date})
        else:
            printer.print_pdf(target, metadata={"CreationDate": date})
    finally:
        figure.set_canvas(canvas)
        figure.set_dpi(original_dpi)
