"""The package's types as a type checker sees them (PEP 561): ``py.typed`` ships with the package,
and the names ``netbenefit`` binds on first use are declared for a type checker under
``if TYPE_CHECKING:`` in ``netbenefit/__init__.py``, each the object the package gives at run time.
CI runs mypy itself ([tool.mypy] in pyproject.toml)."""

from __future__ import annotations

import ast
import tomllib
from importlib import import_module
from pathlib import Path

import netbenefit

ROOT = Path(__file__).resolve().parents[2]


def _declared() -> dict[str, str]:
    """Public name -> the module it is imported from, under ``if TYPE_CHECKING:`` in the front door."""
    tree = ast.parse((ROOT / "netbenefit" / "__init__.py").read_text(encoding="utf-8"))
    blocks = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    ]
    declared: dict[str, str] = {}
    for block in blocks:
        for node in block.body:
            assert isinstance(node, ast.ImportFrom) and node.level == 1, ast.unparse(node)
            for alias in node.names:
                # "import x as x": an explicit re-export, so a strict checker sees the name as public
                assert alias.asname == alias.name, ast.unparse(node)
                assert alias.name not in declared, f"{alias.name} declared twice"
                declared[alias.name] = node.module or ""
    return declared


def test_every_public_name_is_declared_for_a_type_checker():
    declared = _declared()
    bound = {"compare", "evaluate"}  # imported at the top of the module, at run time too
    assert sorted(declared) == sorted(set(netbenefit.__all__) - bound)


def test_each_declared_name_is_the_object_the_package_gives():
    for name, module in _declared().items():
        declared = getattr(import_module(f"netbenefit.{module}"), name)
        assert declared is getattr(netbenefit, name), f"netbenefit.{name} is not netbenefit.{module}.{name}"


def test_py_typed_ships_with_the_package():
    assert (ROOT / "netbenefit" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["netbenefit"]
