"""Benchmark: ``montecarlo`` against a fused numpy reference that uses the model's structure.

    python benchmarks/bench_montecarlo.py [--draws 1000000] [--repeat 5] [--smoke]

1,000,000 draws of four keys of ``scenarios/office_hq_default_area.yaml`` (as in
``bench_analysis.py``), draws kept, against a reference written for this scenario alone: jobs,
salary and the earnings multiplier enter its benefits linearly, so each draw needs four
polynomials in ``x = 1 / (1 + r)`` (the coefficients of jobs x salary x multiplier, of the
multiplier, of the constant benefits, and of the credits), evaluated by Horner's rule; no draws x
years array; then, as ``montecarlo`` does with its draws kept, it makes the table of the draws (a
DataFrame of the same columns) and the summary (the shares that pass and are eligible, the mean
ratio and its five percentiles): the goal is measured against that reference ("same outputs");
the ratio to the numbers alone is printed too. Both sides make the same draws (one stream per
key, spawned from the seed in the order of VARY); the script asserts that the present values
and ratios agree to 1e-12 relative and the pass and eligibility flags are identical.

Each side is timed in CPU seconds ``--repeat`` times, interleaved with ``montecarlo`` on its
general path (``use_structure=False``) and the reference, so that a change of load on the shared
machine falls on every side; ratios of the minimum and of the median. Goal: within 2x.

``--smoke``: one run of each side, 2,000 draws (a check that the script runs, its numbers not meant
to be read).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

import numpy as np
import pandas as pd
from office_reference import VARY, draws_of, flags, timeline

import netbenefit
from netbenefit.analysis import montecarlo
from netbenefit.analysis.montecarlo import PERCENTILES

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "office_hq_default_area.yaml"
GOAL = 2.0


def fused(scenario, draws: int, seed: int, chunk: int = 100_000) -> dict[str, np.ndarray]:
    """The office HQ scenario's Monte Carlo written for its structure: four polynomials in
    ``1 / (1 + r)`` a draw, evaluated by Horner's rule over chunks of ``chunk`` draws."""
    new_jobs, rate, salary, multiplier = draws_of(seed, draws)
    assert new_jobs.min() > 0  # so that the corporation business tax is due every year with jobs
    line, revenue = timeline(scenario), scenario.revenue
    years, weight, ramp = line.years, line.weight, line.ramp
    coefficients = np.array(
        [
            weight * ramp * line.growth * line.operations_rate,  # x jobs x salary x multiplier
            weight * line.construction_wages * line.construction_rate,  # x multiplier
            weight * line.construction_sales + weight * revenue.corporate_business_tax * (ramp > 0),
            scenario.award.annual_credit * line.credit_years,  # the credits
        ]
    )
    pv = np.empty((4, draws))
    for start in range(0, draws, chunk):
        part = slice(start, min(draws, start + chunk))
        x = 1.0 / (1.0 + rate[part])
        total = np.zeros((4, x.size))
        for t in range(len(years) - 1, -1, -1):  # Horner: sum_t c_t x^(t + 1)
            total += coefficients[:, t : t + 1]
            total *= x
        pv[:, part] = total
    pv_benefits = new_jobs * salary * multiplier * pv[0] + multiplier * pv[1] + pv[2]
    pv_credits = pv[3]
    ratio = pv_benefits / pv_credits
    threshold, passes, eligible = flags(new_jobs, ratio)
    return {"jobs.new": new_jobs, "discount_rate": rate, "jobs.median_salary": salary,
            "revenue.earnings_multiplier": multiplier, "pv_benefits": pv_benefits, "pv_credits": pv_credits,
            "ratio": ratio, "threshold": np.full(draws, threshold), "passes": passes, "eligible": eligible}


def fused_with_outputs(scenario, draws: int, seed: int) -> tuple[pd.DataFrame, dict[str, float]]:
    """:func:`fused`, then what ``montecarlo`` gives with its draws kept: the table of the draws
    (the same columns: the keys, the present values, ratio, threshold, flags and note) and the
    summary (the shares that pass and are eligible, the mean ratio and its five percentiles)."""
    columns = fused(scenario, draws, seed)
    columns["note"] = pd.Categorical.from_codes(np.zeros(draws, dtype=np.int8), categories=["", "credits are zero"])
    table = pd.DataFrame(columns, copy=False)
    ratio = columns["ratio"]
    summary = {
        "probability_passes": np.count_nonzero(columns["passes"]) / draws,
        "probability_eligible": np.count_nonzero(columns["eligible"]) / draws,
        "ratio_mean": float(np.mean(ratio)),
        **{f"ratio_p{p}": float(v) for p, v in zip(PERCENTILES, np.percentile(ratio, PERCENTILES), strict=True)},
    }
    return table, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--smoke", action="store_true", help="one small run of each side: a check that it runs (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.draws, args.repeat = 2_000, 1
    scenario = netbenefit.load_scenario(SCENARIO)
    draws, seed = args.draws, args.seed
    sides = {
        "montecarlo": lambda: montecarlo(scenario, draws=draws, vary=VARY, seed=seed, progress=False),
        "montecarlo, general path": lambda: montecarlo(
            scenario, draws=draws, vary=VARY, seed=seed, progress=False, use_structure=False
        ),
        "fused numpy, same outputs": lambda: fused_with_outputs(scenario, draws, seed),
        "fused numpy, numbers alone": lambda: fused(scenario, draws, seed),
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    values = {}
    for _ in range(args.repeat):
        for name, side in sides.items():
            gc.collect()
            start = time.process_time()
            values[name] = side()
            times[name].append(time.process_time() - start)
    reference = values["fused numpy, numbers alone"]
    table, summary = values["fused numpy, same outputs"]
    assert np.isclose(summary["ratio_p50"], values["montecarlo"].summary.ratio_percentiles[50], rtol=1e-12, atol=0)
    assert summary["probability_passes"] == values["montecarlo"].summary.probability_passes
    for run in ("montecarlo", "montecarlo, general path"):
        table = values[run].draws
        for name in ("jobs.new", "pv_benefits", "pv_credits", "ratio"):
            np.testing.assert_allclose(table[name].to_numpy(), reference[name], rtol=1e-12, atol=0, err_msg=name)
        for name in ("passes", "eligible"):
            assert np.array_equal(table[name].to_numpy(), reference[name]), name
    print(f"netbenefit {netbenefit.__version__}; numpy {np.__version__}; {SCENARIO.name}; {draws:,} draws of "
          f"{len(VARY)} keys, draws kept; CPU seconds of {args.repeat} interleaved runs")
    for name in sides:
        print(f"{name:<26} min {min(times[name]):7.3f} s  median {statistics.median(times[name]):7.3f} s")
    for reference_name in ("fused numpy, same outputs", "fused numpy, numbers alone"):
        base, base_median = min(times[reference_name]), statistics.median(times[reference_name])
        for name in ("montecarlo", "montecarlo, general path"):
            low, mid = min(times[name]) / base, statistics.median(times[name]) / base_median
            goal = ""
            if name == "montecarlo" and reference_name.endswith("same outputs"):
                goal = f"; goal at most {GOAL:g}x: {'within' if low <= GOAL else 'OVER'}"
            print(f"{name} / {reference_name}: {low:.2f}x (min), median {mid:.2f}x{goal}")
    print("agreement with the fused reference: PVs and ratio to 1e-12 relative; passes, eligible identical")


if __name__ == "__main__":
    main()
