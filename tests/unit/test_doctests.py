"""The examples in the package's docstrings run and give what they show (doctest)."""

import doctest
import importlib
from pathlib import Path

import pytest

import netbenefit

PACKAGE = Path(netbenefit.__path__[0])


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: Every module of the package, read from its files (nothing imported to find them), but
#: ``python -m``'s and the old public paths kept as deprecated shims (netbenefit._moved: their
#: examples are those of the module each names, and importing one warns).
MODULES = sorted(
    _name(path)
    for path in PACKAGE.rglob("*.py")
    if path.name != "__main__.py" and "_moved.moved(" not in path.read_text(encoding="utf-8")
)


def test_every_module_is_collected():
    assert {"netbenefit.law.taxes", "netbenefit.law.finance", "netbenefit.law.parameters"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name, monkeypatch):
    monkeypatch.chdir(netbenefit.__path__[0] + "/..")  # examples name scenarios/... from the project root
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert failures == 0, f"{name}: {failures} docstring example(s) failed (python -m doctest -v)"
