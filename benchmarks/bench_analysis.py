"""Benchmark of netbenefit.analysis: Monte Carlo and sweeps against two references.

Run from the repository root::

    python benchmarks/bench_analysis.py [--draws 1000000] [--loop 200] [--repeat 5] [--smoke]

(a) ``montecarlo`` of 1,000,000 draws of ``scenarios/office_hq_default_area.yaml`` varying four
keys, timed against

- a straightforward hand-written numpy implementation of the same computation for that scenario
  (same draws, same numbers: the script asserts agreement to 1e-10 relative), and
- a loop of ``netbenefit.evaluate(scenario.replace(...))`` over a sample of the draws, scaled
  per variant;

(b) ``sweep`` of 100,000 combinations (50 x 40 x 50 values of three keys), against the same loop.

Both sides make their draws. Each is timed in CPU seconds (``time.process_time``) ``--repeat``
times, the runs interleaved (montecarlo, summary only, numpy, sweep, then again), so that a change
of load on the shared machine falls on every side; the ratios are given of the minimum (the least
noisy) and of the median of each side. Peak memory is measured in a separate, untimed run of each
with ``tracemalloc`` (numpy
reports its buffers to it). The goals: Monte Carlo within 1.5x the hand-written numpy CPU time, and
at least 100x faster per variant than the evaluate loop.

``--smoke``: one run of each side, 2,000 draws, a sweep of 100 combinations (every tenth value of
each key) and 3 variants evaluated one by one (a check that the script runs, its numbers not meant
to be read).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from pathlib import Path

import numpy as np
from office_reference import VARY, draws_of, flags, timeline

import netbenefit
from netbenefit.analysis import montecarlo, sweep

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "office_hq_default_area.yaml"
GRID = {
    "jobs.new": np.linspace(150, 400, 50),
    "discount_rate": np.linspace(0.03, 0.09, 40),
    "revenue.earnings_multiplier": np.linspace(1.2, 2.0, 50),
}


def hand_written(scenario, draws: int, seed: int, chunk: int = 100_000) -> dict[str, np.ndarray]:
    """The office HQ scenario's model written out directly in numpy, for the four varied keys.

    Draws come from the same random streams as ``montecarlo`` (one stream per key, spawned from
    the seed in the order of VARY), so the numbers can be compared row by row. Everything that
    does not vary is computed once; the rest in chunks of ``chunk`` draws, as the library does.
    """
    new_jobs, rate, salary0, multiplier = draws_of(seed, draws)
    line, revenue, award = timeline(scenario), scenario.revenue, scenario.award
    years, ramp, growth = line.years, line.ramp, line.growth
    construction = line.construction_wages * line.construction_rate

    pv_benefits, pv_credits = np.empty(draws), np.empty(draws)
    for start in range(0, draws, chunk):  # chunks, as the library, so that both work in cache-sized pieces
        part = slice(start, min(draws, start + chunk))
        jobs = new_jobs[part, None] * ramp
        wages = jobs * (salary0[part, None] * growth)
        net = (wages * line.operations_rate + construction) * multiplier[part, None]
        net += line.construction_sales
        net += revenue.corporate_business_tax * (jobs > 0)
        discount = np.exp(-years * np.log1p(rate[part, None]))
        pv_benefits[part] = np.einsum("ij,ij->i", net, discount * line.weight)
        pv_credits[part] = award.annual_credit * discount[:, line.credit_years].sum(axis=1)
    ratio = pv_benefits / pv_credits
    _, passes, eligible = flags(new_jobs, ratio)
    return {"jobs.new": new_jobs, "pv_benefits": pv_benefits, "pv_credits": pv_credits, "ratio": ratio,
            "passes": passes, "eligible": eligible}


def interleaved_cpu_times(functions: dict, repeat: int) -> tuple[dict[str, list[float]], dict[str, object]]:
    """CPU seconds (``time.process_time``) of each function, ``repeat`` times, the functions taking
    turns in each round so that a change of load on the shared machine falls on all of them."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    values: dict[str, object] = {}
    for _ in range(repeat):
        for name, function in functions.items():
            gc.collect()
            start = time.process_time()
            values[name] = function()
            times[name].append(time.process_time() - start)
    return times, values


def ratio_line(label: str, times: dict[str, list[float]], numerator: str, denominator: str, goal: float) -> str:
    """``label: min a/b (min of each side), median a/b (median of each side), against the goal``."""
    low = min(times[numerator]) / min(times[denominator])
    mid = statistics.median(times[numerator]) / statistics.median(times[denominator])
    verdict = "within" if low <= goal else "OVER"
    return f"{label}: {low:.2f}x (min CPU time of each side), median {mid:.2f}x; goal at most {goal:g}x: {verdict}"


