"""The floors of the package and the size of its parts (docs/layout.md, "Floors").

Every import statement of every module is read, those inside functions included (an import
under ``if TYPE_CHECKING:`` is not run and is left out). The floors are the package's folders,
from the ground up:

- labels: the words, which every floor may use (labels, units, formatters, number formats);
- io: files in and out (writing, a run's folder, the YAML loader, named files, safe text);
- law: the parameters, the rules and taxes as pure functions, the award calculator;
- model: the scenario, the cash flows, the result and what is computed from one scenario;
- analysis: many variants of one scenario, diff, the portfolio;
- views: HTML, the workbook, charts, notebook display, the files of a run;
- cli: the parser and the commands.

``errors``, ``version`` and ``_startup`` stay at the package's root, below every floor. A module
may import its own floor or a lower one, never a higher one. A model object reaches its views
only through the one door, :func:`netbenefit.views.view`.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

import netbenefit.views as door

PACKAGE = Path(__file__).resolve().parents[2] / "netbenefit"

#: The floors, from the ground up: each is a folder of the package (its ``__init__`` says what
#: lives there and what it may import). A module's floor is its folder's.
FLOORS = ("labels", "io", "law", "model", "analysis", "views", "cli")
#: The files that stay at the package's root: the front door, ``python -m``, and the modules every
#: floor may import (errors, the version, the signals held at start-up), below the ground floor.
ROOT_FILES = {"__init__.py", "__main__.py", "_startup.py", "version.py", "errors.py"}
BELOW = -1
#: The package's front door imports whatever it exports, on first use; it is on no floor.
FRONT_DOOR = ""
#: The one door from a model object to its views (``netbenefit/views/__init__.py``).
DOOR = "views"

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 100
#: Imports of the package inside a function (the door's included): at most this many, each one
#: deferring past start-up (``import netbenefit``, ``netbenefit --help``) a module start-up does not
#: load, with its reason on its line.
MAX_DEFERRED_IMPORTS = 80


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


@cache
def tree(module: str) -> ast.Module:
    """The parsed source of ``module`` (each file read and parsed once for all the tests here)."""
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def floor(module: str) -> int:
    if module == DOOR:
        return BELOW  # the door itself imports no view at module level: every floor may reach it
    top = module.split(".")[0]
    if top == "__main__":
        return FLOORS.index("cli")
    return FLOORS.index(top) if top in FLOORS else BELOW


def floor_name(module: str) -> str:
    return "below the floors" if floor(module) == BELOW else FLOORS[floor(module)]


def _type_checking_only(tree: ast.Module) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def _target(module: str, path: Path, node: ast.ImportFrom | ast.Import) -> list[tuple[str, str | None]]:
    """The netbenefit modules (and names) an import statement reaches: ``(module, name or None)``."""
    found: list[tuple[str, str | None]] = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == "netbenefit" or alias.name.startswith("netbenefit."):
                found.append((alias.name.removeprefix("netbenefit").lstrip("."), None))
        return found
    if node.level:
        base = module.split(".") if module else []
        if path.name != "__init__.py":
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, *([node.module] if node.module else [])])
    elif node.module and (node.module == "netbenefit" or node.module.startswith("netbenefit.")):
        source = node.module.removeprefix("netbenefit").lstrip(".")
    else:
        return found
    for alias in node.names:
        candidate = f"{source}.{alias.name}" if source else alias.name
        if candidate in MODULES:
            found.append((candidate, None))
        else:
            found.append((source, alias.name))
    return found


@cache
def imports() -> dict[str, list[tuple[str, str | None, int]]]:
    """Module -> the netbenefit modules it imports: ``(module, name imported or None, line)``."""
    graph: dict[str, list[tuple[str, str | None, int]]] = defaultdict(list)
    for module, path in MODULES.items():
        skipped = _type_checking_only(tree(module))
        for node in ast.walk(tree(module)):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skipped:
                for target, name in _target(module, path, node):
                    while target not in MODULES and "." in target:
                        target = target.rsplit(".", 1)[0]
                    if target != module and target in MODULES:
                        graph[module].append((target, name, node.lineno))
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` (Tarjan), largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found, key=len, reverse=True)


def test_no_module_imports_a_higher_floor():
    upward = []
    for module, targets in imports().items():
        if module in (FRONT_DOOR, DOOR):  # the door's functions are the one way up, each one import
            continue
        for target, _, line in targets:
            if target != FRONT_DOOR and floor(target) > floor(module):
                upward.append(
                    f"netbenefit/{MODULES[module].relative_to(PACKAGE)}:{line}: {module} "
                    f"({floor_name(module)}) imports {target} ({floor_name(target)})"
                )
    assert not upward, "\n".join(upward)


def test_no_module_imports_the_front_door():
    # ``from netbenefit import X`` inside the package would tie every module to everything the
    # package exports (and make one import circle of them all)
    found = [
        f"{module}:{line}"
        for module, targets in imports().items()
        for target, _, line in targets
        if target == FRONT_DOOR
    ]
    assert not found, found


def test_import_circles_have_at_most_two_modules():
    # the door's own imports (one per view, each on first call) are the one way up, left out here
    graph = {
        module: {target for target, _, _ in targets} - {FRONT_DOOR}
        for module, targets in imports().items()
        if module != DOOR
    }
    largest = _cycles(graph)[0]
    assert len(largest) <= 2, f"an import circle of {len(largest)} modules: {largest}"


def test_only_the_views_module_and_the_front_door_import_by_name():
    # views.view() is the one way up the floors; importlib elsewhere would hide an import
    found = []
    for module in MODULES:
        if module in ("views", FRONT_DOOR):
            continue
        for node in ast.walk(tree(module)):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in (
                "import_module",
                "importlib.import_module",
                "__import__",
            ):
                arguments = [ast.unparse(argument) for argument in node.args]
                if any("netbenefit" in argument or argument.startswith(("'.", '".')) for argument in arguments):
                    found.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
    assert not found, found


def test_no_private_name_is_imported_from_another_module():
    found = [
        f"{module}:{line}: {name} from {target}"
        for module, targets in imports().items()
        for target, name, line in targets
        if name is not None and name.startswith("_") and not name.startswith("__")
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("module", sorted(MODULES), ids=lambda m: m or "netbenefit")
def test_module_and_function_sizes(module):
    path = MODULES[module]
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(PACKAGE)}: {lines} lines (at most {MAX_MODULE_LINES})"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(tree(module))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{path.relative_to(PACKAGE)}: functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_every_folder_of_the_package_is_one_floor_and_few_files_stay_at_its_root():
    folders = {path.name for path in PACKAGE.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert folders == set(FLOORS), sorted(folders ^ set(FLOORS))
    files = {path.name for path in PACKAGE.glob("*.py")}
    assert files <= ROOT_FILES and len(files) <= 6, sorted(files - ROOT_FILES)
    for name in FLOORS:  # each floor says what lives there and what it may import
        docstring = ast.get_docstring(tree(name)) or ""
        assert "import" in docstring, f"netbenefit/{name}/__init__.py: say what the floor may import"


def test_a_cycle_and_an_upward_import_are_found():
    # the checks themselves: a circle of three is found, and a model module importing a view is upward
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})[0] == ["a", "b", "c"]
    assert floor("model.result") == 3 and floor("views.html") == 5 and floor("views.portfolio_files") == 5
    assert floor("analysis.portfolio.book") == 4 and floor("cli") == 6 and floor("io.writing") == 1
    assert floor("errors") == BELOW and floor("law.rules") == 2 and floor("__main__") == 6
    assert floor("labels.written") == 0 and floor("labels") < floor("io") < floor("law")


DOOR_FUNCTIONS = sorted(
    node.name
    for node in ast.parse((PACKAGE / "views" / "__init__.py").read_text(encoding="utf-8")).body
    if isinstance(node, ast.FunctionDef)
)


def test_the_door_names_no_view_by_a_string():
    # each door function reaches its view by an import statement the import reader follows
    source = (PACKAGE / "views" / "__init__.py").read_text(encoding="utf-8")
    assert "import_module" not in source and "__import__" not in source and "getattr(" not in source
    assert len(DOOR_FUNCTIONS) >= 20


@pytest.mark.parametrize("name", DOOR_FUNCTIONS)
def test_every_door_function_imports_its_view_from_the_views_floor(name):
    function = next(node for node in tree(DOOR).body if isinstance(node, ast.FunctionDef) and node.name == name)
    imported = [node for node in ast.walk(function) if isinstance(node, ast.ImportFrom)]
    assert len(imported) == 1 and imported[0].level == 1, f"{name}: one relative import of a view module"
    target = f"views.{imported[0].module}" if imported[0].module else f"views.{imported[0].names[0].name}"
    assert target in MODULES and floor(target) == FLOORS.index("views"), f"{name}: {target}"
    assert callable(getattr(door, name))


def test_views_are_reached_only_through_the_door():
    # below the views floor, a module names a view only as ``views.<function>`` of the door
    found = []
    for module in MODULES:
        if floor(module) >= FLOORS.index("views") or module == DOOR:
            continue
        for node in ast.walk(tree(module)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "views":
                if node.attr not in DOOR_FUNCTIONS:
                    found.append(f"{module}:{node.lineno}: views.{node.attr}")
    assert not found, found


def deferred_imports() -> list[tuple[str, int, list[str], str]]:
    """Every import of a netbenefit module inside a function: ``(module, line, the modules it
    loads, the source of its first line)``."""
    found = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(tree(module)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in _own_statements(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    targets = sorted({target for target, _ in _target(module, path, node) if target in MODULES})
                    if targets:
                        found.append((module, node.lineno, targets, lines[node.lineno - 1]))
    return sorted(found)


def _own_statements(function: ast.AST):
    """The statements of ``function``, those of the functions inside it left to them."""
    for node in ast.iter_child_nodes(function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        yield node
        yield from _own_statements(node)


def test_imports_inside_functions_are_few_and_each_says_why():
    # an import inside a function hides a dependency from the top of the module: only those that
    # keep a module out of start-up stay, each with its reason on its line
    found = deferred_imports()
    assert len(found) <= MAX_DEFERRED_IMPORTS, f"{len(found)} imports inside functions (at most {MAX_DEFERRED_IMPORTS})"
    silent = [f"{module}:{line}: {text.strip()}" for module, line, _, text in found if "#" not in text]
    assert not silent, "say on the line why the import waits (what it keeps out of start-up):\n" + "\n".join(silent)


def test_each_import_inside_a_function_keeps_a_module_out_of_start_up():
    # start-up, as the command line's: the package, the parser and every command module; then each
    # deferred import must be in a module loaded by then and name a module not loaded by then
    code = (
        "import contextlib, io, json, sys\n"
        "from netbenefit.cli import main\n"
        "try:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {
        name.removeprefix("netbenefit").lstrip(".") for name in json.loads(run.stdout) if name.startswith("netbenefit")
    }
    needless = [
        f"{module}:{line}: {', '.join(targets)}"
        for module, line, targets, _ in deferred_imports()
        if module not in loaded or all(target in loaded for target in targets)
    ]
    assert not needless, "imports inside functions that defer nothing at start-up; import at the top:\n" + "\n".join(
        needless
    )
    assert "model.tables" not in loaded and "views.html" not in loaded and "views.explore" not in loaded
