"""netbenefit.diff: inputs that differ, and the ratio change attributed by exact Shapley values."""

import json
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml
from support import base_scenario_dict, scenario

import netbenefit
from netbenefit.analysis.diff import Diff, _by_tax, changed_inputs
from netbenefit.analysis.shapley import shapley_values

ROOT = Path(__file__).resolve().parents[2]


def test_a_hand_worked_two_key_example():
    # The base scenario: discount rate 0; credits $100,000 a year for 7 years (PV 700,000);
    # benefits $1,000,000 a year in years 1..11, year 11 counted half (PV 10,500,000): ratio 15.
    a = scenario()
    # B doubles the credit (c) and the year-1 benefit (y):
    #   v({})   = 10.5 / 0.7 = 15          v({c})   = 10.5 / 1.4 = 7.5
    #   v({y})  = 11.5 / 0.7 = 115/7       v({c,y}) = 11.5 / 1.4 = 115/14
    #   phi_c = ((7.5 - 15) + (115/14 - 115/7)) / 2 = (-105/14 - 115/14) / 2 = -55/7
    #   phi_y = ((115/7 - 15) + (115/14 - 7.5)) / 2 = (10/7 + 5/7) / 2 = 15/14
    #   phi_c + phi_y = -95/14 = 115/14 - 15
    b = a.replace({"award.annual_credit": 200_000, "streams.0.by_year.1": 2_000_000})
    d = netbenefit.diff(a, b)
    assert d.ratio_a == pytest.approx(15, rel=1e-12) and d.ratio_b == pytest.approx(115 / 14, rel=1e-12)
    contributions = dict(zip(d.attribution["key"], d.attribution["contribution"], strict=True))
    assert contributions == {
        "award.annual_credit": pytest.approx(-55 / 7, rel=1e-12),
        "streams.0.by_year.1": pytest.approx(15 / 14, rel=1e-12),
    }
    assert math.isclose(d.attribution["contribution"].sum(), d.ratio_b - d.ratio_a, rel_tol=0, abs_tol=1e-12)
    assert d.pv_credits_change == pytest.approx(700_000) and d.pv_benefits_change == pytest.approx(1_000_000)


def test_shapley_values_of_a_known_game():
    # Three players; v(S) = |S|^2: symmetric, so each gets v(N)/3 = 3.
    values = np.array([bin(m).count("1") ** 2 for m in range(8)], dtype=float)
    assert shapley_values(values) == pytest.approx([3.0, 3.0, 3.0])
    # An additive game gives each player its own value; a dummy player gets 0.
    own = np.array([1.5, 0.0, -2.0])
    additive = np.array([sum(own[i] for i in range(3) if m >> i & 1) for m in range(8)])
    assert shapley_values(additive) == pytest.approx(own)
    with pytest.raises(ValueError):
        shapley_values(np.zeros(6))


def test_the_inputs_that_differ_with_old_and_new_values():
    a = scenario()
    b = a.replace({"discount_rate": 0.05, "timing": "mid_year", "capital_investment": {1: 40000, 2: 5000}})
    rows = changed_inputs(a, b)
    assert [key for key, _, _ in rows] == ["name", "discount_rate", "timing", "capital_investment"]
    assert rows[1] == ("discount_rate", 0.0, 0.05)
    assert rows[3][1] == {1: 40000.0} and rows[3][2] == {1: 40000.0, 2: 5000.0}  # a year added: the whole mapping
    d = netbenefit.diff(a, b)
    assert list(d.inputs.columns) == ["key", "old", "new"] and len(d.inputs) == 4
    assert list(d.attribution["key"]) == ["discount_rate", "timing", "capital_investment"]  # not the name


def test_the_same_scenario_twice():
    d = netbenefit.diff(scenario(), scenario())
    assert d.inputs.empty and d.attribution.empty and d.ratio_change == 0
    assert "the same inputs" in d.summary()


def test_summary_and_to_dict():
    a = scenario()
    d = netbenefit.diff(a, a.replace({"discount_rate": 0.05, "location.enhanced_area": True}))
    assert isinstance(d, Diff) and isinstance(d, netbenefit.Diff)
    text = d.summary()
    assert "discount_rate: 0 -> 0.05" in text and "location.enhanced_area: false -> true" in text
    assert f"{d.ratio_a:.2%} -> {d.ratio_b:.2%}" in text and "total" in text
    data = json.loads(json.dumps(d.to_dict()))
    assert data["ratio_change"] == pytest.approx(d.ratio_b - d.ratio_a)
    assert {row["key"] for row in data["attribution"]} == {"discount_rate", "location.enhanced_area"}
    taxes = {"gross_income_tax", "sales_and_use_tax", "corporation_business_tax", "other"}
    assert {row["tax"] for row in data["by_tax"]} == taxes and data["grouped_by_block"] is False
    assert str(d) == text


