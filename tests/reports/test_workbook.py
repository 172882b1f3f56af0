"""The workbook is a model: an independent engine (the ``formulas`` package) recomputes evaluate's
ratio from it, and the ratio netbenefit gives at another discount rate once the ``discount_rate``
cell is changed; single, phased, extended-commitment and mid-year scenarios."""

from __future__ import annotations

import math
from pathlib import Path

import openpyxl
import pytest
from workbook_engines import Recomputed, set_named_cell

import netbenefit
from netbenefit.cli import EXIT_OK, main
from netbenefit.model.disclosures import applied_multipliers
from netbenefit.views.html import Comparison
from netbenefit.views.workbook import cell_text, input_rows
from netbenefit.views.workbook.inputs_sheet import BY_YEAR_ITEM

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
#: single, phased, extended commitment, mid-year timing
STEMS = ("party_city", "phased_campus", "extended_commitment", "mega_project")
#: How far the recomputed ratio may be from evaluate's (absolute).
RATIO_TOLERANCE = 1e-9
#: The changed discount rate of each test: the scenario's plus this.
RATE_CHANGE = 0.025


@pytest.fixture(scope="module")
def results():
    return {stem: netbenefit.evaluate(SCENARIOS / f"{stem}.yaml") for stem in STEMS}


@pytest.fixture(scope="module")
def workbooks(results, tmp_path_factory):
    folder = tmp_path_factory.mktemp("workbooks")
    return {stem: result.to_excel(folder / f"{stem}.xlsx") for stem, result in results.items()}


@pytest.fixture(scope="module")
def recomputed(workbooks):
    return {stem: Recomputed(path) for stem, path in workbooks.items()}


def _columns(sheet) -> dict[str, str]:
    """Header -> column letter of the first row."""
    return {cell.value: cell.column_letter for cell in sheet[1] if cell.value is not None}


# -- recomputed by an independent engine ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("stem", STEMS)
def test_the_recomputed_ratio_is_evaluates(stem, results, recomputed):
    result, engine = results[stem], recomputed[stem]
    assert abs(engine.name("ratio") - result.ratio) <= RATIO_TOLERANCE
    assert engine.name("pv_benefits") == pytest.approx(result.pv_benefits, rel=1e-12)
    assert engine.name("pv_credits") == pytest.approx(result.pv_credits, rel=1e-12)
    assert bool(engine.name("passes")) is result.passes
    assert bool(engine.cell("Checks", "B6")) is result.check("71(a)(5)")  # row 6: the fifth check


@pytest.mark.slow
@pytest.mark.parametrize("stem", STEMS)
def test_the_ratio_follows_the_discount_rate_cell(stem, results, workbooks, tmp_path):
    scenario = results[stem].scenario
    rate = round(scenario.discount_rate + RATE_CHANGE, 6)
    changed = set_named_cell(workbooks[stem], "discount_rate", rate, tmp_path / f"{stem}_changed.xlsx")
    expected = netbenefit.evaluate(scenario.replace(discount_rate=rate))
    engine = Recomputed(changed)
    assert abs(engine.name("ratio") - expected.ratio) <= RATIO_TOLERANCE
    assert abs(engine.name("ratio") - results[stem].ratio) > 0.01  # the rate moved the ratio
    assert bool(engine.name("passes")) is expected.passes
    assert bool(engine.cell("Checks", "B6")) is expected.check("71(a)(5)")


@pytest.mark.slow
def test_the_ratio_follows_the_timing_cell(results, workbooks, tmp_path):
    scenario = results["party_city"].scenario
    changed = set_named_cell(workbooks["party_city"], "timing", "mid_year", tmp_path / "mid.xlsx")
    expected = netbenefit.evaluate(scenario.replace(timing="mid_year"))
    assert abs(Recomputed(changed).name("ratio") - expected.ratio) <= RATIO_TOLERANCE


