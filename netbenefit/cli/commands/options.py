"""What the commands share: the options of a distributed run (``--scheduler``), the values given
by hand (``--set KEY=V1,V2``, ``--vary KEY=normal(100,10)``), the warnings of those values
summarised per key, and a table written as CSV or Parquet. Every command imports these from here."""

from __future__ import annotations

import argparse
import contextlib
import math
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import ScenarioError
from ...io.safe_text import csv_table
from ...io.writing import OutputError, atomic_write
from ...model.memory import check_memory
from ...model.plausibility import PlausibilityWarning
from ...model.scenario import Scenario
from ...model.scenario.workbook_form import is_workbook_file

#: An upper bound of a result's columns besides the varied keys (not a statutory number), for the
#: memory estimates of a sweep and of a Monte Carlo run that keeps its draws.
RESULT_COLUMNS_BOUND = 24
_CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$")


def add_scheduler_option(parser) -> None:
    """``--scheduler ADDRESS``: run the chunks as tasks on a Dask cluster (``netbenefit[dask]``)."""
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the chunks on the Dask scheduler at ADDRESS (e.g. tcp://10.0.0.5:8786); needs netbenefit[dask]",
    )
    parser.add_argument(
        "--scheduler-timeout",
        metavar="SECONDS",
        type=float,
        default=None,
        help="how long to wait for the scheduler to answer (default 5)",
    )


def check_scheduler_options(args: argparse.Namespace) -> None:
    """``--scheduler``'s address and ``--scheduler-timeout`` checked before any work (not when the
    run connects); ``--scheduler-timeout`` alone is refused, not ignored. Raises ScenarioError."""

    timeout = getattr(args, "scheduler_timeout", None)
    if getattr(args, "scheduler", None) is None:
        if timeout is not None:
            raise ScenarioError("--scheduler-timeout", "", "is the wait for --scheduler: give it with --scheduler")
        return
    from ...analysis.distributed import check_timeout, scheduler_address  # pandas: deferred past start-up

    scheduler_address(args.scheduler)
    if timeout is not None:
        check_timeout(timeout)


@contextlib.contextmanager
def cluster_failures(client, option: str):
    """Within the block, a failure of the Dask cluster running it (a worker lost, a task that
    could not be sent) is netbenefit's one line naming ``option``; an error of the input (a
    ScenarioError, raised on a worker as here) passes as it is. Without a client, nothing changes."""
    try:
        yield
    except ScenarioError:
        raise
    except Exception as error:  # noqa: BLE001 - any failure of the cluster, reported in one line
        if client is None:
            raise
        raise ScenarioError(option, "", f"the Dask cluster failed: {type(error).__name__}: {error}") from None


def dask_client(args: argparse.Namespace):
    """A Dask client of ``--scheduler``, or None."""
    if getattr(args, "scheduler", None) is None:
        return None
    from ...analysis.distributed import CONNECT_TIMEOUT_SECONDS, connect  # pandas: deferred past start-up

    timeout = args.scheduler_timeout
    return connect(args.scheduler, CONNECT_TIMEOUT_SECONDS if timeout is None else timeout)


def add_workbook_option(parser) -> None:
    """``--scenario N``: which scenario of a workbook netbenefit wrote to read (a comparison
    workbook holds several, its names suffixed _1, _2...)."""
    parser.add_argument(
        "--scenario",
        dest="workbook_scenario",
        type=_scenario_number,
        action="append",
        default=None,
        metavar="N",
        help="the scenario to read from a comparison workbook (.xlsx) among the files: once for every workbook, "
        "or once per workbook in the order of the files",
    )


