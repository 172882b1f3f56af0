"""State fiscal years (July 1 - June 30, named by the year they end) and the placement of project years."""

import datetime as dt
import glob
import math
from pathlib import Path

import pytest
from support import scenario

import netbenefit
from netbenefit.model.fiscal import fiscal_years, project_year_span, state_fiscal_year, timing_point

ROOT = Path(__file__).resolve().parents[2]
CENT = 0.01


@pytest.mark.parametrize(
    "date, expected",
    [("2026-06-30", 2026), ("2026-07-01", 2027), ("2026-12-31", 2027), ("2027-01-01", 2027)],
)
def test_state_fiscal_year_begins_on_july_1(date, expected):
    assert state_fiscal_year(dt.date.fromisoformat(date)) == expected


def test_a_project_year_runs_from_the_approval_date_to_the_day_before_its_anniversary():
    assert project_year_span(dt.date(2026, 9, 15), 1) == (dt.date(2026, 9, 15), dt.date(2027, 9, 14))
    assert project_year_span(dt.date(2026, 9, 15), 3) == (dt.date(2028, 9, 15), dt.date(2029, 9, 14))


@pytest.mark.parametrize(
    "approval, fy_of_year_1",
    [
        ("2026-07-01", 2027),  # year 1 ends 2027-06-30: the last day of FY2027
        ("2026-07-02", 2028),  # year 1 ends 2027-07-01: the first day of FY2028
        ("2026-06-30", 2027),  # year 1 ends 2027-06-29
    ],
)
def test_end_of_year_places_a_year_at_its_last_day(approval, fy_of_year_1):
    assert fiscal_years(dt.date.fromisoformat(approval), [1])[0] == fy_of_year_1


def test_mid_year_places_a_year_at_its_middle_day():
    approval = dt.date(2026, 1, 1)  # year 1: 2026-01-01 .. 2026-12-31, 364 days apart: middle 2026-07-02
    assert timing_point(approval, 1, "mid_year") == dt.date(2026, 7, 2)
    assert fiscal_years(approval, [1, 2], "mid_year").tolist() == [2027, 2028]
    assert fiscal_years(approval, [1, 2], "end_of_year").tolist() == [2027, 2028]
    approval = dt.date(2026, 10, 1)  # year 1 middle 2027-04-01 (FY2027), end 2027-09-30 (FY2028)
    assert fiscal_years(approval, [1], "mid_year").tolist() == [2027]
    assert fiscal_years(approval, [1], "end_of_year").tolist() == [2028]


def test_year_0_falls_on_the_approval_date_and_february_29_moves_to_the_28th():
    assert timing_point(dt.date(2026, 8, 1), 0, "mid_year") == dt.date(2026, 8, 1)
    assert project_year_span(dt.date(2028, 2, 29), 2) == (dt.date(2029, 2, 28), dt.date(2030, 2, 27))


def test_unknown_timing_is_refused():
    with pytest.raises(ValueError, match="timing"):
        timing_point(dt.date(2026, 1, 1), 1, "start_of_year")


def test_a_half_counted_last_year_brings_half_its_benefits():
    # support scenario: $1,000,000 of benefits in years 1..11, year 11 counted half (commitment 10.5)
    # approved 2026-07-01: year t ends on 30 June of 2026 + t, in FY 2026 + t
    table = netbenefit.evaluate(scenario(application_date="2026-07-01")).by_fiscal_year()
    assert table.index.tolist() == list(range(2027, 2038))
    assert table.loc[2037, "benefits"] == pytest.approx(500_000.0)  # year 11 x weight 0.5
    assert table.loc[2036, "benefits"] == pytest.approx(1_000_000.0)
    assert table.loc[2027:2033, "credits"].tolist() == [100_000.0] * 7
    assert table.loc[2034, "credits"] == 0.0


@pytest.mark.parametrize("path", sorted(glob.glob(str(ROOT / "scenarios" / "*.yaml"))), ids=lambda p: Path(p).stem)
def test_fiscal_year_totals_add_up_to_the_cent(path):
    result = netbenefit.evaluate(path)
    table = result.by_fiscal_year()
    assert abs(math.fsum(table["credits"]) - result.requested_credits) < CENT / 2
    counted = math.fsum(result.cashflows["counted_net_benefits"])
    assert abs(math.fsum(table["benefits"]) - counted) < CENT / 2
    by_tax = result.benefits_by_tax.set_index("tax")["nominal"]
    for tax, amount in by_tax.items():
        assert abs(math.fsum(table[tax]) - amount) < CENT / 2
