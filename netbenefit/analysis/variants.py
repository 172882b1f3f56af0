"""Many variants of one scenario at once: the shared engine of sweeps, Monte Carlo and solvers.

:func:`evaluate_variants` checks the values (:mod:`netbenefit.analysis.keys`), runs
:func:`netbenefit.model.cashflows.compute` in chunks, and returns one row per variant. The numbers are
those :func:`netbenefit.evaluate` gives for ``scenario.replace({...})``, because both run the
same code.

Rows that :func:`netbenefit.evaluate` would refuse are kept, never silently NaN: their ``note``
column says why, their ``ratio`` is NaN, and ``passes`` and ``eligible`` are False.

- ``credits are zero``: the requested tax credits of the initial phase, or the present value of
  all credits, are zero (the ratio benefits / credits is undefined);
- ``present values overflow``: a discount rate so close to -1 that a present value is not finite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..io.arguments import checked, count, mapping
from ..model.cashflows import compute
from ..model.scenario import Scenario
from ..model.tables import ResultTable
from .columns import (  # noqa: F401  (importable from here as before)
    DEFAULT_CHUNK_SIZE,
    NOTES,
    OVERFLOW,
    RESULT_COLUMNS,
    ZERO_CREDITS,
    allocate,
    count_failures,
    failed_checks,
    repeated,
    result_columns,
)
from .distributed import variants_chunks
from .keys import check_overrides, table_values


def iter_chunks(
    scenario: Scenario,
    size: int,
    make_overrides: Callable[[int, int], Mapping[str, np.ndarray]],
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Any = None,
) -> Iterator[tuple[int, int, Mapping[str, np.ndarray], dict[str, np.ndarray]]]:
    """Compute ``size`` variants ``chunk_size`` at a time.

    Yields ``(start, stop, overrides, columns)`` for each chunk, where ``make_overrides(start,
    stop)`` gives the (already checked) values of rows ``start:stop``. ``progress`` is an object
    with ``update(n)`` (a progress bar) or None.
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, not {chunk_size}")
    for start in range(0, size, chunk_size):
        stop = min(size, start + chunk_size)
        overrides = make_overrides(start, stop)
        columns = result_columns(compute(scenario, overrides)) if overrides else repeated(scenario, stop - start)
        if progress is not None:
            progress.update(stop - start)
        yield start, stop, overrides, columns


def frame(keys: Mapping[str, np.ndarray], columns: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """One row per variant: a column per varied key (named by the dotted key), then the results;
    shown in a notebook by unit (:class:`netbenefit.model.tables.ResultTable`), the values unchanged."""
    data: dict[str, Any] = dict(keys)
    for name in RESULT_COLUMNS:
        data[name] = columns[name]
    data["note"] = pd.Categorical.from_codes(np.asarray(columns["note"]), categories=list(NOTES))
    return ResultTable(pd.DataFrame(data, copy=False))


@checked(values=mapping, chunk_size=count(1))  # netbenefit.io.arguments
def evaluate_variants(
    scenario: Scenario,
    values: Mapping[str, Any],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    out_of_range: str = "error",
) -> pd.DataFrame:
    """Evaluate n variants of a scenario given column by column (no cross product).

    Parameters
    ----------
    scenario : Scenario
    values : mapping of dotted key -> array_like
        One value per variant for each key; all of one length n.
    chunk_size : int
        Variants computed at once. [variants]
    out_of_range : {"error", "clip"}
        See :func:`netbenefit.analysis.keys.check_values`.

    Returns
    -------
    DataFrame
        n rows: the keys, then ``pv_benefits`` [USD], ``pv_credits`` [USD], ``ratio``,
        ``threshold``, ``passes``, ``eligible`` and ``note`` (see the module docstring).

    Examples
    --------
    >>> evaluate_variants(scenario, {"jobs.new": [100, 200], "discount_rate": [0.05, 0.07]})  # doctest: +SKIP
    """
    checked = check_overrides(scenario, values, out_of_range=out_of_range)
    size = next(iter(checked.values())).shape[0] if checked else 1
    return run(scenario, checked, size, chunk_size=chunk_size)


def run(
    scenario: Scenario,
    checked: Mapping[str, np.ndarray],
    size: int,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Any = None,
    client: Any = None,
) -> pd.DataFrame:
    """Compute already checked variant arrays in chunks and assemble the table; with a Dask
    ``client``, each chunk is a task (:mod:`netbenefit.analysis.distributed`)."""
    columns = allocate(size)
    if client is None:
        chunks = iter_chunks(
            scenario, size, lambda a, b: {key: array[a:b] for key, array in checked.items()}, chunk_size, progress
        )
    else:
        chunks = variants_chunks(client, scenario, checked, size, chunk_size, progress)
    for start, stop, _, chunk in chunks:
        for name, values in chunk.items():
            columns[name][start:stop] = values
    return frame({key: table_values(scenario, key, array) for key, array in checked.items()}, columns)
