"""One-way sensitivity, the tornado chart, and the sweep and montecarlo commands."""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

import netbenefit
from netbenefit import ScenarioError
from netbenefit.analysis import sensitivity
from netbenefit.cli import main
from netbenefit.views.charts import tornado

matplotlib.use("Agg")

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
OFFICE = SCENARIOS / "office_hq_default_area.yaml"


@pytest.fixture(scope="module")
def office():
    return netbenefit.load_scenario(OFFICE)


@pytest.fixture(scope="module")
def table(office):
    return sensitivity(
        office,
        {
            "discount_rate": (0.04, 0.08),
            "jobs.new": (200, 320),
            "revenue.earnings_multiplier": None,  # +/- 20%
            "jobs.median_salary": 0.1,  # +/- 10%
            "location.enhanced_area": None,  # (False, True): changes the threshold, not the ratio
        },
    )


def test_sensitivity_is_sorted_by_swing(table, office):
    assert list(table.columns[:4]) == ["key", "base", "low", "high"]
    assert {"ratio_low", "ratio_high", "swing"} <= set(table.columns)
    assert table["swing"].is_monotonic_decreasing
    assert table["key"].iloc[0] == "jobs.new"
    assert table["key"].iloc[-1] == "location.enhanced_area" and table["swing"].iloc[-1] == 0


def test_sensitivity_values_match_evaluate(table, office):
    row = table.set_index("key").loc["revenue.earnings_multiplier"]
    assert (row["low"], row["high"]) == pytest.approx((1.65 * 0.8, 1.65 * 1.2))
    for value, ratio in ((row["low"], row["ratio_low"]), (row["high"], row["ratio_high"])):
        expected = netbenefit.evaluate(office.replace({"revenue.earnings_multiplier": value})).ratio
        assert ratio == pytest.approx(expected, rel=1e-12)
    assert row["swing"] == pytest.approx(abs(row["ratio_high"] - row["ratio_low"]))
    assert row["ratio_base"] == pytest.approx(netbenefit.evaluate(office).ratio)


def test_sensitivity_checks_its_ranges(office):
    with pytest.raises(ScenarioError) as error:
        sensitivity(office, {"jobs.nj_withholding_share": (0.5, 1.5)})
    assert error.value.key == "jobs.nj_withholding_share"
    with pytest.raises(ScenarioError):
        sensitivity(office, {"jobs.new": (1, 2, 3)})
    with pytest.raises(ScenarioError, match="undefined"):
        sensitivity(office, {"award.annual_credit": (0.0, 1.0)})


def test_tornado_draws_one_bar_pair_per_key_and_returns_the_axes(table):
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots()
    returned = tornado(table, ax=ax)
    assert returned is ax
    assert len(ax.patches) == 2 * len(table)
    from netbenefit.labels import label, spoken

    assert [text.get_text() for text in ax.get_yticklabels()] == [spoken(label(key)) for key in table["key"]][::-1]
    plt.close(figure)
    ax = tornado(table)
    assert ax.figure is not None
    plt.close(ax.figure)


# -- command line -----------------------------------------------------------------------------


def test_sweep_command_writes_a_csv(tmp_path, capsys):
    out = tmp_path / "results.csv"
    status = main(["sweep", str(OFFICE), "--set", "jobs.new=200,260,320", "--set", "location.enhanced_area=true,false",
                   "--out", str(out)])
    assert status == 0
    table = pd.read_csv(out)
    assert len(table) == 6
    assert list(table.columns[:2]) == ["jobs.new", "location.enhanced_area"]
    assert "6 combinations" in capsys.readouterr().out


def test_sweep_command_without_out_prints_csv(capsys):
    assert main(["sweep", str(OFFICE), "--set", "discount_rate=0.05,0.07"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("discount_rate,pv_benefits")


def test_montecarlo_command_prints_the_summary_and_writes_parquet(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    out = tmp_path / "draws.parquet"
    status = main(["montecarlo", str(OFFICE), "--draws", "2000", "--seed", "1", "--vary", "jobs.new=normal(260,25)",
                   "--vary", "discount_rate=uniform(0.04,0.08)", "--vary", "location.enhanced_area=true,false",
                   "--out", str(out)])
    assert status == 0
    printed = capsys.readouterr().out
    assert "probability of passing" in printed and "p50" in printed
    table = pd.read_parquet(out)
    assert len(table) == 2000 and list(table.columns[:3]) == ["jobs.new", "discount_rate", "location.enhanced_area"]


def test_montecarlo_command_is_reproducible(tmp_path):
    paths = [tmp_path / "a.csv", tmp_path / "b.csv"]
    for path in paths:
        assert main(["montecarlo", str(OFFICE), "--draws", "500", "--seed", "9",
                     "--vary", "jobs.median_salary=triangular(85000,98000,115000)", "--out", str(path)]) == 0
    assert paths[0].read_text() == paths[1].read_text()


def test_parquet_without_pyarrow_is_a_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    out = tmp_path / "results.parquet"
    assert main(["sweep", str(OFFICE), "--set", "jobs.new=200,300", "--out", str(out)]) == 2
    assert "pyarrow" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["sweep", str(OFFICE), "--set", "jobs.new"],
        ["sweep", str(OFFICE), "--set", "jobs.new=a,b"],
        ["sweep", str(OFFICE), "--set", "jobs.neww=1,2"],
        ["sweep", str(OFFICE), "--set", "name=1,2"],
        ["sweep", str(OFFICE), "--set", "jobs.nj_withholding_share=0.5,1.5"],
        ["sweep", str(OFFICE), "--set", "jobs.new=1", "--out", "results.txt"],
        ["montecarlo", str(OFFICE), "--vary", "jobs.new=gamma(1,2)"],
        ["montecarlo", str(OFFICE), "--vary", "jobs.new=normal(1)"],
        ["montecarlo", str(OFFICE), "--vary", "jobs.new=normal(a,1)"],
        ["montecarlo", str(OFFICE), "--vary", "jobs.neww=normal(1,2)"],
        ["montecarlo", str(OFFICE), "--vary", "timing=1,2"],
        ["montecarlo", str(OFFICE), "--draws", "0", "--vary", "jobs.new=1,2"],
        ["montecarlo", str(OFFICE), "--vary", "jobs.nj_withholding_share=normal(0.9,0.2)"],
    ],
)
def test_bad_specifications_exit_2_with_one_line(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("netbenefit: ")
    assert not any(tmp_path.iterdir())  # nothing written
