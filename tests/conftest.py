"""Shared pytest configuration: hypothesis profiles and the ``slow`` tier.

``ci`` (the default) is deterministic and keeps no example database, so a run explores the same
inputs on every machine and writes nothing into the work tree; ``thorough`` explores ten times
more inputs for a local run: ``HYPOTHESIS_PROFILE=thorough python -m pytest tests/properties``.

The quick check, ``python -m pytest -m "not slow"``, leaves out what :func:`pytest_collection_modifyitems`
marks ``slow``: the notebooks, the generated and hostile input files, the property sweeps, every
test that starts a fresh Python process, and every test that writes the outputs of ``compare`` or
``report`` (charts, pages, workbooks). ``python -m pytest`` (and CI) runs everything.
"""

from __future__ import annotations

import inspect
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


def _source(obj) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def _starts_a_process(function) -> bool:
    """Whether a test function, or a module-level helper it calls by name, runs ``subprocess``."""
    if "subprocess" in _source(function):
        return True
    module_globals = getattr(function, "__globals__", {})
    for name in getattr(getattr(function, "__code__", None), "co_names", ()):
        helper = module_globals.get(name)
        if inspect.isfunction(helper) and helper.__module__ == function.__module__ and "subprocess" in _source(helper):
            return True
    return False


#: Calls that write every output of ``compare`` or ``report`` (charts drawn, pages rendered, workbooks
#: written): a second or more each, so the tests that make them, or use a fixture that does, are slow.
WRITES_OUTPUTS = ('"compare"', '"report"', "write_comparison", "report_html", "to_excel", "to_html", "write_workbook")


def _writes_outputs(item: pytest.Item, function) -> bool:
    """Whether the test, a module-level helper it calls, or a fixture it uses writes every output."""
    sources = [_source(function)]
    module_globals = getattr(function, "__globals__", {})
    for name in getattr(getattr(function, "__code__", None), "co_names", ()):
        helper = module_globals.get(name)
        if inspect.isfunction(helper) and helper.__module__ == function.__module__:
            sources.append(_source(helper))
    for definitions in getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {}).values():
        sources.extend(_source(definition.func) for definition in definitions)
    return any(token in source for source in sources for token in WRITES_OUTPUTS)


def _is_slow(item: pytest.Item) -> bool:
    path = Path(str(item.path)).resolve()
    try:
        relative = path.relative_to(ROOT).as_posix()
    except ValueError:
        return False
    if any(relative == p or relative.startswith(p + "/") for p in SLOW_PATHS):
        return True
    function = getattr(item, "function", None)
    if function is None:  # not a Python test function (a notebook run by nbmake)
        return True
    if getattr(function, "is_hypothesis_test", False):  # a property sweep
        return True
    function = inspect.unwrap(function)
    return _starts_a_process(function) or _writes_outputs(item, function)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tier (see the module docstring); explicit ``@pytest.mark.slow`` marks add to it."""
    for item in items:
        if _is_slow(item):
            item.add_marker(pytest.mark.slow)


#: Every workbook the tests write, checked against Excel's limits on formulas (tests/workbook_limits.py).
WORKBOOKS_CHECKED: list[int] = []


@pytest.fixture(autouse=True)
def _workbooks_within_excel_limits(monkeypatch):
    """Fail any test whose workbook breaks Excel's limits: a formula over 8,192 characters, a
    function of more than 255 arguments, a sheet named History."""
    from workbook_limits import workbook_problems

    from netbenefit import workbook

    save = workbook._Book.save

    def checked_save(book, path):
        problems = workbook_problems(book)
        assert not problems, f"{path}: " + "; ".join(problems[:5])
        WORKBOOKS_CHECKED.append(1)
        return save(book, path)

    monkeypatch.setattr(workbook._Book, "save", checked_save)
