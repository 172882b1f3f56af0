"""Charts that are not drawn again: ``compare`` keeps a chart whose inputs (the digest of what drew
it) and file (the digest of its bytes) are unchanged since the previous run into the folder; the
folder is then byte for byte the one a cold run writes."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import matplotlib
import pytest

import netbenefit
from netbenefit import cli
from netbenefit.io.run_folder import LOCK_NAME, MANIFEST_NAME, one_run
from netbenefit.views.chart_keys import result_digest, style_digest
from netbenefit.views.result_files import write_comparison

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
NAMES = ("party_city", "office_hq_default_area", "phased_campus")


def run(*argv) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(arg) for arg in argv])
    assert err.getvalue() == ""
    return code, out.getvalue()


def contents(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != LOCK_NAME
    }


def kept(stdout: str) -> int:
    found = re.search(r"\((\d+) chart files unchanged, kept\)", stdout)
    return int(found.group(1)) if found else 0


@pytest.fixture
def files(tmp_path):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    paths = []
    for name in NAMES:
        shutil.copy(SCENARIOS / f"{name}.yaml", folder / f"{name}.yaml")
        paths.append(folder / f"{name}.yaml")
    return paths


def edit_new_jobs(path: Path, new: int) -> None:
    text, count = re.subn(r"(?m)^(  new: )\d+", rf"\g<1>{new}", path.read_text())
    assert count == 1, "the scenario's jobs.new line"
    path.write_text(text)


def charts_of(folder: Path, stem: str) -> list[str]:
    return sorted(path.name for path in (folder / "charts" / stem).glob("*.png"))


@pytest.mark.slow
def test_a_rerun_after_one_edit_draws_only_that_scenario_s_charts_and_is_a_cold_run_byte_for_byte(tmp_path, files):
    out, cold = tmp_path / "out", tmp_path / "cold"
    assert run("compare", *files, "--out", out)[0] == 0
    first = contents(out)
    edited = files[1]  # office_hq_default_area: its benefits grow with its new jobs
    edit_new_jobs(edited, 300)
    code, stdout = run("compare", *files, "--out", out, "--force")
    assert code == 0
    # every chart of the other scenarios is kept; the edited one's and the comparison are drawn
    others = sum(len(charts_of(out, path.stem)) for path in files if path != edited)
    assert kept(stdout) == others > 0
    assert run("compare", *files, "--out", cold)[0] == 0
    rerun = contents(out)
    assert rerun == contents(cold)  # the manifest included
    chart = f"charts/{edited.stem}/cumulative_pv.png"
    assert rerun[chart] != first[chart]
    assert rerun["charts/comparison_ratios.png"] != first["charts/comparison_ratios.png"]


@pytest.mark.slow
def test_a_rerun_with_nothing_changed_keeps_every_chart_and_no_cache_draws_them_all(tmp_path, files):
    out = tmp_path / "out"
    assert run("compare", *files, "--out", out)[0] == 0
    first = contents(out)
    charts = sum(1 for name in first if name.startswith("charts/"))
    code, stdout = run("compare", *files, "--out", out, "--force")
    assert (code, kept(stdout)) == (0, charts)
    code, stdout = run("compare", *files, "--out", out, "--force", "--no-cache")
    assert (code, kept(stdout)) == (0, 0)
    assert contents(out) == first


@pytest.mark.slow
def test_a_chart_file_changed_or_removed_since_is_drawn_again(tmp_path, files):
    out = tmp_path / "out"
    assert run("compare", *files, "--out", out)[0] == 0
    first = contents(out)
    (out / "charts" / "party_city" / "scorecard.png").write_bytes(b"edited by hand")
    (out / "charts" / "phased_campus" / "cumulative_pv.png").unlink()
    code, stdout = run("compare", *files, "--out", out, "--force")
    assert (code, kept(stdout)) == (0, sum(1 for name in first if name.startswith("charts/")) - 2)
    assert contents(out) == first


@pytest.mark.slow
def test_an_svg_asked_for_draws_the_chart_again_in_both_formats_and_a_stale_chart_is_removed(tmp_path, files):
    out, cold = tmp_path / "out", tmp_path / "cold"
    assert run("compare", *files, "--out", out)[0] == 0
    code, stdout = run("compare", *files[:2], "--out", out, "--force", "--svg")  # one scenario less
    assert (code, kept(stdout)) == (0, 0)
    assert not (out / "charts" / files[2].stem).exists()
    assert run("compare", *files[:2], "--out", cold, "--svg")[0] == 0
    assert contents(out) == contents(cold)


@pytest.mark.slow
def test_a_manifest_records_the_digest_of_what_drew_each_chart(tmp_path, files):
    out = tmp_path / "out"
    assert run("compare", *files, "--out", out)[0] == 0
    entries = json.loads((out / MANIFEST_NAME).read_text())["files"]
    charts = {name for name in entries if name.startswith("charts/")}
    assert charts and all(len(entries[name]["drawn_from"]) == 64 for name in charts)
    assert not [name for name in entries if name not in charts and "drawn_from" in entries[name]]
    assert len({entries[name]["drawn_from"] for name in charts}) == len(charts)  # the file name is in it


@pytest.mark.slow
def test_a_cold_run_records_the_digests_whether_its_charts_are_drawn_in_this_process_or_in_workers(tmp_path, files):
    """A run that can keep no chart takes the digests while the workers draw, not before: the
    manifest is the same as when the charts are drawn in this process, every chart with its digest."""
    results = [netbenefit.evaluate(path) for path in files]
    manifests = []
    for workers in (1, 2):
        out = tmp_path / f"out-{workers}"
        out.mkdir()
        with one_run(out) as this_run:
            this_run.wrote(write_comparison(results, out, workers=workers))
        manifests.append(json.loads((out / MANIFEST_NAME).read_text()))
    charts = [entry for name, entry in manifests[0]["files"].items() if name.startswith("charts/")]
    assert charts and all(len(entry["drawn_from"]) == 64 for entry in charts)
    assert manifests[0] == manifests[1]


def test_the_digest_of_a_result_moves_with_any_input_and_not_with_the_tables_read():
    scenario = netbenefit.load_scenario(SCENARIOS / "party_city.yaml")
    first, again = netbenefit.evaluate(scenario), netbenefit.evaluate(scenario)
    assert first.streams is not None and first.cashflows is not None  # tables built on one result only
    assert result_digest(first) == result_digest(again)
    assert result_digest(netbenefit.evaluate(scenario.replace({"jobs.new": 358}))) != result_digest(first)
    assert result_digest(netbenefit.evaluate(scenario.replace({"name": "Another name"}))) != result_digest(first)


def test_the_digest_of_the_style_moves_with_rc_params():
    before = style_digest()
    with matplotlib.rc_context({"font.size": matplotlib.rcParams["font.size"] + 1}):
        assert style_digest() != before
    assert style_digest() == before
