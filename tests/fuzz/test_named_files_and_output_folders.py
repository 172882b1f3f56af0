"""Hostile files and folders: every file a scenario names
(``revenue.multiplier_table`` as ``from_csv``) held to one rule (netbenefit.io.named_files), and every
folder netbenefit makes under ``--out`` never reached through a link (netbenefit.io.writing.make_folders,
the lock opened with O_NOFOLLOW, each file flushed to the disk before it is renamed into place)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from netbenefit import ScenarioError, cli, load_scenario
from netbenefit.model.scenario import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "industry_multipliers_example.yaml"
TABLE = ROOT / "scenarios" / "data" / "multipliers_example.csv"

_OPENED: list[str] | None = None


def _audit(event: str, args) -> None:
    if _OPENED is not None and event == "open" and isinstance(args[0], str | bytes | os.PathLike):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


@pytest.fixture
def opened():
    global _OPENED
    _OPENED = []
    yield _OPENED
    _OPENED = None


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def table_project(tmp_path: Path, table_name: str = "multipliers.csv") -> Path:
    """``project/scenario.yaml``: the multiplier example, its table named ``table_name``."""
    project = tmp_path / "project"
    project.mkdir()
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["revenue"]["multiplier_table"] = table_name
    (project / "scenario.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return project / "scenario.yaml"


def assert_refused(scenario: Path, words: str, secret: Path | None = None, opened: list[str] | None = None) -> None:
    if opened is not None:
        opened.clear()  # the test's own writing
    with pytest.raises(ScenarioError) as caught:
        load_scenario(scenario)
    assert caught.value.key == "revenue.multiplier_table"
    assert words in caught.value.problem
    if secret is not None:
        assert not [name for name in opened if Path(name).resolve() == secret.resolve()], "the outside file was opened"
    code, out, err = run("evaluate", str(scenario))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and "revenue.multiplier_table" in err


def test_a_multiplier_table_linked_to_a_table_outside_the_folder_is_refused_unopened(tmp_path, opened):
    # Was: the link was followed and the outside table applied (ratio 998% instead of 470%).
    scenario = table_project(tmp_path)
    outside = tmp_path / "outside.csv"
    outside.write_text(TABLE.read_text(encoding="utf-8").replace("1.", "9."), encoding="utf-8")
    (scenario.parent / "multipliers.csv").symlink_to(outside)
    assert_refused(scenario, "a link leading outside it", outside, opened)


def test_a_multiplier_table_linked_to_etc_passwd_is_refused_unopened(tmp_path, opened):
    scenario = table_project(tmp_path)
    (scenario.parent / "multipliers.csv").symlink_to("/etc/passwd")
    assert_refused(scenario, "a link leading outside it", Path("/etc/passwd"), opened)


def test_a_multiplier_table_in_a_linked_folder_leading_out_is_refused(tmp_path, opened):
    scenario = table_project(tmp_path, "data/multipliers.csv")
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(TABLE, tmp_path / "elsewhere" / "multipliers.csv")
    (scenario.parent / "data").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert_refused(scenario, "a link leading outside it", tmp_path / "elsewhere" / "multipliers.csv", opened)


@pytest.mark.parametrize("name", ["../multipliers.csv", "/etc/passwd", "data/../../x.csv"])
def test_a_multiplier_table_path_leading_out_is_refused(tmp_path, name):
    assert_refused(table_project(tmp_path, name), "inside the scenario file's folder")


def test_a_multiplier_table_that_is_a_pipe_is_refused_without_waiting(tmp_path):
    scenario = table_project(tmp_path)
    os.mkfifo(scenario.parent / "multipliers.csv")
    assert_refused(scenario, "not a regular file")


def test_a_multiplier_table_that_is_a_loop_of_links_is_refused(tmp_path):
    scenario = table_project(tmp_path)
    (scenario.parent / "multipliers.csv").symlink_to("loop.csv")
    (scenario.parent / "loop.csv").symlink_to("multipliers.csv")
    assert_refused(scenario, "a loop of links")


def test_a_multiplier_table_too_large_is_refused_before_it_is_opened(tmp_path, opened):
    scenario = table_project(tmp_path)
    big = scenario.parent / "multipliers.csv"
    big.write_text(TABLE.read_text(encoding="utf-8") + "#" * (MAX_FILE_BYTES + 10), encoding="utf-8")
    assert_refused(scenario, "larger than", big, opened)


def test_a_multiplier_table_inside_the_folder_through_a_link_is_read(tmp_path):
    scenario = table_project(tmp_path, "multipliers.csv")
    (scenario.parent / "data").mkdir()
    shutil.copy(TABLE, scenario.parent / "data" / "real.csv")
    (scenario.parent / "multipliers.csv").symlink_to("data/real.csv")
    assert load_scenario(scenario).multipliers["naics"] == "523"


def test_every_named_file_goes_through_one_reader():
    # The rule holds for keys added later only if no reader opens a named file by itself.
    package = ROOT / "netbenefit"
    sources = {path.relative_to(package).as_posix(): path.read_text(encoding="utf-8") for path in package.rglob("*.py")}
    readers = [name for name, text in sources.items() if "read_named_file(" in text and name != "io/named_files.py"]
    assert sorted(readers) == ["model/after_approval/actuals.py", "model/scenario/csv_files.py"]
    for name, text in sources.items():
        assert "csv_path_inside" not in text, name


# ----------------------------------------------------------------------------------------------
# --out: no folder written through a link, the lock never followed, each file flushed
# ----------------------------------------------------------------------------------------------

OFFICE = ROOT / "scenarios" / "office_hq_default_area.yaml"


@pytest.mark.slow
@pytest.mark.parametrize("planted", ["cashflows", "charts"])
def test_a_link_planted_as_an_output_sub_folder_is_refused_never_written_through(tmp_path, planted):
    # Was: compare --force wrote its cash flows (or charts) into the folder the link leads to.
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / planted).symlink_to(outside, target_is_directory=True)
    code, stdout, err = run("compare", str(OFFICE), "--out", str(out), "--force", "--charts", "summary")
    assert code == 2, err
    assert f"{planted}: is a link" in err and len(err.splitlines()) == 1
    assert list(outside.iterdir()) == []
    assert not list(out.rglob("*.part"))


@pytest.mark.slow
def test_a_file_planted_as_an_output_sub_folder_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "cashflows").write_text("mine", encoding="utf-8")
    code, _, err = run("compare", str(OFFICE), "--out", str(out), "--force", "--charts", "none")
    assert code == 2 and "cashflows: is not a folder" in err
    assert (out / "cashflows").read_text(encoding="utf-8") == "mine"


@pytest.mark.slow
def test_a_link_planted_as_the_lock_is_not_followed(tmp_path):
    # Was: the lock was opened through the link and its target truncated.
    out, precious = tmp_path / "out", tmp_path / "precious.txt"
    out.mkdir()
    precious.write_text("keep me", encoding="utf-8")
    (out / ".netbenefit.lock").symlink_to(precious)
    code, _, err = run("compare", str(OFFICE), "--out", str(out), "--force", "--charts", "none")
    assert code == 2 and ".netbenefit.lock" in err and "a link" in err and len(err.splitlines()) == 1
    assert precious.read_text(encoding="utf-8") == "keep me"


def test_atomic_write_flushes_the_file_before_renaming_it(tmp_path, monkeypatch):
    from netbenefit.io import writing as output

    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(source, target):
        events.append(("replace", os.fspath(source)))
        return real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    output.atomic_write_text(tmp_path / "a.txt", "text")
    assert [kind for kind, _ in events] == ["fsync", "replace"]
    assert events[0][1] == events[1][1], "the file flushed is the one renamed"
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "text"
