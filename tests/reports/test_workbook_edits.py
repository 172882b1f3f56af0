"""An Excel user's edits recompute to netbenefit's answer: for every bundled scenario, random edits
of each kind of input (a whole number of jobs, a salary, a share, an award, a year's capital
investment, a location flag) are typed into the named input cells of its workbook, LibreOffice
headless recomputes it, and the ratio, the PVs and the test's verdict are those `evaluate` gives
for the scenario with that value (``scenario.replace``), to 1e-9 relative. Skipped where
``soffice`` is not installed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from workbook_engines import libreoffice_values_of, set_inputs, soffice

import netbenefit

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
STEMS = sorted(path.stem for path in SCENARIOS.glob("*.yaml"))
#: How far a recomputed figure may be from evaluate's, relative.
RELATIVE_TOLERANCE = 1e-9
#: The location flags an edit toggles (each decides the threshold, 71(a)(5)).
#: The checks whose rule is a formula of the input cells (the Checks sheet's Passed cell).
FORMULA_CHECKS = ("71(a)(1)", "71(a)(2)", "71(a)(5)", "71(d)")
LOCATION_FLAGS = ("distressed_municipality", "enhanced_area", "government_restricted_municipality", "mega_project")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        soffice() is None,
        reason="LibreOffice (soffice) is not installed: apt-get install -y libreoffice-calc-nogui",
    ),
]


def edits_of(scenario, rng: random.Random) -> list[tuple[str, str, object]]:
    """(kind, dotted key, new value) of one random edit of each kind of input."""
    edits = [("jobs", "jobs.new", max(1, round(scenario.jobs.new * rng.uniform(0.6, 1.4)) or rng.randint(30, 300)))]
    salary = scenario.jobs.median_salary or 60_000.0  # (a scenario without revenue drivers may give none)
    edits.append(("salary", "jobs.median_salary", round(salary * rng.uniform(0.7, 1.3), 2)))
    shares = ["jobs.nj_withholding_share"] + (["revenue.taxable_spending_share"] if scenario.revenue else [])
    edits.append(("share", rng.choice(shares), round(rng.uniform(0.2, 1.0), 4)))
    award = scenario.award
    if award.annual_credit is not None:
        edits.append(("award", "award.annual_credit", round(award.annual_credit * rng.uniform(0.6, 1.4), 2)))
    elif award.section_75 is None:
        edits.append(("award", "award.per_new_job", round(rng.uniform(1000, 8000), 2)))
    else:
        edits.append(("award", "award.section_75.bonuses.0.per_job", round(rng.uniform(0, 2000), 2)))
    years = sorted(scenario.capital_investment) or [1]
    year = rng.choice(years)
    amount = scenario.capital_investment.get(year, 0.0) or 5_000_000.0
    edits.append(("capital investment", f"capital_investment.{year}", round(amount * rng.uniform(0.5, 1.5), 2)))
    flag = rng.choice(LOCATION_FLAGS)
    edits.append(("location", f"location.{flag}", not bool(getattr(scenario.location, flag))))
    return edits


def workbook_target(key: str):
    """The cell an edit of ``key`` is typed into: a named cell, or (row name, year) of a list by year."""
    if key.startswith("capital_investment."):
        return ("capital_investment_by_year", int(key.split(".")[1]))
    return key.replace(".", "_")


@pytest.mark.parametrize("stem", STEMS)
def test_edits_of_every_kind_of_input_recompute_to_evaluate(stem, tmp_path):
    result = netbenefit.evaluate(SCENARIOS / f"{stem}.yaml")
    path = result.to_excel(tmp_path / f"{stem}.xlsx")
    rng = random.Random(f"workbook edits {stem}")
    edits = edits_of(result.scenario, rng)
    paths, expected = [], []
    for k, (kind, key, value) in enumerate(edits):
        paths.append(set_inputs(path, {workbook_target(key): value}, tmp_path / f"{stem}_{k}.xlsx"))
        expected.append((kind, key, value, netbenefit.evaluate(result.scenario.replace({key: value}))))
    checks = [check.id for check in result.table_rows("checks")]
    rows = {f"Checks!B{row}": check for row, check in enumerate(checks, start=2) if check in FORMULA_CHECKS}
    shown = libreoffice_values_of(paths, ["ratio", "pv_benefits", "pv_credits", "passes", *rows])
    problems = []
    for values, (kind, key, value, variant) in zip(shown, expected, strict=True):
        for name in ("ratio", "pv_benefits", "pv_credits"):
            want, got = float(getattr(variant, name)), values[name]
            if not isinstance(got, int | float) or abs(got - want) > RELATIVE_TOLERANCE * max(abs(want), 1e-300):
                problems.append(f"{kind} {key}={value!r}: {name} {got!r}, evaluate {want!r}")
        if bool(values["passes"]) is not bool(variant.passes):
            problems.append(f"{kind} {key}={value!r}: passes {values['passes']!r}, evaluate {variant.passes}")
        for cell, check in rows.items():
            if bool(values[cell]) is not bool(variant.check(check)):
                problems.append(
                    f"{kind} {key}={value!r}: check {check} {values[cell]!r}, evaluate {variant.check(check)}"
                )
    assert not problems, "\n".join(problems)
    # the edits moved netbenefit's answer (so that a workbook ignoring them would fail above)
    moved = [key for _, key, _, variant in expected if abs(variant.ratio - result.ratio) > 1e-6 * abs(result.ratio)]
    assert len(moved) >= 2, moved
