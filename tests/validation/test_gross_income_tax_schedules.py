"""The New Jersey Gross Income Tax of the published rate schedules (N.J.S.A. 54A:2-1, tax years
2020 on), reproduced at several incomes for both filing statuses, each worked by hand.

Single filers: 1.4% to $20,000; 1.75% to $35,000; 3.5% to $40,000; 5.525% to $75,000; 6.37% to
$500,000; 8.97% to $1,000,000; 10.75% above.
Married filing jointly: 1.4% to $20,000; 1.75% to $50,000; 2.45% to $70,000; 3.5% to $80,000;
5.525% to $150,000; 6.37% to $500,000; 8.97% to $1,000,000; 10.75% above.
"""

import pytest

from netbenefit.law.taxes import gross_income_tax

SINGLE = [
    # 1.4% x 10,000 = 140
    (10_000, 140.00),
    # 1.4% x 20,000 = 280
    (20_000, 280.00),
    # 280 + 1.75% x 15,000 (262.50) = 542.50
    (35_000, 542.50),
    # 542.50 + 3.5% x 5,000 (175) = 717.50
    (40_000, 717.50),
    # 717.50 + 5.525% x 10,000 (552.50) = 1,270.00
    (50_000, 1_270.00),
    # 717.50 + 5.525% x 35,000 (1,933.75) = 2,651.25
    (75_000, 2_651.25),
    # 2,651.25 + 6.37% x 15,000 (955.50) = 3,606.75
    (90_000, 3_606.75),
    # 2,651.25 + 6.37% x 425,000 (27,072.50) = 29,723.75
    (500_000, 29_723.75),
    # 29,723.75 + 8.97% x 500,000 (44,850) = 74,573.75
    (1_000_000, 74_573.75),
    # 74,573.75 + 10.75% x 1,000,000 (107,500) = 182,073.75
    (2_000_000, 182_073.75),
]

MARRIED_JOINT = [
    # 1.4% x 20,000 = 280
    (20_000, 280.00),
    # 280 + 1.75% x 30,000 (525) = 805
    (50_000, 805.00),
    # 805 + 2.45% x 10,000 (245) = 1,050
    (60_000, 1_050.00),
    # 805 + 2.45% x 20,000 (490) = 1,295
    (70_000, 1_295.00),
    # 1,295 + 3.5% x 10,000 (350) = 1,645
    (80_000, 1_645.00),
    # 1,645 + 5.525% x 20,000 (1,105) = 2,750
    (100_000, 2_750.00),
    # 1,645 + 5.525% x 70,000 (3,867.50) = 5,512.50
    (150_000, 5_512.50),
    # 5,512.50 + 6.37% x 350,000 (22,295) = 27,807.50
    (500_000, 27_807.50),
    # 27,807.50 + 8.97% x 500,000 (44,850) = 72,657.50
    (1_000_000, 72_657.50),
    # 72,657.50 + 10.75% x 500,000 (53,750) = 126,407.50
    (1_500_000, 126_407.50),
]


@pytest.mark.parametrize("income, tax", SINGLE)
def test_single_filer_schedule(income, tax):
    assert float(gross_income_tax(income, "single")) == pytest.approx(tax, abs=0.005)


@pytest.mark.parametrize("income, tax", MARRIED_JOINT)
def test_married_joint_schedule(income, tax):
    assert float(gross_income_tax(income, "married_joint")) == pytest.approx(tax, abs=0.005)


def test_the_two_schedules_agree_to_20000_and_differ_above():
    assert float(gross_income_tax(20_000, "single")) == float(gross_income_tax(20_000, "married_joint"))
    # At 50,000: single 1,270 (worked above) against joint 805.
    assert float(gross_income_tax(50_000, "single")) - float(gross_income_tax(50_000, "married_joint")) == (
        pytest.approx(465.0)
    )
