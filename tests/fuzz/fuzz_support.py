"""Helpers of the fuzz tests: write an input, load it, run the command line on it."""

from __future__ import annotations

import contextlib
import io
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

import netbenefit
from netbenefit import ScenarioError, cli

#: Wall-clock and address-space bounds of one command-line run on a malformed input.
TIME_LIMIT_SECONDS = 10.0
MEMORY_LIMIT_BYTES = 2 * 1024**3


def dump(data) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def files_under(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*")}


def load_error(path: Path) -> ScenarioError | None:
    """The ScenarioError that load_scenario (then evaluate) raises, or None when it evaluates.

    Any other exception propagates, and fails the calling test.
    """
    try:
        netbenefit.evaluate(netbenefit.load_scenario(path))
    except ScenarioError as error:
        return error
    return None


@dataclass
class CliRun:
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def run_cli_in_process(path: Path) -> CliRun:
    """``netbenefit evaluate PATH`` through cli.main, with stdout and stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["evaluate", str(path)])
    return CliRun(code, out.getvalue(), err.getvalue(), time.perf_counter() - start)


def _limit_memory() -> None:  # runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


def run_cli_subprocess(path: Path, cwd: Path, *extra: str) -> CliRun:
    """``python -m netbenefit evaluate PATH`` in a child process with bounded time and memory."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "netbenefit", "evaluate", str(path), *extra],
            cwd=cwd,
            env=env,
            capture_output=True,
            timeout=TIME_LIMIT_SECONDS * 3,  # the test asserts the tighter bound; this one ends a hang
            preexec_fn=_limit_memory,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as expired:
        return CliRun(-1, "", f"timed out: {expired}", time.perf_counter() - start)
    return CliRun(
        done.returncode,
        done.stdout.decode("utf-8", "backslashreplace"),
        done.stderr.decode("utf-8", "backslashreplace"),
        time.perf_counter() - start,
    )


def assert_one_clean_error_line(run: CliRun, path: Path, key: str | None = None) -> None:
    """Exit 2, nothing on stdout, one stderr line per problem, each naming the file (the first, the key)."""
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert lines and run.stderr.endswith("\n"), run.stderr[-2000:]
    assert all(line.startswith(f"netbenefit: {path}") for line in lines), lines
    if key:
        assert f": {key}" in lines[0], lines[0]
    assert run.seconds < TIME_LIMIT_SECONDS, run.seconds
