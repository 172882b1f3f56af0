"""Benchmark: ``evaluate`` and ``load_scenario`` against a hand-written numpy computation, and the
command line's cold start against ``import pandas``.

    python benchmarks/bench_evaluate.py [--repeat N] [--cold-repeat N] [--smoke]

Absolute times on shared machines are noisy, so each target is a ratio to a baseline doing the
same work, measured in the same run, the two sides taking turns (interleaved repeats); each
ratio is given of the minimum (the least noisy) and of the median of each side:

- evaluate: ``netbenefit.evaluate(scenario)`` of ``scenarios/office_hq_default_area.yaml``
  against a hand-written numpy computation of the same ratio from the same scenario object
  (the script asserts that the two agree to 1e-12 relative). Target: within 20x. The evaluate
  timed is a first one: the values a scenario's evaluation looks up are kept for the next, and
  are forgotten before each run; a second evaluation of the same scenario is shown too.
- load: ``netbenefit.load_scenario(path)`` against a first ``evaluate`` of the loaded scenario,
  for every bundled scenario. Target: within 2x.
- cold start: ``netbenefit evaluate FILE --json`` (and ``--help``, ``import netbenefit``) in a new
  process, against ``python -c "import pandas"``. Target: within 1.0x.

``--smoke``: two repeats in the process, each new process once (a check that the script runs, its
numbers not meant to be read).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import netbenefit
from netbenefit.law.parameters import parameter

ROOT = Path(__file__).resolve().parents[1]
OFFICE = ROOT / "scenarios" / "office_hq_default_area.yaml"


def hand_written_ratio(scenario) -> float:
    """The net benefit ratio of the office HQ scenario (one phase, flat income tax rate, a fixed
    annual credit, no extension, no explicit stream), written out directly in numpy."""
    jobs_in, revenue, award = scenario.jobs, scenario.revenue, scenario.award
    period = award.eligibility_period_years * parameter("commitment_period_multiple_of_eligibility_period")
    window_end = award.first_credit_year - 1 + period
    years = np.arange(1, int(np.ceil(window_end)) + 1)
    ramp = np.array(jobs_in.ramp)[np.minimum(years - 1, len(jobs_in.ramp) - 1)]
    capital = np.array([scenario.capital_investment.get(int(t), 0.0) for t in years])
    sales_tax = revenue.sales_and_use_tax_rate
    jobs = jobs_in.new * ramp
    wages = jobs * jobs_in.median_salary * (1.0 + jobs_in.salary_growth) ** (years - 1)
    operations = wages * (
        revenue.income_tax_effective_rate * jobs_in.nj_withholding_share + revenue.taxable_spending_share * sales_tax
    )
    construction = capital * revenue.construction_labor_share
    construction = construction * (revenue.construction_income_tax_rate + revenue.taxable_spending_share * sales_tax)
    net = (operations + construction) * revenue.earnings_multiplier
    net = net + capital * revenue.construction_taxable_share * sales_tax + revenue.corporate_business_tax * (jobs > 0)
    weight = np.clip(window_end - (years - 1.0), 0.0, 1.0)
    discount = (1.0 + scenario.discount_rate) ** -years.astype(float)
    first = award.first_credit_year
    credit_years = (years >= first) & (years < first + award.eligibility_period_years)
    return float(net @ (weight * discount)) / float(award.annual_credit * discount[credit_years].sum())


def first_evaluation(scenario):
    """``evaluate`` of a scenario as if it had not been evaluated before: the values the model
    looks up in a scenario are kept for its next evaluations, and are forgotten here first."""
    scenario._values_at.clear()
    return netbenefit.evaluate(scenario)


def interleaved(functions: dict, repeat: int, clock=time.perf_counter) -> dict[str, list[float]]:
    """Seconds of each function, ``repeat`` times, the functions taking turns in each round."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            start = clock()
            function()
            times[name].append(clock() - start)
    return times


