"""Cold start: importing the package, --help and evaluate --json load neither pandas nor matplotlib."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here writes outputs or starts a process

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "office_hq_default_area.yaml"
HEAVY = ("pandas", "matplotlib", "openpyxl", "xlsxwriter")


def _loaded_after(code: str) -> set[str]:
    check = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split())


@pytest.mark.parametrize(
    "code",
    [
        "import netbenefit",
        "import netbenefit; netbenefit.evaluate; netbenefit.load_scenario",
        f"import netbenefit; r = netbenefit.evaluate({str(SCENARIO)!r}); r.to_dict(); r.summary(); r.check('71(a)(5)')",
        f"from netbenefit.cli import main; main(['evaluate', {str(SCENARIO)!r}, '--json'])",
        f"from netbenefit.cli import main; main(['evaluate', {str(SCENARIO)!r}])",
        "from netbenefit.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
    ],
    ids=["import", "names", "evaluate", "cli-json", "cli-summary", "cli-help"],
)
def test_no_table_or_chart_library_is_imported(code):
    assert _loaded_after(code) == set()


def test_reading_a_table_imports_pandas_then():
    assert "pandas" in _loaded_after(f"import netbenefit; netbenefit.evaluate({str(SCENARIO)!r}).cashflows")


def test_the_workbook_is_written_without_pandas(tmp_path):
    """The workbook is laid out from the result's arrays and rows: writing it needs no DataFrame."""
    out = tmp_path / "result.xlsx"
    code = f"import netbenefit\nnetbenefit.evaluate({str(SCENARIO)!r}).to_excel({str(out)!r})"
    assert _loaded_after(code) == {"xlsxwriter"}
    assert out.stat().st_size > 0


def test_compare_without_charts_loads_no_pandas(tmp_path):
    """compare --charts none: its CSV files and workbook are made from the results' columns."""
    out = tmp_path / "out"
    args = ["compare", str(SCENARIO), "--out", str(out), "--charts", "none"]
    code = f"from netbenefit.cli import main\nmain({args!r})"
    assert _loaded_after(code) == {"xlsxwriter"}
    assert (out / "summary.csv").exists() and (out / "comparison.xlsx").exists()
