"""Year 0, the approval year (docs/model.md#timeline): capital investment and streams of the initial
phase accept it; its flows are discounted at t = 0 under every timing convention and count in every
benefit window; the result lists the convention; a later phase's years start at 1; a year below 0
is an error. Scenarios without a year-0 amount keep their timeline (years from 1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.errors import ScenarioError
from netbenefit.law import finance
from netbenefit.law.parameters import parameter
from netbenefit.model.fiscal import by_fiscal_year, state_fiscal_year
from netbenefit.model.scenario import Scenario, load_scenario
from netbenefit.model.year_zero import NOTE

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
CAPITAL = 10_000_000.0
TAXABLE_SHARE, LABOR_SHARE, LABOR_TAX_RATE = 0.35, 0.40, 0.035
PHASE = {
    "name": "expansion",
    "start_year": 2,
    "jobs": {"new": 10, "nj_withholding_share": 1.0},
    "award": {"annual_credit": 10_000, "eligibility_period_years": 7},
}


def construction_scenario(capital: dict, **changes) -> Scenario:
    """The base scenario with construction drivers only (every other rate 0) and ``capital``."""
    data = with_changes(
        base_scenario_dict(),
        {
            "discount_rate": 0.06,
            "capital_investment": capital,
            "jobs.median_salary": 50_000,
            "revenue": {
                "construction_taxable_share": TAXABLE_SHARE,
                "construction_labor_share": LABOR_SHARE,
                "construction_income_tax_rate": LABOR_TAX_RATE,
            },
            **changes,
        },
    )
    return Scenario.from_dict(data, source="y0.yaml")


def year_zero_share() -> float:
    """The State's taxes on a dollar of construction: sales tax on materials, income tax on wages."""
    return TAXABLE_SHARE * parameter("sales_and_use_tax_rate") + LABOR_SHARE * LABOR_TAX_RATE


@pytest.mark.parametrize("timing", ["end_of_year", "mid_year"])
def test_emerge_model_2_1_year_0_capital_is_discounted_at_t_0_under_every_timing(timing):
    with_zero = netbenefit.evaluate(construction_scenario({0: CAPITAL}, timing=timing))
    without = netbenefit.evaluate(construction_scenario({}, timing=timing))
    assert with_zero.pv_benefits - without.pv_benefits == pytest.approx(CAPITAL * year_zero_share(), rel=1e-12)
    assert with_zero.pv_credits == without.pv_credits
    row = with_zero.cashflows.loc[0]
    assert row["discount_factor"] == 1.0 and row["weight"] == 1.0 and row["credits"] == 0.0
    assert row["capital_investment"] == CAPITAL
    assert list(with_zero.cashflows.index[:2]) == [0, 1]


@pytest.mark.parametrize("timing", ["end_of_year", "mid_year"])
def test_emerge_model_2_1_a_year_0_stream_counts_its_amount_undiscounted(timing):
    streams = [{"name": "permit fees", "kind": "revenue", "by_year": {0: 250_000.0}}]
    data = with_changes(base_scenario_dict(), {"discount_rate": 0.06, "timing": timing})
    base = netbenefit.evaluate(Scenario.from_dict(data))
    data["streams"] = data["streams"] + streams
    result = netbenefit.evaluate(Scenario.from_dict(data))
    assert result.pv_benefits - base.pv_benefits == pytest.approx(250_000.0, rel=1e-12)


def test_emerge_model_2_1_year_0_cost_stream_lowers_the_benefits_by_its_amount():
    cost = [{"name": "site remediation", "kind": "cost", "by_year": {0: 300_000.0}}]
    data = with_changes(base_scenario_dict(), {"discount_rate": 0.06})
    base = netbenefit.evaluate(Scenario.from_dict(data))
    data["streams"] = data["streams"] + cost
    assert netbenefit.evaluate(Scenario.from_dict(data)).pv_benefits == pytest.approx(base.pv_benefits - 300_000.0)


@pytest.mark.parametrize("timing", ["end_of_year", "mid_year"])
def test_emerge_model_2_1_discount_factor_of_year_0_is_1(timing):
    assert finance.discount_factors(0.07, [0, 1], timing)[0] == 1.0
    assert finance.discount_factors(np.array([0.03, 0.2]), [0], timing).tolist() == [[1.0], [1.0]]


@pytest.mark.parametrize("window_end", [0.5, 1.0, 10.5, 14.0])
def test_emerge_model_2_1_year_0_is_inside_every_window(window_end):
    assert finance.window_weights(window_end, [0, 1])[0] == 1.0


@pytest.mark.parametrize(
    "changes",
    [
        {"commitment.period_years": 0.5},  # a half-year window: year 1 counts half, year 0 whole
        {"award.first_credit_year": 3},  # the window starts at year 3: year 0 still counts
        {"commitment.period_years": 0.5, "timing": "mid_year"},
    ],
)
def test_emerge_model_2_1_year_0_counts_whole_in_a_short_or_late_window(changes):
    with_zero = netbenefit.evaluate(construction_scenario({0: CAPITAL}, **changes))
    without = netbenefit.evaluate(construction_scenario({}, **changes))
    assert with_zero.cashflows.loc[0, "weight"] == 1.0
    assert with_zero.pv_benefits - without.pv_benefits == pytest.approx(CAPITAL * year_zero_share(), rel=1e-12)


