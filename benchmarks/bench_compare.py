"""Benchmark: ``netbenefit compare`` of the bundled scenarios against evaluating them in one process,
against a floor of minimal charts, and rerun after one edit.

    python benchmarks/bench_compare.py [--repeat N] [--smoke]

Each side is a new process, timed wall-clock (the charts are drawn in parallel processes, so
CPU time of one process would not tell), the sides taking turns in each round so that a change
of load on the shared machine falls on all of them; each ratio is given of the minimum (the
least noisy) and of the median of each side. The bundled scenarios are copied (with their
data files) into a temporary folder first.

- The baseline loads and evaluates the same files in one Python process
  (``python -c "import netbenefit; ..."``).
- ``compare, cold``: every chart drawn (``--no-cache``, into a new folder each round).
- The floor: the baseline's work, then as many charts as ``compare`` draws, each the least a
  reader needs (one line of 11 points, a title, two axis labels and the tick labels; each the
  pixel size of the chart it stands for, with the same layout, resolution and PNG writer as the
  scenario charts, printed by Matplotlib's own Agg canvas as they are), drawn in the same number
  of worker processes forked after the same warm-up and started the same way.
  Goal: a cold ``compare`` within 2.0x of it. Each minimal chart is a plain Matplotlib figure
  printed on a new canvas, the yardstick whatever netbenefit's own figures do. ``compare``'s charts
  are made with their title at the top of the Axes (no search for its place) and printed on the
  canvases each worker keeps (one a size, so that the texts the charts share are measured once a
  worker): the floor is also measured made and printed so (``floor, as the charts``).
- ``compare, rerun after one edit``: before each round (untimed), one scenario's ``jobs.new``
  is changed (by one job, back and forth); then ``compare --force`` into the folder of the
  previous round, which keeps the charts whose inputs did not change. Goal: within 5x of the
  baseline of the same (edited) files. The script checks that the rerun's folder is byte for
  byte the cold run's of the same files.
- ``compare`` with nothing changed, ``--charts summary`` and ``--charts none``, against the
  baseline (``--charts none``: goal 1.5x).

``--smoke``: one round of every measure on one scenario (a check that the script runs, its numbers
not meant to be read).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from matplotlib.figure import Figure

from netbenefit.views.charts.printing import figure_bytes
from netbenefit.views.charts.style import new_figure

ROOT = Path(__file__).resolve().parents[1]
EDITED = "office_hq_default_area.yaml"


def minimal_chart(size: tuple[float, float], index: int = 0, *, as_the_charts: bool = False) -> bytes:
    """The floor's chart ``index`` as a PNG: the least a reader needs (one line of 11 points, a title
    of two lines, two axis labels and the tick labels), ``size`` inches, printed as the scenario
    charts are (:func:`netbenefit.views.charts.printing.figure_bytes`).

    Its figure is made as plain Matplotlib makes one (``Figure(figsize=size, layout="constrained")``,
    the title placed by Matplotlib's search for a place clear of what stands above the Axes), so
    that the floor stays the same yardstick whatever netbenefit's own figures do; with
    ``as_the_charts``, by :func:`netbenefit.views.charts.style.new_figure`, as the scenario charts'
    (their title at the top of the Axes)."""
    if as_the_charts:
        figure, ax = new_figure(size)
    else:
        figure = Figure(figsize=size, layout="constrained")
        ax = figure.add_subplot()
    ax.plot(range(1, 12), [index + k * k for k in range(11)], marker="o")
    ax.set_title(f"Chart {index}\nNet benefit ratio")
    ax.set_xlabel("Project year after approval [year]")
    ax.set_ylabel("Present value [USD]")
    return figure_bytes(figure, "png")


#: The floor: the baseline, then ``chart_count`` minimal charts drawn as ``compare`` draws its own.
FLOOR = """
import io, multiprocessing, os
from concurrent.futures import ProcessPoolExecutor
import netbenefit
from netbenefit.views.charts import meaningful_charts
from netbenefit.views.charts.style import figure_size
from netbenefit.views.result_files import chart_count
from benchmarks.bench_compare import minimal_chart

results = [netbenefit.evaluate(path) for path in FILES]
# the pixel size of each chart compare draws, in its order: the comparison chart, then each scenario's
sizes = [figure_size("compare_ratios", results)]
sizes += [figure_size(chart, result) for result in results for chart in meaningful_charts(result)]
assert len(sizes) == chart_count(results)

def draw(index):
    if AS_THE_CHARTS:  # each worker printing on the canvases it keeps, as compare's workers do
        from netbenefit.views.charts.printing import keep_canvases

        keep_canvases()
    return len(minimal_chart(sizes[index], index, as_the_charts=AS_THE_CHARTS))

workers = min(len(sizes), os.cpu_count() or 1)  # as compare starts them: one per core, at most one a chart
from netbenefit.views.chart_cache import warm_up
from netbenefit.views.result_files import _chart_worker_started
warm_up()  # as compare does before its workers fork, which start as compare's do
fork = multiprocessing.get_context("fork")
with ProcessPoolExecutor(workers, mp_context=fork, initializer=_chart_worker_started, initargs=(os.getpid(),)) as pool:
    assert all(pool.map(draw, range(len(sizes))))
"""


def edit_new_jobs(path: Path) -> None:
    """Change the scenario's ``jobs.new`` by one job (up, then back down on the next call)."""
    text = path.read_text()
    value = int(re.search(r"(?m)^  new: (\d+)", text).group(1))
    new = value + 1 if value % 2 == 0 else value - 1
    path.write_text(re.sub(r"(?m)^(  new: )\d+", rf"\g<1>{new}", text, count=1))


def same_folders(left: Path, right: Path) -> bool:
    """Whether two output folders hold the same files with the same bytes."""
    names = [
        sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())
        for folder in (left, right)
    ]
    if names[0] != names[1]:
        return False
    return all(filecmp.cmp(left / name, right / name, shallow=False) for name in names[0])


