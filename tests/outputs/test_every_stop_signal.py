"""Every signal that ends a run (SIGINT, SIGTERM and SIGHUP), in every command that draws charts:
the handlers hold while the chart library (matplotlib, with its C extensions) is imported, so a
stop landing then is acted on after it, in one line; SIGHUP ends a run as SIGTERM does (one line,
no ``.part`` file left, exit 129); and the chart workers stop with their parent, however it ends."""

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
NUMBERS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]

#: A command line in a fresh process (the chart library not yet imported) that sends itself a
#: signal as the chart library's first C extension is looked for, and records, when the command's
#: stop handler runs, whether the chart library had been imported whole by then.
SIGNAL_DURING_THE_CHART_LIBRARY = """
import importlib.abc, signal, sys
from netbenefit import cli

number = int(sys.argv[1])
whole_when_stopped = []
stop = cli._stop


def spying_stop(received, frame):
    names = ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg")
    whole_when_stopped.append(all(name in sys.modules for name in names))
    stop(received, frame)


class Trigger(importlib.abc.MetaPathFinder):
    fired = False

    def find_spec(self, name, path=None, target=None):
        if name == "matplotlib.ft2font" and not Trigger.fired:  # a C extension, mid-import of matplotlib
            Trigger.fired = True
            signal.raise_signal(number)
        return None


cli._stop = spying_stop
sys.meta_path.insert(0, Trigger())
code = cli.main(sys.argv[2:])
print(Trigger.fired, whole_when_stopped, flush=True)
sys.exit(code)
"""

COMMANDS = {
    "portfolio": lambda out: ["portfolio", str(SCENARIOS / "portfolio"), "--out", str(out)],
    "compare": lambda out: ["compare", str(SCENARIOS / "party_city.yaml"), "--out", str(out), "--charts", "summary"],
    "report": lambda out: ["report", str(SCENARIOS / "party_city.yaml"), "--out", str(out / "r.html")],
}


@pytest.mark.slow
@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: signal.Signals(n).name)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_signal_while_the_chart_library_is_imported_waits_for_it_then_ends_the_run(tmp_path, command, number):
    # Was: SIGTERM 0.3 s into `portfolio`, while it imported its chart library: exit 1 and a
    # 45-line traceback (the stop raised inside the initialisation of a C extension).
    out = tmp_path / "out"
    if command == "report":
        out.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_DURING_THE_CHART_LIBRARY, str(int(number)), *COMMANDS[command](out)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert done.stdout.splitlines()[-1] == "True [True]", (done.stdout[-500:], done.stderr[-2000:])
    assert done.returncode == 128 + number, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        f"netbenefit: {WORDS[number]} (signal {signal.Signals(number).name}); files written so far are complete"
    ]
    assert not list(tmp_path.rglob("*.part"))


def _start_compare(out: Path) -> subprocess.Popen:
    def child_setup():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setpgrp()  # its own group, as a terminal's job

    return subprocess.Popen(
        [sys.executable, "-m", "netbenefit", "compare", *(str(SCENARIOS / f"{n}.yaml") for n in NAMES),
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=child_setup,
        env={**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"},
    )  # fmt: skip


def _workers_of(child: subprocess.Popen, out: Path) -> list[int]:
    deadline = time.monotonic() + 60
    while not (out / "summary.csv").exists():  # the chart workers draw from here
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(0.2)
    listed = subprocess.run(["pgrep", "-P", str(child.pid)], capture_output=True, text=True).stdout.split()
    return [int(pid) for pid in listed]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _ended(child: subprocess.Popen, workers: list[int]) -> tuple[str, str]:
    try:
        out, err = child.communicate(timeout=60)  # the workers hold its pipes while they run
    except subprocess.TimeoutExpired:
        for pid in [*workers, child.pid]:  # the parent too: a run that hangs must not hang the tests
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        child.communicate()
        pytest.fail("the run went on after the signal (its chart workers kept going, or it hung)")
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "a chart worker outlived its parent"
    return out, err


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table of /proc")
@pytest.mark.parametrize("to", ["the process group", "the parent alone"])
def test_sighup_ends_compare_as_sigterm_does(tmp_path, to):
    # Was: SIGHUP during compare left the run going past 60 s and a .part file.
    out = tmp_path / "out"
    child = _start_compare(out)
    workers = _workers_of(child, out)
    if to == "the process group":
        os.killpg(child.pid, signal.SIGHUP)
    else:
        os.kill(child.pid, signal.SIGHUP)
    _, err = _ended(child, workers)
    assert child.returncode == 129, err
    assert err.splitlines() == ["netbenefit: hung up (signal SIGHUP); files written so far are complete"]
    assert not list(tmp_path.rglob("*.part")) and not (out / ".netbenefit.lock").exists()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux tells the workers of their parent's end")
def test_the_chart_workers_stop_with_their_parent_however_it_ends(tmp_path):
    # Was: a parent killed outright (SIGKILL, which no handler sees) left its chart workers
    # running, holding its output pipes: the caller waited for ever.
    out = tmp_path / "out"
    child = _start_compare(out)
    workers = _workers_of(child, out)
    assert workers, "compare drew its charts in worker processes"
    os.kill(child.pid, signal.SIGKILL)
    _ended(child, workers)
    assert child.returncode == -signal.SIGKILL