@pytest.mark.slow
@pytest.mark.parametrize("stem", ["phased_campus", "extended_commitment"])
def test_each_year_recomputes_to_the_cash_flow_table(stem, results, workbooks, recomputed):
    """Weights of each phase (fractional final years, phases starting later), discount factors,
    counted net benefits and present values, year by year."""
    result, engine = results[stem], recomputed[stem]
    sheet = openpyxl.load_workbook(workbooks[stem])["Cash flows"]
    columns = _columns(sheet)
    phased = len(result.phase_tests) > 1
    wanted = {
        "Counted net benefits [USD]": "counted_net_benefits",
        "Discount factor": "discount_factor",
        "PV of counted net benefits [USD]": "pv_net_benefits",
        "PV of requested credits [USD]": "pv_credits",
        "Cumulative PV of counted net benefits [USD]": "cumulative_pv_net_benefits",
        ("Phase 1: " if phased else "") + "Weight (share of the year in the benefit window)": "weight",
    }
    if phased:
        wanted["Phase 2: Weight (share of the year in the benefit window)"] = "weight_phase_2"
    for header, column in wanted.items():
        expected = result.cashflows[column].to_numpy()
        got = [engine.cell("Cash flows", f"{columns[header]}{row}") for row in range(2, 2 + len(expected))]
        assert got == pytest.approx(list(expected), rel=1e-12, abs=1e-6), header
    weights = list(result.cashflows["weight_phase_2" if phased else "weight"])
    assert any(0 < w < 1 for w in weights)  # a fractional final year (10.5-year commitment)


@pytest.mark.slow
def test_the_phase_tests_recompute_to_the_results(results, workbooks, recomputed):
    result, engine = results["phased_campus"], recomputed["phased_campus"]
    for row, test in enumerate(result.phase_tests.itertuples(index=False), start=2):
        assert engine.cell("Phase tests", f"B{row}") == pytest.approx(test.pv_benefits, rel=1e-12)
        assert engine.cell("Phase tests", f"C{row}") == pytest.approx(test.pv_credits, rel=1e-12)
        assert abs(engine.cell("Phase tests", f"D{row}") - test.ratio) <= RATIO_TOLERANCE
        assert bool(engine.cell("Phase tests", f"F{row}")) is bool(test.passes)
    assert [bool(p) for p in result.phase_tests["passes"]] == [True, False]


@pytest.mark.slow
def test_a_comparison_workbook_names_each_scenario_by_number(results, tmp_path):
    ordered = [results[stem] for stem in ("party_city", "phased_campus")]
    path = Comparison(tuple(ordered)).to_excel(tmp_path / "comparison.xlsx")
    workbook = openpyxl.load_workbook(path)
    assert workbook.sheetnames[:5] == ["Summary", "Inputs", "Inputs by year", "party_city", "phased_campus"]
    for suffix in ("_1", "_2"):
        for name in ("discount_rate", "timing", "ratio", "pv_benefits", "pv_credits", "threshold", "passes"):
            assert name + suffix in workbook.defined_names
    assert "ratio" not in workbook.defined_names
    summary = workbook["Summary"]
    ratio_column = _columns(summary)["Net benefit ratio"]
    assert summary[f"{ratio_column}2"].value == "=ratio_1"
    engine = Recomputed(path)
    for k, result in enumerate(ordered, start=1):
        assert abs(engine.name(f"ratio_{k}") - result.ratio) <= RATIO_TOLERANCE
    changed = set_named_cell(path, "discount_rate_2", 0.03, tmp_path / "changed.xlsx")
    engine = Recomputed(changed)
    assert abs(engine.name("ratio_1") - ordered[0].ratio) <= RATIO_TOLERANCE  # scenario 1 unchanged
    expected = netbenefit.evaluate(ordered[1].scenario.replace(discount_rate=0.03))
    assert abs(engine.name("ratio_2") - expected.ratio) <= RATIO_TOLERANCE
    eligible = _columns(summary)["Eligible"]
    # 71(a)(5) and the checks that are formulas of the input cells (71(a)(1), (a)(2), (d)), and the others' values
    formula = summary[f"{eligible}3"].value
    assert formula.startswith("=AND(passes_2,'phased_campus'!$E$") and formula.endswith(",TRUE)")
    assert formula.count("'phased_campus'!") == 3
    assert bool(engine.cell("Summary", f"{eligible}3")) is expected.eligible


# -- what is a value and what is a formula --------------------------------------------------------


