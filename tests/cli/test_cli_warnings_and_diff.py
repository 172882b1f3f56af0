"""The command line: plausibility warnings, --strict, diff, and bad input for each (one line, exit 2)."""

import json
import re
from pathlib import Path

import pytest
import yaml

from netbenefit.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
OFFICE = SCENARIOS / "office_hq_default_area.yaml"


def office_with(tmp_path: Path, changes: dict) -> Path:
    """The office scenario with top-level or one-level-deep values changed, written to a file."""
    data = yaml.safe_load(OFFICE.read_text(encoding="utf-8"))
    for key, value in changes.items():
        *parents, last = key.split(".")
        node = data
        for part in parents:
            node = node[part]
        node[last] = value
    path = tmp_path / "office.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


SLIPS = [
    ("discount_rate", 6),
    ("jobs.salary_growth", 3),
    ("jobs.median_salary", 98),
    ("revenue.earnings_multiplier", 16.5),
    ("threshold_override", 250),
    ("award.annual_credit", 950_000_000),  # for 260 jobs
]


@pytest.mark.parametrize("key, value", SLIPS, ids=[key for key, _ in SLIPS])
def test_a_slip_warns_on_stderr_and_exits_0(tmp_path, capsys, key, value):
    path = office_with(tmp_path, {key: value})
    assert main(["evaluate", str(path)]) == 0
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith(f"netbenefit: warning: {path}: {key}: ") and "implausible" in line
    assert "ratio" in captured.out  # the result is still printed


@pytest.mark.parametrize("key, value", SLIPS, ids=[key for key, _ in SLIPS])
def test_a_slip_is_an_error_under_strict(tmp_path, capsys, key, value):
    path = office_with(tmp_path, {key: value})
    assert main(["evaluate", str(path), "--strict"]) == 2
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert captured.out == ""
    assert line.startswith(f"netbenefit: {path}: {key}: ") and "did you mean" in line


def test_json_output_carries_the_warnings(tmp_path, capsys):
    path = office_with(tmp_path, {"discount_rate": 6})
    assert main(["evaluate", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert len(data["warnings"]) == 1 and data["warnings"][0] in captured.err


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["compare", "{path}", "--out", "{out}"],
        ["report", "{path}", "--out", "{out}.html"],
        ["award", "{path}"],
        ["sweep", "{path}", "--set", "jobs.new=200,260"],
        ["montecarlo", "{path}", "--draws", "10", "--seed", "1", "--vary", "jobs.new=uniform(200,300)"],
        ["diff", "{path}", str(OFFICE)],
    ],
    ids=lambda c: c[0],
)
def test_strict_on_every_command_that_loads_scenarios(tmp_path, capsys, command):
    path = office_with(tmp_path, {"discount_rate": 6})
    out = tmp_path / "out"
    args = [part.format(path=path, out=out) for part in command]
    assert main([*args, "--strict"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"netbenefit: {path}: discount_rate: ")
    assert not out.exists() and not out.with_suffix(".html").exists()  # nothing written


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_scenario_passes_strict(path, capsys):
    assert main(["evaluate", str(path), "--strict"]) == 0
    assert capsys.readouterr().err == ""


def test_a_share_written_as_a_percent_is_refused_with_the_decimal(tmp_path, capsys):
    path = office_with(tmp_path, {"revenue.taxable_spending_share": 30})
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err
    problem = "must be a decimal share: did you mean 0.3? (got 30, above 1)"
    assert err == f"netbenefit: {path}: revenue.taxable_spending_share: {problem}\n"


def test_a_monte_carlo_range_error_mentions_clip(capsys):
    args = [
        "montecarlo",
        str(OFFICE),
        "--draws",
        "50",
        "--seed",
        "1",
        "--vary",
        "jobs.nj_withholding_share=normal(0.9,0.3)",
    ]
    assert main(args) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "jobs.nj_withholding_share" in line and "--clip" in line
    assert main([*args, "--clip"]) == 0


# -- diff ---------------------------------------------------------------------------------------


def test_diff_of_two_bundled_variants_prints_attributions_that_add_up(capsys):
    assert main(["diff", str(SCENARIOS / "phased_campus.yaml"), str(SCENARIOS / "extended_commitment.yaml")]) == 0
    out = capsys.readouterr().out
    # percentage points, 2 decimals
    change = float(re.search(r"net benefit ratio [\d.]+% -> [\d.]+% \(change ([+-][\d.]+) percentage", out).group(1))
    section = out.split("(Shapley values; they add up):\n")[1]
    rows = [line.split() for line in section.splitlines()]
    contributions = [float(row[-1]) for row in rows if row[0] != "total"]
    total = float(next(row[-1] for row in rows if row[0] == "total"))
    assert total == pytest.approx(change, abs=0.01)
    assert sum(contributions) == pytest.approx(total, abs=0.01 * len(contributions))


def test_diff_json(tmp_path, capsys):
    path = office_with(tmp_path, {"discount_rate": 0.05, "jobs.new": 240})
    assert main(["diff", str(OFFICE), str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {row["key"] for row in data["attribution"]} == {"discount_rate", "jobs.new"}
    total = sum(row["contribution"] for row in data["attribution"])
    assert total == pytest.approx(data["ratio_b"] - data["ratio_a"], abs=1e-12)
    assert {"key": "discount_rate", "old": 0.06, "new": 0.05} in data["inputs"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["diff", str(OFFICE)], "the following arguments are required"),
        (["diff", str(OFFICE), "missing.yaml"], "missing.yaml: file not found"),
        (["diff", str(OFFICE), str(OFFICE), "--bogus"], "unrecognized arguments: --bogus"),
        (["evaluate", str(OFFICE), "--strict=yes"], "--strict"),
    ],
)
def test_bad_input_to_diff_and_strict_is_one_line_exit_2(capsys, args, words):
    try:
        status = main(args)
    except SystemExit as exit_:  # argparse
        status = exit_.code
    assert status == 2
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith("netbenefit: ") and words in line and captured.out == ""


def test_diff_of_a_bad_file_names_it(tmp_path, capsys):
    path = office_with(tmp_path, {"jobs.new": -1})
    assert main(["diff", str(OFFICE), str(path)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"netbenefit: {path}: jobs.new: ")


def test_an_unknown_key_of_a_sweep_names_the_closest_key(capsys):
    assert main(["sweep", str(OFFICE), "--set", "jobs.nwe=200,260"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.endswith("jobs.nwe: unknown key 'jobs.nwe' in the scenario format; did you mean jobs.new?")
