"""Validation a new user can rely on: every problem of a file in one run, one line each naming the
file and the key, no line for a consequence of another; "did you mean" only where a percent may
have been written for a decimal; ``shared`` checked like every other key; ``to_yaml`` writing
whole numbers as integers and a relative source."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest
from support import base_scenario_dict

import netbenefit
from netbenefit.errors import ScenarioError
from netbenefit.model.scenario import Scenario


def problems_of(data, source="app.yaml") -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(data, source=source)
    error = caught.value
    assert all(line.startswith(f"{source}: ") for line in error.lines)
    assert len(error.lines) == len(error.problems)
    return list(error.problems)


def revenue_phased() -> dict:
    data = base_scenario_dict()
    data["revenue"] = {"income_tax_effective_rate": 0.05}
    data["jobs"]["median_salary"] = 80_000
    data["phases"] = [
        {
            "name": "Phase 2",
            "start_year": 2,
            "jobs": {"new": 20, "nj_withholding_share": 1.0, "median_salary": 85_000},
            "award": {"annual_credit": 50_000},
        }
    ]
    return data


def test_a_key_problem_and_a_rule_problem_are_listed_in_one_run():
    # Before: the first run told jobs.new only; phases.0.jobs.median_salary came on the next run.
    data = revenue_phased()
    data["jobs"]["new"] = -5
    del data["phases"][0]["jobs"]["median_salary"]
    keys = [key for key, _ in problems_of(data)]
    assert keys == ["jobs.new", "phases.0.jobs.median_salary"]


def test_every_rule_across_keys_is_listed():
    data = revenue_phased()
    data["approval_date"] = "2026-01-01"  # before the application
    data["award"] = {"annual_credit": 100_000, "per_new_job": 3000}
    data["streams"][0]["name"] = "income_tax"  # a built-in column
    problems = dict(problems_of(data))
    assert set(problems) == {"approval_date", "award", "streams.0.name"}


def test_no_line_for_a_consequence_of_another():
    # A negative annual credit is that problem alone: not also "give exactly one of ...".
    data = base_scenario_dict()
    data["award"]["annual_credit"] = -1
    assert [key for key, _ in problems_of(data)] == ["award.annual_credit"]
    # A streams list that is not valid: not also "the scenario has no benefits".
    data = base_scenario_dict()
    data["streams"] = "many"
    assert [key for key, _ in problems_of(data)] == ["streams"]
    # A phase whose jobs block is broken still has its other problems told, once each.
    data = revenue_phased()
    data["phases"][0]["jobs"] = {"new": "many", "nj_withholding_share": 1.0}
    keys = [key for key, _ in problems_of(data)]
    assert keys == ["phases.0.jobs.new", "phases.0.jobs.median_salary"]


def test_a_stream_file_that_cannot_be_read_is_one_line_among_the_others(tmp_path):
    data = base_scenario_dict()
    data["streams"] = [{"name": "from a file", "kind": "revenue", "from_csv": "missing.csv"},
                       {"name": "both", "kind": "revenue", "from_csv": "x.csv", "by_year": {1: 1}}]
    data["jobs"]["new"] = -1
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(data, source="app.yaml", base_dir=tmp_path)
    keys = [key for key, _ in caught.value.problems]
    assert keys == ["jobs.new", "streams.0.from_csv", "streams.1"]
    assert "not found" in caught.value.problems[1][1]


def test_each_problem_once_and_at_most_the_limit():
    data = base_scenario_dict()
    data["streams"] = [{"name": f"s{i}", "kind": "revenue", "by_year": {1: -1}} for i in range(150)]
    lines = problems_of(data)
    assert len(lines) == 101 and lines[-1] == ("", "(and 50 more problems)")


@pytest.mark.parametrize(
    ("key", "value", "hinted"),
    [
        ("award.eligibility_period_years", 10, False),  # years: never a percent
        ("award.first_credit_year", 5000, False),
        ("revenue.taxable_spending_share", 30, True),  # a share: 30 for 0.3
        ("revenue.income_tax.wage_dispersion", 45, True),  # a rate with a bound of 3
    ],
)
def test_did_you_mean_only_where_a_percent_may_stand_for_a_decimal(key, value, hinted):
    data = revenue_phased()
    data.pop("phases")
    if key.startswith("revenue.income_tax."):
        data["revenue"] = {"income_tax": {"method": "brackets"}}
    node = data
    *parents, last = key.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value
    ((found, problem),) = [item for item in problems_of(data) if item[0] == key]
    assert ("did you mean" in problem) is hinted, problem
    if key == "award.eligibility_period_years":
        assert problem == (
            "at most 7 years (the eligibility period of P.L.2020, c.156, s.69, C.34:1B-337, as the authority "
            "states it) (got 10)"
        )


# --- shared ---------------------------------------------------------------------------------------


def shared_phased() -> dict:
    data = revenue_phased()
    data["shared"] = ["jobs.median_salary"]
    del data["phases"][0]["jobs"]["median_salary"]
    return data


def test_a_shared_salary_needs_no_phase_salary():
    scenario = Scenario.from_dict(shared_phased(), source="app.yaml")
    assert scenario.shared == ("jobs.median_salary",)
    assert scenario.phases[0].jobs.median_salary == pytest.approx(80_000)  # salary_growth 0: the same


def test_a_key_that_cannot_be_shared_is_named():
    data = shared_phased()
    data["shared"] = ["jobs.median_salary", "jobs.new"]
    ((key, problem),) = problems_of(data)
    assert key == "shared.1"
    assert problem == (
        "cannot be shared: must be 'jobs.median_salary' or 'jobs.salary_growth' (job counts, awards and "
        "investment are each phase's own) (got 'jobs.new')"
    )


def test_the_keys_that_may_be_shared_are_one_list():
    import typing

    from netbenefit.model.scenario.shared import SHAREABLE, SharedKey

    assert set(typing.get_args(SharedKey)) == set(SHAREABLE)


@pytest.mark.parametrize("stated", ["median_salary", "salary_growth"])
def test_a_phase_that_states_a_shared_key_is_an_error(stated):
    data = shared_phased()
    data["phases"][0]["jobs"][stated] = 85_000 if stated == "median_salary" else 0.02
    ((key, problem),) = problems_of(data)
    assert key == f"phases.0.jobs.{stated}"
    assert "jobs.median_salary is shared" in problem and "remove" in problem


def test_a_missing_key_that_is_not_shared_is_still_an_error():
    data = shared_phased()
    data["shared"] = ["jobs.salary_growth"]  # the salary itself is not shared
    assert problems_of(data) == [("phases.0.jobs.median_salary", "required when revenue is given")]


def test_shared_without_later_phases_or_twice_is_an_error():
    data = revenue_phased()
    data.pop("phases")
    data["shared"] = ["jobs.salary_growth"]
    assert [key for key, _ in problems_of(data)] == ["shared"]
    data = shared_phased()
    data["shared"] = ["jobs.median_salary", "jobs.median_salary"]
    assert [key for key, _ in problems_of(data)] == ["shared.1"]


def test_a_shared_salary_that_overflows_names_the_phase():
    data = shared_phased()
    data["jobs"]["salary_growth"] = 50.0
    data["phases"][0]["start_year"] = 900
    problem = "the shared salary grown to the start of phase 2 (start_year 900) is not a finite number"
    assert problems_of(data) == [("jobs.salary_growth", problem)]


def test_a_shared_key_round_trips_written_once(tmp_path):
    scenario = Scenario.from_dict(shared_phased(), source=str(tmp_path / "app.yaml"), base_dir=tmp_path)
    plain = scenario.to_dict()
    assert plain["shared"] == ["jobs.median_salary"]
    assert "median_salary" not in plain["phases"][0]["jobs"] and "salary_growth" not in plain["phases"][0]["jobs"]
    path = scenario.to_yaml(tmp_path / "back.yaml")
    assert netbenefit.load_scenario(path) == scenario


def test_a_shared_key_moves_as_one_key_in_replace_and_not_at_a_phase():
    scenario = Scenario.from_dict(shared_phased(), source="app.yaml")
    variant = scenario.replace({"jobs.median_salary": 100_000, "jobs.salary_growth": 0.02})
    assert variant.phases[0].jobs.median_salary == pytest.approx(100_000 * 1.02**2)  # start_year 2
    with pytest.raises(ScenarioError, match="phases.0.jobs.median_salary: jobs.median_salary is shared"):
        scenario.replace({"phases.0.jobs.median_salary": 90_000})
    from netbenefit.analysis.keys import key_spec

    with pytest.raises(ScenarioError, match="vary jobs.median_salary, which moves every phase"):
        key_spec(scenario, "phases.0.jobs.median_salary")
    with pytest.raises(ScenarioError, match="vary jobs.salary_growth"):
        key_spec(scenario, "phases.0.jobs.salary_growth")


# --- written back ---------------------------------------------------------------------------------


def test_to_yaml_writes_whole_numbers_as_integers_and_a_relative_source(tmp_path):
    source = Path("scenarios/phased_campus.yaml").resolve()
    scenario = netbenefit.load_scenario(source)
    text = scenario.to_yaml()
    assert "  new: 300\n" in text and "new: 300.0" not in text
    assert "discount_rate: 0.06\n" in text
    header = text.splitlines()[0]
    assert str(source) not in header and "from scenarios/phased_campus.yaml," in header
    out = tmp_path / "deep" / "copy.yaml"
    out.parent.mkdir()
    scenario.to_yaml(out)
    header = out.read_text(encoding="utf-8").splitlines()[0]
    named = header.split(" from ", 1)[1].split(", every value")[0]
    assert not os.path.isabs(named) and named == Path(os.path.relpath(source, out.parent)).as_posix()
    assert (out.parent / named).resolve() == source
    assert netbenefit.load_scenario(out) == scenario


def test_whole_numbers_read_back_equal():
    data = copy.deepcopy(base_scenario_dict())
    data["discount_rate"] = 0.0
    scenario = Scenario.from_dict(data)
    back = Scenario.from_dict(__import__("yaml").safe_load(scenario.to_yaml()))
    assert back == scenario and isinstance(back.jobs.new, float)


def test_cumulative_pv_bands_is_public():
    from netbenefit.analysis.bands import cumulative_pv_bands

    assert netbenefit.cumulative_pv_bands is cumulative_pv_bands
    assert netbenefit.analysis.cumulative_pv_bands is cumulative_pv_bands
    assert "cumulative_pv_bands" in netbenefit.__all__
    assert "`netbenefit.cumulative_pv_bands(" in Path("docs/analysis.md").read_text(encoding="utf-8")
