"""The printed memo read back as text (pdftotext): job counts are numbers, not dollars; PASS
and FAIL are whole words; no page is blank, the first one carries the verdict and the appendix the
checks. The scenario
has a multiplier table, so its cash flows have indirect and induced jobs."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import netbenefit
from netbenefit.cli import EXIT_OK, main
from netbenefit.views.html.memo_sections import APPENDIX_CASHFLOW_COLUMNS

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "industry_multipliers_example.yaml"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("weasyprint") is None, reason="WeasyPrint is not installed (pdf)"),
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed (poppler-utils)"),
]
#: Job columns and the words their header begins with; each is found in its printed table by its
#: place among the columns (tables of APPENDIX_CASHFLOW_COLUMNS, each with the project year).
JOB_COLUMNS = {
    "indirect_and_induced_jobs": "Indirect and",
    "new_full_time_jobs": "New full-time",
}


def jobs(count: float) -> str:
    """A job count as printed: whole numbers as such, a fraction with one decimal."""
    return f"{count:,.0f}" if float(count).is_integer() else f"{count:,.1f}"


@pytest.fixture(scope="module")
def pdf_text(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "r.html"
    assert main(["report", str(SCENARIO), "--out", str(out), "--pdf"]) == EXIT_OK
    run = subprocess.run(["pdftotext", "-layout", str(out.with_suffix(".pdf")), "-"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.fixture(scope="module")
def result():
    return netbenefit.evaluate(SCENARIO)


def test_the_scenario_has_indirect_and_induced_jobs(result):
    assert result.cashflows["indirect_and_induced_jobs"].gt(0).any()


@pytest.mark.parametrize("column", JOB_COLUMNS)
def test_job_counts_are_printed_as_numbers_not_dollars(pdf_text, result, column):
    lines = pdf_text.splitlines()
    words = JOB_COLUMNS[column]
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Project") and words in line)
    after = lines[header + 1 :]
    place = list(result.cashflows.columns).index(column) % APPENDIX_CASHFLOW_COLUMNS + 1  # after the year
    for year, count in result.cashflows[column].items():
        row = next(line for line in after if re.match(rf"^\s*{year}\s", line))
        cell = row.split()[place]
        assert cell == jobs(count), (year, row)
        assert "$" not in cell


def test_pass_and_fail_are_whole_words(pdf_text, result):
    assert not re.search(r"\b(PAS|FAI)\b", pdf_text), "a PASS or FAIL split over two lines"
    assert not re.search(r"^\s*[SL]\s*$", pdf_text, re.M)
    words = len(re.findall(r"\b(PASS|FAIL)\b", pdf_text))
    assert words >= len(result.checks) + len(result.phase_tests)


def test_no_page_is_blank_and_the_first_carries_the_verdict(pdf_text, result):
    pages = pdf_text.split("\f")
    if not pages[-1].strip():
        pages = pages[:-1]  # pdftotext ends the last page with a form feed
    for number, page in enumerate(pages, start=1):
        body = re.sub(r"page \d+ of \d+", "", page).strip()
        assert len(body.splitlines()) >= 3, f"page {number} is (nearly) blank: {body!r}"
    first = " ".join(pages[0].split())
    assert "net benefit ratio" in first and "Deciding test" in first
    appendix = next(page for page in pages if "Appendix:" in page)
    assert "Eligibility checks" in appendix
