"""Monte Carlo and sweeps on a local Dask cluster of two worker processes give the in-process results."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import netbenefit
from netbenefit.analysis import montecarlo, sweep

distributed = pytest.importorskip("distributed", reason="dask is not installed (pip install 'netbenefit[dask]')")

pytestmark = pytest.mark.slow  # starts a cluster of worker processes

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "office_hq_default_area.yaml"
VARY = {
    "jobs.new": ("normal", 260.0, 25.0),
    "discount_rate": ("uniform", 0.04, 0.08),
    "jobs.median_salary": ("triangular", 85_000.0, 98_000.0, 115_000.0),
    "revenue.earnings_multiplier": ("uniform", 1.4, 1.9),
}


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.mark.parametrize("chunk_size", [1_000, 2_500])
def test_montecarlo_on_the_cluster_is_the_in_process_run(client, chunk_size):
    scenario = netbenefit.load_scenario(SCENARIO)
    here = montecarlo(scenario, draws=9_000, vary=VARY, seed=11, progress=False, chunk_size=chunk_size)
    there = montecarlo(scenario, draws=9_000, vary=VARY, seed=11, progress=False, chunk_size=chunk_size, client=client)
    assert len(client.scheduler_info()["workers"]) == 2
    pd.testing.assert_frame_equal(here.draws, there.draws, check_exact=True)
    assert here.summary == there.summary and here.seed == there.seed


def test_a_summary_only_run_on_the_cluster_is_the_in_process_one(client):
    scenario = netbenefit.load_scenario(SCENARIO)
    kwargs = dict(draws=5_000, vary=VARY, seed=3, progress=False, chunk_size=700, keep_draws=False)
    assert montecarlo(scenario, **kwargs).summary == montecarlo(scenario, **kwargs, client=client).summary


def test_sweep_on_the_cluster_is_the_in_process_sweep(client):
    scenario = netbenefit.load_scenario(SCENARIO)
    grid = {"jobs.new": np.linspace(150, 400, 20), "discount_rate": np.linspace(0.03, 0.09, 15)}
    here = sweep(scenario, grid, chunk_size=37)
    there = sweep(scenario, grid, chunk_size=37, client=client)
    pd.testing.assert_frame_equal(here, there, check_exact=True)


def test_a_draw_out_of_range_on_a_worker_is_the_one_line_error_of_one_process(client):
    scenario = netbenefit.load_scenario(SCENARIO)
    vary = {"jobs.nj_withholding_share": ("normal", 0.9, 0.5)}
    with pytest.raises(netbenefit.ScenarioError) as here:
        montecarlo(scenario, draws=2_000, vary=vary, seed=1, progress=False, chunk_size=500)
    with pytest.raises(netbenefit.ScenarioError) as there:
        montecarlo(scenario, draws=2_000, vary=vary, seed=1, progress=False, chunk_size=500, client=client)
    assert str(here.value) == str(there.value)


def test_the_scheduler_option_gives_the_output_of_one_process(client, capsys):
    from netbenefit.cli import main

    args = ["montecarlo", str(SCENARIO), "--draws", "3000", "--seed", "5", "--vary", "jobs.new=normal(260,25)"]
    args += ["--chunk-size", "800", "--no-progress"]
    assert main(args) == 0
    here = capsys.readouterr().out
    assert main([*args, "--scheduler", client.scheduler.address]) == 0
    assert capsys.readouterr().out == here
    sweep_args = ["sweep", str(SCENARIO), "--set", "jobs.new=200,260,320", "--set", "discount_rate=0.05,0.07"]
    assert main(sweep_args) == 0
    table = capsys.readouterr().out
    assert main([*sweep_args, "--scheduler", client.scheduler.address]) == 0
    assert capsys.readouterr().out == table


def test_each_run_sends_its_scenario_under_a_key_of_its_own(client):
    """Two runs of one scenario must not share the scattered payload: the second would find it
    being released by the first (or by another client) and fail with "lost dependencies" or wait."""
    from netbenefit.analysis.distributed import _scatter

    scenario = netbenefit.load_scenario(SCENARIO)
    first, second = _scatter(client, scenario), _scatter(client, scenario)  # a future for each part
    assert {future.key for future in first}.isdisjoint(future.key for future in second)


def test_back_to_back_runs_of_one_scenario_from_two_clients(client):
    scenario = netbenefit.load_scenario(SCENARIO)
    kwargs = dict(draws=1_200, vary=VARY, seed=21, progress=False, chunk_size=300, keep_draws=False)
    expected = montecarlo(scenario, **kwargs).summary
    with distributed.Client(client.scheduler.address) as other:
        for run in range(8):
            assert montecarlo(scenario, **kwargs, client=(client, other)[run % 2]).summary == expected
