"""Bounds before allocation and dates near the calendar's end: an approval on 9999-12-31 (a date
the format accepts) is placed in fiscal years by every surface that places it; huge draws, caps
and amounts are one line naming the key, never a MemoryError, an OverflowError or ``inf`` in a file."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.cli import main
from netbenefit.model.fiscal import fiscal_years

ROOT = Path(__file__).resolve().parents[2]
PARTY = ROOT / "scenarios" / "party_city.yaml"


def _late(tmp_path: Path, date: str = "9999-12-31") -> Path:
    text = PARTY.read_text(encoding="utf-8")
    text, count = re.subn(r"(?m)^application_date: .*$", f"application_date: {date}\napproval_date: {date}", text)
    assert count == 1
    path = tmp_path / "late.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("timing", ["end_of_year", "mid_year"])
@pytest.mark.parametrize("month_day", [(1, 1), (2, 29), (6, 30), (7, 1), (12, 31)])
def test_a_project_past_the_calendar_s_end_is_placed_as_400_years_earlier(timing, month_day):
    years = list(range(0, 60))
    early = dt.date(8800, *month_day)
    late = early.replace(year=9600)  # runs past 9999: placed through the 400-year cycle
    assert (fiscal_years(late, years, timing) - 800 == fiscal_years(early, years, timing)).all()


PLACERS = {
    "evaluate": lambda path, tmp: netbenefit.evaluate(path),
    "by_fiscal_year": lambda path, tmp: netbenefit.evaluate(path).by_fiscal_year(),
    "portfolio()": lambda path, tmp: netbenefit.portfolio([path]),
    "netbenefit portfolio": lambda path, tmp: main(
        ["portfolio", str(path), "--charts", "none", "--out", str(tmp / "o")]
    ),
    "netbenefit evaluate": lambda path, tmp: main(["evaluate", str(path)]),
}


@pytest.mark.parametrize("placer", list(PLACERS), ids=list(PLACERS))
@pytest.mark.slow
def test_an_approval_on_the_calendar_s_last_day_is_accepted_everywhere(tmp_path, capsys, placer):
    outcome = PLACERS[placer](_late(tmp_path), tmp_path)
    assert outcome is not None and not (isinstance(outcome, int) and outcome != 0)
    assert "Traceback" not in capsys.readouterr().err
    if placer == "by_fiscal_year":
        assert outcome.index[0] >= 10000 and outcome["credits"].sum() > 0  # 9999-12-31 is in fiscal year 10000


def test_the_late_approval_s_fiscal_years_hold_the_nominal_totals(tmp_path):
    result = netbenefit.evaluate(_late(tmp_path))
    table = result.by_fiscal_year()
    assert table["credits"].sum() == pytest.approx(result.requested_credits)


@pytest.mark.parametrize("how", ["portfolio()", "netbenefit portfolio"])
def test_a_portfolio_whose_totals_overflow_is_refused_not_written_as_inf(tmp_path, capsys, how):
    text = PARTY.read_text(encoding="utf-8")
    huge = re.sub(r"(?m)^(\s+annual_credit:) .*$", r"\1 1.0e+307", text)
    assert huge != text
    paths = []
    for i in range(3):
        paths.append(tmp_path / f"huge{i}.yaml")
        paths[-1].write_text(huge, encoding="utf-8")
    if how == "portfolio()":
        with pytest.raises(ScenarioError, match="more than a number can hold"):
            netbenefit.portfolio(paths)
        err = capsys.readouterr().err
    else:
        code = main(["portfolio", *map(str, paths), "--out", str(tmp_path / "o")])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and not (tmp_path / "o").exists()
        problems = [line for line in err.splitlines() if not line.startswith("netbenefit: warning:")]
        assert len(problems) == 1 and "more than a number can hold" in problems[0], err
    assert "RuntimeWarning" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["montecarlo", str(PARTY), "--draws", "1000000000", "--vary", "jobs.new=uniform(1,2)"],
        ["montecarlo", str(PARTY), "--draws", "90000000", "--vary", "jobs.new=uniform(1,2)", "--out", "x.csv"],
        ["portfolio", "--montecarlo", str(ROOT / "scenarios/portfolio/montecarlo.yml"), "--draws", "100000000"],
        ["portfolio", str(PARTY), "--cap", "1.797e308"],
        ["portfolio", str(PARTY), "--cap", "1e16"],
    ],
    ids=["draws 1e9", "draws 9e7 kept", "portfolio draws 1e8", "cap 1.797e308", "cap 1e16"],
)
def test_huge_values_are_refused_before_allocation_naming_the_option(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    if argv[0] == "portfolio":
        argv = [*argv, "--out", str(tmp_path / "o")]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and list(tmp_path.iterdir()) == [], err
    assert ("--draws" in err or "draws:" in err or "--cap" in err) and err.count("\n") == 1, err


def test_montecarlo_in_python_refuses_draws_beyond_memory_before_allocating():
    with pytest.raises(ScenarioError) as caught:
        netbenefit.montecarlo(PARTY, draws=10**12, vary={"jobs.new": ("uniform", 100, 200)}, seed=1)
    assert caught.value.key == "draws" and "memory" in caught.value.problem
