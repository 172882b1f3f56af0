"""Benchmark: the explorer (``netbenefit.explore``) opening and following a slider, against a floor.

    python benchmarks/bench_explore.py [--repeat N] [--moves N] [--smoke]

``--smoke``: one round of two moves, each measure taken once (a check that the script runs, its
numbers not meant to be read). Needs ipywidgets (``pip install 'netbenefit[explore]'``).

The scenario is ``scenarios/office_hq_default_area.yaml``. Each measure is CPU time of this
process (``time.process_time``: the drawing is single-threaded, and the CPU time of a process is
less disturbed by the other work of a shared machine than wall-clock time; wall-clock is printed
too). The sides take turns in each round (interleaved repeats), so that a change of load falls on
all of them; each ratio is given of the minimum (the least noisy) and of the median of each side.

- first open: a new Python process imports netbenefit and opens the explorer (what a notebook's
  first cell pays), against a new process that imports netbenefit, evaluates the scenario and
  prints the floor's minimal chart. Wall-clock (each side is a whole process).
- open: ``Explorer(scenario)`` again in this process (ipywidgets' widgets made in memory, no browser): the drivers
  ranked (a one-way sensitivity of 16 keys), the scenario evaluated, the chart drawn and printed
  as a PNG. Floor: one evaluation and one minimal chart (one line of 11 points, a title of two
  lines, two axis labels, the tick labels: ``bench_compare.minimal_chart``) of the same pixel size
  as the explorer's chart, printed the same way. Goal: under 1 s on a quiet machine.
- move: a slider set to a new value (``jobs.new``, by turns up and down): the variant evaluated,
  the chart's artists updated and the chart printed again, as a drag does (the artists a move
  changes drawn over the background kept from the previous print; after each round the script
  checks that the image shown is byte for byte a whole print of the same figure). Floor: one
  evaluation of the same variant and one minimal chart of the same pixel size (a plain Matplotlib
  figure; beside it, the move against the floor's chart made as netbenefit's charts are, their
  title at the top of the Axes, for comparison). Goal: at most 0.85x
  the floor (min and median) and a median under 50 ms on a quiet machine. The ratio to the floor is
  the main figure (a busy machine slows both sides). Beside them, the drawing the explorer did
  before it kept its figure (a new figure for each move: the variant evaluated, the cumulative PV
  chart drawn whole and printed).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the floor's new process imports this file as benchmarks.bench_explore

import netbenefit  # noqa: E402
from benchmarks.bench_compare import minimal_chart  # noqa: E402
from netbenefit.views.charts import cumulative_pv  # noqa: E402
from netbenefit.views.charts.printing import figure_bytes  # noqa: E402
from netbenefit.views.charts.style import new_figure  # noqa: E402
from netbenefit.views.explore import Explorer  # noqa: E402
from netbenefit.views.live_chart import CHART_DPI, CHART_SIZE  # noqa: E402

SCENARIO = ROOT / "scenarios" / "office_hq_default_area.yaml"
#: The key moved by a drag, and how far each move takes it.
KEY, STEP = "jobs.new", 1


def timed(work) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``work()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def floor_chart(as_the_charts: bool = False) -> bytes:
    """The floor's minimal chart at the pixel size of the explorer's chart (printed at 150 dpi by
    ``minimal_chart``, so its size in inches is scaled from the explorer's resolution): a plain
    Matplotlib figure, or with ``as_the_charts`` one made as netbenefit's charts are (its title at the
    top of the Axes)."""
    scale = CHART_DPI / 150
    return minimal_chart((CHART_SIZE[0] * scale, CHART_SIZE[1] * scale), as_the_charts=as_the_charts)


#: The two sides of the first open, each run in a new process; each prints its own seconds.
FIRST_OPEN = """
import time
start = time.perf_counter()
import netbenefit
scenario = netbenefit.load_scenario({path!r})
{work}
print(time.perf_counter() - start)
"""
OPEN_WORK = "from netbenefit.views.explore import Explorer\nExplorer(scenario)"
FLOOR_WORK = "from benchmarks.bench_explore import floor_chart\nnetbenefit.evaluate(scenario)\nfloor_chart()"


def first_open(work: str) -> tuple[float, float]:
    """(seconds inside the new process, seconds of the whole process) of ``work`` after import."""
    code = FIRST_OPEN.format(path=str(SCENARIO), work=work)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return float(run.stdout.strip().splitlines()[-1]), time.perf_counter() - start


def new_figure_move(variant) -> bytes:
    """A move as the explorer drew it before: the variant evaluated, a new chart drawn whole and printed."""
    figure, ax = new_figure(CHART_SIZE)
    cumulative_pv(netbenefit.evaluate(variant), ax=ax)
    return figure_bytes(figure, "png", dpi=CHART_DPI)


def summary(name: str, ours: list[tuple[float, float]], floor: list[tuple[float, float]], goal: str) -> None:
    for which, index in (("CPU", 0), ("wall", 1)):
        a, b = [t[index] for t in ours], [t[index] for t in floor]
        print(
            f"{name} {which}: {1e3 * min(a):7.1f} ms min, {1e3 * statistics.median(a):7.1f} ms median; "
            f"floor {1e3 * min(b):6.1f} ms min, {1e3 * statistics.median(b):6.1f} ms median; "
            f"ratio {min(a) / min(b):.2f}x (min), {statistics.median(a) / statistics.median(b):.2f}x (median)"
        )
    print(f"      goal: {goal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="rounds of each measure (default 7)")
    parser.add_argument("--moves", type=int, default=20, help="slider moves per round (default 20)")
    parser.add_argument("--smoke", action="store_true", help="one round of two moves: a check that it runs (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.repeat, args.moves = 1, 2

    scenario = netbenefit.load_scenario(SCENARIO)
    netbenefit.evaluate(scenario)  # imports and first-use caches warmed on both sides
    floor_chart()
    Explorer(scenario)

    cold, cold_floor = [], []
    for _ in range(args.repeat):
        cold.append(first_open(OPEN_WORK))
        cold_floor.append(first_open(FLOOR_WORK))
    opening, opening_floor, moving, moving_floor, before, floor_as_the_charts = [], [], [], [], [], []
    for _ in range(args.repeat):
        holder = {}
        opening.append(timed(lambda h=holder: h.setdefault("explorer", Explorer(scenario))))
        opening_floor.append(timed(lambda: (netbenefit.evaluate(scenario), floor_chart())))
        explorer = holder["explorer"]
        slider = explorer.sliders.get(KEY) or next(iter(explorer.sliders.values()))
        key = next(k for k, s in explorer.sliders.items() if s is slider)
        start = slider.value
        for move in range(args.moves):
            value = start + STEP * (1 if move % 2 == 0 else 0)  # by turns up and back
            moving.append(timed(lambda v=value, s=slider: setattr(s, "value", v)))
            variant = scenario.replace({key: value})
            moving_floor.append(timed(lambda v=variant: (netbenefit.evaluate(v), floor_chart())))
            before.append(timed(lambda v=variant: new_figure_move(v)))
            floor_as_the_charts.append(timed(lambda v=variant: (netbenefit.evaluate(v), floor_chart(True))))
        assert explorer.live is not None and explorer.result.ratio > 0
        assert explorer.chart.value == figure_bytes(explorer.live.figure, "png", dpi=CHART_DPI), "not a whole print"
    print(f"{SCENARIO.name}: {args.repeat} rounds, {args.moves} moves of {KEY} a round, interleaved")
    a, b = [t[0] for t in cold], [t[0] for t in cold_floor]
    print(
        f"first open (new process, import included, wall): {min(a):.2f} s min, {statistics.median(a):.2f} s median; "
        f"floor {min(b):.2f} s min, {statistics.median(b):.2f} s median; ratio {min(a) / min(b):.2f}x (min), "
        f"{statistics.median(a) / statistics.median(b):.2f}x (median); goal: under 1 s on a quiet machine"
    )
    summary("open", opening, opening_floor, "under 1 s on a quiet machine")
    summary("move", moving, moving_floor, "at most 0.85x the floor; a median under 50 ms on a quiet machine")
    summary("new figure each move (before)", before, moving_floor, "(for comparison)")
    summary("move / the floor made as the charts", moving, floor_as_the_charts, "(for comparison)")


if __name__ == "__main__":
    main()
