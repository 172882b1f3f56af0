"""Pure rule functions (netbenefit.law.rules) on numbers and arrays."""

import numpy as np
import pytest

from netbenefit.law.rules import (
    capital_investment_minimum,
    capital_investment_rate,
    incremental_credit,
    job_minimum_clause,
    meets_threshold,
    repayment_schedule,
    statutory_threshold,
)
from netbenefit.model.cashflows import gross_income_tax


def test_rules_broadcast_over_variants():
    codes = job_minimum_clause(np.array([34, 35, 36]), 0, 0, False, False, False, False, False)
    assert codes.tolist() == [0, 3, 3]
    thresholds, clauses = statutory_threshold(
        np.array([False, True, False]), False, np.array([False, False, True]), False
    )
    assert thresholds.tolist() == [4.0, 3.0, 2.0]
    assert clauses.tolist() == [0, 1, 2]


def test_capital_investment_rate_rejects_unknown_work():
    with pytest.raises(ValueError):
        capital_investment_rate("other", "demolition")


def test_capital_investment_minimum_vectorised_area():
    minimum = capital_investment_minimum([("other", "new_construction", np.array([1.0, 2.0]))])
    assert minimum.tolist() == [120.0, 240.0]


def test_meets_threshold_tolerance():
    assert meets_threshold(4.0, 4.0)
    assert meets_threshold(4.0 - 3e-9, 4.0)  # within 1e-9 relative
    assert not meets_threshold(4.0 - 5e-9, 4.0)
    assert meets_threshold(np.array([3.9, 4.1]), 4.0).tolist() == [False, True]


def test_incremental_credit_is_zero_when_passing_without_extension():
    assert incremental_credit(700.0, 600.0, 4 * 600.0, 4.0) == 0.0
    assert incremental_credit(700.0, 600.0, 4 * 650.0, 4.0) == 0.0


def test_repayment_schedule_shapes():
    assert repayment_schedule(0.0, 0) == []
    assert repayment_schedule(10.0, 1) == [(0, 10.0)]


@pytest.mark.parametrize(
    "income, tax",
    [
        (0, 0.0),
        (20_000, 280.0),  # 1.4% x 20,000
        (35_000, 280.0 + 262.5),  # + 1.75% x 15,000
        (40_000, 542.5 + 175.0),  # + 3.5% x 5,000
        (75_000, 717.5 + 1933.75),  # + 5.525% x 35,000
        (100_000, 2651.25 + 1592.5),  # + 6.37% x 25,000
        (1_200_000, 2651.25 + 27_072.5 + 44_850 + 21_500),  # 6.37% x 425,000; 8.97% x 500,000; 10.75% x 200,000
    ],
)
def test_gross_income_tax_brackets(income, tax):
    assert float(gross_income_tax(income)) == pytest.approx(tax)
