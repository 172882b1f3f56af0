"""Benchmark of the workbook: the time to write the workbook of each bundled scenario, as a model
driven by its named input cells, against the workbook of an earlier revision (the baseline: the
model's figures as values, only the discount rate and the timing live).

Run from the repository root::

    python benchmarks/bench_workbook.py [--baseline REVISION] [--repeat 7]

The baseline is the package ``netbenefit/workbook`` of ``REVISION`` (default ``af16a2e``), read
from git and loaded beside the current one (it uses the same netbenefit around it). Every scenario
is evaluated once, untimed; then each side writes the workbooks of all the bundled scenarios, in
CPU seconds (``time.process_time``), ``--repeat`` times, the two sides interleaved, so that a
change of load on the shared machine falls on both. The ratios are given of the minimum (the
least noisy) and of the median. The goal: at most 1.5x the baseline.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import netbenefit
from netbenefit.views.workbook import write_workbook

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "netbenefit/workbook"


def baseline_writer(revision: str, folder: Path):
    """``write_workbook`` of the workbook package at ``revision``, loaded as ``netbenefit._workbook_baseline``."""
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{revision}:{PACKAGE}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    package = folder / "_workbook_baseline"
    package.mkdir()
    for name in listing:
        text = subprocess.run(
            ["git", "show", f"{revision}:{PACKAGE}/{name}"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        (package / name).write_text(text, encoding="utf-8")
    full_name = "netbenefit._workbook_baseline"
    spec = importlib.util.spec_from_file_location(
        full_name, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[full_name] = module
    spec.loader.exec_module(module)
    return module.write_workbook


def write_all(writer, results, folder: Path) -> float:
    """CPU seconds to write the workbook of every result."""
    start = time.process_time()
    for k, result in enumerate(results):
        writer([result], folder / f"{k}.xlsx", comparison=False)
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="af16a2e", help="the git revision of the baseline workbook")
    parser.add_argument("--repeat", type=int, default=7)
    arguments = parser.parse_args(argv)
    paths = sorted((ROOT / "scenarios").glob("*.yaml"))
    results = [netbenefit.evaluate(path) for path in paths]
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        baseline = baseline_writer(arguments.baseline, folder)
        out = folder / "out"
        out.mkdir()
        write_all(write_workbook, results, out)  # warm-up of both: imports, caches
        write_all(baseline, results, out)
        times: dict[str, list[float]] = {"driven": [], "baseline": []}
        for _ in range(arguments.repeat):
            times["driven"].append(write_all(write_workbook, results, out))
            times["baseline"].append(write_all(baseline, results, out))
    print(f"{len(results)} bundled scenarios, {arguments.repeat} interleaved repeats, CPU seconds to write them all")
    for side, values in times.items():
        print(f"  {side:9s} min {min(values):.3f}  median {statistics.median(values):.3f}")
    low = min(times["driven"]) / min(times["baseline"])
    middle = statistics.median(times["driven"]) / statistics.median(times["baseline"])
    print(f"  ratio (driven / baseline): min {low:.2f}x, median {middle:.2f}x (goal: at most 1.5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
