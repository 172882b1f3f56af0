"""Properties of the net positive benefit test, 71(a)(5), on generated valid scenarios.

Each property holds for every scenario of the v1 format: a ratio is PV of benefits / PV of the
requested credits, both discounted at one rate (71(a)(5)(c)), so it does not depend on the unit of
money or on when in the year flows fall; abated taxes are not considered (71(a)(5)(e)); a higher
threshold is harder to meet.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from properties.scenario_strategies import scale_money, scenario_dicts

import netbenefit
from netbenefit import Scenario
from netbenefit.law.rules import meets_threshold

#: docs/model.md#checks, in order.
CHECK_IDS = ["71(a)(1)", "71(a)(2)", "71(a)(3)", "71(a)(4)", "71(a)(5)", "71(a)(6)", "71(a)(7)", "71(a)(8)",
             "71(d)", "71(f)", "75"]  # fmt: skip

#: scenario-format.md, "Results": the keys of the JSON object, at every level.
RESULT_KEYS = {
    "name", "eligible", "net_benefit", "checks", "capital_investment_minimum", "infrastructure_fund_donation",
    "jobs_clause", "retained_jobs_eligible", "phases", "extended_commitment", "max_credit_pv", "excluded_streams",
    "max_credit_pv_whole_project", "max_credit_pv_note",
    "clawback_schedule", "clawback_note",
    "benefits_by_tax", "conventions", "method",
    "warnings",
}  # fmt: skip
NET_BENEFIT_KEYS = {
    "pv_benefits", "pv_credits", "ratio", "threshold", "threshold_clause", "passes", "discount_rate", "ratio_as_given",
    "deciding_test", "margin", "whole_project_ratio", "ratio_without_extension", "passes_without_extension",
    "extension_decides",
}  # fmt: skip
CHECK_KEYS = {"id", "passed", "message"}
#: A check's record (netbenefit.law.rules.decision): the deciding comparison, and every one made.
DECISION_KEYS = {"value", "relation", "limit", "clause", "test", "comparisons"}
PHASE_KEYS = {"phases", "pv_benefits", "pv_credits", "ratio", "passes"}
EXTENDED_KEYS = {"years", "incremental_credit", "repayment_schedule", "test", "repayment_by_phase"}
REPAYMENT_KEYS = {"years_maintained", "repayment"}
THRESHOLD_CLAUSES = {"71(a)(5)", "71(a)(5)(a)", "71(a)(5)(b)", "71(a)(5)(f)"}

EXAMPLES = settings(max_examples=100)
FEWER = settings(max_examples=40)


def evaluate(data: dict) -> netbenefit.Result:
    return netbenefit.evaluate(Scenario.from_dict(data))


def numbers_in(value):
    """Every int or float anywhere inside a to_dict() value."""
    if isinstance(value, dict):
        for item in value.values():
            yield from numbers_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from numbers_in(item)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield value


def assert_all_finite(frame: pd.DataFrame, name: str) -> None:
    numeric = frame.select_dtypes(include="number")
    assert numeric.shape[1] > 0, f"{name} has no numeric column"
    values = numeric.to_numpy(dtype=float)
    assert np.isfinite(values).all(), f"{name} has NaN or infinite values in {list(numeric.columns)}"


def same_ratio(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# ----------------------------------------------------------------------------------------------
# Evaluation never fails, never returns NaN or infinity, always fills the contract
# ----------------------------------------------------------------------------------------------


@EXAMPLES
@given(scenario_dicts())
def test_a_valid_scenario_evaluates_to_finite_numbers_everywhere(data):
    result = evaluate(data)
    assert all(math.isfinite(x) for x in numbers_in(result.to_dict()))
    assert_all_finite(result.cashflows, "cashflows")
    assert_all_finite(result.streams, "streams")
    assert_all_finite(result.phase_tests[["pv_benefits", "pv_credits", "ratio"]], "phase_tests")
    assert result.pv_credits > 0


@EXAMPLES
@given(scenario_dicts())
def test_the_result_has_exactly_the_contract_keys_and_the_ten_checks_in_order(data):
    out = evaluate(data).to_dict()
    assert set(out) == RESULT_KEYS
    assert set(out["net_benefit"]) == NET_BENEFIT_KEYS
    assert out["net_benefit"]["threshold_clause"] in THRESHOLD_CLAUSES
    assert [check["id"] for check in out["checks"]] == CHECK_IDS
    assert all(CHECK_KEYS <= set(check) <= CHECK_KEYS | DECISION_KEYS for check in out["checks"])
    assert len(out["phases"]) == 1 + len(data.get("phases", []))
    assert all(set(phase) == PHASE_KEYS for phase in out["phases"])
    extended = out["extended_commitment"]
    assert set(extended) == EXTENDED_KEYS
    assert [row["years_maintained"] for row in extended["repayment_schedule"]] == list(range(extended["years"]))
    assert all(set(row) == REPAYMENT_KEYS for row in extended["repayment_schedule"])
    # ratio is the least cumulative ratio (the test that decides), and its comparison is the verdict
    net = out["net_benefit"]
    lowest = min(phase["ratio"] for phase in out["phases"])
    assert net["ratio"] == lowest == net["deciding_test"]["ratio"]
    assert bool(meets_threshold(net["ratio"], net["threshold"])) == net["passes"]
    # max_credit_pv = pv_credits x max(0, the least cumulative ratio) / threshold, never below 0
    assert math.isclose(out["max_credit_pv"], net["pv_credits"] * max(0.0, lowest) / net["threshold"])
    assert out["max_credit_pv"] >= 0 and (out["max_credit_pv_note"] != "") == (lowest <= 0)
    assert math.isclose(out["max_credit_pv_whole_project"], net["pv_benefits"] / net["threshold"])
    # passes agrees with the largest credit that passes (up to the test's relative tolerance)
    if net["passes"]:
        assert net["pv_credits"] <= out["max_credit_pv"] * (1 + 1e-8)
    else:
        assert net["pv_credits"] > out["max_credit_pv"] * (1 - 1e-8)
    # jobs_clause is null exactly when the job minimum, 71(a)(2), is not met
    assert (out["jobs_clause"] is None) == (not out["checks"][1]["passed"])


# ----------------------------------------------------------------------------------------------
# The ratio does not depend on the unit of money or on timing within the year
# ----------------------------------------------------------------------------------------------


def effective_income_tax(data: dict) -> dict:
    """The progressive Gross Income Tax is not proportional to the salary; an effective rate is."""
    data = copy.deepcopy(data)
    if data.get("revenue", {}).get("income_tax") == "progressive":
        del data["revenue"]["income_tax"]
        data["revenue"]["income_tax_effective_rate"] = 0.05
    return data


@EXAMPLES
@given(scenario_dicts(), st.sampled_from([0.001, 0.5, 3.0, 1000.0]))
def test_the_ratio_is_unchanged_when_every_money_amount_is_scaled(data, factor):
    data = effective_income_tax(data)
    before = evaluate(data)
    after = evaluate(scale_money(data, factor))
    assert same_ratio(after.ratio, before.ratio)
    assert math.isclose(after.pv_credits, before.pv_credits * factor, rel_tol=1e-9)


@EXAMPLES
@given(scenario_dicts())
def test_the_ratio_is_the_same_with_mid_year_and_end_of_year_discounting(data):
    end = evaluate({**data, "timing": "end_of_year"})
    mid = evaluate({**data, "timing": "mid_year"})
    assert same_ratio(mid.ratio, end.ratio)
    pairs = zip(mid.phase_tests["ratio"], end.phase_tests["ratio"], strict=True)
    assert all(same_ratio(a, b) for a, b in pairs)


# ----------------------------------------------------------------------------------------------
# Streams: a revenue stream can only help; an abated one is not considered, 71(a)(5)(e)
# ----------------------------------------------------------------------------------------------

extra_stream_years = st.dictionaries(st.integers(1, 40), st.floats(0.0, 1e7), min_size=1, max_size=10)


@EXAMPLES
@given(scenario_dicts(), extra_stream_years)
def test_adding_a_revenue_stream_never_lowers_the_ratio(data, years):
    before = evaluate(data)
    added = {**data, "streams": [*data["streams"], {"name": "added revenue", "kind": "revenue", "by_year": years}]}
    after = evaluate(added)
    assert after.ratio >= before.ratio - 1e-12 * abs(before.ratio)
    assert after.pv_benefits >= before.pv_benefits - 1e-9 * abs(before.pv_benefits)


@EXAMPLES
@given(scenario_dicts(), extra_stream_years, st.sampled_from(["revenue", "cost"]), st.integers(-1, 1))
def test_adding_an_abated_stream_never_changes_the_ratio(data, years, kind, where):
    stream = {"name": "abated property tax", "kind": kind, "abated": True, "by_year": years}
    changed = copy.deepcopy(data)
    if where >= 0 and changed.get("phases"):
        changed["phases"][0].setdefault("streams", []).append(stream)
    else:
        changed["streams"].append(stream)
    before, after = evaluate(data), evaluate(changed)
    # Equal up to rounding: a stream running past the other flows lengthens the timeline, which
    # changes the order numpy sums the (unchanged) terms in.
    assert math.isclose(after.ratio, before.ratio, rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(after.pv_benefits, before.pv_benefits, rel_tol=1e-12, abs_tol=1e-6)
    assert "abated property tax" in after.to_dict()["excluded_streams"]


# ----------------------------------------------------------------------------------------------
# Thresholds, 71(a)(5)(f): a higher threshold never turns a fail into a pass
# ----------------------------------------------------------------------------------------------


@EXAMPLES
@given(scenario_dicts(), st.floats(0.5, 6.0), st.floats(0.0, 3.0))
def test_a_higher_threshold_override_never_turns_a_fail_into_a_pass(data, low, step):
    at_low = evaluate({**data, "threshold_override": low})
    at_high = evaluate({**data, "threshold_override": low + step})
    assert at_low.threshold_clause == at_high.threshold_clause == "71(a)(5)(f)"
    if not at_low.passes:
        assert not at_high.passes
    assert at_high.ratio == at_low.ratio


# ----------------------------------------------------------------------------------------------
# The vectorised engine (netbenefit.analysis.sweep) agrees with evaluate
# ----------------------------------------------------------------------------------------------


@FEWER
@given(
    scenario_dicts(),
    st.lists(st.floats(-0.05, 0.2), min_size=1, max_size=3, unique=True),
    st.lists(st.integers(1, 2000), min_size=1, max_size=3, unique=True),
)
def test_a_sweep_gives_the_ratio_evaluate_gives_for_each_combination(data, rates, new_jobs):
    from netbenefit.analysis import sweep

    scenario = Scenario.from_dict(data)
    table = sweep(scenario, {"discount_rate": rates, "jobs.new": new_jobs})
    assert len(table) == len(rates) * len(new_jobs)
    for row in table.itertuples(index=False):
        variant = scenario.replace({"discount_rate": float(row[0]), "jobs.new": float(row[1])})
        try:
            expected = netbenefit.evaluate(variant)
        except netbenefit.ScenarioError:  # e.g. per-job credits of a variant the sweep notes
            assert row.note != ""
            continue
        assert row.note == ""
        assert math.isclose(row.ratio, expected.ratio, rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(row.pv_credits, expected.pv_credits, rel_tol=1e-9)
        assert bool(row.passes) == expected.passes
        assert bool(row.eligible) == expected.eligible


# ----------------------------------------------------------------------------------------------
# Generated scenarios survive a round trip through to_dict and replace
# ----------------------------------------------------------------------------------------------


@FEWER
@given(scenario_dicts())
def test_a_scenario_round_trips_through_to_dict(data):
    scenario = Scenario.from_dict(data)
    again = Scenario.from_dict(scenario.to_dict())
    assert again == scenario
    assert again.to_dict() == scenario.to_dict()
