"""Read, check, then work, then write: in every command, a bad input anywhere (a file after a good
one, an option, a drawn value) is exit 2 with nothing on stdout and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from netbenefit.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
GOOD = str(SCENARIOS / "party_city.yaml")
OTHER = str(SCENARIOS / "office_hq_default_area.yaml")
ACTUALS = str(SCENARIOS / "actuals" / "office_hq_actuals.yaml")
PORTFOLIO = str(SCENARIOS / "portfolio" / "montecarlo.yml")


def _bad(tmp: Path) -> str:
    path = tmp / "in" / "bad.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("name: only a name\n", encoding="utf-8")
    return str(path)


def _out(tmp: Path, name: str = "out") -> str:
    return str(tmp / name)


#: Each command with a bad input after good ones (or a bad option): (name, argv builder).
CASES = {
    "evaluate": lambda t: ["evaluate", _bad(t)],
    "diff": lambda t: ["diff", GOOD, _bad(t)],
    "compare: a bad file after a good one": lambda t: ["compare", GOOD, OTHER, _bad(t), "--out", _out(t)],
    "compare --method": lambda t: ["compare", GOOD, _bad(t), "--method", "netbenefit,authority", "--out", _out(t)],
    "sweep": lambda t: ["sweep", _bad(t), "--set", "jobs.new=1,2", "--out", _out(t, "s.csv")],
    "sweep: a bad value": lambda t: ["sweep", GOOD, "--set", "jobs.new=1,x", "--out", _out(t, "s.csv")],
    "sweep: a bad scheduler": lambda t: ["sweep", GOOD, "--set", "jobs.new=1,2", "--scheduler", "garbage"],
    "sweep: a timeout alone": lambda t: ["sweep", GOOD, "--set", "jobs.new=1,2", "--scheduler-timeout", "3"],
    "montecarlo": lambda t: ["montecarlo", _bad(t), "--vary", "jobs.new=uniform(1,2)", "--out", _out(t, "m.csv")],
    "montecarlo: draws 0": lambda t: ["montecarlo", GOOD, "--draws", "0", "--vary", "jobs.new=uniform(1,2)"],
    "montecarlo: too many draws": lambda t: ["montecarlo", GOOD, "--draws", "1000000000", "--out", _out(t, "m.csv")],
    "montecarlo: a bad draw": lambda t: [
        "montecarlo", GOOD, "--draws", "50", "--seed", "1", "--vary", "jobs.new=uniform(-100,-1)",
        "--out", _out(t, "m.csv"),
    ],
    "montecarlo: a bad scheduler": lambda t: ["montecarlo", GOOD, "--draws", "5", "--scheduler", "x:0"],
    "report": lambda t: ["report", GOOD, _bad(t), "--out", _out(t, "r.html")],
    "award": lambda t: ["award", _bad(t), "--but-for-share", "0.5"],
    "award: a bad share": lambda t: ["award", GOOD, "--but-for-share", "7"],
    "actuals": lambda t: ["actuals", _bad(t), ACTUALS],
    "portfolio: a bad file after a good one": lambda t: ["portfolio", GOOD, OTHER, _bad(t), "--out", _out(t)],
    "portfolio: a bad cap": lambda t: ["portfolio", GOOD, "--cap", "1.797e308", "--out", _out(t)],
    "portfolio: --draws without --montecarlo": lambda t: ["portfolio", GOOD, "--draws", "5", "--out", _out(t)],
    "portfolio: --seed without --montecarlo": lambda t: ["portfolio", GOOD, "--seed", "5", "--out", _out(t)],
    "portfolio: --scheduler without --montecarlo": lambda t: [
        "portfolio", GOOD, "--scheduler", "tcp://127.0.0.1:1", "--out", _out(t),
    ],
    "portfolio --montecarlo: draws 0": lambda t: [
        "portfolio", "--montecarlo", PORTFOLIO, "--draws", "0", "--out", _out(t),
    ],
    "portfolio --montecarlo: a negative seed": lambda t: [
        "portfolio", "--montecarlo", PORTFOLIO, "--seed", "-1", "--out", _out(t),
    ],
    "portfolio --montecarlo: too many draws": lambda t: [
        "portfolio", "--montecarlo", PORTFOLIO, "--draws", "100000000", "--out", _out(t),
    ],
    "portfolio --montecarlo: a bad scheduler": lambda t: [
        "portfolio", "--montecarlo", PORTFOLIO, "--scheduler", "garbage", "--out", _out(t),
    ],
    "schema": lambda t: ["schema", "--out", str(t)],  # a folder, not a file
}


def _tree(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*")}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_a_bad_input_prints_nothing_on_stdout_and_writes_nothing(tmp_path, capsys, case):
    argv = CASES[case](tmp_path)
    before = _tree(tmp_path)
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == ""
    assert _tree(tmp_path) == before
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("netbenefit: ") for line in lines), err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["compare", "portfolio"])
@pytest.mark.parametrize("sub", ["charts", "cashflows"])
def test_a_link_inside_the_output_folder_is_refused_before_any_file_is_written(tmp_path, capsys, command, sub):
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / sub).symlink_to(tmp_path / "elsewhere")
    before = _tree(tmp_path)
    code = main([command, GOOD, "--out", str(out), "--force"])
    stdout, err = capsys.readouterr()
    assert code == 2 and stdout == "" and _tree(tmp_path) == before, err
    assert "is a link" in err


def test_a_drawn_value_out_of_range_in_a_portfolio_is_refused_before_any_line(tmp_path, capsys):
    folder = tmp_path / "p"
    folder.mkdir()
    for path in (SCENARIOS / "portfolio").glob("0[12]_*.yaml"):
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    first = sorted(folder.glob("*.yaml"))[0].name
    (folder / "p.yml").write_text(
        f"applications:\n  - file: {first}\n    vary: {{jobs.new: [uniform, -100, -1]}}\n", encoding="utf-8"
    )
    code = main(["portfolio", "--montecarlo", str(folder / "p.yml"), "--draws", "20", "--out", str(tmp_path / "o")])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and not (tmp_path / "o").exists()
    assert "jobs.new" in err and "--clip" not in err, err  # portfolio has no --clip: it is not advised
