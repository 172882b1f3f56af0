"""The cited statutory and tax parameters (``emerge.yaml``), loaded once.

>>> from netbenefit.parameters import parameter
>>> parameter("net_benefit_threshold_default")
4.0
>>> PARAMETERS["other_business_minimum_new_jobs"].reference
'P.L.2020, c.156, s.71(c)(1)(c)'
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

FIELDS = ("description", "unit", "comparison", "effective", "source", "reference", "value")
COMPARISONS = ("at_least", "more_than", "less_than", "value")
SOURCES = ("statute", "secondary", "convention")


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


def _load() -> dict[str, Parameter]:
    text = resources.files(__package__).joinpath("emerge.yaml").read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    loaded = {}
    for name, entry in raw.items():
        if set(entry) != set(FIELDS):
            raise RuntimeError(f"parameter {name}: fields must be exactly {FIELDS}")
        if entry["comparison"] not in COMPARISONS or entry["source"] not in SOURCES:
            raise RuntimeError(f"parameter {name}: bad comparison or source")
        loaded[name] = Parameter(name=name, **entry)
    return loaded


PARAMETERS: dict[str, Parameter] = _load()


def parameter(name: str) -> Any:
    """The value of the parameter ``name`` (a KeyError names an unknown parameter)."""
    return PARAMETERS[name].value


def citation(name: str) -> str:
    """The pinpoint reference of the parameter ``name``."""
    return PARAMETERS[name].reference
