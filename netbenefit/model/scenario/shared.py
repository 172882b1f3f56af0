"""Drivers a phased project's phases share (``shared:`` at the top level, docs/scenario-format.md,
"Drivers the phases share").

A shared driver is one key of the initial phase (the top level) that every later phase reads, so
that a sweep, a Monte Carlo draw, a sensitivity, the explorer or a solver moves it as one key:

- ``jobs.median_salary``: the salary path. A later phase's median salary in its phase year t is
  the initial phase's salary of the same project year, ``start_year + t``:
  ``median_salary x (1 + salary_growth)^(start_year + t - 1)``. The phase therefore starts at the
  initial phase's salary of its first project year and grows as the initial phase's does; it
  states neither ``jobs.median_salary`` nor ``jobs.salary_growth``.
- ``jobs.salary_growth``: the growth only. A later phase keeps its own ``jobs.median_salary`` (its
  salary in its year 1) and grows at the initial phase's rate; it does not state
  ``jobs.salary_growth``.

No other key may be shared: job counts, awards and capital investment are each phase's own, and a
phase's ``nj_withholding_share`` is its own in the 71(d) test across phases. A later phase that
states a shared key is an error (the file would say two things of one value); a phase that leaves
out a required key that is not shared is an error as before.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .format import Scenario

#: Each key a scenario may list under ``shared``, and the keys of a later phase it stands for
#: (which the phase must then leave out).
SHAREABLE: Mapping[str, tuple[str, ...]] = {
    "jobs.median_salary": ("jobs.median_salary", "jobs.salary_growth"),
    "jobs.salary_growth": ("jobs.salary_growth",),
}

#: What each shareable key means, as an error message says it.
_MEANING = {
    "jobs.median_salary": "every phase has the initial phase's salary of each project year",
    "jobs.salary_growth": "every phase's salary grows at the initial phase's rate",
}


#: An item of ``shared``: a key of :data:`SHAREABLE` (any other is refused, naming the item; a test
#: keeps the two lists one).
SharedKey = Literal["jobs.median_salary", "jobs.salary_growth"]
#: What a refused item is told beside the keys that may be shared.
NOT_SHAREABLE = "job counts, awards and investment are each phase's own"


def covered(shared: tuple[str, ...]) -> set[str]:
    """The keys of a later phase that ``shared`` stands for (``jobs.median_salary`` and
    ``jobs.salary_growth`` for a shared salary)."""
    return {key for item in shared for key in SHAREABLE.get(item, ())}


def shared_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The problems of ``shared`` read from a file's plain data: a later phase stating a shared
    key, ``shared`` without later phases. Items that are not shareable, or listed twice, are told
    by validation (``SharedKey``, :func:`netbenefit.model.scenario.fields.unique_items`)."""
    items = data.get("shared")
    if not isinstance(items, list | tuple) or not items:
        return []
    problems = []  # an item listed twice is the list's own rule (fields.unique_items)
    valid = [item for item in items if isinstance(item, str) and item in SHAREABLE]
    phases = data.get("phases")
    if not phases:
        problems.append(("shared", "names drivers the later phases share, and this scenario has no later phases"))
        return problems
    if not isinstance(phases, list | tuple):
        return problems
    for i, phase in enumerate(phases):
        jobs = phase.get("jobs") if isinstance(phase, Mapping) else None
        if not isinstance(jobs, Mapping):
            continue
        for item in dict.fromkeys(valid):
            for key in SHAREABLE[item]:
                name = key.split(".", 1)[1]
                if name in jobs:
                    why = _MEANING[item]
                    problems.append(
                        (
                            f"phases.{i}.{key}",
                            f"{item} is shared (shared: at the top level: {why}); remove {key} from this "
                            f"phase, or {item} from shared",
                        )
                    )
    return problems


def phase_value(scenario: Scenario, phase_index: int, key: str) -> float | None:
    """The value a later phase takes at a shared ``key`` (``jobs.median_salary`` or
    ``jobs.salary_growth``) from the initial phase's; None where the initial phase gives none."""
    jobs = scenario.jobs
    if key == "jobs.salary_growth":
        return jobs.salary_growth
    if jobs.median_salary is None:
        return None
    start = scenario.phases[phase_index].start_year
    try:
        return jobs.median_salary * (1.0 + jobs.salary_growth) ** start  # the salary of project year start + 1
    except OverflowError:  # a growth compounded past any float
        return math.inf


def with_shared(scenario: Scenario) -> Scenario:
    """``scenario`` with each later phase's shared keys filled from the initial phase's values
    (every reader of a phase's salary reads it there); the scenario itself when nothing is shared.

    Raises ValueError (saying which phase) where a shared salary is not a finite number at a phase's
    start (a growth compounded past any float).
    """
    keys = covered(scenario.shared)
    if not keys or not scenario.phases:
        return scenario
    phases = []
    for i, phase in enumerate(scenario.phases):
        update = {}
        for key in sorted(keys):
            value = phase_value(scenario, i, key)
            if value is not None and not math.isfinite(value):
                raise ValueError(
                    f"the shared salary grown to the start of phase {i + 2} (start_year {phase.start_year}) "
                    "is not a finite number"
                )
            update[key.split(".", 1)[1]] = value
        phases.append(phase.model_copy(update={"jobs": phase.jobs.model_copy(update=update)}))
    return scenario.model_copy(update={"phases": tuple(phases)})


def without_shared(data: dict[str, Any], shared: tuple[str, ...]) -> dict[str, Any]:
    """The plain data of a scenario with the shared keys taken out of its later phases (they are
    the initial phase's, written once), so that the file reads back to an equal scenario."""
    keys = covered(shared)
    if not keys:
        return data
    for phase in data.get("phases") or ():
        for key in keys:
            phase["jobs"].pop(key.split(".", 1)[1], None)
    return data


def tied_to(scenario: Scenario, key: str) -> str | None:
    """The shared key of the initial phase that a later phase's ``key`` (``phases.0.jobs.median_salary``)
    stands for, or None where ``key`` is not a shared key of a later phase."""
    if not scenario.shared or not key.startswith("phases."):
        return None
    parts = key.split(".", 2)
    if len(parts) < 3 or not parts[1].isdigit():
        return None
    return parts[2] if parts[2] in covered(scenario.shared) else None
