"""Every benchmark runs: each script of ``benchmarks/`` in its smoke mode (``--smoke``: one round,
a small scenario or few draws), in a new process, exits 0; so that none can break unseen.

A script that needs an optional package skips where it is missing, and ``bench_workbook.py`` where
its baseline revision is not in the clone's history (a shallow clone).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
MAIN_GUARD = re.compile(r'^if __name__ == "__main__":', re.MULTILINE)
#: The scripts run as programs (those with a main guard); the other files are modules they share.
SCRIPTS = sorted(path for path in BENCHMARKS.glob("*.py") if MAIN_GUARD.search(path.read_text(encoding="utf-8")))
HELPERS = sorted(path for path in BENCHMARKS.glob("*.py") if path not in SCRIPTS)
#: The optional packages a script needs (the ``dask`` and ``explore`` extras).
NEEDS = {"bench_dask.py": ("distributed",), "bench_portfolio.py": ("distributed",), "bench_explore.py": ("ipywidgets",)}
#: The longest a smoke run may take, on a loaded machine. [s]
TIMEOUT = 300


def _skip_reason(script: Path) -> str | None:
    for module in NEEDS.get(script.name, ()):
        if importlib.util.find_spec(module) is None:
            return f"{script.name} needs {module}, which is not installed (the dask or explore extra)"
    if script.name == "bench_workbook.py":
        revision = re.search(r'^BASELINE = "(\w+)"', script.read_text(encoding="utf-8"), re.MULTILINE).group(1)
        found = subprocess.run(["git", "cat-file", "-e", f"{revision}^{{commit}}"], cwd=ROOT, capture_output=True)
        if found.returncode != 0:
            return f"{script.name}: its baseline revision {revision} is not in this clone's history"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_smoke_mode_runs(script):
    reason = _skip_reason(script)
    if reason:
        pytest.skip(reason)
    run = subprocess.run(
        [sys.executable, str(script), "--smoke"], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert run.returncode == 0, f"{script.name} --smoke exited with {run.returncode}:\n{run.stderr}"
    assert run.stdout.strip(), f"{script.name} --smoke printed nothing"


def test_every_benchmark_is_a_script_or_a_module_a_script_imports():
    assert len(SCRIPTS) >= 9
    imported = set()
    for script in SCRIPTS:
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.rsplit(".", 1)[-1])
            elif isinstance(node, ast.Import):
                imported.update(alias.name.rsplit(".", 1)[-1] for alias in node.names)
    assert [path.name for path in HELPERS if path.stem not in imported] == []


@pytest.mark.parametrize("path", sorted(BENCHMARKS.glob("*.py")), ids=lambda path: path.name)
def test_imports_at_the_top(path):
    """Every import of a benchmark at its top, none inside a function."""
    inside = [
        f"{path.name}:{node.lineno}"
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert inside == []
