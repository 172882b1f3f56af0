"""What ``netbenefit compare`` and ``netbenefit report`` write, and the notebook HTML views."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

import netbenefit
from netbenefit.cli import EXIT_BAD_INPUT, EXIT_OK, main
from netbenefit.views.charts import new_figure
from netbenefit.views.html import Comparison, comparison_html, report_html, result_html
from netbenefit.views.workbook import SHEET_NAME_LIMIT, sheet_names, write_workbook

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
FILES = [SCENARIOS / f"{name}.yaml" for name in ("party_city", "phased_campus", "extended_commitment")]


@pytest.fixture(scope="module")
def results():
    return [netbenefit.evaluate(path) for path in FILES]


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """One ``netbenefit compare --svg`` run on three scenarios (exit status, output folder)."""
    out = tmp_path_factory.mktemp("compare") / "results"
    status = main(["compare", *map(str, FILES), "--out", str(out), "--svg"])
    return status, out


# -- the workbook --------------------------------------------------------------------------------


@pytest.mark.slow
def test_workbook_has_a_summary_inputs_then_one_cash_flow_sheet_per_scenario(results, tmp_path):
    path = write_workbook(results, tmp_path / "comparison.xlsx")
    workbook = openpyxl.load_workbook(path)
    assert workbook.sheetnames == [
        "Summary",
        "Inputs",
        "Inputs by year",
        "party_city",
        "phased_campus",
        "extended_commitment",
        "Phase tests",
        "Checks",
        "Benefits by tax",
        "Clawback schedule",
        "Warnings",
        "Round trip",
    ]


@pytest.mark.slow
def test_workbook_summary_values_and_formulas_against_the_results(results, tmp_path):
    path = write_workbook(results, tmp_path / "comparison.xlsx")
    sheet = openpyxl.load_workbook(path)["Summary"]
    header = [cell.value for cell in sheet[1]]
    expected = netbenefit.compare(results)
    assert len(header) == len(expected.columns) + 2
    assert header[-2:] == ["Cash-flow sheet", "Names suffix (discount_rate_1, ratio_1...)"]
    rows = [{h: c.value for h, c in zip(header, row, strict=True)} for row in sheet.iter_rows(min_row=2)]
    assert [row["Name"] for row in rows] == [r.name for r in results]
    assert [row["Cash-flow sheet"] for row in rows] == ["party_city", "phased_campus", "extended_commitment"]
    for k, (row, result) in enumerate(zip(rows, results, strict=True), start=1):
        assert row["Net benefit ratio"] == f"=ratio_{k}" and row["Discount rate [per year]"] == f"=discount_rate_{k}"
        assert row["Requested credits, nominal [USD]"] == pytest.approx(result.requested_credits, rel=1e-12)
        formula_checks = ("71(a)(1)", "71(a)(2)", "71(a)(5)", "71(d)")  # formulas of the input cells
        others = all(c.passed for c in result.checks.itertuples() if c.id not in formula_checks)
        assert row["Eligible"].startswith(f"=AND(passes_{k},") and row["Eligible"].endswith(f",{str(others).upper()})")
        assert row["Jobs clause, 71(c)"] == result.jobs_clause


@pytest.mark.slow
def test_workbook_number_formats_frozen_headers_and_widths(results, tmp_path):
    workbook = openpyxl.load_workbook(write_workbook(results, tmp_path / "comparison.xlsx"))
    summary = workbook["Summary"]
    header = [cell.value for cell in summary[1]]
    row = {name: cell for name, cell in zip(header, summary[2], strict=True)}
    assert (
        row["Net benefit ratio"].number_format == "0.0%"
        and row["Threshold (multiple of PV of credits)"].number_format == "0.0%"
    )
    assert row["PV of net benefits [USD]"].number_format == '"$"#,##0'
    assert row["Discount rate [per year]"].number_format == "0.00%"
    assert summary.freeze_panes == "C2"
    cashflows = workbook["phased_campus"]
    header = [cell.value for cell in cashflows[1]]
    row = {name: cell for name, cell in zip(header, cashflows[2], strict=True)}
    assert row["Requested credits (all phases) [USD]"].number_format == '"$"#,##0'
    assert row["Full-time jobs (all phases)"].number_format == "#,##0.0"
    assert row["Discount factor"].number_format == "0.000000"
    assert row["Phase 2: Weight (share of the year in the benefit window)"].number_format == "0.00"
    assert cashflows.freeze_panes == "B2"
    assert all(10 <= cashflows.column_dimensions[letter].width <= 64 for letter in "BCDEFGH")


def test_sheet_names_are_unique_short_and_legal():
    stems = ["summary", "a" * 40, "a" * 40 + "_2", "A" * 35, "what[if]:a/b?", "plain"]
    names = sheet_names(stems)
    assert all(len(name) <= SHEET_NAME_LIMIT for name in names)
    assert len({name.casefold() for name in [*names, "Summary"]}) == len(names) + 1  # Excel ignores case
    assert "summary" not in names and "inputs" not in sheet_names(["inputs"])
    assert not any(re.search(r"[\[\]:*?/\\]", name) for name in names)
    assert names[-1] == "plain"


# -- netbenefit compare --------------------------------------------------------------------------


@pytest.mark.slow
def test_compare_writes_csvs_workbook_and_charts(compared):
    status, out = compared
    assert status == EXIT_OK
    written = sorted(str(path.relative_to(out)) for path in out.rglob("*") if path.is_file())
    stems = [path.stem for path in FILES]
    charts = ["cumulative_pv", "benefit_streams", "benefits_by_tax", "clawback_schedule", "scorecard"]
    expected = {"summary.csv", "comparison.xlsx"}
    expected |= {f"cashflows/{stem}.csv" for stem in stems}
    expected |= {f"charts/comparison_ratios.{suffix}" for suffix in ("png", "svg")}
    expected |= {f"charts/{stem}/{chart}.{suffix}" for stem in stems for chart in charts for suffix in ("png", "svg")}
    # phased_campus is not eligible: no award, an empty clawback schedule, no clawback chart
    expected -= {f"charts/phased_campus/clawback_schedule.{suffix}" for suffix in ("png", "svg")}
    expected |= {f"charts/phased_campus/phase_ratios.{s}" for s in ("png", "svg")}
    expected |= {f"charts/extended_commitment/repayment_schedule.{s}" for s in ("png", "svg")}
    expected |= {".netbenefit-manifest.json"}  # the files of this run, for the next --force
    assert set(written) == expected  # and no temporary file left behind
    assert all((out / name).stat().st_size > 5_000 for name in written if name.endswith(".png"))


@pytest.mark.slow
def test_compare_without_svg_writes_png_only(tmp_path):
    out = tmp_path / "results"
    assert main(["compare", str(FILES[0]), "--out", str(out)]) == EXIT_OK
    assert not list(out.rglob("*.svg"))
    assert (out / "charts" / "party_city" / "cumulative_pv.png").stat().st_size > 5_000


@pytest.mark.slow
def test_compare_refuses_a_non_empty_folder_without_force(tmp_path, capsys):
    out = tmp_path / "results"
    out.mkdir()
    (out / "earlier.txt").write_text("earlier work", encoding="utf-8")
    assert main(["compare", str(FILES[0]), "--out", str(out)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force" in err
    assert sorted(p.name for p in out.iterdir()) == ["earlier.txt"]
    assert main(["compare", str(FILES[0]), "--out", str(out), "--force"]) == EXIT_OK
    assert (out / "comparison.xlsx").exists() and (out / "earlier.txt").read_text(encoding="utf-8") == "earlier work"


@pytest.mark.slow
def test_compare_writes_nothing_when_a_scenario_is_bad(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    out = tmp_path / "results"
    assert main(["compare", str(FILES[0]), str(bad), "--out", str(out)]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.count("\n") == 1
    assert not out.exists()


# -- netbenefit report ---------------------------------------------------------------------------


@pytest.mark.slow
def test_report_is_self_contained_and_has_every_check(tmp_path, results):
    path = tmp_path / "report.html"
    assert main(["report", str(FILES[1]), "--out", str(path)]) == EXIT_OK
    page = path.read_text(encoding="utf-8")
    result = results[1]
    for check_id in result.checks["id"]:
        assert f"<code>{check_id}</code>" in page
    for message in result.checks["message"]:
        assert escape(message) in page
    # not eligible: no clawback chart, the note instead
    assert page.count('src="data:image/png;base64,') == len(
        ["cumulative_pv", "benefit_streams", "benefits_by_tax", "phase_ratios", "scorecard"]
    )
    assert escape(result.clawback_note) in page and result.clawback_note
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched from the network
    assert "<script" not in page and "@import" not in page
    for convention in ("Discount rate", "6% a year", "end of year", "Commitment period", "10.5 years", "71(a)(5)"):
        assert convention in page
    assert "cash flows by project year" in page and "inputs" in page


@pytest.mark.slow
def test_report_refuses_an_existing_file_without_force(tmp_path, capsys):
    path = tmp_path / "report.html"
    path.write_text("earlier", encoding="utf-8")
    assert main(["report", str(FILES[0]), "--out", str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force" in err
    assert path.read_text(encoding="utf-8") == "earlier"
    assert main(["report", str(FILES[0]), "--out", str(path), "--force"]) == EXIT_OK
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


@pytest.mark.slow
def test_report_of_a_bad_scenario_writes_nothing(tmp_path, capsys):
    path = tmp_path / "report.html"
    assert main(["report", str(tmp_path / "missing.yaml"), "--out", str(path)]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.count("\n") == 1
    assert not path.exists()


@pytest.mark.slow
def test_report_needs_an_output_file(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["report", str(FILES[0])])
    assert stop.value.code == EXIT_BAD_INPUT


@pytest.mark.slow
def test_report_of_an_extended_commitment_shows_the_repayment_schedule(results):
    page = report_html(results[2], version="test")
    assert "Extended commitment, 71(a)(5)(d)" in page and "$1,382,747" in page
    assert "5 years elected and counted" in page


# -- notebook views ------------------------------------------------------------------------------


def test_result_repr_html_has_the_ratio_the_threshold_and_every_check(results):
    result = results[0]
    page = result._repr_html_()
    assert page == result_html(result)
    assert "480.6%" in page and "400%" in page and "passes" in page  # Party City: 4.8064
    for check_id in result.checks["id"]:
        assert f"<code>{check_id}</code>" in page
    assert "Cumulative PV of net benefits [USD]" in page  # the cash-flow table, headers in words


def test_result_repr_html_escapes_the_name(results):
    variant = netbenefit.evaluate(results[0].scenario.replace({"name": "<b>A & B</b>"}))
    page = variant._repr_html_()
    assert "&lt;b&gt;A &amp; B&lt;/b&gt;" in page and "<b>A & B</b>" not in page


def test_comparison_shows_a_row_per_scenario(results):
    comparison = Comparison.of([results[0], FILES[1]])
    assert [r.name for r in comparison.results] == [results[0].name, results[1].name]
    page = comparison._repr_html_()
    assert page == comparison_html(comparison.results)
    assert page.count("<tr") == 3 and "390.7%" in page and "480.6%" in page
    pd.testing.assert_frame_equal(comparison.table, netbenefit.compare(comparison.results))
    ax = new_figure()[1]
    assert comparison.plot(ax=ax) is ax and len(ax.patches) == 2


@pytest.mark.slow
def test_report_shows_the_section_75_build_up_when_the_calculator_gives_the_award():
    result = netbenefit.evaluate(SCENARIOS / "award_calculator.yaml")
    page = report_html(result)
    assert "Tax credit amount, section 75" in page
    for item in result.award_calculation["item"]:
        assert escape(item) in page
    assert "Tax credit amount, section 75" not in report_html(netbenefit.evaluate(FILES[0]))


def test_result_repr_html_of_a_phased_project_lists_each_cumulative_test(results):
    page = results[1]._repr_html_()
    assert "Cumulative tests by phase" in page and "1+2" in page and "390.7%" in page and "FAIL" in page


@pytest.mark.slow
def test_importing_the_library_loads_no_chart_or_workbook_writer():
    import subprocess
    import sys

    heavy = ("matplotlib", "xlsxwriter", "openpyxl")
    code = f"import sys, netbenefit, netbenefit.cli; print(any(m in sys.modules for m in {heavy!r}))"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "False"
