"""``netbenefit sweep FILE --set KEY=V1,V2,... [--set ...] [--out results.csv]``: a full factorial sweep."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...io.safe_text import csv_table, terminal
from ...model.plausibility import warn_if_implausible
from ...model.scenario import Scenario, load_scenario
from .options import (
    add_scheduler_option,
    check_grid_size,
    check_scheduler_options,
    cluster_failures,
    dask_client,
    parse_options,
    parse_setting,
    refuse_apart,
    scenario_inputs,
    summarised_warnings,
    write_table,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "sweep", help="evaluate every combination of values of some keys (a full factorial sweep)"
    )
    parser.add_argument("file", type=Path)
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=V1,V2,...",
        help="values of one dotted key, e.g. jobs.new=200,260,320 or location.enhanced_area=true,false; repeatable",
    )
    parser.add_argument(
        "--out", type=Path, help="write the table to this file (.csv or .parquet); default: stdout as CSV"
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    add_scheduler_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ...analysis import sweep  # pandas: deferred past start-up
    from ...views.result_files import prepare_output_file  # the views that write files: deferred past start-up

    check_scheduler_options(args)  # every option before any file is read
    refuse_apart("--out FILE", args.out is not None, [("--force", args.force)], "overwrites an existing --out file")
    if args.out is not None:
        prepare_output_file(args.out, args.force)  # refuse an existing file before any work
    grid = parse_options(args.settings, parse_setting, "--set")
    check_grid_size(grid)
    (scenario,) = scenario_inputs(args, [args.file])
    scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    warn_if_implausible(scenario)  # the variants are computed, not evaluated: warn once here
    client = dask_client(args)
    try:
        with summarised_warnings(), cluster_failures(client, "--scheduler"):  # one warning per key
            table = sweep(scenario, grid, client=client)
    finally:
        if client is not None:
            client.close()
    if args.out is None:
        csv_table(table).to_csv(sys.stdout, index=False)
        return 0
    write_table(table, args.out)
    passes = int(table["passes"].sum())
    print(
        f"{len(table):,} combinations; {passes:,} pass the net positive benefit test; "
        f"{int(table['eligible'].sum()):,} eligible"
    )
    print(terminal(f"wrote {args.out}"))
    return 0
