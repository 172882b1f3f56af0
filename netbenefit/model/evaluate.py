"""The pipeline: scenario -> computation (:mod:`netbenefit.model.cashflows`) -> :class:`Result`."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ScenarioError
from ..law import award, finance, taxes
from ..law.parameters import parameter
from ..law.rules import CHECK_IDS, JOB_CLAUSES, THRESHOLD_CLAUSES, repayment_schedule
from ..law.rules.clawback import (
    SCHEDULE_COLUMNS,
    clawback_schedule,
    empty_schedule,
    extension_test,
    incremental_shares,
    recapture_rule,
)
from ..law.rules.decision import phases_name
from . import commitment_window, disclosures, explain, year_zero
from .cashflows import Computation, compute
from .on_demand import ColumnsOnDemand, OnDemand, table_on_demand
from .overflow import check_finite_sums, overflowing_key
from .plausibility import warn_if_implausible
from .result import Result
from .scenario import Scenario, load_scenario

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pandas as pd
    from numpy.typing import ArrayLike

    from .cashflows.computation import Component, PhaseFlows


def evaluate(scenario: Scenario | str | Path) -> Result:
    """Apply every s.71 rule and the net positive benefit test to one scenario.

    Parameters
    ----------
    scenario : Scenario, or the path of a scenario file

    Warns
    -----
    PlausibilityWarning
        For each input outside its plausible range (a percent written for a decimal...): see
        :mod:`netbenefit.model.plausibility`. The same lines are in ``Result.warnings``.

    Raises
    ------
    ScenarioError
        When the scenario cannot be evaluated: the requested credits are zero (the ratio is
        undefined) or present values overflow (a discount rate too close to -1).
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    implausible = warn_if_implausible(scenario, stacklevel=2)  # PlausibilityWarning, netbenefit.model.plausibility
    check_finite_sums(scenario)  # a capital investment summing to infinity (netbenefit.model.overflow)
    with np.errstate(all="ignore"):  # an overflow is reported below as a ScenarioError, not a warning
        computation = compute(scenario)
        _check_computable(scenario, computation)
        result = _result(scenario, computation)
    return dataclasses.replace(result, warnings=implausible) if implausible else result


def _check_computable(scenario: Scenario, computation: Computation) -> None:
    initial = computation.phases[0]
    if float(initial.requested_credits[0, 0]) <= 0:
        raise ScenarioError(
            scenario.source,
            "award",
            "the requested tax credits of the initial phase are zero, so the net benefit ratio "
            "(benefits / credits) is undefined",
        )
    values = [computation.pv_benefits, computation.pv_credits, computation.pv_benefits_without_extension]
    values += [computation.cumulative_pv_benefits, computation.cumulative_pv_credits, computation.incremental_credit]
    values += [getattr(phase, name) for phase in computation.phases for name in ("wages", "credits", "net_benefits")]
    if not all(np.all(np.isfinite(v)) for v in values):
        _check_stream_overflow(scenario, computation)  # a stream's own amounts, before the rate is blamed
        blamed = overflowing_key(scenario, computation)  # the input whose values overflow first
        if blamed is not None:
            raise ScenarioError(scenario.source, *blamed)
        raise ScenarioError(
            scenario.source,
            "discount_rate",
            f"present values overflow at a discount rate of {scenario.discount_rate!r} over "
            f"{len(computation.years)} years; use a rate further from -1 (or smaller amounts)",
        )
    if float(computation.pv_credits[0, 0]) <= 0:
        raise ScenarioError(
            scenario.source,
            "discount_rate",
            f"the present value of the credits rounds to zero at a discount rate of {scenario.discount_rate!r}",
        )
    if not np.all(np.isfinite(computation.cumulative_ratio)):
        raise ScenarioError(
            scenario.source,
            "award",
            "the present value of the credits is too small for a finite net benefit ratio (benefits / credits)",
        )


