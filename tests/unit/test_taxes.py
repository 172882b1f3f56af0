"""netbenefit.law.taxes: the Gross Income Tax on a lognormal wage distribution, and the CBT by tax year."""

import math

import numpy as np
import pytest
from scipy import integrate

from netbenefit.law import taxes
from netbenefit.law.parameters import PARAMETERS, parameter


def numerical_expectation(median, sigma, status, exemptions=True):
    """E[tax(max(W - exemption, 0))] by adaptive quadrature over z, W = median x exp(sigma z),
    split at every bracket threshold so each piece is smooth."""
    lower, rates = taxes.schedule(status)
    deduction = taxes.personal_exemption(status) if exemptions else 0.0

    def integrand(z):
        wage = median * math.exp(sigma * z)
        return (
            float(taxes.bracket_tax(max(wage - deduction, 0.0), lower, rates))
            * math.exp(-z * z / 2)
            / math.sqrt(2 * math.pi)
        )

    kinks = sorted(math.log((deduction + k) / median) / sigma for k in lower if deduction + k > 0)
    edges = [-14.0] + [k for k in kinks if -14 < k < 14] + [14.0]
    return math.fsum(
        integrate.quad(integrand, a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
        for a, b in zip(edges, edges[1:], strict=False)
    )


@pytest.mark.parametrize("status", ["single", "married_joint"])
@pytest.mark.parametrize("median, sigma", [(15000, 0.3), (52000, 0.5), (90000, 0.5), (150000, 0.8), (400000, 1.2)])
def test_expected_tax_matches_a_fine_numerical_integral(status, median, sigma):
    exact = float(taxes.expected_gross_income_tax(median, sigma, {status: 1.0}))
    assert exact == pytest.approx(numerical_expectation(median, sigma, status), rel=1e-8)


@pytest.mark.parametrize("status", ["single", "married_joint"])
@pytest.mark.parametrize("median", [0.0, 999.0, 1000.0, 20000.0, 21000.0, 75000.0, 1_000_000.0, 2_500_000.0])
def test_no_dispersion_is_the_schedule_on_the_median_less_exemptions(status, median):
    expected = float(taxes.gross_income_tax(max(median - taxes.personal_exemption(status), 0.0), status))
    assert float(taxes.expected_gross_income_tax(median, 0.0, {status: 1.0})) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("status", ["single", "married_joint"])
def test_dispersion_raises_the_expected_tax(status):
    sigmas = np.array([0.0, 0.1, 0.3, 0.5, 1.0])
    values = taxes.expected_gross_income_tax(80000.0, sigmas, {status: 1.0})
    assert np.all(np.diff(values) > 0)


def test_vectorised_over_medians_and_sigmas_as_one_by_one():
    medians = np.array([[40000.0], [90000.0], [250000.0]])
    sigmas = np.array([[0.0, 0.4, 0.9]])
    shares = {"single": 0.45, "married_joint": 0.55}
    table = taxes.expected_gross_income_tax(medians, sigmas, shares)
    assert table.shape == (3, 3)
    for i in range(3):
        for j in range(3):
            one = taxes.expected_gross_income_tax(float(medians[i, 0]), float(sigmas[0, j]), shares)
            assert table[i, j] == pytest.approx(float(one), rel=1e-14)


def test_shares_mix_the_two_schedules():
    single = taxes.expected_gross_income_tax(90000.0, 0.5, {"single": 1.0})
    joint = taxes.expected_gross_income_tax(90000.0, 0.5, {"married_joint": 1.0})
    mixed = taxes.expected_gross_income_tax(90000.0, 0.5, {"single": 0.3, "married_joint": 0.7})
    assert float(mixed) == pytest.approx(0.3 * float(single) + 0.7 * float(joint), rel=1e-14)


def test_indexed_brackets_scale_thresholds_and_exemptions():
    # With every threshold and the exemption x 1.1, a wage of 1.1 x 60,000 pays 1.1 x the tax on 60,000.
    plain = taxes.expected_gross_income_tax(60000.0, 0.0, {"single": 1.0})
    indexed = taxes.expected_gross_income_tax(66000.0, 0.0, {"single": 1.0}, index=1.1)
    assert float(indexed) == pytest.approx(1.1 * float(plain), rel=1e-13)


def test_the_bracket_tax_is_continuous_at_every_threshold():
    for status in taxes.FILING_STATUSES:
        lower, _ = taxes.schedule(status)
        for threshold in lower[1:]:
            below = float(taxes.gross_income_tax(threshold - 1e-6, status))
            above = float(taxes.gross_income_tax(threshold + 1e-6, status))
            assert above - below == pytest.approx(0.0, abs=1e-6)


# --- Corporation Business Tax, N.J.S.A. 54:10A-5 and 54:10A-5.41 ---------------------------------


@pytest.mark.parametrize(
    "income, rate",
    [(49_999, 0.065), (50_000, 0.065), (50_001, 0.075), (99_999, 0.075), (100_000, 0.075), (100_001, 0.09)],
)
def test_cbt_rate_applies_to_the_whole_income_by_its_size(income, rate):
    # 54:10A-5(c): "$50,000 or less" 6.5%, "$100,000 or less" 7.5%, else 9%: not marginal.
    assert float(taxes.corporation_business_tax(income, 2025)) == pytest.approx(rate * income, rel=1e-15)


@pytest.mark.parametrize(
    "income, year, extra",
    [
        (1_000_000, 2022, 0.0),  # not "in excess of $1 million"
        (1_000_001, 2022, 0.025),
        (1_000_001, 2017, 0.0),  # before the surtax
        (1_000_001, 2018, 0.025),
        (1_000_001, 2023, 0.025),  # its last year
        (5_000_000, 2024, 0.0),  # surtax over; the transit fee needs more than $10 million
        (10_000_000, 2024, 0.0),
        (10_000_001, 2024, 0.025),
        (10_000_001, 2028, 0.025),
        (10_000_001, 2029, 0.0),  # after the transit fee
    ],
)
def test_cbt_surtax_and_transit_fee_by_year_and_threshold(income, year, extra):
    assert float(taxes.corporation_business_tax(income, year)) == pytest.approx((0.09 + extra) * income, rel=1e-15)


def test_cbt_vectorised_over_income_and_years():
    income = np.array([[2_000_000.0], [20_000_000.0]])
    years = np.array([[2023, 2024, 2029]])
    table = taxes.corporation_business_tax(income, years)
    assert table.shape == (2, 3)
    assert table[0].tolist() == pytest.approx([0.115 * 2e6, 0.09 * 2e6, 0.09 * 2e6])
    assert table[1].tolist() == pytest.approx([0.115 * 2e7, 0.115 * 2e7, 0.09 * 2e7])


def test_tax_parameters_have_dates_grades_and_quotes():
    names = [name for name in PARAMETERS if PARAMETERS[name].quote]
    assert {"gross_income_tax_brackets_single", "gross_income_tax_brackets_married_joint"} <= set(names)
    for name in (
        "gross_income_tax_brackets_single",
        "gross_income_tax_brackets_married_joint",
        "gross_income_tax_personal_exemption",
        "sales_and_use_tax_rate",
        "corporation_business_tax_rates",
        "corporation_business_tax_surtax_rate",
        "corporation_business_tax_surtax_threshold",
        "corporate_transit_fee_rate",
        "corporate_transit_fee_threshold",
    ):
        entry = PARAMETERS[name]
        assert entry.quote and entry.reference and entry.source in ("statute", "secondary")
    assert PARAMETERS["corporation_business_tax_surtax_rate"].until.year == 2023
    assert PARAMETERS["corporate_transit_fee_rate"].until.year == 2028
    assert parameter("sales_and_use_tax_rate") == 0.06625


def test_a_tax_year_before_the_schedule_is_noted():
    assert taxes.schedule_conventions(2020, 2040) == ()
    notes = taxes.schedule_conventions(2018, 2030)
    assert len(notes) == 2 and all("2018-2019" in note and "[convention]" in note for note in notes)


def test_the_tax_page_lists_every_tax_parameter_with_its_grade():
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2]
    names = yaml.safe_load((root / "netbenefit/law/parameters/taxes.yaml").read_text(encoding="utf-8"))
    page = (root / "docs/taxes.md").read_text(encoding="utf-8")
    for name in names:
        assert f"| `{name}` |" in page and f"### `{name}`" in page, name
        assert f"| {PARAMETERS[name].source} |" in page


@pytest.mark.parametrize("median, sigma", [(90000.0, 0.5), (52000.0, 0.3), (400000.0, 1.2)])
def test_gauss_hermite_quadrature_converges_to_the_closed_form(median, sigma):
    # 200 Gauss-Hermite nodes on a kinked integrand: close (1e-3), not exact (why the closed form).
    nodes, weights = np.polynomial.hermite_e.hermegauss(200)
    wages = median * np.exp(sigma * nodes)
    quadrature = np.sum(weights * taxes.gross_income_tax(np.maximum(wages - 1000.0, 0.0))) / math.sqrt(2 * math.pi)
    exact = float(taxes.expected_gross_income_tax(median, sigma, {"single": 1.0}))
    assert quadrature == pytest.approx(exact, rel=1e-3)
