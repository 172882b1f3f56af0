"""``netbenefit montecarlo FILE --draws N --seed S --vary "KEY=normal(100,10)" ... [--out FILE]``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...io.safe_text import terminal, terminal_lines
from ...model.memory import check_memory
from ...model.plausibility import warn_if_implausible
from ...model.scenario import Scenario, load_scenario
from .options import (
    RESULT_COLUMNS_BOUND,
    add_scheduler_option,
    check_scheduler_options,
    cluster_failures,
    dask_client,
    parse_options,
    parse_vary,
    refuse_apart,
    scenario_inputs,
    write_table,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser("montecarlo", help="draw some keys at random and summarise the test over the draws")
    parser.add_argument("file", type=Path)
    parser.add_argument("--draws", type=int, default=10_000, help="number of draws (default 10,000)")
    parser.add_argument("--seed", type=int, default=None, help="seed; the same seed gives the same draws")
    parser.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=DIST",
        help="a key and its distribution: uniform(low,high), normal(mean,sd), triangular(low,mode,high), "
        "lognormal(mean,sigma) (of the underlying normal), or a list of values V1,V2,...; repeatable",
    )
    parser.add_argument("--out", type=Path, help="write every draw to this file (.csv or .parquet)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    parser.add_argument("--chunk-size", type=int, default=100_000, help="draws computed at once (default 100,000)")
    parser.add_argument("--clip", action="store_true", help="clip draws outside a key's valid range instead of failing")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_scheduler_option(parser)
    parser.set_defaults(handler=run)


def check_run_options(args: argparse.Namespace) -> None:
    """``--draws``, ``--seed`` and ``--chunk-size`` in range, the memory the run needs (its ratios,
    and every draw with ``--out``) within what the machine can give, and the scheduler's address,
    checked before anything is read or allocated. Raises ScenarioError naming the option."""
    from ...analysis.portfolio.portfolio_file import MAX_DRAWS, whole_number  # pandas: deferred past start-up

    whole_number("command line", "--draws", args.draws, 1, MAX_DRAWS)
    if args.seed is not None:
        whole_number("command line", "--seed", args.seed, 0)
    whole_number("command line", "--chunk-size", args.chunk_size, 1, MAX_DRAWS)
    per_draw = 8 * (2 + (RESULT_COLUMNS_BOUND + len(args.vary) if args.out is not None else 0))
    check_memory("command line", "--draws", args.draws * per_draw, f"a run of {args.draws:,} draws")
    check_scheduler_options(args)
    refuse_apart("--out FILE", args.out is not None, [("--force", args.force)], "overwrites an existing --out file")


def run(args: argparse.Namespace) -> int:
    from ...views.result_files import prepare_output_file  # the views that write files: deferred past start-up

    check_run_options(args)  # every option before any file is read
    if args.out is not None:
        prepare_output_file(args.out, args.force)  # refuse an existing file before any work
    vary = parse_options(args.vary, parse_vary, "--vary")
    (scenario,) = scenario_inputs(args, [args.file])
    scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    warn_if_implausible(scenario)  # the variants are computed, not evaluated: warn once here
    client = dask_client(args)
    try:
        with cluster_failures(client, "--scheduler"):
            result = _run(args, scenario, vary, client)
    finally:
        if client is not None:
            client.close()
    if args.out is not None:
        write_table(result.draws, args.out)
    print(terminal(f"{scenario.name}: Monte Carlo" + (f", seed {args.seed}" if args.seed is not None else "")))
    print(terminal_lines(str(result.summary)))
    if args.out is not None:
        print(terminal(f"wrote {args.out}"))
    return 0


def _run(args: argparse.Namespace, scenario, vary: dict, client):
    from ...analysis import montecarlo  # pandas: deferred past start-up

    return montecarlo(
        scenario,
        draws=args.draws,
        vary=vary,
        seed=args.seed,
        progress=False if args.no_progress else None,
        chunk_size=args.chunk_size,
        keep_draws=args.out is not None,
        out_of_range="clip" if args.clip else "error",
        client=client,
    )
