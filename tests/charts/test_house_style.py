"""The house style on every chart: labels in words with units, formatted values, percent ratios,
pass/fail hatch, the conventions footnote and ``ax=``; and the charts of analysis tables."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import netbenefit
from netbenefit import labels
from netbenefit.analysis import montecarlo, sensitivity, sweep
from netbenefit.analysis.bands import BAND_COLUMNS, cumulative_pv_bands
from netbenefit.model.after_approval import follow
from netbenefit.model.economics import economist_view, economist_view_of
from netbenefit.views import charts

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def extended():
    return netbenefit.evaluate(SCENARIOS / "extended_commitment.yaml")


@pytest.fixture(scope="module")
def calculator():
    return netbenefit.evaluate(SCENARIOS / "award_calculator.yaml")


@pytest.fixture
def ax():
    return charts.new_figure()[1]


def texts(ax) -> str:
    """Every piece of text on the Axes: title, labels, tick labels, annotations, legend."""
    parts = [ax.get_title(), ax.get_xlabel(), ax.get_ylabel(), *(t.get_text() for t in ax.texts)]
    parts += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    if ax.get_legend() is not None:
        parts += [t.get_text() for t in ax.get_legend().get_texts()]
    return "\n".join(parts)


def assert_house_style(ax, *, footnote_words=("Discount rate", "timing", "USD", "Benefit window")) -> None:
    assert ax.get_title().strip() and ax.get_xlabel().strip() and ax.get_ylabel().strip()
    note = charts.footnote_of(ax)
    for word in footnote_words:
        assert word in note, f"footnote {note!r} lacks {word!r}"
    everything = texts(ax)
    assert "e+0" not in everything, "a number in scientific notation"
    for dotted in ("award.annual_credit", "jobs.new", "discount_rate"):
        assert dotted not in everything, f"a dotted key {dotted!r} shown"


def hatched(ax) -> list:
    return [p for p in ax.patches if p.get_hatch()]


# -- the footnote -----------------------------------------------------------------------------------


def test_footnote_states_the_conventions(extended):
    text = charts.conventions_text(extended)
    assert text.startswith("Discount rate 5.5% a year, end-of-year timing, present values at approval; nominal USD.")
    assert "commitment period 10.5 years + extended commitment 5 years counted, 71(a)(5)(d)" in text


def test_footnote_of_several_results_spans_their_values(extended):
    party = netbenefit.evaluate(SCENARIOS / "party_city.yaml")
    text = charts.conventions_text([extended, party])
    assert "Discount rate 5.5% to 8% a year" in text
    assert "no extension" in text and "extended commitment 5 years counted" in text


def test_footnote_says_nominal_or_real_dollars_as_the_conventions_say(extended):
    from netbenefit.model.conventions import Conventions

    nominal = Conventions.of_result(extended)
    assert nominal.dollars == "nominal" and "; nominal USD." in charts.conventions_text(nominal)
    real = dataclasses.replace(nominal, dollars="real")  # a table a caller gives in real dollars
    assert "; real USD." in charts.conventions_text(real)


@pytest.mark.parametrize("chart", sorted(charts.SCENARIO_CHARTS))
def test_every_scenario_chart_has_the_footnote_and_words(extended, ax, chart):
    assert charts.SCENARIO_CHARTS[chart](extended, ax=ax) is ax
    assert_house_style(ax)


def test_result_plot_kind(extended, ax):
    assert extended.plot(kind="scorecard", ax=ax) is ax
    assert "scorecard" in ax.get_title()
    with pytest.raises(ValueError, match="unknown chart"):
        extended.plot(kind="pie")


def test_compare_ratios_percent_and_hatch(extended, ax):
    phased = netbenefit.evaluate(SCENARIOS / "phased_campus.yaml")
    charts.compare_ratios([extended, phased], ax=ax)
    assert_house_style(ax)
    assert "439% vs 400%" in texts(ax) and hatched(ax)


# -- award, after approval, economist's view ---------------------------------------------------------


def test_award_waterfall(calculator, ax):
    assert charts.award_waterfall(calculator.award_calculation, ax=ax, result=calculator) is ax
    assert_house_style(ax)
    assert "[USD/job/year]" in ax.get_ylabel() and "$6,500" in texts(ax) and "Per new job" in texts(ax)


def test_credits_by_year_has_units_the_scenario_name_and_the_house_palette(ax):
    after = follow(SCENARIOS / "office_hq_default_area.yaml", SCENARIOS / "actuals" / "office_hq_actuals.yaml")
    charts.credits_by_year(after, ax=ax)
    assert_house_style(ax)
    assert after.scenario.name in ax.get_title() and "[USD, nominal]" in ax.get_ylabel()
    assert charts.PASS_COLOUR in {_hex(p.get_facecolor()) for p in ax.patches}
    assert hatched(ax)  # the forfeited credits


def _hex(colour) -> str:
    from matplotlib.colors import to_hex

    return to_hex(colour)


def test_economist_view_names_the_but_for_share_hatches_and_writes_values(calculator, ax):
    # The 400 retained jobs left out of the benefits (credit_eligible_only), so that one view fails.
    new_jobs_only = netbenefit.evaluate(
        calculator.scenario.replace({"readings.retained_benefits": "credit_eligible_only"})
    )
    table = economist_view_of(new_jobs_only, but_for_share=0.25, cost_per_new_job=1500)
    charts.economist_view_chart(table, ax=ax)
    assert_house_style(ax)
    assert "but-for share 25%" in ax.get_title()
    assert "305% passes" in texts(ax) and "76% fails" in texts(ax)
    assert len(hatched(ax)) == 2


def test_economist_view_of_plain_numbers_has_a_footnote_without_conventions(ax):
    charts.economist_view_chart(economist_view(400.0, 100.0, 4.0, but_for_share=0.2), ax=ax)
    assert "but-for share is an explicit assumption" in charts.footnote_of(ax)


# -- tornado ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sensitivity_table(extended):
    ranges = {"jobs.new": (20, 300), "discount_rate": (0.04, 0.08), "award.annual_credit": None}
    return sensitivity(extended.scenario, ranges)


def test_sensitivity_flags_the_ends_at_which_the_project_is_not_eligible(sensitivity_table, extended):
    row = sensitivity_table.set_index("key").loc["jobs.new"]
    # 20 new jobs fail the job minimum of 71(c)(1) (and the ratio): not eligible; 300 pass everything.
    assert not row["eligible_low"] and row["eligible_high"]
    low = netbenefit.evaluate(extended.scenario.replace({"jobs.new": 20}))
    assert not low.check("71(a)(2)") and not low.eligible
    assert sensitivity_table.attrs["conventions"].discount_rate == 0.055


def test_tornado_labels_ends_legend_axis_and_ineligible_ends(sensitivity_table, ax):
    assert charts.tornado(sensitivity_table, ax=ax) is ax
    assert_house_style(ax)
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert "New full-time jobs [jobs]" in ticks and "Annual credit [USD a year]" in ticks
    everything = texts(ax)
    assert "20: 92%, not eligible" in everything and "300: 632%" in everything
    assert "$1.2M: " in everything.replace("\\$", "$") and "4%: 465%" in everything
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:3] == ["Input at its low value", "... at its high value", "Not eligible at that value"]
    assert ax.xaxis.get_major_formatter()(4.0, 0) == "400%"
    assert len(hatched(ax)) == int((~sensitivity_table[["eligible_low", "eligible_high"]]).to_numpy().sum())


# -- Monte Carlo -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run(extended):
    vary = {"jobs.new": ("uniform", 20, 300), "discount_rate": ("uniform", 0.03, 0.09)}
    return montecarlo(extended.scenario, 3000, vary, seed=1, progress=False)


def test_montecarlo_counts_failures_per_check_in_the_engine(run):
    summary = run.summary
    draws = run.draws
    assert summary.check_failures["71(a)(5)"] == int((~draws["passes"]).sum())
    assert summary.check_failures["71(a)(2)"] == int((draws["jobs.new"] < 25).sum())  # 71(c)(1): 25 new jobs
    assert summary.most_failed_check[0] == "71(a)(5)"
    assert "check failed most often: 71(a)(5)" in str(summary)


def test_montecarlo_chart(run, ax):
    assert run.plot(ax=ax) is ax
    assert_house_style(ax)
    everything = texts(ax)
    assert f"P(passes the net benefit test) = {labels.share(run.summary.probability_passes, 1)}" in everything
    assert "P(eligible, every check)" in everything and "Check failed most often: 71(a)(5)" in everything
    assert "Threshold 400%" in everything and hatched(ax)
    assert "New full-time jobs" in ax.get_title()


def test_montecarlo_chart_without_draws(extended, ax):
    run = montecarlo(extended.scenario, 500, {"jobs.new": ("uniform", 150, 250)}, seed=2, keep_draws=False)
    charts.montecarlo_distribution(run, ax=ax)
    assert_house_style(ax)


# -- fan ------------------------------------------------------------------------------------------------


def test_bands_median_is_near_the_base_and_ordered(extended):
    bands = cumulative_pv_bands(extended.scenario, {"jobs.new": ("normal", 200, 20)}, draws=200, seed=3)
    assert tuple(bands.columns) == BAND_COLUMNS
    wide = bands.pivot(index="year", columns="percentile", values="cumulative_pv_net_benefits")
    assert (wide[5] <= wide[50]).all() and (wide[50] <= wide[95]).all()
    np.testing.assert_allclose(
        bands.attrs["base"]["cumulative_pv_net_benefits"], extended.cashflows["cumulative_pv_net_benefits"]
    )
    assert wide[50].iloc[-1] == pytest.approx(extended.cashflows["cumulative_pv_net_benefits"].iloc[-1], rel=0.05)


def test_fan_chart_draws_the_table_of_all_phases_without_a_threshold(extended, ax):
    bands = cumulative_pv_bands(extended.scenario, {"discount_rate": ("uniform", 0.04, 0.07)}, draws=100, seed=4)
    assert charts.fan(bands, ax=ax) is ax
    assert_house_style(ax)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "5th to 95th percentile" in legend and not any("of the median cumulative PV" in t for t in legend)
    assert len(ax.collections) == 2
    assert "all phases" in ax.get_title() and "all phases" in ax.get_ylabel()
    assert not [line for line in ax.get_lines() if line.get_linestyle() == "--"]  # no threshold line
    assert "not of the test that decides 71(a)(5)" in charts.footnote_of(ax)


def _bars_by_verdict(ax):
    """The histogram's bars, (left edge, right edge, height) by verdict (by its fill colour)."""
    bars = {True: [], False: []}
    for patch in ax.patches:
        passes = patch.get_hatch() is None
        bars[passes].append((patch.get_x(), patch.get_x() + patch.get_width(), patch.get_height()))
    return bars


