"""From a scenario to annual cash flows, present values and every s.71 rule, for many variants.

:func:`compute` is the model. It takes a :class:`~netbenefit.scenario.Scenario` and, optionally,
arrays of values for some of its numeric keys (``{"jobs.new": array([...])}``), and evaluates all
those variants at once with numpy: every quantity is an array of shape ``(n, years)`` or
``(n, 1)``, where n is 1 for a quantity that does not vary and the number of variants for one that
does. :func:`netbenefit.evaluate` is the case of a single variant; sweeps and Monte Carlo pass
arrays. Both therefore give the same numbers by construction.

Timeline (docs/conventions.md, 1): project years 1, 2, ... from approval, with year 0 (the approval
year, discounted at t = 0) when the scenario gives an amount in it; phase year t of a phase
starting ``start_year`` years after approval is project year ``start_year + t``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from . import award, finance, methods, taxes
from .columns import BUILT_IN_STREAMS, CASHFLOW_COLUMNS, RESERVED_STREAM_NAMES  # noqa: F401  (named here before)
from .commitment_window import window_period
from .errors import ScenarioError
from .parameters import parameter
from .rules import eligibility, net_benefit
from .rules.section_75 import check as section_75_check
from .scenario import Scenario
from .taxes import gross_income_tax  # the single-filer schedule of the v1 `income_tax: progressive`
from .withholdings import phase_weights as withholding_weights
from .year_zero import has_year_zero

MAXIMUM_HORIZON_YEARS = 1000  # not a statutory number: a guard against runaway horizons
_YEAR_ROUNDING = 1e-9  # not a statutory number: a window ending at 10.000000001 ends in year 10


# ----------------------------------------------------------------------------------------------
# Inputs: the scenario's values, some of them replaced by arrays of variants
# ----------------------------------------------------------------------------------------------


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

    def get(self, key: str):
        """The scenario's value at ``key`` (``None`` where it or a parent is not given)."""
        try:
            return self._values[key]
        except KeyError:
            value = self._values[key] = self._lookup(key)  # the scenario is immutable
            return value

    def _lookup(self, key: str):
        node = self.scenario
        for segment in key.split("."):
            if node is None:
                return None
            if isinstance(node, Mapping):
                node = node.get(int(segment) if segment.isdigit() else segment)
            elif isinstance(node, tuple):
                node = node[int(segment)]
            else:
                node = getattr(node, segment)
        return node

    def number(self, key: str) -> np.ndarray:
        if key in self.overrides:
            return self.overrides[key].astype(float, copy=False)
        value = self.get(key)
        return np.array([[0.0 if value is None else float(value)]])

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


# ----------------------------------------------------------------------------------------------
# Results of the computation
# ----------------------------------------------------------------------------------------------


