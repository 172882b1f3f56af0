"""The cited statutory and tax parameters (every ``*.yaml`` file of this folder), loaded once.

Names are unique across the files; a file may not repeat a name either.

>>> from netbenefit.law.parameters import parameter
>>> parameter("net_benefit_threshold_default")
4.0
>>> PARAMETERS["other_business_minimum_new_jobs"].reference
'P.L.2020, c.156, s.71(c)(1)(c)'
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ...io import strict_yaml

FIELDS = ("description", "unit", "comparison", "effective", "source", "reference", "value")
#: Fields an entry may add: the last day it applies (``until``, a date) and the words relied on (``quote``).
OPTIONAL_FIELDS = ("until", "quote")
COMPARISONS = ("at_least", "more_than", "less_than", "value")
SOURCES = ("statute", "rule", "secondary", "convention")


@dataclass(frozen=True)
class Parameter:
    """One cited number. ``value`` is used with ``comparison`` (``at_least`` means ``>=``)."""

    name: str
    description: str
    unit: str
    comparison: str
    effective: _dt.date
    source: str
    reference: str
    value: Any
    until: _dt.date | None = None  # last day it applies; None: in force with no end date
    quote: str = ""  # the words of the source relied on


def parse_data_yaml(text: str) -> Any:
    """A YAML data file of the package (parameters, plausible ranges), read with the one strict
    loader (:mod:`netbenefit.io.strict_yaml`: safe, bounded, libyaml's parser where installed); a name
    given twice in one mapping is a RuntimeError naming every such name."""
    try:
        return strict_yaml.load(text, python_messages=False)
    except strict_yaml.DuplicateKeyError as error:
        raise RuntimeError(f"names given twice in one file: {', '.join(error.names)}") from None


def parse_parameter_files(files: Iterable[tuple[str, str]]) -> dict[str, Parameter]:
    """Parameters from ``(file name, YAML text)`` pairs; a name defined twice is an error.

    Raises
    ------
    RuntimeError
        A name given twice (in one file or in two), or an entry without exactly the fields
        ``FIELDS`` (and any of ``OPTIONAL_FIELDS``), or with an unknown comparison or source.
    """
    loaded: dict[str, Parameter] = {}
    for file_name, text in files:
        raw = parse_data_yaml(text)
        for name, entry in (raw or {}).items():
            if name in loaded:
                raise RuntimeError(f"parameter {name} of {file_name} is already defined in another parameters file")
            if not isinstance(entry, dict) or not set(FIELDS) <= set(entry) <= set(FIELDS + OPTIONAL_FIELDS):
                raise RuntimeError(
                    f"parameter {name}: fields must be exactly {FIELDS}, optionally with {OPTIONAL_FIELDS}"
                )
            if entry["comparison"] not in COMPARISONS or entry["source"] not in SOURCES:
                raise RuntimeError(f"parameter {name}: bad comparison or source")
            loaded[name] = Parameter(name=name, **entry)
    return loaded


def _load() -> dict[str, Parameter]:
    files = sorted(
        (entry for entry in resources.files(__package__).iterdir() if entry.name.endswith(".yaml")),
        key=lambda entry: entry.name,
    )
    return parse_parameter_files((file.name, file.read_text(encoding="utf-8")) for file in files)


PARAMETERS: dict[str, Parameter] = _load()


def parameter(name: str) -> Any:
    """The value of the parameter ``name`` (a KeyError names an unknown parameter)."""
    return PARAMETERS[name].value


def citation(name: str) -> str:
    """The pinpoint reference of the parameter ``name``."""
    return PARAMETERS[name].reference