def test_every_draw_is_drawn_on_the_side_of_the_line_its_own_verdict_is_on(ax):
    """Life sciences: phase 1 alone decides; drawn by its ratio, each draw coloured by its own verdict.
    No failing draw right of the threshold, no passing draw left of it; the shares add up to the
    draws' verdicts; the whole project's ratio (every passing draw's and more) is never drawn."""
    scenario = netbenefit.load_scenario(SCENARIOS / "life_sciences_phased.yaml")
    run = montecarlo(scenario, 2000, {"jobs.new": ("uniform", 150, 320)}, seed=5, progress=False)
    draws = run.draws
    assert draws["passes"].any() and (~draws["passes"]).any()
    charts.montecarlo_distribution(run, ax=ax)
    bars = _bars_by_verdict(ax)
    threshold = 3.0
    assert all(right <= threshold + 1e-12 for _, right, _ in bars[False])
    assert all(left >= threshold - 1e-12 for left, _, _ in bars[True])
    assert sum(h for *_, h in bars[True]) == pytest.approx(draws["passes"].mean())
    assert sum(h for *_, h in bars[False]) == pytest.approx(1 - draws["passes"].mean())
    assert ax.get_xlabel() == "Net benefit ratio of the test that decides, 71(a)(5) [%]"
    # the ratio drawn is the deciding test's: where phase 1 fails alone, the draw fails
    assert ((draws["ratio"] >= threshold) == draws["passes"]).all()


