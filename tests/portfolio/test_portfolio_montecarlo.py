"""Portfolio Monte Carlo: shared macro draws, reproducible sums, the same result on a Dask cluster."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.analysis.portfolio.montecarlo import portfolio_montecarlo, totals_match
from netbenefit.analysis.portfolio.portfolio_file import load_portfolio_file

ROOT = Path(__file__).resolve().parents[2]
PORTFOLIO = ROOT / "scenarios" / "portfolio" / "montecarlo.yml"


@pytest.fixture(scope="module")
def book():
    return load_portfolio_file(PORTFOLIO)


def test_the_example_file_loads_every_application_with_its_distributions(book):
    assert len(book.scenarios) == len(list((ROOT / "scenarios" / "portfolio").glob("*.yaml")))
    assert set(book.macro) == {"jobs.salary_growth", "discount_rate", "inflation"}
    assert all("jobs.new" in vary for vary in book.vary)


def test_without_draws_to_make_every_draw_is_the_portfolio(book):
    fixed = dataclasses.replace(book, vary=tuple({} for _ in book.vary), macro={})
    run = portfolio_montecarlo(fixed, draws=3, seed=1)
    view = netbenefit.portfolio(book.scenarios)
    for column in ("credits", "benefits"):
        assert np.allclose(run.fiscal_years[f"{column}_p50"], view.fiscal_years[column], rtol=0, atol=1e-6)


def test_the_same_seed_gives_the_same_sums_and_another_seed_others(book):
    small = dataclasses.replace(book, scenarios=book.scenarios[:3], vary=book.vary[:3])
    a = portfolio_montecarlo(small, draws=600, seed=7, chunk_size=250, group_size=2)
    b = portfolio_montecarlo(small, draws=600, seed=7, chunk_size=250, group_size=2)
    c = portfolio_montecarlo(small, draws=600, seed=8, chunk_size=250, group_size=2)
    assert totals_match(a, b) and a.fiscal_years.equals(b.fiscal_years)
    assert not np.array_equal(a.totals["benefits"], c.totals["benefits"])


def test_macro_draws_move_every_application_together(book):
    # Only the shared salary growth varies: each application's total benefits rise with it, so the
    # draws rank the same way for both (a rank correlation of exactly 1), and the sum is theirs.
    macro = {"jobs.salary_growth": book.macro["jobs.salary_growth"]}
    runs = [
        portfolio_montecarlo(dataclasses.replace(book, scenarios=(s,), vary=({},), macro=macro), draws=500, seed=4)
        for s in book.scenarios[:2]
    ]
    totals = [run.totals["benefits"].sum(axis=1) for run in runs]
    assert np.array_equal(np.argsort(totals[0]), np.argsort(totals[1]))
    both = dataclasses.replace(book, scenarios=book.scenarios[:2], vary=({}, {}), macro=macro)
    together = portfolio_montecarlo(both, draws=500, seed=4).totals["benefits"].sum(axis=1)
    assert np.allclose(together, totals[0] + totals[1], rtol=1e-12)
    assert np.ptp(together) > 0


@pytest.mark.parametrize(
    "text, key",
    [
        ("applications: []", "applications"),
        ("macro: {wages: [normal, 1, 1]}\napplications: [01_harborview_analytics.yaml]", "macro.wages"),
        (
            "applications: [{file: 01_harborview_analytics.yaml, vary: {discount_rate: [uniform, 0.05, 0.07]}}]",
            "applications.0.vary.discount_rate",
        ),
        ("applications: [{file: nowhere.yaml}]", "applications.0.file"),
        ("applications: [{file: ../01_harborview_analytics.yaml}]", "applications.0.file"),
        ("applications: [01_harborview_analytics.yaml]\nseeds: 3", "seeds"),
    ],
)
def test_a_bad_portfolio_file_is_one_line_naming_the_key(tmp_path, text, key):
    folder = tmp_path / "montecarlo"
    folder.mkdir()
    for path in (ROOT / "scenarios" / "portfolio").glob("*.yaml"):
        for place in (tmp_path, folder):
            (place / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "p.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_portfolio_file(folder / "p.yaml")
    assert caught.value.key == key and "p.yaml" in str(caught.value)


@pytest.mark.slow
@pytest.mark.slow
def test_a_local_cluster_gives_the_in_process_percentiles(book):
    distributed = pytest.importorskip("distributed")
    kwargs = dict(draws=3_000, seed=2026, chunk_size=1_000, group_size=5)
    here = portfolio_montecarlo(book, **kwargs)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        there = portfolio_montecarlo(book, **kwargs, client=client)
    assert totals_match(here, there)
    assert here.fiscal_years.equals(there.fiscal_years) and here.passing == there.passing


@pytest.mark.slow
def test_the_command_writes_the_montecarlo_percentiles(tmp_path):
    import csv
    import subprocess
    import sys

    out = tmp_path / "mc"
    run = [sys.executable, "-m", "netbenefit", "portfolio", "--montecarlo", str(PORTFOLIO), "--out", str(out)]
    done = subprocess.run([*run, "--draws", "500", "--seed", "9", "--charts", "none"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader((out / "montecarlo_fiscal_years.csv").read_text().splitlines()))
    assert rows and {"benefits_p5", "benefits_p50", "benefits_p95", "credits_p50"} <= set(rows[0])
    assert all(float(r["benefits_p5"]) <= float(r["benefits_p50"]) <= float(r["benefits_p95"]) for r in rows)
    both = subprocess.run([*run, "--force", str(ROOT / "scenarios" / "portfolio")], capture_output=True, text=True)
    assert both.returncode == 2 and "not both" in both.stderr


def test_a_draw_that_lengthens_a_project_is_placed_in_its_later_fiscal_years(book):
    # Northgate Software: $300,000 a year for 6 years; drawn 6 or 7 years
    i = next(k for k, s in enumerate(book.scenarios) if s.name.startswith("Northgate"))
    from netbenefit.analysis.montecarlo import parse_distribution

    one = book.scenarios[i]
    vary = {"award.eligibility_period_years": parse_distribution(one, "award.eligibility_period_years", [6, 7])}
    run = portfolio_montecarlo(dataclasses.replace(book, scenarios=(one,), vary=(vary,), macro={}), draws=200, seed=5)
    totals = run.totals["credits"].sum(axis=1)
    assert set(np.round(totals)) == {1_800_000.0, 2_100_000.0}
    base = netbenefit.portfolio([one]).fiscal_years
    assert run.fiscal_years.index[-1] >= base.index[-1]


def test_a_draw_past_the_run_s_fiscal_years_is_refused_in_one_line(book):
    from netbenefit.analysis.montecarlo import parse_distribution

    # a commitment period of 40 years (set by the authority, so it counts) runs 30 years past the scenario's own
    one = book.scenarios[0].replace({"commitment.period_set_by_authority": True}, name=book.scenarios[0].name)
    vary = {"commitment.period_years": parse_distribution(one, "commitment.period_years", [10.5, 40.0])}
    with pytest.raises(ScenarioError, match="a drawn value runs the project to fiscal year .* narrow"):
        portfolio_montecarlo(dataclasses.replace(book, scenarios=(one,), vary=(vary,), macro={}), draws=50, seed=5)
