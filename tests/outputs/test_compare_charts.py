"""compare: charts drawn once and in parallel give the files of one process; --charts; early lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from netbenefit.cli import main
from netbenefit.evaluate import evaluate
from netbenefit.output import file_count, write_charts

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
FILES = [SCENARIOS / "party_city.yaml", SCENARIOS / "phased_campus.yaml", SCENARIOS / "extended_commitment.yaml"]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow  # draws every chart twice
def test_charts_drawn_in_worker_processes_are_the_files_one_process_writes(tmp_path):
    results = [evaluate(path) for path in FILES]
    serial = write_charts(results, tmp_path / "serial", workers=1)
    parallel = write_charts(results, tmp_path / "parallel", workers=2)
    assert [p.relative_to(tmp_path / "serial") for p in serial] == [
        p.relative_to(tmp_path / "parallel") for p in parallel
    ]
    assert _files(tmp_path / "serial") == _files(tmp_path / "parallel")
    assert len(serial) == file_count(results) - 2 - len(results)


def test_a_chart_saved_once_is_the_image_savefig_writes(tmp_path):
    from netbenefit import charts

    result = evaluate(FILES[1])
    charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "once.png")
    from netbenefit.charts.style import PNG_OPTIONS

    figure = charts.draw("phase_ratios", result)
    figure.savefig(tmp_path / "savefig.png", format="png", dpi=150, pil_kwargs=PNG_OPTIONS)
    assert (tmp_path / "once.png").read_bytes() == (tmp_path / "savefig.png").read_bytes()


def test_a_chart_printed_after_others_of_its_size_is_printed_as_by_a_new_canvas():
    """A PNG is printed with the renderer the last PNG of its pixel size used (its text sizes
    measured once): what the others drew leaves nothing in it, even where it is transparent."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from netbenefit import charts
    from netbenefit.charts.style import PNG_OPTIONS, figure_bytes, new_figure

    results = [evaluate(path) for path in FILES[:2]]
    for result in results:  # charts of the same size, with other texts, printed before it
        figure_bytes(charts.draw("cumulative_pv", result), "png")

    def transparent():
        figure, ax = new_figure()
        figure.patch.set_alpha(0.0)
        ax.set_title("Cumulative PV of net benefits")
        return figure

    for draw in (lambda: charts.draw("benefit_streams", results[0]), transparent):
        once = figure_bytes(draw(), "png")
        figure = draw()
        figure.set_dpi(150)
        new = io.BytesIO()
        FigureCanvasAgg(figure).print_png(new, pil_kwargs=dict(PNG_OPTIONS))
        assert once == new.getvalue()


def test_a_png_is_printed_by_the_faster_renderer_with_the_bytes_of_matplotlibs_own():
    """The renderer of a PNG reads Matplotlib's fonts (the same families, fallbacks and sizes)
    from memory and renders each glyph once per place within a pixel: texts in regular, bold and
    italic at several sizes and angles, the same text at many places within a pixel, and a glyph
    the first font lacks (drawn from a fallback, with Matplotlib's warning) print the bytes of
    Matplotlib's own canvas."""
    import io
    import warnings

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.font_manager import FontProperties

    from netbenefit.charts.renderer import faster_renderer
    from netbenefit.charts.style import PNG_OPTIONS, _png_canvas, new_figure

    Renderer = faster_renderer()
    assert {"_prepare_font", "_draw_text_glyphs_and_boxes"} & set(vars(Renderer))  # built as expected

    def figure():
        drawn, ax = new_figure((5.0, 3.0))
        drawn.set_dpi(150)
        ax.set_title("Net benefit ratio 481% \u2265 400%", fontweight="bold")
        ax.set_xlabel("Project year", fontstyle="italic", fontsize=7)
        ax.set_ylabel("$ million, present value", fontsize=13)
        ax.text(0.5, 0.5, "Hamiltonian \u6f22 character", rotation=30, fontsize=11)  # not in DejaVu Sans
        for i in range(24):  # one text at places a fraction of a pixel apart, some the same
            ax.text(0.02 + 0.0031 * i, 0.03 + 0.037 * i, "Year 2031: $1.5M", fontsize=6 + i % 3)
        ax.plot([1, 2, 3], [3, 1, 2])
        return drawn

    printed, warned = [], []
    for Canvas in (_png_canvas(), FigureCanvasAgg, _png_canvas()):  # the second print reuses glyphs
        out = io.BytesIO()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            Canvas(figure()).print_png(out, pil_kwargs=dict(PNG_OPTIONS))
        printed.append(out.getvalue())
        warned.append(sorted({str(w.message) for w in caught}))
    assert printed[0] == printed[1] == printed[2]
    # warned of where a text is first measured (a kept renderer measures it once)
    assert warned[0] == warned[1] and any("missing" in message for message in warned[0])
    renderer = _png_canvas()(figure()).get_renderer()
    assert isinstance(renderer, Renderer)
    if "_prepare_font" in vars(Renderer):  # its fonts are built from bytes, not opened as files
        assert isinstance(renderer._prepare_font(FontProperties(size=9)).fname, io.BytesIO)