def _scenario_number(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the number of a scenario, 1 or more")
    return int(text)


def scenario_inputs(args: argparse.Namespace, items: list) -> list:
    """The scenario files a command was given, each workbook netbenefit wrote read as a Scenario
    (``--scenario N``: the N-th of a comparison workbook; repeated, one per workbook in the order
    of the files); the other files as they are, for the command to load. Raises ScenarioError."""
    chosen = getattr(args, "workbook_scenario", None) or []
    is_workbook = [isinstance(item, str | Path) and is_workbook_file(item) for item in items]
    workbooks = sum(is_workbook)
    if chosen and not workbooks:
        raise ScenarioError("--scenario", "", "chooses a scenario of a workbook (.xlsx): no workbook among the files")
    if len(chosen) > 1 and len(chosen) != workbooks:
        raise ScenarioError(
            "--scenario",
            "",
            f"given {len(chosen)} times for {workbooks} workbooks: give it once for every workbook, or once "
            "per workbook in the order of the files",
        )
    numbers = iter(chosen if len(chosen) > 1 else chosen * workbooks)
    return [
        Scenario.from_excel(item, next(numbers, None)) if workbook else item
        for item, workbook in zip(items, is_workbook, strict=True)
    ]


def parse_setting(text: str, source: str = "--set") -> tuple[str, list]:
    """``KEY=V1,V2,...`` -> (key, values): numbers, or true/false. Raises ScenarioError."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key or not values.strip():
        raise ScenarioError(source, key, f"expected KEY=V1,V2,..., got {text!r}")
    return key, [parse_value(item, key, source) for item in values.split(",")]


def parse_options(texts, parse, option: str) -> dict:
    """``{key: value}`` from repeated ``--set``/``--vary`` options; a key given twice is an error."""
    parsed = {}
    for text in texts:
        key, value = parse(text)
        if key in parsed:
            raise ScenarioError(option, key, "given twice")
        parsed[key] = value
    return parsed


def parse_value(text: str, key: str, source: str):
    """A number, or true/false, from the command line."""
    item = text.strip()
    if item.lower() in ("true", "false"):
        return item.lower() == "true"
    try:
        return float(item.replace("_", ""))
    except ValueError:
        raise ScenarioError(source, key, f"{item!r} is not a number or true/false") from None


def check_grid_size(grid: dict) -> None:
    """The memory of the sweep's table (one row per combination) estimated before it is built."""
    rows = math.prod(len(values) for values in grid.values())
    columns = RESULT_COLUMNS_BOUND + len(grid)
    check_memory("--set", "", rows * columns * 8 * 2, f"a sweep of {rows:,} combinations")


#: A plausibility warning of one value given by hand: ``file: key``, the value, how it was given,
#: and the rest (``is implausible (...)``).
_GIVEN = re.compile(r"^(?P<head>.*?): (?P<value>\S+) \((?P<via>given to [^)]*)\) (?P<rest>.*)$", re.DOTALL)


@contextlib.contextmanager
def summarised_warnings():
    """Within the block, the plausibility warnings of values given by hand (``--set``, ``--vary``)
    are gathered, and one warning per key is given after it: ``file: key: 241 values given to
    sweep are implausible (0.3, 0.4, ..., 2.7); the first, 0.3, is implausible (...)``, not one
    line per value. Any other warning passes as it is. Under ``--strict`` (warnings are errors)
    the first is raised as before."""
    with warnings.catch_warnings(record=True) as caught:
        for action in warnings.filters:  # --strict: PlausibilityWarning stays an error
            if action[2] is PlausibilityWarning and action[0] == "error":
                break
        else:
            warnings.simplefilter("always", PlausibilityWarning)
        yield
    groups: dict[tuple[str, str], list] = {}
    for record in caught:
        found = _GIVEN.match(str(record.message)) if issubclass(record.category, PlausibilityWarning) else None
        if found is None:
            warnings.warn_explicit(record.message, record.category, record.filename, record.lineno)
            continue
        groups.setdefault((found["head"], found["via"]), []).append(found)
    for (head, via), values in groups.items():
        if len(values) == 1:
            message = f"{head}: {values[0]['value']} ({via}) {values[0]['rest']}"
        else:
            shown = [v["value"] for v in values]
            listed = ", ".join(shown) if len(shown) <= 4 else f"{', '.join(shown[:3])}, ..., {shown[-1]}"
            message = (
                f"{head}: {len(values)} values {via} are implausible ({listed}); "
                f"the first, {values[0]['value']}, {values[0]['rest']}"
            )
        warnings.warn(PlausibilityWarning(message), stacklevel=2)


def refuse_apart(needed: str, present: bool, given: Sequence[tuple[str, Any]], what: str) -> None:
    """Options that work only with ``needed``: when it is not ``present``, the first of ``given``
    (``(option, value)``) whose value is given (not None, False or empty) is refused in one line,
    never silently ignored: ``--force: overwrites an existing --out file; give it with --out FILE``."""
    if present:
        return
    for option, value in given:
        if is_given(value):
            raise ScenarioError(option, "", f"{what}; give it with {needed}")


def is_given(value: Any) -> bool:
    """Whether an option's value was given: not None, False, empty text or an empty list (``0``
    is given: ``--seed 0``)."""
    return not (value is None or value is False or (isinstance(value, str | list) and not value))


def write_table(table, path: Path) -> None:
    """Write a DataFrame atomically as CSV or Parquet, chosen by the file's extension."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        atomic_write(path, lambda temporary: csv_table(table).to_csv(temporary, index=False))
    elif suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise OutputError(
                f"{path}: writing Parquet needs pyarrow (pip install 'netbenefit[parquet]'), or use .csv"
            ) from None
        atomic_write(path, lambda temporary: table.to_parquet(temporary, index=False))
    else:
        raise OutputError(f"{path}: the output file must end in .csv or .parquet")


def parse_vary(text: str, source: str = "--vary"):
    """``KEY=normal(100,10)`` or ``KEY=V1,V2`` -> (key, distribution spec). Raises ScenarioError."""
    from ...analysis.montecarlo import DISTRIBUTIONS  # pandas: deferred past start-up

    key, sep, spec = text.partition("=")
    key = key.strip()
    if not sep or not key or not spec.strip():
        raise ScenarioError(source, key, f"expected KEY=DISTRIBUTION(...) or KEY=V1,V2,..., got {text!r}")
    call = _CALL.match(spec)
    if call is None:
        return parse_setting(text, source)
    name, arguments = call.group(1), call.group(2)
    if name not in DISTRIBUTIONS:
        raise ScenarioError(source, key, f"unknown distribution {name!r}; use one of {', '.join(DISTRIBUTIONS)}")
    values = [parse_value(item, key, source) for item in arguments.split(",")] if arguments.strip() else []
    if any(isinstance(value, bool) for value in values):
        raise ScenarioError(source, key, f"the parameters of {name} must be numbers")
    return key, (name, *values)
