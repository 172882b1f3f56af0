"""The economist's view beside the statutory test; charts; the award and actuals commands."""

import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

import netbenefit  # noqa: E402
from netbenefit import ScenarioError
from netbenefit.cli import main  # noqa: E402
from netbenefit.model.after_approval import follow  # noqa: E402
from netbenefit.model.economics import (
    VIEWS,
    but_for_share_to_pass,
    economist_view,
    economist_view_of,
    pv_cost_of_growth,
)
from netbenefit.views import charts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
OFFICE = SCENARIOS / "office_hq_default_area.yaml"
OFFICE_ACTUALS = SCENARIOS / "actuals" / "office_hq_actuals.yaml"
CALCULATOR = SCENARIOS / "award_calculator.yaml"


# --- economist's view ----------------------------------------------------------------------------------
def test_statutory_row_is_the_statutory_test():
    result = netbenefit.evaluate(OFFICE)
    table = economist_view_of(result, but_for_share=0.1)
    assert list(table.index) == list(VIEWS)
    row = table.loc["statutory"]
    assert row["pv_benefits"] == result.pv_benefits and row["ratio"] == pytest.approx(result.ratio)
    assert bool(row["passes_threshold"]) is result.passes
    assert row["net_of_award"] == pytest.approx(result.pv_benefits - result.pv_credits)


def test_but_for_share_scales_the_benefits_and_changes_the_verdict():
    # B = 800, K = 100, T = 4: statutory ratio 8 passes; at s = 0.25: 200 / 100 = 2 fails, net +100;
    # net of a cost of growth of 500: 0.25 x 300 = 75 -> net of award -25.
    table = economist_view(800.0, 100.0, 4.0, but_for_share=0.25, pv_cost_of_growth=500.0)
    assert table["pv_benefits"].tolist() == [800.0, 200.0, 75.0]
    assert table["ratio"].tolist() == [8.0, 2.0, 0.75]
    assert table["passes_threshold"].tolist() == [True, False, False]
    assert table["net_of_award"].tolist() == [700.0, 100.0, -25.0]
    assert table["net_positive"].tolist() == [True, True, False]


def test_ratio_exactly_at_the_threshold_passes():
    # s = 0.5 of 800 = 400 = 4 x 100.
    assert economist_view(800.0, 100.0, 4.0, but_for_share=0.5).loc["but_for", "passes_threshold"]
    assert but_for_share_to_pass(800.0, 100.0, 4.0) == 0.5
    assert but_for_share_to_pass(100.0, 100.0, 4.0, pv_cost_of_growth=200.0) == float("inf")


def test_but_for_share_has_no_default():
    with pytest.raises(TypeError):
        economist_view(800.0, 100.0, 4.0)  # the but-for share is an explicit argument


@pytest.mark.parametrize("share", [-0.01, 1.01, 25])
def test_but_for_share_must_be_a_share(share):
    with pytest.raises(ScenarioError, match="but_for_share: must be a share"):
        economist_view(800.0, 100.0, 4.0, but_for_share=share)


def test_cost_of_growth_is_weighted_and_discounted():
    # 10 jobs x (100 + 2 residents x 50) = 2,000 a year; weights 1, 0.5; factors 1, 0.5 -> 2,000 + 500.
    value = pv_cost_of_growth(
        [10, 10], [1.0, 0.5], [1.0, 0.5], cost_per_new_job=100.0, cost_per_resident=50.0, residents_per_new_job=2.0
    )
    assert value == 2500.0
    with pytest.raises(ScenarioError, match="cost_per_new_job"):
        pv_cost_of_growth([1], [1.0], [1.0], cost_per_new_job=-1.0)


def test_cost_of_growth_of_a_result_uses_its_window():
    result = netbenefit.evaluate(OFFICE)
    cashflows = result.cashflows
    counted = cashflows["new_full_time_jobs"] * cashflows["weight"] * cashflows["discount_factor"]
    expected = float((counted * 1000).sum())
    table = economist_view_of(result, but_for_share=1.0, cost_per_new_job=1000.0)
    assert table.loc["but_for_net_of_cost_of_growth", "pv_benefits"] == pytest.approx(result.pv_benefits - expected)


# --- charts ------------------------------------------------------------------------------------------------
def test_charts_draw_on_the_given_axes_and_return_them():
    result = netbenefit.evaluate(CALCULATOR)
    after = follow(OFFICE, OFFICE_ACTUALS)
    figure, axes = plt.subplots(1, 3)
    assert charts.award_waterfall(result.award_calculation, ax=axes[0]) is axes[0]
    assert charts.credits_by_year(after, ax=axes[1]) is axes[1]
    table = economist_view_of(result, but_for_share=0.2)
    assert charts.economist_view_chart(table, ax=axes[2]) is axes[2]
    # The waterfall's last two bars are the credit per new and per retained job.
    heights = [patch.get_height() for patch in axes[0].patches]
    assert heights[-2:] == [6500.0, 3250.0]
    plt.close(figure)


def test_charts_make_their_own_axes():
    after = follow(OFFICE, OFFICE_ACTUALS)
    ax = charts.credits_by_year(after)
    assert ax.get_xlabel() == "Project year after approval [year]"
    plt.close(ax.figure)


# --- the bundled examples ------------------------------------------------------------------------------
def test_bundled_calculator_scenario():
    result = netbenefit.evaluate(CALCULATOR)
    steps = result.award_calculation.set_index("step")
    # Distressed municipality $3,000 (above the opportunity zone's $2,500) + 1,500 + 1,000, + 1,000.
    assert steps.loc["base", "per_job"] == 3000
    assert steps.loc["per_new_job", "per_job"] == 6500
    assert result.requested_credits == steps.loc["total", "total"] == 150 * 6500 * 7
    assert result.passes and result.threshold_clause == "71(a)(5)(a)"


def test_bundled_actuals_tell_their_story():
    after = follow(OFFICE, OFFICE_ACTUALS)
    assert after.forfeited_years == (4, 5)
    assert 4 in after.rerun_flag_years and 2 not in after.rerun_flag_years
    assert after.rerun_ratio < after.projected.ratio


# --- command line ------------------------------------------------------------------------------------------
def test_award_command(capsys):
    assert main(["award", str(CALCULATOR), "--but-for-share", "0.2", "--cost-per-new-job", "2000"]) == 0
    out = capsys.readouterr().out
    assert "per_new_job" in out and "6500" in out
    assert "but_for_net_of_cost_of_growth" in out


def test_award_command_on_a_scenario_without_the_calculator(capsys):
    assert main(["award", str(OFFICE)]) == 0
    assert "given directly" in capsys.readouterr().out


def test_actuals_command(capsys):
    assert main(["actuals", str(OFFICE), str(OFFICE_ACTUALS)]) == 0
    out = capsys.readouterr().out
    assert "forfeited" in out and "certified_credit" in out
    assert main(["actuals", str(OFFICE), str(OFFICE_ACTUALS), "--csv"]) == 0
    assert capsys.readouterr().out.startswith("year,approved_credit,")


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, words",
    [
        (["actuals", str(OFFICE), "missing.yaml"], "missing.yaml: file not found"),
        (["award", str(OFFICE), "--cost-per-new-job", "100"], "--but-for-share: required"),
        (["award", str(OFFICE), "--but-for-share", "20"], "but_for_share: must be a share"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, words):
    process = subprocess.run([sys.executable, "-m", "netbenefit", *args], capture_output=True, text=True, timeout=120)
    assert process.returncode == 2
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]
    assert process.stdout == ""
