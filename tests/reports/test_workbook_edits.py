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
from workbook_engines import libreoffice_values_of, result_figure, set_inputs, soffice

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
    taxes = {f"'Benefits by tax'!C{row}": row - 2 for row in range(2, 2 + len(result.benefits_by_tax))}
    shown = libreoffice_values_of(paths, ["ratio", "pv_benefits", "pv_credits", "passes", "threshold", *rows, *taxes])
    problems = []
    for values, (kind, key, value, variant) in zip(shown, expected, strict=True):
        if abs(values["threshold"] - variant.threshold) > RELATIVE_TOLERANCE * variant.threshold:
            problems.append(f"{kind} {key}={value!r}: threshold {values['threshold']!r}, evaluate {variant.threshold}")
        for cell, k in taxes.items():  # the PV of the counted benefits of each tax
            want = float(variant.benefits_by_tax["pv"].iloc[k])
            if abs(values[cell] - want) > RELATIVE_TOLERANCE * max(abs(want), 1.0):
                problems.append(f"{kind} {key}={value!r}: {cell} {values[cell]!r}, evaluate {want!r}")
        for name in ("ratio", "pv_benefits", "pv_credits"):
            want, got = result_figure(variant, name), values[name]
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
    moved = [
        key
        for _, key, _, variant in expected
        if abs(variant.ratio - result.ratio) > 1e-6 * abs(result.ratio) or variant.threshold != result.threshold
    ]
    assert len(moved) >= 2, moved


#: Edits of the other inputs the formulas read, on the scenarios that use them: (stem, {key: value}).
#: A list item is typed into its named row: ``jobs.ramp.0`` is the first cell of ``jobs_ramp``.
MORE_EDITS = (
    ("office_hq_default_area", {"jobs.salary_growth": 0.045}),
    ("office_hq_default_area", {"inflation": 0.035}),
    ("office_hq_default_area", {"revenue.earnings_multiplier": 1.9}),
    ("office_hq_default_area", {"revenue.construction_labor_share": 0.55}),
    ("office_hq_default_area", {"revenue.sales_and_use_tax_rate": 0.07}),
    ("office_hq_default_area", {"award.eligibility_period_years": 5}),
    ("office_hq_default_area", {"award.first_credit_year": 2}),
    ("office_hq_default_area", {"commitment.period_years": 9.25, "commitment.period_set_by_authority": True}),
    ("office_hq_default_area", {"threshold_override": 5.5}),
    ("office_hq_default_area", {"jobs.ramp.0": 0.25}),
    ("office_hq_default_area", {"revenue.corporate_business_tax": 900000.0}),
    ("extended_commitment", {"commitment.extended_years": 2}),
    ("phased_campus", {"phases.0.jobs.new": 90}),
    ("phased_campus", {"phases.0.award.annual_credit": 300000.0}),
    ("phased_campus", {"phases.0.jobs.median_salary": 120000.0}),
    ("party_city", {"streams.0.by_year.3": 2500000.0}),
    ("party_city_estimate", {"revenue.income_tax.wage_dispersion": 0.8}),
    (
        "party_city_estimate",
        {"revenue.income_tax.filing_status.single": 0.8, "revenue.income_tax.filing_status.married_joint": 0.2},
    ),
    ("party_city_estimate", {"revenue.income_tax.dependents_per_return": 1.0}),
    ("party_city_estimate", {"revenue.index_brackets": True}),
    ("award_calculator", {"award.section_75.labor_harmony": False}),
    ("award_calculator", {"award.section_75.cap_per_job": 4000.0}),
    ("retained_jobs_71c1e", {"jobs.retained": 480}),
    ("retained_jobs_71c1e", {"award.per_retained_job": 2000.0}),
    ("small_business", {"business.small_business": False}),
    ("party_city_estimate", {"revenue.income_tax.property_tax_deduction": 12000.0}),
    ("office_hq_default_area", {"facility.accommodates_share": 0.45}),
    ("office_hq_default_area", {"revenue.income_tax_effective_rate": 0.065}),
    ("industry_multipliers_example", {"business.naics": "541"}),  # another row of the multiplier table
)


def _more_target(key: str):
    for row, name in (("jobs.ramp.", "jobs_ramp"), ("streams.0.by_year.", "streams_0_by_year")):
        if key.startswith(row):
            return (name, int(key[len(row) :]))
    return key.replace(".", "_")


