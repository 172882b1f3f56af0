"""Benchmark of the workbook: the time to write the workbook of each bundled scenario, as a model
driven by its named input cells, against the workbook of an earlier revision (the baseline: the
model's figures as values, only the discount rate and the timing live).

Run from the repository root::

    python benchmarks/bench_workbook.py [--baseline REVISION] [--repeat 7] [--smoke]

Each side runs in a process of its own: this checkout's package, and the whole package of
``REVISION`` (default :data:`BASELINE`), read from git (``git archive``) into a temporary folder
put first on that process's path, so that the baseline runs with its own model and labels however
the package has been laid out since. Each process evaluates every bundled scenario once, untimed,
writes their workbooks once (a warm-up: imports, caches), then, each time the parent asks, writes
them all again and answers its CPU seconds (``time.process_time``). The parent asks the two in
turn, ``--repeat`` times, so that a change of load on the shared machine falls on both; the
ratios are given of the minimum (the least noisy) and of the median. The goal: at most 1.5x the
baseline. Needs the revision in the clone's history (not a shallow clone).

``--smoke``: one scenario, one round (a check that the script runs, its numbers not meant to be read).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The revision whose workbook is the baseline (its figures written as values).
BASELINE = "af16a2e"
#: The scenario of ``--smoke``.
SMOKE_SCENARIO = "office_hq_default_area.yaml"

#: A side: ``python -c WORKER ROOT MODULE PATH...`` (the package of the folder ROOT) writes the
#: workbook of each scenario with ``MODULE.write_workbook``, once to warm up, then once for each
#: line it reads, answering the CPU seconds of each round on a line of its own.
WORKER = """
import importlib, pathlib, sys, tempfile, time
import netbenefit
assert pathlib.Path(netbenefit.__file__).resolve().is_relative_to(pathlib.Path(sys.argv[1]).resolve()), netbenefit
write_workbook = importlib.import_module(sys.argv[2]).write_workbook
results = [netbenefit.evaluate(path) for path in sys.argv[3:]]
folder = pathlib.Path(tempfile.mkdtemp(prefix="bench-workbook-"))

def write_all():
    for k, result in enumerate(results):
        write_workbook([result], folder / f"{k}.xlsx", comparison=False)

write_all()
print("ready", flush=True)
for _ in sys.stdin:
    start = time.process_time()
    write_all()
    print(time.process_time() - start, flush=True)
"""


def unpack_package(revision: str, folder: Path) -> Path:
    """The package ``netbenefit`` of ``revision``, unpacked into ``folder``; returns ``folder``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "netbenefit"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


class Side:
    """One side's process: started with its package first on the path, ready once it has warmed up."""

    def __init__(self, module: str, paths: list[Path], package_root: Path) -> None:
        environment = {**os.environ, "PYTHONPATH": str(package_root)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(package_root), module, *map(str, paths)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
            cwd=tempfile.gettempdir(),  # not the checkout, whose package would come first
        )
        self._answer(expected="ready")

    def _answer(self, expected: str | None = None) -> str:
        line = self.process.stdout.readline().strip()
        if not line or (expected is not None and line != expected):
            self.process.kill()
            code = self.process.wait()
            raise RuntimeError(f"a side of the benchmark stopped (exit code {code}); its errors are above")
        return line

    def write_all(self) -> float:
        """CPU seconds of one round of writing every workbook."""
        self.process.stdin.write("write\n")
        self.process.stdin.flush()
        return float(self._answer())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE, help="the git revision of the baseline workbook")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="one scenario, one round: a check that it runs (CI)")
    arguments = parser.parse_args(argv)
    paths = sorted((ROOT / "scenarios").glob("*.yaml"))
    if arguments.smoke:
        arguments.repeat, paths = 1, [ROOT / "scenarios" / SMOKE_SCENARIO]
    with tempfile.TemporaryDirectory() as folder:
        baseline_root = unpack_package(arguments.baseline, Path(folder))
        sides = {
            "driven": Side("netbenefit.views.workbook", paths, ROOT),
            "baseline": Side("netbenefit.workbook", paths, baseline_root),
        }
        try:
            times: dict[str, list[float]] = {name: [] for name in sides}
            for _ in range(arguments.repeat):
                for name, side in sides.items():
                    times[name].append(side.write_all())
        finally:
            for side in sides.values():
                side.close()
    print(
        f"{len(paths)} bundled scenarios, {arguments.repeat} interleaved repeats, CPU seconds to write them all "
        f"(baseline: the workbook of {arguments.baseline})"
    )
    for side, values in times.items():
        print(f"  {side:9s} min {min(values):.3f}  median {statistics.median(values):.3f}")
    low = min(times["driven"]) / min(times["baseline"])
    middle = statistics.median(times["driven"]) / statistics.median(times["baseline"])
    print(f"  ratio (driven / baseline): min {low:.2f}x, median {middle:.2f}x (goal: at most 1.5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
