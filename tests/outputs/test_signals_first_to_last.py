"""Signals from the first line to the last: a SIGINT, SIGTERM or SIGHUP sent to the command line's
whole process group (as a terminal's Ctrl-C is, or its closing) while it starts, while compare's
chart workers draw, or after it has written its files, ends it with one line and 130, 143 or 129,
never a hang, a traceback or death by the signal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
NAMES = ("party_city", "mega_project", "office_hq_default_area", "phased_campus", "small_business")
WORDS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}


def _start(argv, **extra) -> subprocess.Popen:
    def child_setup():
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a terminal starts it, even under a background shell
        os.setpgrp()  # its own group: the signal goes to it and its workers, as Ctrl-C does

    return subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"},
        preexec_fn=child_setup,
        **extra,
    )


def _stopped_with_one_line(child: subprocess.Popen, number: int, *, may_have_ended: bool = False) -> None:
    os.killpg(child.pid, number)
    try:
        stdout, stderr = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail("the command hung after the signal")
    if may_have_ended and child.returncode == 0 and stderr == "":
        pytest.skip("the command ended, whole, as the signal was sent")  # never killed by it
    assert child.returncode == 128 + number, stderr
    assert stderr.splitlines() == [f"netbenefit: {WORDS[number]} (signal {signal.Signals(number).name}); "
                                   "files written so far are complete"]  # fmt: skip


NUMBERS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


@pytest.mark.slow
@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: signal.Signals(n).name)
@pytest.mark.parametrize("delay", [0.15, 0.35, 0.6])
def test_a_signal_while_the_command_line_starts(number, delay):
    child = _start([sys.executable, "-m", "netbenefit", "evaluate", str(SCENARIOS / "party_city.yaml")])
    time.sleep(delay)
    if child.poll() is not None:
        pytest.skip("the command ended before the signal")
    _stopped_with_one_line(child, number, may_have_ended=True)


@pytest.mark.slow
@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: signal.Signals(n).name)
@pytest.mark.parametrize("delay", [0.0, 0.3, 0.8])
def test_a_signal_to_the_group_while_compare_s_chart_workers_draw(tmp_path, number, delay):
    # Was: SIGTERM to the group while the workers ran: exit -15 with no line, or a hang (a worker
    # raised the command's stop inside the pool's machinery, holding its lock).
    out = tmp_path / "out"
    child = _start([sys.executable, "-m", "netbenefit", "compare", *(str(SCENARIOS / f"{n}.yaml") for n in NAMES),
                    "--out", str(out)])  # fmt: skip
    deadline = time.monotonic() + 60
    while not (out / "summary.csv").exists():
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(delay)
    _stopped_with_one_line(child, number)
    assert not list(tmp_path.rglob("*.part"))


LATE = """
import logging, os, signal, sys
from netbenefit import _startup, cli
_startup.is_command_line = lambda: True  # this process is the command line, started by -c
number = int(sys.argv[2])
ending = logging.shutdown


def shutdown():  # a signal after the command's last line, while its process ends (cli._end_process)
    os.kill(os.getpid(), number)
    ending()


logging.shutdown = shutdown
cli.main(["evaluate", sys.argv[1]])
raise SystemExit("the command line's process went on after its command")
"""


@pytest.mark.slow
@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: signal.Signals(n).name)
def test_a_signal_after_the_last_line_is_reported_not_a_death_by_the_signal(number):
    # Was: a signal after "wrote N files" killed the process by the signal (status -15 or -2), no line:
    # the interpreter's ending puts the default handlers back. The process now ends in main itself.
    done = subprocess.run(
        [sys.executable, "-c", LATE, str(SCENARIOS / "party_city.yaml"), str(int(number))],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        timeout=60,
    )
    assert done.returncode == 128 + number, done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"netbenefit: {WORDS[number]} (signal")
    assert "ratio" in done.stdout  # the command's output, flushed whole


def test_the_start_up_holds_signals_with_the_public_signal_module():
    source = (ROOT / "netbenefit" / "_startup.py").read_text(encoding="utf-8")
    assert "import _signal" not in source and "import signal" in source
