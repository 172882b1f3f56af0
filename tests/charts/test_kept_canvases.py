"""Canvases kept while a run prints its charts one after another (``printing.canvases_kept``): one
for each figure size, resolution and text settings, the same bytes as a new canvas, let go after."""

from __future__ import annotations

import matplotlib
import pytest

from netbenefit.views.charts import printing
from netbenefit.views.charts.printing import canvases_kept, figure_bytes
from netbenefit.views.charts.style import new_figure

#: Text settings that change how a text measures (hinting off, no hinting factor).
OTHER_TEXT_SETTINGS = {"text.hinting": "none", "text.hinting_factor": 1}


def small_chart(size: tuple[float, float] = (4.0, 2.5), title: str = "Net benefit ratio 481% of the credits"):
    figure, ax = new_figure(size)
    ax.set_title(title)
    ax.set_xlabel("Project year after approval [year]")
    ax.plot([1, 2, 3], [3, 1, 2])
    return figure


def test_one_canvas_is_kept_for_each_size_and_let_go_after_the_block():
    assert printing._KEPT_CANVASES is None
    with canvases_kept():
        figures = [small_chart(), small_chart(title="Another title"), small_chart((5.0, 2.5))]
        own = [figure.canvas for figure in figures]
        printed = [figure_bytes(figure) for figure in figures]
        assert len(printing._KEPT_CANVASES) == 2  # two sizes
        assert [figure.canvas for figure in figures] == own  # each figure's own canvas given back
        with canvases_kept():  # a block within: the same canvases
            figure_bytes(small_chart())
        assert len(printing._KEPT_CANVASES) == 2
    assert printing._KEPT_CANVASES is None
    alone = [small_chart(), small_chart(title="Another title"), small_chart((5.0, 2.5))]
    assert printed == [figure_bytes(figure) for figure in alone]  # each on a new canvas


def test_a_canvas_kept_for_other_text_settings_is_not_used():
    """Texts measured under other settings (hinting) would be placed wrongly: a change of a
    ``font.``, ``text.`` or ``mathtext.`` setting between two prints gets a canvas of its own, and
    the bytes of a new canvas."""
    with matplotlib.rc_context(OTHER_TEXT_SETTINGS):
        alone = figure_bytes(small_chart())
    with canvases_kept():
        default = figure_bytes(small_chart())
        with matplotlib.rc_context(OTHER_TEXT_SETTINGS):
            other = figure_bytes(small_chart())
        assert len(printing._KEPT_CANVASES) == 2
    assert other == alone
    assert default != alone  # the settings do change the bytes


@pytest.mark.parametrize("image_format", ["svg", "pdf"])
def test_only_pngs_are_printed_on_kept_canvases(image_format):
    with canvases_kept():
        printed = figure_bytes(small_chart(), image_format)
        assert printing._KEPT_CANVASES == {}
    assert printed == figure_bytes(small_chart(), image_format)


def test_a_chart_worker_keeps_its_canvases_from_then_on(monkeypatch):
    monkeypatch.setattr(printing, "_KEPT_CANVASES", None)
    printing.keep_canvases()
    kept = printing._KEPT_CANVASES
    assert kept == {}
    figure_bytes(small_chart())
    printing.keep_canvases()  # again: the same canvases
    assert printing._KEPT_CANVASES is kept and len(kept) == 1
