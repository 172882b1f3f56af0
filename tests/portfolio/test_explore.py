"""netbenefit.explore: sliders for the ranked drivers; callbacks re-evaluate, redraw and export."""

from __future__ import annotations

import builtins
from pathlib import Path

import pytest

import netbenefit
from netbenefit.views.explore import Unavailable, explore, ranked_drivers, slider_range

pytest.importorskip("ipywidgets")

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "portfolio" / "05_ridgeway_fintech.yaml"


@pytest.fixture(scope="module")
def explorer():
    return explore(SCENARIO, keys=["award.annual_credit", "jobs.new", "discount_rate"])


def test_the_drivers_are_ranked_by_the_swing_of_the_ratio():
    scenario = netbenefit.load_scenario(SCENARIO)
    ranked = ranked_drivers(scenario, count=4)
    swings = [swing for _, _, swing in ranked]
    assert len(ranked) == 4 and swings == sorted(swings, reverse=True) and swings[-1] > 0
    table = netbenefit.sensitivity(scenario, {key: None for key, _, _ in ranked})
    assert list(table["key"]) == [key for key, _, _ in ranked]


def test_a_share_s_slider_stays_inside_its_valid_range():
    scenario = netbenefit.load_scenario(SCENARIO)  # nj_withholding_share 0.85: 0.85 x 1.5 > 1
    low, high, _ = slider_range(scenario, "jobs.nj_withholding_share")
    assert low == pytest.approx(0.425) and high == 1.0


@pytest.mark.slow
def test_moving_a_slider_re_evaluates_and_redraws(explorer):
    assert not explorer.result.passes
    image = explorer.chart.value
    explorer.sliders["award.annual_credit"].value = 630_000  # $1,050,000 -> $630,000: 254% -> 424%
    assert explorer.result.passes and explorer.result.ratio == pytest.approx(4.2398, abs=1e-4)
    assert "passes" in explorer.verdict.value and explorer.chart.value != image
    assert explorer.changes() == {"award.annual_credit": 630_000}
    explorer.reset()
    assert explorer.changes() == {} and not explorer.result.passes


def test_a_slider_keeps_inside_the_key_s_range():
    shown = explore(SCENARIO, keys=["award.eligibility_period_years"])
    slider = shown.sliders["award.eligibility_period_years"]  # 7 years, s.69: at most 7
    assert (slider.min, slider.max) == (4, 7)


def test_a_value_the_rules_refuse_is_said_and_keeps_the_last_result(explorer, monkeypatch):
    from netbenefit.model.scenario import Scenario

    before = explorer.result

    def refuse(self, changes=None, **more):
        raise netbenefit.ScenarioError(self.source, "jobs.new", "refused <here>")

    monkeypatch.setattr(Scenario, "replace", refuse)
    explorer.sliders["jobs.new"].value = 100
    assert explorer.result is before
    assert "jobs.new: refused &lt;here&gt;" in explorer.status.value
    monkeypatch.undo()
    explorer.reset()
    assert explorer.status.value == ""


def test_export_writes_the_current_variant_as_yaml(explorer, tmp_path):
    explorer.sliders["jobs.new"].value = 120
    path = explorer.export(tmp_path / "variant.yaml")
    assert path.is_file() and "wrote" in explorer.status.value
    assert netbenefit.load_scenario(path).jobs.new == 120
    explorer.reset()


def test_user_text_is_escaped_in_the_verdict():
    scenario = netbenefit.load_scenario(SCENARIO).replace({"name": "<b>x</b>"})
    shown = explore(scenario, keys=["jobs.new"])
    assert "<b>x</b>" not in shown.verdict.value and "&lt;b&gt;x" in shown.verdict.value


def test_without_ipywidgets_a_clear_message(monkeypatch):
    real_import = builtins.__import__

    def without_widgets(name, *args, **kwargs):
        if name == "ipywidgets":
            raise ImportError("no ipywidgets")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_widgets)
    shown = explore(SCENARIO)
    assert isinstance(shown, Unavailable)
    assert "pip install 'netbenefit[explore]'" in repr(shown) and "ipywidgets" in shown._repr_html_()


def test_the_sliders_are_live_while_dragged_and_the_figure_is_drawn_once(explorer):
    assert all(slider.continuous_update for slider in explorer.sliders.values())
    figure = explorer.live.figure
    explorer.sliders["jobs.new"].value = explorer.sliders["jobs.new"].value + 1
    assert explorer.live.figure is figure  # the same figure, its artists updated
    explorer.reset()


def test_an_updated_chart_says_what_a_new_one_says():
    from netbenefit.views.charts.style import FOOTNOTE_GID
    from netbenefit.views.live_chart import LiveChart

    scenario = netbenefit.load_scenario(SCENARIO)
    live = LiveChart(netbenefit.evaluate(scenario))
    live.png()
    variant = netbenefit.evaluate(scenario.replace({"award.annual_credit": 900_000, "discount_rate": 0.05}))
    line = live.ax.get_lines()[0]
    live.update(variant)
    assert live.ax.get_lines()[0] is line  # updated, not drawn again
    assert live.png().startswith(b"\x89PNG")
    fresh = LiveChart(variant)
    for ours, theirs in zip(live.ax.get_lines()[:3], fresh.ax.get_lines()[:3], strict=True):
        assert list(ours.get_ydata()) == list(theirs.get_ydata())
    assert live.ax.get_title() == fresh.ax.get_title() and "Net benefit ratio" in live.ax.get_title()
    assert [t.get_text() for t in live.ax.get_legend().get_texts()] == [
        t.get_text() for t in fresh.ax.get_legend().get_texts()
    ]
    assert live.ax.get_ylim() == pytest.approx(fresh.ax.get_ylim())
    notes = [[t.get_text() for t in ax.texts if t.get_gid() == FOOTNOTE_GID] for ax in (live.ax, fresh.ax)]
    assert notes[0] == notes[1] and "5%" in notes[0][0]