@pytest.mark.slow
def test_the_amounts_are_formulas_of_the_named_inputs(results, workbooks):
    result = results["party_city"]
    workbook = openpyxl.load_workbook(workbooks["party_city"])
    assert workbook.sheetnames == [
        "Inputs",
        "Inputs by year",
        "Cash flows",
        "Phase tests",
        "Checks",
        "Benefits by tax",
        "Clawback schedule",
        "Warnings",
        "Round trip",
    ]
    sheet = workbook["Cash flows"]
    columns = _columns(sheet)
    stream = sheet[f"{columns['published net benefit [USD]']}2"].value  # an explicit stream, by year
    assert stream.startswith("=") and "INDEX(streams_0_by_year," in stream
    assert "award_annual_credit" in sheet[f"{columns['Requested credits [USD]']}2"].value
    assert "jobs_new" in sheet[f"{columns['New full-time jobs']}2"].value
    assert "jobs_median_salary" in sheet[f"{columns['Median salary [USD]']}2"].value
    factor = sheet[f"{columns['Discount factor']}3"].value
    assert factor.startswith("=") and "discount_rate" in factor and "timing" in factor
    for header in ("Counted net benefits [USD]", "PV of counted net benefits [USD]", "PV of requested credits [USD]"):
        assert sheet[f"{columns[header]}2"].value.startswith("=")
    assert str(sheet[f"{columns['Weight (share of the year in the benefit window)']}2"].value).startswith("=IF(")
    ((target_sheet, cell),) = list(workbook.defined_names["discount_rate"].destinations)
    assert target_sheet == "Inputs" and workbook["Inputs"][cell.replace("$", "")].value == result.discount_rate
    assert workbook["Inputs"][cell.replace("$", "")].number_format == "0.00%"
    assert sheet.freeze_panes == "B2" and workbook["Inputs"].freeze_panes == "D2"
    assert sheet[f"{columns['PV of counted net benefits [USD]']}2"].number_format == '"$"#,##0'
    assert sheet[f"{columns['Discount factor']}2"].number_format == "0.000000"


@pytest.mark.slow
def test_the_inputs_sheet_holds_every_input(results, workbooks):
    result = results["phased_campus"]
    sheet = openpyxl.load_workbook(workbooks["phased_campus"])["Inputs"]
    rows = {row[1].value: row for row in sheet.iter_rows(min_row=2)}
    # every scalar input a row; a list by year (capital investment, ramp, a stream's amounts) one
    # row pointing to its named row on the Inputs by year sheet
    expected = [(key, value, given) for key, value, given in input_rows(result.scenario) if not BY_YEAR_ITEM.match(key)]
    lists = {"capital_investment", "jobs.ramp", "phases.0.capital_investment", "phases.0.jobs.ramp"}
    assert len(expected) > 60 and set(rows) == {key for key, _, _ in expected} | lists
    assert rows["phases.0.capital_investment"][3].value.endswith("(phases_0_capital_investment_by_year)")
    # A multiplier another value stands for (a table row, the earnings multiplier for the
    # construction one) is marked "applied" (netbenefit.model.disclosures); the construction one not
    # given apart is the earnings multiplier's cell, by formula.
    applied = {f"revenue.{m.name}": m for m in applied_multipliers(result.scenario) if not m.is_the_key}
    assert set(applied) == {"revenue.construction_earnings_multiplier"}
    for key, value, given in expected:
        cell = rows[key][3].value
        if key in applied:
            assert (cell, rows[key][4].value) == ("=revenue_earnings_multiplier", "applied"), key
            continue
        if isinstance(value, float | int) and not isinstance(value, bool):
            assert cell == value, key
        assert rows[key][4].value == ("yes" if given else "default"), key
    assert rows["phases.0.commitment.period_years"][3].value == 10.5
    assert rows["phases.0.commitment.period_years"][0].value == "Phase 2: Commitment period"
    assert rows["discount_rate"][2].value == "% a year"  # the label table's unit as people write it


