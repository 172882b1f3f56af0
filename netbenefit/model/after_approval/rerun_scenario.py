"""The scenario of the net benefit test re-run on actual results (:func:`actual_scenario`): the
approved scenario with each phase's jobs, salary and withholdings replaced by what the business
reported, and nothing of the business after it leaves.

Conventions (the model holds, for each phase, a level of new jobs times a ramp, a salary growing at
a constant rate, and constant retained jobs):

- new jobs of each phase: ``jobs.new`` is the largest number of the phase's new jobs reported and
  the ramp follows the reported years exactly (in the phase's own years); the last reported year
  holds afterwards; a phase that has not started in the reported years keeps its projection (to
  the stop, where there is one);
- each phase on its own clock, whatever the stop: a later phase that has not started by the stop
  (the business left before the phase's first year) has no job and no credit in the re-run;
- retained jobs and the withholding share: those of the last reported year the business was
  there (years reported after the stop are not read);
- median salary: the salary of the phase's first reported year, growing at the constant rate that
  reaches its last reported salary (where salaries are reported), over the years through the stop;
- the credits stay the approved ones (each phase's award is given as its approved annual credit);
- after the stop (``maintained_through_year``, one stop for every phase) the rows hold no job, wage,
  spending, construction, corporation business tax or revenue stream of the business: the jobs,
  retained ones included, are one schedule of jobs that ends with the stop (a scenario's retained
  jobs are one count held every year, so they join the phase's new-jobs schedule, in every phase
  that has them); the capital
  investment and the revenue streams of later years are left out; the corporation business tax
  is the projected one through the stop, as a stream; cost streams stay as stated
  (``stop_ends: new_jobs`` in the actual-results file ends the new jobs only, as the re-run did before).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cashflows.steps import phase_records
from ..result import Result
from ..scenario import Scenario
from ..scenario.paths import plain
from .actuals import Actuals
from .annual_certification import PhaseJobs, Projection, year_row

if TYPE_CHECKING:
    from ..scenario import Phase


def _through_stop(series: np.ndarray, stop: int | None) -> list[float]:
    """A series of project years 1..N, held at its last value through the stop, then 0."""
    values = [float(v) for v in series]
    if stop is None:
        return values
    return values[:stop] + [values[-1] if values else 0.0] * max(0, stop - len(values)) + [0.0]


def _reported(salaries: np.ndarray, start: int) -> list[tuple[int, float]]:
    """(phase year, salary) of each salary reported in the phase's own years."""
    return [(y - start, float(v)) for y, v in enumerate(salaries, start=1) if y > start and not np.isnan(v)]


def _salary(model: Scenario | Phase, salaries: np.ndarray, start: int, growth: float | None = None) -> dict[str, float]:
    """The median salary of phase year 1 and its growth, from the salaries reported in its years:
    the first reported salary, grown at the constant rate that reaches the last one (``growth``:
    at that rate instead, a growth the phases share)."""
    reported = _reported(salaries, start)
    if model.jobs.median_salary is None or not reported:
        return {}
    (first_year, first_salary), (last_year, last_salary) = reported[0], reported[-1]
    fitted = growth
    if fitted is None:
        fitted = model.jobs.salary_growth
        if last_year > first_year and first_salary > 0:
            fitted = (last_salary / first_salary) ** (1.0 / (last_year - first_year)) - 1.0
    values = {"median_salary": float(first_salary / (1.0 + fitted) ** (first_year - 1))}
    return values if growth is not None else {**values, "salary_growth": float(fitted)}


def unshared(scenario: Scenario, actuals: Actuals) -> tuple[str, ...]:
    """The items of ``shared`` the re-run writes out phase by phase: every salary item, where rows
    name their phases and report a salary (each phase's salary is then its own rows'); none where
    salaries are reported for the project (they set the shared key once)."""
    items = tuple(item for item in scenario.shared if item in ("jobs.median_salary", "jobs.salary_growth"))
    if not items or not actuals.by_phase:
        return ()
    return items if any(row.median_salary is not None for row in actuals.years) else ()


