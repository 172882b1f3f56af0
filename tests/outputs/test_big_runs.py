"""A big run: ``compare`` of 200 scenarios is never silent for long, finishes, and stays within
memory. Marked ``slow`` (deselect with ``-m "not slow"``).

The child process is watched byte by byte on stdout and stderr (a progress bar redraws with a
carriage return, not a new line); a silence longer than SILENCE_LIMIT_SECONDS fails the test at
once. Charts are left out with ``--charts none`` where compare has that option (the numbers below
were measured that way); without it the run draws every chart and the time bound is the one for
charts.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from support import base_scenario_dict, with_changes

pytestmark = pytest.mark.slow  # every test here writes outputs or starts a process

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_COUNT = 200
#: The longest the command may print nothing. [s]
SILENCE_LIMIT_SECONDS = 30.0
#: Whole run, without charts and with them (1.5 to 4 s of charts a scenario on two shared cores). [s]
TIME_LIMIT_SECONDS = {"none": 240.0, "all": 1800.0}
#: Peak resident memory of the child process. [bytes]
MEMORY_LIMIT_BYTES = 1024**3


def compare_has_option(option: str) -> bool:
    from netbenefit.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command")
    return any(option in action.option_strings for action in commands.choices["compare"]._actions)


def write_scenarios(folder: Path) -> list[Path]:
    paths = []
    for k in range(SCENARIO_COUNT):
        data = with_changes(base_scenario_dict(), {"name": f"generated {k:03d}", "jobs.new": 35 + k})
        path = folder / f"generated_{k:03d}.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        paths.append(path)
    return paths


@pytest.mark.slow
def test_compare_of_200_scenarios_is_never_silent_finishes_and_stays_within_memory(tmp_path):
    files = write_scenarios(tmp_path)
    charts = "none" if compare_has_option("--charts") else "all"
    argv = [sys.executable, "-m", "netbenefit", "compare", *map(str, files), "--out", str(tmp_path / "out")]
    argv += ["--charts", "none"] if charts == "none" else []
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    start = time.monotonic()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ, "stdout")
    selector.register(child.stderr, selectors.EVENT_READ, "stderr")
    output = {"stdout": b"", "stderr": b""}
    last, longest_silence = start, 0.0
    try:
        while selector.get_map():
            events = selector.select(timeout=1.0)
            now = time.monotonic()
            for key, _ in events:
                chunk = os.read(key.fileobj.fileno(), 65536)
                if chunk:
                    output[key.data] += chunk
                    longest_silence, last = max(longest_silence, now - last), now
                else:
                    selector.unregister(key.fileobj)
            silent = now - last
            assert silent <= SILENCE_LIMIT_SECONDS, (
                f"compare printed nothing for {silent:.0f} s ({now - start:.0f} s into the run; "
                f"{len(output['stdout'].splitlines())} lines so far)"
            )
            assert now - start <= TIME_LIMIT_SECONDS[charts], f"compare took over {TIME_LIMIT_SECONDS[charts]:.0f} s"
    finally:
        if selector.get_map():  # stopped before the child closed its output: end it
            child.kill()
        _, status, usage = os.wait4(child.pid, 0)  # (poll() would reap the child and lose its usage)
        child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    stdout = output["stdout"].decode()
    assert child.returncode == 0, output["stderr"].decode()[-2000:]
    assert all(f"generated {k:03d}:" in stdout for k in range(SCENARIO_COUNT))
    peak = usage.ru_maxrss * 1024  # KiB on Linux
    assert peak <= MEMORY_LIMIT_BYTES, f"peak memory {peak / 2**20:.0f} MiB"
    print(f"{SCENARIO_COUNT} scenarios, charts {charts}: {seconds:.1f} s, longest silence {longest_silence:.1f} s, "
          f"peak memory {peak / 2**20:.0f} MiB")  # fmt: skip
