"""One run, one folder: ``compare --out`` keeps a manifest of the files it wrote; with ``--force``
the previous run's outputs that this run did not write are removed (only files the manifest lists
with the digest of their bytes as they are, never another), and a lock refuses a second run into a
folder while one is writing."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from netbenefit import cli
from netbenefit.io.run_folder import LOCK_NAME, MANIFEST_NAME, remove_written_file

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(arg) for arg in argv])
    return code, out.getvalue(), err.getvalue()


def files_in(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


@pytest.fixture
def two(tmp_path):
    a, b = tmp_path / "alpha.yaml", tmp_path / "beta.yaml"
    shutil.copy(SCENARIOS / "party_city.yaml", a)
    shutil.copy(SCENARIOS / "office_hq_default_area.yaml", b)
    return a, b


@pytest.mark.slow
def test_a_forced_run_removes_the_previous_run_s_outputs_it_does_not_write(tmp_path, two):
    # Was: charts and cash flows of a scenario no longer compared stayed beside the new results.
    a, b = two
    out = tmp_path / "out"
    assert run("compare", a, b, "--out", out)[0] == 0
    assert "cashflows/beta.csv" in files_in(out) and (out / "charts" / "beta").is_dir()
    (out / "notes.txt").write_text("the user's own notes")
    (out / "charts" / "beta" / "annotated.png").write_bytes(b"the user's own file")
    code, stdout, err = run("compare", a, "--out", out, "--force")
    assert (code, err) == (0, "")
    files = files_in(out)
    assert not [name for name in files if "beta" in name and name != "charts/beta/annotated.png"]
    assert "notes.txt" in files and "charts/beta/annotated.png" in files  # never a file netbenefit did not write
    manifest = json.loads((out / MANIFEST_NAME).read_text())
    assert set(manifest["files"]) == files - {MANIFEST_NAME, "notes.txt", "charts/beta/annotated.png"}
    assert f"wrote {len(manifest['files'])} files" in stdout
    assert LOCK_NAME not in files


@pytest.mark.slow
def test_an_interrupted_run_records_its_files_so_the_next_forced_run_removes_them(tmp_path, two, monkeypatch):
    a, b = two
    out = tmp_path / "out"
    real_replace = os.replace

    def replace(source, destination):
        if Path(destination).name == "comparison.xlsx":  # after the summary and two cash-flow files
            (out / "dropped-by-the-user.txt").write_text("not netbenefit's")  # while the run writes
            raise OSError(28, "No space left on device")
        return real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    assert run("compare", a, b, "--out", out)[0] == 1
    monkeypatch.setattr(os, "replace", real_replace)
    assert set(json.loads((out / MANIFEST_NAME).read_text())["files"]) == {
        "summary.csv", "cashflows/alpha.csv", "cashflows/beta.csv"
    }  # fmt: skip
    assert run("compare", a, "--out", out, "--force")[0] == 0
    assert "cashflows/beta.csv" not in files_in(out)
    assert "dropped-by-the-user.txt" in files_in(out)


@pytest.mark.slow
def test_a_manifest_never_leads_to_removing_a_file_outside_the_folder_or_not_a_regular_file(tmp_path, two):
    a, _ = two
    out = tmp_path / "out"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out.mkdir()
    (out / "link.csv").symlink_to(victim)
    (out / "inner").mkdir()
    (out / "inner" / "up").symlink_to(tmp_path, target_is_directory=True)
    hostile = ["../victim.txt", str(victim), "inner/../../victim.txt", "link.csv", "inner", "inner/up/victim.txt", 7]
    (out / MANIFEST_NAME).write_text(json.dumps({"format": 1, "files": hostile}))
    assert run("compare", a, "--out", out, "--force")[0] == 0
    assert victim.read_text() == "keep me" and (out / "link.csv").is_symlink() and (out / "inner").is_dir()


@pytest.mark.slow
@pytest.mark.parametrize("text", ["{not json", "[]", '{"files": "summary.csv"}', ""])
def test_a_manifest_that_cannot_be_read_removes_nothing(tmp_path, two, text):
    a, _ = two
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.csv").write_text("x")
    (out / MANIFEST_NAME).write_text(text)
    assert run("compare", a, "--out", out, "--force")[0] == 0
    assert (out / "old.csv").read_text() == "x"
    assert "summary.csv" in json.loads((out / MANIFEST_NAME).read_text())["files"]


def test_removing_a_written_file_removes_the_folders_it_leaves_empty_and_no_more(tmp_path):
    (tmp_path / "charts" / "old").mkdir(parents=True)
    (tmp_path / "charts" / "old" / "a.png").write_bytes(b"x")
    (tmp_path / "charts" / "keep.png").write_bytes(b"x")
    digest = hashlib.sha256(b"x").hexdigest()
    assert remove_written_file(tmp_path, "charts/old/a.png", digest)
    assert not (tmp_path / "charts" / "old").exists() and (tmp_path / "charts" / "keep.png").exists()
    assert not remove_written_file(tmp_path, "charts/old/a.png", digest)  # already gone


def test_a_file_is_removed_only_when_its_bytes_are_those_recorded(tmp_path):
    (tmp_path / "a.csv").write_bytes(b"written by netbenefit")
    assert not remove_written_file(tmp_path, "a.csv", None)  # no digest recorded (a format-1 manifest)
    assert not remove_written_file(tmp_path, "a.csv", hashlib.sha256(b"other bytes").hexdigest())
    assert (tmp_path / "a.csv").exists()
    assert remove_written_file(tmp_path, "a.csv", hashlib.sha256(b"written by netbenefit").hexdigest())


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["listed", "wrong digest", "no digest"])
def test_a_planted_manifest_never_makes_a_forced_run_remove_the_user_s_file(tmp_path, two, entry):
    # Was: any name a manifest listed was removed by the next --force run, so a manifest copied or
    # written into a folder could make netbenefit delete the user's files.
    a, _ = two
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.docx").write_bytes(b"the user's own work")
    files = {
        "listed": ["thesis.docx"],
        "wrong digest": {"thesis.docx": {"sha256": hashlib.sha256(b"something else").hexdigest()}},
        "no digest": {"thesis.docx": {}},
    }[entry]
    (out / MANIFEST_NAME).write_text(json.dumps({"format": 1 if entry == "listed" else 2, "files": files}))
    assert run("compare", a, "--out", out, "--force", "--charts", "none")[0] == 0
    assert (out / "thesis.docx").read_bytes() == b"the user's own work"
    assert "thesis.docx" not in json.loads((out / MANIFEST_NAME).read_text())["files"]


@pytest.mark.slow
def test_a_file_netbenefit_wrote_and_the_user_changed_since_is_not_removed(tmp_path, two):
    a, b = two
    out = tmp_path / "out"
    assert run("compare", a, b, "--out", out, "--charts", "none")[0] == 0
    manifest = json.loads((out / MANIFEST_NAME).read_text())
    assert manifest["format"] == 2
    assert manifest["files"]["cashflows/beta.csv"]["sha256"] == hashlib.sha256(
        (out / "cashflows" / "beta.csv").read_bytes()
    ).hexdigest()
    (out / "cashflows" / "beta.csv").write_text("year,my notes\n")
    assert run("compare", a, "--out", out, "--force", "--charts", "none")[0] == 0
    assert (out / "cashflows" / "beta.csv").read_text() == "year,my notes\n"


# ----------------------------------------------------------------------------------------------
# The lock
# ----------------------------------------------------------------------------------------------

HOLD_LOCK = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
os.write(fd, str(os.getpid()).encode())
print("locked", flush=True)
time.sleep(120)
"""


