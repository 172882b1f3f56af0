"""What the model gives: the streams of each phase (:class:`Component`), a phase's flows
(:class:`PhaseFlows`) and the whole computation (:class:`Computation`), arrays over variants."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


class Component:
    """One benefit or cost stream of one phase, nominal and unweighted, in project years.

    ``values`` [USD, nominal], ``(1 or n, years)``, >= 0, is given as is, or as a ``base`` array
    times ``factors`` (numbers, or arrays that broadcast with ``base``: columns ``(1 or n, 1)``,
    or a row of years), multiplied in order: ``((base x f1) x f2) ...``. Components that share
    one ``base`` array (the wages, say) are then summed as ``base x (sum of their signed factor
    products)``, without building each one's ``(n, years)`` values
    (:func:`~netbenefit.model.cashflows.streams.net_benefits`); ``values`` is built only when read
    (tables, charts).
    """

    __slots__ = ("phase", "name", "source", "effect", "kind", "abated", "tax", "base", "factors", "_values")

    def __init__(
        self,
        phase: int,  # 1 for the initial phase
        name: str,
        source: str,  # operations | construction | explicit
        effect: str,  # direct | indirect_and_induced
        kind: str,  # revenue | cost
        abated: bool,  # excluded under 71(a)(5)(e)
        values: np.ndarray | None = None,
        tax: str = "other",  # gross_income_tax | sales_and_use_tax | corporation_business_tax | other
        *,
        base: np.ndarray | None = None,
        factors: tuple = (),
    ):
        if (values is None) == (base is None):
            raise ValueError("give a component's values, or its base and factors, not both")
        self.phase, self.name, self.source, self.effect, self.kind, self.abated = (
            phase,
            name,
            source,
            effect,
            kind,
            abated,
        )
        self.tax = tax
        self.base = values if base is None else base
        self.factors = tuple(factors) if base is not None else ()
        self._values = values

    @property
    def values(self) -> np.ndarray:
        """The amounts by year, ``(1 or n, years)`` [USD, nominal]."""
        if self._values is None:
            values = self.base
            for factor in self.factors:
                values = values * factor
            self._values = values
        return self._values

    def __repr__(self) -> str:
        return (
            f"Component(phase={self.phase!r}, name={self.name!r}, source={self.source!r}, effect={self.effect!r}, "
            f"kind={self.kind!r}, abated={self.abated!r}, tax={self.tax!r})"
        )


@dataclass
class PhaseFlows:
    number: int  # 1 for the initial phase
    name: str
    start_year: np.ndarray  # (n, 1)
    new_full_time_jobs: np.ndarray  # (n, years), ramped
    retained_full_time_jobs: np.ndarray  # in the benefits (readings.retained_benefits)
    wages: np.ndarray
    capital_investment: np.ndarray
    construction_wages: np.ndarray
    credits: np.ndarray  # requested tax credits by year [USD]
    commitment_period_years: np.ndarray  # (n, 1)
    window_end: np.ndarray  # (n, 1): end of the benefit window, years after approval
    weight: np.ndarray  # (n, years)
    weight_without_extension: np.ndarray
    components: list[Component] = field(default_factory=list)
    employment_multiplier: np.ndarray | float = 1.0  # (1 or n, 1); 1 without a revenue block
    # Set by the present values step (netbenefit.model.cashflows.phases.present_values):
    net_benefits: np.ndarray = field(init=False)  # counted streams, unweighted
    pv_benefits: np.ndarray = field(init=False)  # (n, 1)
    pv_benefits_without_extension: np.ndarray = field(init=False)
    pv_credits: np.ndarray = field(init=False)
    requested_credits: np.ndarray = field(init=False)  # nominal total

    @property
    def indirect_and_induced_jobs(self) -> np.ndarray:
        """Jobs x (employment multiplier - 1), ``(1 or n, years)``: built when read (a table),
        not for every variant of a Monte Carlo run."""
        return (self.new_full_time_jobs + self.retained_full_time_jobs) * (self.employment_multiplier - 1.0)


@dataclass
class Computation:
    size: int
    years: np.ndarray  # (years,) 1 .. H
    discount_factor: np.ndarray  # (n, years)
    phases: list[PhaseFlows]
    job_clause_code: np.ndarray  # (n, 1), index into law.rules.job_minimum.JOB_CLAUSES
    retained_jobs_eligible: np.ndarray
    threshold: np.ndarray
    threshold_clause_code: np.ndarray  # index into net_benefit.THRESHOLD_CLAUSES
    statutory_threshold_clause_code: np.ndarray
    extension_counts: np.ndarray
    extended_years: np.ndarray
    cumulative_pv_benefits: np.ndarray  # (n, phases)
    cumulative_pv_credits: np.ndarray
    cumulative_ratio: np.ndarray
    cumulative_passes: np.ndarray
    pv_benefits: np.ndarray  # (n, 1), whole project
    pv_credits: np.ndarray
    ratio: np.ndarray  # (n, 1): the ratio of the test that decides 71(a)(5) (the lowest cumulative ratio)
    passes: np.ndarray
    pv_benefits_without_extension: np.ndarray
    requested_credits: np.ndarray
    incremental_credit: np.ndarray
    deciding_test: np.ndarray  # (n, 1): index of the cumulative test that decides 71(a)(5)
    max_credit_pv: np.ndarray  # (n, 1): the largest credit PV that passes every cumulative test
    capital_investment_minimum: np.ndarray
    initial_capital_investment: np.ndarray
    infrastructure_fund_donation: np.ndarray
    checks: dict[str, np.ndarray]
    eligible: np.ndarray
    jobs_created: np.ndarray  # (n, 1): 71(c), the new jobs the ramp puts in place
    whole_project_ratio: np.ndarray  # (n, 1): pv_benefits / pv_credits, the last cumulative test
    deciding_pv_benefits: np.ndarray  # (n, 1): the deciding test's PV of net benefits
    deciding_pv_credits: np.ndarray  # (n, 1): and of requested credits
    #: Each check as its rule recorded it, by id (:class:`netbenefit.law.rules.decision.Decision`,
    #: arrays over variants); ``checks`` holds their verdicts.
    decisions: dict = field(default_factory=dict)

    def column(self, name: str) -> np.ndarray:
        """A per-variant result as a flat array of length ``size``."""
        return np.broadcast_to(getattr(self, name), (self.size, 1))[:, 0]
