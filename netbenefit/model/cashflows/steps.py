"""The model as a sequence of named steps (:func:`compute`): inputs, the job minimum, the
threshold, the timeline, each phase (jobs, wages, construction, credits, windows, taxes, present
values: :mod:`netbenefit.model.cashflows.phases`), the net positive benefit test, the capital investment
minimum and the eligibility checks.

Timeline (docs/model.md#timeline): project years 1, 2, ... from approval, with year 0 (the approval
year, discounted at t = 0) when the scenario gives an amount in it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...errors import ScenarioError
from ...law import finance
from ...law.rules import eligibility, net_benefit, section_75
from ...law.rules.decision import Decision
from ...law.rules.job_minimum import job_minimum_decision
from ..commitment_window import decides_on_defined_window, defined_period, window_period
from ..scenario import Scenario
from ..withholdings import phase_weights as withholding_weights
from ..year_zero import has_year_zero
from .computation import Computation, PhaseFlows
from .inputs import Inputs
from .phases import ProjectFacts, phase_flows, ramp
from .present_values import column, cumulative, ratio

MAXIMUM_HORIZON_YEARS = 1000  # not a statutory number: a guard against runaway horizons
YEAR_ROUNDING = 1e-9  # not a statutory number: a window ending at 10.000000001 ends in year 10
PERIOD_TOLERANCE = 1e-9  # not a statutory number: a stated period equal to the defined one up to rounding


@dataclass(slots=True)
class JobMinimum:
    """71(c)(1), decided on the initial phase."""

    clause: np.ndarray  # (n, 1), index into law.rules.job_minimum.JOB_CLAUSES; 0: no clause met
    retained_eligible: np.ndarray  # (n, 1): the retained jobs are eligible for credits
    jobs_created: np.ndarray  # (n, 1): the new jobs the ramp puts in place within the eligibility period
    decision: Decision  # 71(a)(2), as the rule recorded it


@dataclass(slots=True)
class Threshold:
    """71(a)(5): the threshold of the test, and whether an extended commitment counts."""

    threshold: np.ndarray  # (n, 1): the statutory threshold, or the scenario's override
    code: np.ndarray  # index into net_benefit.THRESHOLD_CLAUSES
    statutory_code: np.ndarray  # the statutory clause, whatever the override
    counts_extension: np.ndarray  # 71(a)(5)(d) vs (a), (b)
    extended_years: np.ndarray  # commitment.extended_years
    counted_extension: np.ndarray  # the extended years where they count, else 0


@dataclass(slots=True)
class NetBenefitTest:
    """71(a)(5): the test on the initial phase, then cumulatively on each later phase."""

    cumulative_pv_benefits: np.ndarray  # (n, phases)
    cumulative_pv_credits: np.ndarray
    cumulative_ratio: np.ndarray
    cumulative_passes: np.ndarray
    passes: np.ndarray  # (n, 1): every cumulative test passes
    pv_benefits_without_extension: np.ndarray  # (n, 1), whole project
    requested_credits: np.ndarray
    incremental_credit: np.ndarray  # 71(a)(5)(d)
    deciding_test: np.ndarray  # (n, 1): index of the cumulative test that decides (lowest ratio, earliest)
    max_credit_pv: np.ndarray  # (n, 1): the credits' PV scaled until every cumulative test passes
    decision: Decision  # 71(a)(5), as the rule recorded it


@dataclass(slots=True)
class CapitalInvestment:
    """71(b): the minimum capital investment, the initial phase's, and the shortfall's treatment."""

    minimum: np.ndarray
    initial: np.ndarray
    shortfall: np.ndarray
    shortfall_is_donation: bool  # readings.capital_shortfall
    donation: np.ndarray  # to the infrastructure fund
    decision: Decision  # 71(a)(1), as the rule recorded it


def prefix_of(phase_index: int) -> str:
    """The dotted-key prefix of a phase: ``""`` for the initial phase, ``phases.i.`` for a later one."""
    return "" if phase_index == 0 else f"phases.{phase_index - 1}."


def phase_records(scenario: Scenario):
    """(prefix, model) of the initial phase (the top level) and each later phase."""
    return [("", scenario)] + [(prefix_of(i + 1), phase) for i, phase in enumerate(scenario.phases)]


def jobs_created(inputs: Inputs) -> np.ndarray:
    """New full-time jobs of the initial phase the ramp puts in place within the eligibility period,
    71(c): ``jobs.new`` x the largest ramp share of the phase years through its last credit year."""
    scenario = inputs.scenario
    last = inputs.number("award.first_credit_year") + inputs.number("award.eligibility_period_years") - 1
    length = len(scenario.jobs.ramp)
    phase_year = np.arange(1, length + 1)[None, :]
    shares = ramp(inputs, "", length, phase_year)
    within = phase_year <= np.maximum(last, 1)
    return inputs.number("jobs.new") * np.max(np.where(within, shares, 0.0), axis=1, keepdims=True)


def job_minimum(inputs: Inputs) -> JobMinimum:
    """71(c)(1): the clause whose job minimum the project meets, decided on the initial phase, and
    whether its retained jobs are eligible for credits."""
    number, flag = inputs.number, inputs.flag
    created = jobs_created(inputs)
    decision = job_minimum_decision(
        created,  # the new jobs the ramp puts in place within the eligibility period
        number("jobs.retained"),
        number("business.full_time_employees_at_application"),
        flag("business.small_business"),
        flag("business.targeted_industry"),
        flag("location.government_restricted_municipality"),
        flag("location.qualified_incentive_tract"),
        flag("location.enhanced_area"),
        inputs.optional_number("business.retained_jobs_at_application"),
        inputs.scenario.readings.several_locations,
    )
    return JobMinimum(decision.facts["code"], decision.facts["retained_eligible"], created, decision)


def threshold_of(inputs: Inputs) -> Threshold:
    """71(a)(5): the threshold (statutory, or the scenario's ``threshold_override``) and whether an
    extended commitment counts, 71(a)(5)(d) vs (a), (b)."""
    number, flag = inputs.number, inputs.flag
    statutory, statutory_code = net_benefit.statutory_threshold(
        flag("location.distressed_municipality"),
        flag("location.enhanced_area"),
        flag("location.government_restricted_municipality"),
        flag("location.mega_project"),
        inputs.scenario.readings.several_locations,
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
    return Threshold(threshold, threshold_code, statutory_code, counts_extension, extended_years, counted_extension)


def commitment_periods(inputs: Inputs, statutory_code: np.ndarray) -> tuple[list[np.ndarray], tuple[dict, ...]]:
    """The commitment period of each phase [years]: the period given, where it counts in the
    test's window, 71(a)(5)(a)/(b); 1.5 x the eligibility period when none is given [secondary].

    Also the record of each phase's window, for the 71(a)(5) record's facts (``windows``): its
    ``key``, the period ``stated`` (None when none is), the ``defined`` period (1.5 x the
    eligibility period), whether it was ``set_by_authority``, whether the stated period
    ``differs`` from the defined one, and the period the test ``counted``."""
    number, flag = inputs.number, inputs.flag
    commitment, windows = [], []
    for prefix, _ in phase_records(inputs.scenario):
        stated = inputs.optional_number(prefix + "commitment.period_years")
        defined = defined_period(number(prefix + "award.eligibility_period_years"))  # 1.5 x E [secondary]
        set_by_authority = flag(prefix + "commitment.period_set_by_authority")
        if stated is None:
            period = defined
        else:  # the period given, where the authority set it; else the defined one, 71(a)(5)
            period = window_period(
                stated,
                number(prefix + "award.eligibility_period_years"),
                statutory_code,
                set_by_authority,
                inputs.scenario.readings.stated_commitment_period,
            )
        commitment.append(period)
        windows.append(
            {
                "key": prefix + "commitment",
                "stated": stated,
                "defined": defined,
                "set_by_authority": set_by_authority,
                "differs": None if stated is None else ~_close(stated, defined),
                "counted": period,
            }
        )
    return commitment, tuple(windows)


def _close(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``math.isclose`` over arrays: equal to a relative :data:`PERIOD_TOLERANCE` of the larger."""
    return np.abs(a - b) <= PERIOD_TOLERANCE * np.maximum(np.abs(a), np.abs(b))


def horizon(inputs: Inputs, commitment: list[np.ndarray], extended_years: np.ndarray) -> int:
    """Last project year with a credit, a flow, or a part of a benefit window."""
    last = 1.0
    for (prefix, phase), period in zip(phase_records(inputs.scenario), commitment, strict=True):
        start = inputs.number(prefix + "start_year") if prefix else np.zeros((1, 1))
        first = inputs.number(prefix + "award.first_credit_year")
        credit_years = inputs.number(prefix + "award.eligibility_period_years")
        window_end = start + first - 1 + period + extended_years
        flow_years = [*phase.capital_investment] + [year for stream in phase.streams for year in stream.by_year]
        last = max(
            last,
            float(np.max(np.ceil(window_end - YEAR_ROUNDING))),
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


def timeline(inputs: Inputs, jobs: JobMinimum, threshold: Threshold, commitment: list[np.ndarray]) -> ProjectFacts:
    """The project years, their discount factors and the yearly growth of flat amounts: what every
    phase reads."""
    number = inputs.number
    scenario = inputs.scenario
    last_year = horizon(inputs, commitment, threshold.extended_years)
    # Year 0, the approval year (docs/model.md#timeline), has a column only when the scenario gives an
    # amount in it: every other timeline, and every table built on it, is unchanged.
    years = np.arange(0 if has_year_zero(scenario) else 1, last_year + 1)
    discount_factor = finance.discount_factors(number("discount_rate")[:, 0], years, scenario.timing)
    sales_tax_rate = number("revenue.sales_and_use_tax_rate") if scenario.revenue else 0.0
    # Flat yearly amounts (the CBT, streams marked grows_with_inflation) are year-1 figures that
    # grow with inflation from year 1: x (1 + inflation)^(t - 1) in project year t.
    inflation_growth = (1.0 + number("inflation")) ** (years[None, :] - 1.0)
    return ProjectFacts(
        jobs.retained_eligible, threshold.counted_extension, years, discount_factor, sales_tax_rate, inflation_growth
    )


def net_benefit_test(
    inputs: Inputs, phases: list[PhaseFlows], threshold: Threshold, windows: tuple[dict, ...]
) -> NetBenefitTest:
    """71(a)(5): the test on the initial phase, then cumulatively on each later phase; and
    71(a)(5)(d), the incremental credit of each cumulative test, the largest (0 without an award).
    The record of the test carries each phase's window (:func:`commitment_periods`) among its facts."""
    size = inputs.size
    cumulative_benefits = cumulative([column(p.pv_benefits, size) for p in phases])
    cumulative_credits = cumulative([column(p.pv_credits, size) for p in phases])
    threshold_column = column(threshold.threshold, size)
    cumulative_ratio = ratio(cumulative_benefits, cumulative_credits)
    cumulative_without = cumulative([column(p.pv_benefits_without_extension, size) for p in phases])
    decision = net_benefit.net_benefit_decision(
        cumulative_ratio,
        cumulative_credits,
        threshold_column,
        threshold.code,
        threshold.statutory_code,
        threshold.counted_extension,
        {
            "windows": windows,
            # a stated period not set by the authority gives way to the defined one (netbenefit.model.commitment_window)
            "defined_window_decides": decides_on_defined_window(
                threshold.statutory_code, inputs.scenario.readings.stated_commitment_period
            ),
        },
        ratio(cumulative_without, cumulative_credits),
    )
    cumulative_passes = np.concatenate([test.holds for test in decision.comparisons], axis=1)
    passes = decision.passed
    pv_without = sum(column(p.pv_benefits_without_extension, size) for p in phases)
    requested = sum(column(p.requested_credits, size) for p in phases)
    cumulative_requested = cumulative([column(p.requested_credits, size) for p in phases])
    incremental = np.where(
        threshold.counted_extension > 0,
        net_benefit.incremental_credit_by_test(
            cumulative_requested, cumulative_credits, cumulative_without, threshold_column, passes
        ),
        0.0,
    )
    return NetBenefitTest(
        cumulative_benefits,
        cumulative_credits,
        cumulative_ratio,
        cumulative_passes,
        passes,
        pv_without,
        requested,
        incremental,
        decision.deciding,  # 71(a)(5): the lowest ratio decides
        net_benefit.largest_passing_credit_pv(cumulative_credits[:, -1:], cumulative_ratio, threshold_column),
        decision,
    )


def capital_investment(inputs: Inputs) -> CapitalInvestment:
    """71(b): the minimum capital investment, the initial phase's capital investment, and the
    infrastructure fund donation of a shortfall."""
    scenario, number, flag = inputs.scenario, inputs.number, inputs.flag
    initial_investment = sum(
        (number(f"capital_investment.{year}") for year in scenario.capital_investment), np.zeros((1, 1))
    )
    # 71(b)(2): a shortfall is donated (the default reading) or, read as a condition, makes the business ineligible.
    shortfall_is_donation = scenario.readings.capital_shortfall == "donation"
    decision = eligibility.capital_investment_decision(
        [
            (portion.use, portion.work, number(f"facility.portions.{i}.gross_leasable_area_sqft"))
            for i, portion in enumerate(scenario.facility.portions)
        ],
        initial_investment,
        flag("business.small_business"),
        flag("business.intent_to_remain_demonstrated"),  # 71(b)(1)(e): not given, not demonstrated
        shortfall_is_donation,
    )
    facts = decision.facts
    return CapitalInvestment(
        facts["minimum"], initial_investment, facts["shortfall"], shortfall_is_donation, facts["donation"], decision
    )


def eligibility_checks(
    inputs: Inputs,
    phases: list[PhaseFlows],
    jobs: JobMinimum,
    test: NetBenefitTest,
    capital: CapitalInvestment,
) -> dict[str, Decision]:
    """Every check of section 71 (and check ``75``) as its rule recorded it, by clause
    (:class:`~netbenefit.law.rules.decision.Decision`, arrays over variants), in the order of
    :data:`~netbenefit.law.rules.eligibility.CHECK_IDS`."""
    scenario, number, flag = inputs.scenario, inputs.number, inputs.flag
    prevailing = "attestations.prevailing_wage."
    records = phase_records(scenario)
    added = [i for i, p in enumerate(scenario.phases) if p.facility]
    withholding = eligibility.weighted_withholding_share(
        [number(prefix + "jobs.nj_withholding_share") for prefix, _ in records],
        withholding_weights(scenario, number),  # 71(d): weighted by withholdings
    )
    decisions = {
        # 71(b)(2) makes a shortfall an obligation to donate, not a failure: always met.
        "71(a)(1)": capital.decision,
        "71(a)(2)": jobs.decision,
        "71(a)(3)": eligibility.flag_decision("71(a)(3)", flag("location.qualified_incentive_area")),
        "71(a)(4)": eligibility.flag_decision("71(a)(4)", flag("attestations.material_factor")),
        "71(a)(5)": test.decision,
        "71(a)(6)": eligibility.flag_decision("71(a)(6)", flag("attestations.environmental_standards")),
        "71(a)(7)": eligibility.flag_decision("71(a)(7)", flag("attestations.affirmative_action")),
        "71(a)(8)": eligibility.prevailing_wage_decision(
            flag(prevailing + "construction"),
            flag(prevailing + "building_services"),
            flag(prevailing + "exemption.landlord_not_assisted"),
            flag(prevailing + "exemption.landlord_party_to_contract"),
            inputs.optional_number(prevailing + "exemption.lease_share_of_facility"),
            inputs.optional_number(prevailing + "construction_starts_years_after_first_certificate"),
        ),
        # 71(d) on the project as approved: every phase's jobs and every premises a phase adds.
        "71(d)": eligibility.accommodation_and_withholding_decision(
            [number("facility.accommodates_share")]
            + [number(f"phases.{i}.facility.accommodates_share") for i in added],
            withholding,
            ["facility"] + [f"phase {i + 2} premises" for i in added],
        ),
        "71(f)": eligibility.application_date_decision(scenario.application_date),
        # s.75 (C.34:1B-343): the credit per job per year at most the maximum (a failure where read in statute).
        "75": section_75.decision(inputs, phases, jobs.retained_eligible),
    }
    return {check_id: decisions[check_id] for check_id in eligibility.CHECK_IDS}


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
    jobs = job_minimum(inputs)
    threshold = threshold_of(inputs)
    commitment, windows = commitment_periods(inputs, threshold.statutory_code)
    facts = timeline(inputs, jobs, threshold, commitment)
    phases = [
        phase_flows(inputs, index, prefix, phase, period, facts)
        for index, ((prefix, phase), period) in enumerate(zip(phase_records(scenario), commitment, strict=True))
    ]
    test = net_benefit_test(inputs, phases, threshold, windows)
    capital = capital_investment(inputs)
    decisions = eligibility_checks(inputs, phases, jobs, test, capital)
    checks = {check_id: decision.passed for check_id, decision in decisions.items()}
    eligible = np.ones((1, 1), dtype=bool)
    for passed in checks.values():
        eligible = eligible & passed
    return Computation(
        size=inputs.size,
        years=facts.years,
        discount_factor=facts.discount_factor,
        phases=phases,
        job_clause_code=jobs.clause,
        retained_jobs_eligible=jobs.retained_eligible,
        threshold=threshold.threshold,
        threshold_clause_code=threshold.code,
        statutory_threshold_clause_code=threshold.statutory_code,
        extension_counts=threshold.counts_extension,
        extended_years=threshold.extended_years,
        cumulative_pv_benefits=test.cumulative_pv_benefits,
        cumulative_pv_credits=test.cumulative_pv_credits,
        cumulative_ratio=test.cumulative_ratio,
        cumulative_passes=test.cumulative_passes,
        pv_benefits=test.cumulative_pv_benefits[:, -1:],
        pv_credits=test.cumulative_pv_credits[:, -1:],
        # 71(a)(5): the ratio of the test that decides (the lowest cumulative ratio, the earliest on a tie),
        # so that it meets the threshold exactly where the project passes; the whole project's beside it.
        ratio=np.take_along_axis(test.cumulative_ratio, test.deciding_test, axis=1),
        whole_project_ratio=test.cumulative_ratio[:, -1:],
        deciding_pv_benefits=np.take_along_axis(test.cumulative_pv_benefits, test.deciding_test, axis=1),
        deciding_pv_credits=np.take_along_axis(test.cumulative_pv_credits, test.deciding_test, axis=1),
        passes=test.passes,
        pv_benefits_without_extension=test.pv_benefits_without_extension,
        requested_credits=test.requested_credits,
        incremental_credit=test.incremental_credit,
        deciding_test=test.deciding_test,
        max_credit_pv=test.max_credit_pv,
        capital_investment_minimum=capital.minimum,
        initial_capital_investment=capital.initial,
        infrastructure_fund_donation=capital.donation,
        checks=checks,
        eligible=eligible,
        jobs_created=jobs.jobs_created,
        decisions=decisions,
    )