@pytest.mark.slow
def test_a_second_run_into_a_folder_being_written_is_refused_with_one_line(tmp_path, two):
    # Was: two runs into one folder mixed their files.
    a, b = two
    out = tmp_path / "out"
    assert run("compare", a, b, "--out", out)[0] == 0
    before = {name: (out / name).read_bytes() for name in files_in(out)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(out / LOCK_NAME)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "locked\n"
        code, stdout, err = run("compare", a, "--out", out, "--force")
    finally:
        holder.kill()
        holder.wait()
    assert (code, stdout) == (2, "")
    assert err == (
        f"netbenefit: {out}: another netbenefit run (process {holder.pid}) is writing into this folder; "
        "wait for it to finish or give another --out\n"
    )
    after = {name: (out / name).read_bytes() for name in files_in(out) if name != LOCK_NAME}
    assert after == before  # nothing written, nothing removed


@pytest.mark.slow
def test_a_stale_lock_left_by_a_process_that_died_is_taken_over(tmp_path, two):
    a, _ = two
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (out / LOCK_NAME).write_text(f"{dead.pid}\n")  # as a run killed by SIGKILL leaves it
    code, _, err = run("compare", a, "--out", out, "--force")
    assert (code, err) == (0, "")
    assert not (out / LOCK_NAME).exists()
