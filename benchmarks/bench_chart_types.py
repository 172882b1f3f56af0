"""Benchmark: where each chart type's time goes, against the floor's minimal chart of its size.

    python benchmarks/bench_chart_types.py [--rounds N] [--smoke]

One process draws the charts of a cold ``compare`` of the bundled scenarios, in compare's
order, as its workers draw them (started as they are; :func:`netbenefit.views.charts.printing.figure_bytes`:
Matplotlib's own Agg canvas, 150 dpi, the same PNG writer), for ``N`` rounds after a warm-up round;
beside each chart, the minimal chart of ``bench_compare.py``'s floor (one line of 11 points, a title,
two axis labels) at the same pixel size, drawn the same way. CPU milliseconds per chart, the mean of the rounds:

- building: the chart function on a new figure;
- layout: Matplotlib's constrained layout, which the print runs (text measured there);
- printing: the rest of the print, drawing into the Agg canvas;
- PNG: Pillow's encoder;
- glyphs (texts): the characters other than spaces of the texts the print draws, and the texts.

``--smoke``: the charts of one scenario, one round after the warm-up (a check that the script runs,
its numbers not meant to be read).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

import PIL.Image
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.layout_engine import ConstrainedLayoutEngine

import netbenefit
from netbenefit.views import charts
from netbenefit.views.chart_cache import warm_up
from netbenefit.views.charts.printing import figure_bytes
from netbenefit.views.charts.style import figure_size
from netbenefit.views.result_files import _chart_jobs, _chart_worker_started

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.bench_compare import minimal_chart  # noqa: E402  (the floor's chart)

#: The scenario of ``--smoke``.
SMOKE_SCENARIO = "office_hq_default_area.yaml"

PHASES = ("building", "layout", "printing", "PNG")


class Clock:
    """CPU time spent inside wrapped functions, by phase (the outermost call of each counts)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self.depth = 0

    def wrap(self, owner, name: str, phase: str) -> None:
        function = getattr(owner, name)

        def timed(*args, **kwargs):
            if self.depth:
                return function(*args, **kwargs)
            self.depth += 1
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent[phase] += time.process_time() - start
                self.depth -= 1

        setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--smoke", action="store_true", help="one scenario, one round: a check that it runs (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 1

    files = sorted((ROOT / "scenarios").glob("*.yaml"))
    if args.smoke:
        files = [ROOT / "scenarios" / SMOKE_SCENARIO]
    results = [netbenefit.evaluate(path) for path in files]
    jobs = _chart_jobs(results, "all")
    warm_up()
    _chart_worker_started(os.getppid())  # the garbage collector as in compare's workers (this process its own worker)

    clock = Clock()
    clock.wrap(ConstrainedLayoutEngine, "execute", "layout")
    clock.wrap(PIL.Image.Image, "save", "PNG")
    renderer = RendererAgg  # the renderer every PNG is printed with
    texts = {"glyphs": 0, "texts": 0}
    draw_text = renderer.draw_text

    def counted(self, gc, x, y, s, *args, **kwargs):
        texts["glyphs"] += sum(not c.isspace() for c in s)
        texts["texts"] += 1
        return draw_text(self, gc, x, y, s, *args, **kwargs)

    renderer.draw_text = counted

    table: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for round_ in range(args.rounds + 1):  # the first is the warm-up
        for index, chart in jobs:
            drawn_for = results if index is None else results[index]
            clock.spent.clear()
            texts.update(glyphs=0, texts=0)
            start = time.process_time()
            figure = charts.draw(chart, drawn_for)
            built = time.process_time()
            clock.spent.clear()  # a layout the chart function ran is building
            image = figure_bytes(figure, "png")
            printed = time.process_time()
            spent = dict(clock.spent)  # the print's, before the floor's chart
            floor_start = time.process_time()
            minimal_chart(figure_size(chart, drawn_for), 1)
            floor_time = time.process_time() - floor_start
            if round_ == 0:
                continue
            row = table[chart]
            row["n"] += 1
            row["building"] += built - start
            row["layout"] += spent.get("layout", 0.0)
            row["PNG"] += spent.get("PNG", 0.0)
            row["printing"] += printed - built - spent.get("layout", 0.0) - spent.get("PNG", 0.0)
            row["floor"] += floor_time
            row["glyphs"] += texts["glyphs"]
            row["texts"] += texts["texts"]
            row["bytes"] += len(image)

    print(
        f"{len(files)} bundled scenarios, {len(jobs)} charts; {os.cpu_count()} cores; "
        f"{platform.processor() or platform.machine()}; Python {platform.python_version()}; "
        f"CPU milliseconds per chart, mean of {args.rounds} rounds after a warm-up"
    )
    print()
    columns = ["chart", "n", *PHASES, "total", "the floor at its size", "glyphs (texts)", "PNG size"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    total = floor = 0.0
    for chart, row in table.items():
        count = row["n"]
        per = {phase: 1000 * row[phase] / count for phase in PHASES}
        chart_total = sum(per.values())
        total += sum(row[phase] for phase in PHASES) / args.rounds
        floor += row["floor"] / args.rounds
        print(
            f"| `{chart}` | {count // args.rounds:.0f} | "
            + " | ".join(f"{per[phase]:.0f}" for phase in PHASES)
            + f" | {chart_total:.0f} | {1000 * row['floor'] / count:.0f} | "
            f"{row['glyphs'] / count:,.0f} ({row['texts'] / count:.0f}) | {row['bytes'] / count / 1024:.0f} KB |"
        )
    print()
    print(f"all {len(jobs)} charts: {total:.1f} s of CPU; as many minimal charts of the same sizes: {floor:.1f} s")


if __name__ == "__main__":
    main()
