"""Three answers that agree (docs/workbook.md, "The round trip"): over the shapes of an application
(one phase, phased, shared drivers, an extended commitment, streams from CSV, year 0, a multiplier
table), input cells of each kind are edited (a whole number of jobs, a salary, a share, an award, a
year's capital investment, a location flag, a later phase's start, and all of them at once),
LibreOffice headless recomputes and saves each workbook, and the workbook read back evaluates to
the workbook's own recomputed ratio, passes, PVs, margin and largest credit, and to ``evaluate`` of
the same edits made with ``Scenario.replace``, to 1e-9 relative. Skipped where ``soffice`` is not
installed."""

from __future__ import annotations

import warnings

import openpyxl
import pytest
from workbook_engines import deciding_ratio, libreoffice_recomputed, name_target, set_inputs, soffice
from workbook_shapes import SHAPES

import netbenefit
from netbenefit.model.scenario.from_workbook import OverwrittenFormulaWarning

RELATIVE_TOLERANCE = 1e-9
NAMES = ("ratio", "pv_benefits", "pv_credits", "passes", "margin", "max_credit_pv")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        soffice() is None,
        reason="LibreOffice (soffice) is not installed: apt-get install -y libreoffice-calc-nogui",
    ),
]


def edits_of(scenario) -> dict[str, dict]:
    """kind -> {dotted key: new value}: one edit of each kind, and all of them together."""
    year = sorted(scenario.capital_investment)[0]
    edits = {
        "jobs": {"jobs.new": float(round(scenario.jobs.new * 1.2))},
        "salary": {"jobs.median_salary": round((scenario.jobs.median_salary or 60_000.0) * 1.1, 2)},
        "share": ({"revenue.taxable_spending_share": 0.41} if scenario.revenue else {"jobs.nj_withholding_share": 0.9}),
        "award": {"award.annual_credit": round(scenario.award.annual_credit * 0.8, 2)},
        "capital investment": {f"capital_investment.{year}": scenario.capital_investment[year] * 1.3},
        "location": {"location.mega_project": not scenario.location.mega_project},
    }
    if scenario.phases:
        edits["phase start"] = {"phases.0.start_year": scenario.phases[0].start_year - 1}
    edits["all at once"] = {key: value for edit in edits.values() for key, value in edit.items()}
    return edits


def target(key: str):
    """The cell an edit is typed into: a named cell, or (row name, year) of a list by year."""
    if key.startswith("capital_investment."):
        return ("capital_investment_by_year", int(key.split(".")[1]))
    return key.replace(".", "_")


def test_an_edited_workbook_read_back_evaluates_to_its_own_figures_and_to_replace(tmp_path):
    typed, expected = [], []
    for number, (shape, build) in enumerate(sorted(SHAPES.items())):
        scenario = build()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = netbenefit.evaluate(scenario)
        path = result.to_excel(tmp_path / f"shape{number}.xlsx")
        for k, (kind, changes) in enumerate(edits_of(scenario).items()):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                variant = netbenefit.evaluate(scenario.replace(changes))
            # the edits stay within the workbook's year rows (else it shows #N/A, docs/workbook.md)
            assert variant.computation.years[-1] <= result.computation.years[-1], (shape, kind)
            edited = {target(key): value for key, value in changes.items()}
            typed.append(set_inputs(path, edited, tmp_path / f"shape{number}_edit{k}.xlsx"))
            expected.append((shape, kind, changes, result, variant))
    saved = libreoffice_recomputed(typed, tmp_path / "saved")
    problems, moved = [], 0
    for path, (shape, kind, _, result, variant) in zip(saved, expected, strict=True):
        where = f"{shape}, {kind}"
        with warnings.catch_warnings():
            warnings.simplefilter("error", OverwrittenFormulaWarning)  # LibreOffice typed over nothing
            warnings.filterwarnings("ignore", category=netbenefit.PlausibilityWarning)
            back = netbenefit.Scenario.from_excel(path)
            read = netbenefit.evaluate(back)
        if back.to_dict() != {**variant.scenario.to_dict(), "name": back.name}:
            problems.append(f"{where}: the scenario read back is not the one replace() gives")
        book = openpyxl.load_workbook(path, data_only=True)
        shown = {}
        for name in NAMES:
            sheet, cell = name_target(path, name)
            shown[name] = book[sheet][cell].value
        figures = {
            "ratio": deciding_ratio(read),
            "pv_benefits": read.pv_benefits,
            "pv_credits": read.pv_credits,
            "margin": deciding_ratio(read) - read.threshold,
            "max_credit_pv": read.max_credit_pv,
        }
        for name, want in figures.items():
            got = shown[name]
            scale = max(abs(want), 1.0) if name != "margin" else max(abs(deciding_ratio(read)), 1.0)
            if name == "max_credit_pv":
                scale = max(scale, read.pv_credits * max(1.0, abs(deciding_ratio(read))) / read.threshold)
            if not isinstance(got, int | float) or abs(got - want) > RELATIVE_TOLERANCE * scale:
                problems.append(f"{where}: {name} {got!r} in the workbook, {want!r} read back")
            other = deciding_ratio(variant) if name == "ratio" else None
            if other is not None and abs(other - want) > RELATIVE_TOLERANCE * scale:
                problems.append(f"{where}: ratio {want!r} read back, {other!r} by replace()")
        if bool(shown["passes"]) is not read.passes or read.passes is not variant.passes:
            problems.append(f"{where}: passes {shown['passes']!r}, read back {read.passes}, replace() {variant.passes}")
        for name in ("pv_benefits", "pv_credits"):
            if abs(getattr(read, name) - getattr(variant, name)) > RELATIVE_TOLERANCE * abs(getattr(variant, name)):
                problems.append(
                    f"{where}: {name} read back {getattr(read, name)!r}, replace() {getattr(variant, name)!r}"
                )
        moved += abs(deciding_ratio(variant) - deciding_ratio(result)) > 1e-6 * abs(deciding_ratio(result))
    assert not problems, "\n".join(problems)
    assert moved >= len(expected) * 2 // 3, moved  # the edits moved the answer: a reader ignoring them fails


def test_a_workbook_saved_by_libreoffice_unedited_reads_back_as_written(tmp_path):
    scenarios = [build() for _, build in sorted(SHAPES.items())]
    paths = []
    for k, scenario in enumerate(scenarios):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            paths.append(netbenefit.evaluate(scenario).to_excel(tmp_path / f"shape{k}.xlsx"))
    for scenario, path in zip(scenarios, libreoffice_recomputed(paths, tmp_path / "saved"), strict=True):
        with warnings.catch_warnings():
            warnings.simplefilter("error", OverwrittenFormulaWarning)
            assert netbenefit.Scenario.from_excel(path).to_dict() == scenario.to_dict(), scenario.name