@pytest.mark.slow
def test_abated_streams_are_shown_but_not_counted(tmp_path):
    result = netbenefit.evaluate(SCENARIOS / "imported_streams_csv.yaml")
    assert result.excluded_streams
    path = result.to_excel(tmp_path / "abated.xlsx")
    sheet = openpyxl.load_workbook(path)["Cash flows"]
    columns = _columns(sheet)
    abated = [h for h in columns if "abated: not counted" in h]
    assert abated
    net = sheet[f"{columns['Net benefits of the counted streams [USD]']}2"].value
    assert all(f"{columns[h]}2" not in net.split("+") and f"{columns[h]}2" not in net for h in abated)
    assert abs(Recomputed(path).name("ratio") - result.ratio) <= RATIO_TOLERANCE


# -- user text never becomes a formula ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+2", "'+1+2"),
        ("-3", "'-3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("a\x07b\x00c", "a\\x07b\\x00c"),  # written as escapes (netbenefit.io.safe_text.cell)
        ("Office HQ = 4", "Office HQ = 4"),
    ],
)
def test_cell_text_neutralises_formulas_and_control_characters(text, written):
    assert cell_text(text) == written


@pytest.mark.slow
def test_no_user_text_reaches_a_cell_as_a_formula(tmp_path):
    scenario = netbenefit.load_scenario(SCENARIOS / "imported_streams_csv.yaml")
    data = scenario.to_dict()
    data["name"] = "=1+2"
    data["description"] = "@cmd|' /C calc'!A0"
    data["streams"][0]["name"] = "-2+3"  # (a control character in a name is refused at load)
    result = netbenefit.evaluate(netbenefit.Scenario.from_dict(data, base_dir=SCENARIOS))
    workbook = openpyxl.load_workbook(result.to_excel(tmp_path / "hostile.xlsx"))
    texts = []
    for sheet in workbook:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    assert "cmd" not in cell.value and "1+2" not in cell.value and "2+3" not in cell.value
                elif isinstance(cell.value, str):
                    texts.append(cell.value)
    assert "'=1+2" in texts and "'@cmd|' /C calc'!A0" in texts
    assert any(t.startswith("'-2+3") for t in texts)


# -- the same files as the command line -----------------------------------------------------------


def _cells(path: Path) -> dict:
    workbook = openpyxl.load_workbook(path)
    names = {name: value.attr_text for name, value in workbook.defined_names.items()}
    return {
        "names": names,
        "sheets": {s.title: [[c.value for c in row] for row in s.iter_rows()] for s in workbook},
    }


@pytest.mark.slow
def test_comparison_to_excel_writes_what_compare_writes(results, tmp_path):
    files = [SCENARIOS / f"{stem}.yaml" for stem in ("party_city", "phased_campus")]
    assert main(["compare", *map(str, files), "--out", str(tmp_path / "cli")]) == EXIT_OK
    path = Comparison.of(files).to_excel(tmp_path / "api.xlsx")
    assert _cells(path) == _cells(tmp_path / "cli" / "comparison.xlsx")


