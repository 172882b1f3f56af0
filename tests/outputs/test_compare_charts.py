"""compare: charts drawn once and in parallel give the files of one process; --charts; early lines."""

from __future__ import annotations

import contextlib
import gc
from pathlib import Path

import pytest

from netbenefit.cli import main
from netbenefit.model.evaluate import evaluate
from netbenefit.views.result_files import file_count, write_charts

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


@pytest.mark.slow  # draws a scenario's charts twice
def test_the_objects_set_aside_from_the_collector_while_workers_draw_are_given_back(tmp_path):
    """The caller's objects are set aside from the garbage collector while the workers draw, and
    given back after; objects the caller had set aside itself stay so."""
    results = [evaluate(FILES[0])]
    assert gc.get_freeze_count() == 0
    write_charts(results, tmp_path / "first", workers=2)
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        write_charts(results, tmp_path / "second", workers=2)
        assert 0 < gc.get_freeze_count() <= frozen  # (less when one of them is freed meanwhile)
    finally:
        gc.unfreeze()
    assert _files(tmp_path / "first") == _files(tmp_path / "second")


def test_a_chart_saved_once_is_the_image_savefig_writes(tmp_path):
    from netbenefit.views import charts

    result = evaluate(FILES[1])
    charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "once.png")
    from netbenefit.views.charts.printing import PNG_OPTIONS

    figure = charts.draw("phase_ratios", result)
    figure.savefig(tmp_path / "savefig.png", format="png", dpi=150, pil_kwargs=PNG_OPTIONS)
    assert (tmp_path / "once.png").read_bytes() == (tmp_path / "savefig.png").read_bytes()


def _printing(kept: bool):
    """A block in which PNGs are printed on kept canvases (as a run's charts are), or on new ones."""
    from netbenefit.views.charts.printing import canvases_kept

    return canvases_kept() if kept else contextlib.nullcontext()


@pytest.mark.slow
@pytest.mark.parametrize("kept", [False, True], ids=["new canvases", "kept canvases"])
def test_a_chart_printed_after_others_of_its_size_is_printed_as_by_a_new_canvas(kept):
    """A PNG printed after others of the same size, with other texts, is the PNG Matplotlib's own
    canvas prints of it alone: nothing of an earlier chart is left in it, even where it is
    transparent; also when it is printed on the canvas kept for its size (as a run's charts are),
    whose renderer has measured the earlier charts' texts."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from netbenefit.views import charts
    from netbenefit.views.charts.printing import DPI, PNG_OPTIONS, figure_bytes
    from netbenefit.views.charts.style import new_figure

    results = [evaluate(path) for path in FILES[:2]]

    def transparent():
        figure, ax = new_figure()
        figure.patch.set_alpha(0.0)
        ax.set_title("Cumulative PV of net benefits")
        return figure

    draws = (lambda: charts.draw("benefit_streams", results[0]), transparent)
    with _printing(kept):
        for result in results:  # charts of the same size, with other texts, printed before it
            figure_bytes(charts.draw("cumulative_pv", result), "png")
        printed = [figure_bytes(draw(), "png") for draw in draws]
    for draw, once in zip(draws, printed, strict=True):
        figure = draw()
        figure.set_dpi(DPI)
        new = io.BytesIO()
        FigureCanvasAgg(figure).print_png(new, pil_kwargs=dict(PNG_OPTIONS))
        assert once == new.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("kept", [False, True], ids=["new canvases", "kept canvases"])
def test_a_png_of_many_texts_is_the_bytes_savefig_prints(kept):
    """Texts in regular, bold and italic at several sizes and angles, one text at many places a
    fraction of a pixel apart, and a glyph the first font lacks (drawn from a fallback, with
    Matplotlib's warning) print as ``Figure.savefig`` prints them, warnings included; also on a
    kept canvas that has printed the same texts before, which warns once."""
    import io
    import warnings

    from netbenefit.views.charts.printing import DPI, PNG_OPTIONS, figure_bytes
    from netbenefit.views.charts.style import new_figure

    def figure():
        drawn, ax = new_figure((5.0, 3.0))
        ax.set_title("Net benefit ratio 481% \u2265 400%", fontweight="bold")
        ax.set_xlabel("Project year", fontstyle="italic", fontsize=7)
        ax.set_ylabel("$ million, present value", fontsize=13)
        ax.text(0.5, 0.5, "Hamiltonian \u6f22 character", rotation=30, fontsize=11)  # not in DejaVu Sans
        for i in range(24):  # one text at places a fraction of a pixel apart, some the same
            ax.text(0.02 + 0.0031 * i, 0.03 + 0.037 * i, "Year 2031: $1.5M", fontsize=6 + i % 3)
        ax.plot([1, 2, 3], [3, 1, 2])
        return drawn

    def savefig(drawn):
        out = io.BytesIO()
        drawn.savefig(out, format="png", dpi=DPI, pil_kwargs=dict(PNG_OPTIONS))
        return out.getvalue()

    printed, warned = [], []
    with _printing(kept):
        for print_png in (figure_bytes, savefig, figure_bytes):  # the second print after another
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                printed.append(print_png(figure()))
            warned.append(sorted({str(w.message) for w in caught if not issubclass(w.category, DeprecationWarning)}))
    assert printed[0] == printed[1] == printed[2]
    assert warned[0] == warned[1] and any("missing" in message for message in warned[0])
    # Matplotlib 3.11 warns of a missing glyph where it measures a text (3.7 also where it draws
    # it): on a kept canvas, which measures a text once, it may have warned of it already
    assert warned[2] in (([], warned[0]) if kept else (warned[0],))


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
