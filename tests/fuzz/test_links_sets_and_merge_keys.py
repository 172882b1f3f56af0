"""Hostile inputs: a stream CSV (or an actual results CSV) reached through a
symbolic link that leaves the scenario's folder, an overflow that must be blamed on the stream that
causes it, a ``!!set`` given where a list is expected, and YAML merge keys (an override is legal
YAML 1.1, a duplicate is not)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml
from fuzz.fuzz_support import run_cli_in_process
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import ScenarioError, load_scenario
from netbenefit.model.after_approval import load_actuals

CSV = "year,amount\n1,1000000\n2,1000000\n"


def write_yaml(path: Path, data) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def csv_scenario(folder: Path, from_csv: str) -> Path:
    stream = {"name": "imported taxes", "kind": "revenue", "from_csv": from_csv}
    return write_yaml(folder / "scenario.yaml", with_changes(base_scenario_dict(), {"streams": [stream]}))


# ----------------------------------------------------------------------------------------------
# from_csv: the file, symbolic links resolved, must be inside the scenario's folder
# ----------------------------------------------------------------------------------------------

_OPENED: list[str] | None = None


def _audit(event: str, args) -> None:
    if _OPENED is not None and event == "open" and isinstance(args[0], str | bytes | os.PathLike):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # records every file opened while a test sets _OPENED to a list


@pytest.fixture
def opened():
    global _OPENED
    _OPENED = []
    yield _OPENED
    _OPENED = None


def project_and_secret(tmp_path: Path, text: str) -> tuple[Path, Path]:
    """``project/`` (the folder of the YAML file) and ``outside/secret.csv`` holding ``text``."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "secret.csv").write_text(text, encoding="utf-8")
    return project, outside / "secret.csv"


def link_inside(project: Path, name: str, text: str) -> None:
    """``project/<name>``: a symbolic link to ``project/data/<name>``, which holds ``text``."""
    (project / "data").mkdir()
    (project / "data" / name).write_text(text, encoding="utf-8")
    (project / name).symlink_to(f"data/{name}")


@pytest.fixture
def layout(tmp_path):
    """The scenario's folder and a valid stream CSV outside it."""
    return project_and_secret(tmp_path, CSV)


def assert_refused_without_opening(scenario: Path, secret: Path, opened: list[str]) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(scenario)
    assert caught.value.key == "streams.0.from_csv"
    assert "inside the scenario file's folder" in caught.value.problem
    assert not [name for name in opened if Path(name).resolve() == secret.resolve()], "the outside file was opened"
    run = run_cli_in_process(scenario)
    assert run.returncode == 2 and run.stdout == "" and len(run.stderr.splitlines()) == 1


def test_a_symbolic_link_in_the_folder_to_a_file_outside_it_is_refused_unopened(layout, opened):
    # Was: the link was followed and the outside file counted as a stream.
    project, secret = layout
    (project / "taxes.csv").symlink_to(secret)
    assert_refused_without_opening(csv_scenario(project, "taxes.csv"), secret, opened)


def test_a_linked_folder_leading_outside_is_refused_unopened(layout, opened):
    project, secret = layout
    (project / "data").symlink_to(secret.parent, target_is_directory=True)
    assert_refused_without_opening(csv_scenario(project, "data/secret.csv"), secret, opened)


def test_a_chain_of_links_ending_outside_is_refused_unopened(layout, opened):
    project, secret = layout
    (project / "b.csv").symlink_to(secret)
    (project / "a.csv").symlink_to("b.csv")
    assert_refused_without_opening(csv_scenario(project, "a.csv"), secret, opened)


def test_a_link_that_stays_inside_the_folder_is_read(layout):
    project, _ = layout
    link_inside(project, "taxes.csv", CSV)
    scenario = load_scenario(csv_scenario(project, "taxes.csv"))
    assert dict(scenario.streams[0].by_year) == {1: 1000000.0, 2: 1000000.0}


def test_a_scenario_folder_reached_through_a_link_still_reads_its_own_files(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "taxes.csv").write_text(CSV, encoding="utf-8")
    csv_scenario(real, "taxes.csv")
    (tmp_path / "alias").symlink_to(real, target_is_directory=True)
    assert load_scenario(tmp_path / "alias" / "scenario.yaml").streams[0].by_year[2] == 1000000.0


