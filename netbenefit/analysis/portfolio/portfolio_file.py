"""The portfolio file of a portfolio Monte Carlo (:mod:`netbenefit.analysis.portfolio.montecarlo`,
where its form is written): read and checked before any work (:func:`load_portfolio_file`), every
application's scenario loaded and its distributions parsed, and the arguments of a run checked
(:func:`check_run_arguments`). Every problem is a ScenarioError naming the file, the key and the
problem."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import ScenarioError
from ...io.named_files import path_inside
from ...io.text_rule import DESCRIPTION_ALLOWS, refused_character
from ...model.scenario import Scenario, load_scenario, read_yaml
from ...model.scenario.problems import short_repr
from ...model.scenario.workbook_form import is_workbook_file
from ..keys import key_spec
from ..montecarlo import parse_distribution

if TYPE_CHECKING:
    from ..montecarlo import Distribution

#: The macro draws a portfolio file may give, and the scenario key each replaces.
MACRO_KEYS = {"salary_growth": "jobs.salary_growth", "discount_rate": "discount_rate", "inflation": "inflation"}
#: Keys of a portfolio file and of each of its applications.
FILE_KEYS = ("name", "description", "draws", "seed", "chunk_size", "group_size", "macro", "applications")
APPLICATION_KEYS = ("file", "scenario", "vary")
#: Draws per task, and applications per task, unless the file or the caller says otherwise.
DEFAULT_CHUNK_SIZE, DEFAULT_GROUP_SIZE = 10_000, 20  # not a statutory number: task sizes


@dataclass(frozen=True)
class PortfolioFile:
    """A parsed portfolio file: scenarios with their distributions, and the macro draws."""

    source: str
    name: str
    scenarios: tuple
    vary: tuple[dict, ...]  # per application: key -> Distribution
    macro: dict  # scenario key -> Distribution
    draws: int | None = None
    seed: int | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE
    group_size: int = DEFAULT_GROUP_SIZE


def whole_number(source: str, key: str, value: Any, least: int, most: int | None = None) -> int:
    """A whole number of at least ``least`` (and at most ``most``): a Python or numpy integer, never
    a bool, a float or text; 0 is not "the default". Raises ScenarioError naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < least:
        raise ScenarioError(source, key, f"must be a whole number >= {least}, not {value!r}")
    if most is not None and value > most:
        raise ScenarioError(source, key, f"must be a whole number <= {most:,}, not {value!r}")
    return int(value)


#: The most draws a portfolio Monte Carlo run takes (the memory it needs is checked too). [draws]
MAX_DRAWS = 100_000_000  # not a statutory number: a bound before allocation
#: The largest seed: numpy's SeedSequence takes any whole number >= 0; a bound keeps it a number
#: every output can write. [-]
MAX_SEED = 2**128 - 1


def check_run_arguments(
    source: str,
    draws: Any = None,
    seed: Any = None,
    chunk_size: Any = None,
    group_size: Any = None,
    *,
    prefix: str = "",
) -> None:
    """Check the arguments of a run as given (None: the file's or the default), before any work:
    whole numbers in range, 0 refused (not "the default"). Raises ScenarioError naming each
    (``prefix``: ``--`` for the command line's options)."""
    if draws is not None:
        whole_number(source, f"{prefix}draws", draws, 1, MAX_DRAWS)
    if seed is not None:
        whole_number(source, f"{prefix}seed", seed, 0, MAX_SEED)
    if chunk_size is not None:
        whole_number(source, f"{prefix}chunk_size", chunk_size, 1, MAX_DRAWS)
    if group_size is not None:
        whole_number(source, f"{prefix}group_size", group_size, 1)


def _text(source: str, key: str, value: Any, allowed: str = "") -> str:
    """A name or a description under the text rule (:mod:`netbenefit.io.text_rule`): text, no control
    character (a description may hold line breaks and tabs), no lone surrogate."""
    if not isinstance(value, str):
        raise ScenarioError(source, key, f"must be text, not {type(value).__name__} {value!r}")
    problem = refused_character(value, allowed)
    if problem is not None:
        raise ScenarioError(source, key, problem)
    return value


def _mapping(source: str, key: str, value: Any, what: str) -> Mapping:
    """A mapping (``{}`` when the key is absent); any other kind of value, ``null``, a list or a
    number included, is an error: never "none given"."""
    if not isinstance(value, Mapping):
        shown = "null" if value is None else f"{type(value).__name__} {value!r}"
        raise ScenarioError(source, key, f"must be a mapping of {what}, not {shown}")
    for name in value:
        if not isinstance(name, str):
            raise ScenarioError(source, key, f"must be a mapping of {what}: the key {name!r} is not text")
    return value


