"""The explorer's chart (:class:`LiveChart`): the cumulative PV chart drawn once and followed as the
sliders move, each print after a move drawing only what a move changes.

The chart is :func:`netbenefit.views.charts.cumulative_pv`; a move sets the new values on its artists
with :func:`~netbenefit.views.charts.cumulative.cumulative_pv_values`, ``..._labels`` and
``..._title``, so that it says what a chart drawn anew says, and a print after a move is byte for
byte a whole print of the same figure (``tests/portfolio/test_explore.py``).
"""

from __future__ import annotations

import io
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from .charts import cumulative_pv
from .charts.cumulative import (
    cumulative_pv_labels,
    cumulative_pv_note,
    cumulative_pv_title,
    cumulative_pv_values,
    in_benefit_window,
)
from .charts.printing import PNG_OPTIONS, figure_bytes
from .charts.style import FOOTNOTE_GID, conventions_footnote, money_axis, new_figure, plain_text

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.artist import Artist
    from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg

    from ..model.result import Result


#: The size of the explorer's chart [inches] and its print resolution [dots per inch].
CHART_SIZE, CHART_DPI = (9.0, 4.2), 80  # not statutory numbers: a view's choices


class LiveChart:
    """The explorer's cumulative PV chart (:func:`netbenefit.views.charts.cumulative_pv`), drawn once:
    :meth:`update` sets the new values on its artists (the three lines, the title, the legend's
    words, the scale and the footnote) and :meth:`png` prints it. Where the chart's make-up
    changes (other years, the year the benefits reach the threshold multiple appearing or going,
    another benefit window), it is drawn anew on a new figure, as a cold draw is.

    The first print after a drawing is a whole print (:func:`~netbenefit.views.charts.printing.figure_bytes`),
    which lays the figure out; the layout is kept after it. A print after a move draws only what a
    move can change: the figure printed once without those artists is kept as a background (the
    Agg canvas's ``copy_from_bbox``), and each print restores it and draws over it, in the order a
    whole print draws them, the artists a move changes (the y-axis, the lines, the title, the
    legend) and every artist drawn after them that may touch them. The bytes are those of a whole
    print of the same figure (``tests/portfolio/test_explore.py`` compares them)."""

    def __init__(self, result: Result, size: tuple[float, float] = CHART_SIZE, dpi: float = CHART_DPI) -> None:
        self.size, self.dpi = size, dpi
        self._draw(result)

    @staticmethod
    def _make_up(result: Result) -> tuple:
        """What the artists cannot follow by their values alone: the years, whether the benefits
        reach the threshold multiple, the benefit window and the test that decides."""
        return (
            tuple(result.cashflows.index),
            result.first_year_test_met is None,
            tuple(in_benefit_window(result, deciding=True)),
            tuple(result.deciding_phases),
            len(result.net_benefit_decision.comparisons),
        )

    @staticmethod
    def _footnote(result: Result) -> str:
        return conventions_footnote(result, extra=cumulative_pv_note(result))

    def _draw(self, result: Result) -> None:
        """The chart drawn anew on a new figure, as a cold draw is: its first print is a cold chart's."""
        self.figure, self.ax = new_figure(self.size)
        cumulative_pv(result, ax=self.ax)
        self.shape = self._make_up(result)
        self.footnote = self._footnote(result)
        self._laid_out = False
        self._kept: tuple[FigureCanvasAgg, Any] | None = None  # the canvas and background, after a move
        self.over: list[Artist] = []  # the artists drawn over the background, in the order of a whole print

    def update(self, result: Result) -> None:
        """Show ``result``: its values set on the drawn artists, or the chart drawn again where its
        make-up changed. The values, words and title are those :func:`cumulative_pv` draws
        (:func:`~netbenefit.views.charts.cumulative.cumulative_pv_values`, ``..._labels``, ``..._title``):
        the deciding test's, as a chart drawn anew."""
        if self._make_up(result) != self.shape:
            self._draw(result)
            return
        ax = self.ax
        _, benefits, credits, multiple = cumulative_pv_values(result)
        lines = ax.get_lines()
        for line, values in zip(lines[:3], (benefits, credits, multiple), strict=True):
            line.set_ydata(values)
        met = result.first_year_test_met
        legend = ax.get_legend()  # cumulative_pv always draws one
        legend_texts = legend.get_texts() if legend is not None else []
        for text, words in zip(legend_texts, cumulative_pv_labels(result), strict=False):
            text.set_text(words)
        if met is not None and len(lines) > 3:
            lines[3].set_xdata([met, met])
        top = float(np.nanmax(np.concatenate([benefits, multiple, credits])))
        money_axis(ax.yaxis, top)
        ax.set_ylim(min(0.0, float(np.nanmin(benefits)) * 1.1), top * 1.4)
        ax.set_title(cumulative_pv_title(result))  # the title of a chart drawn anew
        if self._footnote(result) != self.footnote:  # a new discount rate: the footnote says it
            for text in list(ax.texts):
                if text.get_gid() == FOOTNOTE_GID:
                    text.remove()
            conventions_footnote(result, ax, extra=cumulative_pv_note(result))
            self.footnote = self._footnote(result)
            self._kept = None  # the background holds the footnote

    def png(self) -> bytes:
        """The chart printed as a PNG: whole the first time after a drawing (the layout is found
        then and kept after it), then over the kept background (see the class docstring)."""
        if not self._laid_out:
            data = figure_bytes(self.figure, "png", dpi=self.dpi)
            self.figure.set_layout_engine("none")  # the axes keep the place the first print gave them
            self._laid_out = True
            return data
        if self._kept is None:
            self._kept = self._keep_background()
        return self._print_over_background(*self._kept)

    def _changing(self) -> list[Artist]:
        """The artists a move changes: the y-axis (its scale, ticks and grid), the lines, the title
        and the legend."""
        legend = self.ax.get_legend()
        return [self.ax.yaxis, *self.ax.get_lines(), self.ax.title, *([legend] if legend is not None else [])]

    @plain_text  # math text off, as in every print: a tick label made now is drawn as written
    def _keep_background(self) -> tuple[FigureCanvasAgg, Any]:
        """Print the figure without the artists a move may change, and keep the pixels: the canvas
        and its background (a ``BufferRegion``). Those are
        the changing artists and every artist the Axes draw after the first of them (in the order of
        ``Axes.draw``: by zorder, then as ``get_children`` lists them), save one that lies wholly
        below the lowest pixel a changing artist can reach (the footnote, under the x-axis)."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # matplotlib is imported only when a chart is drawn

        canvas = FigureCanvasAgg(self.figure)
        self.figure.set_dpi(self.dpi)
        renderer = canvas.get_renderer()
        changing = self._changing()
        ordered = sorted((a for a in self.ax.get_children() if a is not self.ax.patch), key=attrgetter("zorder"))
        first = min(ordered.index(artist) for artist in changing)
        lowest = self._lowest_change(renderer)
        self.over = [
            artist
            for artist in ordered[first:]
            if any(artist is c for c in changing) or artist.get_window_extent(renderer).y1 >= lowest
        ]
        for artist in self.over:
            artist.set_animated(True)  # left out of the canvas's draw (not of a saved figure's)
        try:
            canvas.draw()
        finally:
            for artist in self.over:
                artist.set_animated(False)
        return canvas, canvas.copy_from_bbox(self.figure.bbox)

    def _lowest_change(self, renderer: RendererAgg) -> float:
        """The lowest pixel row a move can draw on, less a margin [display pixels]: the lines, the
        grid and the legend stay inside the Axes, the title above them, the y-axis's tick labels
        within a line of its ends and its label where it is (a move changes its x alone)."""
        box = self.ax.get_window_extent(renderer)
        line = max((float(label.get_fontsize()) for label in self.ax.yaxis.get_ticklabels()), default=12.0)
        label = self.ax.yaxis.label.get_window_extent(renderer)
        return min(box.y0 - line * self.dpi / 72, label.y0) - BACKGROUND_MARGIN

    @plain_text
    def _print_over_background(self, canvas: FigureCanvasAgg, background: Any) -> bytes:
        """The kept background with the changing artists drawn over it, as a PNG written as
        ``FigureCanvasAgg.print_png`` writes one (``matplotlib.image.imsave``, :data:`PNG_OPTIONS`)."""
        import matplotlib.image  # matplotlib is imported only when a chart is drawn

        canvas.restore_region(background)
        for artist in self.over:
            self.figure.draw_artist(artist)
        buffer = io.BytesIO()
        matplotlib.image.imsave(
            buffer,
            canvas.buffer_rgba(),
            format="png",
            origin="upper",
            dpi=self.figure.dpi,
            pil_kwargs=dict(PNG_OPTIONS),
        )
        return buffer.getvalue()


#: Pixels kept between the lowest a move draws and an artist left in the background (antialiased
#: edges reach a pixel beyond a text's box).
BACKGROUND_MARGIN = 3  # not a statutory number: a view's choice