class Component:
    """One benefit or cost stream of one phase, nominal and unweighted, in project years.

    ``values`` [USD, nominal], ``(1 or n, years)``, >= 0, is given as is, or as a ``base`` array
    times ``factors`` (numbers, or arrays that broadcast with ``base``: columns ``(1 or n, 1)``,
    or a row of years), multiplied in order: ``((base x f1) x f2) ...``. Components that share
    one ``base`` array (the wages, say) are then summed as ``base x (sum of their signed factor
    products)``, without building each one's ``(n, years)`` values (:func:`_net_benefits`);
    ``values`` is built only when read (tables, charts).
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
    net_benefits: np.ndarray | None = None  # counted streams, unweighted
    pv_benefits: np.ndarray | None = None  # (n, 1)
    pv_benefits_without_extension: np.ndarray | None = None
    pv_credits: np.ndarray | None = None
    requested_credits: np.ndarray | None = None  # nominal total

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
    job_clause_code: np.ndarray  # (n, 1), index into eligibility.JOB_CLAUSES
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
    ratio: np.ndarray
    passes: np.ndarray
    pv_benefits_without_extension: np.ndarray
    requested_credits: np.ndarray
    incremental_credit: np.ndarray
    capital_investment_minimum: np.ndarray
    initial_capital_investment: np.ndarray
    infrastructure_fund_donation: np.ndarray
    checks: dict[str, np.ndarray]
    eligible: np.ndarray

    def column(self, name: str) -> np.ndarray:
        """A per-variant result as a flat array of length ``size``."""
        return np.broadcast_to(getattr(self, name), (self.size, 1))[:, 0]


# ----------------------------------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------------------------------


def _prefix(phase_index: int) -> str:
    return "" if phase_index == 0 else f"phases.{phase_index - 1}."


def _phase_records(scenario: Scenario):
    """(prefix, model) of the initial phase (the top level) and each later phase."""
    return [("", scenario)] + [(_prefix(i + 1), phase) for i, phase in enumerate(scenario.phases)]


def _horizon(inputs: Inputs, commitment: list[np.ndarray], extended_years: np.ndarray) -> int:
    """Last project year with a credit, a flow, or a part of a benefit window."""
    last = 1.0
    for (prefix, phase), period in zip(_phase_records(inputs.scenario), commitment, strict=True):
        start = inputs.number(prefix + "start_year") if prefix else np.zeros((1, 1))
        first = inputs.number(prefix + "award.first_credit_year")
        credit_years = inputs.number(prefix + "award.eligibility_period_years")
        window_end = start + first - 1 + period + extended_years
        flow_years = [*phase.capital_investment] + [year for stream in phase.streams for year in stream.by_year]
        last = max(
            last,
            float(np.max(np.ceil(window_end - _YEAR_ROUNDING))),
            float(np.max(start + first + credit_years - 1)),
            float(np.max(start)) + max(flow_years, default=0),
        )
    if not math.isfinite(last) or last > MAXIMUM_HORIZON_YEARS:
        raise ScenarioError(
            inputs.scenario.source,
            "commitment",
            f"the model would run {last:g} years; at most {MAXIMUM_HORIZON_YEARS:,}",
        )
    return int(last)


def _by_year(inputs: Inputs, key: str, mapping: Mapping[int, float], phase_year: np.ndarray) -> np.ndarray:
    """A year mapping (phase years) laid on project years: sum of value_k where phase year = k."""
    total = np.zeros_like(phase_year, dtype=float)
    for year in mapping:
        total = total + inputs.number(f"{key}.{year}") * (phase_year == year)
    return total


def _ramp(inputs: Inputs, prefix: str, ramp_length: int, phase_year: np.ndarray) -> np.ndarray:
    """Share of new jobs in place in each phase year: the t-th ramp value, the last one holding."""
    index = np.clip(phase_year - 1, 0, ramp_length - 1)
    values = [inputs.number(f"{prefix}jobs.ramp.{i}") for i in range(ramp_length)]
    if all(v.shape[0] == 1 for v in values):
        return np.array([v[0, 0] for v in values])[index]
    matrix = np.concatenate(np.broadcast_arrays(*values), axis=1)  # (n, ramp_length)
    index = np.broadcast_to(index, (matrix.shape[0], index.shape[1]))
    return np.take_along_axis(matrix, index, axis=1)


def _mean_wage(inputs: Inputs, salary: np.ndarray) -> np.ndarray:
    """The average wage of the jobs whose median is ``salary``: with a lognormal law of wages whose
    log standard deviation is ``revenue.income_tax.wage_dispersion`` (brackets only), the mean
    (:func:`netbenefit.taxes.mean_wage`); the median itself otherwise."""
    income_tax = inputs.scenario.revenue.income_tax if inputs.scenario.revenue else None
    if getattr(income_tax, "method", None) != "brackets":
        return salary
    return taxes.mean_wage(salary, inputs.number("revenue.income_tax.wage_dispersion"))


def _jobs_created(inputs: Inputs) -> np.ndarray:
    """New full-time jobs of the initial phase the ramp puts in place within the eligibility period,
    71(c): ``jobs.new`` x the largest ramp share of the phase years through its last credit year."""
    scenario = inputs.scenario
    last = inputs.number("award.first_credit_year") + inputs.number("award.eligibility_period_years") - 1
    length = len(scenario.jobs.ramp)
    phase_year = np.arange(1, length + 1)[None, :]
    shares = _ramp(inputs, "", length, phase_year)
    within = phase_year <= np.maximum(last, 1)
    return inputs.number("jobs.new") * np.max(np.where(within, shares, 0.0), axis=1, keepdims=True)


@np.errstate(all="ignore")  # a variant that overflows gives a non-finite value, reported as such: no warning
def compute(scenario: Scenario, overrides: Mapping[str, np.ndarray] | None = None) -> Computation:
    """Evaluate a scenario (and optional arrays of variants of its numeric keys).

    Parameters
    ----------
    scenario : Scenario
    overrides : mapping of dotted key -> 1-D array, optional
        Values that replace the scenario's at those keys, one per variant. All arrays have the
        same length n. Values must be valid for their keys; :mod:`netbenefit.analysis` checks
        them before calling.
    """
    inputs = Inputs(scenario, overrides)
    number, flag = inputs.number, inputs.flag

    # --- 71(c)(1): the job minimum, decided on the initial phase -----------------------------
    readings = scenario.readings
    job_clause = eligibility.job_minimum_clause(
        _jobs_created(inputs),  # the new jobs the ramp puts in place within the eligibility period
        number("jobs.retained"),
        number("business.full_time_employees_at_application"),
        flag("business.small_business"),
        flag("business.targeted_industry"),
        flag("location.government_restricted_municipality"),
        flag("location.qualified_incentive_tract"),
        flag("location.enhanced_area"),
        inputs.optional_number("business.retained_jobs_at_application"),
        readings.several_locations,
    )
    retained_eligible = eligibility.retained_jobs_count(job_clause)

    # --- 71(a)(5): threshold; does an extended commitment count? -----------------------------
    statutory, statutory_code = net_benefit.statutory_threshold(
        flag("location.distressed_municipality"),
        flag("location.enhanced_area"),
        flag("location.government_restricted_municipality"),
        flag("location.mega_project"),
        readings.several_locations,
    )
    override = inputs.optional_number("threshold_override")
    threshold = (
        statutory
        if override is None
        else np.broadcast_to(override, np.broadcast_shapes(override.shape, statutory.shape))
    )
    threshold_code = statutory_code if override is None else np.full_like(statutory_code, net_benefit.OVERRIDE)
    counts_extension = net_benefit.extension_counts(statutory_code)  # 71(a)(5)(d) vs (a), (b)
    extended_years = number("commitment.extended_years")
    counted_extension = np.where(counts_extension, extended_years, 0.0)

    # --- commitment periods and the timeline ---------------------------------------------------
    commitment = []
    for prefix, _ in _phase_records(scenario):
        period = inputs.optional_number(prefix + "commitment.period_years")
        if period is None:  # 1.5 x the eligibility period [secondary]
            period = parameter("commitment_period_multiple_of_eligibility_period") * number(
                prefix + "award.eligibility_period_years"
            )
        else:  # the period given, where it counts in the test's window, 71(a)(5)(a)/(b)
            period = window_period(
                period,
                number(prefix + "award.eligibility_period_years"),
                statutory_code,
                flag(prefix + "commitment.period_set_by_authority"),
            )
        commitment.append(period)
    horizon = _horizon(inputs, commitment, extended_years)
    # Year 0, the approval year (emerge-model.md 2.1), has a column only when the scenario gives an
    # amount in it: every other timeline, and every table built on it, is unchanged.
    years = np.arange(0 if has_year_zero(scenario) else 1, horizon + 1)
    width = len(years)
    discount_factor = finance.discount_factors(number("discount_rate")[:, 0], years, scenario.timing)

    revenue = scenario.revenue
    sales_tax_rate = number("revenue.sales_and_use_tax_rate") if revenue else 0.0
    # Flat yearly amounts (the CBT, streams marked grows_with_inflation) are year-1 figures that
    # grow with inflation from year 1: x (1 + inflation)^(t - 1) in project year t.
    inflation_growth = (1.0 + number("inflation")) ** (years[None, :] - 1.0)

    phases: list[PhaseFlows] = []
    for index, ((prefix, phase), period) in enumerate(zip(_phase_records(scenario), commitment, strict=True)):
        start = number(prefix + "start_year") if prefix else np.zeros((1, 1))
        phase_year = years[None, :] - start.astype(int)  # (1 or n, years)
        active = phase_year >= 1

        # Jobs: jobs_t = new x ramp_t + retained. 71(a)(5) counts "the resultant creation and
        # retention of new and retained full-time jobs": every retained job the scenario states
        # (readings.retained_benefits: all_retained), or only those 71(c) makes eligible for credits.
        new_jobs = number(prefix + "jobs.new") * (_ramp(inputs, prefix, len(phase.jobs.ramp), phase_year) * active)
        retained = number(prefix + "jobs.retained")
        if readings.retained_benefits == "credit_eligible_only":
            retained = np.where(retained_eligible, retained, 0.0)
        if np.any(retained):
            retained_jobs = retained * active
            jobs = new_jobs + retained_jobs
        else:  # none counted: the jobs are the new jobs (adding zeros would give the same numbers)
            retained_jobs = np.zeros((1, width))
            jobs = new_jobs
        salary = number(prefix + "jobs.median_salary") * (1.0 + number(prefix + "jobs.salary_growth")) ** (
            np.maximum(phase_year, 1) - 1
        )
        # One payroll: with a lognormal wage dispersion sigma the average wage is the median x
        # exp(sigma^2/2), and every wage-based stream reads that mean (readings.payroll).
        wages = jobs * (_mean_wage(inputs, salary) if readings.payroll == "mean" else salary)
        capital = _by_year(inputs, prefix + "capital_investment", phase.capital_investment, phase_year)

        # Credits: the annual credit in each year of the eligibility period (never weighted).
        first = number(prefix + "award.first_credit_year")
        credit_years = number(prefix + "award.eligibility_period_years")
        in_credit_period = (phase_year >= first) & (phase_year < first + credit_years)
        if phase.award.annual_credit is not None:
            annual_credit = number(prefix + "award.annual_credit")
        else:  # per job: given, or built by the section 75 calculator (netbenefit.award)
            if phase.award.section_75 is not None:
                per_job = award.scenario_credit_per_job(inputs, prefix)
                per_new_job, per_retained_job = per_job.new_job, per_job.retained_job
            else:
                per_new_job = number(prefix + "award.per_new_job")
                per_retained_job = number(prefix + "award.per_retained_job")
            annual_credit = award.annual_credit(
                per_new_job,
                per_retained_job,
                number(prefix + "jobs.new"),
                number(prefix + "jobs.retained"),
                retained_eligible,
            )
        credits = annual_credit * in_credit_period

        # Benefit window: from approval through the commitment period (plus a counted extension).
        window_end_without = start + first - 1 + period
        window_end = window_end_without + counted_extension
        # 2.1: year 0, the approval year, is inside every window of the initial phase (its flows are
        # the only ones there; a later phase's years start at 1).
        in_window = phase_year >= 0 if index == 0 else active
        weight = finance.window_weights(window_end[:, 0], years).reshape(-1, width) * in_window
        if np.any(counted_extension):
            weight_without = finance.window_weights(window_end_without[:, 0], years).reshape(-1, width) * in_window
        else:  # no extension counts: the two windows are one
            weight_without = weight

        flows = PhaseFlows(
            number=index + 1,
            name=scenario.name if index == 0 else phase.name,
            start_year=start,
            new_full_time_jobs=new_jobs,
            retained_full_time_jobs=retained_jobs,
            wages=wages,
            capital_investment=capital,
            construction_wages=capital * (number("revenue.construction_labor_share") if revenue else 0.0),
            credits=credits,
            commitment_period_years=period,
            window_end=window_end,
            weight=weight,
            weight_without_extension=weight_without,
        )
        if revenue is not None:
            flows.components.extend(
                _driver_components(
                    inputs,
                    prefix,
                    index + 1,
                    jobs,
                    wages,
                    salary,
                    capital,
                    flows.construction_wages,
                    sales_tax_rate,
                    inflation_growth,
                    years,
                )
            )
            flows.employment_multiplier = inputs.multiplier("employment_multiplier")
        for j, stream in enumerate(phase.streams):
            values = _by_year(inputs, f"{prefix}streams.{j}.by_year", stream.by_year, phase_year)
            flows.components.append(
                Component(
                    phase=index + 1,
                    name=stream.name,
                    source="explicit",
                    effect="direct",
                    kind=stream.kind,
                    abated=stream.abated,
                    values=np.where(
                        inputs.flag(f"{prefix}streams.{j}.grows_with_inflation"), values * inflation_growth, values
                    ),
                    tax=stream.tax,
                )
            )
        net = _net_benefits(flows.components, width)
        flows.net_benefits = net
        # Benefits are never reduced by the credit ("prior to considering the value of the
        # requested tax credit"); credits and benefits use one discount rate, 71(a)(5)(c).
        flows.pv_benefits = _weighted_present_value(net, weight, discount_factor)
        if weight_without is weight:
            flows.pv_benefits_without_extension = flows.pv_benefits
        else:
            flows.pv_benefits_without_extension = _weighted_present_value(net, weight_without, discount_factor)
        flows.pv_credits = _sum_of_products(credits, discount_factor)
        flows.requested_credits = np.sum(credits, axis=1, keepdims=True)
        phases.append(flows)

    # --- 71(a)(5): the test on the initial phase, then cumulatively on each later phase ------
    size = inputs.size
    cumulative_benefits = _cumulative([_column(p.pv_benefits, size) for p in phases])
    cumulative_credits = _cumulative([_column(p.pv_credits, size) for p in phases])
    threshold_column = _column(threshold, size)
    cumulative_ratio = _ratio(cumulative_benefits, cumulative_credits)
    cumulative_passes = net_benefit.meets_threshold(cumulative_ratio, threshold_column) & (cumulative_credits > 0)
    pv_benefits = cumulative_benefits[:, -1:]
    pv_credits = cumulative_credits[:, -1:]
    passes = np.all(cumulative_passes, axis=1, keepdims=True)
    pv_without = sum(_column(p.pv_benefits_without_extension, size) for p in phases)
    requested = sum(_column(p.requested_credits, size) for p in phases)
    # 71(a)(5)(d): the incremental credit of each cumulative test, the largest; 0 without an award.
    cumulative_without = _cumulative([_column(p.pv_benefits_without_extension, size) for p in phases])
    cumulative_requested = _cumulative([_column(p.requested_credits, size) for p in phases])
    incremental = np.where(
        counted_extension > 0,
        net_benefit.incremental_credit_by_test(
            cumulative_requested, cumulative_credits, cumulative_without, threshold_column, passes
        ),
        0.0,
    )

    # --- 71(b): minimum capital investment and the infrastructure fund donation --------------
    minimum = eligibility.capital_investment_minimum(
        [
            (portion.use, portion.work, number(f"facility.portions.{i}.gross_leasable_area_sqft"))
            for i, portion in enumerate(scenario.facility.portions)
        ],
        flag("business.small_business"),
        flag("business.intent_to_remain_demonstrated"),  # 71(b)(1)(e): not given, not demonstrated
    )
    initial_investment = sum(
        (number(f"capital_investment.{year}") for year in scenario.capital_investment), np.zeros((1, 1))
    )
    shortfall = np.maximum(0.0, minimum - initial_investment)
    # 71(b)(2): a shortfall is donated (the default reading) or, read as a condition, makes the business ineligible.
    shortfall_is_donation = readings.capital_shortfall == "donation"
    donation = shortfall if shortfall_is_donation else np.zeros_like(shortfall)

    prevailing = "attestations.prevailing_wage."
    records = _phase_records(scenario)
    checks = {
        # 71(b)(2) makes a shortfall an obligation to donate, not a failure: always met.
        "71(a)(1)": np.ones((1, 1), dtype=bool) if shortfall_is_donation else ~(shortfall > 0),
        "71(a)(2)": job_clause > 0,
        "71(a)(3)": flag("location.qualified_incentive_area"),
        "71(a)(4)": flag("attestations.material_factor"),
        "71(a)(5)": passes,
        "71(a)(6)": flag("attestations.environmental_standards"),
        "71(a)(7)": flag("attestations.affirmative_action"),
        "71(a)(8)": eligibility.prevailing_wage_satisfied(
            flag(prevailing + "construction"),
            flag(prevailing + "building_services"),
            flag(prevailing + "exemption.landlord_not_assisted"),
            flag(prevailing + "exemption.landlord_party_to_contract"),
            inputs.optional_number(prevailing + "exemption.lease_share_of_facility"),
            inputs.optional_number(prevailing + "construction_starts_years_after_first_certificate"),
        ),
        # 71(d) on the project as approved: every phase's jobs and every premises a phase adds.
        "71(d)": eligibility.accommodation_and_withholding_satisfied(
            [number("facility.accommodates_share")]
            + [number(f"phases.{i}.facility.accommodates_share") for i, p in enumerate(scenario.phases) if p.facility],
            eligibility.weighted_withholding_share(
                [number(prefix + "jobs.nj_withholding_share") for prefix, _ in records],
                withholding_weights(scenario, number),  # 71(d): weighted by withholdings
            ),
        ),
        "71(f)": np.array([[eligibility.application_date_satisfied(scenario.application_date)]]),
        # s.75 (C.34:1B-343): the credit per job per year at most the maximum (a failure where read in statute).
        "75": section_75_check(inputs, phases, retained_eligible),
    }
    eligible = np.ones((1, 1), dtype=bool)
    for passed in checks.values():
        eligible = eligible & passed

    return Computation(
        size=size,
        years=years,
        discount_factor=discount_factor,
        phases=phases,
        job_clause_code=job_clause,
        retained_jobs_eligible=retained_eligible,
        threshold=threshold,
        threshold_clause_code=threshold_code,
        statutory_threshold_clause_code=statutory_code,
        extension_counts=counts_extension,
        extended_years=extended_years,
        cumulative_pv_benefits=cumulative_benefits,
        cumulative_pv_credits=cumulative_credits,
        cumulative_ratio=cumulative_ratio,
        cumulative_passes=cumulative_passes,
        pv_benefits=pv_benefits,
        pv_credits=pv_credits,
        ratio=cumulative_ratio[:, -1:],
        passes=passes,
        pv_benefits_without_extension=pv_without,
        requested_credits=requested,
        incremental_credit=incremental,
        capital_investment_minimum=minimum,
        initial_capital_investment=initial_investment,
        infrastructure_fund_donation=donation,
        checks=checks,
        eligible=eligible,
    )


def _driver_components(
    inputs, prefix, phase_number, jobs, wages, salary, capital, construction_wages, sales_tax_rate, growth, years
):
    """Streams of the built-in revenue drivers for one phase (docs/scenario-format.md, "Benefit streams")."""
    number = inputs.number
    revenue = inputs.scenario.revenue
    withholding = number(prefix + "jobs.nj_withholding_share")
    # Only withholdings subject to the NJ Gross Income Tax yield it, 71(d). Each stream is a base
    # array times column factors (Component), so that many variants are summed in one pass.
    income_tax = revenue.income_tax
    if income_tax == "progressive":  # v1: single-filer schedule at the median, no exemption
        operations_income_tax = (jobs * gross_income_tax(salary), (withholding,))
    elif income_tax is not None and income_tax.method == "brackets":
        # N.J.S.A. 54A:2-1 schedules on a lognormal distribution of wages, less the 54A:3-1 exemptions.
        key = "revenue.income_tax.filing_status."
        shares = (
            {"single": 1.0}  # no filing_status: every job a single filer
            if income_tax.filing_status is None
            else {status: number(key + status) for status in taxes.FILING_STATUSES}
        )
        sigma = number("revenue.income_tax.wage_dispersion")
        index = np.where(inputs.flag("revenue.index_brackets"), growth, 1.0)
        per_job = taxes.expected_gross_income_tax(
            salary,
            sigma,
            shares,
            index=index,
            dependents=number("revenue.income_tax.dependents_per_return"),
            property_tax=number("revenue.income_tax.property_tax_deduction"),
        )
        if methods.earned_income_credit_netted(inputs.scenario):  # N.J.S.A. 54A:4-7, refundable
            key = "revenue.income_tax.qualifying_children."
            children = (
                {"none": 1.0}  # not given: no qualifying child, the smallest credit
                if income_tax.qualifying_children is None
                else {row: number(key + row) for row in taxes.QUALIFYING_CHILDREN}
            )
            per_job = per_job - taxes.expected_nj_earned_income_credit(salary, sigma, shares, children, index=index)
        operations_income_tax = (jobs * per_job, (withholding,))
    elif income_tax is not None:  # method: effective_rate
        operations_income_tax = (wages, (number("revenue.income_tax.rate") * withholding,))
    else:
        operations_income_tax = (wages, (number("revenue.income_tax_effective_rate") * withholding,))
    spending_share = number("revenue.taxable_spending_share")
    direct = {
        ("operations", "income_tax", "gross_income_tax"): operations_income_tax,
        ("operations", "spending_sales_tax", "sales_and_use_tax"): (wages, (spending_share * sales_tax_rate,)),
        ("construction", "construction_income_tax", "gross_income_tax"): (
            construction_wages,
            (number("revenue.construction_income_tax_rate"),),
        ),
        ("construction", "construction_spending_sales_tax", "sales_and_use_tax"): (
            construction_wages,
            (spending_share, sales_tax_rate),
        ),
    }
    # Multipliers are total / direct; the indirect and induced part is (multiplier - 1) x direct.
    effect = {
        "operations": inputs.multiplier("earnings_multiplier") - 1.0,
        "construction": inputs.multiplier("construction_earnings_multiplier") - 1.0,
    }
    components = []
    for (source, name, tax), (base, factors) in direct.items():
        components.append(
            Component(phase_number, name, source, "direct", "revenue", False, tax=tax, base=base, factors=factors)
        )
        components.append(
            Component(
                phase_number,
                name,
                source,
                "indirect_and_induced",
                "revenue",
                False,
                tax=tax,
                base=base,
                factors=(*factors, effect[source]),
            )
        )
    components.append(
        Component(
            phase_number,
            "construction_sales_tax",
            "construction",
            "direct",
            "revenue",
            False,
            tax="sales_and_use_tax",
            base=capital,
            factors=(number("revenue.construction_taxable_share"), sales_tax_rate),
        )
    )
    if phase_number == 1:  # the business's CBT, in each initial-phase year with jobs in place
        if revenue.allocated_taxable_net_income is not None:  # N.J.S.A. 54:10A-5, 54:10A-5.41, by tax year
            base = number("revenue.allocated_taxable_net_income") * growth
            tax_years = taxes.tax_years(inputs.scenario.approval, years)[None, :]
            cbt = taxes.corporation_business_tax(base, tax_years)
        else:  # a flat year-1 amount, growing with inflation
            cbt = number("revenue.corporate_business_tax") * growth
        components.append(
            Component(
                phase_number,
                "corporation_business_tax",
                "operations",
                "direct",
                "revenue",
                False,
                tax="corporation_business_tax",
                base=jobs > 0,  # the years with jobs in place
                factors=(cbt,),  # (1 or n, years): no (n, years) product until the values are read
            )
        )
    return components


def _net_benefits(components: list[Component], horizon: int) -> np.ndarray:
    """Counted revenues minus costs in each year, ``(1 or n, years)``.

    Abated streams are left out, 71(a)(5)(e). With one variant, each stream's values are added in
    turn (the per-stream sums the tables show). With many, components sharing a base array are
    added as ``base x (sum of signed factor products)``: one pass over the ``(n, years)`` array
    per distinct base, whatever the number of streams and effects (:func:`_fused_net_benefits`).
    """
    counted = [component for component in components if not component.abated]
    if any(np.ndim(c.base) == 2 and c.base.shape[0] > 1 for c in counted) or any(
        np.ndim(f) == 2 and np.shape(f)[0] > 1 for c in counted for f in c.factors
    ):
        return _fused_net_benefits(counted, horizon)
    net = np.zeros((1, horizon))
    for component in sorted(counted, key=lambda component: component.values.shape[0]):  # stable
        operation = np.add if component.kind == "revenue" else np.subtract
        if component.values.shape[0] > net.shape[0]:
            net = operation(net, component.values)  # the first varying stream: a new array, owned here
        else:
            operation(net, component.values, out=net)
    return net


def _fused_net_benefits(counted: list[Component], horizon: int) -> np.ndarray:
    """``sum over components of sign x base x product of factors``, grouped by base array; a
    boolean base adds its coefficient where it is true, in one pass (no product to build)."""
    groups: dict[int, list] = {}  # id(base) -> [base, summed signed coefficient]
    for component in counted:
        coefficient = 1.0 if component.kind == "revenue" else -1.0
        for factor in component.factors:
            coefficient = coefficient * factor
        group = groups.setdefault(id(component.base), [component.base, 0.0])
        group[1] = group[1] + coefficient
    pairs = list(groups.values())
    shapes = [np.broadcast_shapes(np.shape(base), np.shape(coefficient)) for base, coefficient in pairs]
    shape = np.broadcast_shapes((1, horizon), *shapes)
    full = [i for i, term_shape in enumerate(shapes) if term_shape == shape]
    if not full:
        net = np.zeros(shape)
    else:
        base, coefficient = pairs.pop(full[0])
        net = np.multiply(base, coefficient)  # a new array, owned here
    scratch = None  # one buffer for the other full-size terms (no new array for each)
    for base, coefficient in pairs:
        if isinstance(base, np.ndarray) and base.dtype == np.bool_:  # years with jobs: added where true
            np.add(net, coefficient, out=net, where=base)
        elif np.broadcast_shapes(np.shape(base), np.shape(coefficient)) == shape:
            scratch = np.empty(shape) if scratch is None else scratch
            np.add(net, np.multiply(base, coefficient, out=scratch), out=net)
        else:
            np.add(net, np.multiply(base, coefficient), out=net)
    return net


def _cumulative(columns: list[np.ndarray]) -> np.ndarray:
    """The running sum over phases of one ``(n, 1)`` column per phase, ``(n, phases)``: a copy of
    the one column of a project without later phases (the sum a cumulative sum gives)."""
    if len(columns) == 1:
        return np.array(columns[0], dtype=float)
    return np.cumsum(np.concatenate(columns, axis=1), axis=1)


def _sum_of_products(flows: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """``sum over years of flows x factors`` for each variant, ``(1 or n, 1)``, without a
    temporary ``(n, years)`` product."""
    flows, factors = np.broadcast_arrays(flows, factors)
    return np.einsum("ij,ij->i", flows, factors)[:, None]


def _weighted_present_value(flows: np.ndarray, weight: np.ndarray, discount: np.ndarray) -> np.ndarray:
    """``sum over years of flows x weight x discount`` for each variant, ``(1 or n, 1)``.

    With one variant, or weights that vary, as :func:`_sum_of_products` of the flows and the
    weighted discount factors; with many variants and one row of weights, in one pass (no
    ``(n, years)`` product of the weights and the discount factors).
    """
    if weight.shape[0] == 1 and max(flows.shape[0], discount.shape[0]) > 1:
        shape = np.broadcast_shapes(flows.shape, discount.shape)
        flows, discount = np.broadcast_to(flows, shape), np.broadcast_to(discount, shape)
        return np.einsum("ij,ij,j->i", flows, discount, np.broadcast_to(weight, (1, shape[1]))[0])[:, None]
    return _sum_of_products(flows, weight * discount)


def _column(array, size: int) -> np.ndarray:
    return np.broadcast_to(array, (size, 1))


def _ratio(benefits: np.ndarray, credits: np.ndarray) -> np.ndarray:
    """benefits / credits, NaN where the credits are zero (the caller reports that case)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(credits > 0, benefits / np.where(credits > 0, credits, 1.0), np.nan)
