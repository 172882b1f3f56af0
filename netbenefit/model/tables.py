"""The table netbenefit returns: :class:`ResultTable`, a DataFrame that carries the unit of each of
its columns, the values kept as they are (numbers, for computation). Its views draw it by unit: a
notebook (:func:`netbenefit.views.notebook.result_table_html`) with headers in words, money as
dollars and ratios as percents, the command line (:func:`netbenefit.views.tables.table_text`) as text.

:class:`ResultTable` is every table the Python API returns (a :class:`Result`'s tables,
:func:`netbenefit.compare`, the portfolio's tables, the tables of sweeps and Monte Carlo runs);
a table sliced, filtered or computed from one is one too, so it keeps its units. :func:`shown`
gives a table a user builds the same display. pandas' own display options are never changed.

>>> import pandas as pd
>>> table = shown(pd.DataFrame({"pv_benefits": [25_249_050.0], "ratio": [3.000024]}))
>>> float(table["ratio"].iloc[0])  # the value is unchanged; a notebook shows 300.0%
3.000024
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd


class ResultTable(pd.DataFrame):
    """A DataFrame that shows in a notebook with its headers in words and units and its cells
    formatted by unit (:func:`netbenefit.views.notebook.result_table_html`): dollars as money, ratios as
    percents. The unit of a column is the one its label declares (:mod:`netbenefit.labels`), else
    the one given in ``units``, else ``unknown``. Any table derived from it (a slice, a filter, a
    computed column) is a ``ResultTable`` with the same units."""

    _metadata = ["_unknown_unit", "_units"]
    _unknown_unit = ""
    _units: Mapping[str, str] = {}

    @property
    def _constructor(self):
        return ResultTable

    @classmethod
    def of(cls, frame: pd.DataFrame, *, unknown: str = "", units: Mapping[str, str] | None = None) -> ResultTable:
        """``frame`` (its values and ``attrs`` unchanged) as a table shown by unit."""
        table = cls(frame)
        table.attrs = dict(frame.attrs)
        table._unknown_unit = unknown
        table._units = dict(units or {})
        return table

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: :func:`netbenefit.views.notebook.result_table_html`."""
        from ..views.notebook import result_table_html

        return result_table_html(self, unknown=self._unknown_unit, units=self._units)

    def to_text(self, columns: Sequence[str] | None = None) -> str:
        """The table as the command line prints it (:func:`netbenefit.views.tables.table_text`): column
        names as they are, cells by the unit of each column's label (dollars to the dollar, shares and
        ratios as percents, jobs as counts), never in scientific notation; the values themselves unchanged.

        >>> print(shown(pd.DataFrame({"pv_benefits": [14397130.0], "ratio": [1.175576]})).to_text())
          pv_benefits   ratio
        0 $14,397,130 117.56%
        """
        from ..views.tables import table_text

        return table_text(self, columns, units=self._units, unknown=self._unknown_unit)


def shown(frame: pd.DataFrame, *, units: Mapping[str, str] | None = None, unknown: str = "") -> ResultTable:
    """``frame`` shown in a notebook as netbenefit shows its own tables: each column by the unit
    of its label (``pv_benefits`` as dollars, ``ratio`` as a percent), or by ``units`` for columns
    of your own (``{"my_cost": "USD", "my_multiple": "%"}``), or ``unknown`` for the rest. The
    values stay as they are.

    >>> shown(my_table, units={"cost": "USD"})  # doctest: +SKIP
    """
    return ResultTable.of(frame, unknown=unknown, units=units)
