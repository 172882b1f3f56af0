"""The first step of the model: a scenario's values, some of them replaced by arrays of variants.

:class:`Inputs` is the one accessor every step of :func:`netbenefit.model.cashflows.compute` reads the
scenario through (and :mod:`netbenefit.law.award`, :mod:`netbenefit.law.rules.section_75`, the solvers and
the explanations too).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import ScenarioError
from ..scenario import Scenario
from ..scenario.paths import at_path
from ..scenario.shared import covered


class Inputs:
    """Numeric and boolean values of a scenario for n variants, as column arrays.

    ``number(key)`` gives shape ``(1, 1)`` for a value that does not vary and ``(n, 1)`` for one
    given in ``overrides``, so that arithmetic broadcasts against ``(1, years)`` rows.
    """

    def __init__(self, scenario: Scenario, overrides: Mapping[str, np.ndarray] | None = None):
        self.scenario = scenario
        self.overrides: dict[str, np.ndarray] = {}
        sizes = set()
        for key, values in (overrides or {}).items():
            array = np.asarray(values)
            if array.ndim != 1:
                raise ScenarioError(scenario.source, key, "variant values must be a one-dimensional array")
            self.overrides[key] = array.reshape(-1, 1)
            sizes.add(array.shape[0])
        if len(sizes) > 1:
            raise ScenarioError(scenario.source, "", f"variant arrays differ in length: {sorted(sizes)}")
        self.size = sizes.pop() if sizes else 1
        self._values: dict[str, object] = scenario._values_at  # shared by every evaluation of the scenario
        self._shared = covered(scenario.shared)  # the later phases' keys that are the initial phase's

    def get(self, key: str):
        """The scenario's value at ``key`` (``None`` where it or a parent is not given)."""
        try:
            return self._values[key]
        except KeyError:
            value = self._values[key] = at_path(self.scenario, key, None)  # the scenario is immutable
            return value

    def number(self, key: str) -> np.ndarray:
        if key in self.overrides:
            return self.overrides[key].astype(float, copy=False)
        if self._shared and key.startswith("phases."):
            shared = self._shared_number(key)
            if shared is not None:
                return shared
        value = self.get(key)
        return np.array([[0.0 if value is None else float(value)]])

    def _shared_number(self, key: str) -> np.ndarray | None:
        """A later phase's shared key (``phases.0.jobs.median_salary``) where the initial phase's
        values it follows are varied: the initial phase's salary of the phase's first project year,
        ``median_salary x (1 + salary_growth)^start_year``, or its growth (netbenefit.model.scenario.shared).
        None where nothing it follows varies (the scenario holds the phase's value)."""
        _, index, rest = key.split(".", 2)
        if rest not in self._shared:
            return None
        start = f"phases.{index}.start_year"
        if rest == "jobs.salary_growth":
            return self.number(rest) if rest in self.overrides else None
        if not any(name in self.overrides for name in ("jobs.median_salary", "jobs.salary_growth", start)):
            return None
        return self.number("jobs.median_salary") * (1.0 + self.number("jobs.salary_growth")) ** self.number(start)

    def optional_number(self, key: str) -> np.ndarray | None:
        """Like :meth:`number`, but ``None`` when the value is not given (and not varied)."""
        if key not in self.overrides and self.get(key) is None:
            return None
        return self.number(key)

    def multiplier(self, name: str) -> np.ndarray:
        """A multiplier of the revenue drivers (``earnings_multiplier``, ``employment_multiplier``,
        ``construction_earnings_multiplier``): varied, else the scenario's multiplier table row, else
        the scenario's value; the construction multiplier defaults to the earnings multiplier."""
        key = "revenue." + name
        if key in self.overrides:
            return self.number(key)
        table = self.scenario.multipliers
        if table is not None:
            return np.array([[float(table[name])]])
        if name == "construction_earnings_multiplier" and self.get(key) is None:
            return self.multiplier("earnings_multiplier")
        return self.number(key)

    def flag(self, key: str) -> np.ndarray:
        """A boolean; a fact not given is False (nothing is presumed in the applicant's favour)."""
        if key in self.overrides:
            return self.overrides[key].astype(bool)
        return np.array([[bool(self.get(key))]])
