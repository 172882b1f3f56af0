"""The shared pieces of netbenefit's HTML: the inline style sheet, the colours of a passed and a
failed check, the money and percent formatters, tables of a DataFrame, a scenario's inputs as
written, and a chart as an embedded PNG. :mod:`netbenefit.views.html.result` and
:mod:`netbenefit.views.html.report` build on them, and so do :mod:`netbenefit.views.notebook` and
:mod:`netbenefit.views.portfolio_files`."""

from __future__ import annotations

import base64
import datetime as dt
from typing import TYPE_CHECKING

from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...labels import label
from ..charts.printing import figure_bytes
from .table import frame_html

if TYPE_CHECKING:
    import pandas as pd

#: Background and text colours of a passed and a failed check (as in :mod:`netbenefit.views.charts`).
PASS_STYLE = "background:#e8f1fa;color:#0b4f8a"
FAIL_STYLE = "background:#fde9d9;color:#a34700"

#: Inline style sheet, scoped to the ``netbenefit`` class so that it leaves a notebook's own alone.
STYLE = """
.netbenefit { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; font-size: 13px;
  line-height: 1.4; color: #222; }
.netbenefit table { border-collapse: collapse; margin: 0.4em 0 1em 0; }
.netbenefit th, .netbenefit td { border: 1px solid #d0d0d0; padding: 3px 7px; vertical-align: top; }
.netbenefit th { background: #f3f3f3; text-align: left; }
.netbenefit td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.netbenefit .headline { font-size: 15px; padding: 8px 12px; border-radius: 4px; display: inline-block;
  margin: 4px 0 10px 0; }
.netbenefit .scroll { max-width: 100%; overflow-x: auto; }
.netbenefit h2 { font-size: 17px; margin: 1.2em 0 0.3em 0; }
.netbenefit h3 { font-size: 14px; margin: 1em 0 0.3em 0; }
.netbenefit pre { background: #f7f7f7; padding: 8px; border: 1px solid #e0e0e0; overflow-x: auto; }
.netbenefit figure { margin: 0.5em 0 1.5em 0; }
.netbenefit figure img { max-width: 100%; height: auto; border: 1px solid #e0e0e0; }
.netbenefit figcaption { font-size: 12px; color: #555; }
"""


# ----------------------------------------------------------------------------------------------
# Formatting
# ----------------------------------------------------------------------------------------------


# ----------------------------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------------------------


def _header(column, streams=()) -> str:
    """The label of a column in words with its unit (:mod:`netbenefit.labels`), else its name."""
    return label(str(column), streams=streams, default=str(column).replace("_", " "))


def html_table(frame: pd.DataFrame, cell, *, index: str | None = None, streams=(), truncate: bool = False) -> str:
    """An HTML table of ``frame`` (:func:`netbenefit.views.html.table.frame_html`, which escapes
    every value, header and index label); ``cell(column, value)`` gives each cell's text, escaped,
    or its HTML as :class:`~netbenefit.io.safe_text.Markup` (what :func:`escape` gives); headers in
    words with units. Every row, or with ``truncate`` (a notebook) as many as pandas shows."""
    return frame_html(
        frame,
        cell,
        header=lambda column: _header(column, streams),
        index=_header(index, streams) if index else None,
        truncate=truncate,
    )


# ----------------------------------------------------------------------------------------------
# Inputs as written
# ----------------------------------------------------------------------------------------------


def written_value(value) -> str:
    """A value as its author wrote it: whole numbers without ``.0`` unless written so, lists joined."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return repr(value) if abs(value) < 1e15 else f"{value:,.0f}"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list | tuple) and all(not isinstance(v, dict | list) for v in value):
        return ", ".join(written_value(v) for v in value)
    return str(value)


def flatten(data, prefix: str = ""):
    """``(dotted key, value)`` of every leaf of ``data``; None values (keys left empty) skipped."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from flatten(value, f"{prefix}{key}.")
    elif isinstance(data, list | tuple) and any(isinstance(v, dict | list | tuple) for v in data):
        for i, value in enumerate(data):
            yield from flatten(value, f"{prefix}{i}.")
    elif data is not None:
        yield prefix[:-1], data


# ----------------------------------------------------------------------------------------------
# Charts in a page
# ----------------------------------------------------------------------------------------------


def figure_png_base64(figure, *, dpi: float = 110) -> str:
    """``figure`` as a base64-encoded PNG, for an ``<img src="data:image/png;base64,...">`` (drawn
    once, as the chart files are)."""
    return base64.b64encode(figure_bytes(figure, "png", dpi=dpi)).decode("ascii")


def figure_html(figure, alt: str, caption: str) -> str:
    """``figure`` as an HTML figure: the embedded PNG with its alternative text, and its caption."""
    return (
        f'<figure><img alt="{escape(alt)}" src="data:image/png;base64,{figure_png_base64(figure)}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )
