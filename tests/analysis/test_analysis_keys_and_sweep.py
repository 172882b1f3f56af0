"""Which keys may vary, the validation of their values, and full factorial sweeps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.analysis import check_values, key_spec, sweep
from netbenefit.analysis.variants import RESULT_COLUMNS

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def office():
    return netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")


@pytest.fixture(scope="module")
def party_city():
    return netbenefit.load_scenario(SCENARIOS / "party_city.yaml")


# -- keys -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "kind", "lower", "lower_inclusive", "upper"),
    [
        ("jobs.new", "number", 0.0, True, None),
        ("jobs.nj_withholding_share", "number", 0.0, True, 1.0),
        ("discount_rate", "number", -1.0, False, None),
        ("revenue.earnings_multiplier", "number", 1.0, True, None),
        ("award.eligibility_period_years", "integer", 1.0, True, ...),
        ("commitment.extended_years", "integer", 0.0, True, ...),
        ("capital_investment.2", "number", 0.0, True, None),
        ("jobs.ramp.0", "number", 0.0, True, 1.0),
        ("location.enhanced_area", "flag", None, True, None),
        ("threshold_override", "number", 0.0, False, None),
        ("attestations.prevailing_wage.exemption.lease_share_of_facility", "number", 0.0, True, 1.0),
    ],
)
def test_key_spec_reads_the_scenario_models(office, key, kind, lower, lower_inclusive, upper):
    spec = key_spec(office, key)
    assert (spec.kind, spec.lower, spec.lower_inclusive) == (kind, lower, lower_inclusive)
    if upper is not ...:  # ...: a whole-number key whose upper bound is not the point here
        assert spec.upper == upper


def test_key_spec_gives_the_base_value(office):
    assert key_spec(office, "jobs.new").base == 260
    assert key_spec(office, "threshold_override").base is None


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("jobs.neww", "unknown key"),
        ("name", "not numeric"),
        ("timing", "not numeric"),
        ("application_date", "not numeric"),
        ("facility.portions.0.use", "not numeric"),
        ("jobs.ramp", "not numeric"),
        ("jobs", "not numeric (a block of keys)"),
        ("capital_investment.9", "year 9 is not in this scenario"),
        ("facility.portions.3.gross_leasable_area_sqft", "no item 3"),
        ("jobs.new.x", "is a value"),
        ("phases.0.jobs.new", "no item 0"),
    ],
)
def test_bad_keys_raise_naming_the_key(office, key, words):
    with pytest.raises(ScenarioError) as error:
        sweep(office, {key: [1.0]})
    assert error.value.key == key
    assert words in str(error.value)


def test_a_block_the_scenario_leaves_out_cannot_vary(party_city):
    with pytest.raises(ScenarioError, match="no 'revenue' block"):
        key_spec(party_city, "revenue.earnings_multiplier")


def test_whether_a_stream_is_abated_cannot_vary(party_city):
    with pytest.raises(ScenarioError, match="abated"):
        key_spec(party_city, "streams.0.abated")


@pytest.mark.parametrize(
    ("key", "values", "words"),
    [
        ("jobs.nj_withholding_share", [0.9, 1.2], "<= 1"),
        ("jobs.new", [-1.0, 10.0], ">= 0"),
        ("discount_rate", [-1.0], "> -1"),
        ("award.eligibility_period_years", [7, 7.5], "whole number"),
        ("jobs.new", [np.nan], "finite"),
        ("jobs.new", [np.inf], "finite"),
        ("location.enhanced_area", [0, 1], "true or false"),
        ("jobs.new", [True, False], "numbers"),
        ("jobs.new", [], "no values"),
        ("award.per_new_job", [100.0], "exactly one of"),
    ],
)
def test_bad_values_raise_naming_the_key(office, key, values, words):
    with pytest.raises(ScenarioError) as error:
        sweep(office, {key: values})
    assert error.value.key == key
    assert words in str(error.value)


def test_rules_across_keys_apply_to_the_values():
    """A small business needs a workforce of at least 1 (a rule of the scenario format)."""
    scenario = netbenefit.load_scenario(SCENARIOS / "small_business.yaml")
    with pytest.raises(ScenarioError, match="full_time_employees_at_application"):
        sweep(scenario, {"business.full_time_employees_at_application": [0.0, 40.0]})


def test_clip_moves_values_to_the_nearest_valid_one(office):
    share = check_values(office, "jobs.nj_withholding_share", [-0.2, 0.5, 1.3], out_of_range="clip")
    assert share.tolist() == [0.0, 0.5, 1.0]
    rate = check_values(office, "discount_rate", [-1.5, 0.05], out_of_range="clip")
    assert rate[0] > -1 and rate[0] == pytest.approx(-1.0)
    years = check_values(office, "award.eligibility_period_years", [0.2, 6.6], out_of_range="clip")
    assert years.tolist() == [1.0, 7.0]
    with pytest.raises(ScenarioError, match="finite"):
        check_values(office, "jobs.new", [np.nan], out_of_range="clip")


def test_values_between_those_already_checked_are_not_applied_again(monkeypatch):
    """The chunks of one Monte Carlo run share ``checked``: a chunk inside the values already
    applied needs no Scenario.replace; a value outside them is applied, and a bad one still raises."""
    from netbenefit.analysis import keys

    scenario = netbenefit.load_scenario(SCENARIOS / "small_business.yaml")
    key = "business.full_time_employees_at_application"
    applied = []
    original = keys._check_with_replace

    def counted(scenario, spec, value):
        applied.append(float(value))
        return original(scenario, spec, value)

    monkeypatch.setattr(keys, "_check_with_replace", counted)
    checked = {}
    check_values(scenario, key, [10.0, 25.0, 40.0], checked=checked)
    assert applied == [10.0, 40.0] and checked == {key: (10.0, 40.0)}
    check_values(scenario, key, [10.0, 33.0, 40.0], checked=checked)  # within: nothing applied
    assert applied == [10.0, 40.0]
    check_values(scenario, key, [5.0, 20.0], checked=checked)  # below: the new low end only
    assert applied == [10.0, 40.0, 5.0] and checked == {key: (5.0, 40.0)}
    with pytest.raises(ScenarioError, match="full_time_employees_at_application") as error:
        check_values(scenario, key, [0.0, 20.0], checked=checked)  # a small business needs >= 1
    assert "the value 0.0 is not valid (required (>= 1) for a small business" in str(error.value)
    assert checked == {key: (5.0, 40.0)}  # a failed check widens nothing
    check_values(scenario, key, [10.0, 40.0])  # without checked: the extremes, as always
    assert applied[-2:] == [10.0, 40.0]


# -- sweep ------------------------------------------------------------------------------------


def test_sweep_is_a_full_factorial_with_the_keys_as_columns(office):
    grid = {"jobs.new": [200, 260, 320], "discount_rate": [0.05, 0.07], "location.enhanced_area": [False, True]}
    table = sweep(office, grid)
    assert len(table) == 3 * 2 * 2
    assert list(table.columns) == list(grid) + list(RESULT_COLUMNS)
    # The first key varies slowest, as itertools.product.
    assert table["jobs.new"].tolist() == [200.0] * 4 + [260.0] * 4 + [320.0] * 4
    assert table["discount_rate"].tolist()[:4] == [0.05, 0.05, 0.07, 0.07]
    assert table["location.enhanced_area"].tolist()[:2] == [False, True]
    assert not table.duplicated(subset=list(grid)).any()
    # The enhanced area lowers the threshold to 300%, 71(a)(5)(a).
    assert set(table.loc[table["location.enhanced_area"], "threshold"]) == {3.0}
    assert set(table.loc[~table["location.enhanced_area"], "threshold"]) == {4.0}


def test_sweep_rows_match_evaluate(office):
    table = sweep(office, {"jobs.new": [30, 260], "award.annual_credit": [500_000, 1_500_000]})
    for row in table.itertuples(index=False):
        result = netbenefit.evaluate(office.replace({"jobs.new": row[0], "award.annual_credit": row[1]}))
        assert row.ratio == pytest.approx(result.ratio, rel=1e-12)
        assert (row.passes, row.eligible) == (result.passes, result.eligible)


def test_chunks_do_not_change_a_sweep(office):
    grid = {"jobs.new": np.linspace(100, 400, 7), "discount_rate": np.linspace(0.02, 0.1, 5)}
    whole = sweep(office, grid)
    chunked = sweep(office, grid, chunk_size=4)
    assert whole.equals(chunked)


def test_whole_number_keys_are_integers_in_the_table(office):
    table = sweep(office, {"award.eligibility_period_years": [5, 7], "commitment.extended_years": [0, 2]})
    assert table["award.eligibility_period_years"].tolist() == [5, 5, 7, 7]
    assert table["commitment.extended_years"].dtype == np.int64


def test_zero_credits_give_a_note_not_a_silent_nan(office):
    table = sweep(office, {"award.annual_credit": [0.0, 950_000.0]})
    zero, normal = table.iloc[0], table.iloc[1]
    assert zero["note"] == "credits are zero"
    assert np.isnan(zero["ratio"]) and not zero["passes"] and not zero["eligible"]
    assert zero["pv_credits"] == 0.0 and zero["pv_benefits"] > 0
    assert normal["note"] == "" and normal["passes"]


def test_an_empty_grid_is_the_scenario_itself(office):
    table = sweep(office, {})
    assert len(table) == 1
    assert table["ratio"].iloc[0] == pytest.approx(netbenefit.evaluate(office).ratio, rel=1e-12)
