"""Benchmark: a 200,000-row table of Monte Carlo draws shown in a notebook (its ``_repr_html_``).

    python benchmarks/bench_tables.py [--rows 200000] [--repeat 5] [--smoke]

The table is ``netbenefit.montecarlo(...).draws`` of ``scenarios/office_hq_default_area.yaml``
(four keys varied), sliced to ``--rows`` rows: a ``ResultTable``, shown with its cells by unit.
Three sides, each timed in CPU seconds (``time.process_time``) ``--repeat`` times, taking turns in
each round (interleaved repeats), so that a change of load on the shared machine falls on all of
them; the ratios are given of the minimum (the least noisy) and of the median of each side:

- now: ``table._repr_html_()``, the one renderer (:mod:`netbenefit.views.html.table`), which
  formats and escapes the rows pandas would show (``display.max_rows``: 10 of 200,000) and no other;
- before: the renderer it replaced, pandas' Styler over every row, each column formatted by its
  unit (``netbenefit.views.notebook.styled``, then ``Styler.to_html``), as ``result_table_html``
  made it until this change (no escaping, no truncation);
- pandas: ``pandas.DataFrame(table)._repr_html_()``, pandas' own display of the same table (the
  same rows, its own number formats): the baseline.

The size of each page is printed too. ``--smoke``: 2,000 rows, one repeat (a check that the script
runs, its times not a measurement).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

import netbenefit  # noqa: E402
from netbenefit.views.notebook import STYLE, styled  # noqa: E402

SCENARIO = ROOT / "scenarios" / "office_hq_default_area.yaml"
VARY = {
    "jobs.new": ("normal", 260, 25),
    "discount_rate": ("uniform", 0.04, 0.08),
    "jobs.median_salary": ("triangular", 90_000, 98_000, 110_000),
    "revenue.earnings_multiplier": ("uniform", 1.4, 1.8),
}


def before(table) -> str:
    """``result_table_html`` as it was: pandas' Styler over every row (the notebook extra's path)."""
    plain = pd.DataFrame(table)
    styler = styled(plain, unknown=table._unknown_unit, units=table._units)
    if plain.index.name is None and isinstance(plain.index, pd.RangeIndex):
        styler = styler.hide(axis="index")
    return f'<div class="netbenefit"><style>{STYLE}</style>{styler.to_html()}</div>'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="2,000 rows, one repeat: a check that it runs")
    args = parser.parse_args()
    if args.smoke:
        args.rows, args.repeat = 2_000, 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = netbenefit.montecarlo(SCENARIO, draws=args.rows, vary=VARY, seed=1, progress=False)
    table = run.draws.iloc[: args.rows]
    sides = {"now": table._repr_html_, "before": lambda: before(table), "pandas": pd.DataFrame(table)._repr_html_}
    sizes = {name: len(work().encode("utf-8")) for name, work in sides.items()}  # warmed, and measured
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.repeat):
        for name, work in sides.items():
            start = time.process_time()
            work()
            times[name].append(time.process_time() - start)
    print(f"{len(table):,} rows x {len(table.columns)} columns; {args.repeat} interleaved repeats, CPU seconds")
    for name in sides:
        print(
            f"  {name:7s} min {min(times[name]):8.4f} s  median {statistics.median(times[name]):8.4f} s"
            f"  page {sizes[name]:>12,} bytes"
        )
    for name, baseline in (("before", "now"), ("now", "pandas"), ("before", "pandas")):
        low = min(times[name]) / min(times[baseline])
        middle = statistics.median(times[name]) / statistics.median(times[baseline])
        print(f"  {name} / {baseline}: {low:,.4g}x (median {middle:,.4g}x)")


if __name__ == "__main__":
    main()
