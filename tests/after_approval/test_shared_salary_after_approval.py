"""A salary the phases share (``shared``) after approval: salaries reported for the project set the
shared key once, fitted to the project's reported median; salaries reported by phase set each
phase's salary and the re-run says it unshared the key. ``follow``, ``actuals``, ``report --actuals``
and ``to_pdf(actuals=)`` run on such a file and give the results of the same file with the salaries
written out; no error names a key the file does not hold."""

import copy
import json
import re
from pathlib import Path

import pytest
import yaml

import netbenefit
from netbenefit.cli import main
from netbenefit.model.after_approval import follow

ROOT = Path(__file__).resolve().parents[2]
CAMPUS = ROOT / "scenarios" / "life_sciences_phased.yaml"
GROWTH = 0.03  # the reported salaries of the geometric files grow at this rate


def campus_files(folder: Path) -> tuple[Path, Path]:
    """The bundled campus with a salary the phases share, and the same file with the salaries written
    out (the values the shared key gives each phase)."""
    data = yaml.safe_load(CAMPUS.read_text(encoding="utf-8"))
    data["phases"][0]["jobs"].pop("median_salary")
    data["phases"][0]["jobs"].pop("salary_growth")
    shared = {**copy.deepcopy(data), "shared": ["jobs.median_salary"]}
    written = copy.deepcopy(data)
    start = written["phases"][0]["start_year"]
    jobs = written["jobs"]
    written["phases"][0]["jobs"]["median_salary"] = jobs["median_salary"] * (1 + jobs["salary_growth"]) ** start
    written["phases"][0]["jobs"]["salary_growth"] = jobs["salary_growth"]
    paths = folder / "shared.yaml", folder / "written.yaml"
    for path, content in zip(paths, (shared, written), strict=True):
        path.write_text(yaml.safe_dump(content, sort_keys=False), encoding="utf-8")
    return paths


def actuals_file(folder: Path, *, by_phase: bool, geometric: bool = True) -> Path:
    rows = []
    for year in range(1, 7):
        salary = (
            110000.0 * (1 + GROWTH) ** (year - 1)
            if geometric
            else [110000, 114000, 113000, 119500, 121000, 126000][year - 1]
        )
        common = {"year": year, "statewide_workforce": 300.0}
        if not by_phase:
            rows.append({**common, "new_jobs": 20.0 * year, "retained_jobs": 40.0, "median_salary": float(salary)})
            continue
        rows.append(
            {**common, "phase": 1, "new_jobs": 20.0 * year, "retained_jobs": 40.0, "median_salary": float(salary)}
        )
        if year >= 5:
            rows.append({**common, "phase": 2, "new_jobs": 30.0, "median_salary": float(salary) + 4000.0})
    path = folder / f"actuals_{'phase' if by_phase else 'totals'}_{'geo' if geometric else 'odd'}.yaml"
    data = {"name": "reported", "workforce_before_approval": 260.0, "maintained_through_year": 6, "years": rows}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def same_results(a, b, rel=1e-9):
    assert a.phase_years.to_numpy() == pytest.approx(b.phase_years.to_numpy(), rel=rel, nan_ok=True)
    assert a.rerun_tests["ratio"].tolist() == pytest.approx(b.rerun_tests["ratio"].tolist(), rel=rel)
    assert a.rerun_ratio == pytest.approx(b.rerun_ratio, rel=rel)
    assert (a.recapture, a.certified_credits) == pytest.approx((b.recapture, b.certified_credits), rel=rel)
    assert a.actual.pv_benefits == pytest.approx(b.actual.pv_benefits, rel=rel)


def test_salaries_reported_for_the_project_set_the_shared_key_once(tmp_path):
    shared, written = campus_files(tmp_path)
    facts = actuals_file(tmp_path, by_phase=False)
    a, b = follow(shared, facts), follow(written, facts)
    same_results(a, b)
    rerun = a.actual_scenario
    assert rerun.shared == ("jobs.median_salary",)  # still shared: set once
    assert rerun.jobs.median_salary == pytest.approx(110000.0) and rerun.jobs.salary_growth == pytest.approx(GROWTH)
    assert not any("no longer shared" in line for line in a.warnings)