@pytest.mark.slow
def test_after_every_move_the_title_and_the_line_are_those_of_a_cold_draw():
    """The title and the line above the sliders read the deciding test's ratio and verdict after
    every move, exactly as the chart drawn anew for evaluate(scenario.replace(...)) does: the bundled
    life-sciences campus with its discount rate dragged to 3% says its deciding test, phase 1 alone,
    273% (fails), never the whole project's 338%."""
    from netbenefit.views import charts
    from netbenefit.views.explore import verdict_html
    from netbenefit.views.live_chart import LiveChart

    scenario = netbenefit.load_scenario(ROOT / "scenarios" / "life_sciences_phased.yaml")
    shown = explore(scenario, keys=["discount_rate", "jobs.new", "award.annual_credit"])
    moves = [
        ("discount_rate", 0.03),
        ("jobs.new", 240),  # phase 1 passes alone from here: phases 1+2 may decide
        ("award.annual_credit", 1_200_000),
        ("discount_rate", 0.08),
        ("jobs.new", 150),
    ]
    for step, (key, value) in enumerate(moves):
        shown.sliders[key].value = value
        cold = netbenefit.evaluate(scenario.replace(shown.changes()))
        assert shown.result.ratio == cold.ratio and shown.result.passes == cold.passes
        fresh = LiveChart(cold)
        drawn = charts.cumulative_pv(cold, ax=charts.new_figure()[1])
        assert shown.live.ax.get_title() == fresh.ax.get_title() == drawn.get_title()
        assert [t.get_text() for t in shown.live.ax.get_legend().get_texts()] == [
            t.get_text() for t in drawn.get_legend().get_texts()
        ]
        for ours, theirs in zip(shown.live.ax.get_lines()[:3], drawn.get_lines()[:3], strict=True):
            assert list(ours.get_ydata()) == pytest.approx(list(theirs.get_ydata()), rel=1e-12)
        assert charts.footnote_of(shown.live.ax) == charts.footnote_of(drawn)
        assert shown.verdict.value == verdict_html(cold)
        if step == 0:  # the discount rate at 3%: the deciding test, not the whole project
            title = shown.live.ax.get_title()
            assert "phase 1 alone: 273% vs 300% threshold: fails" in title and "338%" not in title
            assert cold.whole_project_ratio == pytest.approx(3.376, abs=1e-3)
            assert "272.7% vs 300% threshold (71(a)(5)(a)): fails" in shown.verdict.value
    shown.reset()


@pytest.mark.slow  # 21 prints
@pytest.mark.filterwarnings("ignore::netbenefit.PlausibilityWarning")
def test_a_print_after_a_move_is_a_whole_print_of_the_same_chart(monkeypatch):
    """A move prints the chart over the background kept from the previous print, drawing only what
    a move changes; its bytes are those of a whole print of the same figure, move after move: the
    scale and the ratio changed, the footnote changed (another discount rate), the make-up changed
    (the year the benefits reach the threshold multiple gone), a phased project (two lines of
    footnote). The first print is a cold chart's, byte for byte."""
    from netbenefit.views import live_chart as module
    from netbenefit.views.charts import cumulative_pv, new_figure
    from netbenefit.views.charts.printing import figure_bytes
    from netbenefit.views.live_chart import CHART_DPI, CHART_SIZE, LiveChart

    whole_prints, make_ups = [], set()
    monkeypatch.setattr(module, "figure_bytes", lambda *a, **k: whole_prints.append(1) or figure_bytes(*a, **k))
    for name, moves in (
        ("05_ridgeway_fintech.yaml", [{"jobs.new": 81}, {"jobs.new": 80}, {"award.annual_credit": 630_000}]),
        (
            "05_ridgeway_fintech.yaml",
            [
                {"jobs.new": 81},
                {"discount_rate": 0.05},
                {"discount_rate": 0.05, "jobs.new": 9},
            ],
        ),
        ("05_ridgeway_fintech.yaml", [{"award.annual_credit": 630_000}, {"award.annual_credit": 2_000_000}]),
        ("../life_sciences_phased.yaml", [{"jobs.new": 240}, {"discount_rate": 0.03}, {"jobs.new": 150}]),
    ):
        scenario = netbenefit.load_scenario(SCENARIO.parent / name)
        result = netbenefit.evaluate(scenario)
        live = LiveChart(result)
        cold_figure, cold_ax = new_figure(CHART_SIZE)
        cumulative_pv(result, ax=cold_ax)
        assert live.png() == figure_bytes(cold_figure, "png", dpi=CHART_DPI)
        for changes in moves:
            whole_prints.clear()
            shape = live.shape
            live.update(netbenefit.evaluate(scenario.replace(changes)))
            shown = live.png()
            assert bool(whole_prints) == (live.shape != shape), changes  # a whole print only for a new make-up
            make_ups.add(live.shape != shape)
            assert shown == figure_bytes(live.figure, "png", dpi=CHART_DPI), (name, changes)
            if live.shape != shape:  # drawn anew: a cold chart of the variant
                cold_figure, cold_ax = new_figure(CHART_SIZE)
                cumulative_pv(netbenefit.evaluate(scenario.replace(changes)), ax=cold_ax)
                assert shown == figure_bytes(cold_figure, "png", dpi=CHART_DPI), (name, changes)
    assert make_ups == {True, False}
