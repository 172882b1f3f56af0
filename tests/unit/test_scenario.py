"""Loading and validating scenarios: every kind of bad input is one ScenarioError naming the
file, the key path and the problem."""

import textwrap
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import Scenario, ScenarioError, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def write(tmp_path: Path, data, name="scenario.yaml") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def error_for(tmp_path, changes=None, text=None, remove=None):
    data = with_changes(base_scenario_dict(), changes or {})
    for key in remove or []:
        *parents, last = key.split(".")
        node = data
        for part in parents:
            node = node[part]
        del node[last]
    path = write(tmp_path, text if text is not None else data)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    error = caught.value
    assert error.source == str(path)
    message = str(error)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return error


def test_a_valid_file_loads_into_an_immutable_scenario(tmp_path):
    scenario = load_scenario(write(tmp_path, base_scenario_dict()))
    assert scenario.jobs.new == 35
    assert scenario.source.endswith("scenario.yaml")
    with pytest.raises(ValidationError, match="frozen"):
        scenario.jobs.new = 40
    with pytest.raises(TypeError):
        scenario.capital_investment[1] = 0  # read-only mapping
    assert scenario.to_dict()["capital_investment"] == {1: 40000.0}


@pytest.mark.parametrize(
    "changes, key, words",
    [
        ({"surprise": 1}, "surprise", "unknown key"),
        ({"jobs.nwe": 1}, "jobs.nwe", "unknown key"),
        ({"facility.portions.0.usage": "office"}, "facility.portions.0.usage", "unknown key"),
        ({"jobs.new": "357"}, "jobs.new", "must be a number"),
        ({"jobs.new": True}, "jobs.new", "must be a number"),
        ({"jobs.new": -1}, "jobs.new", "greater than or equal to 0"),
        ({"jobs.retained": -5}, "jobs.retained", "greater than or equal to 0"),
        ({"capital_investment": {1: -100}}, "capital_investment.1", "greater than or equal to 0"),
        (
            {"facility.portions.0.gross_leasable_area_sqft": -1},
            "facility.portions.0.gross_leasable_area_sqft",
            "greater than or equal to 0",
        ),
        ({"jobs.nj_withholding_share": 1.2}, "jobs.nj_withholding_share", "must be a decimal share"),
        ({"facility.accommodates_share": -0.1}, "facility.accommodates_share", "greater than or equal to 0"),
        ({"discount_rate": -1}, "discount_rate", "greater than -1"),
        ({"discount_rate": -1.5}, "discount_rate", "greater than -1"),
        ({"discount_rate": float("nan")}, "discount_rate", "finite"),
        ({"jobs.new": float("inf")}, "jobs.new", "finite"),
        ({"jobs.ramp": []}, "jobs.ramp", "at least 1 item"),
        ({"jobs.ramp": [0.5, 1.1]}, "jobs.ramp.1", "must be a decimal share"),
        ({"award.eligibility_period_years": 0}, "award.eligibility_period_years", "greater than or equal to 1"),
        ({"award.eligibility_period_years": 7.5}, "award.eligibility_period_years", "whole number"),
        ({"threshold_override": 0}, "threshold_override", "greater than 0"),
        ({"threshold_override": -4}, "threshold_override", "greater than 0"),
        ({"application_date": "2026-13-01"}, "application_date", "date"),
        ({"application_date": "soon"}, "application_date", "date"),
        ({"timing": "beginning_of_year"}, "timing", "end_of_year"),
        ({"facility.portions.0.use": "office"}, "facility.portions.0.use", "'industrial'"),
        ({"facility.portions.0.work": "demolition"}, "facility.portions.0.work", "'rehabilitation'"),
        ({"streams.0.kind": "income"}, "streams.0.kind", "'revenue' or 'cost'"),
        ({"capital_investment": {"two": 5}}, "capital_investment.two", "year keys must be whole numbers"),
        ({"capital_investment": {-1: 5}}, "capital_investment.-1", "year keys must be whole numbers >= 0"),
        ({"capital_investment": {1.5: 5}}, "capital_investment.1.5", "year keys must be whole numbers"),
        ({"streams.0.by_year": {-1: 5}}, "streams.0.by_year.-1", "year keys must be whole numbers"),
        ({"facility.portions": []}, "facility.portions", "at least 1 item"),
        ({"business": "small"}, "business", "mapping"),
        ({"commitment.extended_years": 1.5}, "commitment.extended_years", "whole number"),
        ({"commitment.period_years": 0}, "commitment.period_years", "greater than 0"),
    ],
)
def test_bad_values(tmp_path, changes, key, words):
    error = error_for(tmp_path, changes)
    assert error.key == key
    assert words in error.problem


