"""The public names of the package resolve to the right objects in any import order."""

import subprocess
import sys

import pytest

import netbenefit


@pytest.mark.parametrize("name", netbenefit.__all__)
def test_every_public_name_resolves(name):
    value = getattr(netbenefit, name)
    assert not isinstance(value, type(sys)), f"netbenefit.{name} is a module, not the public object"


@pytest.mark.slow
@pytest.mark.parametrize(
    "first_import",
    [
        "netbenefit.model.evaluate",
        "netbenefit.model.compare",
        "netbenefit.cli",
        "netbenefit.analysis",
        "netbenefit.analysis.portfolio",
        "netbenefit.analysis.portfolio.montecarlo",
        "netbenefit.views.explore",
    ],
)
def test_functions_are_not_shadowed_by_their_modules(first_import):
    code = (
        f"import {first_import}, netbenefit; assert callable(netbenefit.evaluate) and callable(netbenefit.compare)"
        " and callable(netbenefit.portfolio) and callable(netbenefit.explore) and callable(netbenefit.diff)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


@pytest.mark.slow
def test_import_is_light():
    code = "import sys, netbenefit; assert 'matplotlib' not in sys.modules and 'netbenefit.analysis' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0
