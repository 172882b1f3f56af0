"""The report printed: several scenarios on one page, print CSS (Letter and A4), the PDF, and the
inputs as written."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import netbenefit
from netbenefit.cli import EXIT_BAD_INPUT, EXIT_OK, main
from netbenefit.labels import label
from netbenefit.views.html import CASHFLOW_COLUMNS_PER_TABLE, report_html

pytestmark = pytest.mark.slow  # every test here writes outputs or starts a process

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
FILES = [SCENARIOS / "party_city.yaml", SCENARIOS / "extended_commitment.yaml"]

weasyprint_missing = importlib.util.find_spec("weasyprint") is None
needs_weasyprint = pytest.mark.skipif(weasyprint_missing, reason="WeasyPrint is not installed (the pdf extra)")
needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="pdftotext is not installed (poppler-utils)"
)


@pytest.fixture(scope="module")
def results():
    return [netbenefit.evaluate(path) for path in FILES]


@pytest.fixture(scope="module")
def pages(results):
    """The report of each result alone (drawn once: the charts take a while)."""
    return [report_html(result) for result in results]


def own_streams(result) -> set[str]:
    return {s.name for s in result.scenario.streams} | {s.name for p in result.scenario.phases for s in p.streams}


def flat(text: str) -> str:
    """Text without white space or hyphens, so that a header wrapped or hyphenated still matches."""
    return re.sub(r"[\s\-\u00ad]+", "", text)


# -- HTML ----------------------------------------------------------------------------------------------


def test_several_scenarios_make_one_report_with_a_comparison(results):
    page = report_html(results)
    assert "Comparison of 2 scenarios" in page and page.count('class="page scenario"') == 2
    assert page.count('src="data:image/png;base64,') == 1 + sum(
        len(netbenefit.views.charts.meaningful_charts(r)) for r in results
    )
    for result in results:
        assert f"<h2>{result.name}</h2>" in page
        for check_id in result.checks["id"]:
            assert f"<code>{check_id}</code>" in page
    assert "480.6%" in page and "439.3%" in page  # ratios as percent


def test_cash_flows_are_split_into_tables_that_each_carry_the_year(results, pages):
    result, page = results[1], pages[1]
    section = page.split('<section class="page cashflows">')[1].split("</section>")[0]
    tables = section.count("<table>")
    columns = len(result.cashflows.columns)
    assert tables == -(-columns // CASHFLOW_COLUMNS_PER_TABLE)
    assert section.count("<th>Project year</th>") == tables
    for column in result.cashflows.columns:
        assert f"<th>{label(column, streams=own_streams(result))}</th>" in section


def test_print_css_has_the_paper_size_page_breaks_and_repeated_headers(results, pages):
    letter, a4 = pages[0], report_html(results[0], paper="a4")
    assert "size: letter" in letter and "size: A4" in a4
    assert "section.page { break-before: page; }" in letter
    assert "thead { display: table-header-group; }" in letter
    with pytest.raises(ValueError, match="paper"):
        report_html(results[0], paper="legal")


def test_inputs_are_shown_as_written(pages):
    page = pages[0]
    inputs = page.split('<section class="page inputs">')[1]
    # party_city.yaml writes new: 357 and nj_withholding_share: 1.0; keys left out are not listed.
    assert '<td><code>jobs.new</code></td><td>New full-time jobs [jobs]</td><td class="num">357</td>' in inputs
    assert "357.0" not in inputs and "None" not in inputs and "null" not in inputs
    assert "<code>jobs.median_salary</code>" not in inputs  # not written in the file


def test_inputs_of_a_variant_keep_the_authors_numbers(results):
    variant = netbenefit.evaluate(results[0].scenario.replace({"jobs.new": 300}))
    inputs = report_html(variant).split('<section class="page inputs">')[1]
    assert ">300<" in inputs and "300.0" not in inputs


def test_images_have_alt_text_with_their_numbers(pages):
    page = pages[1]
    alts = re.findall(r'<img alt="([^"]*)"', page)
    assert alts and all(len(alt) > 40 for alt in alts)
    assert any("439% vs 400%" in alt for alt in alts)


def test_optional_sections_appear_when_the_result_has_them(results, pages):
    result = results[1]
    by_tax = pd.DataFrame({"tax": ["gross_income_tax", "other"], "nominal": [3.0e6, 1.0e6], "pv": [2.0e6, 5.0e5]})
    clawback = pd.DataFrame(
        {
            "years_maintained": [0, 1],
            "credits_received": [0.0, 1e6],
            "recapture": [0.0, 1e6],
            "extension_repayment": [0.0, 0.0],
            "total": [0.0, 1e6],
            "pv_total": [0.0, 9e5],
        }
    )
    richer = dataclasses.replace(
        result,
        benefits_by_tax=by_tax,
        clawback_schedule=clawback,
        warnings=("median salary is above $1,000,000 a year",),
    )
    page = report_html(richer)
    assert "<h3>Benefits by tax</h3>" in page and "Gross income tax" in page and "$2,500,000" in page
    assert "Clawback schedule" in page and "Recapture [USD]" in page
    assert "Warnings on the inputs" in page and "median salary is above" in page
    plain = report_html(dataclasses.replace(result, benefits_by_tax=None, clawback_schedule=None, warnings=()))
    assert "Benefits by tax" not in plain and "Clawback schedule" not in plain and "Warnings" not in plain


# -- command line -------------------------------------------------------------------------------------


def test_report_command_compares_several_files(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", *map(str, FILES), "--out", str(out)]) == EXIT_OK
    assert "Comparison of 2 scenarios" in out.read_text(encoding="utf-8")
    printed = capsys.readouterr().out
    assert "ratio 480.6% vs 400%" in printed and "ratio 439.3% vs 400%" in printed


def test_a_pdf_out_needs_the_pdf_flag(tmp_path, capsys):
    assert main(["report", str(FILES[0]), "--out", str(tmp_path / "r.pdf")]) == EXIT_BAD_INPUT
    assert "needs --pdf" in capsys.readouterr().err
    assert not (tmp_path / "r.pdf").exists()


def test_pdf_without_weasyprint_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import fails
    assert main(["report", str(FILES[0]), "--out", str(tmp_path / "r.html"), "--pdf"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "pip install 'netbenefit[pdf]'" in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


# -- PDF (WeasyPrint) ------------------------------------------------------------------------------


@needs_weasyprint
@pytest.mark.parametrize(("paper", "size"), [("letter", (612, 792)), ("a4", (595, 842))])
def test_print_css_renders_on_letter_and_a4(results, pages, paper, size):
    from weasyprint import HTML

    page = pages[1] if paper == "letter" else report_html(results[1], paper=paper)
    document = HTML(string=page).render()
    width, height = (round(document.pages[0].width * 0.75), round(document.pages[0].height * 0.75))  # px -> pt
    assert (width, height) == size
    assert len(document.pages) >= 4  # a page per section
    # No box runs past the right edge of its page: every column is kept.
    for page in document.pages:
        right = page.width - page._page_box.margin_right
        for box in _descendants(page._page_box):
            if type(box).__name__ in ("TableCellBox", "TextBox"):
                assert box.position_x + box.width <= right + 1, (type(box).__name__, box.position_x, box.width)


def _descendants(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from _descendants(child)


@needs_weasyprint
@needs_pdftotext
def test_report_pdf_has_every_check_and_every_cash_flow_column(tmp_path):
    out = tmp_path / "r.html"
    assert main(["report", *map(str, FILES), "--out", str(out), "--pdf", "--paper", "a4", "--appendix"]) == EXIT_OK
    pdf = out.with_suffix(".pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for path in FILES:
        result = netbenefit.evaluate(path)
        for check_id in result.checks["id"]:
            assert check_id in text, check_id
        for column in result.cashflows.columns:
            assert flat(label(column, streams=own_streams(result))) in flat(text), column
        last = result.cashflows["cumulative_pv_credits"].iloc[-1]
        assert f"${last:,.0f}" in text  # the last column's values are printed too
