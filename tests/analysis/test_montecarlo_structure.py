"""Monte Carlo on the model's structure (netbenefit.analysis.structure) gives the general path's
numbers: the same present values and ratios to 1e-12 relative for the same seed, the same flags;
and it falls back to the general path where the model is not multilinear in the varied keys.

The comparison runs both paths of the model as it is, so it keeps holding when the model changes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit.analysis import montecarlo
from netbenefit.analysis.keys import key_spec
from netbenefit.analysis.structure import plan
from netbenefit.errors import ScenarioError

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
FILES = sorted(SCENARIOS.glob("*.yaml"))


def vary_for(scenario) -> dict:
    """Keys that enter the benefits linearly, around the scenario's own values, and the rate."""
    vary = {"discount_rate": ("uniform", 0.03, 0.08)}
    for key, spread in (
        ("jobs.new", 0.1),
        ("jobs.median_salary", 0.1),
        ("revenue.earnings_multiplier", 0.05),
        ("revenue.taxable_spending_share", 0.1),
    ):
        if key.startswith("revenue.") and key.endswith("multiplier") and scenario.multipliers is not None:
            continue  # given by the multiplier table
        try:
            base = key_spec(scenario, key).base
        except ScenarioError:
            continue
        if isinstance(base, int | float) and base > 0:
            low, high = base * (1 - spread), base * (1 + spread)
            spec = key_spec(scenario, key)
            if spec.upper is not None:
                high = min(high, spec.upper)
            if spec.lower is not None:
                low = max(low, spec.lower)
            vary[key] = ("uniform", float(low), float(high))
    return vary


def both_paths(scenario, vary, draws=20_000, chunk_size=4_000, seed=7):
    fast = montecarlo(scenario, draws=draws, vary=vary, seed=seed, progress=False, chunk_size=chunk_size)
    general = montecarlo(
        scenario, draws=draws, vary=vary, seed=seed, progress=False, chunk_size=chunk_size, use_structure=False
    )
    return fast, general


def assert_same(fast, general):
    for name in ("pv_benefits", "pv_credits", "ratio", "threshold"):
        np.testing.assert_allclose(
            fast.draws[name].to_numpy(), general.draws[name].to_numpy(), rtol=1e-12, atol=0, err_msg=name
        )
    for name in ("passes", "eligible", "note"):
        assert np.array_equal(fast.draws[name].to_numpy(), general.draws[name].to_numpy()), name
    assert fast.summary.check_failures == general.summary.check_failures
    assert fast.summary.probability_passes == general.summary.probability_passes
    assert fast.summary.probability_eligible == general.summary.probability_eligible


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_the_fast_path_gives_the_general_path_s_numbers_for_every_bundled_scenario(path):
    scenario = netbenefit.load_scenario(path)
    assert_same(*both_paths(scenario, vary_for(scenario)))


def overrides_of(scenario, vary, draws=2_000, seed=3):
    rng = np.random.default_rng(seed)
    return {key: rng.uniform(spec[1], spec[2], draws) for key, spec in vary.items()}


def test_the_fast_path_is_taken_where_the_keys_enter_linearly():
    # office_hq_default_area: a flat income tax rate, so jobs, salary and multiplier enter linearly
    scenario = netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    vary = vary_for(scenario)
    assert {"jobs.new", "jobs.median_salary", "revenue.earnings_multiplier"} <= set(vary)
    found = plan(scenario, overrides_of(scenario, vary))
    assert found is not None
    assert len(found.subsets) < 2 ** len(found.keys)  # the products the model does not form are left out


@pytest.mark.parametrize(
    ("name", "vary", "why"),
    [
        (
            "mega_project",
            {"jobs.median_salary": ("uniform", 20_000.0, 900_000.0), "discount_rate": ("uniform", 0.03, 0.08)},
            "progressive income tax: the salary crosses brackets",
        ),
        ("phased_campus", None, "a phased project: the cumulative tests of 71(a)(5)"),
    ],
)
def test_the_general_path_runs_where_the_model_is_not_multilinear(name, vary, why):
    scenario = netbenefit.load_scenario(SCENARIOS / f"{name}.yaml")
    vary = vary or vary_for(scenario)
    assert plan(scenario, overrides_of(scenario, vary)) is None, why
    assert_same(*both_paths(scenario, vary, draws=4_000, chunk_size=2_000))


def test_a_flag_that_changes_over_the_draws_sends_them_to_the_general_path():
    # jobs.new drawn across the 35-job minimum of 71(c)(1): the eligibility flag differs by draw
    scenario = netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    vary = {"jobs.new": ("uniform", 20.0, 60.0), "discount_rate": ("uniform", 0.03, 0.08)}
    assert plan(scenario, overrides_of(scenario, vary)) is None
    fast, general = both_paths(scenario, vary, draws=4_000, chunk_size=2_000)
    assert 0 < fast.summary.check_failures["71(a)(2)"] < 4_000
    assert_same(fast, general)


def test_a_step_inside_the_box_fails_the_test_of_linearity():
    # salary under progressive brackets on small_business: nonlinear, so no plan
    scenario = netbenefit.load_scenario(SCENARIOS / "small_business.yaml")
    vary = {"jobs.median_salary": ("uniform", 20_000.0, 400_000.0)}
    assert plan(scenario, overrides_of(scenario, vary)) is None


OFFICE_VARY = {
    "jobs.new": ("normal", 260.0, 25.0),
    "discount_rate": ("uniform", 0.04, 0.08),
    "jobs.median_salary": ("triangular", 85_000.0, 98_000.0, 115_000.0),
    "revenue.earnings_multiplier": ("uniform", 1.4, 1.9),
}


def test_the_fast_path_s_numbers_do_not_depend_on_the_chunk_size():
    scenario = netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    runs = [
        montecarlo(scenario, draws=12_000, vary=OFFICE_VARY, seed=9, progress=False, chunk_size=size)
        for size in (12_000, 137, 5_000)
    ]
    assert runs[0].draws.equals(runs[1].draws) and runs[0].draws.equals(runs[2].draws)


def test_draws_outside_the_probed_box_are_computed_by_the_general_path(monkeypatch):
    from netbenefit.analysis import structure

    monkeypatch.setattr(structure, "REACH", 0.5)  # the normal's box: mean +- 0.5 sd; most draws outside
    scenario = netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    fast, general = both_paths(scenario, OFFICE_VARY, draws=6_000, chunk_size=1_000)
    assert_same(fast, general)
    other = montecarlo(scenario, draws=6_000, vary=OFFICE_VARY, seed=7, progress=False, chunk_size=333)
    assert fast.draws.equals(other.draws)


@pytest.mark.parametrize("timing", ["end_of_year", "mid_year"])
def test_emerge_model_2_1_the_fast_path_discounts_year_0_at_t_0_like_the_general_path(timing):
    scenario = netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml").replace(
        {"capital_investment": {0: 30_000_000.0, 2: 8_000_000.0}, "timing": timing}
    )
    vary = vary_for(scenario)
    found = plan(scenario, overrides_of(scenario, vary))
    assert found is not None and found.year_zero  # taken, with the year-0 column at factor 1
    assert_same(*both_paths(scenario, vary, draws=4_000, chunk_size=1_000))
