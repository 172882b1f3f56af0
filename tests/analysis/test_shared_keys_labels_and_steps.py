"""A shared driver moves every phase as one key (Monte Carlo, sensitivity, sweeps, solvers, the
explorer); every varied key is labelled with its phase; counts of jobs move in whole jobs where a
key is stepped; ``max_award`` says which awards it held."""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import netbenefit
from netbenefit.analysis import key_label, max_award, montecarlo, sensitivity, sweep
from netbenefit.analysis.keys import whole_jobs
from netbenefit.model.scenario import Scenario
from netbenefit.model.scenario.paths import phase_of

PHASED = "scenarios/phased_campus.yaml"  # phase 2 starts 3 years after approval


def shared_campus(growth: float = 0.02) -> tuple[dict, Scenario]:
    """The bundled two-phase campus with its salary shared (phase 2 at the initial phase's path)."""
    data = copy.deepcopy(netbenefit.load_scenario(PHASED).to_dict())
    data["jobs"]["salary_growth"] = growth
    for key in ("median_salary", "salary_growth"):
        data["phases"][0]["jobs"].pop(key)
    data["shared"] = ["jobs.median_salary"]
    return data, Scenario.from_dict(data, source="campus.yaml")


def written_out_ratio(data: dict, median: float) -> float:
    """The ratio of the same project with each phase's salary written out, the initial one ``median``."""
    data = copy.deepcopy(data)
    data.pop("shared")
    data["jobs"]["median_salary"] = median
    growth = data["jobs"]["salary_growth"]
    for phase in data["phases"]:
        phase["jobs"]["median_salary"] = median * (1 + growth) ** phase["start_year"]
        phase["jobs"]["salary_growth"] = growth
    return netbenefit.evaluate(Scenario.from_dict(data)).ratio


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), mean=st.floats(60_000, 140_000), growth=st.floats(0.0, 0.05))
def test_a_shared_salary_drawn_by_monte_carlo_moves_every_phase(seed, mean, growth):
    data, scenario = shared_campus(growth)
    run = montecarlo(scenario, draws=4, seed=seed, vary={"jobs.median_salary": ("normal", mean, 5_000)},
                     out_of_range="clip")
    for draw, ratio in zip(run.draws["jobs.median_salary"], run.draws["ratio"], strict=True):
        assert ratio == pytest.approx(written_out_ratio(data, float(draw)), rel=1e-11)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(change=st.floats(0.05, 0.5))
def test_a_shared_salary_moved_by_sensitivity_moves_every_phase(change):
    data, scenario = shared_campus()
    row = sensitivity(scenario, {"jobs.median_salary": change}).iloc[0]
    assert row["ratio_low"] == pytest.approx(written_out_ratio(data, row["low"]), rel=1e-11)
    assert row["ratio_high"] == pytest.approx(written_out_ratio(data, row["high"]), rel=1e-11)


def test_one_monte_carlo_draw_and_one_sensitivity_move_every_phase():
    data, scenario = shared_campus()
    run = montecarlo(scenario, draws=3, seed=7, vary={"jobs.median_salary": ("uniform", 70_000, 110_000)})
    for draw, ratio in zip(run.draws["jobs.median_salary"], run.draws["ratio"], strict=True):
        assert ratio == pytest.approx(written_out_ratio(data, float(draw)), rel=1e-11)
    row = sensitivity(scenario, {"jobs.median_salary": (80_000, 100_000)}).iloc[0]
    assert row["ratio_low"] == pytest.approx(written_out_ratio(data, 80_000), rel=1e-11)


def test_a_shared_salary_in_a_sweep_and_in_the_solvers():
    data, scenario = shared_campus()
    table = sweep(scenario, {"jobs.median_salary": [80_000, 100_000]})
    assert list(table["ratio"]) == pytest.approx([written_out_ratio(data, m) for m in (80_000, 100_000)], rel=1e-11)
    # Without sharing, moving jobs.median_salary leaves phase 2's salary where it is.
    own = netbenefit.load_scenario(PHASED)
    alone = sweep(own, {"jobs.median_salary": [80_000]})["ratio"].iloc[0]
    assert alone != pytest.approx(written_out_ratio(data, 80_000), rel=1e-6)
    rate = netbenefit.break_even_discount_rate(scenario)
    assert rate.solved


