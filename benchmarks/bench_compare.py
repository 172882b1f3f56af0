"""Benchmark: ``netbenefit compare`` of the bundled scenarios against evaluating them in one process.

    python benchmarks/bench_compare.py [--repeat N]

Each side is a new process, timed wall-clock (the charts are drawn in parallel processes, so
CPU time of one process would not tell), the sides taking turns in each round so that a change
of load on the shared machine falls on all of them; each ratio is given of the minimum (the
least noisy) and of the median of each side. The baseline loads and evaluates the same files
in one Python process (``python -c "import netbenefit; ..."``). Targets: ``compare`` (every
chart, PNG) within 4x of the baseline, ``compare --charts none`` within 1.5x.

A fourth side measures what the chart library itself costs: the baseline's work, then as many
charts as ``compare`` draws, each the least a reader needs (one line of 11 points, a title, two
axis labels and the tick labels; the same size, layout, resolution and PNG writer as the
scenario charts), drawn in the same number of forked worker processes. No ``compare`` that draws
every chart with Matplotlib can be faster than it, so its ratio is the floor under the first target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(str(path) for path in (ROOT / "scenarios").glob("*.yaml"))
TARGETS = {"compare": 4.0, "compare --charts summary": None, "compare --charts none": 1.5}

#: The floor: the baseline, then ``chart_count`` minimal charts drawn as ``compare`` draws its own.
FLOOR = """
import io, multiprocessing, os
from concurrent.futures import ProcessPoolExecutor
import netbenefit
from netbenefit.charts.style import figure_bytes, new_figure
from netbenefit.output import chart_count

results = [netbenefit.evaluate(path) for path in FILES]

def draw(index):
    figure, ax = new_figure((10.0, 5.5))
    ax.plot(range(1, 12), [index + k * k for k in range(11)], marker="o")
    ax.set_title(f"Chart {index}\\nNet benefit ratio")
    ax.set_xlabel("Project year after approval [year]")
    ax.set_ylabel("Present value [USD]")
    return len(figure_bytes(figure, "png"))

charts = chart_count(results)
workers = min(len(results), os.cpu_count() or 1)
with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
    assert all(pool.map(draw, range(charts)))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    baseline = f"import netbenefit\nfor path in {FILES!r}:\n    netbenefit.evaluate(path)"
    commands = {
        "evaluate in one process": [sys.executable, "-c", baseline],
        "compare": [sys.executable, "-m", "netbenefit", "compare", *FILES, "--out", str(out / "all"), "--force"],
        "compare --charts summary": [
            *[sys.executable, "-m", "netbenefit", "compare", *FILES],
            *["--out", str(out / "summary"), "--force", "--charts", "summary"],
        ],
        "compare --charts none": [
            *[sys.executable, "-m", "netbenefit", "compare", *FILES],
            *["--out", str(out / "none"), "--force", "--charts", "none"],
        ],
        "floor: minimal charts": [sys.executable, "-c", f"FILES = {FILES!r}\n{FLOOR}"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.repeat):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times[name].append(time.perf_counter() - start)
    floor, floor_median = min(times["evaluate in one process"]), statistics.median(times["evaluate in one process"])
    print(
        f"{len(FILES)} bundled scenarios; {os.cpu_count()} cores; min and median wall-clock seconds of "
        f"{args.repeat} interleaved runs"
    )
    print(f"{'evaluate in one process':<26} {floor:7.2f} s  median {floor_median:7.2f} s")
    for name, goal in TARGETS.items():
        low, mid = min(times[name]) / floor, statistics.median(times[name]) / floor_median
        verdict = "" if goal is None else f"; goal at most {goal:g}x: {'within' if low <= goal else 'OVER'}"
        print(f"{name:<26} {min(times[name]):7.2f} s  {low:.2f}x (min), median {mid:.2f}x{verdict}")
    low = min(times["floor: minimal charts"]) / floor
    mid = statistics.median(times["floor: minimal charts"]) / floor_median
    print(
        f"{'floor: minimal charts':<26} {min(times['floor: minimal charts']):7.2f} s  {low:.2f}x (min), median "
        f"{mid:.2f}x: as many one-line Matplotlib charts as compare draws, the least compare can take"
    )


if __name__ == "__main__":
    main()