def test_draws_with_different_thresholds_are_drawn_as_margins(ax):
    """A varied location moves the threshold (300% distressed, 400% not): each draw's margin over
    its own threshold is drawn against 0, its side agreeing with its verdict."""
    scenario = netbenefit.load_scenario(SCENARIOS / "life_sciences_phased.yaml")
    vary = {"location.distressed_municipality": [True, False], "jobs.new": ("uniform", 150, 320)}
    run = montecarlo(scenario, 1000, vary, seed=2, progress=False)
    assert run.draws["threshold"].nunique() == 2
    charts.montecarlo_distribution(run, ax=ax)
    bars = _bars_by_verdict(ax)
    assert all(right <= 1e-12 for _, right, _ in bars[False]) and all(left >= -1e-12 for left, _, _ in bars[True])
    assert "Each draw's own threshold" in texts(ax) and "[percentage points]" in ax.get_xlabel()
    assert ax.xaxis.get_major_formatter()(0.25, 0) == "+25"


# -- sweep --------------------------------------------------------------------------------------------


def test_sweep_line(extended, ax):
    table = sweep(extended.scenario, {"discount_rate": [0.03, 0.06, 0.09]})
    assert charts.sweep(table, ax=ax) is ax
    assert_house_style(ax)
    assert ax.get_xlabel() == "Discount rate [% a year]"
    assert ax.xaxis.get_major_formatter()(0.06, 0) == "6%"
    assert "Threshold 400%" in texts(ax) and "Net benefit test fails" in texts(ax)


