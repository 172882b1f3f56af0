"""The environment and the arguments of every writer and Python entry point, checked in one place
(:mod:`netbenefit.io.arguments`): a path with a NUL or a lone surrogate, a path that is not text, a
file whose folder is missing, a date that is not exactly YYYY-MM-DD, a count that is not a whole
number, a mapping of any Mapping type, each a ScenarioError naming the function and the argument,
in one line, before any work (nothing written, no folder made); an empty SOURCE_DATE_EPOCH crashes
neither the command line nor ``to_pdf``, and a bad one is refused in one line."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit import ScenarioError, cli
from netbenefit.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
PARTY = SCENARIOS / "party_city.yaml"


@pytest.fixture(scope="module")
def scenario():
    return netbenefit.load_scenario(PARTY)


@pytest.fixture(scope="module")
def objects(scenario):
    result = netbenefit.evaluate(scenario)
    return {
        "result": result,
        "comparison": netbenefit.Comparison((result,)),
        "diff": netbenefit.diff(scenario, scenario.replace({"jobs.new": 300})),
        "portfolio": netbenefit.portfolio([PARTY]),
        "scenario": scenario,
    }


#: Every writer of the Python API: (object, method, suffix).
WRITERS = {
    "Result.to_excel": ("result", "to_excel", ".xlsx"),
    "Result.to_html": ("result", "to_html", ".html"),
    "Result.to_pdf": ("result", "to_pdf", ".pdf"),
    "Comparison.to_excel": ("comparison", "to_excel", ".xlsx"),
    "Comparison.to_html": ("comparison", "to_html", ".html"),
    "Comparison.to_pdf": ("comparison", "to_pdf", ".pdf"),
    "Diff.to_pdf": ("diff", "to_pdf", ".pdf"),
    "Portfolio.to_excel": ("portfolio", "to_excel", ".xlsx"),
    "Portfolio.to_html": ("portfolio", "to_html", ".html"),
    "Scenario.to_yaml": ("scenario", "to_yaml", ".yaml"),
}
BAD_PATHS = {
    "a NUL": (lambda folder, suffix: f"{folder}/a\x00b{suffix}", "must not hold a NUL character"),
    "a lone surrogate": (lambda folder, suffix: f"{folder}/a\ud800b{suffix}", "must not hold a lone surrogate"),
    "a number": (lambda folder, suffix: 5, "give the path of a file"),
    "bytes": (lambda folder, suffix: f"{folder}/x{suffix}".encode(), "give the path of a file"),
    "empty text": (lambda folder, suffix: "", "not empty text"),
}
#: Paths a file can have, where no file can be written: an OSError naming the file, as pandas' writers raise.
UNWRITABLE = {
    "a missing folder": (lambda folder, suffix: folder / "missing" / "deeper" / f"x{suffix}", FileNotFoundError),
    "a file as the folder": (lambda folder, suffix: folder / "file.txt" / f"x{suffix}", NotADirectoryError),
    "a folder": (lambda folder, suffix: folder, IsADirectoryError),
}


@pytest.mark.parametrize("bad", list(BAD_PATHS))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_every_writer_refuses_a_bad_path_naming_it_and_writes_nothing(tmp_path, objects, writer, bad):
    # Was: Diff.to_pdf("a\x00b.pdf") raised `embedded null byte` from tempfile; a lone surrogate a
    # UnicodeEncodeError; a number a TypeError.
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    owner, method, suffix = WRITERS[writer]
    make, words = BAD_PATHS[bad]
    with pytest.raises(ScenarioError) as caught:
        getattr(objects[owner], method)(make(tmp_path, suffix))
    error = caught.value
    assert error.source == method and error.key == "path" and words in error.problem, str(error)
    assert "\n" not in str(error)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


@pytest.mark.parametrize("bad", list(UNWRITABLE))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_every_writer_refuses_a_file_whose_folder_is_missing_and_makes_none(tmp_path, objects, writer, bad):
    # Was: to_pdf and to_excel made the missing folders (pandas' writers refuse them).
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    owner, method, suffix = WRITERS[writer]
    make, kind = UNWRITABLE[bad]
    target = make(tmp_path, suffix)
    with pytest.raises(kind) as caught:
        getattr(objects[owner], method)(target)
    assert caught.value.filename == str(target) and "\n" not in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


@pytest.mark.parametrize("writer", ["Result.to_excel", "Diff.to_pdf", "Scenario.to_yaml", "Portfolio.to_html"])
@pytest.mark.slow
def test_a_writer_still_writes_into_a_folder_that_exists(tmp_path, objects, writer):
    owner, method, suffix = WRITERS[writer]
    written = getattr(objects[owner], method)(tmp_path / f"out{suffix}")
    assert Path(written).stat().st_size > 0


DATES = ["2026-13-01", "20260310", "2026-W10-1", "2026-3-10", " 2026-03-10", 20260310, 2026.0, ["2026-03-10"]]


@pytest.mark.parametrize("date", DATES, ids=[repr(d) for d in DATES])
@pytest.mark.parametrize("writer", ["Result.to_pdf", "Comparison.to_pdf", "Diff.to_pdf"])
def test_a_date_that_is_not_exactly_yyyy_mm_dd_is_refused_by_every_memo(tmp_path, objects, writer, date):
    # Was: Result.to_pdf(date="2026-13-01") raised a plain ValueError; "20260310" and "2026-W10-1"
    # were read by date.fromisoformat.
    owner, method, suffix = WRITERS[writer]
    with pytest.raises(ScenarioError) as caught:
        getattr(objects[owner], method)(tmp_path / f"m{suffix}", date=date)
    assert (caught.value.source, caught.value.key) == ("to_pdf", "date")
    assert "give a date as YYYY-MM-DD" in caught.value.problem
    assert list(tmp_path.iterdir()) == []


def test_a_date_is_taken_as_a_date_a_datetime_or_yyyy_mm_dd():
    from netbenefit.views.html.memo import memo_date

    assert memo_date("2026-03-10") == memo_date(dt.date(2026, 3, 10)) == memo_date(dt.datetime(2026, 3, 10, 9))


MEMO_OPTIONS = {
    "draws='5'": ({"draws": "5"}, "draws"),
    "draws=0": ({"draws": 0}, "draws"),
    "draws=2.0": ({"draws": 2.0}, "draws"),
    "draws=True": ({"draws": True}, "draws"),
    "seed=-1": ({"seed": -1}, "seed"),
    "seed='x'": ({"seed": "x"}, "seed"),
    "preparer=5": ({"preparer": 5}, "preparer"),
    "preparer with a line break": ({"preparer": "A\nB"}, "preparer"),
    "appendix='yes'": ({"appendix": "yes"}, "appendix"),
    "sensitivity=1": ({"sensitivity": 1}, "sensitivity"),
    "montecarlo=[]": ({"montecarlo": []}, "montecarlo"),
    "paper='a5'": ({"paper": "a5"}, "paper"),
    "an unknown option": ({"pages": 3}, "pages"),
}


@pytest.mark.parametrize("case", list(MEMO_OPTIONS))
def test_every_memo_option_is_checked_naming_it(tmp_path, objects, case):
    options, key = MEMO_OPTIONS[case]
    with pytest.raises(ScenarioError) as caught:
        objects["result"].to_pdf(tmp_path / "m.pdf", **options)
    assert (caught.value.source, caught.value.key) == ("to_pdf", key) and "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_diff_memo_takes_only_its_own_options(tmp_path, objects):
    with pytest.raises(ScenarioError) as caught:
        objects["diff"].to_pdf(tmp_path / "d.pdf", sensitivity=True)
    assert caught.value.key == "sensitivity" and "date, preparer, paper" in caught.value.problem


def _entry_points(scenario):
    vary = {"jobs.new": ("uniform", 100, 200)}
    return {
        "explore count='6'": (lambda: netbenefit.explore(scenario, count="6"), "explore", "count"),
        "explore count=0": (lambda: netbenefit.explore(scenario, count=0), "explore", "count"),
        "explore count=True": (lambda: netbenefit.explore(scenario, count=True), "explore", "count"),
        "explore keys=5": (lambda: netbenefit.explore(scenario, keys=5), "explore", "keys"),
        "load_scenario(5)": (lambda: netbenefit.load_scenario(5), "load_scenario", "path"),
        "evaluate(5)": (lambda: netbenefit.evaluate(5), "load_scenario", "path"),
        "load_actuals(5)": (lambda: netbenefit.load_actuals(5), "load_actuals", "path"),
        "Scenario.from_excel(5)": (lambda: Scenario.from_excel(5), "Scenario.from_excel", "path"),
        "follow(actuals=5)": (lambda: netbenefit.follow(scenario, 5), "load_actuals", "path"),
        "compare(5)": (lambda: netbenefit.compare(5), "compare", "items"),
        "compare(methods=5)": (lambda: netbenefit.compare([scenario], methods=5), "compare", "methods"),
        "Comparison.of(5)": (lambda: netbenefit.Comparison.of(5), "Comparison.of", "items"),
        "Scenario.replace([1])": (lambda: scenario.replace([1]), "Scenario.replace", "changes"),
        "Scenario.from_dict(base_dir=NUL)": (
            lambda: Scenario.from_dict(scenario.to_dict(), base_dir="a\x00"), "Scenario.from_dict", "base_dir",
        ),
        "sweep grid=[1]": (lambda: netbenefit.sweep(scenario, [1]), "sweep", "grid"),
        "sweep chunk_size='5'": (lambda: netbenefit.sweep(scenario, {}, chunk_size="5"), "sweep", "chunk_size"),
        "montecarlo vary=[1]": (lambda: netbenefit.montecarlo(scenario, draws=5, vary=[1]), "montecarlo", "vary"),
        "sensitivity ranges=5": (lambda: netbenefit.sensitivity(scenario, 5), "sensitivity", "ranges"),
        "sensitivity relative='x'": (
            lambda: netbenefit.sensitivity(scenario, {"jobs.new": None}, relative="x"), "sensitivity", "relative",
        ),
        "evaluate_variants values=5": (
            lambda: netbenefit.evaluate_variants(scenario, 5), "evaluate_variants", "values",
        ),
        "cumulative_pv_bands vary=[1]": (
            lambda: netbenefit.cumulative_pv_bands(scenario, [1]), "cumulative_pv_bands", "vary",
        ),
        "min_new_jobs max_jobs='5'": (
            lambda: netbenefit.min_new_jobs(scenario, max_jobs="5"), "min_new_jobs", "max_jobs",
        ),
        "break_even_discount_rate low='x'": (
            lambda: netbenefit.break_even_discount_rate(scenario, low="x"), "break_even_discount_rate", "low",
        ),
        "implied_discount_rate years=7.5": (
            lambda: netbenefit.implied_discount_rate(1e6, 7.5, 5e6), "implied_discount_rate", "years",
        ),
        "award_table location=5": (
            lambda: netbenefit.award_table(location=5, new_jobs=10, eligibility_period_years=7), "award_table",
            "location",
        ),
        "award_table eligibility_period_years='7'": (
            lambda: netbenefit.award_table(location={}, new_jobs=10, eligibility_period_years="7"), "award_table",
            "eligibility_period_years",
        ),
        "montecarlo chunk_size='5'": (
            lambda: netbenefit.montecarlo(scenario, draws=5, vary=vary, chunk_size="5"), "montecarlo", "chunk_size",
        ),
        "montecarlo draws=2.0": (lambda: netbenefit.montecarlo(scenario, draws=2.0, vary=vary), "montecarlo", "draws"),
        "portfolio_montecarlo draws='5'": (
            lambda: netbenefit.portfolio_montecarlo(SCENARIOS / "portfolio" / "montecarlo.yml", draws="5"),
            "portfolio_montecarlo", "draws",
        ),
    }


ENTRY_POINTS = list(_entry_points(None))


@pytest.mark.parametrize("case", ENTRY_POINTS)
def test_every_entry_point_names_the_argument_it_refuses(scenario, case):
    call, function, argument = _entry_points(scenario)[case]
    with pytest.raises(ScenarioError) as caught:
        call()
    assert "\n" not in str(caught.value)
    assert (caught.value.source, caught.value.key) == (function, argument), str(caught.value)


def _read_only(data):
    """``data`` with every mapping in it a read-only ``types.MappingProxyType``."""
    if isinstance(data, dict):
        return types.MappingProxyType({key: _read_only(value) for key, value in data.items()})
    if isinstance(data, list):
        return [_read_only(value) for value in data]
    return data


def test_every_mapping_argument_takes_a_read_only_mapping(scenario):
    # Was (named in the third and fourth rounds): Scenario.from_dict of a MappingProxyType holding
    # another raised TypeError: cannot pickle 'mappingproxy' object.
    data = scenario.to_dict()
    assert Scenario.from_dict(_read_only(data)) == scenario
    assert Scenario.from_dict(types.MappingProxyType(data)) == scenario
    changed = scenario.replace(_read_only({"business": data["business"], "jobs.new": np.int64(300)}))
    assert changed.jobs.new == 300 and changed.business == scenario.business
    grid = types.MappingProxyType({"jobs.new": [200, 300]})
    assert len(netbenefit.sweep(scenario, grid)) == 2
    assert len(netbenefit.evaluate_variants(scenario, grid)) == 2
    assert len(netbenefit.sensitivity(scenario, types.MappingProxyType({"jobs.new": None}))) == 1
    vary = types.MappingProxyType({"jobs.new": ("uniform", 100, 200)})
    assert netbenefit.montecarlo(scenario, draws=10, vary=vary, seed=1, progress=False).summary.draws == 10
    actuals = {"workforce_before_approval": 100, "years": [{"year": 1, "new_jobs": 1, "statewide_workforce": 101}]}
    assert netbenefit.Actuals.from_dict(_read_only(actuals)).years[0].new_jobs == 1


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["report", str(PARTY), "--out", "{tmp}/missing/r.html"],
        ["report", str(PARTY), "--out", "{tmp}/missing/r.pdf", "--pdf"],
        ["sweep", str(PARTY), "--set", "jobs.new=200,300", "--out", "{tmp}/missing/s.csv"],
        ["montecarlo", str(PARTY), "--draws", "10", "--vary", "jobs.new=uniform(100,200)", "--out", "{tmp}/m/m.csv"],
        ["schema", "--out", "{tmp}/missing/schema.json"],
    ],
    ids=["report html", "report pdf", "sweep", "montecarlo", "schema"],
)
def test_a_command_s_output_file_whose_folder_is_missing_is_refused_in_one_line(tmp_path, argv):
    code, out, err = run(*[arg.format(tmp=tmp_path) for arg in argv])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "does not exist; make it first" in err
    assert list(tmp_path.iterdir()) == []


def test_an_output_folder_is_still_made(tmp_path):
    code, _, err = run("compare", str(PARTY), "--out", str(tmp_path / "new" / "nested"), "--charts", "none")
    assert code == 0, err
    assert (tmp_path / "new" / "nested" / "summary.csv").is_file()


@pytest.mark.parametrize("command", [["evaluate", str(PARTY)], ["schema"], ["diff", str(PARTY), str(PARTY)]])
def test_a_bad_source_date_epoch_is_refused_in_one_line_by_every_command(monkeypatch, command):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "abc")
    code, out, err = run(*command)
    assert (code, out) == (2, "")
    assert err == (
        "netbenefit: SOURCE_DATE_EPOCH: must be a whole number of seconds since 1970-01-01 UTC (as `date +%s` "
        "prints), not 'abc'\n"
    )


def test_an_empty_source_date_epoch_is_removed_by_the_command_line(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", " ")
    code, out, _ = run("evaluate", str(PARTY))
    assert code == 0 and "ratio" in out
    assert "SOURCE_DATE_EPOCH" not in os.environ


FRESH_TO_PDF = """
import os, sys, netbenefit
result = netbenefit.evaluate(sys.argv[1])
print(result.to_pdf(sys.argv[2]), repr(os.environ.get("SOURCE_DATE_EPOCH")))
"""


@pytest.mark.slow
def test_an_empty_source_date_epoch_crashes_neither_to_pdf_nor_report_pdf(tmp_path):
    # Was: `report --pdf` with SOURCE_DATE_EPOCH= (as CI templates set it) crashed with a 59-line
    # traceback: numpy.f2py, which SciPy imports, calls int() on it at its import.
    pytest.importorskip("weasyprint")
    environment = {**os.environ, "SOURCE_DATE_EPOCH": "", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", FRESH_TO_PDF, str(PARTY), str(tmp_path / "api.pdf")],
        capture_output=True, text=True, env=environment, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path / "api.pdf"), "''"]  # the environment put back as it was
    done = subprocess.run(
        [sys.executable, "-m", "netbenefit", "report", str(PARTY), "--out", str(tmp_path / "cli.pdf"), "--pdf"],
        capture_output=True, text=True, env=environment, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "cli.pdf").stat().st_size > 0
