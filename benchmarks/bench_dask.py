"""Benchmark: Monte Carlo on a local Dask cluster against the same run in one process.

    python benchmarks/bench_dask.py [--draws 1000000] [--workers 2] [--repeat 3] [--smoke]

Starts a ``distributed.LocalCluster`` of ``--workers`` single-threaded worker processes, then
times, wall-clock and interleaved, ``montecarlo`` of the office HQ scenario (the four keys of
``bench_analysis.py``, summary only) in this process and on the cluster, with chunks of 100,000
draws; then the cost of a task, from a run of many tiny chunks. The results are asserted equal.
Needs ``pip install 'netbenefit[dask]'``. ``--smoke``: one round of 20,000 draws on two workers
(a check that the script runs, its numbers not meant to be read).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_analysis import SCENARIO, VARY  # the same scenario and keys (this script's folder is on the path)
from distributed import Client, LocalCluster

import netbenefit
from netbenefit.analysis import montecarlo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one small round: a check that it runs (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.draws, args.workers, args.repeat = 20_000, 2, 1
    scenario = netbenefit.load_scenario(SCENARIO)
    with (
        LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):

        def run(draws: int, chunk_size: int, on_cluster: bool):
            return montecarlo(
                scenario,
                draws=draws,
                vary=VARY,
                seed=1,
                progress=False,
                keep_draws=False,
                chunk_size=chunk_size,
                client=client if on_cluster else None,
            )

        run(200_000, 100_000, True)  # warm the workers
        times: dict[str, list[float]] = {"one process": [], "cluster": []}
        for _ in range(args.repeat):
            for name in times:
                start = time.perf_counter()
                summary = run(args.draws, 100_000, name == "cluster").summary
                times[name].append(time.perf_counter() - start)
                if name == "one process":
                    reference = summary
                else:
                    assert summary == reference
        tiny = {"one process": [], "cluster": []}
        for _ in range(args.repeat):
            for name in tiny:
                start = time.perf_counter()
                run(20_000, 100, name == "cluster")
                tiny[name].append(time.perf_counter() - start)
    print(f"montecarlo, {args.draws:,} draws, chunks of 100,000; {args.workers} worker processes on this machine")
    for name, values in times.items():
        print(f"{name:<12} {min(values):7.2f} s (min)  {statistics.median(values):7.2f} s (median)")
    print(
        f"cluster / one process: {min(times['cluster']) / min(times['one process']):.2f}x (min), "
        f"median {statistics.median(times['cluster']) / statistics.median(times['one process']):.2f}x"
    )
    extra = (min(tiny["cluster"]) - min(tiny["one process"])) / 200
    print(f"cost of a task (200 chunks of 100 draws): about {extra * 1e3:.1f} ms more than in one process")


if __name__ == "__main__":
    main()
