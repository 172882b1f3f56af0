"""One-way sensitivity: the net benefit ratio when one key at a time moves to a low and a high value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..errors import ScenarioError
from ..io.arguments import checked, mapping, number
from ..law.rules import CHECK_IDS
from ..model.cashflows import compute
from ..model.conventions import Conventions
from ..model.scenario import Scenario
from .columns import result_columns
from .keys import check_values, key_labels, key_spec, whole_steps

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: Columns of the sensitivity table.
SENSITIVITY_COLUMNS = (
    "key",
    "base",
    "low",
    "high",
    "ratio_base",
    "ratio_low",
    "ratio_high",
    "swing",
    "threshold",
    "eligible_low",
    "eligible_high",
    "passes_low",
    "passes_high",
    "failed_low",
    "failed_high",
)


def failed_ids(mask: int) -> str:
    """The ids of the checks a variant fails (its bit mask of
    :func:`~netbenefit.analysis.columns.failed_checks`), in statute order, separated by spaces."""
    return " ".join(check_id for bit, check_id in enumerate(CHECK_IDS) if int(mask) & (1 << bit))


class SensitivityTable(pd.DataFrame):
    """The table of :func:`sensitivity`: a DataFrame that shows in a notebook with inputs in words,
    values by unit and ratios as percents (:func:`netbenefit.views.notebook.sensitivity_html`), and
    draws its tornado chart with :meth:`tornado`. Any table derived from it is a plain DataFrame."""

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: :func:`netbenefit.views.notebook.sensitivity_html` (a table cut
        short of its columns: :func:`netbenefit.views.notebook.result_table_html`, as every table)."""
        from ..views.notebook import result_table_html, sensitivity_html

        if not {"key", "low", "high", "ratio_low", "ratio_high", "ratio_base", "threshold"} <= set(self.columns):
            return result_table_html(pd.DataFrame(self))
        return sensitivity_html(self)

    def tornado(self, ax: Axes | None = None) -> Axes:
        """:func:`netbenefit.views.charts.tornado` of this table; returns the Axes."""
        from ..views.charts import tornado

        return tornado(self, ax=ax)


@checked(ranges=mapping, relative=number)  # netbenefit.io.arguments
def sensitivity(scenario: Scenario, ranges: Mapping[str, Any], *, relative: float = 0.2) -> pd.DataFrame:
    """The ratio at a low and a high value of each key, the others kept at the scenario's values.

    Parameters
    ----------
    scenario : Scenario
    ranges : mapping of dotted key -> (low, high), a number, or None
        ``(low, high)``: the two values. A number f: ``base x (1 - f)`` and ``base x (1 + f)``.
        None: the same with ``relative``. A flag takes ``(False, True)``. Values must be valid
        for the key (a share stays in [0, 1]...), as in a sweep.
    relative : float
        The relative change used for keys given None. [share]

    Returns
    -------
    DataFrame
        One row per key, largest swing first: ``key``, ``base`` (the scenario's value), ``low``,
        ``high``, ``ratio_base``, ``ratio_low``, ``ratio_high``, ``swing`` =
        ``|ratio_high - ratio_low|`` (each the ratio of the test that decides 71(a)(5) at that value),
        ``threshold`` (at the base), ``passes_low`` and ``passes_high`` (the 71(a)(5) verdict at each
        end), ``failed_low`` and ``failed_high`` (the ids of the checks failed there, separated by
        spaces, in statute order), and ``eligible_low`` and
        ``eligible_high``: whether the variant passes every check of s.71 (the engine's
        ``eligible`` column; a ratio that passes at an end can still fail the job minimum there).
        ``table.attrs["conventions"]`` holds the conventions of the base, ``table.attrs["key_labels"]``
        each key in words with its phase (:func:`netbenefit.analysis.keys.key_label`). A key given
        None or a relative change moves by whole steps where it is a count of jobs or a whole
        number (``jobs.new`` 357 +/- 20%: 286 and 428 jobs). A ratio that is undefined
        at a value (zero credits) raises ScenarioError naming the key.

    Examples
    --------
    >>> sensitivity(scenario, {"jobs.new": (200, 320), "discount_rate": (0.04, 0.08)})  # doctest: +SKIP
    """
    base = compute(scenario)
    base_columns = result_columns(base)
    ratio_base = float(base_columns["ratio"][0])
    threshold = float(base_columns["threshold"][0])
    rows = []
    for key, spec in ranges.items():
        info = key_spec(scenario, key)
        via = None  # values made from the scenario's own are not checked again
        if spec is None or (isinstance(spec, int | float) and not isinstance(spec, bool)):
            change = relative if spec is None else float(spec)
            if info.kind == "flag":
                values: list[Any] = [False, True]
            elif info.base is None:
                raise ScenarioError(scenario.source, key, "has no value in the scenario; give (low, high)")
            else:
                # a count of jobs or a whole-number key moves in whole steps (jobs.new: whole jobs)
                values = whole_steps(scenario, key, [info.base * (1 - change), info.base * (1 + change)])
        else:
            values = list(spec)
            if len(values) != 2:
                raise ScenarioError(scenario.source, key, f"give (low, high), not {spec!r}")
            via = "given to sensitivity"
        array = check_values(scenario, key, np.array(values), replace="distinct", via=via)
        columns = result_columns(compute(scenario, {key: array}))
        if np.any(columns["note"] > 0):
            raise ScenarioError(scenario.source, key, f"the ratio is undefined at one of {values!r} (zero credits)")
        low, high = columns["ratio"]
        eligible_low, eligible_high = (bool(flag) for flag in columns["eligible"])
        passes_low, passes_high = (bool(flag) for flag in columns["passes"])  # 71(a)(5) at each end
        failed_low, failed_high = (failed_ids(mask) for mask in columns["failed_checks"])
        rows.append(
            {
                "key": key,
                "base": info.base,
                "low": values[0],
                "high": values[1],
                "ratio_base": ratio_base,
                "ratio_low": float(low),
                "ratio_high": float(high),
                "swing": float(abs(high - low)),
                "threshold": threshold,
                "eligible_low": eligible_low,
                "eligible_high": eligible_high,
                "passes_low": passes_low,
                "passes_high": passes_high,
                "failed_low": failed_low,
                "failed_high": failed_high,
            }
        )
    table = pd.DataFrame(rows, columns=list(SENSITIVITY_COLUMNS))
    table = table.sort_values("swing", ascending=False, kind="stable").reset_index(drop=True)
    table = SensitivityTable(table)
    table.attrs["conventions"] = Conventions.of_computation(scenario, base, tuple(ranges))
    table.attrs["key_labels"] = key_labels(scenario, ranges)  # each key in words, with its phase
    return table
