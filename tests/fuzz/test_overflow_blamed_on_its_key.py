"""Overflow blamed on the key whose values overflow (traced through the
model's arrays), not on discount_rate; a capital investment summing to infinity refused."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import yaml

import netbenefit
from netbenefit import ScenarioError, cli
from netbenefit.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]


def drivers(**changes) -> dict:
    data = yaml.safe_load((ROOT / "scenarios" / "industry_multipliers_example.yaml").read_text(encoding="utf-8"))
    data["revenue"].pop("multiplier_table")
    data["business"].pop("naics")
    for key, value in changes.items():
        node = data
        *parents, last = key.split(".")
        for parent in parents:
            node = node.setdefault(parent, {})
        node[last] = value
    return data


CASES = {
    "salary growth over 999 years": (
        {"jobs.salary_growth": 3.0, "commitment.period_years": 999, "commitment.period_set_by_authority": True},
        "jobs.salary_growth",
    ),
    "a 1e308 CBT with inflation": (
        {"revenue.corporate_business_tax": 1e308, "inflation": 0.5},
        "revenue.corporate_business_tax",
    ),
    "1e300 jobs": ({"jobs.new": 1e300, "jobs.median_salary": 1e10}, "jobs.new"),
    "indexed brackets under deflation": (
        {
            "revenue.index_brackets": True,
            "inflation": -0.99,
            "commitment.period_years": 500,
            "commitment.period_set_by_authority": True,
        },
        "inflation",
    ),
    "a 1e308 capital investment summing to infinity": (
        {"capital_investment": {1: 1e308, 2: 1e308}},
        "capital_investment",
    ),
}


@pytest.mark.filterwarnings("ignore::netbenefit.PlausibilityWarning")
@pytest.mark.parametrize("case", list(CASES))
def test_an_overflow_names_the_key_whose_values_overflow(case):
    # Was: "discount_rate: present values overflow at a discount rate of 0.06 ..." (or, for the
    # capital investment, an evaluation with "$inf ... Met.").
    changes, key = CASES[case]
    scenario = Scenario.from_dict(drivers(**changes), base_dir=ROOT / "scenarios")
    with pytest.raises(ScenarioError) as caught:
        netbenefit.evaluate(scenario)
    assert caught.value.key == key, caught.value
    assert "discount rate" not in caught.value.problem


def test_a_capital_investment_summing_to_infinity_is_one_line_on_the_command_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(drivers(capital_investment={1: 1e308, 2: 1e308})), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["evaluate", str(path)])
    assert (code, out.getvalue()) == (2, "")
    assert err.getvalue().splitlines()[-1].startswith(f"netbenefit: {path}: capital_investment: the amounts sum to")


def test_a_later_phase_capital_investment_summing_to_infinity_names_the_phase():
    from support import base_scenario_dict, with_changes

    phase = {
        "name": "p2",
        "start_year": 2,
        "capital_investment": {1: 1e308, 2: 1e308},
        "jobs": {"new": 10, "nj_withholding_share": 1.0},
        "award": {"annual_credit": 1000},
    }
    with pytest.raises(ScenarioError) as caught:
        netbenefit.evaluate(Scenario.from_dict(with_changes(base_scenario_dict(), {"phases": [phase]})))
    assert caught.value.key == "phases.0.capital_investment"
