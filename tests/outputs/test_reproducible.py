"""The same scenarios give the same files, byte for byte: no output records the time it was
written unless ``SOURCE_DATE_EPOCH`` asks for a date, and an SVG's ids are not random."""

from __future__ import annotations

import datetime as dt
import os
import re
import zipfile
from pathlib import Path

import pytest

from netbenefit.cli import main
from netbenefit.io.writing import NO_DATE, OutputError, dates_fixed, source_date
from netbenefit.model.evaluate import evaluate
from netbenefit.views import charts

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
FILES = [SCENARIOS / "party_city.yaml", SCENARIOS / "phased_campus.yaml"]
#: 2023-11-14 22:13:20 UTC
EPOCH = 1_700_000_000


@pytest.fixture(autouse=True)
def no_source_date(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


@pytest.fixture(scope="module")
def result():
    return evaluate(FILES[1])


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _created(workbook: Path) -> str:
    with zipfile.ZipFile(workbook) as archive:
        core = archive.read("docProps/core.xml").decode()
    return re.search(r"<dcterms:created[^>]*>([^<]+)<", core).group(1)


# -- SOURCE_DATE_EPOCH ----------------------------------------------------------------------------


def test_without_source_date_epoch_no_date_is_recorded():
    assert source_date() is None


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_source_date_epoch_is_not_set(monkeypatch, value):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    assert source_date() is None


@pytest.mark.parametrize(
    "value, expected",
    [
        ("0", dt.datetime(1970, 1, 1, tzinfo=dt.UTC)),
        (str(EPOCH), dt.datetime(2023, 11, 14, 22, 13, 20, tzinfo=dt.UTC)),
    ],
)
def test_source_date_epoch_is_seconds_since_1970_utc(monkeypatch, value, expected):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    assert source_date() == expected


@pytest.mark.parametrize(
    "value, problem",
    [
        ("yesterday", "must be a whole number of seconds"),
        ("-1", "must be a whole number of seconds"),
        ("1.5", "must be a whole number of seconds"),
        ("\u00b2", "must be a whole number of seconds"),  # a superscript two: a digit to str.isdigit
        ("253402300800", "past any date"),  # 10000-01-01: one second past 9999-12-31 23:59:59
    ],
)
def test_a_source_date_epoch_that_cannot_be_read_is_refused(monkeypatch, value, problem):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    with pytest.raises(OutputError, match=problem) as error:
        source_date()
    assert str(error.value).startswith("SOURCE_DATE_EPOCH: ") and "\n" not in str(error.value)


def test_the_last_readable_source_date_epoch(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "253402300799")
    assert source_date() == dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.UTC)


@pytest.mark.slow
def test_a_bad_source_date_epoch_stops_the_command_line_before_anything_is_written(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "now")
    out = tmp_path / "out"
    assert main(["compare", str(FILES[0]), "--out", str(out), "--charts", "none"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("netbenefit: SOURCE_DATE_EPOCH: must be a whole number") and error.count("\n") == 1
    assert not out.exists()
    assert main(["report", str(FILES[0]), "--out", str(tmp_path / "report.html")]) == 2
    assert not (tmp_path / "report.html").exists()


def test_dates_fixed_sets_the_no_date_epoch_only_within_the_block():
    with dates_fixed():
        assert source_date() == dt.datetime(*NO_DATE, tzinfo=dt.UTC)
    assert "SOURCE_DATE_EPOCH" not in os.environ


def test_dates_fixed_keeps_a_date_that_is_set(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    with dates_fixed():
        assert os.environ["SOURCE_DATE_EPOCH"] == str(EPOCH)
    assert os.environ["SOURCE_DATE_EPOCH"] == str(EPOCH)


# -- each kind of file ----------------------------------------------------------------------------


@pytest.mark.parametrize("image_format", ["png", "svg", "pdf"])
@pytest.mark.slow
def test_a_chart_is_the_same_bytes_each_time(result, tmp_path, image_format):
    first = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / f"first.{image_format}")
    second = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / f"second.{image_format}")
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.slow
def test_an_svg_or_pdf_records_no_date_unless_asked(result, tmp_path, monkeypatch):
    svg = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "chart.svg").read_text()
    pdf = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "chart.pdf").read_bytes()
    assert "<dc:date>" not in svg and b"/CreationDate" not in pdf
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    svg = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "dated.svg").read_text()
    pdf = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "dated.pdf").read_bytes()
    assert "<dc:date>2023-11-14T22:13:20+00:00</dc:date>" in svg
    assert b"/CreationDate (D:20231114221320Z)" in pdf


def test_a_salt_the_user_chose_for_svg_ids_is_kept(result, tmp_path):
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "mine"}):
        mine = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "mine.svg").read_bytes()
    ours = charts.save_figure(charts.draw("phase_ratios", result), tmp_path / "ours.svg").read_bytes()
    assert mine != ours and matplotlib.rcParams["svg.hashsalt"] is None


@pytest.mark.slow
def test_a_workbook_is_the_same_bytes_each_time_and_records_no_time_of_writing(result, tmp_path, monkeypatch):
    first, second = result.to_excel(tmp_path / "first.xlsx"), result.to_excel(tmp_path / "second.xlsx")
    assert first.read_bytes() == second.read_bytes()
    assert _created(first) == "1980-01-01T00:00:00Z"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
    assert _created(result.to_excel(tmp_path / "dated.xlsx")) == "2023-11-14T22:13:20Z"


@pytest.mark.slow
@pytest.mark.slow  # draws every chart twice, in two processes
def test_compare_writes_the_same_folder_twice(tmp_path):
    """Two processes with different string hashes (so that no set or dict order can leak in)."""
    import subprocess
    import sys

    for seed, name in ((1, "first"), (2, "second")):
        command = [sys.executable, "-m", "netbenefit", "compare", *map(str, FILES), "--out", str(tmp_path / name)]
        environment = {**os.environ, "PYTHONHASHSEED": str(seed)}
        environment.pop("SOURCE_DATE_EPOCH", None)
        run = subprocess.run([*command, "--svg"], capture_output=True, text=True, env=environment)
        assert run.returncode == 0, run.stderr
    first, second = _files(tmp_path / "first"), _files(tmp_path / "second")
    assert first.keys() == second.keys() and any(name.endswith(".svg") for name in first)
    assert [name for name in first if first[name] != second[name]] == []


@pytest.mark.slow
@pytest.mark.slow  # renders two PDFs
def test_a_pdf_report_is_the_same_bytes_each_time(tmp_path):
    pytest.importorskip("weasyprint", reason="the PDF report needs WeasyPrint (the pdf extra)")
    for name in ("first", "second"):
        assert main(["report", str(FILES[0]), "--out", str(tmp_path / f"{name}.html"), "--pdf"]) == 0
    assert (tmp_path / "first.pdf").read_bytes() == (tmp_path / "second.pdf").read_bytes()
    assert (tmp_path / "first.html").read_bytes() == (tmp_path / "second.html").read_bytes()
    assert "SOURCE_DATE_EPOCH" not in os.environ
