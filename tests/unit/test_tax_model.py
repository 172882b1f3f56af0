"""The revenue drivers as a model of New Jersey's taxes: brackets, inflation, multipliers, benefits by tax."""

import math

import numpy as np
import pytest
import yaml
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.analysis import sweep
from netbenefit.cli import main
from netbenefit.errors import ScenarioError
from netbenefit.law.taxes import TAXES, expected_gross_income_tax, gross_income_tax

MEDIAN = 90_000.0


def drivers(**revenue):
    """The base scenario with revenue drivers only (no explicit stream), 100 new jobs at MEDIAN."""
    data = with_changes(base_scenario_dict(), {"jobs.new": 100, "jobs.median_salary": MEDIAN})
    data["streams"] = []
    data["revenue"] = revenue
    return data


def evaluate(data):
    return netbenefit.evaluate(netbenefit.Scenario.from_dict(data))


def stream(result, name, effect="direct"):
    rows = result.streams[(result.streams["stream"] == name) & (result.streams["effect"] == effect)]
    return rows.set_index("year")["amount"]


# --- Done when: the schedule per job-year --------------------------------------------------------


def test_single_filers_without_dispersion_pay_the_schedule_on_the_median_less_the_exemption():
    result = evaluate(
        drivers(income_tax={"method": "brackets", "filing_status": {"single": 1.0}, "wage_dispersion": 0.0})
    )
    per_job_year = stream(result, "income_tax") / 100
    # 2,651.25 + 6.37% x (89,000 - 75,000) = 3,543.05 (exemption $1,000, N.J.S.A. 54A:3-1(a))
    assert per_job_year.iloc[0] == pytest.approx(3_543.05, abs=1e-6)
    assert per_job_year.iloc[0] == pytest.approx(float(gross_income_tax(MEDIAN - 1_000, "single")), rel=1e-12)


def test_joint_filers_without_dispersion_pay_the_joint_schedule_less_two_exemptions():
    result = evaluate(drivers(income_tax={"method": "brackets", "filing_status": {"married_joint": 1.0}}))
    per_job_year = stream(result, "income_tax") / 100
    # 1,645 + 5.525% x (88,000 - 80,000) = 2,087.00 (exemptions $2,000, 54A:3-1(a), (b)(1))
    assert per_job_year.iloc[0] == pytest.approx(2_087.00, abs=1e-6)


def test_a_positive_dispersion_raises_the_tax():
    values = [
        stream(
            evaluate(
                drivers(income_tax={"method": "brackets", "filing_status": {"single": 1.0}, "wage_dispersion": s})
            ),
            "income_tax",
        ).iloc[0]
        for s in (0.0, 0.25, 0.5)
    ]
    assert values[0] < values[1] < values[2]


def test_flat_cbt_grows_with_inflation_from_year_one():
    data = drivers(corporate_business_tax=100_000.0)
    data["inflation"] = 0.03
    cbt = stream(evaluate(data), "corporation_business_tax")
    for t in (1, 2, 5, 10):
        assert cbt[t] == pytest.approx(100_000 * 1.03 ** (t - 1), rel=1e-13)


def test_cbt_from_allocated_taxable_net_income_applies_the_surtax_in_its_years():
    data = drivers(allocated_taxable_net_income=2_000_000.0)
    data["application_date"] = "2022-06-01"  # project years 1, 2, 3 are tax years 2022, 2023, 2024
    cbt = stream(evaluate(data), "corporation_business_tax")
    assert [cbt[1], cbt[2], cbt[3]] == pytest.approx([230_000.0, 230_000.0, 180_000.0])


# --- v1 forms, exactly as before -----------------------------------------------------------------


def test_effective_rate_method_equals_the_v1_key():
    old = evaluate(drivers(income_tax_effective_rate=0.045, taxable_spending_share=0.3))
    new = evaluate(drivers(income_tax={"method": "effective_rate", "rate": 0.045}, taxable_spending_share=0.3))
    assert new.pv_benefits == old.pv_benefits and new.ratio == old.ratio


def test_progressive_is_the_single_schedule_at_the_median_without_exemption():
    result = evaluate(drivers(income_tax="progressive"))
    assert stream(result, "income_tax").iloc[0] == pytest.approx(100 * float(gross_income_tax(MEDIAN)), rel=1e-15)


