"""Benchmark: the portfolio Monte Carlo in one process against a local Dask cluster.

    python benchmarks/bench_portfolio.py [--applications 200] [--draws 100000] [--workers 2] [--repeat 2] [--smoke]

The example portfolio (``scenarios/portfolio/montecarlo.yml``: its applications, their
distributions and the shared macro draws) is repeated to ``--applications`` applications. The
run of ``--draws`` draws (chunks of 10,000 draws, groups of 20 applications: one task each) is
timed wall-clock, in this process and on a ``distributed.LocalCluster`` of ``--workers``
single-threaded worker processes (``local_cluster``: with the allocator setting of
``WORKER_ENVIRONMENT``), the two taking turns in each round; the fiscal-year sums are
asserted equal, bit for bit. Then the per-task overhead: as many tasks as the run has (100 by
default), each of one application and 10 draws, on both sides. From them, the expected throughput on N machines of
``--cores`` cores each (default: this machine's):

    throughput(N) = min(N x cores x W / (W / r1 + overhead), C / reduce)

with W the application-draws of one task, r1 the one-process rate (application-draws a second),
``overhead`` the cost of a task on the cluster, C the application-draws of one chunk (every
application) and ``reduce`` the client's time to add one chunk's sums (the groups' sums are added
on the workers; measured here): the cluster's cores, each paying the overhead per task, until the
client that adds the chunks' sums becomes the bottleneck. A model from two points, not a measurement on N
machines; the network between real machines adds to the overhead. Needs ``netbenefit[dask]``.

``--smoke``: 20 applications x 20,000 draws, one round (a check that the script runs, its numbers
not meant to be read).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time
from pathlib import Path

import numpy as np
from distributed import Client

from netbenefit.analysis.portfolio.montecarlo import (
    load_portfolio_file,
    local_cluster,
    portfolio_montecarlo,
    totals_match,
)

ROOT = Path(__file__).resolve().parents[1]
PORTFOLIO = ROOT / "scenarios" / "portfolio" / "montecarlo.yml"
CHUNK, GROUP = 10_000, 20


def repeated(book, count: int):
    """``book`` with its applications repeated to ``count``."""
    take = [i % len(book.scenarios) for i in range(count)]
    return dataclasses.replace(
        book, scenarios=tuple(book.scenarios[i] for i in take), vary=tuple(book.vary[i] for i in take)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--applications", type=int, default=200)
    parser.add_argument("--draws", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="cores per machine of the model")
    parser.add_argument("--smoke", action="store_true", help="a small run, one round: a check that it runs (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.applications, args.draws, args.repeat = 20, 20_000, 1
    book = repeated(load_portfolio_file(PORTFOLIO), args.applications)
    tiny_book = book  # its own draws, so that each tiny task computes
    tasks = -(-args.applications // GROUP) * -(-args.draws // CHUNK)
    with local_cluster(args.workers) as cluster, Client(cluster) as client:

        def run(on_cluster: bool):
            return portfolio_montecarlo(
                book,
                draws=args.draws,
                seed=2026,
                chunk_size=CHUNK,
                group_size=GROUP,
                client=client if on_cluster else None,
            )

        def tiny(on_cluster: bool):  # as many tasks, each one application x 10 draws
            small = dataclasses.replace(
                tiny_book,
                scenarios=tiny_book.scenarios[: -(-args.applications // GROUP)],
                vary=tiny_book.vary[: -(-args.applications // GROUP)],
            )
            return portfolio_montecarlo(
                small,
                draws=10 * -(-args.draws // CHUNK),
                seed=1,
                chunk_size=10,
                group_size=1,
                client=client if on_cluster else None,
            )

        portfolio_montecarlo(book, draws=2 * CHUNK, seed=1, chunk_size=CHUNK, group_size=GROUP, client=client)
        times: dict[str, list[float]] = {"one process": [], "cluster": []}
        small: dict[str, list[float]] = {"one process": [], "cluster": []}
        for _ in range(args.repeat):
            results = {}
            for name in times:
                start = time.perf_counter()
                results[name] = run(name == "cluster")
                times[name].append(time.perf_counter() - start)
            assert totals_match(results["one process"], results["cluster"])
            assert results["one process"].fiscal_years.equals(results["cluster"].fiscal_years)
            for name in small:
                start = time.perf_counter()
                tiny(name == "cluster")
                small[name].append(time.perf_counter() - start)
        n_fy = results["cluster"].fiscal_years.shape[0]
    part = {"credits": np.ones((CHUNK, n_fy)), "benefits": np.ones((CHUNK, n_fy)), "passing": np.ones(CHUNK, int)}
    totals = {"credits": np.zeros((CHUNK, n_fy)), "benefits": np.zeros((CHUNK, n_fy))}
    start = time.perf_counter()
    for _ in range(50):
        totals["credits"] += part["credits"]
        totals["benefits"] += part["benefits"]
    reduce = (time.perf_counter() - start) / 50

    work = args.applications * args.draws
    one = min(times["one process"])
    rate = work / one
    # wall time on the cluster = tasks x (t + overhead) / workers; in one process = tasks x t
    overhead = max(0.0, (min(small["cluster"]) * args.workers - min(small["one process"])) / tasks)
    per_task = GROUP * CHUNK
    print(
        f"portfolio Monte Carlo: {args.applications} applications x {args.draws:,} draws = {work:,} application-draws; "
        f"{tasks} tasks of {GROUP} applications x {CHUNK:,} draws; {args.workers} worker processes on this machine"
    )
    for name, values in times.items():
        print(f"{name:<12} {min(values):8.2f} s (min)  {statistics.median(values):8.2f} s (median)")
    print(
        f"cluster / one process: {min(times['cluster']) / one:.2f}x (min), "
        f"median {statistics.median(times['cluster']) / statistics.median(times['one process']):.2f}x"
    )
    print(f"one-process rate: {rate:,.0f} application-draws a second")
    print(
        f"per-task overhead ({tasks} tasks of 1 application x 10 draws): {overhead * 1e3:.1f} ms a task "
        f"(cluster {min(small['cluster']):.2f} s vs one process {min(small['one process']):.2f} s, min); "
        f"client reduce {reduce * 1e3:.1f} ms a chunk"
    )
    for machines in (1, 2, 4, 8, 16):
        compute = machines * args.cores * per_task / (per_task / rate + overhead)
        expected = min(compute, args.applications * CHUNK / reduce)
        print(
            f"expected on {machines:>2} machine(s) x {args.cores} cores: {expected:,.0f} application-draws/s "
            f"({work / expected:,.1f} s for this run)"
        )


if __name__ == "__main__":
    main()