@pytest.mark.parametrize(
    "remove, key",
    [
        (["name"], "name"),
        (["application_date"], "application_date"),
        (["discount_rate"], "discount_rate"),
        (["facility.portions"], "facility.portions"),
        (["facility.accommodates_share"], "facility.accommodates_share"),
        (["jobs.new"], "jobs.new"),
        (["jobs.nj_withholding_share"], "jobs.nj_withholding_share"),
        (["award"], "award"),
    ],
)
def test_required_keys(tmp_path, remove, key):
    error = error_for(tmp_path, remove=remove)
    assert (error.key, error.problem) == (key, "required key is missing")


@pytest.mark.parametrize(
    "changes, key, words",
    [
        ({"award": {"eligibility_period_years": 7}}, "award", "exactly one of annual_credit or per_new_job"),
        ({"award.per_new_job": 1000}, "award", "exactly one"),
        ({"award.per_retained_job": 500}, "award.per_retained_job", "goes with per_new_job"),
        ({"business.small_business": True}, "business.full_time_employees_at_application", "small business"),
        ({"streams": []}, "revenue", "no benefits"),
        ({"revenue": {"taxable_spending_share": 0.3}}, "jobs.median_salary", "required when revenue is given"),
        (
            {"revenue": {"income_tax_effective_rate": 0.05, "income_tax": "progressive"}, "jobs.median_salary": 50000},
            "revenue.income_tax",
            "not both",
        ),
        ({"streams.0.name": "credits"}, "streams.0.name", "built-in column"),
        (
            {"streams": [{"name": "a", "kind": "revenue", "by_year": {1: 1}}] * 2},
            "streams.1.name",
            "used by another stream",
        ),
        ({"streams": [{"name": "a", "kind": "revenue"}]}, "streams.0", "needs by_year or from_csv"),
        (
            {
                "phases": [
                    {
                        "name": "2",
                        "start_year": -1,
                        "jobs": {"new": 1, "nj_withholding_share": 1},
                        "award": {"annual_credit": 1},
                    }
                ]
            },
            "phases.0.start_year",
            "greater than or equal to 0",
        ),
        (
            {
                "phases": [
                    {
                        "name": "2",
                        "start_year": 1,
                        "jobs": {"new": 1, "nj_withholding_share": 1},
                        "award": {"annual_credit": 1},
                        "commitment": {"extended_years": 2},
                    }
                ]
            },
            "phases.0.commitment.extended_years",
            "extended_years is the project's",
        ),
    ],
)
def test_cross_key_rules(tmp_path, changes, key, words):
    error = error_for(tmp_path, changes)
    assert error.key == key
    assert words in error.problem


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "the file is empty"),
        ("# only a comment\n", "the file is empty"),
        ("- a\n- b\n", "must be a mapping"),
        ("just text\n", "must be a mapping"),
        ("name: [unclosed\n", "not valid YAML"),
        ("name: a\nname: b\n", "duplicate key 'name' (line 2)"),
        ("name: !!python/object/apply:os.system ['echo hacked']\n", "not valid YAML"),
        ("name: !!python/name:os.system\n", "not valid YAML"),
    ],
)
def test_bad_documents(tmp_path, text, words):
    error = error_for(tmp_path, text=text)
    assert words in error.problem


def test_duplicate_keys_are_found_at_any_depth(tmp_path):
    text = yaml.safe_dump(base_scenario_dict(), sort_keys=False).replace("  new: 35\n", "  new: 35\n  new: 36\n")
    assert "duplicate key 'new'" in error_for(tmp_path, text=text).problem


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ScenarioError, match="file not found"):
        load_scenario(tmp_path / "nothing.yaml")
    with pytest.raises(ScenarioError, match="is a folder"):
        load_scenario(tmp_path)


