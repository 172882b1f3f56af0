"""A table shown in a notebook is cut as pandas cuts its own: the same rows and columns (from the
top and the bottom, the left and the right), a row and a column of ``...`` where it is cut, and
``N rows x M columns`` below it, honouring the user's ``display.max_rows``, ``display.min_rows``,
``display.max_columns`` and ``display.show_dimensions``; only the rows shown are formatted."""

from __future__ import annotations

import contextlib
import time
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from netbenefit.model.tables import shown


class _Rows(HTMLParser):
    """The text of each cell of each row of a table, header and body."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.after: list[str] = []
        self._cell: list[str] | None = None
        self._ended = False

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._ended = True

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        elif self._ended and data.strip():
            self.after.append(data.strip())


def rows_of(page: str) -> tuple[list[list[str]], list[str]]:
    reader = _Rows()
    reader.feed(page)
    return [row for row in reader.rows if row], reader.after


def frame(rows: int, columns: int) -> pd.DataFrame:
    data = np.arange(rows * columns, dtype=np.int64).reshape(rows, columns)
    table = pd.DataFrame(data, columns=[f"c{k}" for k in range(columns)])
    table.index.name = "draw"
    return table


def _shape(page: str) -> tuple[list[str], list[str], list[str]]:
    """The header cells after the index, the index cell of each body row, the text after the table
    (pandas writes the index's name on a row of its own, netbenefit in the header's first cell)."""
    rows, after = rows_of(page)
    body = [row for row in rows[1:] if row[0] != "draw"]
    return rows[0][1:], [row[0] for row in body], after


OPTIONS = {
    "pandas' defaults": {},
    "max_rows 9, min_rows 4": {"display.max_rows": 9, "display.min_rows": 4},
    "max_rows 7, min_rows 0": {"display.max_rows": 7, "display.min_rows": 0},
    "max_rows None": {"display.max_rows": None},
    "max_rows 1": {"display.max_rows": 1, "display.min_rows": 0},
    "max_columns 5": {"display.max_columns": 5},
    "max_columns 4, max_rows 6, min_rows 6": {"display.max_columns": 4, "display.max_rows": 6, "display.min_rows": 6},
    "max_columns 1": {"display.max_columns": 1},
    "show_dimensions True": {"display.show_dimensions": True},
    "show_dimensions False": {"display.show_dimensions": False, "display.max_rows": 9},
}
SIZES = [(3, 2), (60, 3), (61, 3), (200, 12), (200_000, 9)]


#: Each case on each size, but every row of 200,000 (the rule of every row of 200, slowly).
CASES = [
    pytest.param(case, size, id=f"{case}-{size[0]}x{size[1]}")
    for case in OPTIONS
    for size in SIZES
    if not (case == "max_rows None" and size[0] > 1_000)
]


@pytest.mark.parametrize("case, size", CASES)
def test_a_table_shows_the_rows_and_columns_pandas_shows(case, size):
    # Was: every row was shown (a 200,000-row table of draws: 12.8 s and 22 MB of HTML; pandas shows 10).
    table = frame(*size)
    options = [item for pair in OPTIONS[case].items() for item in pair]
    with pd.option_context(*options) if options else contextlib.nullcontext():
        ours, theirs = _shape(shown(table)._repr_html_()), _shape(table._repr_html_())
    assert ours == theirs


def test_the_user_s_options_are_read_each_time_and_left_as_they_were():
    table = shown(frame(100, 3))
    before = {name: pd.get_option(name) for name in ("display.max_rows", "display.min_rows", "display.max_columns")}
    with pd.option_context("display.max_rows", 200):
        assert len(rows_of(table._repr_html_())[0]) == 100 + 1
    assert len(rows_of(table._repr_html_())[0]) == 10 + 1 + 1  # the rows shown, the ..., the header
    assert before == {name: pd.get_option(name) for name in before}


def test_a_table_of_200000_draws_shows_in_a_moment_with_its_values_formatted():
    table = shown(pd.DataFrame({"pv_benefits": np.linspace(1e6, 2e6, 200_000), "ratio": np.full(200_000, 4.5)}))
    start = time.perf_counter()
    page = table._repr_html_()
    assert time.perf_counter() - start < 2.0 and len(page) < 20_000
    assert "$1,000,000" in page and "$2,000,000" in page and "450.0%" in page and "200000 rows" in page
