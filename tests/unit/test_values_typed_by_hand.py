"""One guard for every way a value enters: a percent typed for a rate warns with its fix.

``discount_rate=6`` given through a sweep, a Monte Carlo distribution (its bounds, mean, median
or listed values), a sensitivity range, ``Scenario.replace`` and a solver's range is a
PlausibilityWarning naming "did you mean 0.06?", an error under ``warnings.simplefilter("error")``;
on the command line ``--strict`` refuses ``--set`` and ``--vary`` with exit 2 before any work.
"""

import warnings
from pathlib import Path

import pytest

import netbenefit
from netbenefit.analysis import (
    break_even_discount_rate,
    implied_discount_rate,
    montecarlo,
    sensitivity,
    sweep,
)
from netbenefit.cli import main
from netbenefit.errors import ScenarioError
from netbenefit.model.plausibility import PlausibilityWarning

ROOT = Path(__file__).resolve().parents[2]
OFFICE = ROOT / "scenarios" / "office_hq_default_area.yaml"
FIX = "did you mean 0.06?"


@pytest.fixture(scope="module")
def office():
    return netbenefit.load_scenario(OFFICE)


PYTHON_FORMS = {
    "sweep": lambda s: sweep(s, {"discount_rate": [0.05, 6]}),
    "montecarlo uniform bounds": lambda s: montecarlo(s, draws=5, vary={"discount_rate": ("uniform", 6, 6.5)}, seed=1),
    "montecarlo normal mean": lambda s: montecarlo(s, draws=5, vary={"discount_rate": ("normal", 6, 0.1)}, seed=1),
    "montecarlo triangular": lambda s: montecarlo(
        s, draws=5, vary={"discount_rate": ("triangular", 0.05, 6, 7)}, seed=1
    ),
    "montecarlo lognormal median": lambda s: montecarlo(
        s, draws=5, vary={"discount_rate": ("lognormal", 1.791759469228055, 0.0)}, seed=1
    ),
    "montecarlo listed values": lambda s: montecarlo(s, draws=5, vary={"discount_rate": [0.05, 6]}, seed=1),
    "sensitivity": lambda s: sensitivity(s, {"discount_rate": (0.05, 6)}),
    "Scenario.replace": lambda s: s.replace({"discount_rate": 6}),
    "Scenario.replace keyword": lambda s: s.replace(discount_rate=6),
    "break_even_discount_rate range": lambda s: break_even_discount_rate(s, low=0.0, high=6),
    "implied_discount_rate range": lambda s: implied_discount_rate(1_428_000, 7, 7_400_000, high=6),
}


@pytest.mark.parametrize("form", PYTHON_FORMS)
def test_a_percent_for_the_discount_rate_warns_with_the_fix(office, form):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PYTHON_FORMS[form](office)
    lines = [str(w.message) for w in caught if issubclass(w.category, PlausibilityWarning)]
    assert lines, f"{form}: no PlausibilityWarning"
    assert any("discount_rate" in line and FIX in line for line in lines), lines


@pytest.mark.parametrize("form", PYTHON_FORMS)
def test_each_python_form_raises_under_simplefilter_error(office, form):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(PlausibilityWarning, match="did you mean 0.06"):
            PYTHON_FORMS[form](office)


PLAUSIBLE = {
    "sweep": lambda s: sweep(s, {"discount_rate": [0.05, 0.07]}),
    "montecarlo": lambda s: montecarlo(s, draws=5, vary={"discount_rate": ("normal", 0.06, 0.2)}, seed=1),
    "sensitivity relative": lambda s: sensitivity(s, {"discount_rate": 0.5}),
    "replace": lambda s: s.replace({"discount_rate": 0.25}),
    "break_even defaults": lambda s: break_even_discount_rate(s),
    "implied defaults": lambda s: implied_discount_rate(1_428_000, 7, 7_400_000),
}


@pytest.mark.parametrize("form", PLAUSIBLE)
def test_plausible_values_and_default_ranges_warn_nothing(office, form):
    """A draw in a tail of a plausible distribution, the default search range and the bound 0.25
    itself are not slips."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlausibilityWarning)
        PLAUSIBLE[form](office)


def test_the_bound_itself_and_just_above():
    """The discount rate's plausible range ends at 0.25 (ranges/plausibility.yaml)."""
    from netbenefit.model.plausibility import entered_warnings

    assert entered_warnings("discount_rate", [0.25], via="x") == ()
    assert entered_warnings("discount_rate", [0.2500001], via="x")