# ----------------------------------------------------------------------------------------------
# actuals' years_from_csv: the same rule as from_csv (inside the actual results file's folder)
# ----------------------------------------------------------------------------------------------

ACTUALS_CSV = "year,new_jobs,statewide_workforce\n1,30,1030\n2,35,1035\n"


def actuals_file(folder: Path, years_from_csv: str) -> Path:
    return write_yaml(folder / "actuals.yaml", {"workforce_before_approval": 1000, "years_from_csv": years_from_csv})


def actuals_error(path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load_actuals(path)
    assert caught.value.key == "years_from_csv" and "\n" not in str(caught.value)
    return caught.value


@pytest.fixture
def actuals_layout(tmp_path):
    """The actual results file's folder and a valid CSV of actual years outside it."""
    return project_and_secret(tmp_path, ACTUALS_CSV)


@pytest.mark.parametrize("how", ["link to the file", "linked folder", "absolute path", "parent folder"])
def test_actuals_csv_outside_the_folder_is_refused_unopened(actuals_layout, opened, how):
    # Was: an absolute path or a link leading out was followed and the file outside read.
    project, secret = actuals_layout
    if how == "link to the file":
        (project / "years.csv").symlink_to(secret)
        name = "years.csv"
    elif how == "linked folder":
        (project / "data").symlink_to(secret.parent, target_is_directory=True)
        name = "data/secret.csv"
    else:
        name = str(secret) if how == "absolute path" else "../outside/secret.csv"
    error = actuals_error(actuals_file(project, name))
    assert "inside the actual results file's folder" in error.problem
    assert not [path for path in opened if Path(path).resolve() == secret.resolve()], "the outside file was opened"


def test_actuals_csv_inside_the_folder_through_a_link_is_read(actuals_layout):
    project, _ = actuals_layout
    link_inside(project, "years.csv", ACTUALS_CSV)
    actuals = load_actuals(actuals_file(project, "years.csv"))
    assert [(row.year, row.new_jobs) for row in actuals.years] == [(1, 30), (2, 35)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")
def test_actuals_csv_that_is_a_pipe_or_a_folder_is_refused_without_waiting(tmp_path):
    # Was: a named pipe was opened and read, and the command waited for a writer for ever.
    os.mkfifo(tmp_path / "pipe.csv")
    (tmp_path / "folder.csv").mkdir()
    assert "not a regular file" in actuals_error(actuals_file(tmp_path, "pipe.csv")).problem
    assert "is a folder" in actuals_error(actuals_file(tmp_path, "folder.csv")).problem


# ----------------------------------------------------------------------------------------------
# An overflow names the stream (and its file) whose amounts overflow
# ----------------------------------------------------------------------------------------------


def test_an_overflow_of_a_csv_stream_names_the_stream_and_its_file(tmp_path):
    # Was: 'discount_rate: present values overflow ...', though the rate is an ordinary 5%.
    rows = "".join(f"{year},1.7e308\n" for year in range(1, 12))
    (tmp_path / "huge.csv").write_text("year,amount\n" + rows, encoding="utf-8")
    streams = [
        {"name": "state taxes", "kind": "revenue", "by_year": {1: 1000000}},
        {"name": "huge taxes", "kind": "revenue", "from_csv": "huge.csv"},
    ]
    data = with_changes(base_scenario_dict(), {"discount_rate": 0.05, "streams": streams})
    with pytest.raises(ScenarioError) as caught:
        netbenefit.evaluate(load_scenario(write_yaml(tmp_path / "scenario.yaml", data)))
    assert caught.value.key == "streams.1"
    assert "'huge taxes'" in caught.value.problem and "huge.csv" in caught.value.problem
    assert "discount_rate" not in str(caught.value)


def test_an_overflow_of_a_later_phase_stream_names_that_phase_stream():
    phase = {"name": "second", "start_year": 2, "jobs": {"new": 1, "nj_withholding_share": 1.0},
             "award": {"annual_credit": 1.0},
             "streams": [{"name": "huge", "kind": "cost", "by_year": {1: 1.7e308, 2: 1.7e308}}]}  # fmt: skip
    data = with_changes(base_scenario_dict(), {"phases": [phase]})
    with pytest.raises(ScenarioError) as caught:
        netbenefit.evaluate(netbenefit.Scenario.from_dict(data))
    assert caught.value.key == "phases.0.streams.0" and "'huge'" in caught.value.problem


def test_an_overflow_from_the_discount_rate_is_still_blamed_on_the_discount_rate():
    data = with_changes(base_scenario_dict(), {"discount_rate": -0.9999999})
    data["commitment"] = {"period_years": 50}
    data["streams"][0]["by_year"] = {y: 1000000 for y in range(1, 51)}
    with pytest.raises(ScenarioError) as caught:
        netbenefit.evaluate(netbenefit.Scenario.from_dict(data))
    assert caught.value.key == "discount_rate"


# ----------------------------------------------------------------------------------------------
# A list is a YAML sequence: !!set and other collections are refused
# ----------------------------------------------------------------------------------------------


def base_text() -> str:
    return yaml.safe_dump(base_scenario_dict(), sort_keys=False)


def test_a_yaml_set_where_a_list_is_expected_is_refused(tmp_path):
    # Was: !!set {0.5, 1.0} accepted as a ramp, its order lost.
    text = base_text().replace("  retained: 0\n", "  retained: 0\n  ramp: !!set {0.5, 1.0}\n")
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert caught.value.key == "jobs.ramp"
    assert "must be a list" in caught.value.problem and "set" in caught.value.problem


@pytest.mark.parametrize("key", ["facility.portions", "streams", "phases"])
def test_a_set_of_items_is_refused_for_every_list_key(key):
    with pytest.raises(ScenarioError) as caught:
        netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), {key: {"a", "b"}}))
    assert caught.value.key == key and "not a set" in caught.value.problem


