"""The examples in the package's docstrings run and give what they show (doctest)."""

import doctest
import importlib
import pkgutil

import pytest

import netbenefit

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(netbenefit.__path__, prefix="netbenefit.")
    if name != "netbenefit.__main__"
)


def test_every_module_is_collected():
    assert {"netbenefit.law.taxes", "netbenefit.law.finance", "netbenefit.law.parameters"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name, monkeypatch):
    monkeypatch.chdir(netbenefit.__path__[0] + "/..")  # examples name scenarios/... from the project root
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert failures == 0, f"{name}: {failures} docstring example(s) failed (python -m doctest -v)"