# --- Benefits by tax --------------------------------------------------------------------------------


def test_benefits_by_tax_add_up_to_pv_benefits():
    data = drivers(
        income_tax={
            "method": "brackets",
            "filing_status": {"single": 0.45, "married_joint": 0.55},
            "wage_dispersion": 0.5,
        },
        taxable_spending_share=0.3,
        construction_taxable_share=0.4,
        construction_labor_share=0.35,
        construction_income_tax_rate=0.03,
        earnings_multiplier=1.6,
        corporate_business_tax=50_000.0,
    )
    data["discount_rate"] = 0.06
    data["streams"] = [
        {"name": "property tax", "kind": "revenue", "tax": "other", "by_year": {1: 10_000, 2: 10_000}},
        {"name": "services", "kind": "cost", "by_year": {1: 5_000}},
        {"name": "abated", "kind": "revenue", "abated": True, "by_year": {1: 99_000}},
    ]
    result = evaluate(data)
    table = result.benefits_by_tax
    assert list(table["tax"]) == list(TAXES)
    assert math.fsum(table["pv"]) == pytest.approx(result.pv_benefits, rel=1e-12)
    assert table.set_index("tax").loc["other", "nominal"] == pytest.approx(20_000 - 5_000)
    contract = result.to_dict()["benefits_by_tax"]
    assert [row["tax"] for row in contract] == list(TAXES)
    assert math.fsum(row["pv"] for row in contract) == pytest.approx(result.to_dict()["net_benefit"]["pv_benefits"])
    assert set(result.streams["tax"]) <= set(TAXES)
    assert "benefits, gross income tax:" in result.summary()


def test_an_explicit_stream_names_its_tax_and_may_grow_with_inflation():
    data = base_scenario_dict()
    data["inflation"] = 0.02
    data["streams"] = [
        {"name": "sales tax", "kind": "revenue", "tax": "sales_and_use_tax", "grows_with_inflation": True,
         "by_year": {y: 1_000_000 for y in range(1, 12)}},
    ]  # fmt: skip
    result = evaluate(data)
    amounts = result.streams.set_index("year")["amount"]
    assert amounts[3] == pytest.approx(1_000_000 * 1.02**2)
    assert set(result.streams["tax"]) == {"sales_and_use_tax"}
    real = result.cashflows_real()
    assert real["sales tax"].to_numpy()[:11] == pytest.approx([1_000_000.0] * 11)
    assert real.attrs["currency"] == "USD of 2026"
    assert real["pv_credits"].equals(result.cashflows["pv_credits"])


# --- Multipliers and jobs ------------------------------------------------------------------------------


def test_construction_multiplier_applies_to_construction_streams_only():
    data = drivers(
        income_tax_effective_rate=0.05,
        construction_labor_share=0.5,
        construction_income_tax_rate=0.03,
        earnings_multiplier=1.5,
        construction_earnings_multiplier=2.0,
    )
    result = evaluate(data)
    direct = stream(result, "construction_income_tax").sum()
    assert stream(result, "construction_income_tax", "indirect_and_induced").sum() == pytest.approx(direct * 1.0)
    operations = stream(result, "income_tax").sum()
    assert stream(result, "income_tax", "indirect_and_induced").sum() == pytest.approx(operations * 0.5)


def test_indirect_and_induced_jobs_are_reported():
    result = evaluate(drivers(income_tax_effective_rate=0.05, employment_multiplier=1.8))
    table = result.cashflows
    assert table["indirect_and_induced_jobs"].iloc[0] == pytest.approx(0.8 * table["full_time_jobs"].iloc[0])
    assert "100 direct, 80 indirect and induced" in result.summary()


def table_scenario(tmp_path, rows, naics="541511", header=None):
    header = header or "naics,earnings_multiplier,employment_multiplier,construction_earnings_multiplier,source"
    (tmp_path / "multipliers.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    data = drivers(income_tax_effective_rate=0.05, construction_labor_share=0.5, construction_income_tax_rate=0.03,
                   multiplier_table="multipliers.csv")  # fmt: skip
    data["business"]["naics"] = naics
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_multiplier_table_row_of_the_naics_code_applies(tmp_path):
    path = table_scenario(tmp_path, ["541511,1.7,2.1,1.9,example", "111110,1.2,1.3,1.4,example"])
    result = netbenefit.evaluate(path)
    direct = stream(result, "income_tax").sum()
    assert stream(result, "income_tax", "indirect_and_induced").sum() == pytest.approx(direct * 0.7)
    built = stream(result, "construction_income_tax").sum()
    assert stream(result, "construction_income_tax", "indirect_and_induced").sum() == pytest.approx(built * 0.9)
    assert result.cashflows["indirect_and_induced_jobs"].iloc[0] == pytest.approx(110.0)