def _check_stream_overflow(scenario: Scenario, computation: Computation) -> None:
    """Raise a ScenarioError naming the stream (and its file) whose amounts overflow when added up
    over the project years, or the largest stream when only their sum overflows; else return."""
    totals = []  # (total, key, stream) of every stream given in the file
    for phase, streams, prefix in zip(
        computation.phases,
        [scenario.streams] + [p.streams for p in scenario.phases],
        ["streams"] + [f"phases.{i}.streams" for i in range(len(scenario.phases))],
        strict=True,
    ):
        index = {stream.name: i for i, stream in enumerate(streams)}
        for component in phase.components:
            if component.source == "explicit" and component.name in index:
                i = index[component.name]
                total = float(np.max(np.sum(np.abs(component.values) * phase.weight, axis=-1)))
                totals.append((total, f"{prefix}.{i}", streams[i]))
    if not totals:
        return
    overflowing = [item for item in totals if not np.isfinite(item[0])]
    together = sum(total for total, _, _ in totals)
    if not overflowing and np.isfinite(together):
        return
    _, key, stream = overflowing[0] if overflowing else max(totals, key=lambda item: item[0])
    where = f" (from {stream.from_csv})" if stream.from_csv else ""
    alone = "added up over the project years" if overflowing else "added to the other streams"
    raise ScenarioError(
        scenario.source,
        key,
        f"the amounts of stream {stream.name!r}{where} overflow when {alone} (more than about 1.8e308 [USD]); "
        "give amounts in dollars that a sum can hold",
    )


def _scalar(array: ArrayLike) -> float:
    return float(np.asarray(array).reshape(-1)[0])


def _result(scenario: Scenario, c: Computation) -> Result:
    ratio, threshold = _scalar(c.ratio), _scalar(c.threshold)
    passes = bool(_scalar(c.passes))
    job_clause = JOB_CLAUSES[int(_scalar(c.job_clause_code))]
    threshold_clause = THRESHOLD_CLAUSES[int(_scalar(c.threshold_clause_code))]
    statutory_code = int(_scalar(c.statutory_threshold_clause_code))
    incremental = _scalar(c.incremental_credit)
    extended_years = scenario.commitment.extended_years

    # The tables are built when first read (netbenefit.model.on_demand.OnDemand), from these arrays.
    phase_tests = table_on_demand(
        {
            "phases": [list(range(1, k + 2)) for k in range(len(c.phases))],
            "pv_benefits": c.cumulative_pv_benefits[0],
            "pv_credits": c.cumulative_pv_credits[0],
            "ratio": c.cumulative_ratio[0],
            "passes": c.cumulative_passes[0].astype(bool),
        }
    )
    # Each check's record as its rule made it (netbenefit.law.rules.decision), for the one variant.
    decisions = {check_id: decision.variant(0) for check_id, decision in c.decisions.items()}
    passed = {check_id: decision.passed for check_id, decision in decisions.items()}
    note = explain.extension_note(scenario, decisions["71(a)(5)"], incremental)
    donation = _scalar(c.infrastructure_fund_donation)
    minimum = _scalar(c.capital_investment_minimum)
    investment = _scalar(c.initial_capital_investment)
    section_75_message, section_75_warning = explain.section_75_lines(decisions["75"])
    messages = {
        "71(a)(1)": explain.capital_investment_message(scenario, decisions["71(a)(1)"]),
        "71(a)(2)": explain.jobs_message(scenario, job_clause, decisions["71(a)(2)"]),
        "71(a)(3)": explain.location_message(scenario),
        "71(a)(5)": explain.net_benefit_message(scenario, decisions["71(a)(5)"], threshold_clause, note),
        "71(a)(8)": explain.prevailing_wage_message(scenario, decisions["71(a)(8)"]),
        "71(d)": explain.accommodation_message(scenario, decisions["71(d)"]),
        "71(f)": explain.application_date_message(decisions["71(f)"]),
        "75": section_75_message,
        **explain.attestation_messages(scenario),
    }
    checks = table_on_demand(
        {"id": list(CHECK_IDS), "passed": [passed[i] for i in CHECK_IDS], "message": [messages[i] for i in CHECK_IDS]}
    )
    schedule = repayment_schedule(incremental, extended_years)
    repayment = table_on_demand(
        {"years_maintained": [row[0] for row in schedule], "repayment": [row[1] for row in schedule]},
        {"years_maintained": int, "repayment": float},
    )
    extension_test = _extension_test(c, incremental)
    streams = OnDemand(_streams_table, c)
    excluded = tuple(dict.fromkeys(component.name for p in c.phases for component in p.components if component.abated))
    # The tables are given as OnDemand (netbenefit.model.on_demand: built when first read); a reader gets
    # the DataFrame the fields are typed as, hence the arg-type ignores.
    return Result(
        scenario=scenario,
        name=scenario.name,
        eligible=all(passed.values()),
        pv_benefits=_scalar(c.pv_benefits),
        pv_credits=_scalar(c.pv_credits),
        ratio=ratio,
        threshold=threshold,
        threshold_clause=threshold_clause,
        passes=passes,
        discount_rate=scenario.discount_rate,
        checks=checks,  # type: ignore[arg-type]
        capital_investment_minimum=minimum,
        capital_investment=investment,
        infrastructure_fund_donation=donation,
        jobs_clause=job_clause,
        retained_jobs_eligible=bool(_scalar(c.retained_jobs_eligible)),
        phase_tests=phase_tests,  # type: ignore[arg-type]
        extended_years=extended_years,
        extension_counted=bool(_scalar(c.extension_counts)) and extended_years > 0,
        incremental_credit=incremental,
        repayment_schedule=repayment,  # type: ignore[arg-type]
        pv_benefits_without_extension=_scalar(c.pv_benefits_without_extension),
        requested_credits=_scalar(c.requested_credits),
        max_credit_pv=_scalar(c.max_credit_pv),
        max_credit_pv_note=explain.max_credit_note(decisions["71(a)(5)"]),
        max_credit_pv_whole_project=_scalar(c.pv_benefits) / threshold,
        decisions=decisions,
        extension_test=extension_test,
        repayment_by_phase=_repayment_by_phase(scenario, c, incremental, extension_test),
        excluded_streams=excluded,
        commitment_period_years=_scalar(c.phases[0].commitment_period_years),
        cashflows=ColumnsOnDemand(_cashflow_columns, c, index="year"),  # type: ignore[arg-type]
        streams=streams,  # type: ignore[arg-type]
        award_calculation=OnDemand(  # type: ignore[arg-type]
            award.calculation_table, scenario, bool(_scalar(c.retained_jobs_eligible))
        ),
        clawback_schedule=ColumnsOnDemand(_clawback_columns, scenario, c, incremental),  # type: ignore[arg-type]
        clawback_note=explain.clawback_note(bool(_scalar(c.eligible))),
        warnings=explain.commitment_period_warnings(scenario, decisions["71(a)(5)"])
        + ((section_75_warning,) if section_75_warning else ()),
        ratio_as_given=_ratio_as_given(scenario, statutory_code, ratio),
        whole_project_ratio=_scalar(c.whole_project_ratio),
        ratio_without_extension=decisions["71(a)(5)"].facts["ratio_without_extension"],
        passes_without_extension=decisions["71(a)(5)"].facts["passes_without_extension"],
        benefits_by_tax=ColumnsOnDemand(_benefits_by_tax, c),  # type: ignore[arg-type]
        conventions=_conventions(scenario, c),
        computation=c,
    )


