"""The workbook both ways (docs/workbook.md, "The round trip"): a workbook netbenefit wrote, read back
with ``Scenario.from_excel`` (and ``load_scenario``), is the scenario it was written from; an edit
typed into an input cell comes back through the strict loader, with its errors naming the cell
and the key; a structure changed, a formula typed over, a default edited, each as documented."""

from __future__ import annotations

import warnings
from pathlib import Path

import openpyxl
import pytest
from workbook_engines import set_inputs
from workbook_shapes import SCENARIOS, SHAPES, bundled, shared_drivers

import netbenefit
from netbenefit.errors import ScenarioError
from netbenefit.model.scenario.from_workbook import OverwrittenFormulaWarning
from netbenefit.views.html import Comparison
from netbenefit.views.workbook import input_rows

STEMS = sorted(path.stem for path in SCENARIOS.glob("*.yaml"))


@pytest.fixture(scope="module")
def office(tmp_path_factory) -> Path:
    """The workbook of the bundled office, written once for the edits of this module."""
    return written(bundled("office_hq_default_area"), tmp_path_factory.mktemp("office"))


def written(scenario, folder: Path, name: str = "book") -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (a bundled scenario's plausibility warnings)
        return netbenefit.evaluate(scenario).to_excel(folder / f"{name}.xlsx")


def read(path: Path, **options) -> netbenefit.Scenario:
    with warnings.catch_warnings():
        warnings.simplefilter("error", OverwrittenFormulaWarning)  # none, unless a test says so
        warnings.filterwarnings("ignore", category=netbenefit.PlausibilityWarning)
        return netbenefit.Scenario.from_excel(path, **options)


def given_marks(scenario) -> list[tuple[str, bool]]:
    """Whether the scenario gave each key (a stream's from_csv aside: read back, its amounts are inline)."""
    return [(key, given) for key, _, given in input_rows(scenario) if not key.endswith(".from_csv")]


@pytest.mark.slow
@pytest.mark.parametrize("stem", STEMS)
def test_every_bundled_scenario_comes_back_from_its_workbook(stem, tmp_path):
    scenario = bundled(stem)
    path = written(scenario, tmp_path)
    back = read(path)
    assert back.to_dict() == scenario.to_dict()  # streams read from CSV are inline in both
    assert back == scenario and back.source == str(path)
    assert given_marks(back) == given_marks(scenario)  # a default stays a default
    assert netbenefit.load_scenario(path).to_dict() == scenario.to_dict()  # the loader of every command


@pytest.mark.slow
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_shape_of_an_application_comes_back(shape, tmp_path):
    scenario = SHAPES[shape]()
    back = read(written(scenario, tmp_path))
    assert back.to_dict() == scenario.to_dict()
    assert given_marks(back) == given_marks(scenario)
    before, after = netbenefit.evaluate(scenario), netbenefit.evaluate(back)
    assert (after.ratio, after.pv_benefits, after.pv_credits, after.passes) == (
        before.ratio,
        before.pv_benefits,
        before.pv_credits,
        before.passes,
    )


def test_the_csv_a_stream_was_read_from_is_recorded(tmp_path):
    scenario = bundled("imported_streams_csv")
    path = written(scenario, tmp_path)
    inputs = openpyxl.load_workbook(path)["Inputs"]
    recorded = {row[1].value: row[3].value for row in inputs.iter_rows(min_row=2)}
    assert recorded["streams.0.from_csv"] == scenario.streams[0].from_csv == "data/implan_state_taxes.csv"
    back = read(path)
    assert dict(back.streams[0].by_year) == dict(scenario.streams[0].by_year)


@pytest.mark.slow
def test_a_comparison_workbook_is_read_scenario_by_scenario(tmp_path):
    files = [SCENARIOS / "party_city.yaml", SCENARIOS / "life_sciences_phased.yaml"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = Comparison.of(files)
        path = comparison.to_excel(tmp_path / "comparison.xlsx")
    for k, result in enumerate(comparison.results, start=1):
        assert read(path, scenario=k).to_dict() == result.scenario.to_dict()
    with pytest.raises(ScenarioError) as refused:
        read(path)
    assert refused.value.lines == (
        f"{path}: a comparison workbook of 2 scenarios (names suffixed _1 to _2): choose one with --scenario N "
        "on the command line (scenario=N in Python)",
    )
    with pytest.raises(ScenarioError, match="has no scenario 3: it holds 2 scenarios"):
        read(path, scenario=3)
    single = written(bundled("party_city"), tmp_path, "single")
    assert read(single, scenario=1).name == read(single).name
    with pytest.raises(ScenarioError, match="has no scenario 2: it holds one scenario"):
        read(single, scenario=2)


def test_texts_come_back_as_written(tmp_path):
    # a name a spreadsheet would read as a formula, a text starting with the quote that guards one,
    # a description with carriage returns and longer than a cell holds
    scenario = bundled("party_city").replace(
        {
            "name": '=HYPERLINK("x")',
            "description": "'quoted\r\nline two\t" + "x" * 40_000,
            "streams.0.name": "'=tricky",
            "location.region": "north",
            "commitment.recapture": {0: 1.0, 5: 0.5},
            "approval_date": "2027-03-01",
        }
    )
    back = read(written(scenario, tmp_path))
    assert back.to_dict() == scenario.to_dict()


def test_a_default_edited_in_its_cell_is_read_and_others_stay_defaults(office, tmp_path):
    scenario = bundled("office_hq_default_area")
    assert "inflation" not in scenario.as_written and "threshold_override" not in scenario.as_written
    path = set_inputs(office, {"inflation": 0.025}, tmp_path / "edited.xlsx")
    back = read(path)
    assert back.inflation == 0.025 and back.as_written["inflation"] == 0.025
    assert back.to_dict() == scenario.replace({"inflation": 0.025}).to_dict() | {"name": scenario.name}
    assert "threshold_override" not in back.as_written  # still the default


@pytest.mark.parametrize(
    "target, value, problem",
    [
        ("jobs_median_salary", "abc", "Inputs!jobs_median_salary (jobs.median_salary): must be a number (got 'abc')"),
        ("jobs_new", None, "Inputs!jobs_new (jobs.new): must be a number (the cell is empty)"),
        (
            "jobs_nj_withholding_share",
            85,
            "Inputs!jobs_nj_withholding_share (jobs.nj_withholding_share): must be a decimal share: did you mean "
            "0.85? (got 85, above 1)",
        ),
        (
            ("capital_investment_by_year", 2),
            -5,
            "'Inputs by year'!F2 (capital_investment.2): must be greater than or equal to 0 (got -5)",
        ),
        (
            "location_distressed_municipality",
            "yes",
            "Inputs!location_distressed_municipality (location.distressed_municipality): must be true or false "
            "(got 'yes')",
        ),
        ("jobs_new", "=1+1", "Inputs!jobs_new (jobs.new): holds a formula with no value saved"),
    ],
)
def test_a_bad_cell_is_refused_naming_the_cell_and_the_key(target, value, problem, office, tmp_path):
    path = set_inputs(office, {target: value}, tmp_path / "bad.xlsx")
    with pytest.raises(ScenarioError) as refused:
        read(path)
    assert refused.value.lines[0].startswith(f"{path}: {problem}")
    assert len(refused.value.lines) == 1


@pytest.mark.slow
def test_a_plausibility_warning_names_the_cell(office, tmp_path):
    path = set_inputs(office, {"discount_rate": 6}, tmp_path / "e.xlsx")
    with pytest.warns(netbenefit.PlausibilityWarning) as caught:
        result = netbenefit.evaluate(path)
    assert str(caught[0].message).startswith(f"{path}: Inputs!discount_rate (discount_rate): 6 is implausible")
    assert result.warnings == (str(caught[0].message),)


def test_a_value_typed_over_a_formula_is_named_and_ignored(tmp_path):
    scenario = shared_drivers()
    path = written(scenario, tmp_path)
    workbook = openpyxl.load_workbook(path)
    for name, value in (("pv_credits", 5), ("phases_0_jobs_median_salary", 123_456)):  # a later phase's, shared
        ((sheet, cell),) = workbook.defined_names[name].destinations
        workbook[sheet][cell.replace("$", "")] = value
    workbook.save(tmp_path / "typed.xlsx")
    with pytest.warns(OverwrittenFormulaWarning) as caught:
        back = netbenefit.Scenario.from_excel(tmp_path / "typed.xlsx")
    ((_, pv_credits),) = workbook.defined_names["pv_credits"].destinations
    assert str(caught[0].message) == (
        f"{tmp_path / 'typed.xlsx'}: a value is typed over the formula of Inputs!phases_0_jobs_median_salary "
        f"(phases.0.jobs.median_salary), 'Cash flows'!{pv_credits.replace('$', '')} (pv_credits): ignored; the "
        "scenario is rebuilt from the input cells alone, and netbenefit computes every figure from them"
    )
    assert back.to_dict() == scenario.to_dict()


@pytest.mark.slow
def test_a_multiplier_the_table_gives_is_the_table_s_and_the_construction_one_an_input(tmp_path):
    scenario = bundled("industry_multipliers_example")
    path = written(scenario, tmp_path)
    typed = set_inputs(path, {"revenue_earnings_multiplier": 3.0}, tmp_path / "typed.xlsx")
    with pytest.warns(OverwrittenFormulaWarning, match=r"Inputs!revenue_earnings_multiplier"):
        back = netbenefit.Scenario.from_excel(typed)
    assert back.to_dict() == scenario.to_dict()  # the table decides, as netbenefit reads it
    # the table's sheet is read: another row by business.naics, or a multiplier of the sheet edited
    workbook = openpyxl.load_workbook(path)
    sheet = workbook["Multiplier table"]
    row = next(r for r in sheet.iter_rows(min_row=2) if r[0].value == scenario.business.naics)
    row[1].value = 1.99
    workbook.save(tmp_path / "table.xlsx")
    back = read(tmp_path / "table.xlsx")
    assert back.multipliers["earnings_multiplier"] == 1.99
    assert back.replace({"jobs.new": 100}).multipliers["earnings_multiplier"] == 1.99  # held in memory
    assert netbenefit.load_scenario(back.to_yaml(tmp_path / "back.yaml")) == back
    # without a table, the construction multiplier follows the earnings one by formula: a value typed is an input
    typed = set_inputs(
        written(bundled("office_hq_default_area"), tmp_path, "office"),
        {"revenue_construction_earnings_multiplier": 1.4},
        tmp_path / "construction.xlsx",
    )
    assert read(typed).revenue.construction_earnings_multiplier == 1.4


@pytest.mark.slow
def test_a_structure_changed_is_refused_in_one_line(tmp_path):
    path = written(bundled("life_sciences_phased"), tmp_path)

    def refused(change, name: str) -> str:
        workbook = openpyxl.load_workbook(path)
        change(workbook)
        workbook.save(tmp_path / name)
        with pytest.raises(ScenarioError) as error:
            read(tmp_path / name)
        assert len(error.value.lines) == 1
        return error.value.lines[0]

    def deleted(workbook):
        del workbook.defined_names["jobs_new"]

    def widened(workbook):  # a cell inserted into a row by year, as Excel and LibreOffice move its name
        workbook.defined_names["capital_investment_by_year"].attr_text = "'Inputs by year'!$D$2:$Y$2"

    assert refused(deleted, "deleted.xlsx").endswith(
        "Inputs!jobs_new (jobs.new): the named cell is missing (its name, row or sheet was deleted): the "
        "workbook's structure was changed; edit the values of its input cells only, or write the workbook again"
    )
    line = refused(widened, "widened.xlsx")
    assert "'Inputs by year'!capital_investment_by_year (capital_investment): the name refers to" in line
    assert "its structure was changed" in line
    line = refused(lambda w: w["Inputs by year"].insert_cols(6), "column.xlsx")  # a program that moves no name
    assert "column F is not headed Year 2: the sheet's structure was changed" in line
    line = refused(lambda w: w["Inputs"].insert_rows(6), "row.xlsx")
    assert "Inputs!discount_rate (discount_rate): row 6 holds None where the workbook wrote 'discount_rate'" in line
    line = refused(lambda w: w.remove(w["Round trip"]), "record.xlsx")
    assert line.endswith(
        "not a workbook written by netbenefit (only one that netbenefit wrote, as edited, is read "
        "back: Result.to_excel, netbenefit compare): it has no sheet 'Round trip'"
    )


@pytest.mark.slow
def test_the_scenario_read_back_runs_on_a_dask_worker_s_payload(tmp_path):
    from netbenefit.analysis.distributed import payload_of, scenario_of

    back = read(written(bundled("industry_multipliers_example"), tmp_path))
    assert scenario_of(payload_of(back)) == back
