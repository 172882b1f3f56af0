"""Monte Carlo: distributions, reproducibility, chunking, the summary and out-of-range draws."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.analysis import montecarlo, summarise
from netbenefit.analysis.variants import RESULT_COLUMNS

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
VARY = {
    "jobs.new": ("normal", 260, 25),
    "discount_rate": ("uniform", 0.04, 0.08),
    "jobs.median_salary": ("triangular", 85_000, 98_000, 115_000),
    "revenue.earnings_multiplier": ("lognormal", 0.5, 0.05),
    "location.enhanced_area": [True, False],
    "award.eligibility_period_years": [5, 6, 7],
}


@pytest.fixture(scope="module")
def office():
    return netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")


def test_draws_have_the_sweep_columns(office):
    run = montecarlo(office, draws=500, vary=VARY, seed=1, progress=False)
    assert list(run.draws.columns) == list(VARY) + list(RESULT_COLUMNS)
    assert len(run.draws) == 500
    assert run.draws["location.enhanced_area"].dtype == bool
    assert set(run.draws["award.eligibility_period_years"]) == {5, 6, 7}
    assert run.draws["award.eligibility_period_years"].dtype == np.int64  # a whole-number key


def test_the_same_seed_gives_the_same_draws(office):
    first = montecarlo(office, draws=300, vary=VARY, seed=7, progress=False)
    second = montecarlo(office, draws=300, vary=VARY, seed=7, progress=False)
    other = montecarlo(office, draws=300, vary=VARY, seed=8, progress=False)
    assert first.draws.equals(second.draws)
    assert first.summary == second.summary
    assert not first.draws["jobs.new"].equals(other.draws["jobs.new"])


def test_without_a_seed_the_result_gives_one_that_repeats_the_run(office):
    first = montecarlo(office, draws=200, vary=VARY, progress=False)
    again = montecarlo(office, draws=200, vary=VARY, seed=first.seed, progress=False)
    assert first.draws.equals(again.draws)


def test_chunking_gives_identical_results(office):
    whole = montecarlo(office, draws=1_000, vary=VARY, seed=3, chunk_size=1_000, progress=False)
    chunked = montecarlo(office, draws=1_000, vary=VARY, seed=3, chunk_size=137, progress=False)
    assert whole.draws.equals(chunked.draws)
    assert whole.summary == chunked.summary


def test_summary_only_gives_the_same_summary(office):
    kept = montecarlo(office, draws=2_000, vary=VARY, seed=5, chunk_size=500, progress=False)
    summary_only = montecarlo(office, draws=2_000, vary=VARY, seed=5, chunk_size=500, progress=False, keep_draws=False)
    assert summary_only.draws is None
    assert summary_only.summary == kept.summary


def test_summary_values_are_those_of_the_draws(office):
    run = montecarlo(office, draws=4_000, vary=VARY, seed=11, progress=False)
    table, summary = run.draws, run.summary
    assert summary.draws == 4_000
    assert summary.probability_passes == pytest.approx(table["passes"].mean())
    assert summary.probability_eligible == pytest.approx(table["eligible"].mean())
    assert summary.ratio_mean == pytest.approx(table["ratio"].mean())
    expected = np.percentile(table["ratio"], [5, 25, 50, 75, 95])
    assert list(summary.ratio_percentiles) == [5, 25, 50, 75, 95]
    assert list(summary.ratio_percentiles.values()) == pytest.approx(list(expected))
    assert 0 < summary.probability_passes < 1
    assert summarise(table) == summary
    assert set(summary.to_dict()) >= {"probability_passes", "ratio_p5", "ratio_p95", "ratio_mean"}
    assert "probability of passing" in str(summary)


def test_distributions_have_their_documented_parameters(office):
    vary = {
        "jobs.new": ("uniform", 100, 200),
        "discount_rate": ("normal", 0.06, 0.01),
        "jobs.median_salary": ("triangular", 80_000, 90_000, 130_000),
        # mean and sigma of the underlying normal: the median of the draws is exp(0.4).
        "revenue.earnings_multiplier": ("lognormal", 0.4, 0.05),
    }
    table = montecarlo(office, draws=20_000, vary=vary, seed=2, progress=False).draws
    assert table["jobs.new"].between(100, 200).all()
    assert table["jobs.new"].mean() == pytest.approx(150, rel=0.01)
    assert table["discount_rate"].std() == pytest.approx(0.01, rel=0.05)
    assert table["jobs.median_salary"].mean() == pytest.approx((80_000 + 90_000 + 130_000) / 3, rel=0.01)
    assert table["revenue.earnings_multiplier"].median() == pytest.approx(np.exp(0.4), rel=0.005)


def test_a_list_is_sampled_with_equal_chances(office):
    table = montecarlo(office, draws=6_000, vary={"jobs.new": [100, 200, 300]}, seed=4, progress=False).draws
    shares = table["jobs.new"].value_counts(normalize=True)
    assert set(shares.index) == {100.0, 200.0, 300.0}
    assert shares.to_numpy() == pytest.approx([1 / 3] * 3, abs=0.03)


def test_draws_outside_the_range_raise_or_are_clipped(office):
    vary = {"jobs.nj_withholding_share": ("normal", 0.9, 0.1)}
    with pytest.raises(ScenarioError) as error:
        montecarlo(office, draws=1_000, vary=vary, seed=1, progress=False)
    assert error.value.key == "jobs.nj_withholding_share" and "<= 1" in str(error.value)
    clipped = montecarlo(office, draws=1_000, vary=vary, seed=1, progress=False, out_of_range="clip").draws
    assert clipped["jobs.nj_withholding_share"].between(0, 1).all()
    assert (clipped["jobs.nj_withholding_share"] == 1.0).any()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (("gamma", 1, 2), "unknown distribution"),
        (("normal", 1), "takes 2 parameters"),
        (("uniform", 2, 1), "low <= high"),
        (("normal", 1, -1), "spread >= 0"),
        (("triangular", 1, 5, 3), "low <= mode <= high"),
        (("normal", "a", 1), "must be numbers"),
        ("normal(1,2)", "give a distribution"),
        ([], "empty"),
        (["a", 1], "unknown distribution"),
    ],
)
def test_bad_distributions_raise_naming_the_key(office, spec, words):
    with pytest.raises(ScenarioError) as error:
        montecarlo(office, draws=10, vary={"jobs.new": spec}, seed=1, progress=False)
    assert error.value.key == "jobs.new" and words in str(error.value)


def test_flags_take_lists_of_booleans(office):
    with pytest.raises(ScenarioError, match="flag"):
        montecarlo(office, draws=10, vary={"location.enhanced_area": ("uniform", 0, 1)}, seed=1, progress=False)
    with pytest.raises(ScenarioError, match="flag"):
        montecarlo(office, draws=10, vary={"location.enhanced_area": [0, 1]}, seed=1, progress=False)


def test_unknown_and_non_numeric_keys_raise(office):
    for key in ("jobs.neww", "name", "timing"):
        with pytest.raises(ScenarioError) as error:
            montecarlo(office, draws=10, vary={key: [1.0]}, seed=1, progress=False)
        assert error.value.key == key


@pytest.mark.parametrize("draws", [0, -5, 2.5, True])
def test_the_number_of_draws_is_checked(office, draws):
    with pytest.raises(ScenarioError, match="draws"):
        montecarlo(office, draws=draws, vary={"jobs.new": [1.0]}, seed=1, progress=False)


def test_progress_bar_goes_to_stderr_only_when_asked(office, capsys):
    montecarlo(office, draws=400, vary={"jobs.new": [200.0, 300.0]}, seed=1, chunk_size=100, progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and "Monte Carlo" in captured.err
    montecarlo(office, draws=400, vary={"jobs.new": [200.0, 300.0]}, seed=1, chunk_size=100, progress=False)
    assert capsys.readouterr() == ("", "")