def test_a_set_of_bonuses_is_refused():
    award = {"section_75": {"bonuses": frozenset({"x"})}}
    with pytest.raises(ScenarioError) as caught:
        netbenefit.Scenario.from_dict(with_changes(base_scenario_dict(), {"award": award}))
    assert caught.value.key == "award.section_75.bonuses"


# ----------------------------------------------------------------------------------------------
# YAML merge keys: an override is YAML 1.1; a key given twice in one mapping is still a duplicate
# ----------------------------------------------------------------------------------------------


def test_a_merge_key_override_is_accepted_as_yaml_1_1_defines_it(tmp_path):
    # Was: 'duplicate key' for the overriding key.
    path = tmp_path / "scenario.yaml"
    path.write_text(
        base_text().replace("jobs:\n", "jobs: &jobs\n", 1)
        + "phases:\n- name: second\n  start_year: 3\n  jobs:\n    <<: *jobs\n    new: 50\n"
        "  award:\n    annual_credit: 1000\n",
        encoding="utf-8",
    )
    scenario = load_scenario(path)
    assert scenario.phases[0].jobs.new == 50.0  # the mapping's own key overrides the merged one
    assert scenario.phases[0].jobs.nj_withholding_share == scenario.jobs.nj_withholding_share == 1.0


def test_keys_merged_from_several_mappings_take_the_first_mapping_s_value():
    document = yaml.load("a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc: {<<: [*a, *b], z: 3}\n", Loader=_loader())
    assert document["c"] == {"x": 1, "y": 1, "z": 3}


@pytest.mark.parametrize(
    "text",
    [
        "a: &a {x: 1}\nc:\n  <<: *a\n  y: 1\n  y: 2\n",  # a key twice in the mapping itself
        "a: &a {x: 1}\nb: &b {x: 2}\nc:\n  <<: *a\n  <<: *b\n",  # two merge keys
    ],
)
def test_a_key_given_twice_beside_a_merge_is_still_a_duplicate(text):
    with pytest.raises(yaml.YAMLError, match="duplicate key"):
        yaml.load(text, Loader=_loader())


def _loader():
    from netbenefit.io.strict_yaml import StrictSafeLoader

    return StrictSafeLoader