def ratios(times: dict[str, list[float]], numerator: str, denominator: str) -> tuple[float, float]:
    """(min / min, median / median)."""
    return (
        min(times[numerator]) / min(times[denominator]),
        statistics.median(times[numerator]) / statistics.median(times[denominator]),
    )


def verdict(value: float, goal: float) -> str:
    return "within" if value <= goal else "OVER"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="repeats of the in-process timings")
    parser.add_argument("--cold-repeat", type=int, default=7, help="repeats of each new process")
    parser.add_argument("--smoke", action="store_true", help="each measure taken once or twice: a check that it runs")
    args = parser.parse_args()
    if args.smoke:
        args.repeat, args.cold_repeat = 2, 1

    scenario = netbenefit.load_scenario(OFFICE)
    reference, result = hand_written_ratio(scenario), netbenefit.evaluate(scenario)
    assert abs(reference - result.ratio) <= 1e-12 * abs(reference), (reference, result.ratio)
    times = interleaved(
        {
            "evaluate": lambda: first_evaluation(scenario),
            "evaluate again": lambda: netbenefit.evaluate(scenario),
            "numpy": lambda: hand_written_ratio(scenario),
        },
        args.repeat,
    )
    low, mid = ratios(times, "evaluate", "numpy")
    print(
        f"evaluate {min(times['evaluate']) * 1e3:.3f} ms, hand-written numpy {min(times['numpy']) * 1e6:.1f} us "
        f"({OFFICE.name}, min of {args.repeat} interleaved)"
    )
    print(f"evaluate / hand-written numpy: {low:.1f}x (min), median {mid:.1f}x; goal at most 20x: {verdict(low, 20)}")
    low, mid = ratios(times, "evaluate again", "numpy")
    print(
        f"evaluate again (the scenario's values already looked up) / hand-written numpy: {low:.1f}x (min), "
        f"median {mid:.1f}x"
    )

    print()
    print(f"{'scenario':<34} {'load ms':>8} {'evaluate ms':>12} {'load / evaluate':>16} {'median':>7}")
    worst = 0.0
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        loaded = netbenefit.load_scenario(path)
        netbenefit.evaluate(loaded)
        times = interleaved(
            {"load": lambda p=path: netbenefit.load_scenario(p), "evaluate": lambda s=loaded: first_evaluation(s)},
            max(10, args.repeat // 4),
        )
        low, mid = ratios(times, "load", "evaluate")
        worst = max(worst, low)
        print(
            f"{path.stem:<34} {min(times['load']) * 1e3:>8.2f} {min(times['evaluate']) * 1e3:>12.2f} "
            f"{low:>15.2f}x {mid:>6.2f}x"
        )
    print(f"load_scenario / evaluate, worst scenario: {worst:.2f}x (min); goal at most 2x: {verdict(worst, 2)}")

    print()

    def process(*command: str):
        return lambda: subprocess.run([sys.executable, *command], check=True, capture_output=True)

    cold = interleaved(
        {
            "import pandas": process("-c", "import pandas"),
            "evaluate --json": process("-m", "netbenefit", "evaluate", str(OFFICE), "--json"),
            "--help": process("-m", "netbenefit", "--help"),
            "import netbenefit": process("-c", "import netbenefit"),
        },
        args.cold_repeat,
    )
    floor = min(cold["import pandas"])
    print(f"cold start, python -c 'import pandas'    {floor * 1e3:7.0f} ms (min of {args.cold_repeat} interleaved)")
    for name in ("evaluate --json", "--help", "import netbenefit"):
        low, mid = ratios(cold, name, "import pandas")
        goal = f"; goal at most 1.0x: {verdict(low, 1.0)}" if name == "evaluate --json" else ""
        print(f"cold start, {name:<28} {min(cold[name]) * 1e3:7.0f} ms: {low:.2f}x (min), median {mid:.2f}x{goal}")


if __name__ == "__main__":
    main()
