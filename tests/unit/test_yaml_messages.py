"""The messages of the strict YAML loader, as a user reads them, for the two kinds of file it reads:
a scenario file (one ScenarioError line naming the file) and a data file of the package (the
parameters, the plausible ranges: a RuntimeError naming every name given twice in one mapping)."""

from __future__ import annotations

import ast
import re
import types
from importlib import resources
from pathlib import Path

import pytest
import yaml

from netbenefit import ScenarioError, load_scenario
from netbenefit.io import strict_yaml
from netbenefit.law.parameters import parse_data_yaml, parse_parameter_files
from netbenefit.model import plausibility

DEEP = "a: " + "[" * 60 + "]" * 60 + "\n"
BOMB = (
    "l0: &l0 ["
    + ", ".join(["x"] * 10)
    + "]\n"
    + "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]\n" for i in range(1, 6))
)


@pytest.mark.parametrize(
    "text, message",
    [
        ("name: a\nname: b\n", "duplicate key 'name' (line 2)"),
        ("name: a\njobs:\n  new: 1\n  retained: 2\n  new: 3\n", "duplicate key 'new' (line 5)"),
        ("a: 1\nb: 2\nb: 3\na: 4\n", "duplicate key 'b' (line 3)"),  # the first one given again
        ("capital_investment:\n  1: 5\n  2: 6\n  1: 7\n", "duplicate key 1 (line 4)"),
        ("a: &a {x: 1}\nc:\n  <<: *a\n  y: 1\n  y: 2\n", "duplicate key 'y' (line 5)"),
        ("a: &a {x: 1}\nb: &b {x: 2}\nc:\n  <<: *a\n  <<: *b\n", "duplicate key '<<' (line 5)"),
        ("name: [unclosed\n", "not valid YAML: expected ',' or ']', but got '<stream end>' (line 2, column 1)"),
        ("name: *nope\n", "not valid YAML: found undefined alias 'nope' (line 1, column 7)"),
        ("a:\n\tb: 1\n", "not valid YAML: found character '\\t' that cannot start any token (line 2, column 1)"),
        ("a: !!int abc\n", "not valid YAML: a value cannot be read (invalid literal for int() with base 10: 'abc')"),
        (BOMB, "aliases expand to more than 200,000 values"),
        ("a: &loop [*loop]\n", "an alias refers to a collection that contains it"),
        (DEEP, "nested more than 50 levels deep"),
    ],
    ids=[
        "duplicate",
        "duplicate-nested",
        "first-duplicate",
        "duplicate-year",
        "duplicate-beside-merge",
        "two-merges",
        "syntax",
        "undefined-alias",
        "tab",
        "bad-tag",
        "alias-bomb",
        "alias-loop",
        "deep",
    ],
)
def test_a_scenario_file_s_yaml_problem_reads_as_it_always_has(tmp_path, text, message):
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == f"{path}: {message}"


def test_a_merged_key_may_be_given_again_in_a_scenario_file(tmp_path):
    path = tmp_path / "scenario.yaml"
    path.write_text("a: &a {x: 1}\nname:\n  <<: *a\n  x: 2\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:  # read as YAML: only the format refuses it
        load_scenario(path)
    assert "duplicate" not in str(caught.value) and "not valid YAML" not in str(caught.value)


@pytest.mark.parametrize(
    "text, names",
    [
        ("a:\n  low: 1\n  low: 2\n", "low"),
        ("b: 1\na: 1\nb: 2\na: 2\n", "a, b"),  # every name given twice in the mapping, sorted
        ("1: x\n1: y\n", "1"),
        ("top:\n  inner:\n    high: 1\n    low: 0\n    high: 2\n", "high"),
    ],
)
def test_a_data_file_s_name_given_twice_reads_as_it_always_has(text, names):
    with pytest.raises(RuntimeError) as caught:
        parse_data_yaml(text)
    assert str(caught.value) == f"names given twice in one file: {names}"


def test_a_parameters_file_with_a_name_given_twice_reads_as_it_always_has():
    entry = (
        "x:\n  description: d\n  unit: u\n  comparison: value\n  effective: 2020-01-01\n"
        "  source: convention\n  reference: r\n  value: 1\n"
    )
    with pytest.raises(RuntimeError) as caught:
        parse_parameter_files([("a.yaml", entry + entry)])
    assert str(caught.value) == "names given twice in one file: x"


def test_a_ranges_file_with_a_name_given_twice_reads_as_it_always_has(monkeypatch):
    ranges = resources.files("netbenefit.law.parameters").joinpath(plausibility.RANGES_FILE).read_text(encoding="utf-8")
    first = ranges.index("\n  keys:")
    doubled = ranges[:first] + "\n  keys: [jobs.new]" + ranges[first:]
    file = types.SimpleNamespace(read_text=lambda encoding: doubled)
    folder = types.SimpleNamespace(joinpath=lambda name: file)
    monkeypatch.setattr(plausibility, "resources", types.SimpleNamespace(files=lambda package: folder))
    with pytest.raises(RuntimeError) as caught:
        plausibility._load_ranges()
    assert str(caught.value) == "names given twice in one file: keys"


def test_every_data_file_of_the_package_reads_as_plain_safe_yaml():
    folder = resources.files("netbenefit.law.parameters")
    files = [entry for entry in folder.iterdir() if entry.name.endswith(".yaml")]
    files += [entry for entry in folder.joinpath("ranges").iterdir() if entry.name.endswith(".yaml")]
    assert len(files) >= 7
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert parse_data_yaml(text) == yaml.load(text, Loader=yaml.SafeLoader), file.name  # noqa: S506


# --- one loader ------------------------------------------------------------------------------


def test_every_yaml_file_is_read_by_the_one_strict_loader():
    package = Path(__file__).resolve().parents[2] / "netbenefit"
    readers = [
        f"{path.relative_to(package)}: {pattern}"
        for path in package.rglob("*.py")
        if path.name != "strict_yaml.py"
        for pattern in (r"(?<![\w.])yaml\.(safe_)?load\(", r"add_constructor\(", r"SafeLoader\)")
        if re.search(pattern, path.read_text(encoding="utf-8"))
    ]
    assert not readers


def test_the_loader_stands_on_the_ground_floor():
    source = (Path(__file__).resolve().parents[2] / "netbenefit" / "io" / "strict_yaml.py").read_text(encoding="utf-8")
    imported = {
        alias.name if isinstance(node, ast.Import) else node.module or "."
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported <= {"__future__", "typing", "yaml"}


def test_a_data_file_is_bounded_as_a_scenario_file_is():
    with pytest.raises(strict_yaml.LimitError, match="nested more than 50 levels deep"):
        parse_data_yaml(DEEP)
    with pytest.raises(strict_yaml.LimitError, match="aliases expand to more than 200,000 values"):
        parse_data_yaml(BOMB)


@pytest.mark.slow
def test_a_tree_without_aliases_is_bounded_at_the_same_count():
    # No anchor, no alias: the document's values are its nodes, counted as they are composed. The
    # mapping, its key, the list and 199,997 items make 200,000 values: the most a document may hold.
    at_most = "a: [" + ", ".join(["1"] * 199_997) + "]\n"
    assert len(strict_yaml.load(at_most)["a"]) == 199_997
    with pytest.raises(strict_yaml.LimitError, match="aliases expand to more than 200,000 values"):
        strict_yaml.load(at_most.replace("[1, ", "[1, 1, "))
