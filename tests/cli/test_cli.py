"""The command line: output, exit codes, and one-line errors for bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support import base_scenario_dict

from netbenefit.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
PARTY_CITY = SCENARIOS / "party_city.yaml"
CONTRACT_KEYS = {
    "name",
    "eligible",
    "net_benefit",
    "checks",
    "capital_investment_minimum",
    "infrastructure_fund_donation",
    "jobs_clause",
    "retained_jobs_eligible",
    "phases",
    "extended_commitment",
    "max_credit_pv",
    "max_credit_pv_note",
    "max_credit_pv_whole_project",
    "excluded_streams",
    "clawback_schedule",
    "clawback_note",
    "benefits_by_tax",
    "conventions",
    "method",
    "warnings",
}


def run(*args, cwd=None):
    """Run the installed command in a fresh process, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "netbenefit", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_evaluate_prints_a_summary(capsys):
    assert main(["evaluate", str(PARTY_CITY)]) == 0
    out = capsys.readouterr().out
    assert "ELIGIBLE" in out and "net benefit ratio 480.6% vs 400% threshold (71(a)(5))" in out
    for check_id in ("71(a)(1)", "71(a)(8)", "71(d)", "71(f)"):
        assert check_id in out


def test_evaluate_json_prints_the_contract_alone(capsys):
    assert main(["evaluate", str(PARTY_CITY), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == CONTRACT_KEYS
    assert set(data["net_benefit"]) == {
        "pv_benefits",
        "pv_credits",
        "ratio",
        "threshold",
        "threshold_clause",
        "passes",
        "discount_rate",
        "ratio_as_given",
        "whole_project_ratio",
        "ratio_without_extension",
        "passes_without_extension",
        "extension_decides",
        "deciding_test",
        "margin",
    }
    assert set(data["net_benefit"]["deciding_test"]) == {"phases", "ratio", "passes", "pv_benefits", "pv_credits"}
    assert set(data["extended_commitment"]) == {
        "years",
        "incremental_credit",
        "repayment_schedule",
        "test",
        "repayment_by_phase",
    }
    assert len(data["checks"]) == 11


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_scenario_evaluates_from_another_directory(path, tmp_path):
    completed = run("evaluate", path.resolve(), "--json", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert set(json.loads(completed.stdout)) == CONTRACT_KEYS


@pytest.mark.slow
def test_not_eligible_still_exits_zero(tmp_path):
    data = base_scenario_dict() | {"application_date": "2030-01-01"}
    path = tmp_path / "late.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    completed = run("evaluate", path, "--json")
    assert completed.returncode == 0
    assert json.loads(completed.stdout)["eligible"] is False


@pytest.mark.slow
@pytest.mark.parametrize(
    "content, words",
    [
        ("name: [unclosed\n", "not valid YAML"),
        ("", "the file is empty"),
        ("- 1\n", "must be a mapping"),
        (None, "file not found"),
    ],
)
def test_bad_file_exits_2_with_one_line(tmp_path, content, words):
    path = tmp_path / "bad.yaml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    completed = run("evaluate", path, "--json")
    assert completed.returncode == 2
    assert completed.stdout == ""
    lines = completed.stderr.splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and words in lines[0]
    assert "Traceback" not in completed.stderr


@pytest.mark.slow
def test_bad_value_names_the_file_and_the_key(tmp_path):
    data = base_scenario_dict()
    data["jobs"]["new"] = -4
    path = tmp_path / "negative.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    completed = run("evaluate", path)
    assert completed.returncode == 2
    assert completed.stderr.strip() == f"netbenefit: {path}: jobs.new: must be greater than or equal to 0 (got -4)"


def test_zero_credits_cannot_be_evaluated(tmp_path, capsys):
    data = base_scenario_dict()
    data["award"]["annual_credit"] = 0
    path = tmp_path / "zero.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "award" in err and "zero" in err and len(err.splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("args", [[], ["frobnicate"], ["evaluate"], ["compare", str(PARTY_CITY)]])
def test_usage_errors_exit_2(args):
    completed = run(*args)
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr


@pytest.mark.slow
def test_compare_writes_summary_and_cash_flows(tmp_path):
    out = tmp_path / "results"
    files = sorted(SCENARIOS.glob("*.yaml"))
    completed = run("compare", *files, "--out", out)
    assert completed.returncode == 0, completed.stderr
    import pandas as pd

    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == len(files)
    assert {"name", "ratio", "threshold", "passes", "eligible"} <= set(summary.columns)
    for path in files:
        cashflows = pd.read_csv(out / "cashflows" / f"{path.stem}.csv")
        assert "pv_net_benefits" in cashflows.columns


@pytest.mark.slow
def test_compare_refuses_a_non_empty_folder_without_force(tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    (out / "keep.txt").write_text("earlier work", encoding="utf-8")
    completed = run("compare", PARTY_CITY, "--out", out)
    assert completed.returncode == 2
    assert "--force" in completed.stderr and len(completed.stderr.splitlines()) == 1
    assert not (out / "summary.csv").exists()
    assert run("compare", PARTY_CITY, "--out", out, "--force").returncode == 0
    assert (out / "summary.csv").exists() and (out / "keep.txt").read_text(encoding="utf-8") == "earlier work"


@pytest.mark.slow
def test_compare_writes_nothing_when_a_scenario_is_bad(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\n", encoding="utf-8")
    out = tmp_path / "results"
    completed = run("compare", PARTY_CITY, bad, "--out", out)
    assert completed.returncode == 2
    assert not out.exists()


@pytest.mark.slow
def test_version():
    completed = run("--version")
    assert completed.returncode == 0 and completed.stdout.startswith("netbenefit ")


@pytest.mark.slow
def test_a_write_failure_is_one_line_and_exit_1(tmp_path, monkeypatch, capsys):
    import errno

    import netbenefit.views.result_files

    def full_disk(path, write):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(netbenefit.views.result_files, "atomic_write", full_disk)
    assert main(["compare", str(PARTY_CITY), "--out", str(tmp_path / "results")]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "No space left on device" in err and "summary.csv" in err


@pytest.mark.slow
def test_compare_shows_one_scenario_under_both_methods_side_by_side(tmp_path, capsys):
    estimate = PARTY_CITY.parent / "party_city_estimate.yaml"
    assert (
        main(
            [
                "compare",
                str(estimate),
                "--method",
                "netbenefit,authority",
                "--out",
                str(tmp_path / "o"),
                "--charts",
                "none",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "(method netbenefit): ratio" in out and "(method authority): ratio" in out
    summary = (tmp_path / "o" / "summary.csv").read_text(encoding="utf-8").splitlines()
    assert summary[0].endswith(",method") and summary[1].endswith(",netbenefit") and summary[2].endswith(",authority")


@pytest.mark.slow
def test_compare_refuses_an_unknown_method(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["compare", str(PARTY_CITY), "--method", "netbenefit,state", "--out", str(tmp_path / "o")])
    assert stop.value.code == 2 and "state: not a method; choose from netbenefit, authority" in capsys.readouterr().err
