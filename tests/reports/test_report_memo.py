"""The memo a director reads, printed and read back (pdftotext): its pages (one scenario at most 4
before the appendix and 8 in all; two at most 10 without the appendix), its first page's figures
equal to the result's, no word of its tables broken inside, the deciding test of a phased project,
its optional pages, and a chart with nothing to show replaced by its sentence."""

from __future__ import annotations

import html as html_module
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import netbenefit
from netbenefit.cli import EXIT_BAD_INPUT, EXIT_OK, main
from netbenefit.labels import margin_points, money_exact, ratio, share
from netbenefit.views.charts import chart_note
from netbenefit.views.html.memo import memo_date, memo_html
from netbenefit.views.html.memo_sections import deciding_test, driver_grade, memo_facts

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
ONE = SCENARIOS / "industry_multipliers_example.yaml"
PHASED = SCENARIOS / "phased_campus.yaml"
TWO = [SCENARIOS / "party_city.yaml", SCENARIOS / "extended_commitment.yaml"]

PRINTED = (
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("weasyprint") is None, reason="WeasyPrint is not installed (pdf)"),
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed (poppler-utils)"),
)


def printed(test):
    """A test that prints a memo and reads it back: slow, and skipped without WeasyPrint or pdftotext."""
    for mark in PRINTED:
        test = mark(test)
    return test


def pdf_pages(path: Path) -> list[str]:
    run = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    pages = run.stdout.split("\f")
    return pages[:-1] if not pages[-1].strip() else pages


def table_words(page: str) -> set[str]:
    """Every word of the headers and cells of the memo's tables (the HTML), three letters or more."""
    words = set()
    for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", page, re.S):
        text = html_module.unescape(re.sub(r"<[^>]+>", " ", cell))
        words |= {word for word in text.split() if len(word) >= 3}
    return words


def broken_words(text: str, words: set[str]) -> list[str]:
    """Words of ``words`` printed in two pieces (``Thresh old``, ``pass es``): two neighbouring
    pieces of the text that make a word while one of them is not a word of the tables. A break
    after a hyphen (``full-`` / ``time``) is a break at a hyphen, not inside a word."""
    tokens = text.split()
    broken = []
    for first, second in zip(tokens, tokens[1:], strict=False):
        joined = first + second
        if joined in words and not first.endswith("-") and not (first in words and second in words):
            broken.append(f"{first} {second}")
    return broken


# ----------------------------------------------------------------------------------------------
# Without printing
# ----------------------------------------------------------------------------------------------


def test_the_deciding_test_is_the_lowest_cumulative_ratio_the_earliest_on_a_tie():
    result = netbenefit.evaluate(PHASED)
    deciding = deciding_test(result)
    assert deciding.phases == (1, 2) and deciding.ratio == pytest.approx(result.phase_tests["ratio"].min())
    assert deciding.passes == result.deciding_test.holds  # read from the result's 71(a)(5) record
    # the earliest of two equal ratios (netbenefit.law.rules.net_benefit.deciding_test)
    from netbenefit.law.rules.net_benefit import deciding_test as rule

    assert int(rule([[3.5, 3.5]]).item()) == 0


def test_a_driver_written_in_the_file_is_an_assumption():
    scenario = netbenefit.load_scenario(ONE)
    assert driver_grade(scenario, "jobs.new") == "assumption"
    assert driver_grade(scenario, "revenue.sales_and_use_tax_rate") in ("statute", "secondary", "assumption")


def test_the_memo_date_is_given_or_source_date_epoch_or_today(monkeypatch):
    assert memo_date("2026-03-01").isoformat() == "2026-03-01"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 UTC
    assert memo_date().isoformat() == "2026-01-01"
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        memo_date("01/03/2026")


def test_memo_options_need_the_pdf(tmp_path, capsys):
    assert main(["report", str(ONE), "--out", str(tmp_path / "r.html"), "--preparer", "A. Reader"]) == EXIT_BAD_INPUT
    assert "--preparer: shape the PDF memo; add --pdf" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.slow
def test_a_chart_with_nothing_to_show_is_its_sentence():
    scenario = netbenefit.load_scenario(TWO[1]).replace({"award.annual_credit": 500_000})
    result = netbenefit.evaluate(scenario)
    assert result.passes and result.extended_years > 0 and result.incremental_credit == 0
    note = chart_note("repayment_schedule", result)
    assert "incremental credit is $0" in note and "nothing to repay" in note
    page = netbenefit.views.html.report_html(result)
    assert note in page
    assert "Bar chart of the repayment owed" not in page  # no image of an empty chart
    assert chart_note("cumulative_pv", result) is None


