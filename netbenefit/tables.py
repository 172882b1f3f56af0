"""The tables of a Result as a notebook shows them: headers in words with units, cells by unit."""

from __future__ import annotations

import pandas as pd


class ResultTable(pd.DataFrame):
    """A table of a :class:`Result` (``cashflows``, ``phase_tests``, ``benefits_by_tax``,
    ``clawback_schedule``...): a DataFrame that shows in a notebook with its headers in words and
    units and its cells formatted by unit (:func:`netbenefit.notebook.result_table_html`). Any
    table derived from it is a plain DataFrame."""

    _metadata = ["_unknown_unit"]
    _unknown_unit = ""

    @property
    def _constructor(self):
        return pd.DataFrame

    @classmethod
    def of(cls, frame: pd.DataFrame, *, unknown: str = "") -> ResultTable:
        table = cls(frame)
        table.attrs = dict(frame.attrs)
        table._unknown_unit = unknown
        return table

    def _repr_html_(self) -> str:
        from .views import view

        return view("result_table_html")(self, unknown=self._unknown_unit)
