"""From a scenario to annual cash flows, present values and every s.71 rule, for many variants.

:func:`compute` is the model. It takes a :class:`~netbenefit.model.scenario.Scenario` and, optionally,
arrays of values for some of its numeric keys (``{"jobs.new": array([...])}``), and evaluates all
those variants at once with numpy: every quantity is an array of shape ``(n, years)`` or
``(n, 1)``, where n is 1 for a quantity that does not vary and the number of variants for one that
does. :func:`netbenefit.evaluate` is the case of a single variant; sweeps and Monte Carlo pass
arrays. Both therefore give the same numbers by construction.

Timeline (docs/model.md#timeline): project years 1, 2, ... from approval, with year 0 (the approval
year, discounted at t = 0) when the scenario gives an amount in it; phase year t of a phase
starting ``start_year`` years after approval is project year ``start_year + t``.

The parts, in the order :func:`compute` runs them:

- :mod:`~netbenefit.model.cashflows.inputs`: the scenario's values, some replaced by arrays of variants;
- :mod:`~netbenefit.model.cashflows.steps`: :func:`compute` as named steps: the job minimum, the
  threshold, the timeline, the phases, the net positive benefit test, 71(b), the checks;
- :mod:`~netbenefit.model.cashflows.phases`: one phase: jobs, wages, construction, credits, windows,
  taxes, present values;
- :mod:`~netbenefit.model.cashflows.streams`: the taxes: the streams of the revenue drivers, and their sum;
- :mod:`~netbenefit.model.cashflows.present_values`: sums over years and phases;
- :mod:`~netbenefit.model.cashflows.computation`: what the model gives (:class:`Computation`).
"""

from __future__ import annotations

from ...law.taxes import gross_income_tax  # named here before
from ..columns import BUILT_IN_STREAMS, CASHFLOW_COLUMNS, RESERVED_STREAM_NAMES  # named here before
from .computation import Component, Computation, PhaseFlows
from .inputs import Inputs
from .steps import MAXIMUM_HORIZON_YEARS, compute

__all__ = [
    "BUILT_IN_STREAMS",
    "CASHFLOW_COLUMNS",
    "MAXIMUM_HORIZON_YEARS",
    "RESERVED_STREAM_NAMES",
    "Component",
    "Computation",
    "Inputs",
    "PhaseFlows",
    "compute",
    "gross_income_tax",
]
