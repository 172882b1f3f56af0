"""``netbenefit actuals SCENARIO ACTUALS [--csv | --json]``: an approved scenario followed through its actual
annual results (certification, forfeiture, re-run of the net benefit test, repayment)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ...io.safe_text import terminal_lines
from .options import scenario_inputs

COLUMNS = (
    "approved_credit",
    "actual_new_jobs",
    "statewide_workforce",
    "forfeited",
    "certified_credit",
    "new_jobs_fall_share",
    "salary_fall_share",
    "rerun_flag",
    "rerun_ratio",
    "recapture",
    "reduction_recapture",
    "interest",
    "repayment",
)
PHASE_COLUMNS = (
    "approved_credits",
    "certified_credits",
    "forfeited_credits",
    "phase_years_maintained",
    "commitment_start",
    "recapture",
    "reduction_recapture",
    "extension_repayment",
    "net_credits_received",
)


def register(subparsers) -> None:
    parser = subparsers.add_parser("actuals", help="follow an approved scenario through its actual annual results")
    parser.add_argument("scenario", type=Path, help="the approved scenario file")
    parser.add_argument("actuals", type=Path, help="a YAML file of actual results (years or years_from_csv)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--csv", action="store_true", help="print the year-by-year table alone, as CSV")
    output.add_argument(
        "--json",
        action="store_true",
        help="print the whole follow result alone, as one JSON object (years, phases, recapture, repayment, "
        "the re-run's ratio per test, warnings)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ...model.after_approval import follow  # pandas: deferred past start-up

    (scenario,) = scenario_inputs(args, [args.scenario])
    after = follow(scenario, args.actuals)
    if args.json:
        print(json.dumps(after.to_dict(), indent=2, allow_nan=False))
        return 0
    if args.csv:
        print(terminal_lines(after.years.to_csv()), end="")
        return 0
    print(terminal_lines(after.summary()))
    # Every table by the units of its columns (money, percents, jobs), never in scientific notation.
    tables = [after.years.to_text(COLUMNS), after.comparison.to_text()]
    if after.phases is not None and len(after.phases) > 1:
        tables += [after.phases.to_text(PHASE_COLUMNS), after.rerun_tests.to_text()]
    for table in tables:
        print()
        print(terminal_lines(table))
    return 0