def test_sweep_map_hatches_failing_cells(extended, ax):
    table = sweep(extended.scenario, {"jobs.new": [100, 200, 300], "discount_rate": [0.04, 0.08]})
    charts.sweep(table, ax=ax)
    assert_house_style(ax)
    assert len(hatched(ax)) == int((~table["passes"]).sum())
    assert ax.get_ylabel() == "Discount rate [% a year]"


def test_sweep_refuses_a_third_varied_key(extended):
    table = sweep(
        extended.scenario, {"jobs.new": [100, 200], "discount_rate": [0.04, 0.08], "jobs.median_salary": [80000, 90000]}
    )
    with pytest.raises(ValueError, match="jobs.median_salary"):
        charts.sweep(table)


# -- benefits by tax, clawback, ratio waterfall ---------------------------------------------------------


def _with_tax(result):
    streams = result.streams.copy()
    streams["tax"] = np.where(streams["stream"].str.contains("income_tax"), "gross_income_tax", "sales_and_use_tax")
    streams.loc[streams["stream"] == "corporation_business_tax", "tax"] = "corporation_business_tax"
    revenue = streams[streams["kind"] == "revenue"]
    by_tax = revenue.groupby("tax").agg(nominal=("counted", "sum"), pv=("present_value", "sum")).reset_index()
    return dataclasses.replace(result, streams=streams, benefits_by_tax=by_tax)


def test_benefits_by_tax_stacks_by_year(extended, ax):
    result = _with_tax(extended)
    assert charts.benefits_by_tax(result, ax=ax) is ax
    assert_house_style(ax)
    years = len(result.cashflows)
    bars = [p for p in ax.patches]
    assert len(bars) == 3 * years
    tops = np.zeros(years)
    for i in range(3):
        tops += [p.get_height() for p in bars[i * years : (i + 1) * years]]
    np.testing.assert_allclose(tops, result.streams.groupby("year")["counted"].sum().to_numpy())
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0].startswith("Gross income tax (PV ")
    assert "benefits_by_tax" in charts.meaningful_charts(result)


def test_benefits_by_tax_without_the_tax_column_is_a_note(extended, ax):
    untaxed = dataclasses.replace(extended, streams=extended.streams.drop(columns="tax"))
    charts.benefits_by_tax(untaxed, ax=ax)
    assert "no breakdown" in texts(ax)
    assert "benefits_by_tax" not in charts.meaningful_charts(untaxed)
    assert "benefits_by_tax" in charts.meaningful_charts(extended)


def test_clawback_schedule(extended, ax):
    table = pd.DataFrame(
        {
            "years_maintained": [0, 1, 2, 3],
            "credits_received": [0.0, 1e6, 2e6, 3e6],
            "recapture": [0.0, 1e6, 1.5e6, 0.0],
            "extension_repayment": [5e5, 5e5, 5e5, 0.0],
        }
    )
    table["total"] = table["recapture"] + table["extension_repayment"]
    table["pv_total"] = table["total"] * 0.9
    result = dataclasses.replace(extended, clawback_schedule=table)
    assert charts.clawback_schedule(result, ax=ax) is ax
    assert_house_style(ax)
    assert "$2.0M\n(PV $1.8M)" in texts(ax).replace("\\$", "$")
    assert len(hatched(ax)) == 8  # recapture and extension bars, four each
    assert "clawback_schedule" in charts.meaningful_charts(result)