def test_emerge_model_2_1_year_0_counts_in_the_window_without_the_extension():
    # 71(a)(5)(a): the 300 percent test does not count an elected extension; year 0 counts in both windows.
    changes = {"commitment.extended_years": 3, "location.distressed_municipality": True}
    with_zero = netbenefit.evaluate(construction_scenario({0: CAPITAL}, **changes))
    without = netbenefit.evaluate(construction_scenario({}, **changes))
    assert not with_zero.extension_counted
    assert with_zero.pv_benefits - without.pv_benefits == pytest.approx(CAPITAL * year_zero_share(), rel=1e-12)


def test_emerge_model_2_1_the_conventions_list_year_0_when_the_scenario_uses_it():
    assert NOTE in netbenefit.evaluate(construction_scenario({0: CAPITAL})).conventions
    assert NOTE not in netbenefit.evaluate(construction_scenario({1: CAPITAL})).conventions
    only_streams = with_changes(base_scenario_dict(), {"streams.0.by_year": {0: 5.0, 1: 1_000_000.0}})
    assert NOTE in netbenefit.evaluate(Scenario.from_dict(only_streams)).conventions


def test_emerge_model_2_1_year_0_counts_towards_the_71b_minimum():
    result = netbenefit.evaluate(construction_scenario({0: 30_000.0, 1: 10_000.0}))
    assert result.capital_investment == 40_000.0


def test_emerge_model_2_1_the_clawback_schedule_ignores_the_creditless_year_0():
    with_zero = netbenefit.evaluate(construction_scenario({0: CAPITAL}))
    without = netbenefit.evaluate(construction_scenario({}))
    assert with_zero.clawback_schedule.equals(without.clawback_schedule)


def test_emerge_model_2_1_year_0_falls_in_the_fiscal_year_of_the_approval_date():
    result = netbenefit.evaluate(construction_scenario({0: CAPITAL}))
    table = by_fiscal_year(result)
    first = state_fiscal_year(result.scenario.approval)
    assert table.index[0] == first
    assert table["benefits"].sum() == pytest.approx(float((result.cashflows["counted_net_benefits"]).sum()), rel=1e-12)


def test_to_yaml_round_trip_keeps_year_0():
    scenario = construction_scenario({0: CAPITAL, 2: 5.0})
    again = Scenario.from_dict(yaml.safe_load(scenario.to_yaml()))
    assert dict(again.capital_investment) == {0: CAPITAL, 2: 5.0}
    assert netbenefit.evaluate(again).ratio == netbenefit.evaluate(scenario).ratio


def test_a_csv_stream_may_give_year_0(tmp_path):
    (tmp_path / "stream.csv").write_text("year,amount\n0,500\n1,1000000\n", encoding="utf-8")
    data = with_changes(
        base_scenario_dict(), {"streams": [{"name": "csv", "kind": "revenue", "from_csv": "stream.csv"}]}
    )
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    assert dict(load_scenario(tmp_path / "s.yaml").streams[0].by_year) == {0: 500.0, 1: 1_000_000.0}


@pytest.mark.parametrize(
    "phase_changes, key",
    [
        ({"capital_investment": {0: 5.0}}, "phases.0.capital_investment.0"),
        ({"streams": [{"name": "x", "kind": "revenue", "by_year": {1: 1.0, 0: 5.0}}]}, "phases.0.streams.0.by_year.0"),
    ],
)
def test_emerge_model_2_1_a_later_phase_s_years_start_at_1(phase_changes, key):
    data = with_changes(base_scenario_dict(), {"phases": [{**PHASE, **phase_changes}]})
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(data, source="p.yaml")
    assert caught.value.key == key
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"p.yaml: {key}: a later phase's years start at 1")


def test_a_later_phase_with_year_1_amounts_and_an_initial_year_0_is_accepted():
    data = with_changes(
        base_scenario_dict(), {"capital_investment": {0: 5.0}, "phases": [{**PHASE, "capital_investment": {1: 5.0}}]}
    )
    result = netbenefit.evaluate(Scenario.from_dict(data))
    assert result.cashflows.loc[0, "capital_investment"] == 5.0
    assert result.cashflows.loc[3, "capital_investment"] == 5.0  # phase year 1 of a phase starting at 2


@pytest.mark.parametrize("key", ["capital_investment", "streams.0.by_year"])
def test_emerge_model_2_1_a_year_below_0_is_an_error(key):
    with pytest.raises(ScenarioError, match="year keys must be whole numbers >= 0"):
        Scenario.from_dict(with_changes(base_scenario_dict(), {key: {-1: 5.0}}))


def test_emerge_model_2_1_a_csv_year_below_0_is_an_error(tmp_path):
    (tmp_path / "stream.csv").write_text("year,amount\n-1,500\n", encoding="utf-8")
    data = with_changes(
        base_scenario_dict(), {"streams": [{"name": "csv", "kind": "revenue", "from_csv": "stream.csv"}]}
    )
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ScenarioError, match="year must be a whole number from 0 to 1000"):
        load_scenario(tmp_path / "s.yaml")


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_scenario_without_year_0_keeps_its_timeline_from_year_1(path):
    result = netbenefit.evaluate(path)
    assert result.cashflows.index[0] == 1
    assert NOTE not in result.conventions
