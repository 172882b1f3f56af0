"""Errors that say how to fix: a decimal share suggested, the closest key named, every problem listed;
and variants named after their changes."""

import pytest
import yaml
from support import base_scenario_dict, scenario, with_changes

import netbenefit
from netbenefit import ScenarioError
from netbenefit.cli import main


def error_for(tmp_path, changes):
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(with_changes(base_scenario_dict(), changes)), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        netbenefit.load_scenario(path)
    return path, caught.value


@pytest.mark.parametrize(
    "key, value, words",
    [
        ("revenue.taxable_spending_share", 30, "must be a decimal share: did you mean 0.3?"),
        ("jobs.nj_withholding_share", 85, "did you mean 0.85?"),
        ("facility.accommodates_share", 100, "did you mean 1?"),
        ("jobs.ramp", [50, 100], "did you mean 0.5?"),
        ("jobs.nj_withholding_share", 101, "must be a decimal share from 0 to 1 (got 101)"),  # no suggestion
    ],
)
def test_a_share_above_1_suggests_the_decimal(tmp_path, key, value, words):
    changes = {key: value}
    if key.startswith("revenue"):
        changes |= {"jobs.median_salary": 90000}
    path, error = error_for(tmp_path, changes)
    assert words in str(error) and str(error).startswith(f"{path}: {key}")


def test_a_share_at_1_is_valid_and_just_above_is_not(tmp_path):
    assert scenario(jobs__nj_withholding_share=1.0).jobs.nj_withholding_share == 1.0
    _, error = error_for(tmp_path, {"jobs.nj_withholding_share": 1.0000001})
    assert "decimal share" in error.problem


@pytest.mark.parametrize(
    "key, closest",
    [
        ("location.government_restricted_municipalty", "government_restricted_municipality"),
        ("jobs.nwe", "new"),
        ("discount_rte", "discount_rate"),
        ("facility.portions.0.usage", "use"),
        ("award.anual_credit", "annual_credit"),
    ],
)
def test_an_unknown_key_names_the_closest_known_key(tmp_path, key, closest):
    _, error = error_for(tmp_path, {key: 1})
    assert error.key == key
    assert error.problem == f"unknown key; did you mean {closest}?"


def test_an_unknown_key_without_a_close_one_lists_the_keys_of_its_block(tmp_path):
    _, error = error_for(tmp_path, {"business.zzzzzz": 1})
    assert error.problem.startswith("unknown key; the keys here are small_business, targeted_industry")


def test_every_problem_of_a_file_is_listed_one_per_line(tmp_path):
    changes = {"jobs.new": -4, "discount_rte": 0.06, "facility.accommodates_share": 90}
    path, error = error_for(tmp_path, changes)
    lines = str(error).splitlines()
    assert len(lines) == 3 and error.lines == tuple(lines)
    assert all(line.startswith(f"{path}: ") for line in lines)
    assert f"{path}: jobs.new: must be greater than or equal to 0 (got -4)" in lines
    assert f"{path}: discount_rte: unknown key; did you mean discount_rate?" in lines
    assert any(line.startswith(f"{path}: facility.accommodates_share: must be a decimal share") for line in lines)
    assert "more problem" not in str(error)
    assert error.key == error.problems[0][0]  # the first problem, as before


def test_the_command_line_prints_every_problem_and_exits_2(tmp_path, capsys):
    path, _ = error_for(tmp_path, {"jobs.new": -4, "revenue.taxable_spending_share": 30})
    assert main(["evaluate", str(path)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) >= 2
    assert all(line.startswith(f"netbenefit: {path}: ") for line in lines)
    assert any("did you mean 0.3?" in line for line in lines)


def test_a_single_problem_stays_one_line(tmp_path):
    _, error = error_for(tmp_path, {"jobs.new": -4})
    assert "\n" not in str(error) and len(error.lines) == 1


# -- variants named after their changes -------------------------------------------------------


def test_a_variant_is_named_after_its_changes():
    base = scenario()
    assert base.replace({"discount_rate": 0.04}).name == "Test project (discount_rate=0.04)"
    assert base.replace(discount_rate=0.04).name == "Test project (discount_rate=0.04)"
    variant = base.replace({"jobs.new": 200, "location.enhanced_area": True})
    assert variant.name == "Test project (jobs.new=200, location.enhanced_area=true)"
    assert base.replace({"award.annual_credit": 950000.0}).name == "Test project (award.annual_credit=950000)"


def test_a_name_among_the_changes_is_kept_and_no_change_keeps_the_name():
    base = scenario()
    assert base.replace({"discount_rate": 0.04, "name": "Low rate"}).name == "Low rate"
    assert base.replace({}).name == "Test project"


def test_three_variants_have_three_names():
    base = scenario()
    names = {base.replace({"discount_rate": rate}).name for rate in (0.04, 0.05, 0.06)}
    assert len(names) == 3
