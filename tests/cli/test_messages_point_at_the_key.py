"""Messages that point at the right key, options that only work together refused apart, one
summary warning for many values, library warnings written by the tool's warning writer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import netbenefit
from netbenefit.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
PARTY = str(SCENARIOS / "party_city.yaml")
PORTFOLIO = str(SCENARIOS / "portfolio" / "montecarlo.yml")

APART = {
    "portfolio --draws": (["portfolio", PARTY, "--draws", "5"], "--draws"),
    "portfolio --seed": (["portfolio", PARTY, "--seed", "5"], "--seed"),
    "portfolio --scheduler": (["portfolio", PARTY, "--scheduler", "tcp://127.0.0.1:8786"], "--scheduler"),
    "portfolio --dask": (["portfolio", PARTY, "--dask"], "--dask"),
    "portfolio --scheduler-timeout": (["portfolio", PARTY, "--scheduler-timeout", "3"], "--scheduler-timeout"),
    "portfolio --montecarlo --scheduler-timeout": (
        ["portfolio", "--montecarlo", PORTFOLIO, "--scheduler-timeout", "3"],
        "--scheduler-timeout",
    ),
    "portfolio --dask --scheduler": (
        ["portfolio", "--montecarlo", PORTFOLIO, "--dask", "--scheduler", "tcp://127.0.0.1:8786"],
        "--dask",
    ),
    "sweep --scheduler-timeout": (
        ["sweep", PARTY, "--set", "jobs.new=1,2", "--scheduler-timeout", "3"],
        "--scheduler-timeout",
    ),
    "montecarlo --scheduler-timeout": (
        ["montecarlo", PARTY, "--draws", "5", "--scheduler-timeout", "3"],
        "--scheduler-timeout",
    ),
}


@pytest.mark.parametrize("case", list(APART), ids=list(APART))
def test_an_option_that_only_works_with_another_is_refused_apart(tmp_path, capsys, case):
    argv, option = APART[case]
    if argv[0] == "portfolio":
        argv = [*argv, "--out", str(tmp_path / "o")]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and not (tmp_path / "o").exists()
    assert err.startswith(f"netbenefit: {option}:") and err.count("\n") == 1, err


def test_a_sweep_over_many_implausible_values_warns_once_per_key(tmp_path, capsys):
    values = ",".join(f"{0.2 + i / 1000:g}" for i in range(241))  # all above 15% a year
    code = main(["sweep", PARTY, "--set", f"jobs.salary_growth={values}", "--out", str(tmp_path / "s.csv")])
    _, err = capsys.readouterr()
    warnings = [line for line in err.splitlines() if line.startswith("netbenefit: warning:")]
    assert code == 0 and len(warnings) == 1, err
    assert re.search(r"jobs.salary_growth: 241 values given to sweep are implausible", warnings[0])


def test_strict_still_refuses_every_implausible_value(tmp_path, capsys):
    code = main(["sweep", PARTY, "--set", "jobs.salary_growth=0.3,0.4", "--strict"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "0.3" in err and "0.4" in err


@pytest.mark.slow
@pytest.mark.parametrize("command", ["compare", "portfolio"])
def test_a_library_warning_is_one_line_of_the_tool_s_writer(tmp_path, capsys, command):
    # Was: Matplotlib's "Glyph 28145 missing from font(s)" with its source line, per glyph and chart;
    # now one line that says so (the charts draw "[?]" where the font has no glyph).
    text = Path(PARTY).read_text(encoding="utf-8")
    cjk = tmp_path / "cjk.yaml"
    cjk.write_text(re.sub(r"(?m)^name: .*$", 'name: "深圳 工厂"', text), encoding="utf-8")
    code = main([command, str(cjk), str(SCENARIOS / "office_hq_default_area.yaml"), "--out", str(tmp_path / "o")])
    _, err = capsys.readouterr()
    assert code == 0
    lines = err.splitlines()
    assert all(line.startswith("netbenefit: warning: ") for line in lines), err
    assert sum("cannot draw" in line or "no glyph" in line for line in lines) == 1, err


def test_starts_in_year_out_of_range_names_its_key(tmp_path, capsys):
    text = (SCENARIOS / "phased_campus.yaml").read_text(encoding="utf-8")
    path = tmp_path / "p.yaml"
    path.write_text(re.sub(r"(?m)^(\s+)start_year: 3\b", r"\1starts_in_year: 1001", text), encoding="utf-8")
    code = main(["evaluate", str(path)])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith(f"netbenefit: {path}: phases.0.starts_in_year: "), err


def test_explore_of_one_key_gives_it_a_slider():
    pytest.importorskip("ipywidgets")
    explorer = netbenefit.explore(PARTY, keys="jobs.new")
    assert list(explorer.sliders) == ["jobs.new"]


@pytest.mark.parametrize(
    "message, words",
    [
        ("Glyph 28145 (\\N{CJK UNIFIED IDEOGRAPH-6DF1}) missing from font(s) DejaVu Sans.", "no glyph"),
        ("constrained_layout not applied because axes sizes collapsed to zero.  Try making figure larger", "overlap"),
        ("some other\nlibrary warning", "some other library warning"),
    ],
)
def test_a_library_warning_is_said_in_the_tool_s_words_on_one_line(message, words):
    from netbenefit.cli import library_warning_line

    line = library_warning_line(message)
    assert words in line and "\n" not in line
