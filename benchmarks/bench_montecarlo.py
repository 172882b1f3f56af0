"""Benchmark: ``montecarlo`` against a fused numpy reference that uses the model's structure.

    python benchmarks/bench_montecarlo.py [--draws 1000000] [--repeat 5]

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
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

import numpy as np
import pandas as pd

import netbenefit
from netbenefit.analysis import montecarlo
from netbenefit.analysis.montecarlo import PERCENTILES
from netbenefit.parameters import parameter

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "office_hq_default_area.yaml"
VARY = {
    "jobs.new": ("normal", 260.0, 25.0),
    "discount_rate": ("uniform", 0.04, 0.08),
    "jobs.median_salary": ("triangular", 85_000.0, 98_000.0, 115_000.0),
    "revenue.earnings_multiplier": ("uniform", 1.4, 1.9),
}
GOAL = 2.0


def fused(scenario, draws: int, seed: int, chunk: int = 100_000) -> dict[str, np.ndarray]:
    """The office HQ scenario's Monte Carlo written for its structure: four polynomials in
    ``1 / (1 + r)`` a draw, evaluated by Horner's rule over chunks of ``chunk`` draws."""
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(VARY))]
    new_jobs = rngs[0].normal(260.0, 25.0, draws)
    rate = rngs[1].uniform(0.04, 0.08, draws)
    salary = rngs[2].triangular(85_000.0, 98_000.0, 115_000.0, draws)
    multiplier = rngs[3].uniform(1.4, 1.9, draws)
    assert new_jobs.min() > 0  # so that the corporation business tax is due every year with jobs

    jobs_in, revenue, award = scenario.jobs, scenario.revenue, scenario.award
    period = award.eligibility_period_years * parameter("commitment_period_multiple_of_eligibility_period")
    window_end = award.first_credit_year - 1 + period
    years = np.arange(1, int(np.ceil(window_end)) + 1)
    ramp = np.array(jobs_in.ramp)[np.minimum(years - 1, len(jobs_in.ramp) - 1)]
    capital = np.array([scenario.capital_investment.get(int(t), 0.0) for t in years])
    sales_tax = revenue.sales_and_use_tax_rate
    weight = np.clip(window_end - (years - 1.0), 0.0, 1.0)
    first = award.first_credit_year
    credit_years = (years >= first) & (years < first + award.eligibility_period_years)
    growth = (1.0 + jobs_in.salary_growth) ** (years - 1)
    operations_rate = (
        revenue.income_tax_effective_rate * jobs_in.nj_withholding_share + revenue.taxable_spending_share * sales_tax
    )
    construction = capital * revenue.construction_labor_share * (
        revenue.construction_income_tax_rate + revenue.taxable_spending_share * sales_tax
    )
    coefficients = np.array(
        [
            weight * ramp * growth * operations_rate,  # x jobs x salary x multiplier
            weight * construction,  # x multiplier
            weight * capital * revenue.construction_taxable_share * sales_tax
            + weight * revenue.corporate_business_tax * (ramp > 0),
            award.annual_credit * credit_years,  # the credits
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
    threshold = parameter("net_benefit_threshold_default")
    passes = ratio >= threshold * (1 - parameter("net_benefit_ratio_relative_tolerance"))
    eligible = passes & (new_jobs >= parameter("other_business_minimum_new_jobs"))
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
    args = parser.parse_args()
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