@pytest.mark.slow  # draws every chart of the bundled scenarios twice
def test_every_chart_of_the_bundled_scenarios_is_the_bytes_matplotlibs_own_renderer_prints(tmp_path, monkeypatch):
    from netbenefit.charts import renderer, style

    results = [evaluate(path) for path in sorted(SCENARIOS.glob("*.yaml"))]
    assert renderer.faster_renderer() is not None
    write_charts(results, tmp_path / "faster", workers=1)
    style._png_canvas.cache_clear()
    monkeypatch.setattr(renderer, "faster_renderer", lambda: None)  # Matplotlib's own renderer
    try:
        write_charts(results, tmp_path / "matplotlib", workers=1)
    finally:
        style._png_canvas.cache_clear()
    faster, own = _files(tmp_path / "faster"), _files(tmp_path / "matplotlib")
    assert len(faster) == file_count(results) - 2 - len(results) > 60
    assert faster.keys() == own.keys()
    assert [name for name in faster if faster[name] != own[name]] == []


def test_the_renderer_of_a_png_is_kept_for_the_next_of_its_size_and_a_few_sizes_only():
    from netbenefit.charts.style import _RENDERERS_KEPT, _png_canvas, new_figure

    def renderer(size):
        figure, _ = new_figure(size)
        return _png_canvas()(figure).get_renderer()

    first = renderer((4.0, 3.0))
    assert renderer((4.0, 3.0)) is first  # the same size: the same renderer
    assert renderer((4.0, 3.5)) is not first
    for width in range(_RENDERERS_KEPT):  # as many other sizes as are kept: the first is let go
        renderer((5.0 + width, 3.0))
    assert renderer((4.0, 3.0)) is not first


def test_a_print_that_stops_half_way_leaves_its_renderer_behind():
    """A draw that raised may leave its renderer half-way (a filter begun and not ended): the
    next PNG of that size gets a new renderer."""
    from matplotlib.artist import Artist

    from netbenefit.charts.style import _png_canvas, figure_bytes, new_figure

    class Failing(Artist):
        def draw(self, renderer):
            raise RuntimeError("stopped half-way")

    def kept_renderer():
        figure, _ = new_figure((4.0, 3.0))
        figure.set_dpi(150)  # as figure_bytes prints it
        return _png_canvas()(figure).get_renderer()

    figure_bytes(new_figure((4.0, 3.0))[0], "png")
    before = kept_renderer()
    assert kept_renderer() is before
    failing, ax = new_figure((4.0, 3.0))
    ax.add_artist(Failing())
    with pytest.raises(RuntimeError, match="half-way"):
        figure_bytes(failing, "png")
    assert kept_renderer() is not before


@pytest.mark.slow
@pytest.mark.parametrize("charts, expected", [("none", []), ("summary", ["charts/comparison_ratios.png"])])
def test_charts_summary_or_none(tmp_path, capsys, charts, expected):
    out = tmp_path / "out"
    assert main(["compare", *map(str, FILES), "--out", str(out), "--charts", charts]) == 0
    written = [name for name in _files(out) if name.startswith("charts/")]
    assert written == expected
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(FILES) + 1 and lines[-1].startswith(f"wrote {2 + len(FILES) + len(expected)} files")
    assert lines[0].startswith("Party City") and "ratio 480.6% vs 400%" in lines[0]


@pytest.mark.slow
def test_no_line_is_printed_before_every_file_is_checked(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\n", encoding="utf-8")
    assert main(["compare", str(FILES[0]), str(bad), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().out == ""  # the good file's line is not printed: every input first
    assert not (tmp_path / "out").exists()