@pytest.mark.parametrize("name", ["extended_commitment", "party_city", "mega_project"])
@pytest.mark.slow
def test_no_line_crosses_a_label_of_the_clawback_chart(name):
    """Read back from the drawn figure: no line (credits received, the recapture's range) passes
    through or behind any amount the chart writes; each amount stands over its own column, above
    the Axes."""
    from .text_fit import line_problems, text_problems

    result = netbenefit.evaluate(SCENARIOS / f"{name}.yaml")
    figure = charts.draw("clawback_schedule", result)
    ax = figure.axes[0]
    assert line_problems(figure, name, backing=False) == [] and text_problems(figure, name) == []
    renderer = figure.canvas.get_renderer()
    top = ax.get_window_extent(renderer).y1
    schedule = result.clawback_schedule
    amounts = [t for t in ax.texts if "(PV $" in t.get_text()]
    assert amounts and all(t.get_window_extent(renderer).y0 >= top for t in amounts)
    for text in amounts:
        year = text.xy[0]
        total = float(schedule.loc[schedule["years_maintained"] == year, "total"].iloc[0])
        assert text.get_text().startswith(labels.money(total))
    assert [line.get_drawstyle() for line in ax.get_lines()] == ["steps-mid", "steps-mid"]


def test_ratio_waterfall_of_a_diff(extended, ax):
    diff = SimpleNamespace(
        name_a="A",
        name_b="B",
        ratio_a=4.8,
        ratio_b=3.6,
        threshold_a=4.0,
        threshold_b=4.0,
        margin_a=0.8,
        margin_b=-0.4,
        passes_a=True,
        passes_b=False,
        inputs=pd.DataFrame({"key": ["jobs.new", "discount_rate"], "old": [250.0, 0.05], "new": [200.0, 0.06]}),
        attribution=pd.DataFrame({"key": ["jobs.new", "discount_rate"], "contribution": [-0.9, -0.3]}),
        by_tax=None,
        result_a=extended,
        result_b=extended,
    )
    assert charts.ratio_waterfall(diff, ax=ax) is ax
    assert_house_style(ax)
    everything = texts(ax)
    assert "New full-time jobs\n250 to 200" in everything and "Discount rate\n5% to 6%" in everything
    assert "-90.00 pts" in everything and "+80.00 pts" in everything and "-40.00 pts" in everything
    assert "480.0% vs 400%" in everything and "360.0% < 400%" not in everything and "360.0% vs 400%" in everything
    assert len(hatched(ax)) == 2


def test_the_waterfall_walks_the_margin_in_points_from_zero(ax):
    """The North site passes only with its extension (400% test) where the distressed site does not
    count it (300%): the chart walks the margin, the threshold and the benefit window as bars of their
    own, on an axis in percentage points (never "%"), A's and B's bars from zero (the threshold)."""
    a = SCENARIOS / "life_sciences_phased.yaml"
    scenario = netbenefit.load_scenario(a)
    b = scenario.replace({"location.distressed_municipality": False, "name": "Not distressed"})
    diff = netbenefit.diff(scenario, b)
    charts.ratio_waterfall(diff, ax=ax)
    ticks = [ax.yaxis.get_major_formatter()(value, 0) for value in ax.get_yticks()]
    assert ticks and not any("%" in tick for tick in ticks)
    assert ax.yaxis.get_major_formatter()(0.25, 0) == "+25" and "[percentage points]" in ax.get_ylabel()
    bars = sorted(ax.patches, key=lambda bar: bar.get_x())
    first, last = bars[0], bars[-1]
    assert first.get_y() == 0 and first.get_height() == pytest.approx(diff.margin_a)
    assert last.get_y() == 0 and last.get_height() == pytest.approx(diff.margin_b)
    floating = bars[1:-1]
    assert len(floating) == len(diff.attribution_shown) > len(diff.attribution)  # the threshold is a bar
    assert sum(bar.get_height() for bar in floating) == pytest.approx(diff.margin_b - diff.margin_a)
    assert ax.get_ylim()[0] <= min(0.0, diff.margin_a, diff.margin_b)


@pytest.mark.parametrize(
    "chart",
    ["tornado", "fan", "sweep", "montecarlo_distribution", "benefits_by_tax", "clawback_schedule", "ratio_waterfall"],
)
def test_new_charts_are_exported(chart):
    assert chart in charts.__all__
