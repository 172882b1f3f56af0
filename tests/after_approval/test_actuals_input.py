"""The actual-results file: YAML with years or years_from_csv; every problem is one ScenarioError
naming the file, the key and the problem."""

from pathlib import Path

import pytest
import yaml

from netbenefit import ScenarioError
from netbenefit.model.after_approval import Actuals, load_actuals

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "actuals" / "office_hq_actuals.yaml"

GOOD = {
    "name": "reported",
    "workforce_before_approval": 1000,
    "years": [
        {"year": 1, "new_jobs": 30, "statewide_workforce": 1030},
        {"year": 2, "new_jobs": 35, "retained_jobs": 0, "median_salary": 90000, "statewide_workforce": 1035},
    ],
}
HEADER = "year,new_jobs,retained_jobs,median_salary,statewide_workforce,nj_withholding_share\n"


def write(tmp_path, data, name="actuals.yaml"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def error_of(path) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load_actuals(path)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith(str(path))
    return caught.value


def test_bundled_example_loads_from_its_csv():
    actuals = load_actuals(EXAMPLE)
    assert [row.year for row in actuals.years] == [1, 2, 3, 4, 5, 6]
    assert actuals.workforce_before_approval == 1200
    assert actuals.years[0].nj_withholding_share == 0.85


def test_yaml_years_load(tmp_path):
    actuals = load_actuals(write(tmp_path, GOOD))
    assert actuals.years[1].median_salary == 90000 and actuals.years[0].retained_jobs == 0


def test_csv_and_yaml_years_agree(tmp_path):
    write(tmp_path, "year,new_jobs,statewide_workforce,median_salary\n1,30,1030,\n2,35,1035,90000\n", "years.csv")
    from_csv = load_actuals(write(tmp_path, {"workforce_before_approval": 1000, "years_from_csv": "years.csv"}))
    from_yaml = load_actuals(write(tmp_path, {**GOOD, "name": ""}, "b.yaml"))
    assert from_csv.years == from_yaml.years


@pytest.mark.parametrize(
    "change, key, words",
    [
        ({"workforce_before_approval": 0}, "workforce_before_approval", "greater than 0"),
        ({"workforce_before_approval": None}, "workforce_before_approval", "number"),
        ({"years": []}, "years", "at least 1"),
        ({"unknown": 1}, "unknown", "unknown key"),
        ({"maintained_through_year": -1}, "maintained_through_year", "greater than or equal to 0"),
        ({"years": [{"year": 1, "new_jobs": -1, "statewide_workforce": 1}]}, "years.0.new_jobs", "greater than"),
        ({"years": [{"year": 1, "new_jobs": 1}]}, "years.0.statewide_workforce", "required key is missing"),
        ({"years": [{"year": 1, "new_jobs": 1, "statewide_workforce": 1, "jobs": 2}]}, "years.0.jobs", "unknown key"),
        (
            {"years": [{"year": 1, "new_jobs": 1, "statewide_workforce": 1, "nj_withholding_share": 1.5}]},
            "years.0.nj_withholding_share",
            "must be a decimal share",
        ),
        ({"years": [{"year": 2, "new_jobs": 1, "statewide_workforce": 1}]}, "years.0.year", "without a gap"),
        (
            {
                "years": [
                    {"year": 1, "new_jobs": 1, "statewide_workforce": 1},
                    {"year": 3, "new_jobs": 1, "statewide_workforce": 1},
                ]
            },
            "years.1.year",
            "without a gap",
        ),
        ({"years_from_csv": "x.csv"}, "years_from_csv", "not both"),
    ],
)
def test_bad_values(tmp_path, change, key, words):
    error = error_of(write(tmp_path, {**GOOD, **change}))
    assert error.key == key
    assert words in error.problem


@pytest.mark.parametrize(
    "csv_text, words",
    [
        ("", "empty"),
        ("year,new_jobs\n1,2\n", "missing columns ['statewide_workforce']"),
        ("year,new_jobs,statewide_workforce,bonus\n1,2,3,4\n", "unknown or repeated columns ['bonus']"),
        (HEADER, "no rows"),
        (HEADER + "1,30,0,90000,1000\n", "line 2: expected 6 cells, got 5"),
        (HEADER + "1,thirty,0,90000,1000,0.9\n", "line 2: new_jobs must be a number, got 'thirty'"),
        (HEADER + "1.5,30,0,90000,1000,0.9\n", "line 2: year must be a whole number"),
        (HEADER + "1,30,0,90000,1000,0.9\n2,-3,0,90000,1000,0.9\n", "line 3: new_jobs:"),
    ],
)
def test_bad_csv(tmp_path, csv_text, words):
    write(tmp_path, csv_text, "years.csv")
    error = error_of(write(tmp_path, {"workforce_before_approval": 1000, "years_from_csv": "years.csv"}))
    assert error.key == "years_from_csv"
    assert words in error.problem


def test_missing_csv_and_missing_file(tmp_path):
    error = error_of(write(tmp_path, {"workforce_before_approval": 1000, "years_from_csv": "none.csv"}))
    assert "CSV file not found" in error.problem
    assert "file not found" in error_of(tmp_path / "absent.yaml").problem


def test_empty_and_non_mapping_files(tmp_path):
    assert "empty" in error_of(write(tmp_path, "")).problem
    assert "mapping" in error_of(write(tmp_path, "- 1\n- 2\n")).problem


def test_from_dict_names_its_source():
    with pytest.raises(ScenarioError, match=r"^<dict>: workforce_before_approval"):
        Actuals.from_dict({"years": GOOD["years"]})


def test_the_steps_keep_their_earlier_signatures():
    # netbenefit.model.after_approval's steps as they were called before follow() took them over: each
    # agrees with follow() on the bundled office scenario and its actual results
    import numpy as np

    import netbenefit
    from netbenefit.model import after_approval

    bundled = Path(__file__).resolve().parents[2] / "scenarios"
    scenario = netbenefit.load_scenario(bundled / "office_hq_default_area.yaml")
    actuals = netbenefit.load_actuals(bundled / "actuals" / "office_hq_actuals.yaml")
    projected = netbenefit.evaluate(scenario)
    followed = netbenefit.follow(scenario, actuals)
    certified = after_approval.certification(scenario, actuals, projected)
    assert float(np.sum(certified.certified)) == followed.certified_credits
    assert after_approval.actual_scenario(scenario, actuals, projected) == followed.actual_scenario
    flags = after_approval.rerun_flags(scenario, actuals, certified, projected)
    assert tuple(int(y) for y in np.flatnonzero(flags.flag) + 1) == followed.rerun_flag_years
    stop = actuals.maintained_through_year
    by_record = after_approval.clawback(scenario, projected, stop, certified)
    by_array = after_approval.clawback(scenario, projected, stop, certified.certified)
    assert by_record.repayment == by_array.repayment == followed.repayment


@pytest.mark.parametrize(
    "years, problem", [(1000, None), (1001, "years.1000.year: must be less than or equal to 1000")]
)
def test_actual_results_years_are_bounded_like_scenario_years(tmp_path, years, problem):
    rows = [{"year": y, "new_jobs": 30, "statewide_workforce": 1030} for y in range(1, years + 1)]
    path = write(tmp_path, {"workforce_before_approval": 1000, "years": rows})
    if problem is None:
        assert len(load_actuals(path).years) == 1000
    else:
        assert problem in str(error_of(path))
    (tmp_path / "years.csv").write_text(
        "year,new_jobs,statewide_workforce\n" + "".join(f"{y},30,1030\n" for y in range(1, years + 1)), encoding="utf-8"
    )
    from_csv = write(tmp_path, {"workforce_before_approval": 1000, "years_from_csv": "years.csv"}, "csv.yaml")
    if problem is None:
        assert len(load_actuals(from_csv).years) == 1000
    else:
        assert "line 1002: year: must be less than or equal to 1000" in str(error_of(from_csv))
