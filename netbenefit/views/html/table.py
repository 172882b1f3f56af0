"""The one renderer of every HTML table netbenefit shows or writes.

Every table of a notebook, a report and a memo (results, comparisons, draws, sweeps, portfolios,
after-approval tables, inputs, checks) is made by :func:`table_html`, and every table of a
DataFrame by :func:`frame_html` on top of it. Each escapes every cell, header and index label it
is given (:func:`netbenefit.io.safe_text.html`), so that text from a file (a scenario named
``<img src=x onerror=...>``, a cell ``<b>x</b>``, a column ``<script>``) appears only as text;
the only HTML it takes as it is is :class:`~netbenefit.io.safe_text.Markup`, which the package
makes of its own markup around text it has escaped.

A table shown in a notebook is cut as pandas cuts its own (:func:`frame_html` with ``truncate``):
at most ``display.max_rows`` rows (then ``display.min_rows``, half from the top and half from the
bottom) and ``display.max_columns`` columns, with a row and a column of ``...`` where it is cut and
``N rows x M columns`` below it (``display.show_dimensions``), the user's pandas options honoured.
Only the rows and columns shown are formatted: a 200,000-row table of draws shows in milliseconds.
A page written to a file (the report, the memo) shows every row.
"""

from __future__ import annotations

import math
import numbers
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...io.safe_text import Markup
from ...io.safe_text import html as escape

if TYPE_CHECKING:
    import pandas as pd

#: The text of a cell where a table is cut, as pandas writes it.
ELLIPSIS = "..."


@dataclass(frozen=True)
class Cell:
    """A cell with more than its text: ``numeric`` (right-aligned, ``class="num"``), ``header``
    (a ``<th>``), and ``style`` and ``cls`` (the package's own CSS and class, never text from a file)."""

    content: Any
    numeric: bool = False
    header: bool = False
    style: str = ""
    cls: str = ""


def text_html(content: Any) -> str:
    """The HTML of one cell's content: :class:`Markup` as it is, anything else escaped as text."""
    return content if isinstance(content, Markup) else escape("" if content is None else content)


def _cell_html(cell: Any, tag: str = "td") -> str:
    if not isinstance(cell, Cell):
        return f"<{tag}>{text_html(cell)}</{tag}>"
    tag = "th" if cell.header else tag
    classes = " ".join(name for name in ("num" if cell.numeric else "", cell.cls) if name)
    attributes = f' class="{escape(classes)}"' if classes else ""
    attributes += f' style="{escape(cell.style)}"' if cell.style else ""
    return f"<{tag}{attributes}>{text_html(cell.content)}</{tag}>"


def table_html(
    head: Sequence[Any] | None,
    body: Iterable[Sequence[Any]],
    *,
    row_styles: Sequence[str] | None = None,
    attributes: str = "",
    scroll: bool = False,
    after: str = "",
) -> str:
    """An HTML table: ``head`` (the header cells, or None), then one row per item of ``body``.

    A cell is any value, escaped as text, :class:`Markup` (the package's own HTML), or a
    :class:`Cell`. ``row_styles`` gives each body row's ``style`` (the package's own CSS),
    ``attributes`` the table's (``class='facts'``); ``scroll`` wraps it in ``<div class="scroll">``;
    ``after`` (HTML) follows the table inside that wrapper (pandas' ``N rows x M columns``).
    """
    parts = ["<table", f" {attributes}" if attributes else "", ">"]
    if head is not None:
        parts.append("<thead><tr>" + "".join(_cell_html(cell, "th") for cell in head) + "</tr></thead>")
    parts.append("<tbody>")
    for i, row in enumerate(body):
        style = row_styles[i] if row_styles is not None and i < len(row_styles) and row_styles[i] else ""
        opening = f'<tr style="{escape(style)}">' if style else "<tr>"
        parts.append(opening + "".join(_cell_html(cell) for cell in row) + "</tr>")
    parts.append("</tbody></table>")
    table = "".join(parts)
    return f'<div class="scroll">{table}{after}</div>' if scroll else table + after


def pairs_html(pairs: Iterable[tuple[Any, Any]], *, attributes: str = "") -> str:
    """A table of ``(name, value)`` rows, each name a header cell: the facts of a result, a run."""
    return table_html(None, ([Cell(name, header=True), value] for name, value in pairs), attributes=attributes)


# ----------------------------------------------------------------------------------------------
# A DataFrame
# ----------------------------------------------------------------------------------------------


def _option(name: str) -> Any:
    import pandas as pd  # deferred: a view of a DataFrame is drawn once pandas is loaded

    return pd.get_option(name)


def _terminal_rows() -> int:
    """The rows pandas fits on the terminal when ``display.max_rows`` is 0 (less its own lines)."""
    return max(shutil.get_terminal_size().lines - 4, 1)


