"""The attribution of netbenefit.diff: exact, additive, computed in one batch of variants."""

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import netbenefit
import netbenefit.analysis.shapley
from netbenefit.analysis.diff import changed_inputs
from netbenefit.analysis.shapley import MAX_PLAYERS

ROOT = Path(__file__).resolve().parents[2]
OFFICE = netbenefit.load_scenario(ROOT / "scenarios" / "office_hq_default_area.yaml")
PHASED = netbenefit.load_scenario(ROOT / "scenarios" / "phased_campus.yaml")

#: Keys of the office scenario and a plausible range of values for each.
NUMERIC = {
    "discount_rate": st.floats(0.0, 0.12),
    "jobs.new": st.integers(150, 400),
    "jobs.median_salary": st.floats(50_000, 150_000),
    "jobs.salary_growth": st.floats(0.0, 0.05),
    "jobs.ramp.0": st.floats(0.1, 1.0),
    "award.annual_credit": st.floats(300_000, 2_000_000),
    "award.eligibility_period_years": st.integers(5, 7),
    "revenue.earnings_multiplier": st.floats(1.0, 2.5),
    "revenue.taxable_spending_share": st.floats(0.0, 0.5),
    "capital_investment.2": st.floats(0, 20_000_000),
}
STRUCTURAL = {
    "timing": st.sampled_from(["end_of_year", "mid_year"]),
    "location.enhanced_area": st.booleans(),
    "business.targeted_industry": st.booleans(),
}


def adds_up(d) -> bool:
    return math.isclose(float(d.attribution["contribution"].sum()), d.ratio_b - d.ratio_a, rel_tol=0, abs_tol=1e-12)


@pytest.mark.slow
@settings(max_examples=20)
@given(st.fixed_dictionaries({}, optional={**NUMERIC, **STRUCTURAL}))
def test_contributions_add_up_to_the_ratio_change(changes):
    d = netbenefit.diff(OFFICE, OFFICE.replace(changes))
    assert adds_up(d)
    changed = [key for key in changes if OFFICE.value_at(key) != changes[key]]
    assert d.grouped == (len(changed) > MAX_PLAYERS)
    if not d.grouped:
        assert list(d.attribution["key"]) == [key for key, *_ in changed_inputs(OFFICE, OFFICE.replace(changes))[1:]]


@pytest.mark.slow
@settings(max_examples=10)
@given(st.sampled_from(sorted(NUMERIC)), st.data())
def test_a_single_change_gets_the_whole_change(key, data):
    value = data.draw(NUMERIC[key])
    d = netbenefit.diff(OFFICE, OFFICE.replace({key: value}))
    if len(d.attribution):
        assert d.attribution["contribution"].iloc[0] == pytest.approx(d.ratio_b - d.ratio_a, abs=1e-12)


def test_an_input_that_does_not_move_the_ratio_gets_zero():
    # The enhanced area changes the threshold of 71(a)(5), not the ratio.
    d = netbenefit.diff(OFFICE, OFFICE.replace({"location.enhanced_area": True, "discount_rate": 0.05}))
    contributions = dict(zip(d.attribution["key"], d.attribution["contribution"], strict=True))
    assert contributions["location.enhanced_area"] == pytest.approx(0.0, abs=1e-12)
    assert adds_up(d)


def test_numeric_changes_are_evaluated_in_one_batch(monkeypatch):
    calls = []
    compute = netbenefit.analysis.shapley.compute  # the attribution module's own name for it, where it is looked up

    def counting(scenario, overrides=None):
        calls.append(0 if overrides is None else len(next(iter(overrides.values()))))
        return compute(scenario, overrides)

    monkeypatch.setattr(netbenefit.analysis.shapley, "compute", counting)
    changes = {"discount_rate": 0.05, "jobs.new": 200, "jobs.median_salary": 90_000, "award.annual_credit": 800_000}
    d = netbenefit.diff(OFFICE, OFFICE.replace(changes))
    assert calls == [2**4]  # every coalition of the four changes at once
    assert adds_up(d)
    calls.clear()
    d = netbenefit.diff(OFFICE, OFFICE.replace({**changes, "timing": "mid_year"}))
    assert calls == [2**4, 2**4]  # one batch for each value of the change that is not numeric
    assert adds_up(d)


def test_more_than_12_changes_are_grouped_by_top_level_block():
    changes = {
        "discount_rate": 0.05,
        "jobs.new": 240,
        "jobs.retained": 10,
        "jobs.median_salary": 95_000,
        "jobs.salary_growth": 0.02,
        "jobs.nj_withholding_share": 0.8,
        "award.annual_credit": 900_000,
        "revenue.income_tax_effective_rate": 0.045,
        "revenue.taxable_spending_share": 0.25,
        "revenue.construction_taxable_share": 0.3,
        "revenue.construction_labor_share": 0.35,
        "revenue.earnings_multiplier": 1.5,
        "revenue.corporate_business_tax": 400_000,
        "capital_investment.1": 28_000_000,
    }
    assert len(changes) > MAX_PLAYERS
    d = netbenefit.diff(OFFICE, OFFICE.replace(changes))
    assert d.grouped and list(d.attribution["key"]) == [
        "discount_rate",
        "capital_investment",
        "jobs",
        "award",
        "revenue",
    ]
    assert adds_up(d) and len(d.inputs) == len(changes) + 1  # and the name


def test_changes_that_cannot_be_made_alone_are_attributed_to_their_block():
    # An award given per new job instead of as an annual amount: neither change is valid alone.
    b = OFFICE.replace({"award.annual_credit": None, "award.per_new_job": 3_000, "discount_rate": 0.05})
    d = netbenefit.diff(OFFICE, b)
    assert d.grouped and set(d.attribution["key"]) == {"discount_rate", "award"}
    assert adds_up(d)


def test_a_later_phase_and_the_phases_list():
    d = netbenefit.diff(PHASED, PHASED.replace({"phases.0.award.annual_credit": 400_000, "phases.0.start_year": 5}))
    assert list(d.attribution["key"]) == ["phases.0.start_year", "phases.0.award.annual_credit"]
    assert adds_up(d)
    d = netbenefit.diff(PHASED, PHASED.replace({"phases": [], "discount_rate": 0.05}))
    assert set(d.attribution["key"]) == {"discount_rate", "phases"} and adds_up(d)


def test_two_bundled_variants():
    extended = netbenefit.load_scenario(ROOT / "scenarios" / "extended_commitment.yaml")
    d = netbenefit.diff(PHASED, extended)
    assert adds_up(d) and d.ratio_a == netbenefit.evaluate(PHASED).ratio


def test_blocks_that_need_each_other_are_attributed_together():
    # Party City gives no revenue drivers and no median salary; the office gives both. Neither the
    # jobs block nor the revenue block can change alone, so the changes that are not numbers are
    # one player; the numeric ones (the discount rate, the award) keep their own values.
    party = netbenefit.load_scenario(ROOT / "scenarios" / "party_city.yaml")
    d = netbenefit.diff(OFFICE, party)
    labels = list(d.attribution["key"])
    assert d.grouped and "discount_rate" in labels and "award" in labels
    assert any(" + " in label and "revenue" in label and "jobs" in label for label in labels)
    assert adds_up(d)
