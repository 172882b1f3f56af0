"""The program view: the example portfolio by State fiscal year, its totals, cap headroom and files."""

from __future__ import annotations

import csv
import math
import subprocess
import sys
from pathlib import Path

import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.analysis.portfolio.book import check_cap
from netbenefit.model.fiscal import BENEFIT_COLUMNS
from netbenefit.views.portfolio_files import csv_files, portfolio_html, write_portfolio_workbook

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "portfolio"
FILES = sorted(EXAMPLE.glob("*.yaml"))
CENT = 0.01


@pytest.fixture(scope="module")
def book():
    return netbenefit.portfolio(FILES, cap=60_000_000)


def test_the_example_has_ten_to_twenty_fictional_applications_over_several_fiscal_years(book):
    assert 10 <= len(FILES) <= 20
    for path in FILES:
        assert "Fictional" in path.read_text(encoding="utf-8")
        assert netbenefit.load_scenario(path).description.startswith("Fictional application.")
    assert book.applications["approval_fiscal_year"].nunique() >= 4


def test_fiscal_year_totals_add_up_to_the_applications_nominal_totals_to_the_cent(book):
    table = book.fiscal_years
    credits = math.fsum(result.requested_credits for result in book.results)
    assert abs(math.fsum(table["credits"]) - credits) < CENT / 2
    benefits = math.fsum(math.fsum(result.cashflows["counted_net_benefits"]) for result in book.results)
    assert abs(math.fsum(table["benefits"]) - benefits) < CENT / 2
    for tax in BENEFIT_COLUMNS:
        by_tax = math.fsum(float(result.benefits_by_tax.set_index("tax").at[tax, "nominal"]) for result in book.results)
        assert abs(math.fsum(table[tax]) - by_tax) < CENT / 2
    assert table["cumulative_credits"].iloc[-1] == pytest.approx(credits, abs=CENT / 2)
    assert abs(math.fsum(table["requested"]) - credits) < CENT / 2  # every request counted once, at approval
    awarded = math.fsum(result.requested_credits for result in book.results if result.eligible)
    assert abs(math.fsum(table["awarded"]) - awarded) < CENT / 2  # every award once; none where not eligible


def test_an_application_that_is_not_eligible_awards_nothing(book):
    table, applications = book.fiscal_years, book.applications
    failing = applications[~applications["eligible"]]
    assert len(failing) >= 1  # the bundled portfolio has one
    for year, group in applications.groupby("approval_fiscal_year"):
        eligible = math.fsum(group.loc[group["eligible"], "requested_credits"])
        assert table.at[year, "awarded"] == pytest.approx(eligible, abs=CENT / 2)
        assert table.at[year, "requested"] == pytest.approx(math.fsum(group["requested_credits"]), abs=CENT / 2)
        assert table.at[year, "approved"] == len(group)  # approved counts applications
    if book.cap is not None:
        assert (table["cap_headroom"] == table["cap"] - table["awarded"]).all()  # the cap counts awards
    from netbenefit.labels import money_exact
    from netbenefit.views.portfolio_files import _fiscal_table_html

    page = _fiscal_table_html(book)
    assert "Requested" in page and "Awarded (eligible)" in page
    assert money_exact(float(table["awarded"].sum())) in page.rsplit("<tr>", 1)[-1]  # the total row: awards only


def test_the_tables_show_money_and_percents_and_keep_it_when_sliced(book):
    sliced = book.fiscal_years[["awarded", "approved"]].head(3)
    shown = sliced._repr_html_()
    assert "$" in shown and "e+07" not in shown
    assert sliced["awarded"].dtype.kind == "f"  # the values stay numbers
    ratios = book.applications[["application", "ratio"]]._repr_html_()
    assert "%" in ratios


def test_each_application_s_columns_add_up_to_its_own_totals(book):
    credits = book.credits_table()
    for label, result in zip(book.labels, book.results, strict=True):
        assert abs(math.fsum(credits[label]) - result.requested_credits) < CENT / 2