def test_a_later_phases_key_matches_the_star_pattern(office):
    from netbenefit.model.plausibility import entered_warnings

    assert entered_warnings("phases.3.jobs.salary_growth", [3], via="x")[0].endswith(
        "did you mean 0.03? (a percent written for a decimal)"
    )
    assert entered_warnings("phases.x.jobs.salary_growth", [3], via="x") == ()


@pytest.mark.parametrize(
    "args",
    [
        ["sweep", str(OFFICE), "--set", "discount_rate=0.06,6"],
        ["montecarlo", str(OFFICE), "--draws", "10", "--vary", "discount_rate=uniform(5,7)"],
        ["montecarlo", str(OFFICE), "--draws", "10", "--vary", "discount_rate=normal(6,0.5)"],
        ["montecarlo", str(OFFICE), "--draws", "10", "--vary", "discount_rate=0.05,6"],
    ],
    ids=["sweep --set", "--vary uniform", "--vary normal", "--vary list"],
)
def test_strict_refuses_hand_typed_values_with_exit_2_before_any_work(args, tmp_path, capsys, monkeypatch):
    import re
    import sys

    montecarlo_module = sys.modules["netbenefit.analysis.montecarlo"]
    sweep_module = sys.modules["netbenefit.analysis.sweep"]

    def no_work(*a, **k):
        raise AssertionError("computed before the plausibility check")

    monkeypatch.setattr(montecarlo_module, "iter_chunks", no_work)
    monkeypatch.setattr(montecarlo_module, "compute", no_work)
    monkeypatch.setattr(sweep_module, "run", no_work)
    out = tmp_path / "table.csv"
    assert main([*args, "--strict", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert re.search(r"discount_rate: .*did you mean 0\.0[567]\?", err), err
    assert "Traceback" not in err and not out.exists()


def test_without_strict_the_sweep_warns_and_runs(capsys):
    assert main(["sweep", str(OFFICE), "--set", "discount_rate=0.06,6"]) == 0
    captured = capsys.readouterr()
    assert "netbenefit: warning:" in captured.err and FIX in captured.err
    assert len(captured.out.strip().splitlines()) == 3  # header and two rows


def test_a_share_beyond_one_given_to_a_sweep_names_the_decimal(office):
    with pytest.raises(ScenarioError, match=r"did you mean 0\.45\?"):
        sweep(office, {"jobs.nj_withholding_share": [45]})


def test_wage_dispersion_45_gets_did_you_mean_0_45():
    data = netbenefit.load_scenario(ROOT / "scenarios" / "industry_multipliers_example.yaml").as_written
    data["revenue"]["income_tax"]["wage_dispersion"] = 45
    with pytest.raises(ScenarioError, match=r"wage_dispersion: .*did you mean 0\.45\?"):
        netbenefit.Scenario.from_dict(data, source="x.yaml")


def test_wage_dispersion_just_above_its_bound_gets_no_percent_fix():
    """Only a value inside its bound once divided by 100 gets the fix: 400 (4, above 3) gets none."""
    data = netbenefit.load_scenario(ROOT / "scenarios" / "industry_multipliers_example.yaml").as_written
    data["revenue"]["income_tax"]["wage_dispersion"] = 400
    with pytest.raises(ScenarioError) as error:
        netbenefit.Scenario.from_dict(data, source="x.yaml")
    assert "did you mean" not in str(error.value)


def test_a_naics_code_given_as_a_number_says_write_it_in_quotes(tmp_path):
    text = (ROOT / "scenarios" / "industry_multipliers_example.yaml").read_text()
    assert "naics: '523'" in text or 'naics: "523"' in text
    path = tmp_path / "m.yaml"
    (tmp_path / "data").mkdir()
    path.write_text(text.replace("naics: '523'", "naics: 325414").replace('naics: "523"', "naics: 325414"))
    with pytest.raises(ScenarioError, match="write it in quotes: '325414'"):
        netbenefit.load_scenario(path)
