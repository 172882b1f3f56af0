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
may import its own floor or a lower one, never a higher one, with one kind of exception, listed
here by name (:data:`VIEW_METHODS`): a view method of a model or analysis object (``to_excel``,
``to_html``, ``to_pdf``, ``plot``, ``_repr_html_``, ...) imports its view in the method, one
import of one view module, as pandas' ``DataFrame.to_excel`` imports its formatter. Any other
import up the floors fails, at a module's top or in a function. The front door (``__init__.py``)
and the old public paths kept as deprecated shims (:data:`OLD_PATHS`) are on no floor.
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
#: The old public paths, each a deprecated shim module (or package of them) at the package's root
#: that imports its new place (docs/layout.md): on no floor, and imported by no module.
OLD_PATHS = ("after_approval", "award", "charts", "html", "methods", "parameters", "rules", "scenario", "workbook")
#: The one module the shims share: the deprecation warning, and the version that removes them.
SHIM_HELPER = "_moved"

#: The only imports up the floors: ``"module:Class.method"`` -> the view module it imports, in the
#: method, once. Each view method of a model or analysis object reaches its view so.
VIEW_METHODS = {
    "model.result:Result._repr_html_": "views.html",
    "model.result:Result.to_excel": "views.workbook",
    "model.result:Result.to_html": "views.html",
    "model.result:Result.to_pdf": "views.html.memo",
    "model.result:Result.plot": "views.charts",
    "model.compare:Comparison.plot": "views.charts",
    "model.compare:Comparison._repr_html_": "views.html",
    "model.compare:Comparison.to_excel": "views.workbook",
    "model.compare:Comparison.to_html": "views.html",
    "model.compare:Comparison.to_pdf": "views.html.memo",
    "model.scenario.format:Scenario._repr_html_": "views.notebook",
    "model.tables:ResultTable._repr_html_": "views.notebook",
    "model.tables:ResultTable.to_text": "views.tables",
    "analysis:__getattr__": "views.charts",  # the deprecated name netbenefit.analysis.tornado
    "analysis.solvers:SolverResult._repr_html_": "views.notebook",
    "analysis.diff:Diff._repr_html_": "views.notebook",
    "analysis.diff:Diff.plot": "views.charts",
    "analysis.diff:Diff.to_pdf": "views.html.memo",
    "analysis.montecarlo:MonteCarloResult.plot": "views.charts",
    "analysis.montecarlo:MonteCarloResult._repr_html_": "views.notebook",
    "analysis.sensitivity:SensitivityTable._repr_html_": "views.notebook",
    "analysis.sensitivity:SensitivityTable.tornado": "views.charts",
    "analysis.portfolio.book:Portfolio._repr_html_": "views.portfolio_files",
    "analysis.portfolio.book:Portfolio.plot": "views.charts.portfolio",
    "analysis.portfolio.book:Portfolio.to_excel": "views.portfolio_files",
    "analysis.portfolio.book:Portfolio.to_html": "views.portfolio_files",
}

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 100
#: Imports of the package inside a function (the listed view methods' apart): at most this many, each one
#: deferring past start-up (``import netbenefit``, ``netbenefit --help``) a module start-up does not
#: load, with its reason on its line.
MAX_DEFERRED_IMPORTS = 40


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


def on_no_floor(module: str) -> bool:
    """The front door and the deprecated shims of the old public paths."""
    return module == FRONT_DOOR or module == SHIM_HELPER or module.split(".")[0] in OLD_PATHS


def floor(module: str) -> int:
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