def _extension_test(c: Computation, incremental: float) -> str | None:
    """The cumulative test whose incremental credit is the project's, 71(a)(5)(d) (``"phases 1+2"``):
    the years of the repayment schedule are extended years of that test's phases. None where
    nothing is repaid."""
    if incremental <= 0:
        return None
    return phases_name(extension_test(*_cumulative_tests(c)) + 1)


def _incremental_shares(c: Computation, incremental: float) -> np.ndarray:
    """Each phase's share of its credits received on account of the extension, 71(a)(5)(d)
    (:func:`netbenefit.law.rules.clawback.incremental_shares`)."""
    return incremental_shares(*_cumulative_tests(c), incremental)


def _cumulative_tests(c: Computation) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The cumulative phase tests (initial phase, then 1..k) of the one variant, as the 71(a)(5)(d)
    rules take them: (requested credits, PV of credits, PV of benefits without the extension,
    threshold), the first three cumulative over the phases."""
    return (
        np.cumsum([_scalar(p.requested_credits) for p in c.phases]),
        c.cumulative_pv_credits[0],
        np.cumsum([_scalar(p.pv_benefits_without_extension) for p in c.phases]),
        _scalar(c.threshold),
    )


def _repayment_by_phase(scenario: Scenario, c: Computation, incremental: float, test: str | None) -> tuple:
    """The 71(a)(5)(d) repayment by phase, each on its own clock: rows (phase, extended years of that
    phase maintained, repayment). A phase of the test that needed the extension carries the
    incremental credit's share of its own credits (:func:`netbenefit.law.rules.clawback.incremental_shares`)."""
    years = scenario.commitment.extended_years
    if test is None or years == 0:
        return ()
    shares = _incremental_shares(c, incremental)
    rows = []
    for phase, share in zip(c.phases, shares, strict=True):
        if share > 0:
            own = share * _scalar(phase.requested_credits)
            rows += [(phase.number, m, repayment) for m, repayment in repayment_schedule(own, years)]
    return tuple(rows)


