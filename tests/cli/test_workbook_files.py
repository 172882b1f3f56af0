"""Every command that reads a scenario file reads a workbook netbenefit wrote, with the same numbers as
from the scenario file it was written from (docs/workbook.md, "The round trip"): evaluate, compare,
diff, sweep, montecarlo, award, actuals, report, portfolio and a portfolio file's applications;
``--scenario N`` chooses a comparison workbook's scenario, or the command refuses in one line."""

from __future__ import annotations

import csv
import json
import shutil
import warnings
from pathlib import Path

import pytest
import yaml

import netbenefit
from netbenefit.cli import main
from netbenefit.views.html import Comparison

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
OFFICE = SCENARIOS / "office_hq_default_area.yaml"
PHASED = SCENARIOS / "life_sciences_phased.yaml"


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> dict[str, Path]:
    """The office's workbook, and a comparison workbook of the office (1) and the phased campus (2)."""
    folder = tmp_path_factory.mktemp("books")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        office = netbenefit.evaluate(OFFICE).to_excel(folder / "office.xlsx")
        comparison = Comparison.of([OFFICE, PHASED]).to_excel(folder / "comparison.xlsx")
    return {"office": office, "comparison": comparison}


def output(capsys, *arguments) -> str:
    assert main([str(argument) for argument in arguments]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def refused(capsys, *arguments) -> list[str]:
    assert main([str(argument) for argument in arguments]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err.splitlines()


def test_evaluate_reads_a_workbook_as_its_scenario_file(books, capsys):
    assert json.loads(output(capsys, "evaluate", books["office"], "--json")) == json.loads(
        output(capsys, "evaluate", OFFICE, "--json")
    )
    phased = json.loads(output(capsys, "evaluate", books["comparison"], "--scenario", "2", "--json"))
    assert phased == json.loads(output(capsys, "evaluate", PHASED, "--json"))
    assert output(capsys, "award", books["office"]) == output(capsys, "award", OFFICE)


@pytest.mark.slow
def test_compare_and_diff_read_workbooks(books, capsys, tmp_path):
    output(
        capsys,
        "compare",
        books["comparison"],
        books["office"],
        "--scenario",
        "2",
        "--scenario",
        "1",
        "--out",
        tmp_path / "a",
        "--charts",
        "none",
    )
    output(capsys, "compare", PHASED, OFFICE, "--out", tmp_path / "b", "--charts", "none")

    def rows(folder: Path) -> list[dict]:
        with (folder / "summary.csv").open(encoding="utf-8") as handle:
            return [{k: v for k, v in row.items() if k != "scenario"} for row in csv.DictReader(handle)]

    assert rows(tmp_path / "a") == rows(tmp_path / "b")
    from_books = json.loads(
        output(capsys, "diff", books["comparison"], books["comparison"], "--scenario", "1", "--scenario", "2", "--json")
    )
    assert from_books == json.loads(output(capsys, "diff", OFFICE, PHASED, "--json"))


def test_sweep_and_montecarlo_read_a_workbook(books, capsys):
    sweep = ("sweep", "--set", "jobs.new=200,300")
    assert output(capsys, *sweep[:1], books["office"], *sweep[1:]) == output(capsys, *sweep[:1], OFFICE, *sweep[1:])
    draws = ("--vary", "jobs.new=normal(260,20)", "--draws", "500", "--seed", "7")
    assert output(capsys, "montecarlo", books["office"], *draws) == output(capsys, "montecarlo", OFFICE, *draws)


@pytest.mark.slow
def test_actuals_and_report_read_a_workbook(books, capsys, tmp_path):
    actuals = SCENARIOS / "actuals" / "office_hq_actuals.yaml"
    assert json.loads(output(capsys, "actuals", books["office"], actuals, "--json")) == json.loads(
        output(capsys, "actuals", OFFICE, actuals, "--json")
    )
    first = output(capsys, "report", books["office"], "--out", tmp_path / "book.html")
    second = output(capsys, "report", OFFICE, "--out", tmp_path / "file.html")
    assert first.splitlines()[0] == second.splitlines()[0]  # the verdict line


@pytest.mark.slow
def test_portfolio_reads_workbooks_and_a_portfolio_file_lists_them(books, capsys, tmp_path):
    output(capsys, "portfolio", books["office"], "--out", tmp_path / "a", "--charts", "none")
    output(capsys, "portfolio", OFFICE, "--out", tmp_path / "b", "--charts", "none")

    def table(folder: Path, name: str) -> list[dict]:
        with (folder / name).open(encoding="utf-8") as handle:
            return [{k: v for k, v in row.items() if k != "source"} for row in csv.DictReader(handle)]

    assert table(tmp_path / "a", "fiscal_years.csv") == table(tmp_path / "b", "fiscal_years.csv")
    assert table(tmp_path / "a", "applications.csv") == table(tmp_path / "b", "applications.csv")
    folder = tmp_path / "files"
    folder.mkdir()
    shutil.copy(books["comparison"], folder / "comparison.xlsx")
    shutil.copy(PHASED, folder / "phased.yaml")
    base = {"draws": 200, "seed": 3, "macro": {"discount_rate": ["uniform", 0.05, 0.07]}}
    vary = {"jobs.new": ["normal", 150, 10]}
    (folder / "book.yml").write_text(
        yaml.safe_dump({**base, "applications": [{"file": "comparison.xlsx", "scenario": 2, "vary": vary}]})
    )
    (folder / "file.yml").write_text(yaml.safe_dump({**base, "applications": [{"file": "phased.yaml", "vary": vary}]}))
    output(capsys, "portfolio", "--montecarlo", folder / "book.yml", "--out", tmp_path / "c", "--charts", "none")
    output(capsys, "portfolio", "--montecarlo", folder / "file.yml", "--out", tmp_path / "d", "--charts", "none")
    assert table(tmp_path / "c", "montecarlo_fiscal_years.csv") == table(tmp_path / "d", "montecarlo_fiscal_years.csv")
    (folder / "bad.yml").write_text(yaml.safe_dump({**base, "applications": [{"file": "phased.yaml", "scenario": 2}]}))
    assert refused(capsys, "portfolio", "--montecarlo", folder / "bad.yml", "--out", tmp_path / "e") == [
        f"netbenefit: {folder / 'bad.yml'}: applications.0.scenario: chooses a scenario of a workbook (.xlsx): "
        "phased.yaml is not one"
    ]
    (folder / "none.yml").write_text(yaml.safe_dump({**base, "applications": [{"file": "comparison.xlsx"}]}))
    assert refused(capsys, "portfolio", "--montecarlo", folder / "none.yml", "--out", tmp_path / "f")[0].endswith(
        "a comparison workbook of 2 scenarios (names suffixed _1 to _2): choose one with --scenario N on the "
        "command line (scenario=N in Python)"
    )


def test_scenario_chooses_among_workbooks_or_is_refused_in_one_line(books, capsys):
    comparison = books["comparison"]
    assert refused(capsys, "evaluate", comparison) == [
        f"netbenefit: {comparison}: a comparison workbook of 2 scenarios (names suffixed _1 to _2): choose one "
        "with --scenario N on the command line (scenario=N in Python)"
    ]
    assert refused(capsys, "evaluate", comparison, "--scenario", "3") == [
        f"netbenefit: {comparison}: has no scenario 3: it holds 2 scenarios (1 to 2)"
    ]
    assert refused(capsys, "evaluate", OFFICE, "--scenario", "1") == [
        "netbenefit: --scenario: chooses a scenario of a workbook (.xlsx): no workbook among the files"
    ]
    assert refused(capsys, "diff", comparison, comparison, "--scenario", "1", "--scenario", "2", "--scenario", "1") == [
        "netbenefit: --scenario: given 3 times for 2 workbooks: give it once for every workbook, or once per "
        "workbook in the order of the files"
    ]
    with pytest.raises(SystemExit) as stopped:  # (an option's value: refused by the parser)
        main(["evaluate", str(comparison), "--scenario", "0"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err == ("netbenefit: argument --scenario: '0': the number of a scenario, 1 or more\n")
