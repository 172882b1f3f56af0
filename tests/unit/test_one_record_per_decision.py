"""Each rule makes its record once, where it compares; nothing outside the law calls a rule or reads
a parameter again to describe a decision the pipeline made (docs/layout.md, "One record per decision").

The imports and calls are read from the source with the AST, so a new module that restates a
comparison fails here by name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import netbenefit
from netbenefit.law.rules import CHECK_IDS, Decision
from netbenefit.model.cashflows import compute

PACKAGE = Path(netbenefit.__file__).parent
OFFICE = Path(__file__).parents[2] / "scenarios" / "office_hq_default_area.yaml"


@pytest.fixture(scope="module")
def office():
    return netbenefit.load_scenario(OFFICE)

#: The modules outside law/ that read a parameter, each with what it reads it for: computing a step
#: (the window, a bound, a plausible range, a step after approval), a formula of the workbook, or a
#: solver's tolerance. None of them describes a decision the pipeline made.
PARAMETER_READERS = {
    "model/commitment_window.py": "the defined commitment period, the window of 71(a)(5)(a)/(b)",
    "model/scenario/blocks.py": "the bounds and defaults of the scenario's keys",
    "model/scenario/problems.py": "the bound an error message names",
    "model/plausibility.py": "the plausible ranges of inputs",
    "model/methods.py": "the authority's published choices",
    "model/evaluate.py": "whether the cited sales tax rate is the one used (a convention's note)",
    "model/after_approval/annual_certification.py": "the steps after approval",
    "model/after_approval/floor.py": "the 80 percent floor after approval",
    "analysis/solvers.py": "the solvers' tolerance and the retained job's share of a new job's credit",
    "analysis/portfolio/book.py": "the program caps",
}


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every ``from ... import`` in a file, the module made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("netbenefit", *path.relative_to(PACKAGE).parent.parts))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            else:
                module = node.module or ""
            found.append((module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
    return found


def _calls(path: Path, name: str) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == name)
            or (isinstance(node.func, ast.Attribute) and node.func.attr == name)
        )
        for node in ast.walk(tree)
    )


def test_the_sentences_import_nothing_of_the_rules_but_the_record_types():
    imported = _imports(PACKAGE / "model" / "explain.py")
    rules = [(module, names) for module, names in imported if module.startswith("netbenefit.law.rules")]
    assert rules, "model/explain.py writes from the records: it imports their type"
    for module, names in rules:
        assert module == "netbenefit.law.rules.decision", f"model/explain.py imports {module}"
        assert set(names) <= {"Comparison", "Decision"}, names
    assert not any(module == "netbenefit.law.parameters" for module, _ in imported)
    assert not _calls(PACKAGE / "model" / "explain.py", "parameter")


def test_the_pipeline_builds_no_record_beside_the_rules():
    """The records are made in law/rules only: no module outside it constructs a Decision."""
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("law/rules/"):
            continue
        assert not _calls(path, "Decision"), f"{relative} builds a decision record of its own"
        assert not _calls(path, "Comparison"), f"{relative} builds a comparison of its own"


def test_only_the_listed_modules_outside_the_law_read_a_parameter():
    readers = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(("law/", "views/workbook/")):  # the law; the workbook writes its formulas
            continue
        if _calls(path, "parameter"):
            readers.add(relative)
    assert readers == set(PARAMETER_READERS), sorted(readers ^ set(PARAMETER_READERS))


def test_every_check_comes_from_its_rule_as_one_record(office):
    computation = compute(office)
    assert list(computation.decisions) == list(CHECK_IDS)
    for check_id, decision in computation.decisions.items():
        assert isinstance(decision, Decision) and decision.id == check_id
        assert computation.checks[check_id] is decision.passed


@pytest.mark.parametrize("variant", [0, 1])
def test_a_record_over_variants_gives_each_variant_its_own_comparisons(office, variant):
    """A variant whose retained jobs decide 71(a)(2) under (d) gets that comparison; one whose do not,
    the new jobs' alone."""
    computation = compute(office, {"jobs.retained": np.array([0.0, 600.0])})
    record = computation.decisions["71(a)(2)"].variant(variant)
    assert record.passed
    assert [c.what for c in record.comparisons] == (
        ["new full-time jobs"] if variant == 0 else ["new full-time jobs", "retained full-time jobs"]
    )
    assert record.decided_by.what == record.comparisons[-1].what
    if variant == 1:
        assert (record.decided_by.value, record.decided_by.limit, record.decided_by.clause) == (
            600.0,
            500.0,
            "71(c)(1)(d)",
        )