def _salary_changes(
    scenario: Scenario, actuals: Actuals, jobs: PhaseJobs, starts: np.ndarray, maintained: int
) -> dict[str, Any]:
    """The salary keys of the re-run: each phase's own fit; with a salary the phases share
    (``shared``), reported for the project, the shared key set once, fitted to the project's
    reported median; reported by phase, every phase's salary written out and the key unshared."""
    records = phase_records(scenario)
    fits = [_salary(model, jobs.salary[k][:maintained], int(starts[k])) for k, (_, model) in enumerate(records)]
    shared = set(scenario.shared)
    written_out = unshared(scenario, actuals)
    changes: dict[str, Any] = {}
    if written_out:  # each phase's salary its own; a phase without a salary reported keeps its own
        changes["shared"] = [item for item in scenario.shared if item not in written_out]
        for k, (prefix, model) in enumerate(records):
            own = {"median_salary": model.jobs.median_salary, "salary_growth": model.jobs.salary_growth}
            if model.jobs.median_salary is not None:
                changes.update({prefix + "jobs." + key: value for key, value in {**own, **fits[k]}.items()})
        return changes
    if "jobs.median_salary" in shared:  # one salary path, the project's: the shared key set once
        return {"jobs." + key: value for key, value in fits[0].items()}
    if "jobs.salary_growth" in shared:  # one growth, the project's; each phase's salary of its year 1 its own
        reported = np.array([np.nan if row.median_salary is None else row.median_salary for row in actuals.totals()])
        growth = _salary(scenario, reported[:maintained], 0).get("salary_growth")
        if growth is None:
            return {}
        for k, (prefix, model) in enumerate(records):
            fit = _salary(model, jobs.salary[k][:maintained], int(starts[k]), growth)
            changes.update({prefix + "jobs." + key: value for key, value in fit.items()})
        changes["jobs.salary_growth"] = float(growth)
        return changes
    for k, (prefix, _) in enumerate(records):
        changes.update({prefix + "jobs." + key: value for key, value in fits[k].items()})
    return changes


def _ended(mapping: Mapping[Any, float], last_phase_year: int) -> dict[int, float]:
    """A year mapping (phase years) without the years after ``last_phase_year``."""
    return {int(year): float(value) for year, value in mapping.items() if int(year) <= last_phase_year}


def _streams_through(model: Scenario | Phase, last_phase_year: int) -> list[dict[str, Any]]:
    """The phase's streams: revenue ones without the years after the stop; cost streams as stated."""
    streams = []
    for stream in model.streams:
        data = dict(plain(stream))
        if stream.kind == "revenue":
            data["by_year"] = _ended(stream.by_year, last_phase_year)
        else:
            data["by_year"] = {int(y): float(v) for y, v in stream.by_year.items()}
        streams.append(data)
    return streams


def _business_tax_stream(projected: Result, stop: int) -> dict[str, Any] | None:
    """The initial phase's projected corporation business tax through the stop, as a stream (its
    driver's component, as ``projected.streams`` shows it)."""
    c = projected.computation
    years = np.asarray(c.years)
    amounts = np.zeros(len(years))
    for component in c.phases[0].components:
        if component.name == "corporation_business_tax" and component.source == "operations":
            amounts = amounts + year_row(component.values, len(years))
    by_year = {int(y): float(a) for y, a in zip(years, amounts, strict=True) if y <= stop and a > 0}
    if not by_year:
        return None
    return {
        "name": f"corporation business tax, through year {stop}",
        "kind": "revenue",
        "tax": "corporation_business_tax",
        "by_year": by_year,
    }


