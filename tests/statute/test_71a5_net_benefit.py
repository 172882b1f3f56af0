"""71(a)(5): the net positive benefit test, its thresholds, phases and extended commitment."""

import pytest
from support import evaluate

# Base: credits 100,000 x 7 = 700,000 (rate 0); benefits b a year in years 1..10 and b/2 in year 11
# (commitment 1.5 x 7 = 10.5 years), so PV benefits = 10.5 b.


def benefits(per_year, years=11):
    return {"streams": [{"name": "taxes", "kind": "revenue", "by_year": {y: per_year for y in range(1, years + 1)}}]}


@pytest.mark.parametrize(
    "location, threshold, clause",
    [
        ({}, 4.0, "71(a)(5)"),
        ({"location__distressed_municipality": True}, 3.0, "71(a)(5)(a)"),
        ({"location__enhanced_area": True}, 3.0, "71(a)(5)(a)"),
        ({"location__government_restricted_municipality": True}, 2.0, "71(a)(5)(b)"),
        ({"location__mega_project": True}, 2.0, "71(a)(5)(b)"),
        # Where several apply, the lowest.
        ({"location__distressed_municipality": True, "location__mega_project": True}, 2.0, "71(a)(5)(b)"),
    ],
)
def test_threshold_by_location(location, threshold, clause):
    result = evaluate(**location)
    assert (result.threshold, result.threshold_clause) == (threshold, clause)


@pytest.mark.parametrize(
    "annual_benefit, passes",
    [
        # 4.00 x 700,000 = 2,800,000 = 10.5 x 266,666.67: exactly 4.00 passes ("at least").
        (2_800_000 / 10.5, True),
        (2_799_000 / 10.5, False),  # 3.9986
        (2_801_000 / 10.5, True),
    ],
)
def test_ratio_at_the_400_percent_boundary(annual_benefit, passes):
    result = evaluate(**benefits(annual_benefit))
    assert result.ratio == pytest.approx(10.5 * annual_benefit / 700_000, rel=1e-12)
    assert result.passes is passes
    assert result.check("71(a)(5)") is passes


@pytest.mark.parametrize("annual_benefit, passes", [(2_100_000 / 10.5, True), (2_099_000 / 10.5, False)])
def test_ratio_at_the_300_percent_boundary(annual_benefit, passes):
    assert evaluate(location__distressed_municipality=True, **benefits(annual_benefit)).passes is passes


@pytest.mark.parametrize("annual_benefit, passes", [(1_400_000 / 10.5, True), (1_399_000 / 10.5, False)])
def test_ratio_at_the_200_percent_boundary(annual_benefit, passes):
    assert evaluate(location__mega_project=True, **benefits(annual_benefit)).passes is passes


def test_exact_ratio_despite_floating_point():
    """0.1 + 0.2 style rounding must not fail an exact 4.00: a 1e-9 relative tolerance."""
    result = evaluate(**benefits(2_800_000 / 10.5 * (1 - 1e-13)))
    assert result.passes


def test_threshold_override_71a5f():
    result = evaluate(threshold_override=5.0)
    assert (result.threshold, result.threshold_clause) == (5.0, "71(a)(5)(f)")
    assert "override" in result.checks.set_index("id").loc["71(a)(5)", "message"]


def test_credit_is_not_subtracted_from_benefits():
    """Benefits are computed prior to considering the value of the requested tax credit."""
    small, large = evaluate(award__annual_credit=100_000), evaluate(award__annual_credit=200_000)
    assert small.pv_benefits == large.pv_benefits
    assert small.ratio == pytest.approx(2 * large.ratio)


def test_same_discount_rate_for_credits_and_benefits_71a5c():
    # Benefits of 1,000,000 in year 1 only and credits of 100,000 in years 1..7 at 10%.
    result = evaluate(discount_rate=0.10, **benefits(1_000_000, years=1))
    pv_credits = sum(100_000 / 1.1**t for t in range(1, 8))
    assert result.pv_credits == pytest.approx(pv_credits, rel=1e-12)
    assert result.pv_benefits == pytest.approx(1_000_000 / 1.1, rel=1e-12)


def test_abated_stream_is_not_counted_71a5e():
    abated = {"name": "abated property tax", "kind": "revenue", "abated": True, "by_year": {1: 9e9}}
    base = evaluate()
    result = evaluate(streams=base.scenario.to_dict()["streams"] + [abated])
    assert result.pv_benefits == base.pv_benefits
    assert result.excluded_streams == ("abated property tax",)


def test_cost_stream_is_subtracted():
    cost = {"name": "State services", "kind": "cost", "by_year": {1: 50_000}}
    base = evaluate()
    result = evaluate(streams=base.scenario.to_dict()["streams"] + [cost])
    assert result.pv_benefits == pytest.approx(base.pv_benefits - 50_000)


