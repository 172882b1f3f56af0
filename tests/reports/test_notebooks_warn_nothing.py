"""Every notebook runs without a single warning (a layout warning, a plausibility warning, a
deprecation): its code cells are run in order in one namespace, from the notebooks folder."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here writes outputs or starts a process

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs_without_warnings(path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.chdir(path.parent)
    cells = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    namespace: dict = {"__name__": "__main__"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for cell in cells:
            source = "".join(cell["source"])
            if source.lstrip().startswith(("%", "!")):
                continue
            exec(compile(source, f"{path.name}", "exec"), namespace)  # noqa: S102 - the notebook's own code
            for number in plt.get_fignums():
                plt.figure(number).canvas.draw()  # what the inline backend does at the end of a cell
            plt.close("all")
    shown = [f"{w.category.__name__}: {w.message}" for w in caught if "nbmake" not in str(w.filename)]
    assert not shown, "\n".join(shown[:10])