def peak_memory(function) -> float:
    """Peak traced memory of one call. [MB]"""
    gc.collect()
    tracemalloc.start()
    function()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def evaluate_loop(scenario, table, keys, count: int) -> float:
    """Seconds per variant of ``evaluate(scenario.replace(row))`` over the first ``count`` rows."""
    rows = table.head(count)
    start = time.perf_counter()
    for row in rows.itertuples(index=False):
        changes = {key: float(value) for key, value in zip(keys, row, strict=False)}
        result = netbenefit.evaluate(scenario.replace(changes))
        assert abs(result.ratio - row.ratio) <= 1e-9 * abs(result.ratio)
    return (time.perf_counter() - start) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1_000_000)
    parser.add_argument("--loop", type=int, default=200, help="variants evaluated one by one")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--smoke", action="store_true", help="one small run of each side: a check that it runs (CI)")
    args = parser.parse_args()
    grid = GRID
    if args.smoke:
        args.draws, args.loop, args.repeat = 2_000, 3, 1
        grid = {key: values[::10] for key, values in GRID.items()}
    scenario = netbenefit.load_scenario(SCENARIO)
    draws, seed = args.draws, args.seed

    def run_montecarlo():
        return montecarlo(scenario, draws=draws, vary=VARY, seed=seed, progress=False)

    def run_hand_written():
        return hand_written(scenario, draws, seed)

    def run_sweep():
        return sweep(scenario, grid)

    def run_summary_only():
        return montecarlo(scenario, draws=draws, vary=VARY, seed=seed, progress=False, keep_draws=False)

    times, values = interleaved_cpu_times(
        {
            "montecarlo": run_montecarlo,
            "summary": run_summary_only,
            "numpy": run_hand_written,
            "sweep": run_sweep,
        },
        args.repeat,
    )
    mc, summary_only, reference, table = values["montecarlo"], values["summary"], values["numpy"], values["sweep"]
    assert summary_only.summary == mc.summary
    for name in ("jobs.new", "pv_benefits", "pv_credits", "ratio"):
        np.testing.assert_allclose(mc.draws[name].to_numpy(), reference[name], rtol=1e-10, err_msg=name)
    for name in ("passes", "eligible"):
        assert np.array_equal(mc.draws[name].to_numpy(), reference[name]), name
    assert len(table) == np.prod([len(values) for values in grid.values()])
    t_mc, t_summary, t_np, t_sweep = (min(times[name]) for name in ("montecarlo", "summary", "numpy", "sweep"))

    mc_loop = evaluate_loop(scenario, mc.draws, list(VARY), args.loop)
    sweep_loop = evaluate_loop(scenario, table, list(grid), args.loop)

    mem_mc = peak_memory(run_montecarlo)
    mem_summary = peak_memory(run_summary_only)
    mem_np = peak_memory(run_hand_written)
    mem_sweep = peak_memory(run_sweep)

    per_mc, per_sweep = t_mc / draws, t_sweep / len(table)
    rows = [
        ("montecarlo, draws kept", draws, t_mc, per_mc, mem_mc),
        ("montecarlo, summary only", draws, t_summary, t_summary / draws, mem_summary),
        ("hand-written numpy", draws, t_np, t_np / draws, mem_np),
        ("evaluate loop (Monte Carlo rows)", args.loop, mc_loop * args.loop, mc_loop, float("nan")),
        ("sweep", len(table), t_sweep, per_sweep, mem_sweep),
        ("evaluate loop (sweep rows)", args.loop, sweep_loop * args.loop, sweep_loop, float("nan")),
    ]
    print(f"netbenefit {netbenefit.__version__}; scenario {SCENARIO.name}; min CPU seconds of {args.repeat} "
          f"interleaved runs; numpy {np.__version__}")
    print(f"{'run':<34}{'variants':>11}{'seconds':>10}{'us/variant':>12}{'peak MB':>10}")
    for name, count, seconds, per, memory in rows:
        print(f"{name:<34}{count:>11,}{seconds:>10.3f}{per * 1e6:>12.3f}{memory:>10.1f}")
    print()
    print(ratio_line("montecarlo (draws kept) / hand-written numpy", times, "montecarlo", "numpy", 1.5))
    print(ratio_line("montecarlo (summary only) / hand-written numpy", times, "summary", "numpy", 1.5))
    print(f"evaluate loop / montecarlo, per variant: {mc_loop / per_mc:,.0f}x faster (goal: at least 100x)")
    print(f"evaluate loop / sweep, per variant: {sweep_loop / per_sweep:,.0f}x faster (goal: at least 100x)")
    print("agreement with the hand-written numpy: ratio, PVs to 1e-10 relative; passes, eligible identical")


if __name__ == "__main__":
    main()