class TestExtendedCommitment:
    """71(a)(5)(d): benefits through an elected extension count, in the 400% test only."""

    def test_extension_counts_at_400_percent(self):
        # 10.5 + 2 = 12.5 years: years 1..12 in full and half of year 13.
        result = evaluate(commitment__extended_years=2, **benefits(100_000, years=20))
        assert result.pv_benefits == pytest.approx(12.5 * 100_000)
        assert result.pv_benefits_without_extension == pytest.approx(10.5 * 100_000)
        assert result.extension_counted

    @pytest.mark.parametrize(
        "location", ["distressed_municipality", "enhanced_area", "mega_project", "government_restricted_municipality"]
    )
    def test_extension_not_counted_at_300_or_200_percent(self, location):
        result = evaluate(
            commitment__extended_years=2, **{f"location__{location}": True}, **benefits(100_000, years=20)
        )
        assert result.pv_benefits == pytest.approx(10.5 * 100_000)
        assert not result.extension_counted
        assert result.incremental_credit == 0
        assert [row["repayment"] for row in result.to_dict()["extended_commitment"]["repayment_schedule"]] == [0, 0]
        assert "not counted" in result.checks.set_index("id").loc["71(a)(5)", "message"]

    def test_override_changes_the_percentage_not_the_window(self):
        result = evaluate(threshold_override=3.0, commitment__extended_years=2, **benefits(100_000, years=20))
        assert result.pv_benefits == pytest.approx(12.5 * 100_000)

    def test_incremental_credit_and_repayment_schedule(self):
        # Benefits 250,000 a year: B0 = 10.5 x 250,000 = 2,625,000; with 4 more years
        # 14.5 x 250,000 = 3,625,000. K = 700,000, T = 4: B0 / T = 656,250, so the share of the
        # credit above what passes without the extension is 1 - 656,250 / 700,000 = 0.0625,
        # and the incremental credit is 700,000 x 0.0625 = 43,750.
        result = evaluate(commitment__extended_years=4, **benefits(250_000, years=20))
        assert result.passes
        assert result.pv_benefits_without_extension / result.pv_credits < 4
        assert result.incremental_credit == pytest.approx(43_750)
        # Repayment after m of 4 years maintained: 43,750 x (4 - m) / 4.
        schedule = result.to_dict()["extended_commitment"]["repayment_schedule"]
        assert schedule == [
            {"years_maintained": 0, "repayment": pytest.approx(43_750)},
            {"years_maintained": 1, "repayment": pytest.approx(32_812.5)},
            {"years_maintained": 2, "repayment": pytest.approx(21_875)},
            {"years_maintained": 3, "repayment": pytest.approx(10_937.5)},
        ]

    def test_nothing_to_repay_when_passing_without_the_extension(self):
        result = evaluate(commitment__extended_years=3)
        assert result.incremental_credit == 0
        assert len(result.repayment_schedule) == 3

    def test_no_extension_gives_an_empty_schedule(self):
        assert evaluate().to_dict()["extended_commitment"] == {
            "years": 0,
            "incremental_credit": 0.0,
            "repayment_schedule": [],
            "test": None,
            "repayment_by_phase": [],
        }


class TestPhases:
    """71(a)(5): the initial phase alone, then cumulatively with each later phase."""

    def phase(self, annual_credit, benefit, start_year=2):
        return {
            "name": "Phase 2",
            "start_year": start_year,
            "jobs": {"new": 10, "nj_withholding_share": 1.0},
            "award": {"annual_credit": annual_credit, "eligibility_period_years": 7},
            "streams": [{"name": "phase 2 taxes", "kind": "revenue", "by_year": {y: benefit for y in range(1, 12)}}],
        }

    def test_cumulative_tests(self):
        # Phase 1: 10.5 x 1,000,000 / 700,000 = 15. Phase 2: credits 2,000,000 x 7 = 14,000,000,
        # benefits 10.5 x 100,000 = 1,050,000. Cumulative: 11,550,000 / 14,700,000 = 0.7857.
        result = evaluate(phases=[self.phase(2_000_000, 100_000)])
        tests = result.to_dict()["phases"]
        assert [t["phases"] for t in tests] == [[1], [1, 2]]
        assert tests[0]["ratio"] == pytest.approx(15.0)
        assert tests[1]["ratio"] == pytest.approx(11_550_000 / 14_700_000)
        assert [t["passes"] for t in tests] == [True, False]
        assert not result.passes and not result.check("71(a)(5)")
        assert result.ratio == pytest.approx(tests[1]["ratio"])

    def test_later_phase_is_dated_and_discounted_from_the_initial_approval(self):
        # At 10%, phase 2 starting 3 years after approval: its year 1 is project year 4.
        result = evaluate(discount_rate=0.10, phases=[self.phase(100_000, 0, start_year=3)])
        credits = result.cashflows["credits"]
        assert list(credits.loc[1:3]) == [100_000] * 3
        assert list(credits.loc[4:7]) == [200_000] * 4
        assert list(credits.loc[8:10]) == [100_000] * 3
        pv_phase_2 = sum(100_000 / 1.1**t for t in range(4, 11))
        assert result.phase_tests["pv_credits"].iloc[1] - result.phase_tests["pv_credits"].iloc[0] == pytest.approx(
            pv_phase_2
        )

    def test_phase_commitment_period(self):
        # Phase 2 commits 2 years from its year 1 (project year 3): project years 3, 4 (a period the
        # authority set: a stated one it did not set counts in no test, docs/model.md, 3).
        phase = self.phase(100_000, 1_000_000, start_year=2) | {
            "commitment": {"period_years": 2, "period_set_by_authority": True}
        }
        result = evaluate(phases=[phase])
        assert result.cashflows["weight_phase_2"].tolist()[:6] == [0, 0, 1, 1, 0, 0]
