"""The house style of every chart: palette, hatching, formatters, figures and saving.

Backend: when no ``ax`` is given, a new figure is made with ``matplotlib.pyplot``. If pyplot has
not been imported yet and the ``MPLBACKEND`` environment variable is not set, the headless
``Agg`` backend is selected, so the charts work on a server or in CI without a display. Jupyter
sets ``MPLBACKEND`` to its inline backend, which is kept; to use another backend, import pyplot
(or set ``MPLBACKEND``) before drawing. :func:`new_figure` makes a figure without pyplot at all,
which is what the command-line tools use.

Colours: "passes" is blue and "fails" is orange with a hatch, so the two stay apart when printed
in grey or seen by a reader with red-green colour blindness.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..result import Result

#: Colours of a passing and a failing test, and of the threshold marks.
PASS_COLOUR, FAIL_COLOUR, THRESHOLD_COLOUR = "#1f77b4", "#ff7f0e", "#222222"
FAIL_HATCH = "//"

#: Image formats that :func:`save_figure` writes.
FORMATS = ("png", "svg", "pdf")


# ----------------------------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------------------------


def _use_headless_backend_unless_chosen() -> None:
    """Select ``Agg`` unless pyplot is already in use or ``MPLBACKEND`` chooses a backend."""
    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        import matplotlib

        matplotlib.use("Agg")


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    """``ax`` itself, or the Axes of a new pyplot figure of ``size`` [inches]."""
    if ax is not None:
        return ax
    _use_headless_backend_unless_chosen()
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def new_figure(size: tuple[float, float] = (10.0, 5.5)) -> tuple[Figure, Axes]:
    """A figure and its Axes, made without pyplot (no backend, nothing kept in memory).

    Parameters
    ----------
    size : (float, float)
        Width and height. [inches]
    """
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    return figure, figure.add_subplot()


def save_figure(figure: Figure, path: str | Path, *, dpi: float = 150) -> Path:
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
    from ..output import atomic_write

    path = Path(path)
    image_format = path.suffix.lstrip(".").lower()
    if image_format not in FORMATS:
        raise ValueError(f"{path}: the image format must be one of {FORMATS}")
    atomic_write(path, lambda temporary: _print_once(figure, temporary, image_format, dpi))
    return path


def figure_bytes(figure: Figure, image_format: str = "png", *, dpi: float = 150) -> bytes:
    """The file :func:`save_figure` writes for ``figure`` in ``image_format``, as bytes."""
    if image_format not in FORMATS:
        raise ValueError(f"the image format must be one of {FORMATS}")
    import io

    buffer = io.BytesIO()
    _print_once(figure, buffer, image_format, dpi)
    return buffer.getvalue()


def _print_once(figure: Figure, path, image_format: str, dpi: float) -> None:
    """Draw ``figure`` into ``path`` once, as ``figure.savefig(path, format=..., dpi=dpi)`` would
    (the same bytes), without its first pass: ``Figure.draw`` runs the constrained layout itself,
    so the pass ``savefig`` makes beforehand to lay the figure out is a second draw."""
    if image_format == "png":
        from matplotlib.backends.backend_agg import FigureCanvasAgg as Canvas
    elif image_format == "svg":
        from matplotlib.backends.backend_svg import FigureCanvasSVG as Canvas
    else:
        from matplotlib.backends.backend_pdf import FigureCanvasPdf as Canvas
    canvas, original_dpi = figure.canvas, figure.dpi
    try:
        printer = Canvas(figure)
        figure.set_dpi(dpi)
        getattr(printer, f"print_{image_format}")(path if hasattr(path, "write") else str(path))
    finally:
        figure.set_canvas(canvas)
        figure.set_dpi(original_dpi)


def figure_size(chart: str, results: Result | Sequence[Result]) -> tuple[float, float]:
    """A readable size for ``chart`` (a function name of this module) drawn for ``results``. [inches]"""
    if chart == "compare_ratios":
        return (11.0, max(3.0, 1.2 + 0.55 * len(results)))
    if chart == "scorecard":
        return (11.0, 1.2 + 0.62 * len(results.checks))
    return (10.0, 5.5)


# ----------------------------------------------------------------------------------------------
# Formatting
# ----------------------------------------------------------------------------------------------


def _money(value: float, scale: float) -> str:
    """``$1.5M`` / ``$250K`` / ``$12``, with ``scale`` the size of the largest value shown. [USD]"""
    sign = "-" if value < 0 else ""
    value = abs(value)
    if scale >= 1e6:
        digits = 0 if scale >= 2e7 else 1
        return f"{sign}${value / 1e6:,.{digits}f}M"
    if scale >= 1e3:
        return f"{sign}${value / 1e3:,.0f}K"
    return f"{sign}${value:,.0f}"


def _money_axis(axis, scale: float) -> None:
    """Format the ticks of ``axis`` (``ax.yaxis`` or ``ax.xaxis``) as dollars, in millions when large."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: _money(value, scale)))


def _percent_axis(axis) -> None:
    """Format ratio ticks (4.0) as percentages (400%), as the statute states its thresholds."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.0%}"))


def _text(text: str) -> str:
    """``text`` with its dollar signs escaped, so that matplotlib does not read them as maths."""
    return text.replace("$", r"\$")


def _label(name: str, width: int = 30, lines: int = 2) -> str:
    """A scenario name on at most ``lines`` lines of about ``width`` characters.

    A longer name keeps its beginning and its end (where variants usually differ), with an
    ellipsis between them.
    """
    wrapped = textwrap.wrap(name, width=width)
    if len(wrapped) > lines:
        head = textwrap.wrap(name, width=width, max_lines=lines - 1, placeholder="...")
        start = len(name) - (width - 3)
        tail = name[start:]
        if name[start - 1] != " " and " " in tail:  # begin the tail at a word
            tail = tail.split(" ", 1)[1]
        wrapped = [*head, "..." + tail] if lines > 1 else [name[: width - 3] + "..."]
    return _text("\n".join(wrapped))


def _verdict(passes: bool) -> str:
    return "passes" if passes else "fails"


def _year_axis(ax: Axes, years) -> None:
    from matplotlib.ticker import MaxNLocator

    if len(years) <= 20:
        ax.set_xticks(list(years))  # every year labelled
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(min(years) - 0.6, max(years) + 0.6)
    ax.set_xlabel("Project year after approval [year]")
