"""No numpy RuntimeWarning on stderr from sweeps, Monte Carlo
runs and actual results (an overflowing variant is a non-finite value or an error, not a
warning); a NUL never written raw into HTML."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support import base_scenario_dict

import netbenefit
from netbenefit.io import safe_text
from netbenefit.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
PARTY = ROOT / "scenarios" / "party_city.yaml"
OFFICE = ROOT / "scenarios" / "office_hq_default_area.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    """``python -m netbenefit ARGV`` as a user runs it (warnings shown as Python shows them)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "default"}
    done = subprocess.run(
        [sys.executable, "-m", "netbenefit", *argv], capture_output=True, text=True, env=env, timeout=120
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["sweep", str(PARTY), "--set", "award.annual_credit=0,1e-320"],
        ["sweep", str(PARTY), "--set", "jobs.salary_growth=1e300,0"],
        ["montecarlo", str(PARTY), "--draws", "50", "--seed", "1", "--vary", "jobs.salary_growth=uniform(0,1e300)"],
    ],
)
def test_a_sweep_or_monte_carlo_run_prints_no_numpy_warning(argv):
    # Was: "RuntimeWarning: overflow encountered in power" (and in divide) on stderr.
    code, out, err = run(*argv)
    assert "RuntimeWarning" not in err, err


def actuals_with(tmp_path: Path, **changes) -> Path:
    data = yaml.safe_load((ROOT / "scenarios" / "actuals" / "office_hq_actuals.yaml").read_text(encoding="utf-8"))
    data.pop("years_from_csv")
    data["years"] = [{"year": y, "new_jobs": 100.0, "statewide_workforce": 1300.0, **changes} for y in range(1, 4)]
    path = tmp_path / "actuals.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("changes", [{"new_jobs": 1e308}, {"statewide_workforce": 0.0}])
def test_actual_results_print_no_numpy_warning(tmp_path, changes):
    code, out, err = run("actuals", str(OFFICE), str(actuals_with(tmp_path, **changes)))
    assert "RuntimeWarning" not in err, err
    assert code in (0, 2) and len([line for line in err.splitlines() if line]) <= 1, err


@pytest.mark.slow
def test_a_nul_is_never_written_raw_into_html():
    # Was: a NUL (here in the name of the file a scenario came from) written raw into the report.
    assert safe_text.html("a\x00b\x1b\ud800<") == "a\\x00b\\x1b\\ud800&lt;"
    from netbenefit.views.html import report_html

    page = report_html([netbenefit.evaluate(Scenario.from_dict(base_scenario_dict(), source="x\x00y.yaml"))])
    assert "\x00" not in page and "x\\x00y.yaml" in page


def test_a_description_keeps_its_line_breaks_in_html():
    assert safe_text.html("one\ntwo\tthree") == "one\ntwo\tthree"
