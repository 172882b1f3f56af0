"""The tables of a Result are built when first read, once, and give the numbers of the JSON contract."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
import pytest

import netbenefit
from netbenefit.model.result import ON_DEMAND_FIELDS, OnDemand

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture
def result():
    return netbenefit.evaluate(SCENARIOS / "extended_commitment.yaml")


def test_no_table_is_built_by_evaluate_to_dict_summary_or_check(result):
    result.to_dict()
    result.summary()
    result.check("71(a)(5)")
    for name in ("checks", "phase_tests", "repayment_schedule", "cashflows", "streams", "award_calculation"):
        assert isinstance(result.__dict__[name], OnDemand), name


def test_a_table_is_built_once_when_first_read(result):
    table = result.cashflows
    assert isinstance(table, pd.DataFrame) and result.__dict__["cashflows"] is table
    assert result.cashflows is table


def test_the_tables_hold_the_numbers_of_the_contract(result):
    data = result.to_dict()
    assert list(result.checks["id"]) == [c["id"] for c in data["checks"]]
    assert list(result.checks["passed"]) == [c["passed"] for c in data["checks"]]
    assert result.phase_tests["ratio"].tolist() == [p["ratio"] for p in data["phases"]]
    assert result.phase_tests["passes"].dtype == bool
    schedule = data["extended_commitment"]["repayment_schedule"]
    assert result.repayment_schedule["years_maintained"].dtype.kind == "i"
    assert result.repayment_schedule["repayment"].tolist() == [row["repayment"] for row in schedule]
    assert result.cashflows["cumulative_pv_net_benefits"].iloc[-1] == pytest.approx(result.pv_benefits, rel=1e-12)


def test_a_result_is_still_made_from_dataframes_and_gives_the_same_contract(result):
    tables = {name: getattr(result, name) for name in ON_DEMAND_FIELDS}
    copy = dataclasses.replace(result, **tables)
    assert copy.to_dict() == result.to_dict() and copy.summary() == result.summary()
    assert copy.cashflows is tables["cashflows"] and copy.benefits_by_tax is tables["benefits_by_tax"]


def test_a_result_is_frozen(result):
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.cashflows = None
