"""Plausibility of the Monte Carlo distributions typed by hand: their bounds, means and medians.

A distribution of ``discount_rate`` written in percent (``uniform(5, 7)``, ``normal(6, 0.5)``)
draws nothing but implausible values; each parameter that places the draws (a bound, a mode, a
mean, a median, a listed value) is checked against the key's plausible range
(:func:`netbenefit.model.plausibility.entered_warnings`) before any draw, with the likely fix ("did you
mean 0.06?"). The spread (``sd``, ``sigma``) places nothing and is not checked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..model.plausibility import emit, entered_warnings, reader_number
from ..model.scenario import Scenario


def located_values(distribution: Any) -> list[tuple[str, float]]:
    """``(what, value)`` for each value that places a distribution's draws."""
    name, p = distribution.name, distribution.parameters
    if name == "choice":
        return [("a listed value", float(value)) for value in distribution.values if not isinstance(value, bool)]
    if name == "uniform":
        return [("the low bound", p[0]), ("the high bound", p[1])]
    if name == "triangular":
        return [("the low bound", p[0]), ("the mode", p[1]), ("the high bound", p[2])]
    if name == "normal":
        return [("the mean", p[0])]
    if name == "lognormal":  # numpy's parameters are those of the underlying normal
        median = math.exp(p[0]) if p[0] < 700 else math.inf
        mean = math.exp(p[0] + p[1] ** 2 / 2) if p[0] + p[1] ** 2 / 2 < 700 else math.inf
        return [("the median exp(mean)", median), ("the mean exp(mean + sigma^2/2)", mean)]
    return []


def distribution_warnings(scenario: Scenario, distributions: Mapping[str, Any]) -> tuple[str, ...]:
    """Every plausibility warning of the distributions of a Monte Carlo run, one line each."""
    lines: list[str] = []
    for key, distribution in distributions.items():
        shown = f"{distribution.name}({', '.join(reader_number(x) for x in distribution.parameters)})"
        for what, value in located_values(distribution):
            via = f"{what} of {shown}" if distribution.name != "choice" else f"{what} to draw from"
            for line in entered_warnings(key, [value], via=via, scenario=scenario):
                if line not in lines:
                    lines.append(line)
    return tuple(lines)


def warn_distributions(scenario: Scenario, distributions: Mapping[str, Any]) -> tuple[str, ...]:
    """Emit :func:`distribution_warnings` as PlausibilityWarnings (an error under ``--strict``)."""
    return emit(distribution_warnings(scenario, distributions), stacklevel=3)