def _distribution(scenario: Scenario, key: str, spec: Any, where: str) -> Distribution:
    if isinstance(spec, str):  # the command line's form, normal(100, 10), is not YAML's
        raise ScenarioError(where, key, f"write the distribution as a list, e.g. [normal, 100, 10], not {spec!r}")
    try:
        key_spec(scenario, key)
        return parse_distribution(scenario, key, spec)
    except ScenarioError as error:
        raise ScenarioError(where, f"{error.key}" if error.key else key, error.problem) from None


def load_portfolio_file(path: str | Path) -> PortfolioFile:
    """Read and check a portfolio file; every scenario is loaded. Raises ScenarioError naming the
    file (the portfolio file, or the scenario file at fault), the key and the problem."""
    path = Path(path)
    source = str(path)
    data = read_yaml(path)
    if not isinstance(data, Mapping):
        raise ScenarioError(source, "", "a portfolio file is a mapping with an 'applications' list")
    unknown = [key for key in data if key not in FILE_KEYS]
    if unknown:
        raise ScenarioError(source, str(unknown[0]), f"unknown key; a portfolio file has {', '.join(FILE_KEYS)}")
    entries = data.get("applications")
    if not isinstance(entries, list) or not entries:
        raise ScenarioError(source, "applications", "give a list of applications, each with a 'file'")
    name = path.stem if "name" not in data else _text(source, "name", data["name"])
    if "description" in data:
        _text(source, "description", data["description"], DESCRIPTION_ALLOWS)
    for key in ("draws", "seed", "chunk_size", "group_size"):
        if key in data and data[key] is None:
            raise ScenarioError(source, key, "must be a whole number, not null (leave the key out for the default)")
    check_run_arguments(source, data.get("draws"), data.get("seed"), data.get("chunk_size"), data.get("group_size"))
    macro_specs = _mapping(source, "macro", data.get("macro", {}), f"{', '.join(MACRO_KEYS)} to distributions")
    for macro_name in macro_specs:
        if macro_name not in MACRO_KEYS:
            raise ScenarioError(source, f"macro.{macro_name}", f"unknown macro draw; use {', '.join(MACRO_KEYS)}")
    scenarios, varies = [], []
    for i, entry in enumerate(entries):
        where = f"applications.{i}"
        if isinstance(entry, str):
            entry = {"file": entry}
        if not isinstance(entry, Mapping) or "file" not in entry or not isinstance(entry["file"], str):
            raise ScenarioError(source, where, "each application is a mapping with 'file' (a scenario file)")
        extra = [key for key in entry if key not in APPLICATION_KEYS]
        if extra:
            raise ScenarioError(
                source, f"{where}.{extra[0]}", "unknown key; an application has 'file', 'scenario' and 'vary'"
            )
        file = _scenario_path(entry["file"], path, source, f"{where}.file")
        scenario = _application_scenario(file, entry, source, where)
        vary_specs = _mapping(source, f"{where}.vary", entry.get("vary", {}), "dotted keys to distributions")
        vary = {}
        for key, spec in vary_specs.items():
            if key in MACRO_KEYS.values():
                raise ScenarioError(source, f"{where}.vary.{key}", "is a macro draw, shared by every application")
            vary[key] = _distribution(scenario, key, spec, f"{source}: {where}.vary")
        scenarios.append(scenario)
        varies.append(vary)
    macro = {
        MACRO_KEYS[name]: _distribution(scenarios[0], MACRO_KEYS[name], spec, f"{source}: macro")
        for name, spec in macro_specs.items()
    }
    return PortfolioFile(
        source=source,
        name=name or path.stem,
        scenarios=tuple(scenarios),
        vary=tuple(varies),
        macro=macro,
        draws=None if data.get("draws") is None else int(data["draws"]),
        seed=None if data.get("seed") is None else int(data["seed"]),
        chunk_size=int(data.get("chunk_size", DEFAULT_CHUNK_SIZE)),
        group_size=int(data.get("group_size", DEFAULT_GROUP_SIZE)),
    )


def _application_scenario(file: Path, entry: Mapping, source: str, where: str) -> Scenario:
    """An application's scenario: its file loaded, or with ``scenario: N`` the N-th scenario of a
    workbook netbenefit wrote (a comparison workbook holds several)."""
    if "scenario" not in entry:
        return load_scenario(file)
    number = entry["scenario"]
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ScenarioError(source, f"{where}.scenario", f"must be a whole number from 1 (got {short_repr(number)})")
    if not is_workbook_file(file):
        problem = f"chooses a scenario of a workbook (.xlsx): {file.name} is not one"
        raise ScenarioError(source, f"{where}.scenario", problem)
    return Scenario.from_excel(file, number)


def _scenario_path(name: str, path: Path, source: str, key: str) -> Path:
    """An application's scenario file, held to the one path rule of every file a file names
    (:func:`netbenefit.io.named_files.path_inside`): relative, inside the portfolio file's folder once
    links are resolved, no control character; and a regular file."""
    file = path_inside(name, path.parent, source, key, "the portfolio file's folder")
    if not file.is_file():
        raise ScenarioError(source, key, f"no scenario file {name!r} next to the portfolio file")
    return file
