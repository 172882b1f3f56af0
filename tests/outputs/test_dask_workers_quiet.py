"""Dask workers' own output captured: a bad draw on a local cluster is netbenefit's one line (no
"Compute Failed" block), a Ctrl-C or SIGTERM sent to the group during a ``--dask`` run is one line
with 130 or 143 (no worker's KeyboardInterrupt), and an error raised on a worker arrives whole."""

from __future__ import annotations

import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from netbenefit import ScenarioError
from netbenefit.analysis.keys import OutOfRangeError

ROOT = Path(__file__).resolve().parents[2]
PORTFOLIO = ROOT / "scenarios" / "portfolio" / "montecarlo.yml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize("kind", [ScenarioError, OutOfRangeError])
def test_a_scenario_error_pickles_whole_as_a_worker_sends_it(kind):
    error = kind("f.yaml", "jobs.new", "must be >= 0", more=[("discount_rate", "must be a number")])
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is kind and again.lines == error.lines and again.key == "jobs.new"


def _start(argv):
    def child_setup():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setpgrp()

    return subprocess.Popen(
        [sys.executable, "-m", "netbenefit", *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, preexec_fn=child_setup,
    )  # fmt: skip


@pytest.mark.slow
def test_a_bad_draw_on_a_local_cluster_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    shutil.copy(ROOT / "scenarios" / "portfolio" / "01_harborview_analytics.yaml", tmp_path)
    (tmp_path / "p.yml").write_text(
        "applications:\n  - file: 01_harborview_analytics.yaml\n    vary: {jobs.new: [normal, 100, 300]}\n",
        encoding="utf-8",
    )
    child = _start(["portfolio", "--montecarlo", str(tmp_path / "p.yml"), "--dask", "--draws", "200",
                    "--out", str(tmp_path / "o")])  # fmt: skip
    out, err = child.communicate(timeout=180)
    assert child.returncode == 2 and out == ""
    assert err.count("\n") == 1 and "jobs.new" in err and "Compute Failed" not in err, err


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("delay", [1.0, 4.0, 7.0])
def test_a_stop_during_a_dask_run_is_one_line(tmp_path, number, delay):
    pytest.importorskip("distributed")
    child = _start(["portfolio", "--montecarlo", str(PORTFOLIO), "--dask", "--draws", "40000",
                    "--out", str(tmp_path / "o")])  # fmt: skip
    time.sleep(delay)
    if child.poll() is not None:
        pytest.skip("the run ended before the signal")
    os.killpg(child.pid, number)
    try:
        _, err = child.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail("the run hung after the signal")
    assert child.returncode == 128 + number, err
    assert len(err.splitlines()) == 1 and err.startswith("netbenefit: "), err