def test_edits_of_the_other_inputs_recompute_to_evaluate(tmp_path):
    paths, expected = [], []
    for k, (stem, changes) in enumerate(MORE_EDITS):
        result = netbenefit.evaluate(SCENARIOS / f"{stem}.yaml")
        path = result.to_excel(tmp_path / f"{stem}_{k}_base.xlsx")
        typed = {_more_target(key): value for key, value in changes.items()}
        paths.append(set_inputs(path, typed, tmp_path / f"{stem}_{k}.xlsx"))
        variant = netbenefit.evaluate(result.scenario.replace(changes))
        key, value = ", ".join(changes), ", ".join(map(repr, changes.values()))
        moved = [c for c in FORMULA_CHECKS if variant.check(c) != result.check(c)]
        assert abs(variant.ratio - result.ratio) > 1e-6 * abs(result.ratio) or variant.passes != result.passes or moved
        beyond = variant.computation.years[-1] > result.computation.years[-1]  # needs more year rows
        expected.append((stem, key, value, variant, beyond))
    checks = [check.id for check in expected[0][3].table_rows("checks")]
    assert all([check.id for check in e[3].table_rows("checks")] == checks for e in expected)
    assert sum(e[4] for e in expected) == 1  # the later first credit year
    rows = {f"Checks!B{row}": check for row, check in enumerate(checks, start=2) if check in FORMULA_CHECKS}
    shown = libreoffice_values_of(paths, ["ratio", "pv_benefits", "pv_credits", "passes", *rows])
    problems = []
    for values, (stem, key, value, variant, beyond) in zip(shown, expected, strict=True):
        if beyond:  # the workbook refuses to show a ratio its rows cannot hold
            if (values["ratio"], values["passes"]) != ("#N/A", "#N/A"):
                problems.append(
                    f"{stem} {key}={value}: needs more rows, shows {values['ratio']!r}, {values['passes']!r}"
                )
            continue
        for name in ("ratio", "pv_benefits", "pv_credits"):
            want, got = result_figure(variant, name), values[name]
            if not isinstance(got, int | float) or abs(got - want) > RELATIVE_TOLERANCE * max(abs(want), 1e-300):
                problems.append(f"{stem} {key}={value!r}: {name} {got!r}, evaluate {want!r}")
        if bool(values["passes"]) is not bool(variant.passes):
            problems.append(f"{stem} {key}={value!r}: passes {values['passes']!r}, evaluate {variant.passes}")
        for cell, check in rows.items():
            if bool(values[cell]) is not bool(variant.check(check)):
                problems.append(
                    f"{stem} {key}={value}: check {check} {values[cell]!r}, evaluate {variant.check(check)}"
                )
    assert not problems, "\n".join(problems)


def test_a_comparison_workbook_is_driven_by_each_scenarios_suffixed_cells(tmp_path):
    from netbenefit.views.html import Comparison

    comparison = Comparison.of([SCENARIOS / "office_hq_default_area.yaml", SCENARIOS / "phased_campus.yaml"])
    path = comparison.to_excel(tmp_path / "comparison.xlsx")
    first, second = comparison.results
    year = sorted(first.scenario.capital_investment)[0]
    typed = {"jobs_new_2": 420, ("capital_investment_by_year_1", year): 9_000_000.0, "phases_0_jobs_new_2": 80}
    changed = set_inputs(path, typed, tmp_path / "changed.xlsx")
    ((shown),) = libreoffice_values_of([changed], ["ratio_1", "ratio_2", "passes_2"])
    expected_1 = netbenefit.evaluate(first.scenario.replace({f"capital_investment.{year}": 9_000_000.0}))
    expected_2 = netbenefit.evaluate(second.scenario.replace({"jobs.new": 420, "phases.0.jobs.new": 80}))
    assert abs(shown["ratio_1"] - expected_1.ratio) <= RELATIVE_TOLERANCE * expected_1.ratio
    assert abs(shown["ratio_2"] - expected_2.ratio) <= RELATIVE_TOLERANCE * expected_2.ratio
    assert bool(shown["passes_2"]) is expected_2.passes
    assert abs(expected_1.ratio - first.ratio) > 1e-6 and abs(expected_2.ratio - second.ratio) > 1e-6