@pytest.mark.slow
def test_result_to_html_writes_what_report_writes(results, tmp_path):
    path = SCENARIOS / "party_city.yaml"
    assert main(["report", str(path), "--out", str(tmp_path / "cli.html")]) == EXIT_OK
    written = results["party_city"].to_html(tmp_path / "api.html")
    assert written == tmp_path / "api.html"
    assert written.read_text(encoding="utf-8") == (tmp_path / "cli.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_comparison_to_html_is_one_self_contained_page(results, tmp_path):
    comparison = Comparison(tuple(results.values()))
    page = comparison.to_html(tmp_path / "comparison.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "http" not in page.split("<body")[1]
    for result in results.values():
        assert f"<h2>{result.name}</h2>" in page


@pytest.mark.slow
@pytest.mark.parametrize("writer", ["result_excel", "result_html", "comparison_excel", "comparison_html", "yaml"])
def test_a_file_that_cannot_be_written_raises_oserror_naming_it(writer, results, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder", encoding="utf-8")
    target = blocker / "out.file"  # its folder is a file
    result = results["party_city"]
    write = {
        "result_excel": result.to_excel,
        "result_html": result.to_html,
        "comparison_excel": Comparison((result,)).to_excel,
        "comparison_html": Comparison((result,)).to_html,
        "yaml": result.scenario.to_yaml,
    }[writer]
    with pytest.raises(OSError) as raised:
        write(target)
    assert raised.value.filename == str(target) and str(target) in str(raised.value)
    assert blocker.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.slow
def test_a_folder_in_the_way_is_refused_naming_it(results, tmp_path):
    with pytest.raises(OSError) as raised:
        results["party_city"].to_excel(tmp_path)
    assert raised.value.filename == str(tmp_path)


@pytest.mark.slow
def test_formats_are_finite(recomputed):
    """Every recomputed name is a finite number (no #VALUE! or #NAME? from an engine)."""
    for engine in recomputed.values():
        for name in ("ratio", "pv_benefits", "pv_credits"):
            assert math.isfinite(engine.name(name))


@pytest.mark.slow
def test_benefits_by_tax_clawback_and_warnings_sheets(results, tmp_path):
    import dataclasses

    import pandas as pd

    result = dataclasses.replace(
        results["party_city"],
        benefits_by_tax=pd.DataFrame(
            {"tax": ["gross_income_tax", "other"], "nominal": [1.0e6, 2.0e5], "pv": [8.0e5, 1.5e5]}
        ),
        clawback_schedule=pd.DataFrame(
            {
                "years_maintained": [0, 1],
                "credits_received": [1.0e6, 2.0e6],
                "recapture": [1.0e6, 5.0e5],
                "extension_repayment": [0.0, 0.0],
                "total": [1.0e6, 5.0e5],
                "pv_total": [9.0e5, 4.0e5],
            }
        ),
        warnings=("=discount_rate: 6 is above 0.25: did you mean 0.06?",),
    )
    workbook = openpyxl.load_workbook(result.to_excel(tmp_path / "all.xlsx"))
    assert workbook.sheetnames == [
        "Inputs",
        "Inputs by year",
        "Cash flows",
        "Phase tests",
        "Checks",
        "Benefits by tax",
        "Clawback schedule",
        "Warnings",
        "Round trip",
    ]
    by_tax = workbook["Benefits by tax"]
    assert [c.value for c in by_tax[1]] == ["Tax", "Counted benefits, nominal [USD]", "Counted benefits, PV [USD]"]
    # formulas of the cash-flow sheet: party_city has no income tax stream, its published one is "other"
    assert by_tax["C2"].value == "=0" and by_tax["C2"].number_format == '"$"#,##0'
    assert by_tax["C3"].value.startswith("=SUMPRODUCT('Cash flows'!$")
    clawback = workbook["Clawback schedule"]
    assert clawback["A1"].value == "Years maintained" and clawback["F3"].value == 4.0e5
    assert clawback.freeze_panes == "A2"
    assert workbook["Warnings"]["A2"].value == "'=discount_rate: 6 is above 0.25: did you mean 0.06?"


def test_the_formulas_are_written_as_xlsxwriter_itself_prepares_them(results):
    """The shortcut past XlsxWriter's renaming of newer Excel functions changes no formula written."""
    from xlsxwriter.worksheet import Worksheet

    from netbenefit.io.writing import file_stems
    from netbenefit.views.workbook import FORMULA_FUNCTIONS, build_workbook, worksheet_class

    results = list(results.values())
    workbook = build_workbook(results, comparison=True, sheet_stems=file_stems(results))
    formulas = [cell.value for sheet in workbook.sheets.values() for cell in sheet.cells.values() if cell.formula]
    assert len(formulas) > 500
    fast, plain = worksheet_class()(), Worksheet()
    for formula in formulas:
        assert fast._prepare_formula(formula) == plain._prepare_formula(formula), formula
    # A formula with a function XlsxWriter renames goes through XlsxWriter's own preparation.
    assert "XLOOKUP" not in FORMULA_FUNCTIONS
    assert fast._prepare_formula("=XLOOKUP(A1,B1:B9,C1:C9)") == plain._prepare_formula("=XLOOKUP(A1,B1:B9,C1:C9)")
    assert fast._prepare_formula("=XLOOKUP(A1,B1:B9,C1:C9)").startswith("_xlfn.XLOOKUP")