def _enclosing(tree: ast.Module) -> dict[int, str]:
    """Each statement's place in its module: the dotted name of the class and function it stands
    in (``Result.to_excel``), or ``""`` at the module's top."""
    places: dict[int, str] = {}

    def visit(node: ast.AST, place: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = place
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = f"{place}.{child.name}" if place else child.name
            places[id(child)] = place
            visit(child, inner)

    visit(tree, "")
    return places


@cache
def imports() -> dict[str, list[tuple[str, str | None, int, str]]]:
    """Module -> the netbenefit modules it imports: ``(module, name imported or None, line, the
    class and function the import stands in, "" at the module's top)``."""
    graph: dict[str, list[tuple[str, str | None, int, str]]] = defaultdict(list)
    for module, path in MODULES.items():
        skipped = _type_checking_only(tree(module))
        places = _enclosing(tree(module))
        for node in ast.walk(tree(module)):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skipped:
                for target, name in _target(module, path, node):
                    while target not in MODULES and "." in target:
                        target = target.rsplit(".", 1)[0]
                    if target != module and target in MODULES:
                        graph[module].append((target, name, node.lineno, places[id(node)]))
    return graph


def is_view_method_import(module: str, target: str, where: str) -> bool:
    """Whether an import of ``target`` in ``where`` of ``module`` is a listed view method's."""
    return VIEW_METHODS.get(f"{module}:{where}") == target


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


def upward_imports() -> list[str]:
    """Every import of a higher floor, at a module's top or in a function, but the listed view methods'."""
    upward = []
    for module, targets in imports().items():
        if on_no_floor(module):
            continue
        for target, _, line, where in targets:
            if on_no_floor(target) or floor(target) <= floor(module):
                continue
            if not is_view_method_import(module, target, where):
                upward.append(
                    f"netbenefit/{MODULES[module].relative_to(PACKAGE)}:{line}: {module} "
                    f"({floor_name(module)}) imports {target} ({floor_name(target)}) in {where or 'its top'}"
                )
    return upward


def test_no_module_imports_a_higher_floor_but_the_listed_view_methods():
    upward = upward_imports()
    assert not upward, "\n".join(upward)


def test_an_upward_import_not_listed_is_found(monkeypatch):
    # the check itself: a listed view method's import passes; the same import elsewhere fails
    assert is_view_method_import("model.result", "views.workbook", "Result.to_excel")
    assert not is_view_method_import("model.result", "views.workbook", "")  # at the module's top
    assert not is_view_method_import("model.result", "views.workbook", "Result.summary")
    assert not is_view_method_import("model.result", "views.html", "Result.to_excel")  # another view
    graph = dict(imports())
    graph["model.result"] = [*graph["model.result"], ("views.workbook", None, 1, ""), ("views.html", None, 2, "f")]
    monkeypatch.setattr(sys.modules[__name__], "imports", lambda: graph)
    found = upward_imports()
    assert len(found) == 2 and "in its top" in found[0] and "in f" in found[1], found


@pytest.mark.parametrize("where", sorted(VIEW_METHODS))
def test_each_view_method_imports_its_view_once(where):
    # each listed method exists, is a method of the class named (or the module's __getattr__), and
    # imports its one view module once, by an import statement in its own body
    module, place = where.split(":")
    found = sorted(
        {
            (target, line)
            for target, _, line, inside in imports()[module]
            if inside == place and floor(target) == FLOORS.index("views")
        }
    )
    assert [target for target, _ in found] == [VIEW_METHODS[where]], f"{where}: imports {found}"
    owner, _, method = place.rpartition(".")
    classes = {node.name: node for node in tree(module).body if isinstance(node, ast.ClassDef)}
    body = classes[owner].body if owner else tree(module).body
    assert any(isinstance(node, ast.FunctionDef) and node.name == method for node in body), where


def test_no_module_imports_the_front_door():
    # ``from netbenefit import X`` inside the package would tie every module to everything the
    # package exports (and make one import circle of them all)
    found = [
        f"{module}:{line}"
        for module, targets in imports().items()
        for target, _, line, _ in targets
        if target == FRONT_DOOR or (on_no_floor(target) and not on_no_floor(module))
    ]
    assert not found, found


def test_import_circles_have_at_most_two_modules():
    # the view methods' imports (each on first call) are the one way up, left out here
    graph = {
        module: {target for target, _, _, where in targets if not is_view_method_import(module, target, where)}
        - {FRONT_DOOR}
        for module, targets in imports().items()
        if not on_no_floor(module)
    }
    largest = _cycles(graph)[0]
    assert len(largest) <= 2, f"an import circle of {len(largest)} modules: {largest}"


def test_only_the_front_door_and_the_shims_import_by_name():
    # importlib elsewhere would hide an import from the floors' reader
    found = []
    for module in MODULES:
        if on_no_floor(module):
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
        for target, name, line, _ in targets
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
    # beside them, the old public paths' deprecated shims (OLD_PATHS) and the module they share
    folders = {path.name for path in PACKAGE.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert folders - set(OLD_PATHS) == set(FLOORS), sorted((folders - set(OLD_PATHS)) ^ set(FLOORS))
    files = {path.name for path in PACKAGE.glob("*.py") if path.stem not in (*OLD_PATHS, SHIM_HELPER)}
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


def deferred_imports() -> list[tuple[str, int, list[str], str]]:
    """Every import of a netbenefit module inside a function, but the listed view methods' (which
    stand there to keep the floors, not start-up): ``(module, line, the modules it loads, the
    source of its first line)``."""
    found = []
    view_methods = {
        (module, line)
        for module, targets in imports().items()
        for target, _, line, where in targets
        if is_view_method_import(module, target, where)
    }
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(tree(module)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in _own_statements(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    targets = sorted({target for target, _ in _target(module, path, node) if target in MODULES})
                    if targets and (module, node.lineno) not in view_methods:
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
    assert not [name for name in loaded if on_no_floor(name) and name], "a deprecated path loaded at start-up"