# ----------------------------------------------------------------------------------------------
# Printed
# ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def one(tmp_path_factory):
    out = tmp_path_factory.mktemp("memo") / "memo.pdf"
    assert (
        main(["report", str(ONE), "--out", str(out), "--pdf", "--date", "2026-11-30", "--preparer", "A. Reader, OMB"])
        == EXIT_OK
    )
    return pdf_pages(out)


@printed
def test_one_scenario_is_at_most_4_pages_before_its_appendix_and_8_in_all(one):
    before = next(i for i, page in enumerate(one) if "Appendix:" in page)
    assert 1 <= before <= 4 and len(one) <= 8
    assert all(len(re.sub(r"page \d+ of \d+", "", page).split()) >= 10 for page in one)  # no blank page


@printed
def test_the_first_page_carries_the_results_figures(one):
    result = netbenefit.evaluate(ONE)
    facts = memo_facts(result)
    first = " ".join(one[0].split())
    assert "Prepared by A. Reader, OMB; 2026-11-30" in first
    assert ("Eligible" if result.eligible else "Not eligible") in first
    assert ratio(facts.deciding.ratio, 1) in first and ratio(result.threshold) in first
    assert margin_points(facts.deciding.ratio - result.threshold, facts.deciding.passes) in first
    assert money_exact(result.requested_credits) in first and money_exact(result.pv_credits) in first
    assert money_exact(result.pv_benefits) in first
    if facts.break_even.solved:
        assert f"{share(facts.break_even.value, 2)} a year" in first
    from netbenefit.labels import short_label

    for key in facts.drivers["key"].head(3):
        assert short_label(key) in first
        assert facts.grades[key] in first


@printed
def test_no_word_of_the_tables_is_broken(one):
    result = netbenefit.evaluate(ONE)
    words = table_words(memo_html(result, date="2026-11-30", preparer="A. Reader, OMB"))
    assert {"Threshold", "passes", "PASS"} & words
    assert broken_words("\n".join(one), words) == []


@printed
def test_two_scenarios_open_with_a_comparison_and_stay_within_10_pages(tmp_path):
    out = tmp_path / "two.pdf"
    assert main(["report", *map(str, TWO), "--out", str(out), "--pdf"]) == EXIT_OK
    pages = pdf_pages(out)
    assert len(pages) <= 10
    assert "Comparison of 2 scenarios" in pages[0] and not any("Appendix:" in page for page in pages)
    first = " ".join(pages[0].split())
    for path in TWO:
        result = netbenefit.evaluate(path)
        margin = deciding_test(result).ratio - result.threshold
        assert ratio(result.ratio, 1) in first and margin_points(margin, result.passes) in first
    words = table_words(memo_html([netbenefit.evaluate(p) for p in TWO]))
    assert broken_words("\n".join(pages), words) == []
    with_appendix = tmp_path / "all.pdf"
    assert main(["report", *map(str, TWO), "--out", str(with_appendix), "--pdf", "--appendix"]) == EXIT_OK
    assert sum("Appendix:" in page for page in pdf_pages(with_appendix)) >= 2


@printed
def test_a_phased_projects_memo_names_its_deciding_test_and_optional_pages(tmp_path):
    result = netbenefit.evaluate(PHASED)
    out = result.to_pdf(
        tmp_path / "phased.pdf",
        sensitivity=True,
        montecarlo={"jobs.median_salary": ("normal", 92_000, 8_000)},
        draws=400,
        diff=SCENARIOS / "phased_campus.yaml",
    )
    pages = pdf_pages(out)
    text = " ".join(" ".join(pages).split())
    assert "phases 1+2: 390.7% vs 400%" in text and "-9.34 points" in text
    assert "sensitivity" in text and "Monte Carlo" in text and "What changed" in text
    assert re.search(r"the net benefit test passes in \d+(\.\d)?% of draws", text)


@printed
def test_diff_and_comparison_write_their_memos(tmp_path):
    diff = netbenefit.diff(TWO[0], SCENARIOS / "party_city_estimate.yaml")
    pages = pdf_pages(diff.to_pdf(tmp_path / "diff.pdf", date="2026-01-02"))
    text = " ".join(" ".join(pages).split())
    for side in ("a", "b"):  # each side with its own threshold and margin
        name, value = getattr(diff, f"name_{side}"), ratio(getattr(diff, f"ratio_{side}"), 1)
        assert f"{side.upper()}, {name}: the test that decides gives {value} against a threshold of 400%" in text
        assert margin_points(getattr(diff, f"margin_{side}"), getattr(diff, f"passes_{side}")) in text
    assert "2026-01-02" in text
    comparison = netbenefit.Comparison.of(TWO)
    assert len(pdf_pages(comparison.to_pdf(tmp_path / "c.pdf"))) <= 10


def test_table_words_and_broken_words_find_a_break():
    assert broken_words("Thresh old pass es", {"Threshold", "passes"}) == ["Thresh old", "pass es"]
    assert broken_words("New full- time jobs", {"full-time"}) == []
