"""The award calculator: credit amounts of section 75 of P.L.2020, c.156 (C.34:1B-343).

The annual tax credit of an Emerge award is built per full-time job per year:

1. the base amount of 75(b), by the location of the qualified business facility
   (government-restricted municipality or mega project; enhanced area; distressed municipality;
   qualified opportunity zone or employment and investment corridor; any other eligible area).
   Where the facility is in several of these at once, the highest applicable base amount is used
   (a convention, like the lowest threshold of 71(a)(5) and the lowest retained-job minimum of
   71(c)(1)(d));
2. plus the bonuses the user names (the bonus list of section 75 is not in hand: each bonus is an
   input, an amount per job per year);
3. capped per job per year (a cited parameter, secondary source; a scenario may replace it);
4. plus the labor harmony addition, above the cap, for jobs under a labor harmony agreement
   (secondary source; added to the capped amount, a convention);
5. a retained job earns a share (one half) of the amount of a new job (secondary source);
6. annual credit = per new job x new jobs + per retained job x retained jobs, the retained part
   only when 71(c)(1)(d)-(f) make the retained jobs eligible; paid in each year of the
   eligibility period.

Every function takes numbers or numpy arrays and broadcasts over variants, so that
:func:`netbenefit.model.cashflows.compute` and the calculation table of a result use the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..io import arguments
from ..labels import money_exact
from .parameters import citation, parameter

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

    from ..model.cashflows import Inputs
    from ..model.scenario import Scenario

#: Areas of 75(b), in the order of :func:`base_credit_per_job` codes.
BASE_AREAS = (
    "other eligible area",
    "qualified opportunity zone or employment and investment corridor",
    "distressed municipality",
    "enhanced area",
    "government-restricted municipality or mega project",
)
_BASE_PARAMETERS = (
    "award_base_credit_other_eligible_area",
    "award_base_credit_opportunity_zone_or_corridor",
    "award_base_credit_distressed_municipality",
    "award_base_credit_enhanced_area",
    "award_base_credit_government_restricted_or_mega_project",
)

#: Steps of the calculation table, in order.
STEPS = ("base", "bonus", "cap", "labor_harmony", "per_new_job", "per_retained_job", "annual_credit", "total")


def base_credit_per_job(
    government_restricted_municipality: ArrayLike = False,
    mega_project: ArrayLike = False,
    enhanced_area: ArrayLike = False,
    distressed_municipality: ArrayLike = False,
    qualified_opportunity_zone: ArrayLike = False,
    employment_and_investment_corridor: ArrayLike = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Base tax credit per new or retained full-time job per year, 75(b), and its area code.

    Parameters
    ----------
    government_restricted_municipality, mega_project, enhanced_area, distressed_municipality,
    qualified_opportunity_zone, employment_and_investment_corridor : bool or array of bool
        Location facts of the qualified business facility. None of them: any other eligible
        area.

    Returns
    -------
    (amount, code) : arrays
        ``amount`` [USD/job/year]; ``BASE_AREAS[code]`` names the area whose amount applies.
        Where several apply, the highest amount is used (a convention).

    >>> amount, code = base_credit_per_job(enhanced_area=True, distressed_municipality=True)
    >>> float(amount), BASE_AREAS[int(code)]
    (3500.0, 'enhanced area')
    """
    applies: Sequence[np.ndarray] = [
        np.asarray(True),
        np.logical_or(qualified_opportunity_zone, employment_and_investment_corridor),
        np.asarray(distressed_municipality, dtype=bool),
        np.asarray(enhanced_area, dtype=bool),
        np.logical_or(government_restricted_municipality, mega_project),
    ]
    applies = np.broadcast_arrays(*applies)
    amounts = np.stack(
        [np.where(flag, float(parameter(name)), -np.inf) for flag, name in zip(applies, _BASE_PARAMETERS, strict=True)]
    )
    return amounts.max(axis=0), amounts.argmax(axis=0)


@dataclass(frozen=True)
class PerJob:
    """The build-up of the credit per job per year (arrays that broadcast). [USD/job/year]"""

    base: np.ndarray
    bonuses: np.ndarray  # sum of the bonuses
    uncapped: np.ndarray  # base + bonuses
    cap: np.ndarray
    capped: np.ndarray  # min(uncapped, cap)
    labor_harmony: np.ndarray  # the addition above the cap (0 without an agreement)
    new_job: np.ndarray  # capped + labor_harmony
    retained_job: np.ndarray  # new_job x the retained-job share


