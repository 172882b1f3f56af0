"""compare's CSV files are made without pandas: the bytes pandas' ``to_csv`` writes, exactly."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import netbenefit
from netbenefit.io import safe_text
from netbenefit.views.result_files import csv_bytes, csv_files

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _pandas(frame: pd.DataFrame, index: bool = False) -> bytes:
    return safe_text.csv_table(frame).to_csv(index=index).encode("utf-8")


@pytest.fixture(scope="module")
def results():
    return [netbenefit.evaluate(path) for path in sorted(SCENARIOS.glob("*.yaml"))]


def test_every_bundled_file_is_what_pandas_writes(results):
    files = dict(csv_files(results))
    assert files.pop("summary.csv") == _pandas(netbenefit.compare(results))
    for result, (name, data) in zip(results, files.items(), strict=True):
        assert data == _pandas(result.cashflows, index=True), name


def test_the_cash_flows_already_read_as_a_table_give_the_same_file(results):
    before = dict(csv_files(results[:2]))
    for result in results[:2]:
        _ = result.cashflows  # built and kept as a DataFrame: the file is then read from it
    assert dict(csv_files(results[:2])) == before


@pytest.mark.parametrize(
    "column",
    [
        [1, 2, 3],  # whole numbers: 1
        [1, None, 3],  # a missing value: pandas makes the column float, 1.0
        [1, 2.5, 3],  # a fraction: float
        [0.1 + 0.2, 1e-05, 1e16, 123456789.0, -0.0, float("nan"), 1 / 3],
        [True, False, None],  # booleans with a missing value: object
        [True, 1, "x"],
        [None, None, None],
        ["=1+2", "a, b", 'say "yes"', "two\nlines", "", "-3", "@x"],
        [np.float64(2.5), np.int64(7), np.bool_(True)],
        [float("nan"), float("nan"), float("nan")],
    ],
)
def test_a_column_is_written_as_pandas_types_and_writes_it(column):
    frame = pd.DataFrame({"value": column, "=name": range(len(column))})
    assert csv_bytes(["value", "=name"], list(zip(column, range(len(column)), strict=True))) == _pandas(frame)


def test_floats_are_the_shortest_text_that_reads_back_as_the_same_float():
    values = [math.pi * 10.0**k for k in range(-8, 18)]
    text = csv_bytes(["x"], [(v,) for v in values]).decode().split()[1:]
    assert [float(t) for t in text] == values
