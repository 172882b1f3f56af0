"""How text from a scenario file (names, descriptions, paths) is written to each place it lands.

One function per sink, so that every writer treats user text alike:

- :func:`cell` for a spreadsheet cell and :func:`csv_field` for a CSV field: text that starts with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return would be read by a spreadsheet program as
  a formula (CSV or formula injection), so it gets a leading single quote (``=1+1`` is written
  ``'=1+1``), as the OWASP guidance on CSV injection recommends. A cell also writes the control
  characters a workbook cannot hold (``\\x00``-``\\x08``, ``\\x0b``, ``\\x0c``, ``\\x0e``-``\\x1f``)
  as their escapes. Numbers, booleans and missing values are left alone.
- :func:`terminal` for a line printed on the terminal: every control or other non-printable
  character (an escape sequence that would clear the screen or retitle the window) is written as
  its escape sequence, as error messages are (:mod:`netbenefit.errors`).
- :func:`html` for HTML text and attribute values; it gives :class:`Markup`, which a table of
  :mod:`netbenefit.views.html.table` takes as HTML, where it escapes any other text.

:func:`csv_table` applies :func:`csv_field` to the text of a DataFrame: its values, column names
and index.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Callable
from typing import Any

from ..errors import printable

#: First characters that make a spreadsheet program read a cell as a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: What is put before such text.
FORMULA_GUARD = "'"
#: Characters that an Office Open XML workbook cannot hold (as openpyxl's ILLEGAL_CHARACTERS_RE).
_NOT_IN_WORKBOOK = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def csv_field(text: Any) -> Any:
    """``text`` as a CSV field that no spreadsheet program reads as a formula; other values as given."""
    if isinstance(text, str) and text.startswith(FORMULA_STARTS):
        return FORMULA_GUARD + text
    return text


def cell(text: Any) -> Any:
    """``text`` as a spreadsheet cell: no formula (as :func:`csv_field`), and no character a
    workbook cannot hold (written as its escape, ``\\x01``); other values as given."""
    if not isinstance(text, str):
        return text
    text = _NOT_IN_WORKBOOK.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)
    return csv_field(text)


def terminal(text: str) -> str:
    """``text`` as one printable line: control and escape characters written as escapes (``\\x1b``)."""
    return printable(str(text))


def terminal_lines(text: str) -> str:
    """Several lines for the terminal: each line as :func:`terminal`, the line breaks kept."""
    return "\n".join(terminal(line) for line in str(text).split("\n"))


#: Characters no HTML page may hold raw: control characters other than tab and line breaks (a NUL
#: above all), and lone surrogates, which no UTF-8 page can encode.
_NOT_IN_HTML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


class Markup(str):
    """HTML that netbenefit wrote itself, every user text in it escaped (by :func:`html`): where a
    page takes text, it is taken as it is (:func:`netbenefit.views.html.table.table_html`), where any
    other text is escaped. Only :func:`html` and the package's own markup make one."""

    __slots__ = ()


def html(text: Any) -> Markup:
    """``text`` escaped for HTML text and quoted attribute values; a control character (a NUL) or
    a lone surrogate written as its escape (``\\x00``), never raw. :class:`Markup` (escaped
    already) is given back as it is."""
    if isinstance(text, Markup):
        return text
    escaped = _html.escape(str(text), quote=True)
    return Markup(_NOT_IN_HTML.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), escaped))


def _table(frame, guard: Callable[[Any], Any]):
    """A copy of ``frame`` with ``guard`` applied to every text value, column name and index label."""
    safe = frame.copy()
    for column in safe.columns:
        if safe[column].dtype == object or str(safe[column].dtype) in ("string", "str"):
            safe[column] = safe[column].map(guard)
    safe.columns = safe.columns.map(guard)
    safe.index = safe.index.map(guard)
    safe.index.names = [guard(name) for name in frame.index.names]
    return safe


def csv_table(frame):
    """``frame`` ready for ``to_csv``: :func:`csv_field` on its text, column names and index."""
    return _table(frame, csv_field)