def credit_per_job(
    base: ArrayLike, bonuses: ArrayLike = 0.0, labor_harmony: ArrayLike = False, cap: ArrayLike | None = None
) -> PerJob:
    """Credit per new and per retained full-time job per year, from the base amount.

    Parameters
    ----------
    base : float or array
        Base amount of 75(b) (:func:`base_credit_per_job`). [USD/job/year]
    bonuses : float or array
        Sum of the bonuses for which the project qualifies. [USD/job/year]
    labor_harmony : bool or array of bool
        Whether the jobs are under a labor harmony agreement.
    cap : float or array, optional
        Largest base plus bonuses per job per year; default the cited parameter
        ``award_credit_cap_per_job`` [secondary]. [USD/job/year]

    Returns
    -------
    PerJob
        ``new_job = min(base + bonuses, cap) + labor harmony addition``;
        ``retained_job = new_job x award_retained_job_share_of_new_job`` [secondary].

    >>> per_job = credit_per_job(3500.0, 5000.0, labor_harmony=True)
    >>> float(per_job.capped), float(per_job.new_job), float(per_job.retained_job)
    (8000.0, 9000.0, 4500.0)
    """
    base = np.asarray(base, dtype=float)
    bonuses = np.asarray(bonuses, dtype=float)
    cap = np.asarray(parameter("award_credit_cap_per_job") if cap is None else cap, dtype=float)
    uncapped = base + bonuses
    capped = np.minimum(uncapped, cap)
    addition = np.where(labor_harmony, float(parameter("award_labor_harmony_addition_per_job")), 0.0)
    new_job = capped + addition
    retained_job = new_job * parameter("award_retained_job_share_of_new_job")
    return PerJob(base, bonuses, uncapped, cap, capped, addition, new_job, retained_job)


def annual_credit(
    per_new_job: ArrayLike,
    per_retained_job: ArrayLike,
    new_jobs: ArrayLike,
    retained_jobs: ArrayLike,
    retained_jobs_eligible: ArrayLike,
) -> np.ndarray:
    """Annual tax credit: per new job x new jobs + per retained job x retained jobs. [USD/year]

    The retained part counts only where 71(c)(1)(d)-(f) make the retained jobs eligible, as for
    an award given per job in a scenario.

    >>> float(annual_credit(4000.0, 2000.0, 100, 300, True)), float(annual_credit(4000.0, 2000.0, 100, 300, False))
    (1000000.0, 400000.0)
    """
    retained = np.where(retained_jobs_eligible, np.asarray(per_retained_job, dtype=float) * retained_jobs, 0.0)
    return np.asarray(per_new_job, dtype=float) * new_jobs + retained


def scenario_credit_per_job(inputs: Inputs, prefix: str = "") -> PerJob:
    """The section 75 build-up of a scenario's award (``award.section_75``), for n variants.

    Parameters
    ----------
    inputs : netbenefit.model.cashflows.Inputs
        The scenario's values, some of them arrays of variants.
    prefix : str
        ``""`` for the initial phase, ``"phases.{i}."`` for a later one.
    """
    key = prefix + "award.section_75."
    flag = inputs.flag
    base, _ = base_credit_per_job(
        flag("location.government_restricted_municipality"),
        flag("location.mega_project"),
        flag("location.enhanced_area"),
        flag("location.distressed_municipality"),
        flag(key + "qualified_opportunity_zone"),
        flag(key + "employment_and_investment_corridor"),
    )
    count = len(inputs.get(prefix + "award.section_75").bonuses)
    bonuses = sum((inputs.number(f"{key}bonuses.{i}.per_job") for i in range(count)), np.zeros((1, 1)))
    cap = inputs.optional_number(key + "cap_per_job")
    return credit_per_job(base, bonuses, flag(key + "labor_harmony"), cap)


