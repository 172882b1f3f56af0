"""Benchmark of netbenefit.analysis: Monte Carlo and sweeps against two references.

Run from the repository root::

    python benchmarks/bench_analysis.py [--draws 1000000] [--loop 200] [--repeat 3]

(a) ``montecarlo`` of 1,000,000 draws of ``scenarios/office_hq_default_area.yaml`` varying four
keys, timed against

- a straightforward hand-written numpy implementation of the same computation for that scenario
  (same draws, same numbers: the script asserts agreement to 1e-10 relative), and
- a loop of ``netbenefit.evaluate(scenario.replace(...))`` over a sample of the draws, scaled
  per variant;

(b) ``sweep`` of 100,000 combinations (50 x 40 x 50 values of three keys), against the same loop.

Times are the best of ``--repeat`` runs (the machine is shared, so the minimum is the least
noisy). Peak memory is measured in a separate, untimed run of each with ``tracemalloc`` (numpy
reports its buffers to it). The goals: Monte Carlo within 2x the hand-written numpy time, and at
least 100x faster per variant than the evaluate loop.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from pathlib import Path

import numpy as np

import netbenefit
from netbenefit.analysis import montecarlo, sweep
from netbenefit.parameters import parameter

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "office_hq_default_area.yaml"
VARY = {
    "jobs.new": ("normal", 260.0, 25.0),
    "discount_rate": ("uniform", 0.04, 0.08),
    "jobs.median_salary": ("triangular", 85_000.0, 98_000.0, 115_000.0),
    "revenue.earnings_multiplier": ("uniform", 1.4, 1.9),
}
GRID = {
    "jobs.new": np.linspace(150, 400, 50),
    "discount_rate": np.linspace(0.03, 0.09, 40),
    "revenue.earnings_multiplier": np.linspace(1.2, 2.0, 50),
}


def hand_written(scenario, draws: int, seed: int) -> dict[str, np.ndarray]:
    """The office HQ scenario's model written out directly in numpy, for the four varied keys.

    Draws come from the same random streams as ``montecarlo`` (one stream per key, spawned from
    the seed in the order of VARY), so the numbers can be compared row by row.
    """
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(VARY))]
    new_jobs = rngs[0].normal(260.0, 25.0, draws)
    rate = rngs[1].uniform(0.04, 0.08, draws)
    salary0 = rngs[2].triangular(85_000.0, 98_000.0, 115_000.0, draws)
    multiplier = rngs[3].uniform(1.4, 1.9, draws)

    jobs_in, revenue, award = scenario.jobs, scenario.revenue, scenario.award
    period = award.eligibility_period_years * parameter("commitment_period_multiple_of_eligibility_period")
    window_end = award.first_credit_year - 1 + period
    years = np.arange(1, int(np.ceil(window_end)) + 1)
    ramp = np.array(jobs_in.ramp)[np.minimum(years - 1, len(jobs_in.ramp) - 1)]
    capital = np.array([scenario.capital_investment.get(int(t), 0.0) for t in years])
    sales_tax = revenue.sales_and_use_tax_rate

    jobs = new_jobs[:, None] * ramp
    salary = salary0[:, None] * (1.0 + jobs_in.salary_growth) ** (years - 1)
    wages = jobs * salary
    operations = wages * (revenue.income_tax_effective_rate * jobs_in.nj_withholding_share
                          + revenue.taxable_spending_share * sales_tax)
    construction_wages = capital * revenue.construction_labor_share
    construction = construction_wages * (
        revenue.construction_income_tax_rate + revenue.taxable_spending_share * sales_tax
    )
    net = (operations + construction) * multiplier[:, None]
    net += capital * revenue.construction_taxable_share * sales_tax
    net += revenue.corporate_business_tax * (jobs > 0)
    weight = np.clip(window_end - (years - 1.0), 0.0, 1.0)
    discount = (1.0 + rate[:, None]) ** -years.astype(float)
    pv_benefits = (net * weight * discount).sum(axis=1)
    first = award.first_credit_year
    credit_years = (years >= first) & (years < first + award.eligibility_period_years)
    pv_credits = award.annual_credit * discount[:, credit_years].sum(axis=1)
    ratio = pv_benefits / pv_credits
    threshold = parameter("net_benefit_threshold_default")
    passes = ratio >= threshold * (1 - parameter("net_benefit_ratio_relative_tolerance"))
    eligible = passes & (new_jobs >= parameter("other_business_minimum_new_jobs"))
    return {"jobs.new": new_jobs, "pv_benefits": pv_benefits, "pv_credits": pv_credits, "ratio": ratio,
            "passes": passes, "eligible": eligible}


def best_time(function, repeat: int) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return best, value


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
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    scenario = netbenefit.load_scenario(SCENARIO)
    draws, seed = args.draws, args.seed

    def run_montecarlo():
        return montecarlo(scenario, draws=draws, vary=VARY, seed=seed, progress=False)

    def run_hand_written():
        return hand_written(scenario, draws, seed)

    def run_sweep():
        return sweep(scenario, GRID)

    def run_summary_only():
        return montecarlo(scenario, draws=draws, vary=VARY, seed=seed, progress=False, keep_draws=False)

    t_mc, mc = best_time(run_montecarlo, args.repeat)
    t_summary, summary_only = best_time(run_summary_only, args.repeat)
    assert summary_only.summary == mc.summary
    t_np, reference = best_time(run_hand_written, args.repeat)
    for name in ("jobs.new", "pv_benefits", "pv_credits", "ratio"):
        np.testing.assert_allclose(mc.draws[name].to_numpy(), reference[name], rtol=1e-10, err_msg=name)
    for name in ("passes", "eligible"):
        assert np.array_equal(mc.draws[name].to_numpy(), reference[name]), name
    t_sweep, table = best_time(run_sweep, args.repeat)
    assert len(table) == 100_000

    mc_loop = evaluate_loop(scenario, mc.draws, list(VARY), args.loop)
    sweep_loop = evaluate_loop(scenario, table, list(GRID), args.loop)

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
    print(f"netbenefit {netbenefit.__version__}; scenario {SCENARIO.name}; best of {args.repeat}; "
          f"numpy {np.__version__}")
    print(f"{'run':<34}{'variants':>11}{'seconds':>10}{'us/variant':>12}{'peak MB':>10}")
    for name, count, seconds, per, memory in rows:
        print(f"{name:<34}{count:>11,}{seconds:>10.3f}{per * 1e6:>12.3f}{memory:>10.1f}")
    print()
    print(f"montecarlo / hand-written numpy time: {t_mc / t_np:.2f}x (goal: at most 2x); "
          f"summary only {t_summary / t_np:.2f}x")
    print(f"evaluate loop / montecarlo, per variant: {mc_loop / per_mc:,.0f}x faster (goal: at least 100x)")
    print(f"evaluate loop / sweep, per variant: {sweep_loop / per_sweep:,.0f}x faster (goal: at least 100x)")
    print("agreement with the hand-written numpy: ratio, PVs to 1e-10 relative; passes, eligible identical")


if __name__ == "__main__":
    main()
