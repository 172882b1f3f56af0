"""The charts: what each one draws, read back from the Axes, and the image files written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit.views import charts

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def results():
    names = ("party_city", "phased_campus", "extended_commitment", "imported_streams_csv", "mega_project")
    return {name: netbenefit.evaluate(SCENARIOS / f"{name}.yaml") for name in names}


@pytest.fixture
def ax():
    return charts.new_figure()[1]


def assert_labelled(axes) -> None:
    assert axes.get_title().strip()
    assert axes.get_xlabel().strip() and axes.get_ylabel().strip()


# -- every chart ---------------------------------------------------------------------------------


@pytest.mark.parametrize("chart", sorted(charts.SCENARIO_CHARTS))
def test_each_chart_draws_on_the_given_axes_and_returns_it(results, ax, chart):
    drawn = charts.SCENARIO_CHARTS[chart](results["extended_commitment"], ax=ax)
    assert drawn is ax
    assert_labelled(ax)


def test_compare_ratios_draws_on_the_given_axes_and_returns_it(results, ax):
    assert charts.compare_ratios(list(results.values()), ax=ax) is ax
    assert_labelled(ax)


@pytest.mark.parametrize("chart", sorted(charts.SCENARIO_CHARTS))
def test_without_axes_a_new_figure_is_made(results, chart):
    import matplotlib.pyplot as plt

    drawn = charts.SCENARIO_CHARTS[chart](results["party_city"])
    try:
        assert drawn.figure is not None and drawn.get_title()
    finally:
        plt.close(drawn.figure)


def test_result_plot_is_the_cumulative_chart(results, ax):
    assert results["party_city"].plot(ax=ax) is ax
    assert "Cumulative PV of net benefits" in [line.get_label() for line in ax.get_lines()]


# -- cumulative present value --------------------------------------------------------------------


def test_cumulative_pv_draws_benefits_credits_and_the_threshold_multiple(results, ax):
    result = results["extended_commitment"]
    charts.cumulative_pv(result, ax=ax)
    lines = {line.get_label(): line for line in ax.get_lines()}
    table = result.cashflows
    np.testing.assert_allclose(lines["Cumulative PV of net benefits"].get_ydata(), table["cumulative_pv_net_benefits"])
    # One phase: the test's credits are all the credits, PV $5,682,967, a level line; 400% of it.
    credits = table["cumulative_pv_credits"].iloc[-1]
    np.testing.assert_allclose(lines["PV of requested credits"].get_ydata(), credits)
    np.testing.assert_allclose(lines["400% of the PV of requested credits (71(a)(5))"].get_ydata(), 4.0 * credits)
    assert "The benefits reach 400% of the credits: year 14" in lines
    assert len(ax.get_legend().get_texts()) == 4


def test_cumulative_pv_of_a_phased_project_follows_the_test_that_decides(ax):
    # Life sciences: phase 1 alone decides, 259.1% < 300%; the whole project is 316.9%.
    result = netbenefit.evaluate(SCENARIOS / "life_sciences_phased.yaml")
    charts.cumulative_pv(result, ax=ax)
    benefits, credits = result.deciding_test_cumulative_pv()
    lines = ax.get_lines()
    assert lines[0].get_label() == "Cumulative PV of net benefits, phase 1 alone (the test that decides)"
    np.testing.assert_allclose(lines[0].get_ydata(), benefits)
    np.testing.assert_allclose(lines[1].get_ydata(), credits)
    np.testing.assert_allclose(lines[2].get_ydata(), 3.0 * credits)
    row = result.phase_tests.iloc[0]  # the deciding test's own present values
    assert benefits[-1] == pytest.approx(row.pv_benefits, rel=1e-12) and credits == pytest.approx(row.pv_credits)
    assert benefits[-1] / credits == pytest.approx(result.ratio, rel=1e-12)  # the ratio the lines end at
    title = ax.get_title()
    assert "Deciding test, phase 1 alone: 259% vs 300% threshold: fails" in title and "317%" not in title
    assert "The benefits never reach 300% of the credits" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert "whole project's ratio (every phase) is 316.9%" in charts.footnote_of(ax)


def test_first_year_met(results):
    # Party City: the whole PV of net benefits, $35,734,024, is in year 1 and exceeds 4 x $7,434,696.
    assert results["party_city"].first_year_test_met == 1
    # Extended commitment: $23.08M by year 14 against 4 x $5,682,967 = $22.73M.
    assert results["extended_commitment"].first_year_test_met == 14
    # The phased campus ends at 391%: never.
    assert results["phased_campus"].first_year_test_met is None


def test_cumulative_pv_says_when_the_benefits_never_reach_the_threshold(results, ax):
    charts.cumulative_pv(results["phased_campus"], ax=ax)
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert "The benefits never reach 400% of the credits" in labels
    assert "fails" in ax.get_title()


# -- benefit streams -----------------------------------------------------------------------------


def test_benefit_streams_stacks_one_bar_per_year_and_category(results, ax):
    result = results["phased_campus"]
    charts.benefit_streams(result, ax=ax)
    table = charts.stream_categories(result)
    assert list(table.columns) == [
        "Operations, direct",
        "Operations, indirect and induced",
        "Construction (one-time), direct",
        "Construction (one-time), indirect and induced",
    ]
    assert len(ax.containers) == len(table.columns)
    assert all(len(container.patches) == len(result.cashflows) for container in ax.containers)
    heights = sum(np.array([patch.get_height() for patch in container.patches]) for container in ax.containers)
    counted = result.streams.groupby("year")["counted"].sum().reindex(result.cashflows.index)
    np.testing.assert_allclose(heights, counted)  # every counted dollar is in a bar, once


def test_benefit_streams_draws_costs_below_zero_and_names_abated_streams(results, ax):
    result = results["imported_streams_csv"]
    charts.benefit_streams(result, ax=ax)
    containers = {container.get_label(): container for container in ax.containers}
    assert set(containers) == {"Explicit streams", charts.COST_LABEL}
    assert all(patch.get_height() <= 0 for patch in containers[charts.COST_LABEL].patches)
    assert "PILOT-abated property tax" in ax.get_title()


# -- comparison ----------------------------------------------------------------------------------


def test_compare_ratios_one_sorted_bar_per_scenario_with_each_threshold(results, ax):
    base = results["party_city"].scenario
    variants = [
        netbenefit.evaluate(
            base.replace({"name": f"Party City variant {k} with a long descriptive name", "jobs.new": 40 + k})
        )
        for k in range(8)
    ]
    everything = list(results.values()) + variants  # 13 scenarios
    charts.compare_ratios(everything, ax=ax)
    bars = sorted(ax.patches, key=lambda bar: bar.get_y())  # bottom to top
    assert len(bars) == len(everything)
    ordered = sorted(everything, key=lambda r: r.ratio)
    assert [bar.get_width() for bar in bars] == pytest.approx([r.ratio for r in ordered])  # highest at the top
    assert len(ax.get_yticklabels()) == len(everything)
    assert all(len(line) <= 31 for label in ax.get_yticklabels() for line in label.get_text().split("\n"))
    thresholds = sorted(ax.collections[0].get_offsets()[:, 0])
    assert thresholds == sorted(r.threshold for r in everything)
    colours = {
        passes: {bar.get_facecolor() for bar, r in zip(bars, ordered, strict=True) if r.passes == passes}
        for passes in (True, False)
    }
    assert len(colours[True]) == len(colours[False]) == 1 and colours[True] != colours[False]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "Net benefit test passes",
        "Net benefit test fails",
        "The scenario's own threshold",
    ]


# -- phases, repayment, scorecard ----------------------------------------------------------------


def test_phase_ratios_one_bar_per_cumulative_test_and_the_threshold(results, ax):
    result = results["phased_campus"]
    charts.phase_ratios(result, ax=ax)
    assert [patch.get_height() for patch in ax.patches] == pytest.approx(list(result.phase_tests["ratio"]))
    assert [label.get_text() for label in ax.get_xticklabels()] == ["Phase 1", "Phases 1-2"]
    assert ax.get_lines()[0].get_ydata()[0] == pytest.approx(result.threshold)


def test_repayment_schedule_one_bar_per_year_maintained(results, ax):
    result = results["extended_commitment"]
    charts.repayment_schedule(result, ax=ax)
    assert [patch.get_height() for patch in ax.patches] == pytest.approx(list(result.repayment_schedule["repayment"]))
    assert len(ax.patches) == result.extended_years == 5


def test_repayment_schedule_without_an_extension_is_an_empty_chart_with_a_note(results, ax):
    result = results["party_city"]
    assert result.repayment_schedule.empty
    charts.repayment_schedule(result, ax=ax)
    assert not ax.patches
    assert any("No extended commitment" in text.get_text() for text in ax.texts)
    assert_labelled(ax)


def test_scorecard_one_row_per_check_with_its_clause(results, ax):
    result = results["phased_campus"]
    charts.scorecard(result, ax=ax)
    assert len(ax.patches) == len(result.checks)
    assert [label.get_text() for label in ax.get_yticklabels()] == list(result.checks["id"])  # top to bottom
    shown = [text.get_text() for text in ax.texts]
    assert shown.count("FAIL") == (~result.checks["passed"]).sum() == 1
    assert "10 of 11 checks pass" in ax.get_title()


def test_dollar_signs_in_messages_are_not_read_as_maths(results, ax):
    charts.scorecard(results["party_city"], ax=ax)
    message = next(text for text in ax.texts if "Capital investment" in text.get_text())
    assert "$32,000,000" in message.get_text() and "\\$" not in message.get_text()  # as written, not escaped
    assert not message.get_parse_math()  # math text is off: never read as mathtext


# -- files ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_save_figure_writes_a_non_trivial_image(results, tmp_path, suffix):
    path = charts.save_figure(charts.draw("cumulative_pv", results["party_city"]), tmp_path / "chart" / f"pv.{suffix}")
    assert path.stat().st_size > 5_000
    assert [p.name for p in path.parent.iterdir()] == [f"pv.{suffix}"]  # no temporary file left


def test_save_figure_refuses_an_unknown_format(results, tmp_path):
    with pytest.raises(ValueError, match="format"):
        charts.save_figure(charts.draw("scorecard", results["party_city"]), tmp_path / "chart.bmp")


def test_meaningful_charts(results):
    assert charts.meaningful_charts(results["party_city"]) == [
        "cumulative_pv",
        "benefit_streams",
        "benefits_by_tax",
        "clawback_schedule",
        "scorecard",
    ]
    assert "phase_ratios" in charts.meaningful_charts(results["phased_campus"])
    assert "repayment_schedule" in charts.meaningful_charts(results["extended_commitment"])


def test_a_negative_ratio_is_drawn_below_zero(results, ax):
    # Costs of $2,000,000 a year swamp the benefits: the ratio is negative (net costs to the State).
    scenario = results["imported_streams_csv"].scenario
    costly = netbenefit.evaluate(scenario.replace({"streams.3.by_year": {year: 2_000_000 for year in range(1, 12)}}))
    assert costly.ratio < 0
    charts.compare_ratios([costly, results["party_city"]], ax=ax)
    assert ax.get_xlim()[0] < costly.ratio
    other = charts.new_figure()[1]
    charts.phase_ratios(costly, ax=other)
    assert other.get_ylim()[0] < costly.ratio < 0


LONG_NAMES = [
    "Northeast Corridor Advanced Biopharmaceutical Manufacturing and Research Campus, Phase One Expansion",
    "Supercalifragilisticexpialidocious Holdings Incorporated, Newark",
    "Three-phase campus, North site, with the front-loaded award and the five-year extension elected",
    "A",
    "Distressed-municipality variant of the Three-phase campus (discount rate 3%, salary $82,000)",
]


def test_compare_ratios_names_fit_whole_words_never_overlapping(results):
    """Long names keep whole words (the beginning and the end, an ellipsis between), no two texts
    overlap, none leaves the figure, and each bar's label is the deciding test's, true to its verdict."""
    from netbenefit.views.decision_words import deciding_label

    from .text_fit import text_problems

    base = [results["phased_campus"], results["party_city"], results["mega_project"]]
    pairs = zip(base * 2, LONG_NAMES, strict=False)
    named = [netbenefit.evaluate(r.scenario.replace({"name": name})) for r, name in pairs]
    figure = charts.draw("compare_ratios", named + [results["extended_commitment"]])
    ax = figure.axes[0]
    assert text_problems(figure, "compare_ratios") == []
    by_text = {label.get_text(): label for label in ax.get_yticklabels()}
    for name in [*LONG_NAMES, results["extended_commitment"].name]:
        shown = next(text for text in by_text if text.replace("...", " ").split()[0] == name.split()[0])
        words = set(name.split())
        for piece in shown.replace("\n", " ").replace("...", " ").split():
            assert piece in words, f"{piece!r} of {shown!r} is not a whole word of {name!r}"
    labels = [text.get_text() for text in ax.texts if text.get_gid() != charts.FOOTNOTE_GID]
    assert sorted(labels) == sorted(deciding_label(r) for r in named + [results["extended_commitment"]])
    assert any(text.startswith("phases 1+2: ") for text in labels)