def _ratio_as_given(scenario: Scenario, statutory_code: int, ratio: float) -> float:
    """The ratio over the commitment periods the scenario states, where the test counted the defined
    ones instead (71(a)(5)(a)/(b), :mod:`netbenefit.model.commitment_window`); else the ratio."""
    if not (
        commitment_window.periods_not_set(scenario)
        and commitment_window.decides_on_defined_window(statutory_code, scenario.readings.stated_commitment_period)
    ):
        return ratio
    return _scalar(compute(commitment_window.as_given(scenario)).ratio)


def _clawback_columns(scenario: Scenario, c: Computation, incremental: float) -> dict[str, np.ndarray]:
    """The amount at risk by years maintained (:func:`netbenefit.law.rules.clawback.clawback_schedule`),
    as columns; empty for a project that is not eligible (no award to recapture)."""
    if not bool(_scalar(c.eligible)):
        return empty_schedule()
    n_years = len(c.years)
    awards = [scenario.award] + [phase.award for phase in scenario.phases]
    starts = [_scalar(p.start_year) + a.first_credit_year - 1 for p, a in zip(c.phases, awards, strict=True)]
    extended = scenario.commitment.extended_years if bool(_scalar(c.extension_counts)) else 0
    shares = _incremental_shares(c, incremental)
    interest = scenario.commitment.recapture_interest
    # The schedule counts credits from year 1 (column 0 is year 1): a year-0 column, which never
    # holds a credit (docs/model.md#timeline), is left out.
    paid = np.asarray(c.years) >= 1
    schedule = clawback_schedule(
        np.array([_row(p.credits, n_years)[paid] for p in c.phases]),
        starts,
        [_scalar(p.commitment_period_years) for p in c.phases],
        shares,
        extended,
        lambda years: finance.discount_factors(scenario.discount_rate, years, scenario.timing),
        recapture_rule(scenario),  # a table on each phase's own clock (readings.recapture_table_years)
        scenario.commitment.extension_years_counted,
        interest.rate if interest is not None else 0.0,
    )
    return {name: schedule[name] for name in SCHEDULE_COLUMNS}


def _benefits_by_tax(c: Computation) -> dict[str, list]:
    """Counted benefits (revenues less costs, weighted, abated streams left out) by tax, as columns. [USD]

    One row for each of :data:`netbenefit.law.taxes.TAXES`, in that order; ``pv`` adds up to
    ``pv_benefits`` (the streams' present values are the terms of its sum).
    """
    discount = _row(c.discount_factor, len(c.years))
    nominal: dict[str, list[float]] = {tax: [] for tax in taxes.TAXES}
    pv: dict[str, list[float]] = {tax: [] for tax in taxes.TAXES}
    for _, component, amount, weight in _component_rows(c):
        if component.abated:
            continue
        counted = amount * weight
        nominal[component.tax].append(float(np.sum(counted)))  # each stream's sum, then fsum by tax
        pv[component.tax].append(float(counted @ discount))
    return {
        "tax": list(taxes.TAXES),
        "nominal": [math.fsum(nominal[tax]) for tax in taxes.TAXES],
        "pv": [math.fsum(pv[tax]) for tax in taxes.TAXES],
    }


def _conventions(scenario: Scenario, c: Computation) -> tuple[str, ...]:
    """Conventions the result rests on that the scenario did not state (docs/model.md#conventions)."""
    return _drivers_conventions(scenario, c) + year_zero.notes(scenario)


def _drivers_conventions(scenario: Scenario, c: Computation) -> tuple[str, ...]:
    """The conventions of the revenue drivers (none without them)."""
    revenue = scenario.revenue
    if revenue is None:
        return ()
    names = []
    if revenue.income_tax == "progressive":
        names.append("gross_income_tax_brackets_single")
    elif getattr(revenue.income_tax, "method", None) == "brackets":
        names += ["gross_income_tax_brackets_single", "gross_income_tax_brackets_married_joint"]
    if revenue.sales_and_use_tax_rate == parameter("sales_and_use_tax_rate"):  # the cited rate is used
        names.append("sales_and_use_tax_rate")
    if revenue.allocated_taxable_net_income is not None:
        names.append("corporation_business_tax_rates")
    first, last = (int(y) for y in taxes.tax_years(scenario.approval, c.years[[0, -1]]))
    return taxes.schedule_conventions(first, last, names) + disclosures.notes(scenario)


