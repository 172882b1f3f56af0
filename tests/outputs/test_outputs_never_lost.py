"""Outputs are never lost or half-written.

Every file a command writes is first written under a temporary ``*.part`` name in its folder and
then renamed into place (``os.replace``, atomic on one file system); a run that fails part-way
leaves the files it already wrote complete and no ``*.part`` file; an existing output is never
overwritten unless ``--force`` is given.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

import pytest

from netbenefit import cli

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(arg) for arg in argv])
    return code, out.getvalue(), err.getvalue()


def files_in(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def scenarios(tmp_path):
    """Two bundled scenarios copied into a work folder (with the CSV data one of them reads)."""
    for name in ("office_hq_default_area.yaml", "imported_streams_csv.yaml"):
        shutil.copy(SCENARIOS / name, tmp_path / name)
    shutil.copytree(SCENARIOS / "data", tmp_path / "data")
    return tmp_path, [tmp_path / "office_hq_default_area.yaml", tmp_path / "imported_streams_csv.yaml"]


@pytest.fixture
def renames(monkeypatch):
    """Every (source, destination) given to os.replace during the test."""
    log: list[tuple[Path, Path]] = []
    real_replace = os.replace

    def replace(source, destination, *args, **kwargs):
        log.append((Path(source), Path(destination)))
        return real_replace(source, destination, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return log


def assert_every_file_was_renamed_into_place(folder_or_file: Path, renames) -> None:
    written = [folder_or_file] if folder_or_file.is_file() else [p for p in folder_or_file.rglob("*") if p.is_file()]
    assert written, "the command wrote nothing"
    arrived = {destination.resolve(): source for source, destination in renames}
    for path in written:
        source = arrived.get(path.resolve())
        assert source is not None, f"{path} was not renamed into place"
        assert source.name.endswith(".part") and source.parent.resolve() == path.parent.resolve(), source
    assert not list(folder_or_file.parent.rglob("*.part"))


# ----------------------------------------------------------------------------------------------
# Each command that writes files writes each of them through a temporary file and a rename
# ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_compare_writes_every_file_through_a_temporary_file_and_a_rename(scenarios, renames):
    folder, files = scenarios
    code, _, err = run("compare", *files, "--out", folder / "out")
    assert (code, err) == (0, "")
    assert_every_file_was_renamed_into_place(folder / "out", renames)
    assert {"summary.csv", "comparison.xlsx"} <= set(files_in(folder / "out"))


@pytest.mark.slow
def test_report_writes_its_html_through_a_temporary_file_and_a_rename(scenarios, renames):
    folder, files = scenarios
    code, _, err = run("report", files[0], "--out", folder / "report.html")
    assert (code, err) == (0, "")
    assert_every_file_was_renamed_into_place(folder / "report.html", renames)


def test_sweep_writes_its_table_through_a_temporary_file_and_a_rename(scenarios, renames):
    folder, files = scenarios
    code, _, err = run("sweep", files[0], "--set", "jobs.new=200,260", "--out", folder / "sweep.csv")
    assert (code, err) == (0, "")
    assert_every_file_was_renamed_into_place(folder / "sweep.csv", renames)


def test_montecarlo_writes_its_draws_through_a_temporary_file_and_a_rename(scenarios, renames):
    folder, files = scenarios
    code, _, err = run(
        "montecarlo", files[0], "--draws", "50", "--seed", "1", "--vary", "jobs.new=uniform(200,300)",
        "--no-progress", "--out", folder / "draws.csv",
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert_every_file_was_renamed_into_place(folder / "draws.csv", renames)


# ----------------------------------------------------------------------------------------------
# A run that fails part-way loses nothing and leaves no temporary file
# ----------------------------------------------------------------------------------------------


class DiskFull(OSError):
    pass


def fail_after(monkeypatch, renames_allowed: int) -> None:
    """os.replace succeeds ``renames_allowed`` times, then fails as a full disk would."""
    real_replace = os.replace
    calls = {"n": 0}

    def replace(source, destination, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] > renames_allowed:
            raise DiskFull(28, "No space left on device")
        return real_replace(source, destination, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


def assert_write_failed(outcome) -> None:
    """A full disk ends the run with exit status 1 and one line naming the problem."""
    code, _, stderr = outcome
    assert code == 1
    assert len(stderr.splitlines()) == 1 and "No space left on device" in stderr


@pytest.mark.slow
def test_a_comparison_that_fails_after_its_first_file_keeps_that_file_and_leaves_no_part_file(scenarios, monkeypatch):
    folder, files = scenarios
    files = files[:1]
    out = folder / "out"
    fail_after(monkeypatch, renames_allowed=1)
    assert_write_failed(run("compare", *files, "--out", out))
    written = files_in(out)
    assert list(written) == ["summary.csv"]
    assert written["summary.csv"].decode().count("\n") == 1 + len(files)  # header and one row each: complete
    assert not list(folder.rglob("*.part")) and not list(folder.rglob(".*.part"))


@pytest.mark.slow
def test_a_forced_rewrite_that_fails_part_way_leaves_every_earlier_output_complete(scenarios, monkeypatch):
    folder, files = scenarios
    files = files[:1]
    out = folder / "out"
    assert run("compare", *files, "--out", out)[0] == 0
    before = files_in(out)
    fail_after(monkeypatch, renames_allowed=2)
    assert_write_failed(run("compare", *files, "--out", out, "--force"))
    after = files_in(out)
    assert set(after) == set(before)  # nothing lost, nothing half-written beside them
    for name in after:
        if name.endswith(".csv"):
            assert after[name] == before[name], name  # same inputs: each file is the old or new, whole
    assert not list(folder.rglob("*.part"))


@pytest.mark.slow
def test_a_report_that_fails_while_writing_leaves_no_file_and_no_part_file(scenarios, monkeypatch):
    folder, files = scenarios
    fail_after(monkeypatch, renames_allowed=0)
    assert_write_failed(run("report", files[0], "--out", folder / "report.html"))
    assert not (folder / "report.html").exists()
    assert not list(folder.rglob("*.part"))


# ----------------------------------------------------------------------------------------------
# Existing outputs are not overwritten without --force
# ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_compare_refuses_a_non_empty_output_folder_without_force(scenarios):
    folder, files = scenarios
    files = files[:1]
    out = folder / "out"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    code, stdout, stderr = run("compare", *files, "--out", out)
    assert (code, stdout) == (2, "")
    assert len(stderr.splitlines()) == 1 and "--force" in stderr
    assert files_in(out) == {"notes.txt": b"keep me"}


@pytest.mark.slow
def test_compare_with_force_rewrites_the_folder_and_keeps_other_files(scenarios):
    folder, files = scenarios
    files = files[:1]
    out = folder / "out"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert run("compare", *files, "--out", out, "--force")[0] == 0
    assert files_in(out)["notes.txt"] == b"keep me"
    assert "summary.csv" in files_in(out)


@pytest.mark.slow
def test_report_refuses_to_overwrite_an_existing_file_without_force(scenarios):
    folder, files = scenarios
    target = folder / "report.html"
    target.write_text("an earlier report")
    code, stdout, stderr = run("report", files[0], "--out", target)
    assert (code, stdout) == (2, "")
    assert len(stderr.splitlines()) == 1 and "--force" in stderr
    assert target.read_text() == "an earlier report"
    assert run("report", files[0], "--out", target, "--force")[0] == 0
    assert target.read_text() != "an earlier report"


def test_sweep_refuses_to_overwrite_an_existing_table_without_force(scenarios):
    folder, files = scenarios
    target = folder / "sweep.csv"
    target.write_text("an earlier sweep")
    code, _, stderr = run("sweep", files[0], "--set", "jobs.new=200,260", "--out", target)
    assert code == 2 and "--force" in stderr
    assert target.read_text() == "an earlier sweep"


def test_montecarlo_refuses_to_overwrite_an_existing_table_without_force(scenarios):
    folder, files = scenarios
    target = folder / "draws.csv"
    target.write_text("earlier draws")
    code, _, stderr = run(
        "montecarlo", files[0], "--draws", "20", "--seed", "1", "--vary", "jobs.new=uniform(200,300)",
        "--no-progress", "--out", target,
    )  # fmt: skip
    assert code == 2 and "--force" in stderr
    assert target.read_text() == "earlier draws"
