"""Real faults while writing: a full file system (a real one, mounted small, where the test may
mount it) and a run stopped by SIGTERM or SIGINT. Each ends in one line naming what happened,
the conventional exit status, and no temporary ``*.part`` file left behind."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from netbenefit import cli

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
ROOT = Path(__file__).resolve().parents[2]


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(arg) for arg in argv])
    return code, out.getvalue(), err.getvalue()


def part_files(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.name.endswith(".part")]


# ----------------------------------------------------------------------------------------------
# A write failure names the file being written, whatever the operating system's error carries
# ----------------------------------------------------------------------------------------------


def test_an_error_that_names_no_file_is_reported_with_the_file_being_written(tmp_path, monkeypatch):
    # Was: 'netbenefit: cannot write: No space left on device', no file named.
    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")  # as zipfile or a C library raises it: no file name

    monkeypatch.setattr(Path, "write_bytes", full)  # compare's files are made in memory, then written
    code, _, err = run("compare", SCENARIOS / "party_city.yaml", "--out", tmp_path / "out")
    assert code == 1
    assert err == f"netbenefit: cannot write {tmp_path / 'out' / 'summary.csv'}: No space left on device\n"
    assert not part_files(tmp_path)


@pytest.fixture
def small_disk(tmp_path):
    """A real tmpfs file system of 64 KiB (needs root and mount), unmounted afterwards."""
    mount = shutil.which("mount")
    if os.geteuid() != 0 or mount is None:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run([mount, "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_real_full_file_system_names_the_file_and_leaves_no_part_file(small_disk):
    out = small_disk / "out"
    code, _, err = run("compare", SCENARIOS / "party_city.yaml", SCENARIOS / "mega_project.yaml", "--out", out)
    assert code == 1 and len(err.splitlines()) == 1, err
    assert err.startswith(f"netbenefit: cannot write {out}/") and err.endswith(": No space left on device\n"), err
    assert "Traceback" not in err
    assert not part_files(small_disk)
    written = err.removeprefix("netbenefit: cannot write ").split(": No space")[0]
    assert not Path(written).exists() or Path(written).stat().st_size > 0  # never a half-written file in place


def test_a_real_full_file_system_fails_report_with_the_file_named(small_disk):
    (small_disk / "filler").write_bytes(b"\0" * 60 * 1024)
    path = small_disk / "report.html"
    code, _, err = run("report", SCENARIOS / "party_city.yaml", "--out", path)
    assert (code, err) == (1, f"netbenefit: cannot write {path}: No space left on device\n")
    assert not path.exists() and not part_files(small_disk)


# ----------------------------------------------------------------------------------------------
# SIGTERM and SIGINT during compare
# ----------------------------------------------------------------------------------------------


def start_compare(tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    """``netbenefit compare`` of six scenarios (a few seconds of charts) in a child process."""
    names = ["party_city", "mega_project", "office_hq_default_area", "phased_campus", "small_business",
             "warehouse_distressed_shortfall"]  # fmt: skip
    out = tmp_path / "out"
    child = subprocess.Popen(
        [sys.executable, "-m", "netbenefit", "compare", *(str(SCENARIOS / f"{n}.yaml") for n in names), "--out", out],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"},
    )
    deadline = time.monotonic() + 60
    while not (out / "summary.csv").exists():  # writing has begun: charts follow for some seconds
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "compare wrote nothing within 60 s"
        time.sleep(0.02)
    return child, out


@pytest.mark.parametrize(
    "signal_number, status, word",
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
)
def test_a_signal_during_compare_removes_temporary_files_and_exits_with_one_line(tmp_path, signal_number, status, word):
    # Was: SIGTERM left hidden .part files (status -15); Ctrl-C printed a KeyboardInterrupt traceback.
    child, out = start_compare(tmp_path)
    os.kill(child.pid, signal_number)
    stdout, stderr = child.communicate(timeout=60)
    files = sorted(str(path.relative_to(out)) for path in out.rglob("*") if path.is_file())
    assert child.returncode == status, (stdout[-2000:], stderr, files)
    assert stderr.splitlines() == [
        f"netbenefit: {word} (signal {signal_number.name}); files written so far are complete"
    ]
    assert not part_files(tmp_path)
    assert not (out / ".netbenefit.lock").exists()


def test_a_signal_waits_for_the_held_section_though_other_threads_run():
    # Was: held with a signal mask, which holds it for the main thread alone; the kernel gave the
    # signal to another thread and Python ran the handler in the main thread inside the section
    # (a hidden .part file left now and then by a signal during compare, on a loaded machine).
    import threading

    from netbenefit.output import _signals_held

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    reached = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with _signals_held():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.1)  # an unheld signal's handler runs here
                reached.append("the end of the section")
    finally:
        stop.set()
        other.join()
    assert reached == ["the end of the section"]