def test_without_sharing_two_salaries_are_drawn_independently():
    own = netbenefit.load_scenario(PHASED)
    vary = {"jobs.median_salary": ("normal", 92_000, 5_000), "phases.0.jobs.median_salary": ("normal", 80_000, 5_000)}
    draws = montecarlo(own, draws=50, seed=1, vary=vary).draws
    assert not np.allclose(draws["jobs.median_salary"] / 92_000, draws["phases.0.jobs.median_salary"] / 80_000)


# --- labels -----------------------------------------------------------------------------------------


def test_every_key_of_a_phased_project_names_its_phase():
    scenario = netbenefit.load_scenario(PHASED)
    assert key_label(scenario, "jobs.new") == "Phase 1: New full-time jobs [jobs]"
    assert key_label(scenario, "phases.0.jobs.new") == "Phase 2: New full-time jobs [jobs]"
    assert key_label(scenario, "jobs.new", short=True) == "Phase 1: New full-time jobs"
    assert key_label(scenario, "capital_investment.1") == "Phase 1: Capital investment [USD], year 1"
    assert key_label(scenario, "phases.0.capital_investment.1") == "Phase 2: Capital investment [USD], year 1"
    assert phase_of(scenario, "award.annual_credit") == "phase 1"
    assert phase_of(scenario, "discount_rate") == "" and phase_of(scenario, "revenue.earnings_multiplier") == ""
    _, shared = shared_campus()
    assert key_label(shared, "jobs.median_salary", short=True) == "Every phase: Median salary"
    assert key_label(shared, "jobs.new", short=True) == "Phase 1: New full-time jobs"
    single = netbenefit.load_scenario("scenarios/office_hq_default_area.yaml")
    assert key_label(single, "jobs.new") == "New full-time jobs [jobs]"  # one phase: no tag


def test_the_tornado_the_sweep_and_the_monte_carlo_summary_carry_the_phase():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scenario = netbenefit.load_scenario(PHASED)
    table = sensitivity(scenario, {"jobs.new": None, "phases.0.jobs.new": None, "discount_rate": None})
    assert table.attrs["key_labels"]["jobs.new"] == "Phase 1: New full-time jobs [jobs]"
    ax = netbenefit.tornado(table)
    ticks = {tick.get_text() for tick in ax.get_yticklabels()}
    assert {"Phase 1: New full-time jobs [jobs]", "Phase 2: New full-time jobs [jobs]"} <= ticks
    plt.close(ax.figure)
    html = table._repr_html_()
    assert "Phase 1" in html and "Phase 2" in html

    run = montecarlo(scenario, draws=20, seed=2, vary={"jobs.median_salary": ("normal", 92_000, 4_000),
                                                      "phases.0.jobs.median_salary": ("normal", 80_000, 4_000)})
    assert run.key_labels == {
        "jobs.median_salary": "Phase 1: Median salary [USD/year]",
        "phases.0.jobs.median_salary": "Phase 2: Median salary [USD/year]",
    }
    ax = run.plot()
    assert "Median salary (phases 1 and 2)" in ax.get_title()
    plt.close(ax.figure)
    assert "Phase 1: Median salary" in run._repr_html_()

    grid = sweep(scenario, {"jobs.new": [250, 300]})
    assert grid.attrs["key_labels"] == {"jobs.new": "Phase 1: New full-time jobs [jobs]"}
    ax = netbenefit.views.charts.sweep(grid)
    assert ax.get_xlabel() == "Phase 1: New full-time jobs [jobs]"
    plt.close(ax.figure)


# --- whole jobs --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "whole"),
    [("jobs.new", True), ("jobs.retained", True), ("phases.3.jobs.new", True),
     ("business.full_time_employees_at_application", True), ("jobs.median_salary", False),
     ("jobs.ramp.0", False), ("discount_rate", False)],
)
def test_which_keys_are_counts_of_jobs(key, whole):
    assert whole_jobs(key) is whole


def test_a_relative_move_of_a_job_count_is_whole_jobs():
    scenario = netbenefit.load_scenario("scenarios/party_city.yaml")  # 357 new jobs
    row = sensitivity(scenario, {"jobs.new": None}).iloc[0]
    assert (row["low"], row["high"]) == (286, 428)  # 357 x 0.8 = 285.6 and 357 x 1.2 = 428.4, in whole jobs
    row = sensitivity(scenario, {"discount_rate": None}).iloc[0]
    assert row["low"] == pytest.approx(scenario.discount_rate * 0.8)  # a rate is not rounded