@arguments.checked(
    location=arguments.mapping,
    bonuses=arguments.iterable,
    labor_harmony=arguments.flag,
    cap=arguments.optional(arguments.number),
    new_jobs=arguments.number,
    retained_jobs=arguments.number,
    retained_jobs_eligible=arguments.flag,
    eligibility_period_years=arguments.count(1),
    phase=arguments.count(1),
)  # netbenefit.io.arguments: a ScenarioError naming the argument
def award_table(
    *,
    location: dict[str, bool],
    bonuses: Sequence[tuple[str, float]] = (),
    labor_harmony: bool = False,
    cap: float | None = None,
    new_jobs: float,
    retained_jobs: float = 0.0,
    retained_jobs_eligible: bool = False,
    eligibility_period_years: int,
    phase: int = 1,
) -> pd.DataFrame:
    """The calculation of one award, step by step, as a table.

    Parameters
    ----------
    location : dict of str -> bool
        Keyword arguments of :func:`base_credit_per_job` (missing flags are False).
    bonuses : sequence of (name, amount)
        Each bonus, per job per year. [USD/job/year]
    labor_harmony : bool
    cap : float, optional
        Per-job cap; default the cited parameter. [USD/job/year]
    new_jobs, retained_jobs : float
        New and retained full-time jobs on which the award is computed. [jobs]
    retained_jobs_eligible : bool
        Whether 71(c)(1)(d)-(f) make the retained jobs eligible.
    eligibility_period_years : int
        Years in which the credit is paid. [years]
    phase : int
        Phase number shown in the table (1 for the initial phase).

    Returns
    -------
    DataFrame
        One row per step (``STEPS``: base, each bonus, cap, labor_harmony, per_new_job,
        per_retained_job, annual_credit, total), with columns ``phase``, ``step``, ``item``,
        ``per_job`` [USD/job/year; the cap row holds the reduction, zero or negative], ``jobs``,
        ``annual`` [USD/year], ``total`` [USD over the eligibility period].
    """
    amount, code = base_credit_per_job(**location)
    per_job = credit_per_job(amount, sum(value for _, value in bonuses), labor_harmony, cap)

    def scalar(array: ArrayLike) -> float:
        return float(np.asarray(array).reshape(-1)[0])

    counted_retained = float(retained_jobs) if retained_jobs_eligible else 0.0
    per_new, per_retained = scalar(per_job.new_job), scalar(per_job.retained_job)
    annual = scalar(annual_credit(per_new, per_retained, new_jobs, retained_jobs, retained_jobs_eligible))
    nan = float("nan")
    share = f"{parameter('award_retained_job_share_of_new_job'):.0%} of the new-job amount"
    if retained_jobs_eligible:
        retained_item = f"{share}; retained jobs eligible under 71(c)(1)(d)-(f)"
    else:
        retained_item = f"{share}; retained jobs not counted (71(c) does not make them eligible)"
    area = f"{citation(_BASE_PARAMETERS[int(code)])}: {BASE_AREAS[int(code)]}"
    cap_item = f"cap of {money_exact(scalar(per_job.cap))} per job per year"  # money written only by labels
    harmony_item = "labor harmony agreement" if labor_harmony else "no labor harmony agreement"
    period_item = f"over an eligibility period of {eligibility_period_years} years"
    rows = [("base", area, scalar(amount), nan, nan, nan)]
    rows += [("bonus", name, float(value), nan, nan, nan) for name, value in bonuses]
    rows += [
        ("cap", cap_item, scalar(per_job.capped - per_job.uncapped), nan, nan, nan),
        ("labor_harmony", harmony_item, scalar(per_job.labor_harmony), nan, nan, nan),
        ("per_new_job", "credit per new full-time job", per_new, float(new_jobs), per_new * new_jobs, nan),
        ("per_retained_job", retained_item, per_retained, counted_retained, per_retained * counted_retained, nan),
        ("annual_credit", "annual tax credit", nan, float(new_jobs) + counted_retained, annual, nan),
        ("total", period_item, nan, nan, annual, annual * eligibility_period_years),
    ]
    import pandas as pd

    table = pd.DataFrame(rows, columns=["step", "item", "per_job", "jobs", "annual", "total"])
    table.insert(0, "phase", phase)
    return table


def calculation_table(scenario: Scenario, retained_jobs_eligible: bool) -> pd.DataFrame | None:
    """The section 75 calculation of every phase whose award uses the calculator, or None.

    Parameters
    ----------
    scenario : netbenefit.Scenario
    retained_jobs_eligible : bool
        Whether 71(c) makes the retained jobs eligible (the result's ``retained_jobs_eligible``).
    """
    location = scenario.location
    frames = []
    records = [(1, scenario)] + [(k + 2, phase) for k, phase in enumerate(scenario.phases)]
    for number, record in records:
        section_75 = record.award.section_75
        if section_75 is None:
            continue
        frames.append(
            award_table(
                location={
                    "government_restricted_municipality": location.government_restricted_municipality,
                    "mega_project": location.mega_project,
                    "enhanced_area": location.enhanced_area,
                    "distressed_municipality": location.distressed_municipality,
                    "qualified_opportunity_zone": section_75.qualified_opportunity_zone,
                    "employment_and_investment_corridor": section_75.employment_and_investment_corridor,
                },
                bonuses=[(bonus.name, bonus.per_job) for bonus in section_75.bonuses],
                labor_harmony=section_75.labor_harmony,
                cap=section_75.cap_per_job,
                new_jobs=record.jobs.new,
                retained_jobs=record.jobs.retained,
                retained_jobs_eligible=retained_jobs_eligible,
                eligibility_period_years=record.award.eligibility_period_years,
                phase=number,
            )
        )
    if not frames:
        return None
    import pandas as pd

    return pd.concat(frames, ignore_index=True)
