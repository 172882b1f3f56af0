"""The notebooks as committed: stripped of outputs, and finding the scenarios wherever they run.

nbmake executes each notebook (``python -m pytest`` collects ``notebooks/``); these tests check
the files themselves.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def test_the_stories_are_there():
    names = {path.name for path in NOTEBOOKS}
    assert {
        "01_quick_start.ipynb",
        "02_phased_projects.ipynb",
        "03_extended_commitment.ipynb",
        "04_party_city.ipynb",
    } <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_committed_without_outputs(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert code, "a notebook with no code tells no story that can be checked"
    assert all(cell["outputs"] == [] and cell["execution_count"] is None for cell in code)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_has_prose_between_its_code(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert cells[0]["cell_type"] == "markdown"
    assert sum(cell["cell_type"] == "markdown" for cell in cells) >= 3
