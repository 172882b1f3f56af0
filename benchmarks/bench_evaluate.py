"""Benchmark: `evaluate` on each bundled scenario, and the command line's cold start.

    python benchmarks/bench_evaluate.py [--repeat N]

Absolute times on shared machines are noisy, so each figure is also given as a ratio to a simple
baseline measured in the same run:
- evaluate: against one `numpy_financial.npv` of the scenario's net benefits and one of its
  credits (the least any tool must do), and against the targets (10 ms per evaluate);
- cold start: `netbenefit evaluate FILE --json` in a new process, against `python -c "import
  pandas"` (the floor for any tool that returns DataFrames) and the 1 s target.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy_financial as npf

import netbenefit

ROOT = Path(__file__).resolve().parents[1]
TARGET_EVALUATE_SECONDS = 0.010
TARGET_COLD_START_SECONDS = 1.0


def median_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def process_time(command: list[str], repeat: int) -> float:
    return median_time(lambda: subprocess.run(command, check=True, capture_output=True), repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    repeat = parser.parse_args().repeat

    print(f"{'scenario':<34} {'evaluate ms':>11} {'x npv baseline':>15} {'vs 10 ms target':>16}")
    worst = 0.0
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        scenario = netbenefit.load_scenario(path)
        result = netbenefit.evaluate(scenario)  # warm caches
        flows = result.cashflows
        benefits, credits = [0.0, *flows["counted_net_benefits"]], [0.0, *flows["credits"]]
        rate = scenario.discount_rate
        baseline = median_time(lambda r=rate, b=benefits, c=credits: (npf.npv(r, b), npf.npv(r, c)), repeat * 10)
        seconds = median_time(lambda s=scenario: netbenefit.evaluate(s), repeat)
        worst = max(worst, seconds)
        target_ratio = seconds / TARGET_EVALUATE_SECONDS
        print(f"{path.stem:<34} {seconds * 1e3:>11.2f} {seconds / baseline:>14.0f}x {target_ratio:>15.2f}x")

    cold_repeat = max(3, repeat // 6)
    floor = process_time([sys.executable, "-c", "import pandas"], cold_repeat)
    cli = process_time(
        [sys.executable, "-m", "netbenefit", "evaluate", str(ROOT / "scenarios" / "party_city.yaml"), "--json"],
        cold_repeat,
    )
    print()
    print(f"cold start, python -c 'import pandas'      {floor * 1e3:8.0f} ms")
    print(
        f"cold start, netbenefit evaluate --json      {cli * 1e3:8.0f} ms  ({cli / floor:.2f}x the pandas import; "
        f"{cli / TARGET_COLD_START_SECONDS:.2f}x the 1 s target)"
    )
    verdict = "within" if worst <= TARGET_EVALUATE_SECONDS else "OVER"
    print(f"slowest evaluate {worst * 1e3:.2f} ms: {verdict} the 10 ms target")


if __name__ == "__main__":
    main()
