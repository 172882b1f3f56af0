"""A visual diff of every chart ``compare`` draws: each chart of every bundled scenario (and the
comparison chart) is printed twice, once as ``compare``'s workers print it
(:func:`netbenefit.views.result_files._chart_images`, whatever it does to be fast) and once through the plain
reference path of this module (a new figure, constrained layout on, ``Figure.savefig`` at 150 dpi
with Pillow's default PNG settings: how the charts were printed before any shortcut was taken).

The threshold: the two images must have the same size, and the mean absolute difference of their
pixels, over every pixel and each of the red, green and blue channels, must be at most 1 grey level
of 255 (:data:`THRESHOLD`). A shift of the Axes by a pixel or a tick label moved is well above it
(:func:`test_the_diff_sees_a_layout_that_is_not_the_constrained_one`)."""

from __future__ import annotations

import functools
import io
from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit.views import charts
from netbenefit.views.charts.style import PLAIN_TEXT, figure_size
from netbenefit.views.result_files import _chart_images

pytestmark = pytest.mark.slow

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
BUNDLED = sorted(SCENARIOS.glob("*.yaml"))
#: The most a chart may differ from its reference: mean absolute difference, in grey levels of 255.
THRESHOLD = 1.0


@functools.cache
def _results() -> tuple:
    return tuple(netbenefit.evaluate(path) for path in BUNDLED)


def _jobs() -> list[tuple[str, str | None, str]]:
    """(test id, scenario stem or None for all, chart) for every chart of a cold ``compare``."""
    jobs = [("compare_ratios", None, "compare_ratios")]
    for path, result in zip(BUNDLED, _results(), strict=True):
        jobs.extend((f"{path.stem}/{chart}", path.stem, chart) for chart in charts.meaningful_charts(result))
    return jobs


def reference_png(chart: str, results, *, layout: str = "constrained") -> bytes:
    """``chart`` drawn and printed the plain way: a new figure of the chart's size with ``layout``,
    the chart function on its Axes with math text off, ``savefig`` at 150 dpi, Pillow's PNG defaults."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    function = charts.compare_ratios if chart == "compare_ratios" else charts.SCENARIO_CHARTS[chart]
    with matplotlib.rc_context(PLAIN_TEXT):
        figure = Figure(figsize=figure_size(chart, results), layout=layout)
        FigureCanvasAgg(figure)
        function(results, ax=figure.add_subplot())
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=150)
    return buffer.getvalue()


def pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.int16)


def mean_difference(left: bytes, right: bytes) -> float:
    """Mean absolute difference of two PNGs' pixels, over red, green and blue. [grey levels of 255]"""
    a, b = pixels(left), pixels(right)
    assert a.shape == b.shape, f"image sizes differ: {a.shape[1::-1]} and {b.shape[1::-1]}"
    return float(np.abs(a - b).mean())


@pytest.mark.parametrize(("stem", "chart"), [job[1:] for job in _jobs()], ids=[job[0] for job in _jobs()])
def test_every_chart_looks_as_the_reference_draws_it(stem, chart):
    everything = list(_results())
    results = everything if stem is None else everything[[p.stem for p in BUNDLED].index(stem)]
    ((name, drawn),) = _chart_images(results, chart, ("png",))
    assert name.endswith(".png")
    difference = mean_difference(drawn, reference_png(chart, results))
    assert difference <= THRESHOLD, f"{chart}: mean absolute difference {difference:.3f} of 255"


def test_the_diff_sees_a_layout_that_is_not_the_constrained_one():
    """The metric can fail: the same chart laid out by ``tight`` instead of ``constrained`` is over it."""
    result = _results()[[p.stem for p in BUNDLED].index("office_hq_default_area")]
    constrained = reference_png("cumulative_pv", result)
    assert mean_difference(constrained, reference_png("cumulative_pv", result)) == 0.0
    assert mean_difference(constrained, reference_png("cumulative_pv", result, layout="tight")) > THRESHOLD