def test_paths_are_accepted(tmp_path):
    path_a, path_b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    path_a.write_text(yaml.safe_dump(base_scenario_dict()), encoding="utf-8")
    path_b.write_text(yaml.safe_dump(base_scenario_dict() | {"discount_rate": 0.03}), encoding="utf-8")
    d = netbenefit.diff(path_a, path_b)
    assert list(d.attribution["key"]) == ["discount_rate"]
    assert d.attribution["contribution"].iloc[0] == pytest.approx(d.ratio_b - d.ratio_a, abs=1e-12)


def test_by_tax_is_empty_until_the_results_give_it_then_pairs_the_taxes():
    empty = _by_tax(SimpleNamespace(benefits_by_tax=None), SimpleNamespace(benefits_by_tax=None))
    assert list(empty.columns) == ["tax", "pv_a", "pv_b", "change"] and empty.empty
    table_a = pd.DataFrame({"tax": ["gross_income_tax", "other"], "nominal": [0.0, 0.0], "pv": [100.0, 20.0]})
    table_b = pd.DataFrame({"tax": ["gross_income_tax", "sales_and_use_tax"], "nominal": [0.0, 0.0], "pv": [90.0, 5.0]})
    paired = _by_tax(SimpleNamespace(benefits_by_tax=table_a), SimpleNamespace(benefits_by_tax=table_b))
    rows = {row.tax: (row.pv_a, row.pv_b, row.change) for row in paired.itertuples(index=False)}
    assert rows == {
        "gross_income_tax": (100.0, 90.0, -10.0),
        "other": (20.0, 0.0, -20.0),
        "sales_and_use_tax": (0.0, 5.0, 5.0),
    }


def test_an_undefined_ratio_is_an_error():
    # A credit of zero leaves B's ratio undefined: diff refuses the pair, as evaluate refuses B.
    a = scenario()
    with pytest.raises(netbenefit.ScenarioError, match="zero"):
        netbenefit.diff(a, a.replace({"award.annual_credit": 0}))


# ----------------------------------------------------------------------------------------------
# Each side's threshold and margin (71(a)(5)): where the thresholds or the windows differ
# ----------------------------------------------------------------------------------------------


def _quiet_diff(a, b):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return netbenefit.diff(a, b)


def test_a_site_with_another_threshold_names_both_thresholds_and_margins():
    # The same award in a distressed municipality (300%, no extension counted) and elsewhere (400%,
    # the elected extension counted, 71(a)(5)(d)).
    elsewhere = netbenefit.load_scenario(ROOT / "scenarios" / "extended_commitment.yaml")
    distressed = elsewhere.replace({"location.distressed_municipality": True})
    d = _quiet_diff(distressed, elsewhere)
    assert (d.threshold_a, d.threshold_b) == (3.0, 4.0)
    assert (d.threshold_clause_a, d.threshold_clause_b) == ("71(a)(5)(a)", "71(a)(5)")
    text = d.summary()
    assert "threshold 300% (71(a)(5)(a)) -> 400% (71(a)(5)); margin +20.99 points -> +39.31 points" in text
    assert "the thresholds differ" in text and "compare the margins, not the ratios" in text
    assert "the benefit windows differ" in text and "not counted, 71(a)(5)(a)" in text
    rows = dict(zip(d.margin_attribution["key"], d.margin_attribution["contribution"], strict=True))
    assert rows["threshold, 71(a)(5)"] == pytest.approx(-1.0)
    window = [key for key in rows if key.startswith("benefit window")]
    assert len(window) == 1 and rows[window[0]] > 0
    assert sum(rows.values()) == pytest.approx(d.margin_b - d.margin_a, abs=1e-12)
    data = d.to_dict()
    assert data["threshold_a"] == 3.0 and data["margin_b"] == pytest.approx(d.margin_b)
    assert data["differences"] == d.differences_in_words()
    assert sum(row["contribution"] for row in data["margin_attribution"]) == pytest.approx(d.margin_change)


def test_the_same_threshold_and_window_keep_the_ratio_attribution():
    base = netbenefit.load_scenario(ROOT / "scenarios" / "office_hq_default_area.yaml")
    d = _quiet_diff(base, base.replace({"jobs.new": 200}))
    assert d.differences_in_words() == []
    assert d.attribution_shown is d.attribution
    assert d.margin_change == pytest.approx(d.ratio_change)
    assert "the ratio change attributed by input" in d.summary()


def test_a_phased_project_whose_deciding_test_changes_has_a_row_for_it():
    campus = netbenefit.load_scenario(ROOT / "scenarios" / "phased_campus.yaml")
    d = _quiet_diff(campus, campus.replace({"phases.0.jobs.new": 400}))
    rows = dict(zip(d.margin_attribution["key"], d.margin_attribution["contribution"], strict=True))
    assert sum(rows.values()) == pytest.approx(d.margin_change, abs=1e-12)
