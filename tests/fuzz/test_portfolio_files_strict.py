"""Portfolio Monte Carlo files held to the scenario file's rules: a value of the wrong kind is an
error naming the key (never "none given"), names and descriptions follow the one text rule, the
scenarios a file names follow the one path rule; Python arguments follow the same rules (0 is not
"the default", a numpy integer is a whole number)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from netbenefit import ScenarioError
from netbenefit.analysis.portfolio.montecarlo import portfolio_montecarlo
from netbenefit.analysis.portfolio.portfolio_file import load_portfolio_file

ROOT = Path(__file__).resolve().parents[2]
FIRST = "01_harborview_analytics.yaml"


@pytest.fixture
def folder(tmp_path):
    inside = tmp_path / "p"
    inside.mkdir()
    shutil.copy(ROOT / "scenarios" / "portfolio" / FIRST, inside / FIRST)
    shutil.copy(ROOT / "scenarios" / "portfolio" / FIRST, tmp_path / FIRST)
    return inside


APPLICATION = f"applications: [{{file: {FIRST}, vary: {{jobs.new: [normal, 180, 18]}}}}]\n"

BAD = {
    "macro: []": ("macro: []\n" + APPLICATION, "macro"),
    "macro: 0": ("macro: 0\n" + APPLICATION, "macro"),
    "macro: null": ("macro: null\n" + APPLICATION, "macro"),
    "vary: []": (f"applications: [{{file: {FIRST}, vary: []}}]\n", "applications.0.vary"),
    "vary: false": (f"applications: [{{file: {FIRST}, vary: false}}]\n", "applications.0.vary"),
    "name: [1, 2]": ("name: [1, 2]\n" + APPLICATION, "name"),
    "description: {a: 1}": ("description: {a: 1}\n" + APPLICATION, "description"),
    "a name holding ESC": ('name: "x\\e[31m"\n' + APPLICATION, "name"),
    "a name holding BEL": ('name: "x\\a"\n' + APPLICATION, "name"),
    "a description holding NUL": ('description: "x\\0"\n' + APPLICATION, "description"),
    "a name holding a lone surrogate": ('name: "x\\ud800"\n' + APPLICATION, "name"),
    "draws: 0": ("draws: 0\n" + APPLICATION, "draws"),
    "draws: 1.5": ("draws: 1.5\n" + APPLICATION, "draws"),
    "draws: null": ("draws: null\n" + APPLICATION, "draws"),
    "draws: 1e12": ("draws: 1000000000000\n" + APPLICATION, "draws"),
    "seed: -1": ("seed: -1\n" + APPLICATION, "seed"),
    "seed: true": ("seed: true\n" + APPLICATION, "seed"),
    "chunk_size: 0": ("chunk_size: 0\n" + APPLICATION, "chunk_size"),
    "group_size: 0": ("group_size: 0\n" + APPLICATION, "group_size"),
    "a scenario above the folder": (f"applications: [../{FIRST}]\n", "applications.0.file"),
    "an absolute scenario path": (f"applications: [{ROOT / 'scenarios' / 'party_city.yaml'}]\n", "applications.0.file"),
    "a NUL in a scenario path": ('applications: ["a\\0.yaml"]\n', "applications.0.file"),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_a_portfolio_file_of_the_wrong_kind_is_one_error_naming_the_key(folder, case):
    text, key = BAD[case]
    (folder / "p.yml").write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_portfolio_file(folder / "p.yml")
    assert caught.value.key == key, str(caught.value)
    assert "p.yml" in str(caught.value) and "\n" not in str(caught.value)


def test_an_empty_macro_and_vary_mapping_stay_accepted(folder):
    (folder / "p.yml").write_text(f"macro: {{}}\napplications: [{{file: {FIRST}, vary: {{}}}}]\n", encoding="utf-8")
    book = load_portfolio_file(folder / "p.yml")
    assert book.macro == {} and book.vary == ({},)


ARGUMENTS = {
    "draws=0": ({"draws": 0}, "draws"),
    "chunk_size=0": ({"chunk_size": 0}, "chunk_size"),
    "group_size=0": ({"group_size": 0}, "group_size"),
    "seed=-1": ({"seed": -1}, "seed"),
    "draws=2.0": ({"draws": 2.0}, "draws"),
    "draws=True": ({"draws": True}, "draws"),
    "draws=10**12": ({"draws": 10**12}, "draws"),
}


@pytest.mark.parametrize("case", list(ARGUMENTS), ids=list(ARGUMENTS))
def test_a_python_argument_is_held_to_the_file_s_rules(folder, case):
    (folder / "p.yml").write_text(APPLICATION, encoding="utf-8")
    kwargs, key = ARGUMENTS[case]
    with pytest.raises(ScenarioError) as caught:
        portfolio_montecarlo(folder / "p.yml", **kwargs)
    assert caught.value.key == key


def test_numpy_integers_are_whole_numbers_as_in_montecarlo(folder):
    (folder / "p.yml").write_text(APPLICATION, encoding="utf-8")
    run = portfolio_montecarlo(
        folder / "p.yml", draws=np.int64(20), seed=np.int64(3), chunk_size=np.int32(10), group_size=np.int64(1)
    )
    assert run.draws == 20 and run.seed == 3 and run.chunk_size == 10 and type(run.draws) is int
