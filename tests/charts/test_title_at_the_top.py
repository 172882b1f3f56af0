"""The title of an Axes a chart makes sits at the top of the Axes (``style.TITLE_AT_THE_TOP``), where
Matplotlib's search for a place clear of what stands above the Axes would put it too: the charts
put nothing there. Checked byte for byte on every chart the proofreader draws
(``tests/charts/test_text_fit.py``: every bundled scenario, hostile variants, the analysis tables'
charts and the portfolio's); and a chart drawn on an Axes of yours keeps the search."""

from __future__ import annotations

import warnings

import pytest

from netbenefit.model.plausibility import PlausibilityWarning
from netbenefit.views import charts
from netbenefit.views.charts import style
from netbenefit.views.charts.printing import figure_bytes

from .test_text_fit import SCENARIOS, _all_figures, _result


def _printed() -> dict[str, bytes]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PlausibilityWarning)  # the hostile values are meant
        warnings.simplefilter("ignore", style.MissingGlyphsWarning)
        return {name: figure_bytes(figure) for name, figure in _all_figures()}


@pytest.mark.slow  # draws every chart twice
def test_every_title_is_where_the_search_would_put_it(monkeypatch):
    at_the_top = _printed()
    monkeypatch.setattr(style, "TITLE_AT_THE_TOP", {})  # Matplotlib's search, as before
    searched = _printed()
    assert at_the_top.keys() == searched.keys() and len(at_the_top) > 100
    moved = [name for name, png in at_the_top.items() if png != searched[name]]
    assert not moved, f"titles placed otherwise than by the search: {moved}"


def _title_clears_the_top_tick_labels(ax) -> bool:
    renderer = ax.figure.canvas.get_renderer()
    labels_top = max(label.get_window_extent(renderer).y1 for label in ax.get_xticklabels() if label.get_text())
    return ax.title.get_window_extent(renderer).y0 >= labels_top


def test_a_chart_on_an_axes_of_yours_keeps_the_search():
    """Your Axes with its tick labels at the top: the chart's title is moved above them; the same
    Axes made by the chart's module would not move it (nothing of the charts stands there)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    result = _result(str(SCENARIOS / "office_hq_default_area.yaml"))
    yours = Figure(figsize=(10.0, 5.5), layout="constrained").add_subplot()
    yours.xaxis.tick_top()
    charts.cumulative_pv(result, ax=yours)
    FigureCanvasAgg(yours.figure).draw()
    assert _title_clears_the_top_tick_labels(yours)

    _, made = charts.new_figure((10.0, 5.5))
    made.xaxis.tick_top()
    charts.cumulative_pv(result, ax=made)
    FigureCanvasAgg(made.figure).draw()
    assert not _title_clears_the_top_tick_labels(made)  # the check above can fail
