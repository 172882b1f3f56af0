"""Full factorial sweeps: every combination of the values given for some keys."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ScenarioError
from ..io.arguments import checked, count, mapping
from ..model.conventions import of_scenario
from ..model.scenario import Scenario
from ..model.scenario.loading import scenario_argument
from .keys import check_values, key_labels
from .variants import DEFAULT_CHUNK_SIZE, run

#: The largest sweep accepted (rows); a larger one is almost surely a mistake in the grid.
MAX_COMBINATIONS = 50_000_000


@checked(grid=mapping, chunk_size=count(1))  # netbenefit.io.arguments
def sweep(
    scenario: Scenario,
    grid: Mapping[str, Sequence[Any]],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    client: Any = None,
) -> pd.DataFrame:
    """Evaluate every combination of the values given for each key (a full factorial design).

    Parameters
    ----------
    scenario : Scenario
    grid : mapping of dotted key -> sequence of values
        E.g. ``{"jobs.new": [200, 260, 320], "discount_rate": [0.05, 0.06, 0.07]}``. Each value
        must be valid for its key (see :mod:`netbenefit.analysis.keys`); each distinct value is
        also checked with :meth:`Scenario.replace`. A value outside its plausible range (a percent
        for a rate) is a :class:`~netbenefit.model.plausibility.PlausibilityWarning`, before any work.
    chunk_size : int
        Combinations computed at once. [rows]
    client : distributed.Client, optional
        Run each chunk as a task on this Dask cluster (:mod:`netbenefit.analysis.distributed`);
        the same table as in one process.

    Returns
    -------
    DataFrame
        One row per combination, the first key varying slowest (as ``itertools.product``): a
        column per key, named by the dotted key, then ``pv_benefits`` [USD], ``pv_credits``
        [USD], ``ratio``, ``threshold``, ``passes``, ``eligible`` and ``note`` ("" or why the
        row's ratio is undefined: see :mod:`netbenefit.analysis.variants`). An empty grid gives
        one row, the scenario itself.

    Raises
    ------
    ScenarioError
        For an unknown or non-numeric key, or a value that is not valid for its key.

    Examples
    --------
    >>> table = sweep(scenario, {"jobs.new": [200, 260], "discount_rate": [0.05, 0.07]})  # doctest: +SKIP
    >>> len(table)  # doctest: +SKIP
    4
    """
    scenario = scenario_argument(scenario, "sweep")  # a path is loaded
    via = "given to sweep"
    axes = {key: check_values(scenario, key, values, replace="distinct", via=via) for key, values in grid.items()}
    size = 1
    for array in axes.values():
        size *= array.shape[0]
    if size > MAX_COMBINATIONS:
        raise ScenarioError(scenario.source, "", f"the sweep has {size:,} combinations; at most {MAX_COMBINATIONS:,}")
    shape = tuple(array.shape[0] for array in axes.values())
    combinations = {}
    for axis, (key, array) in enumerate(axes.items()):
        # Index of this key's value in each row of the flattened grid (C order: last key fastest).
        index = np.arange(size) // int(np.prod(shape[axis + 1 :], dtype=np.int64)) % shape[axis]
        combinations[key] = array[index]
    table = run(scenario, combinations, size, chunk_size=chunk_size, client=client)
    table.attrs["conventions"] = of_scenario(scenario, tuple(grid))  # for the charts: netbenefit.views.charts.sweep
    table.attrs["key_labels"] = key_labels(scenario, grid)  # each key in words, with its phase
    return table