def test_passing_and_failing_are_counted(book):
    passes = [result.passes for result in book.results]
    assert book.passing == sum(passes) and book.failing == len(passes) - sum(passes)
    assert 0 < book.failing < len(passes)
    assert int(book.fiscal_years["approved"].sum()) == len(passes)
    assert int(book.fiscal_years["approved_passing"].sum()) == sum(passes)


def test_an_award_counts_against_the_cap_of_its_approval_fiscal_year(book):
    # Harborview Analytics: approved 2021-12-08, in FY2022; $520,000 x 7 years = $3,640,000
    row = book.applications.set_index("application").loc["Harborview Analytics, regional office"]
    assert row.approval_fiscal_year == 2022 and row.requested_credits == 3_640_000
    table = book.fiscal_years
    assert (table["cap_headroom"] == 60_000_000 - table["awarded"]).all()


def test_a_folder_stands_for_its_scenario_files(book):
    from_folder = netbenefit.portfolio(EXAMPLE, cap=60_000_000)
    assert from_folder.labels == book.labels
    with pytest.raises(ScenarioError, match="no scenario file"):
        netbenefit.portfolio(ROOT / "docs")


def test_without_a_cap_there_is_no_headroom_and_the_output_says_so():
    book = netbenefit.portfolio(FILES[:2])
    assert book.fiscal_years["cap_headroom"].isna().all()
    assert "No cap given" in book.cap_note and "could not be read" in book.cap_note
    assert "No cap given" in portfolio_html(book)


@pytest.mark.parametrize(
    "cap, ok",
    [(0, True), (999, False), (1_000, True), (-1, False), (float("nan"), False), (float("inf"), False)],
)
def test_the_cap_is_a_finite_number_of_dollars(cap, ok):
    if ok:
        assert check_cap(cap) == cap
    else:
        with pytest.raises(ScenarioError, match="--cap"):
            check_cap(cap)


def test_the_cap_parameter_is_graded_secondary_with_its_words():
    entry = netbenefit.PARAMETERS["aspire_and_emerge_annual_award_cap"]
    assert entry.source == "secondary" and "Aspire and Emerge" in entry.quote and entry.value == 1_100_000_000


def test_user_text_is_escaped_in_html_and_guarded_in_csv():
    result = netbenefit.evaluate(netbenefit.load_scenario(FILES[0]).replace({"name": "=cmd <script>x</script>"}))
    book = netbenefit.portfolio([result])
    page = portfolio_html(book)
    assert "<script>" not in page and "&lt;script&gt;" in page
    applications = dict(csv_files(book))["applications.csv"].decode()
    assert "'=cmd" in applications


def test_the_fiscal_years_csv_holds_the_totals(book):
    files = dict(csv_files(book))
    rows = list(csv.DictReader(files["fiscal_years.csv"].decode().splitlines()))
    assert [int(row["fiscal_year"]) for row in rows] == list(book.fiscal_years.index)
    total = math.fsum(float(row["credits"]) for row in rows)
    assert abs(total - book.requested_credits) < CENT / 2


def test_the_workbook_sums_are_formulas(book, tmp_path):
    import openpyxl

    path = write_portfolio_workbook(book, tmp_path / "portfolio.xlsx")
    sheet = openpyxl.load_workbook(path)["Fiscal years"]
    assert sheet["B2"].value.startswith("=Credits!")
    assert sheet.cell(len(book.fiscal_years) + 2, 2).value.startswith("=SUM(")
    assert openpyxl.load_workbook(path).sheetnames[0] == "Fiscal years"