def ratio_line(name: str, times: dict, baseline: str, goal: float | None, note: str = "") -> str:
    low = min(times[name]) / min(times[baseline])
    mid = statistics.median(times[name]) / statistics.median(times[baseline])
    verdict = "" if goal is None else f"; goal at most {goal:g}x: {'within' if low <= goal else 'OVER'}"
    return f"{name:<34} {min(times[name]):7.2f} s  {low:.2f}x (min), median {mid:.2f}x{verdict}{note}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one round on one scenario: a check that it runs (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.repeat = 1
    work = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    scenarios = work / "scenarios"
    shutil.copytree(ROOT / "scenarios", scenarios)
    files = sorted(str(path) for path in scenarios.glob("*.yaml") if not args.smoke or path.name == EDITED)
    out = work / "out"
    python = [sys.executable]
    compare = [*python, "-m", "netbenefit", "compare", *files]
    baseline = f"import netbenefit\nfor path in {files!r}:\n    netbenefit.evaluate(path)"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rerun_folder = out / "rerun"
    subprocess.run([*compare, "--out", str(rerun_folder)], check=True, capture_output=True, env=env)  # warm

    times: dict[str, list[float]] = {}

    def timed(name: str, command: list[str]) -> None:
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        times.setdefault(name, []).append(time.perf_counter() - start)

    for round_ in range(args.repeat):
        edit_new_jobs(scenarios / EDITED)  # untimed: the economist's edit
        cold = out / f"cold-{round_}"
        timed("evaluate in one process", [*python, "-c", baseline])
        timed("compare, rerun after one edit", [*compare, "--out", str(rerun_folder), "--force"])
        timed("compare, cold", [*compare, "--out", str(cold), "--no-cache"])
        timed("floor: minimal charts", [*python, "-c", f"FILES = {files!r}\nAS_THE_CHARTS = False\n{FLOOR}"])
        timed("floor, as the charts", [*python, "-c", f"FILES = {files!r}\nAS_THE_CHARTS = True\n{FLOOR}"])
        timed("compare, nothing changed", [*compare, "--out", str(rerun_folder), "--force"])
        timed("compare --charts summary", [*compare, "--out", str(out / "summary"), "--force", "--charts", "summary"])
        timed("compare --charts none", [*compare, "--out", str(out / "none"), "--force", "--charts", "none"])
        assert same_folders(rerun_folder, cold), "the rerun's folder is not the cold run's"
        shutil.rmtree(cold)

    print(
        f"{len(files)} bundled scenarios; {os.cpu_count()} cores; {platform.processor() or platform.machine()}; "
        f"Python {platform.python_version()}; min and median wall-clock seconds of {args.repeat} interleaved runs"
    )
    base = "evaluate in one process"
    print(f"{base:<34} {min(times[base]):7.2f} s  median {statistics.median(times[base]):7.2f} s")
    print(ratio_line("compare, rerun after one edit", times, base, 5.0, "; byte for byte the cold run's folder"))
    print(ratio_line("compare, nothing changed", times, base, None))
    print(ratio_line("compare --charts summary", times, base, None))
    print(ratio_line("compare --charts none", times, base, 1.5))
    print(ratio_line("compare, cold", times, base, None))
    print(ratio_line("floor: minimal charts", times, base, None, ": as many one-line charts as compare draws"))
    print(ratio_line("compare, cold", times, "floor: minimal charts", 2.0, " of the floor"))
    print(ratio_line("compare, cold", times, "floor, as the charts", None, " of the floor drawn as the charts"))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