def test_the_explorer_offers_every_phase_in_whole_jobs_and_labels_the_phase():
    from netbenefit.views.explore import candidate_keys, slider_label, slider_range

    scenario = netbenefit.load_scenario(PHASED)
    keys = candidate_keys(scenario)
    assert "phases.0.jobs.new" in keys and "phases.0.jobs.median_salary" in keys
    assert "phases.0.discount_rate" not in keys
    low, high, step = slider_range(scenario, "jobs.new")
    assert step == 1.0 and low == int(low) and high == int(high)
    low, high, step = slider_range(netbenefit.load_scenario("scenarios/party_city.yaml"), "jobs.new")
    assert (low, high, step) == (179.0, 535.0, 1.0)  # 357 x 0.5 = 178.5 and 357 x 1.5 = 535.5, inside
    assert slider_label(scenario, "jobs.new") == "Phase 1: New full-time jobs"
    assert slider_label(scenario, "phases.0.jobs.new") == "Phase 2: New full-time jobs"
    _, shared = shared_campus()
    assert "phases.0.jobs.median_salary" not in candidate_keys(shared)  # moved as jobs.median_salary
    assert slider_label(shared, "jobs.median_salary") == "Every phase: Median salary"


def test_the_explorer_sliders_move_whole_jobs():
    widgets = pytest.importorskip("ipywidgets")
    from netbenefit.views.explore import Explorer

    explorer = Explorer(netbenefit.load_scenario(PHASED), keys=["jobs.new", "phases.0.jobs.new", "discount_rate"])
    assert isinstance(explorer.sliders["jobs.new"], widgets.IntSlider)
    assert explorer.sliders["jobs.new"].step == 1
    assert explorer.sliders["phases.0.jobs.new"].description == "Phase 2: New full-time jobs"
    assert isinstance(explorer.sliders["discount_rate"], widgets.FloatSlider)


# --- max_award -----------------------------------------------------------------------------------------


def test_max_award_says_which_awards_it_held():
    scenario = netbenefit.load_scenario(PHASED)
    result = max_award(scenario)
    assert result.details["held"] == [{"phase": 2, "keys": ["phases.0.award.annual_credit"], "values": [540_000.0]}]
    assert result.message.endswith("; held: phase 2's award stays (phases.0.award.annual_credit $540,000)")
    moved = max_award(scenario, keys=["award.annual_credit", "phases.0.award.annual_credit"])
    assert moved.details["held"] == [] and "held" not in moved.message
    second = max_award(scenario, "phases.0.award.annual_credit")
    assert "held: phase 1's award stays (award.annual_credit $1,000,000)" in second.message
    # The binding test is the cumulative test whose bound is least (phase 2's award moves test 2 only).
    assert second.details["binding_test"] == 2 and "binding test: phases 1..2" in second.message
    single = max_award(netbenefit.load_scenario("scenarios/office_hq_default_area.yaml"))
    assert single.details["held"] == [] and not re.search(r"held", single.message)


# --- the command line -----------------------------------------------------------------------------------


def test_the_command_line_moves_a_shared_key_as_one_and_refuses_it_at_a_phase(tmp_path, capsys):
    import yaml

    from netbenefit.cli import main

    data, _ = shared_campus()
    path = tmp_path / "shared.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["sweep", str(path), "--set", "jobs.median_salary=80000,100000"]) == 0
    ratios = [float(line.split(",")[3]) for line in capsys.readouterr().out.splitlines()[1:]]
    assert ratios == pytest.approx([written_out_ratio(data, 80_000), written_out_ratio(data, 100_000)], rel=1e-12)
    assert main(["sweep", str(path), "--set", "phases.0.jobs.median_salary=80000"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.endswith(
        "phases.0.jobs.median_salary: jobs.median_salary is shared by every phase (shared: at the top level); "
        "vary jobs.median_salary, which moves every phase"
    )
    vary = "jobs.median_salary=uniform(80000,100000)"
    assert main(["montecarlo", str(path), "--draws", "50", "--seed", "3", "--vary", vary, "--no-progress"]) == 0


def test_the_conventions_footnote_names_the_varied_keys_with_their_phase():
    from netbenefit.views.charts.style import conventions_text

    scenario = netbenefit.load_scenario(PHASED)
    table = sensitivity(scenario, {"jobs.new": None, "phases.0.jobs.new": None})
    assert "Varied: Phase 1: New full-time jobs, Phase 2: New full-time jobs." in conventions_text(table)
    single = sensitivity(netbenefit.load_scenario("scenarios/party_city.yaml"), {"jobs.new": None})
    assert "Varied: New full-time jobs." in conventions_text(single)
