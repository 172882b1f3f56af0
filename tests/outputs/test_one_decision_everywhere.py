"""One decision, read everywhere: over the shapes an application takes and every consumer that sets
a ratio beside a threshold, the ratio shown is the result's ``ratio`` (the ratio of the test that
decides 71(a)(5)), and the test's own comparison of it with the threshold is the verdict shown beside
it. The whole project's ratio appears only under its own name.

Shapes: one phase; phased where the initial phase decides; where a middle cumulative test decides;
a tie between tests (the earliest decides); the extension deciding at 400%; an extension elected but
not counted at 300%; 200%; an override under 71(a)(5)(f); a stated commitment period the authority
did not set; a driver the phases share; ineligible for another reason; negative net benefits; year 0.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.analysis import max_award, montecarlo, sensitivity, sweep
from netbenefit.cli import main
from netbenefit.law.rules import meets_threshold

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def _stream(amount: float, years, name: str = "state taxes", kind: str = "revenue") -> dict:
    return {"name": name, "kind": kind, "by_year": {year: amount for year in years}}


def _phase(start: int, stream: float, credit: float = 100_000, **jobs) -> dict:
    return {
        "name": f"Phase from year {start}",
        "start_year": start,
        "jobs": {"new": 40, "nj_withholding_share": 1.0, **jobs},
        "award": {"annual_credit": credit},
        "streams": [_stream(stream, range(1, 11))],
    }


def _phased(phases: list[dict], initial: float, **changes) -> dict:
    """A project at a discount rate of 0, in a distressed municipality (300%), whose initial phase
    has $100,000 of credits a year for 7 years and ``initial`` of benefits a year in years 1..10."""
    return with_changes(
        base_scenario_dict(),
        {
            "name": "Phased",
            "location": {"qualified_incentive_area": True, "distressed_municipality": True},
            "streams": [_stream(initial, range(1, 11))],
            "phases": phases,
            **changes,
        },
    )


SHAPES = {
    "one phase": SCENARIOS / "office_hq_default_area.yaml",
    # phases 1: 1.8M / 0.7M = 257%; phases 1+2: 5.0M / 1.4M = 357%
    "initial phase decides": _phased([_phase(2, 320_000)], 180_000),
    # phases 1: 4.0M / 0.7M = 571%; 1+2: 4.1M / 1.4M = 293%; 1+2+3: 8.1M / 2.1M = 386%
    "middle test decides": _phased([_phase(2, 10_000), _phase(3, 400_000)], 400_000),
    # phases 1 and 1+2 both exactly 300% (2.1M / 0.7M, 4.2M / 1.4M): the earliest decides
    "a tie between tests": _phased([_phase(2, 210_000)], 210_000),
    "extension decides at 400%": SCENARIOS / "extended_commitment.yaml",
    "extension elected, not counted at 300%": SCENARIOS / "life_sciences_phased.yaml",
    "200%": SCENARIOS / "mega_project.yaml",
    "override under (f)": with_changes(base_scenario_dict(), {"name": "Override", "threshold_override": 3.5}),
    "stated period not set by the authority": with_changes(
        base_scenario_dict(), {"name": "Stated period", "commitment": {"period_years": 20}}
    ),
    "shared driver": "shared",
    "ineligible for another reason": with_changes(base_scenario_dict(), {"name": "Too few jobs", "jobs.new": 34}),
    "negative net benefits": with_changes(
        base_scenario_dict(),
        {
            "name": "Costs above benefits",
            "streams": [_stream(100_000, range(1, 12)), _stream(2_000_000, [1], "cost", "cost")],
        },
    ),
    "year 0": with_changes(base_scenario_dict(), {"name": "Year 0", "streams": [_stream(300_000, range(0, 12))]}),
}


def scenario_of(shape: str) -> netbenefit.Scenario:
    source = SHAPES[shape]
    if isinstance(source, Path):
        return netbenefit.load_scenario(source)
    if source == "shared":
        data = netbenefit.load_scenario(SCENARIOS / "life_sciences_phased.yaml").to_dict()
        for key in ("median_salary", "salary_growth"):
            data["phases"][0]["jobs"].pop(key, None)
        data["shared"] = ["jobs.median_salary"]
        data["name"] = "Shared salary"
        return netbenefit.Scenario.from_dict(data)
    return netbenefit.Scenario.from_dict(source)


@pytest.fixture(scope="module")
def results():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {shape: netbenefit.evaluate(scenario_of(shape)) for shape in SHAPES}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _agrees(ratio: float, threshold: float, passes: bool) -> bool:
    return bool(meets_threshold(ratio, threshold)) == bool(passes)


def test_the_shapes_are_what_they_say(results):
    initial = results["initial phase decides"]
    assert initial.deciding_phases == (1,) and initial.ratio < initial.threshold < initial.whole_project_ratio
    middle = results["middle test decides"]
    assert middle.deciding_phases == (1, 2) and not middle.passes
    assert middle.whole_project_ratio > middle.threshold and middle.phase_tests["ratio"].iloc[0] > middle.threshold
    tie = results["a tie between tests"]
    assert tie.phase_tests["ratio"].iloc[0] == tie.phase_tests["ratio"].iloc[1] and tie.deciding_phases == (1,)
    extension = results["extension decides at 400%"]
    assert extension.passes and not extension.passes_without_extension and extension.extension_decides
    counted_not = results["extension elected, not counted at 300%"]
    assert counted_not.extended_years > 0 and not counted_not.extension_counted and not counted_not.extension_decides
    assert results["200%"].threshold == 2.0
    assert results["override under (f)"].threshold_clause == "71(a)(5)(f)"
    assert (
        results["stated period not set by the authority"].ratio_as_given
        != results["stated period not set by the authority"].ratio
    )
    assert results["shared driver"].scenario.shared == ("jobs.median_salary",)
    other = results["ineligible for another reason"]
    assert other.passes and not other.eligible
    negative = results["negative net benefits"]
    assert negative.pv_benefits < 0 and negative.max_credit_pv == 0 and negative.max_credit_pv_note
    assert 0 in results["year 0"].cashflows.index


@pytest.mark.parametrize("shape", SHAPES)
def test_the_result_its_json_its_text_and_repr(shape, results):
    result = results[shape]
    record = result.deciding_test
    assert result.ratio == record.value and result.threshold == record.limit
    assert _agrees(result.ratio, result.threshold, result.passes)
    assert result.margin == pytest.approx(result.ratio - result.threshold, abs=1e-15)
    test = result.table_rows("phase_tests")[result.net_benefit_decision.deciding]
    assert result.ratio == pytest.approx(test.pv_benefits / test.pv_credits, rel=1e-12)
    assert result.whole_project_ratio == pytest.approx(result.pv_benefits / result.pv_credits, rel=1e-12)
    data = json.loads(result.to_json())["net_benefit"]
    assert data["ratio"] == result.ratio and data["passes"] == result.passes
    assert data["deciding_test"]["ratio"] == result.ratio
    assert data["deciding_test"]["pv_benefits"] / data["deciding_test"]["pv_credits"] == pytest.approx(data["ratio"])
    assert data["whole_project_ratio"] == pytest.approx(data["pv_benefits"] / data["pv_credits"])
    if result.extension_decides:
        assert not meets_threshold(result.ratio_without_extension, result.threshold)
    # The headline, the summary and repr: the first ratio beside the threshold is the record's.
    for text in (result.headline(), result.summary(), repr(result)):
        shown = re.search(r"(-?[\d,]+\.\d+)% vs ([\d.]+)% threshold \(71[^ ]*\): (passes|fails)", text)
        assert shown, text
        assert float(shown.group(1).replace(",", "")) == pytest.approx(100 * result.ratio, abs=0.051)
        assert (shown.group(3) == "passes") == result.passes
    if result.extension_decides:
        assert "passes only with the elected" in result.summary()


def test_compare_reads_the_record(results):
    table = netbenefit.compare(list(results.values()))
    for row, result in zip(table.itertuples(index=False), results.values(), strict=True):
        assert row.ratio == result.ratio and row.passes == result.passes and row.margin == result.margin
        assert row.whole_project_ratio == result.whole_project_ratio
        assert row.extension_decides == result.extension_decides
        assert _agrees(row.ratio, row.threshold, row.passes)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_analyses_read_the_record(shape, results):
    result = results[shape]
    scenario = result.scenario
    # sensitivity: its base is the result's ratio; each end agrees with its own verdict
    table = sensitivity(scenario, {"discount_rate": None})
    assert table["ratio_base"].iloc[0] == pytest.approx(result.ratio, rel=1e-12)
    # a sweep through the scenario's own rate gives the result's ratio; every row agrees with itself
    rates = [scenario.discount_rate, scenario.discount_rate + 0.01]
    swept = sweep(scenario, {"discount_rate": rates})
    assert swept["ratio"].iloc[0] == pytest.approx(result.ratio, rel=1e-12)
    assert swept["whole_project_ratio"].iloc[0] == pytest.approx(result.whole_project_ratio, rel=1e-12)
    for row in swept.itertuples(index=False):
        assert _agrees(row.ratio, row.threshold, row.passes)
    # every Monte Carlo draw agrees with its own verdict
    run = montecarlo(scenario, 300, {"discount_rate": ("uniform", 0.0, 0.09)}, seed=3, progress=False)
    draws = run.draws
    assert np.array_equal(meets_threshold(draws["ratio"], draws["threshold"]), draws["passes"].to_numpy())
    assert run.summary.probability_passes == pytest.approx(draws["passes"].mean())
    # the solver's largest award passes, and says the test that binds it
    solved = max_award(scenario)
    if solved.solved:
        assert "binding test" in solved.message


def test_the_economist_view_states_the_statutory_verdict(results):
    for result in results.values():
        table = netbenefit.economist_view_of(result, but_for_share=0.5)
        assert table.loc["statutory", "ratio"] == pytest.approx(result.ratio, rel=1e-12)
        assert bool(table.loc["statutory", "passes_threshold"]) == result.passes


def test_the_portfolio_reads_the_record(results):
    book = netbenefit.portfolio(list(results.values()))
    for row, result in zip(book.applications.itertuples(index=False), results.values(), strict=True):
        assert row.ratio == result.ratio and row.passes == result.passes
        assert row.whole_project_ratio == result.whole_project_ratio


def test_diff_attributes_the_deciding_ratio(results):
    a, b = results["initial phase decides"], results["middle test decides"]
    d = netbenefit.diff(a.scenario, b.scenario)
    assert (d.ratio_a, d.ratio_b) == (a.ratio, b.ratio)
    assert d.attribution["contribution"].sum() == pytest.approx(b.ratio - a.ratio)
    assert d.margin_attribution["contribution"].sum() == pytest.approx(b.margin - a.margin)
    assert "deciding test (the lowest" not in d.summary()


def test_first_year_the_test_is_met_is_the_deciding_tests(results):
    for result in results.values():
        cumulative, credits = result.deciding_test_cumulative_pv()
        assert cumulative[-1] / credits == pytest.approx(result.ratio, rel=1e-12)
        year = result.first_year_test_met
        assert (year is not None) == result.passes


@pytest.mark.slow
def test_the_command_line_prints_the_record(tmp_path, capsys):
    for shape in ("initial phase decides", "extension decides at 400%"):
        path = tmp_path / f"{shape.split()[0]}.yaml"
        scenario_of(shape).to_yaml(path)
        result = netbenefit.evaluate(path)
        assert main(["evaluate", str(path), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["net_benefit"]["ratio"] == result.ratio
        assert main(["compare", str(path), "--out", str(tmp_path / shape.split()[0]), "--charts", "none"]) == 0
        line = capsys.readouterr().out.splitlines()[0]
        assert f"{100 * result.ratio:.1f}%" in line and ("passes" if result.passes else "fails") in line
        if result.extension_decides:
            assert "passes only with the elected" in line


#: In the memo's words: every ratio set beside a threshold with its verdict ("259.1% vs 300%
#: (71(a)(5)(a)), fails"), and the opening sentence's "a net benefit ratio of 259.1% against a
#: threshold of 300%".
_BESIDE = re.compile(r"(-?[\d,]+\.\d)% vs ([\d.]+)% \(71[^,]*?\), (passes|fails)")
#: A comparison written as an inequality ("without it 321.0% < 400%, fails").
_INEQUALITY = re.compile(r"(-?[\d,]+\.\d)% ([<≥]|>=) ([\d.]+)%, (passes|fails)")
_OPENING = re.compile(r"a net benefit ratio of (-?[\d,]+\.\d)% against a threshold of ([\d.]+)%")


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("weasyprint") is None, reason="WeasyPrint is not installed (pdf)")
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed (poppler-utils)")
@pytest.mark.parametrize("shape", SHAPES)
def test_the_memo_reads_the_record(shape, results, tmp_path):
    """The memo printed and read back: its first page's ratio beside the threshold is the record's,
    each such comparison agrees with the verdict beside it, and the whole project's ratio appears
    only under its own name."""
    result = results[shape]
    path = result.to_pdf(tmp_path / "memo.pdf", date="2026-12-01")
    run = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    first = " ".join(run.stdout.split("\f")[0].split())
    opening = _OPENING.search(first)
    assert opening, first[:600]
    assert float(opening.group(1).replace(",", "")) == pytest.approx(100 * result.ratio, abs=0.051)
    assert float(opening.group(2)) == pytest.approx(100 * result.threshold)
    shown = _BESIDE.findall(first)
    assert shown, first[:600]
    assert float(shown[0][0].replace(",", "")) == pytest.approx(100 * result.ratio, abs=0.051)
    assert (shown[0][2] == "passes") == result.passes
    for value, threshold, verdict in shown:
        assert _agrees(float(value.replace(",", "")) / 100, float(threshold) / 100, verdict == "passes")
    for value, relation, threshold, verdict in _INEQUALITY.findall(first):
        ratio, limit = float(value.replace(",", "")) / 100, float(threshold) / 100
        assert (relation == "<") == (not meets_threshold(ratio, limit)) == (verdict == "fails")
    if result.extension_decides:
        assert f"without it {100 * result.ratio_without_extension:,.1f}%" in first
    whole = f"{100 * result.whole_project_ratio:,.1f}%"
    if result.deciding_phases and len(result.phase_tests) > 1 and whole != f"{100 * result.ratio:,.1f}%":
        assert f"whole project's ratio {whole}" in first
        assert all(value + "%" != whole for value, _, _ in shown)
