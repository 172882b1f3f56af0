"""The fused pass of many variants (components summed by shared base array) gives the numbers of
the per-stream sums, and of evaluate, to 1e-12 relative, whatever components the model makes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit.analysis import montecarlo
from netbenefit.model import cashflows
from netbenefit.model.cashflows import Component, compute

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.yaml"))
RTOL = 1e-12


def _overrides(scenario, n: int = 50) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(14)
    values = {"jobs.new": scenario.jobs.new * rng.uniform(0.5, 1.5, n), "discount_rate": rng.uniform(0.02, 0.10, n)}
    if scenario.jobs.median_salary is not None:
        values["jobs.median_salary"] = scenario.jobs.median_salary * rng.uniform(0.8, 1.2, n)
    if scenario.revenue is not None:
        values["revenue.earnings_multiplier"] = rng.uniform(1.1, 2.0, n)
    return values


def _per_stream(phase, horizon: int) -> np.ndarray:
    """Counted revenues minus costs, each stream's values built and added one by one."""
    net = np.zeros((1, horizon))
    for component in phase.components:
        if not component.abated:
            net = net + (component.values if component.kind == "revenue" else -component.values)
    return net


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_fused_net_benefits_are_the_per_stream_sums(path):
    scenario = netbenefit.load_scenario(path)
    computation = compute(scenario, _overrides(scenario))
    for phase in computation.phases:
        expected = np.broadcast_to(_per_stream(phase, len(computation.years)), phase.net_benefits.shape)
        np.testing.assert_allclose(phase.net_benefits, expected, rtol=RTOL, atol=1e-6)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_montecarlo_draws_agree_with_evaluate_to_1e_12(path):
    scenario = netbenefit.load_scenario(path)
    vary = {"jobs.new": ("uniform", 0.6 * scenario.jobs.new, 1.4 * scenario.jobs.new)}
    vary["discount_rate"] = ("uniform", 0.03, 0.09)
    if scenario.revenue is not None and scenario.revenue.multiplier_table is None:  # a table gives them otherwise
        vary["revenue.earnings_multiplier"] = ("uniform", 1.2, 1.9)
    draws = montecarlo(scenario, draws=12, vary=vary, seed=7, progress=False).draws
    for row in draws.itertuples(index=False):
        changes = {key: float(value) for key, value in zip(vary, row, strict=False)}
        result = netbenefit.evaluate(scenario.replace(changes))  # one variant: the per-stream path
        assert row.pv_benefits == pytest.approx(result.pv_benefits, rel=RTOL)
        assert row.pv_credits == pytest.approx(result.pv_credits, rel=RTOL)
        assert row.ratio == pytest.approx(result.ratio, rel=RTOL)


def test_a_component_the_model_adds_is_accumulated_without_being_named(monkeypatch):
    scenario = netbenefit.load_scenario(SCENARIOS[0].parent / "office_hq_default_area.yaml")
    overrides = _overrides(scenario)
    before = compute(scenario, overrides).pv_benefits[:, 0]
    original = cashflows.streams.driver_components

    def with_a_new_stream(inputs, prefix, phase_number, jobs, wages, *args):
        components = original(inputs, prefix, phase_number, jobs, wages, *args)
        # a new stream sharing the wages as its base, and one given by its values
        components.append(
            Component(phase_number, "new_tax", "operations", "direct", "revenue", False, base=wages, factors=(0.01,))
        )
        components.append(Component(phase_number, "new_fee", "operations", "direct", "revenue", False, wages * 0.02))
        return components

    monkeypatch.setattr(cashflows.phases, "driver_components", with_a_new_stream)
    computation = compute(scenario, overrides)
    phase = computation.phases[0]
    assert {c.name for c in phase.components} >= {"new_tax", "new_fee"}
    expected = np.broadcast_to(_per_stream(phase, len(computation.years)), phase.net_benefits.shape)
    np.testing.assert_allclose(phase.net_benefits, expected, rtol=RTOL)
    assert np.all(computation.pv_benefits[:, 0] > before)


def test_a_component_is_given_by_its_values_or_by_a_base_and_factors():
    base = np.array([[1.0, 2.0, 3.0]])
    given = Component(1, "a", "explicit", "direct", "revenue", False, base * 0.5 * 3.0)
    built = Component(1, "a", "explicit", "direct", "revenue", False, base=base, factors=(0.5, 3.0))
    assert np.array_equal(given.values, built.values)
    with pytest.raises(ValueError):
        Component(1, "a", "explicit", "direct", "revenue", False, base, base=base)


@pytest.mark.parametrize("coefficient_shape", [(), (1, 1), (4, 1), (1, 5)])
@pytest.mark.parametrize("base_rows", [1, 4])
def test_a_boolean_base_adds_its_amounts_where_true(coefficient_shape, base_rows):
    """A boolean base (the years with jobs of the CBT) is added where true, in one pass: the sums
    of the per-stream values, revenue and cost, whatever shapes the base and its factors have."""
    rng = np.random.default_rng(5)
    mask = rng.random((base_rows, 5)) < 0.6
    factor = rng.uniform(1e5, 1e6, coefficient_shape) if coefficient_shape else 250_000.0
    wages = rng.uniform(1e6, 2e6, (4, 5))
    components = [
        Component(1, "wage_tax", "operations", "direct", "revenue", False, base=wages, factors=(0.05,)),
        Component(1, "cbt", "operations", "direct", "revenue", False, base=mask, factors=(factor,)),
        Component(1, "fee", "operations", "direct", "cost", False, base=mask, factors=(0.1, factor)),
    ]
    fused = cashflows.streams.fused_net_benefits(components, 5)
    per_stream = components[0].values + components[1].values - components[2].values
    assert fused.shape == (4, 5)
    np.testing.assert_allclose(fused, np.broadcast_to(per_stream, (4, 5)), rtol=RTOL)
    assert np.all(fused[:, ~mask.any(axis=0)] == np.broadcast_to(components[0].values, (4, 5))[:, ~mask.any(axis=0)])