def test_non_utf8_file(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: Caf\xe9\n".encode("latin-1"))
    with pytest.raises(ScenarioError, match="not UTF-8"):
        load_scenario(path)


class TestCsvStreams:
    def stream(self, **fields):
        return {"streams": [{"name": "imported", "kind": "revenue", **fields}]}

    def test_csv_is_read_relative_to_the_scenario_file(self, tmp_path):
        (tmp_path / "data").mkdir()
        (tmp_path / "data" / "taxes.csv").write_text("year,amount\n1,100\n2,200.5\n", encoding="utf-8")
        path = write(tmp_path, with_changes(base_scenario_dict(), self.stream(from_csv="data/taxes.csv")))
        scenario = load_scenario(path)
        assert dict(scenario.streams[0].by_year) == {1: 100.0, 2: 200.5}
        assert scenario.streams[0].from_csv == "data/taxes.csv"

    @pytest.mark.parametrize(
        "content, words",
        [
            (None, "CSV file not found"),
            ("", "header year,amount"),
            ("yr,amt\n1,2\n", "header year,amount"),
            ("year,amount\n", "no rows"),
            ("year,amount\n1\n", "expected 2 cells"),
            ("year,amount\none,5\n", "year must be a whole number"),
            ("year,amount\n-1,5\n", "year must be a whole number from 0"),
            ("year,amount\n1.5,5\n", "year must be a whole number"),
            ("year,amount\n1,abc\n", "amount must be a number"),
            ("year,amount\n1,nan\n", "finite number >= 0"),
            ("year,amount\n1,-5\n", "finite number >= 0"),
            ("year,amount\n1,5\n1,6\n", "year 1 appears twice"),
        ],
    )
    def test_bad_csv(self, tmp_path, content, words):
        if content is not None:
            (tmp_path / "taxes.csv").write_text(content, encoding="utf-8")
        error = error_for(tmp_path, self.stream(from_csv="taxes.csv"))
        assert error.key == "streams.0.from_csv"
        assert words in error.problem

    def test_by_year_and_from_csv_together(self, tmp_path):
        error = error_for(tmp_path, self.stream(from_csv="x.csv", by_year={1: 1}))
        assert (error.key, error.problem) == ("streams.0", "give by_year or from_csv, not both")


class TestFromDictAndReplace:
    def test_from_dict_validates_like_a_file(self):
        with pytest.raises(ScenarioError) as caught:
            Scenario.from_dict(with_changes(base_scenario_dict(), {"jobs.new": -3}))
        assert str(caught.value).startswith("<dict>: jobs.new: ")

    def test_from_dict_rejects_a_non_mapping(self):
        with pytest.raises(ScenarioError, match="must be a mapping"):
            Scenario.from_dict([1, 2])

    def test_replace_derives_a_validated_variant(self):
        scenario = Scenario.from_dict(base_scenario_dict())
        variant = scenario.replace({"jobs.new": 200, "discount_rate": 0.05, "capital_investment.3": 10})
        assert (variant.jobs.new, variant.discount_rate, dict(variant.capital_investment)) == (
            200,
            0.05,
            {1: 40000, 3: 10},
        )
        assert scenario.jobs.new == 35  # the original is unchanged
        assert scenario.replace(discount_rate=0.07).discount_rate == 0.07
        with pytest.raises(ScenarioError, match="jobs.new"):
            scenario.replace({"jobs.new": -1})
        with pytest.raises(ScenarioError, match="unknown key"):
            scenario.replace({"jobs.newjobs": 1})
        with pytest.raises(ScenarioError, match="no item 3"):
            scenario.replace({"facility.portions.3.use": "other"})

    def test_to_dict_round_trips(self):
        for path in sorted(SCENARIOS.glob("*.yaml")):
            scenario = load_scenario(path)
            again = Scenario.from_dict(scenario.to_dict(), source=scenario.source, base_dir=scenario.base_dir)
            assert again.to_dict() == scenario.to_dict()  # from_csv streams come back as by_year
            assert netbenefit.evaluate(again).to_dict() == netbenefit.evaluate(scenario).to_dict()

    def test_value_at(self):
        scenario = Scenario.from_dict(base_scenario_dict())
        assert scenario.value_at("facility.portions.0.gross_leasable_area_sqft") == 1000
        assert scenario.value_at("capital_investment.1") == 40000
        with pytest.raises(ScenarioError, match="no such key"):
            scenario.value_at("jobs.nothing")


def test_every_bundled_scenario_validates():
    paths = sorted(SCENARIOS.glob("*.yaml"))
    assert len(paths) >= 9
    for path in paths:
        assert load_scenario(path).name


def test_yaml_python_tags_never_run(tmp_path):
    marker = tmp_path / "marker"
    text = textwrap.dedent(f"""\
        name: !!python/object/apply:os.system ["touch {marker}"]
        """)
    with pytest.raises(ScenarioError):
        load_scenario(write(tmp_path, text))
    assert not marker.exists()


def test_the_values_read_by_one_evaluation_serve_the_next_and_never_a_variant():
    """The model looks each value of a scenario up once (the scenario is immutable); a replaced
    copy starts afresh, and the lookups are no part of what the scenario is."""
    scenario = load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    first = netbenefit.evaluate(scenario)
    assert scenario._values_at["jobs.new"] == scenario.jobs.new
    assert netbenefit.evaluate(scenario).ratio == first.ratio
    variant = scenario.replace({"jobs.new": scenario.jobs.new * 2})
    assert variant._values_at == {}
    doubled = netbenefit.evaluate(variant)
    fresh = netbenefit.evaluate(
        load_scenario(SCENARIOS / "office_hq_default_area.yaml").replace({"jobs.new": scenario.jobs.new * 2})
    )
    assert doubled.ratio == fresh.ratio != first.ratio
    assert scenario == load_scenario(SCENARIOS / "office_hq_default_area.yaml")