def test_the_shared_key_is_fitted_to_the_projects_reported_median(tmp_path):
    shared, _ = campus_files(tmp_path)
    after = follow(shared, actuals_file(tmp_path, by_phase=False, geometric=False))
    rerun = after.actual_scenario
    growth = (126000 / 110000) ** (1 / 5) - 1  # the project's median: first reported, grown to the last
    assert (rerun.jobs.median_salary, rerun.jobs.salary_growth) == pytest.approx((110000.0, growth))
    start = rerun.phases[0].start_year
    assert rerun.phases[0].jobs.median_salary == pytest.approx(110000.0 * (1 + growth) ** start)


@pytest.mark.parametrize("geometric", [True, False])
def test_salaries_reported_by_phase_set_each_phase_and_unshare_the_key(tmp_path, geometric):
    shared, written = campus_files(tmp_path)
    facts = actuals_file(tmp_path, by_phase=True, geometric=geometric)
    a, b = follow(shared, facts), follow(written, facts)
    same_results(a, b, rel=1e-12)
    assert a.actual_scenario.shared == ()
    assert a.actual_scenario.phases[0].jobs.median_salary == pytest.approx(
        b.actual_scenario.phases[0].jobs.median_salary
    )
    [line] = [line for line in a.warnings if "no longer shared" in line]
    assert "Every phase: Median salary (jobs.median_salary)" in line and "phases.0" not in line
    assert not any("no longer shared" in line for line in b.warnings)


def test_a_shared_growth_alone_is_set_once_from_the_project(tmp_path):
    data = yaml.safe_load(CAMPUS.read_text(encoding="utf-8"))
    data["phases"][0]["jobs"].pop("salary_growth")
    data["shared"] = ["jobs.salary_growth"]
    path = tmp_path / "growth.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    after = follow(path, actuals_file(tmp_path, by_phase=False))
    rerun = after.actual_scenario
    assert rerun.shared == ("jobs.salary_growth",) and rerun.jobs.salary_growth == pytest.approx(GROWTH)
    assert rerun.phases[0].jobs.salary_growth == pytest.approx(GROWTH)
    assert "phases.0" not in json.dumps(after.to_dict()["warnings"])


@pytest.mark.parametrize("by_phase", [False, True])
def test_actuals_json_of_a_shared_file_equals_the_written_out_file(tmp_path, capsys, by_phase):
    shared, written = campus_files(tmp_path)
    facts = actuals_file(tmp_path, by_phase=by_phase)
    outputs = []
    for path in (shared, written):
        assert main(["actuals", str(path), str(facts), "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    a, b = outputs
    assert a["rerun"]["ratio"] == pytest.approx(b["rerun"]["ratio"], rel=1e-9)
    assert [row["certified_credit"] for row in a["years"]] == pytest.approx(
        [row["certified_credit"] for row in b["years"]]
    )
    assert main(["actuals", str(shared), str(facts)]) == 0
    out = capsys.readouterr()
    assert "phases.0" not in out.out + out.err and "Traceback" not in out.err


def _text(html: str) -> str:
    """The memo's words, without its embedded images."""
    return re.sub(r"<[^>]+>", " ", re.sub(r'src="data:image/png;base64,[^"]*"', "", html))


@pytest.mark.slow
def test_the_memo_of_a_shared_file_equals_the_written_out_file(tmp_path):
    from netbenefit.views.html.memo import memo_html

    shared, written = campus_files(tmp_path)
    facts = actuals_file(tmp_path, by_phase=False)
    pages = [memo_html(netbenefit.evaluate(path), actuals=facts, date="2026-12-07") for path in (shared, written)]
    section = [_text(page.split('class="memo-page actuals"')[1].split("</section>")[0]) for page in pages]
    assert section[0] == section[1]
    pdf = netbenefit.evaluate(shared).to_pdf(tmp_path / "memo.pdf", actuals=facts, date="2026-12-07")
    assert pdf.stat().st_size > 0
    assert main(["report", str(shared), "--pdf", "--actuals", str(facts), "--out", str(tmp_path / "r.pdf")]) == 0
    assert (tmp_path / "r.pdf").stat().st_size > 0
