"""Tables as the command line writes them: a table netbenefit returns
(:class:`netbenefit.model.tables.ResultTable`) as text, each cell by the unit of its column's label,
the values themselves unchanged. A notebook shows the same table through
:func:`netbenefit.views.notebook.result_table_html`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .. import labels

if TYPE_CHECKING:
    from collections.abc import Callable


def table_text(
    table: pd.DataFrame, columns: Sequence[str] | None = None, *, units: Mapping[str, str], unknown: str = ""
) -> str:
    """``table`` (its ``columns``, or all) as the command line prints it: column names as they are,
    cells by the unit of each column (``units`` by column name, else its label's, else ``unknown``),
    never in scientific notation."""
    frame = pd.DataFrame(table if columns is None else table[list(columns)])
    formatters = {column: _text_formatter(str(column), units, unknown) for column in frame}
    return frame.to_string(formatters=formatters, na_rep="")


def _text_formatter(column: str, units: Mapping[str, str], unknown: str) -> Callable[[object], str]:
    """How the command line writes a cell of ``column``, by its unit (:func:`table_text`)."""
    try:
        unit = units[column] if column in units else labels.unit(column)
    except KeyError:
        unit = unknown

    def cell(value) -> str:
        if isinstance(value, list | tuple):
            return " + ".join(str(item) for item in value)
        if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
            return str(value)
        if labels.missing(float(value)):
            return ""
        if unit.startswith("USD"):
            return labels.money_exact(float(value))
        if unit.startswith("share") or unit in ("%", "ratio"):
            return f"{float(value):.2%}"
        if unit == "jobs":
            return labels.jobs(float(value))
        return labels.number(float(value))

    return cell