# --- Sweeps and Monte Carlo vary the new keys at full speed --------------------------------------------


def test_a_sweep_of_median_dispersion_and_inflation_matches_single_evaluations():
    data = drivers(
        income_tax={
            "method": "brackets",
            "filing_status": {"single": 0.5, "married_joint": 0.5},
            "wage_dispersion": 0.4,
        },
        corporate_business_tax=10_000.0,
        index_brackets=True,
    )
    data["discount_rate"] = 0.05
    base = netbenefit.Scenario.from_dict(data)
    grid = {"jobs.median_salary": [60_000.0, 120_000.0], "revenue.income_tax.wage_dispersion": [0.0, 0.7],
            "inflation": [0.0, 0.03]}  # fmt: skip
    table = sweep(base, grid)
    for row in table.itertuples(index=False):
        one = netbenefit.evaluate(
            base.replace(
                {"jobs.median_salary": row[0], "revenue.income_tax.wage_dispersion": row[1], "inflation": row[2]}
            )
        )
        assert row.pv_benefits == pytest.approx(one.pv_benefits, rel=1e-12)


def test_indexed_brackets_lower_the_tax_under_inflation():
    base = drivers(
        income_tax={"method": "brackets", "wage_dispersion": 0.3},
    )
    base["jobs"]["salary_growth"] = 0.03
    base["inflation"] = 0.03
    plain = stream(evaluate(base), "income_tax")
    indexed = stream(evaluate(with_changes(base, {"revenue.index_brackets": True})), "income_tax")
    assert indexed.iloc[0] == pytest.approx(plain.iloc[0])
    assert indexed.iloc[5] < plain.iloc[5]
    # Indexed brackets and salaries growing alike: the real tax per job is constant.
    assert indexed.iloc[5] / 1.03**5 == pytest.approx(indexed.iloc[0], rel=1e-12)
    assert float(expected_gross_income_tax(MEDIAN, 0.3, {"single": 1.0})) * 100 == pytest.approx(plain.iloc[0])


# --- Bad input: one line naming file and key; exit 2 ----------------------------------------------------

BAD = [
    ({"income_tax": {"method": "brackets", "filing_status": {"single": 0.5, "married_joint": 0.4}}},
     "revenue.income_tax.filing_status", "sum to 1"),
    ({"income_tax": {"method": "brackets", "wage_dispersion": -0.1}}, "revenue.income_tax.wage_dispersion",
     "greater than or equal to 0"),
    ({"income_tax": {"method": "effective_rate"}}, "revenue.income_tax.rate", "required"),
    ({"income_tax": {"method": "effective_rate", "rate": 0.05, "wage_dispersion": 0.5}},
     "revenue.income_tax.wage_dispersion", "brackets only"),
    ({"income_tax": {"method": "guess"}}, "revenue.income_tax", ""),
    ({"employment_multiplier": 0.9}, "revenue.employment_multiplier", "greater than or equal to 1"),
    ({"construction_earnings_multiplier": 0.5}, "revenue.construction_earnings_multiplier",
     "greater than or equal to 1"),
    ({"corporate_business_tax": 5.0, "allocated_taxable_net_income": 1e6}, "revenue.allocated_taxable_net_income",
     "not both"),
]  # fmt: skip


@pytest.mark.parametrize("revenue, key, problem", BAD, ids=[case[1] + ":" + case[2] for case in BAD])
def test_bad_revenue_keys_are_one_line_errors(tmp_path, capsys, revenue, key, problem):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(drivers(income_tax_effective_rate=0.05) | {"revenue": revenue}), encoding="utf-8")
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(path) in err and key in err and problem in err


