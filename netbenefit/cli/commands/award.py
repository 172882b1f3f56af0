"""``netbenefit award FILE [--but-for-share S ...]``: the section 75 build-up of the award and,
on request, the economist's view beside the statutory test."""

from __future__ import annotations

import argparse
from pathlib import Path

from ...errors import ScenarioError
from ...io.safe_text import terminal, terminal_lines
from ...model.evaluate import evaluate
from .options import scenario_inputs


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "award", help="show how the award is built (section 75) and, optionally, the economist's view"
    )
    parser.add_argument("file", type=Path)
    parser.add_argument(
        "--but-for-share",
        type=float,
        metavar="S",
        help="share of the jobs that the award caused (0..1); shows the economist's view beside the statutory test",
    )
    parser.add_argument(
        "--cost-per-new-job",
        type=float,
        default=0.0,
        metavar="USD",
        help="State cost of public services per new job and year (with --but-for-share)",
    )
    parser.add_argument(
        "--cost-per-resident",
        type=float,
        default=0.0,
        metavar="USD",
        help="State cost of public services per new resident and year (with --but-for-share)",
    )
    parser.add_argument(
        "--residents-per-new-job",
        type=float,
        default=0.0,
        metavar="N",
        help="new residents of the State per new job (with --cost-per-resident)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from ...model.economics import economist_view_of  # pandas: deferred past start-up

    costs = (args.cost_per_new_job, args.cost_per_resident, args.residents_per_new_job)
    if args.but_for_share is None and any(costs):
        raise ScenarioError("command line", "--but-for-share", "required with the cost of growth options")
    (scenario,) = scenario_inputs(args, [args.file])
    result = evaluate(scenario)
    table = None
    if args.but_for_share is not None:  # every input is checked before anything is printed
        table = economist_view_of(
            result,
            but_for_share=args.but_for_share,
            cost_per_new_job=args.cost_per_new_job,
            cost_per_resident=args.cost_per_resident,
            residents_per_new_job=args.residents_per_new_job,
        )
    with pd.option_context("display.width", 160, "display.max_columns", 20, "display.max_colwidth", 80):
        if result.award_calculation is None:
            print(
                terminal(
                    f"{result.name}: the award is given directly (not by the section 75 calculator); "
                    f"requested credits ${result.requested_credits:,.0f}"
                )
            )
        else:
            print(terminal(f"{result.name}: award by section 75 of P.L.2020, c.156 (C.34:1B-343)"))
            print(terminal_lines(result.award_calculation.to_string(index=False, na_rep="")))
        if table is not None:
            print()
            print(f"The statutory test, 71(a)(5), and the economist's view (but-for share {args.but_for_share:g}):")
            print(table.to_string(float_format=lambda value: f"{value:,.4f}" if abs(value) < 100 else f"{value:,.0f}"))
    return 0
