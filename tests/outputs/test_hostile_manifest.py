"""The manifest read like any hostile file, and a cache that never keeps a chart a cold run would
not draw: a planted or corrupt manifest is a cold run (never a hang, a traceback or memory
exhausted) in every command that keeps one; the fonts are in the cache key; the manifest records
the bytes the run wrote."""

from __future__ import annotations

import contextlib
import io
import json
import os
import threading
from pathlib import Path

import pytest

from netbenefit import cli
from netbenefit.io.run_folder import MANIFEST_NAME, one_run, read_manifest
from netbenefit.views.chart_keys import fonts_digest, style_digest

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
GOOD = SCENARIOS / "party_city.yaml"

#: The commands that keep a manifest in their output folder.
COMMANDS = {
    "compare": ["compare", str(GOOD), "--charts", "none"],
    "portfolio": ["portfolio", str(GOOD), "--charts", "none"],
}


def _run(argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(arg) for arg in argv])
    return code, out.getvalue(), err.getvalue()


def _plant_fifo(path: Path) -> None:
    os.mkfifo(path)


def _plant_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _plant_deep(path: Path) -> None:
    path.write_text('{"files": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")


def _plant_huge(path: Path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(64 * 1024 * 1024)


def _plant_bad_names(path: Path) -> None:
    digest = "0" * 64
    files = {"a\u0000b.csv": {"sha256": digest}, "\ud800.csv": {"sha256": digest}, "x.csv": {"sha256": "zz"}}
    path.write_text(json.dumps({"format": 2, "files": files}), encoding="utf-8")


def _plant_not_json(path: Path) -> None:
    path.write_bytes(b"\xff\xfe{not json")


def _plant_folder(path: Path) -> None:
    path.mkdir()


PLANTED = {
    "a named pipe": _plant_fifo,
    "a link to /dev/zero": _plant_zero,
    "deeply nested JSON": _plant_deep,
    "a 64 MiB file": _plant_huge,
    "a NUL, a lone surrogate and a bad digest in entries": _plant_bad_names,
    "not JSON": _plant_not_json,
    "a folder": _plant_folder,
}


@pytest.mark.parametrize("planted", list(PLANTED), ids=list(PLANTED))
def test_a_planted_manifest_is_read_as_none_at_once(tmp_path, planted):
    PLANTED[planted](tmp_path / MANIFEST_NAME)
    done: list = []
    reader = threading.Thread(target=lambda: done.append(read_manifest(tmp_path)), daemon=True)
    reader.start()
    reader.join(5)
    assert done and done[0] == {}, "read at once, as no manifest"


@pytest.mark.parametrize("planted", list(PLANTED), ids=list(PLANTED))
@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.slow
def test_a_planted_manifest_makes_a_cold_run_of_every_command(tmp_path, command, planted):
    out = tmp_path / "out"
    out.mkdir()
    (out / "user.txt").write_text("mine", encoding="utf-8")
    PLANTED[planted](out / MANIFEST_NAME)
    if planted == "a folder":  # then the manifest cannot be written: the outputs are whole, exit 1
        code, stdout, err = _run([*COMMANDS[command], "--out", out, "--force"])
        assert code == 1 and err.count("\n") == 1 and MANIFEST_NAME in err, err
        return
    code, stdout, err = _run([*COMMANDS[command], "--out", out, "--force"])
    assert code == 0 and err == "", err
    assert (out / "user.txt").read_text(encoding="utf-8") == "mine"
    assert read_manifest(out), "a new manifest written"


def test_the_manifest_records_the_bytes_the_run_wrote_not_those_on_disk_at_the_end(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    from netbenefit.io.writing import atomic_write_text

    with one_run(folder):
        atomic_write_text(folder / "a.csv", "written\n")
        (folder / "a.csv").write_text("changed by another program\n", encoding="utf-8")
    import hashlib

    recorded = read_manifest(folder)["a.csv"]["sha256"]
    assert recorded == hashlib.sha256(b"written\n").hexdigest()


def test_a_replaced_font_file_moves_the_style_digest(tmp_path, monkeypatch):
    from matplotlib import font_manager

    font = tmp_path / "Some.ttf"
    font.write_bytes(b"one font")
    entry = font_manager.FontEntry(fname=str(font), name="Some")
    monkeypatch.setattr(font_manager.fontManager, "ttflist", [*font_manager.fontManager.ttflist, entry])
    before, style = fonts_digest(), style_digest()
    font.write_bytes(b"another font, longer")
    assert fonts_digest() != before and style_digest() != style