@pytest.mark.parametrize(
    "rows, naics, header, key, problem",
    [
        (["541511,1.7,2.1,1.9,x"], "999999", None, "business.naics", "not in the multiplier table"),
        (["541511,1.7,2.1"], "541511", "naics,earnings_multiplier,employment_multiplier", "revenue.multiplier_table",
         "missing columns construction_earnings_multiplier, source"),
        (["541511,0.9,2.1,1.9,x"], "541511", None, "revenue.multiplier_table",
         "earnings_multiplier must be a number >= 1"),
        (["541511,1.7,abc,1.9,x"], "541511", None, "revenue.multiplier_table",
         "employment_multiplier must be a number"),
    ],
)  # fmt: skip
def test_bad_multiplier_tables_are_one_line_errors(tmp_path, capsys, rows, naics, header, key, problem):
    path = table_scenario(tmp_path, rows, naics, header)
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(path) in err and key in err and problem in err


def test_a_multiplier_table_needs_a_naics_code_and_no_scalar_multipliers():
    data = drivers(income_tax_effective_rate=0.05, multiplier_table="m.csv")
    with pytest.raises(ScenarioError, match="business.naics: required"):
        netbenefit.Scenario.from_dict(data)
    data["business"]["naics"] = "541511"
    data["revenue"]["earnings_multiplier"] = 1.5
    with pytest.raises(ScenarioError, match="revenue.earnings_multiplier: give the multipliers"):
        netbenefit.Scenario.from_dict(data)


def test_an_unknown_stream_tax_is_refused():
    data = base_scenario_dict()
    data["streams"][0]["tax"] = "payroll_tax"
    with pytest.raises(ScenarioError, match=r"streams\.0\.tax"):
        netbenefit.Scenario.from_dict(data)


def test_a_variable_key_inside_a_v1_income_tax_choice_is_refused():
    base = netbenefit.Scenario.from_dict(drivers(income_tax="progressive"))
    with pytest.raises(ScenarioError, match="no 'revenue.income_tax' block"):
        sweep(base, {"revenue.income_tax.wage_dispersion": [0.1]})


def test_results_without_revenue_drivers_still_have_all_four_taxes():
    result = evaluate(base_scenario_dict())
    assert result.benefits_by_tax["pv"].tolist() == pytest.approx([0.0, 0.0, 0.0, result.pv_benefits])
    assert np.all(result.cashflows["indirect_and_induced_jobs"] == 0)


def test_variants_of_the_flags_and_shares_match_single_evaluations():
    from netbenefit.analysis import evaluate_variants

    data = drivers(
        income_tax={
            "method": "brackets",
            "filing_status": {"single": 0.4, "married_joint": 0.6},
            "wage_dispersion": 0.4,
        }
    )
    data["inflation"] = 0.03
    data["jobs"]["salary_growth"] = 0.03
    data["streams"] = [{"name": "fees", "kind": "revenue", "by_year": {1: 50_000, 5: 50_000}}]
    base = netbenefit.Scenario.from_dict(data)
    values = {
        "revenue.index_brackets": np.array([False, True, True, False]),
        "streams.0.grows_with_inflation": np.array([True, False, True, False]),
        "revenue.income_tax.filing_status.single": np.array([0.4, 0.4, 0.4, 0.4]),
        "revenue.income_tax.filing_status.married_joint": np.array([0.6, 0.6, 0.6, 0.6]),
    }
    table = evaluate_variants(base, values)
    for i, row in enumerate(table.itertuples(index=False)):
        one = netbenefit.evaluate(base.replace({key: array[i].item() for key, array in values.items()}))
        assert row.pv_benefits == pytest.approx(one.pv_benefits, rel=1e-12)
    assert len(set(np.round(table["pv_benefits"], 6))) == 4


def test_a_tax_year_before_the_schedules_is_noted_in_the_result():
    data = drivers(income_tax={"method": "brackets"}, taxable_spending_share=0.3)
    data["application_date"] = "2017-06-01"  # tax years 2017 ... (the schedules held: GIT 2020, SUT 2018)
    result = evaluate(data)
    notes = [n for n in result.to_dict()["conventions"] if "tax years" in n]
    assert any(n.startswith("gross income tax, single filers: tax years 2017-2019") for n in notes)
    assert any(n.startswith("sales and use tax rate: tax years 2017-2017") for n in notes)
    assert all("[convention]" in n for n in notes) and "convention: gross income tax" in result.summary()
    data["application_date"] = "2021-06-01"
    assert not [n for n in evaluate(data).conventions if "tax years" in n]