def _phase_schedule(
    model: Scenario | Phase, new: np.ndarray, stop: int | None, start: int, reported: int
) -> list[float] | None:
    """The phase's new jobs in its own years 1, 2, ... (project year ``start`` + t), the last
    maintained year held to the stop and nothing after it; None where the phase keeps its
    projection (nothing reported for it and no stop). A phase that has not started by the stop
    (``stop <= start``: the business left before the phase's first year) has no jobs: ``[0.0]``."""
    if stop is not None and stop <= start:  # the business left before the phase's first year
        return [0.0]
    if reported <= start:  # nothing reported for the phase
        if stop is None:
            return None
        ramp = model.jobs.ramp  # its projection to the stop
        return [model.jobs.new * ramp[min(t, len(ramp) - 1)] for t in range(stop - start)] + [0.0]
    return _through_stop(new, stop)[start:]


def _phase_changes(
    prefix: str,
    model: Scenario | Phase,
    k: int,
    start: int,
    stop: int | None,
    whole: bool,
    context: tuple[Scenario, Result, PhaseJobs, int, bool],
) -> dict[str, Any]:
    """The keys of phase ``k`` in the re-run scenario (the conventions of this module)."""
    scenario, projected, jobs, reported, counted_retained = context
    maintained = reported if stop is None else min(stop, reported)  # the reported years the business was there
    new = jobs.new[k].copy()
    retained = jobs.retained[k][:maintained]
    folded = whole and stop is not None and bool(np.any(retained))
    if folded:  # the retained jobs end with the stop: one schedule of jobs with the new ones
        new = new + (jobs.retained[k] if counted_retained else 0.0)
    started = stop is None or stop > start or k == 0  # the initial phase's credit stays: its ratio is defined
    changes: dict[str, Any] = {}
    schedule = _phase_schedule(model, new, stop, start, reported)
    if schedule is not None:
        peak = max(schedule)
        changes[prefix + "jobs.new"] = float(peak)
        changes[prefix + "jobs.ramp"] = [v / peak if peak > 0 else 0.0 for v in schedule]
        share = jobs.withholding_share[k][:maintained]
        share = share[~np.isnan(share)]
        if share.size:
            changes[prefix + "jobs.nj_withholding_share"] = float(share[-1])
    if k == 0 or jobs.retained[k].any() or not started:
        last = float(retained[-1]) if retained.size and started else 0.0
        changes[prefix + "jobs.retained"] = 0.0 if folded else last
    approved = projected.computation.phases[k].credits
    changes[prefix + "award"] = {
        # a phase that has not started by the stop received no credit: none in the re-run
        "annual_credit": float(np.max(approved)) if started else 0.0,
        "eligibility_period_years": model.award.eligibility_period_years,
        "first_credit_year": model.award.first_credit_year,
    }
    if whole and stop is not None:
        last_year = stop - start  # the last phase year maintained
        changes[prefix + "capital_investment"] = _ended(model.capital_investment, last_year)
        streams = _streams_through(model, last_year)
        if k == 0 and scenario.revenue is not None:
            business_tax = _business_tax_stream(projected, stop)
            changes["revenue.corporate_business_tax"] = 0.0
            changes["revenue.allocated_taxable_net_income"] = None
            if business_tax is not None:
                streams.append(business_tax)
        if streams or model.streams:
            changes[prefix + "streams"] = streams
    return changes


def actual_scenario(
    scenario: Scenario, actuals: Actuals, projected: Result, plan: Projection, jobs: PhaseJobs
) -> Scenario:
    """The scenario with each phase's jobs, salary and withholdings replaced by the actual results
    (the conventions are this module's)."""
    stop = actuals.maintained_through_year
    whole = actuals.stop_ends == "business"  # "new_jobs": only the new jobs end, as the re-run did before
    counted_retained = projected.retained_jobs_eligible or scenario.readings.retained_benefits == "all_retained"
    context = (scenario, projected, jobs, plan.year.size, counted_retained)
    changes: dict[str, Any] = {"name": f"{scenario.name} (actual results)"}
    for k, (prefix, model) in enumerate(phase_records(scenario)):
        changes.update(_phase_changes(prefix, model, k, int(plan.start[k]), stop, whole, context))
    maintained = plan.year.size if stop is None else min(stop, plan.year.size)
    changes.update(_salary_changes(scenario, actuals, jobs, plan.start, maintained))
    return scenario.replace(changes)