@pytest.mark.slow
@pytest.mark.slow
def test_the_workbook_recomputes_to_the_totals(book, tmp_path):
    from workbook_engines import Recomputed

    path = write_portfolio_workbook(book, tmp_path / "portfolio.xlsx")
    values = Recomputed(path)
    last = len(book.fiscal_years) + 2
    assert values.cell("Fiscal years", f"B{last}") == pytest.approx(book.requested_credits, abs=CENT)
    assert values.cell("Fiscal years", f"C{last}") == pytest.approx(book.counted_benefits, abs=CENT)
    assert values.cell("Fiscal years", "J2") == pytest.approx(book.fiscal_years["cap_headroom"].iloc[0], abs=CENT)
    assert values.cell("Benefits by tax", f"F{last}") == pytest.approx(book.counted_benefits, abs=CENT)


@pytest.mark.slow
def test_the_charts_end_with_the_fiscal_year_placement_and_the_cap(book):
    from netbenefit.views.charts.portfolio import PORTFOLIO_CHARTS
    from netbenefit.views.charts.style import footnote_of, new_figure

    for name, chart in PORTFOLIO_CHARTS.items():
        _, ax = new_figure()
        chart(book, ax=ax)
        note = footnote_of(ax)
        assert "State fiscal years" in note and "Discount rate" in note, name
    assert "user" in footnote_of(ax)  # the cap chart: the cap is the user's


@pytest.mark.slow
def test_the_command_writes_the_folder_and_refuses_a_cap_in_millions(tmp_path):
    out = tmp_path / "out"
    run = [sys.executable, "-m", "netbenefit", "portfolio", str(EXAMPLE), "--out", str(out), "--cap", "60000000"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for name in ("fiscal_years.csv", "applications.csv", "portfolio.xlsx", "portfolio.html"):
        assert (out / name).is_file()
    assert len(list((out / "charts").glob("*.png"))) == 3
    bad = subprocess.run([*run[:-1], "60", "--force"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "did you mean 60,000,000" in bad.stderr and "Traceback" not in bad.stderr


def test_the_regional_split_of_the_cap_counts_each_regions_awards():
    scenarios = [netbenefit.load_scenario(path) for path in FILES]
    regions = ["north" if i % 3 else "south" for i in range(len(scenarios))]
    placed = [s.replace({"location.region": r}) for s, r in zip(scenarios, regions, strict=True)]
    book = netbenefit.Portfolio.of(placed, regions=True)
    table = book.fiscal_years
    assert (table["cap_north"] == 715_000_000).all() and (table["cap_south"] == 385_000_000).all()
    assert table["awarded_north"].add(table["awarded_south"]).sum() == pytest.approx(table["awarded"].sum())
    assert (table["cap_headroom_south"] == table["cap_south"] - table["awarded_south"]).all()
    assert "north $715,000,000, south $385,000,000" in book.cap_note and "secondary" in book.cap_note
    entry = netbenefit.PARAMETERS["aspire_and_emerge_annual_award_cap_north"]
    assert entry.source == "secondary"
    with pytest.raises(ScenarioError, match="location.region"):
        netbenefit.Portfolio.of(scenarios, regions=True)  # an eligible application without a region
    assert "awarded_north" not in netbenefit.Portfolio.of(scenarios).fiscal_years  # only when asked


def test_a_region_is_north_or_south():
    scenario = netbenefit.load_scenario(next(EXAMPLE.glob("*.yaml")))
    with pytest.raises(ScenarioError, match="region"):
        scenario.replace({"location.region": "east"})


def test_the_portfolio_montecarlo_table_shows_money():
    from netbenefit.analysis.portfolio.montecarlo import portfolio_montecarlo

    run = portfolio_montecarlo(EXAMPLE / "montecarlo.yml", draws=50, seed=1)
    shown = run.fiscal_years[["credits_mean", "credits_p50"]].head(3)._repr_html_()
    assert "$" in shown and "e+0" not in shown
    assert run.fiscal_years["credits_mean"].dtype.kind == "f"


def test_regions_on_the_command_line_need_each_applications_region(tmp_path, capsys):
    from netbenefit.cli import EXIT_BAD_INPUT, main

    code = main(["portfolio", str(EXAMPLE), "--out", str(tmp_path / "out"), "--regions", "--charts", "none"])
    assert code == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "location.region: give north or south" in err[0]