def shown_rows(count: int) -> tuple[int, int] | None:
    """How many rows a notebook shows of a table of ``count`` rows, as pandas shows its own:
    ``(from the top, from the bottom)``, or None for every row. More than ``display.max_rows``
    rows shows ``display.min_rows`` of them (when set), half from the top and half from the
    bottom; ``display.max_rows`` None shows every row, 0 as many as the terminal has lines."""
    most = _option("display.max_rows")
    if most == 0:
        most = _terminal_rows()
    least = _option("display.min_rows")
    if most and count > most and least:
        most = min(least, most)
    if not most or count <= most:
        return None
    half = most // 2
    return (half, half) if half >= 1 else (most, 0)


def shown_columns(count: int) -> tuple[int, int] | None:
    """How many columns a notebook shows of ``count``, as pandas does (``display.max_columns``,
    half from the left and half from the right); None (or 0, which pandas fits to a terminal
    wider than a page of columns) for every column."""
    most = _option("display.max_columns")
    if not most or count <= most:
        return None
    half = most // 2
    return (half, half) if half >= 1 else (most, 0)


def dimensions_html(rows: int, columns: int, cut: bool) -> str:
    """``<p>N rows x M columns</p>`` below a table, when pandas would write it
    (``display.show_dimensions``: always, never, or where the table is cut)."""
    show = _option("display.show_dimensions")
    if show is True or (show == "truncate" and cut):
        return f"<p>{rows} rows \u00d7 {columns} columns</p>"  # as pandas writes it
    return ""


def _positions(count: int, shown: tuple[int, int] | None, *, marked_at_end: bool) -> tuple[list[int], int | None, bool]:
    """The positions shown of ``count``, where the ``...`` goes (None: nowhere) and whether it is
    cut. Shown one long, pandas marks the cut of the columns at their end, of the rows nowhere."""
    if shown is None:
        return list(range(count)), None, False
    top, bottom = shown
    return [*range(top), *range(count - bottom, count)], (top if bottom or marked_at_end else None), True


def is_number(value: Any) -> bool:
    """Whether ``value`` is a number shown right-aligned (a numpy number too; not a bool)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def plain_text(value: Any) -> str:
    """A value without a format of its own: empty where missing, a float as pandas' Styler writes
    it (``display.precision``... the ``styler.format.precision`` option, 6 decimals by default),
    a list as ``1 + 2``, anything else as ``str``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and not isinstance(value, bool):
        return f"{value:.{_option('styler.format.precision')}f}"
    if isinstance(value, list | tuple):
        return " + ".join(str(item) for item in value)
    return str(value)


def frame_html(
    frame: pd.DataFrame,
    cell: Callable[[Any, Any], Any] | None = None,
    *,
    header: Callable[[Any], Any] = str,
    index: Any = None,
    index_cell: Callable[[Any], Any] = str,
    numeric: Callable[[Any], bool] = is_number,
    truncate: bool = False,
    scroll: bool = True,
) -> str:
    """``frame`` as an HTML table (:func:`table_html`: every value, header and index label escaped).

    ``cell(column, value)`` gives each cell's text (or :class:`Markup`; default :func:`plain_text`),
    ``header(column)`` each column's header, ``index`` the header of an index column (None: the
    index is not shown) and ``index_cell(label)`` its cells; a cell whose value is ``numeric`` is
    right-aligned. With ``truncate`` the table is cut as pandas cuts a table in a notebook
    (:func:`shown_rows`, :func:`shown_columns`, :func:`dimensions_html`); only the rows and
    columns shown are read."""
    cell = cell or (lambda column, value: plain_text(value))
    rows, row_cut, rows_cut = _positions(len(frame), shown_rows(len(frame)) if truncate else None, marked_at_end=False)
    shown_across = shown_columns(len(frame.columns)) if truncate else None
    columns, column_cut, columns_cut = _positions(len(frame.columns), shown_across, marked_at_end=True)
    names = [frame.columns[k] for k in columns]
    head = [header(name) for name in names]
    if column_cut is not None:
        head.insert(column_cut, ELLIPSIS)
    if index is not None:
        head.insert(0, index)
    shown = frame.iloc[rows, columns]
    body = []
    for label, *values in shown.itertuples(index=True, name=None):
        cells = [Cell(cell(name, value), numeric=numeric(value)) for name, value in zip(names, values, strict=True)]
        if column_cut is not None:
            cells.insert(column_cut, ELLIPSIS)
        if index is not None:
            cells.insert(0, Cell(index_cell(label), numeric=True))
        body.append(cells)
    if row_cut is not None:
        body.insert(row_cut, [ELLIPSIS] * len(head))
    after = dimensions_html(len(frame), len(frame.columns), rows_cut or columns_cut)
    return table_html(head, body, scroll=scroll, after=after if truncate else "")