def _row(array: ArrayLike, years: int) -> np.ndarray:
    return np.broadcast_to(array, (1, years))[0]


def _component_rows(c: Computation) -> Iterator[tuple[PhaseFlows, Component, np.ndarray, np.ndarray]]:
    """Each phase's stream components as (phase, component, signed amounts, phase weight)."""
    n_years = len(c.years)
    for phase in c.phases:
        weight = _row(phase.weight, n_years)
        for component in phase.components:
            sign = 1.0 if component.kind == "revenue" else -1.0
            yield phase, component, sign * _row(component.values, n_years), weight


def _streams_table(c: Computation) -> pd.DataFrame:
    """Long table: one row per phase, stream component and project year."""
    import pandas as pd

    n_years = len(c.years)
    rows = list(_component_rows(c))
    amount = np.array([r[2] for r in rows]).reshape(len(rows), n_years)
    weight = np.array([r[3] for r in rows]).reshape(len(rows), n_years)
    abated = np.array([component.abated for _, component, _, _ in rows], dtype=bool)
    counted = np.where(abated[:, None], 0.0, amount * weight)
    discount = _row(c.discount_factor, n_years)

    def repeat(values: ArrayLike) -> np.ndarray:
        return np.repeat(np.asarray(values, dtype=object), n_years)

    return pd.DataFrame(
        {
            "phase": np.repeat([phase.number for phase, *_ in rows], n_years),
            "year": np.tile(c.years, len(rows)),
            "stream": repeat([component.name for _, component, _, _ in rows]),
            "source": repeat([component.source for _, component, _, _ in rows]),
            "effect": repeat([component.effect for _, component, _, _ in rows]),
            "tax": repeat([component.tax for _, component, _, _ in rows]),
            "kind": repeat([component.kind for _, component, _, _ in rows]),
            "abated": np.repeat(abated, n_years),
            "amount": amount.reshape(-1),
            "weight": weight.reshape(-1),
            "counted": counted.reshape(-1),
            "discount_factor": np.tile(discount, len(rows)),
            "present_value": (counted * discount).reshape(-1),
        }
    )


def _cashflow_columns(c: Computation) -> dict[str, np.ndarray]:
    """The wide cash-flow table's columns: ``year``, then one value per project year of each
    column, summed over phases."""
    n_years = len(c.years)

    def total(name: str) -> np.ndarray:
        return sum(_row(getattr(p, name), n_years) for p in c.phases)  # type: ignore[return-value]  # phases: 1+

    table = {
        "year": np.asarray(c.years),
        "new_full_time_jobs": total("new_full_time_jobs"),
        "retained_full_time_jobs": total("retained_full_time_jobs"),
    }
    table["full_time_jobs"] = table["new_full_time_jobs"] + table["retained_full_time_jobs"]
    table["wages"] = total("wages")
    table["capital_investment"] = total("capital_investment")
    table["construction_wages"] = total("construction_wages")
    table["indirect_and_induced_jobs"] = total("indirect_and_induced_jobs")
    revenues, costs = np.zeros(n_years), np.zeros(n_years)
    for _, component, amount, _ in _component_rows(c):  # each stream, signed, all phases and effects
        table[component.name] = table.get(component.name, 0.0) + amount
        if not component.abated:
            if component.kind == "revenue":
                revenues = revenues + amount
            else:
                costs = costs - amount
    table["revenues"] = revenues
    table["costs"] = costs
    table["net_benefits"] = revenues - costs
    table["weight"] = _row(c.phases[0].weight, n_years)
    for phase in c.phases[1:]:
        table[f"weight_phase_{phase.number}"] = _row(phase.weight, n_years)
    counted = sum(_row(p.net_benefits * p.weight, n_years) for p in c.phases)
    discount = _row(c.discount_factor, n_years)
    table["counted_net_benefits"] = counted  # type: ignore[assignment]  # a sum over 1+ phases: an array
    table["discount_factor"] = discount
    table["pv_net_benefits"] = counted * discount
    credits = total("credits")
    table["credits"] = credits
    table["pv_credits"] = credits * discount
    table["cumulative_pv_net_benefits"] = np.cumsum(table["pv_net_benefits"])
    table["cumulative_pv_credits"] = np.cumsum(table["pv_credits"])
    return table
