"""The front door and the old public import paths (docs/layout.md, "At the root").

Each old path is a small shim module that warns once, naming its new path and the version that
removes it, and gives the new module's objects; the package installs no import hook and keeps no
module class of its own; ``netbenefit.portfolio`` is the function; every chart is one object.
"""

from __future__ import annotations

import ast
import importlib
import sys
import types
import warnings
from pathlib import Path

import pytest

import netbenefit
from netbenefit import _moved

PACKAGE = Path(netbenefit.__file__).parent

#: Old path -> new path: the shims at the package's root (their submodules included).
OLD_PATHS = {
    "netbenefit.after_approval": "netbenefit.model.after_approval",
    "netbenefit.award": "netbenefit.law.award",
    "netbenefit.methods": "netbenefit.model.methods",
    "netbenefit.parameters": "netbenefit.law.parameters",
    "netbenefit.charts": "netbenefit.views.charts",
    "netbenefit.html": "netbenefit.views.html",
    "netbenefit.rules": "netbenefit.law.rules",
    "netbenefit.scenario": "netbenefit.model.scenario",
    "netbenefit.workbook": "netbenefit.views.workbook",
}


def _shims() -> dict[str, str]:
    found = dict(OLD_PATHS)
    for old, new in OLD_PATHS.items():
        folder = PACKAGE / old.split(".")[1]
        for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
            if path.stem != "__init__":
                found[f"{old}.{path.stem}"] = f"{new}.{path.stem}"
    return found


SHIMS = _shims()


def test_every_shim_at_the_root_is_listed():
    stems = {path.stem for path in PACKAGE.glob("*.py")} | {
        path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()
    }
    old = {name.split(".")[1] for name in OLD_PATHS}
    floors = {"labels", "io", "law", "model", "analysis", "views", "cli"}
    assert stems - floors - {"__init__", "__main__", "_startup", "_moved", "version", "errors"} == old
    assert len(SHIMS) > len(OLD_PATHS)  # the packages' submodules too (netbenefit.charts.results)


@pytest.mark.parametrize("old", sorted(SHIMS))
def test_each_old_path_warns_once_and_gives_the_same_objects(old):
    new = importlib.import_module(SHIMS[old])
    sys.modules.pop(old, None)  # imported afresh: its body runs, as at a first import
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        shim = importlib.import_module(old)
        names = [name for name in dir(shim) if not name.startswith("__")]
    assert [str(w.message) for w in caught] == [
        f"{old} was deprecated in netbenefit {_moved.SINCE} and will be removed in {_moved.REMOVED_IN}: "
        f"use {SHIMS[old]} instead"
    ]
    assert caught[0].category is DeprecationWarning and _moved.REMOVED_IN == "0.3.0"
    assert names and all(getattr(shim, name) is getattr(new, name) for name in names)
    assert shim.__all__ and all(getattr(shim, name) is getattr(new, name) for name in shim.__all__)
    with pytest.raises(AttributeError):
        shim.no_such_name  # noqa: B018


def test_the_front_door_installs_no_import_hook_and_no_module_class():
    assert not [finder for finder in sys.meta_path if type(finder).__module__.startswith("netbenefit")]
    assert type(netbenefit) is types.ModuleType


def test_netbenefit_portfolio_is_the_function_and_its_module_moved():
    import netbenefit.analysis.portfolio
    import netbenefit.analysis.portfolio.montecarlo  # noqa: F401

    assert callable(netbenefit.portfolio) and not isinstance(netbenefit.portfolio, types.ModuleType)
    assert netbenefit.portfolio is netbenefit.analysis.portfolio.portfolio
    assert netbenefit.portfolio_montecarlo is netbenefit.analysis.portfolio.montecarlo.portfolio_montecarlo
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("netbenefit.portfolio.montecarlo")


def test_every_public_name_is_seen_by_a_type_checker():
    # the names under ``if TYPE_CHECKING:`` of the front door are the names it exports
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    checked = next(node for node in tree.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    seen = {
        alias.asname or alias.name
        for node in ast.walk(checked)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen | {"compare", "evaluate"} == set(netbenefit.__all__)


def test_every_chart_is_one_object_whatever_path_names_it():
    from netbenefit.views import charts

    functions = {
        name: getattr(charts, name) for name in charts.__all__ if isinstance(getattr(charts, name), types.FunctionType)
    }
    assert len(functions) > 20
    for name, function in functions.items():
        module = sys.modules[function.__module__]
        assert module.__name__.startswith("netbenefit.views.charts.") and getattr(module, name) is function, name
    for kind, chart in charts.SCENARIO_CHARTS.items():
        assert getattr(charts, chart.__name__) is chart, kind
    assert charts.cumulative_pv is charts.cumulative.cumulative_pv is charts.results.cumulative_pv
    assert charts.tornado.__wrapped__ is not charts.tornado  # drawn with math text off (charts.style.plain_text)


def test_the_old_style_path_still_gives_what_printing_a_figure_took_from_it():
    from netbenefit.views.charts import printing, style

    sys.modules.pop("netbenefit.charts.style", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        shim = importlib.import_module("netbenefit.charts.style")
    for name in ("save_figure", "figure_bytes", "DPI", "FORMATS", "PNG_OPTIONS", "SVG_HASH_SALT"):
        assert getattr(shim, name) is getattr(printing, name), name
    assert shim.new_figure is style.new_figure and shim.PLAIN_TEXT is style.PLAIN_TEXT
    with pytest.raises(AttributeError):
        shim.no_such_name  # noqa: B018
