"""71(d) accommodation and withholdings; 71(f) the application period."""

import datetime as dt

import pytest
from support import evaluate


@pytest.mark.parametrize(
    "accommodates, withholding, passed",
    [
        (0.5, 1.0, False),  # "more than half"
        (0.5001, 1.0, True),
        (1.0, 0.7999, False),  # "not less than 80 percent"
        (1.0, 0.8, True),
        (1.0, 0.8001, True),
        (0.5001, 0.8, True),
    ],
)
def test_accommodation_and_withholdings_71d(accommodates, withholding, passed):
    result = evaluate(facility__accommodates_share=accommodates, jobs__nj_withholding_share=withholding)
    assert result.check("71(d)") is passed
    assert result.eligible is passed


@pytest.mark.parametrize(
    "date, passed",
    [
        ("2021-01-06", False),
        ("2021-01-07", True),  # the effective date of P.L.2020, c.156
        ("2029-02-28", True),
        ("2029-03-01", False),  # "prior to March 1, 2029"
    ],
)
def test_application_period_71f(date, passed):
    result = evaluate(application_date=date)
    assert result.check("71(f)") is passed
    assert result.scenario.application_date == dt.date.fromisoformat(date)
