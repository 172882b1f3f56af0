"""Shared pytest configuration: hypothesis profiles and the ``slow`` tier.

``ci`` (the default) is deterministic and keeps no example database, so a run explores the same
inputs on every machine and writes nothing into the work tree; ``thorough`` explores ten times
more inputs for a local run: ``HYPOTHESIS_PROFILE=thorough python -m pytest tests/properties``.

The quick check, ``python -m pytest -m "not slow"``, leaves out the tests marked ``slow``: the
notebooks, the generated and hostile input files and the property sweeps (marked here, by path),
and every test that starts a fresh Python process or writes the outputs of ``compare`` or
``report`` (charts, pages, workbooks), each marked where it is written. ``python -m pytest`` (and
CI) runs everything. :func:`pytest_terminal_summary` names the tests of the quick tier that took
more than a second, so that a slow test left unmarked shows.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_COMMON = {
    "database": None,
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow],
}
settings.register_profile("ci", derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parents[1]

#: Folders and files whose every test is slow (paths relative to the repository root).
SLOW_PATHS = (
    "notebooks",
    "tests/properties",
    "tests/fuzz/test_generated_inputs.py",
    "tests/fuzz/test_hostile_files.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tier by path: the notebooks and the folders and files of :data:`SLOW_PATHS`.
    Every other slow test says so itself (``@pytest.mark.slow``, or ``pytestmark`` for a file)."""
    for item in items:
        path = Path(str(item.path)).resolve()
        try:
            relative = path.relative_to(ROOT).as_posix()
        except ValueError:
            continue
        if any(relative == p or relative.startswith(p + "/") for p in SLOW_PATHS):
            item.add_marker(pytest.mark.slow)


#: Every workbook the tests write, checked against Excel's limits on formulas (tests/workbook_limits.py).
WORKBOOKS_CHECKED: list[int] = []


@pytest.fixture(autouse=True)
def _workbooks_within_excel_limits(monkeypatch):
    """Fail any test whose workbook breaks Excel's limits: a formula over 8,192 characters, a
    function of more than 255 arguments, a sheet named History."""
    from workbook_limits import workbook_problems

    from netbenefit.views import workbook

    save = workbook.Book.save

    def checked_save(book, path):
        problems = workbook_problems(book)
        assert not problems, f"{path}: " + "; ".join(problems[:5])
        WORKBOOKS_CHECKED.append(1)
        return save(book, path)

    monkeypatch.setattr(workbook.Book, "save", checked_save)


#: A test of the quick tier that takes longer than this is named at the end of the run. [s]
QUICK_TEST_SECONDS = 1.0
_UNMARKED_SLOW: list[tuple[float, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > QUICK_TEST_SECONDS and "slow" not in report.keywords:
        _UNMARKED_SLOW.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter) -> None:
    if _UNMARKED_SLOW:
        terminalreporter.section("tests of the quick tier over a second (mark them slow?)")
        for seconds, nodeid in sorted(_UNMARKED_SLOW, reverse=True):
            terminalreporter.write_line(f"{seconds:5.1f} s  {nodeid}")
