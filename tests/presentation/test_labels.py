"""One table of labels: every scenario key and every result column has words and a unit."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

import netbenefit
from netbenefit import labels
from netbenefit.model.scenario import Scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _models(annotation) -> list[type[BaseModel]]:
    found = []
    for argument in typing.get_args(annotation):
        found += _models(argument)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found.append(annotation)
    return found


def schema_keys(model: type[BaseModel] = Scenario, prefix: str = "") -> list[str]:
    """Every leaf key of the scenario models, dotted, list positions left out."""
    keys = []
    for name, field in model.model_fields.items():
        inner = _models(field.annotation)
        if inner:
            for sub in inner:
                keys += schema_keys(sub, f"{prefix}{name}.")
        else:
            keys.append(prefix + name)
    return keys


def test_the_walk_finds_the_keys_of_every_model():
    keys = schema_keys()
    assert "award.annual_credit" in keys and "phases.jobs.new" in keys
    assert "attestations.prevailing_wage.exemption.lease_share_of_facility" in keys
    assert len(keys) > 80


@pytest.mark.parametrize("key", schema_keys())
def test_every_scenario_key_has_a_label(key):
    try:
        text = labels.label(key)
    except KeyError:
        pytest.fail(f"scenario key {key!r} has no label: add it to netbenefit.labels.SCENARIO_LABELS")
    assert text and "_" not in text.split("[")[0], f"{key!r}: {text!r} is not in words"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_cashflow_column_has_a_label(path):
    result = netbenefit.evaluate(path)
    own = {stream.name for stream in result.scenario.streams} | {
        stream.name for phase in result.scenario.phases for stream in phase.streams
    }
    missing = [
        c
        for c in result.cashflows.columns
        if c not in own and c not in labels.LABELS and not c.startswith("weight_phase_")
    ]
    assert not missing, f"cash-flow columns without a label in netbenefit.labels.CASHFLOW_LABELS: {missing}"
    for column in result.cashflows.columns:
        assert "[" in labels.label(column, streams=own), column


def test_result_and_analysis_columns_have_labels():
    result = netbenefit.evaluate(SCENARIOS / "party_city.yaml")
    tables = [
        netbenefit.compare([result]),
        result.checks,
        result.phase_tests,
        result.streams,
        result.repayment_schedule,
    ]
    from netbenefit.analysis.sensitivity import SENSITIVITY_COLUMNS
    from netbenefit.analysis.variants import RESULT_COLUMNS

    columns = {c for table in tables for c in table.columns} | set(SENSITIVITY_COLUMNS) | set(RESULT_COLUMNS)
    columns |= {
        "tax",
        "nominal",
        "pv",
        "years_maintained",
        "credits_received",
        "recapture",
        "extension_repayment",
        "total",
        "pv_total",
    }
    missing = sorted(c for c in columns if c not in labels.LABELS)
    assert not missing, f"columns without a label in netbenefit.labels.RESULT_LABELS: {missing}"


def test_full_paths_name_the_phase_the_item_and_the_year():
    assert labels.label("award.annual_credit") == "Annual credit [USD/year]"
    assert labels.label("phases.0.jobs.new") == "Phase 2: New full-time jobs [jobs]"
    assert labels.label("phases.1.start_year") == "Phase 3: Phase start [project year]"
    assert labels.label("phases.0.capital_investment.3") == "Phase 2: Capital investment [USD], year 3"
    assert labels.label("facility.portions.0.gross_leasable_area_sqft") == "Gross leasable area [sq ft], item 1"
    assert labels.label("capital_investment.3") == "Capital investment [USD], year 3"
    assert labels.label("streams.0.by_year.2") == "Stream amount [USD], item 1, year 2"
    assert labels.label("weight_phase_2").endswith("[share]")
    assert labels.short_label("award.annual_credit") == "Annual credit"


def test_an_unknown_key_is_named_in_the_error():
    with pytest.raises(KeyError, match="no_such_key"):
        labels.label("award.no_such_key")


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (1_080_000, "$1.1M"),
        (250_000, "$250K"),
        (-3_400_000, "-$3.4M"),
        (12, "$12"),
        (26_072_690, "$26.1M"),
        (126_072_690, "$126M"),
        (2_500_000_000, "$2.5B"),
        (None, ""),
        (float("nan"), ""),
    ],
)
def test_money(amount, text):
    assert labels.money(amount) == text


def test_money_on_one_axis_shares_the_scale():
    assert labels.money(500_000, scale=3_000_000) == "$0.5M"
    assert labels.money(25_000_000, scale=30_000_000) == "$25M"
    assert labels.money_exact(-1234.4) == "-$1,234"


@pytest.mark.parametrize(("value", "text"), [(0.075, "7.5%"), (0.25, "25%"), (0.0625, "6.25%"), (0.0, "0%")])
def test_share(value, text):
    assert labels.share(value) == text


def test_ratio_is_a_percent():
    assert labels.ratio(4.92) == "492%"
    assert labels.ratio(4.0) == "400%"
    assert labels.ratio(4.806, 1) == "480.6%"
    assert labels.ratio_against(4.92, 4.0) == "492% vs 400%"
    assert labels.ratio(float("nan")) == "undefined"


def test_years_and_numbers():
    assert labels.years(1) == "1 year" and labels.years(10) == "10 years" and labels.years(7.5) == "7.5 years"
    assert labels.number(300.0) == "300" and labels.number(1250000) == "1,250,000" and labels.number(0.5) == "0.5"


def test_value_formats_by_the_unit_of_the_key():
    assert labels.value("award.annual_credit", 1_080_000) == "$1.1M"
    assert labels.value("award.annual_credit", 1_080_000, short=False) == "$1,080,000"
    assert labels.value("discount_rate", 0.075) == "7.5%"
    assert labels.value("ratio", 4.92) == "492%"
    assert labels.value("jobs.new", 300.0) == "300"
    assert labels.value("location.mega_project", True) == "yes"
    assert labels.value("award.eligibility_period_years", 7) == "7 years"
    assert labels.value("discount_factor", 0.95) == "0.95"


def test_one_phase_wording_serves_labels_and_the_workbook():
    from netbenefit.views import workbook

    assert labels.phase_words(2) == "Phase 2"
    assert workbook.input_label("phases.0.jobs.new")[0].startswith("Phase 2: ")
    assert labels.label("phases.0.jobs.new").startswith("Phase 2: ")
    assert workbook.input_label("capital_investment.3")[0].endswith(", year 3")


def test_every_phase_key_says_its_phase_and_each_key_is_named_once():
    keys = ["jobs.median_salary", "phases.0.jobs.median_salary", "revenue.earnings_multiplier"]
    assert labels.phase_tagged("jobs.median_salary", keys).startswith("Phase 1: Median salary")
    assert labels.phase_tagged("jobs.median_salary", ["jobs.median_salary"]) == labels.label("jobs.median_salary")
    assert labels.phase_tagged("discount_rate", keys) == labels.label("discount_rate")  # the whole project's
    names = labels.named_once(keys)
    assert names == ["Median salary (phases 1 and 2)", labels.short_label("revenue.earnings_multiplier")]
    assert labels.named_once(["phases.0.jobs.new"]) == ["Phase 2: New full-time jobs"]


def test_units_as_people_write_them():
    assert labels.spoken(labels.label("discount_rate")) == "Discount rate [% a year]"
    assert labels.spoken("Share [share]") == "Share [%]"
    assert labels.spoken("Capital investment [USD]") == "Capital investment [USD]"


def test_a_margin_in_percentage_points():
    assert labels.percentage_points(0.806) == "+80.6 percentage points"
    assert labels.percentage_points(-0.093) == "-9.3 percentage points"
    assert labels.percentage_points(-0.00001) == "0.0 percentage points"
