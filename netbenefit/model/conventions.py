"""The conventions behind a ratio: discount rate, timing, dollars and the benefit window.

A net benefit ratio cannot be read without them (a 5% and a 7% discount rate, end-of-year and
mid-year timing, give different ratios for the same project). Every chart ends with them
(:func:`netbenefit.views.charts.style.conventions_footnote`); the analysis tables carry them in
``table.attrs["conventions"]`` so that their charts can too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .cashflows import compute
from .scenario.paths import key_label

if TYPE_CHECKING:
    from .cashflows import Computation
    from .result import Result
    from .scenario import Scenario


@dataclass(frozen=True)
class Conventions:
    """What a reader needs to read a ratio.

    Attributes
    ----------
    discount_rate : float
        The same rate for benefits and credits, 71(a)(5)(c). [share/year]
    timing : str
        ``end_of_year`` or ``mid_year``.
    dollars : str
        ``nominal``: every amount of the v1 model is in nominal dollars (the charts'
        footnote writes the value it is given).
    commitment_period_years : float
        Commitment period of the initial phase. [years]
    extended_years : int
        Extended commitment elected, 71(a)(5)(d). [years]
    extension_counted : bool
        Whether the extended years count in the benefit window.
    varied : tuple of str
        Keys an analysis varied (their values differ from row to row).
    method : str
        The set of conventions, ``netbenefit`` or ``authority`` (:mod:`netbenefit.model.methods`).
    """

    discount_rate: float
    timing: str
    dollars: str
    commitment_period_years: float
    extended_years: int
    extension_counted: bool
    varied: tuple[str, ...] = ()
    method: str = "netbenefit"
    #: Each varied key in words with its phase in a phased project (netbenefit.model.scenario.paths.key_label).
    varied_labels: tuple[str, ...] = ()

    @classmethod
    def of_result(cls, result: Result) -> Conventions:
        """The conventions of an evaluated scenario."""
        return cls(
            discount_rate=float(result.discount_rate),
            timing=result.scenario.timing,
            dollars="nominal",  # the v1 model: every amount in nominal dollars
            commitment_period_years=float(result.commitment_period_years),
            extended_years=int(result.extended_years),
            extension_counted=bool(result.extension_counted),
            method=result.scenario.method,
        )

    @classmethod
    def of_computation(cls, scenario: Scenario, computation: Computation, varied: tuple[str, ...] = ()) -> Conventions:
        """The conventions of the base variant (row 0) of a computation of ``scenario``."""
        extended = int(scenario.commitment.extended_years)
        counted = bool(np.asarray(computation.extension_counts).reshape(-1)[0]) and extended > 0
        return cls(
            discount_rate=float(scenario.discount_rate),
            timing=scenario.timing,
            dollars="nominal",
            commitment_period_years=float(np.asarray(computation.phases[0].commitment_period_years).reshape(-1)[0]),
            extended_years=extended,
            extension_counted=counted,
            varied=tuple(varied),
            method=scenario.method,
            varied_labels=tuple(key_label(scenario, key, short=True) for key in varied),
        )

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def of_scenario(scenario: Scenario, varied: tuple[str, ...] = ()) -> Conventions:
    """The conventions of ``scenario`` (computed once, by the model)."""
    return Conventions.of_computation(scenario, compute(scenario), varied)
