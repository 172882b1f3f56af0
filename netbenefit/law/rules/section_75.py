"""Check ``75``: the requested credit per job per year at most the section 75 maximum.

Section 75 of P.L.2020, c.156 (C.34:1B-343) sets "the total amount of the tax credit for an
eligible business for each new or retained full-time job" [statute, 75(a)]: a base amount by
location, 75(b) [statute], bonuses, a maximum per job with the bonuses, and an addition above it for
jobs under a labor harmony agreement. The maximum and the addition are graded in
``law/parameters/award.yaml``; the check makes a project ineligible only where the maximum is graded
``statute`` (read in the statute's words), and is otherwise a warning naming its grade
(docs/model.md#checks). It never changes the ratio.

The credit per job per year is the annual credit divided by the credit-eligible jobs, a retained
job counted as the calculator counts it (``award_retained_job_share_of_new_job`` of a new job,
where 71(c)(1)(d)-(f) make the retained jobs eligible). Pure functions on numbers and arrays.
"""

from __future__ import annotations

import numpy as np

from ..parameters import PARAMETERS, parameter
from .decision import Comparison, Decision

#: The check's id (results, messages, tests).
CHECK_ID = "75"
_ROUNDING = 1e-9  # not a statutory number: a credit equal to the maximum up to rounding is within it


def credit_eligible_jobs(new_jobs, retained_jobs, retained_jobs_eligible):
    """New jobs plus retained jobs at the calculator's share of a new job, where they count. [jobs]

    >>> float(credit_eligible_jobs(100, 300, True)), float(credit_eligible_jobs(100, 300, False))
    (250.0, 100.0)
    """
    share = parameter("award_retained_job_share_of_new_job")
    return np.asarray(new_jobs, dtype=float) + np.where(
        retained_jobs_eligible, share * np.asarray(retained_jobs, dtype=float), 0.0
    )


def credit_per_job(annual_credit, new_jobs, retained_jobs, retained_jobs_eligible):
    """The annual credit per credit-eligible job (infinite for a credit without jobs). [USD/job/year]

    >>> float(credit_per_job(1_000_000, 100, 300, True))
    4000.0
    """
    annual = np.asarray(annual_credit, dtype=float)
    jobs = credit_eligible_jobs(new_jobs, retained_jobs, retained_jobs_eligible)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(jobs > 0, annual / np.where(jobs > 0, jobs, 1.0), np.where(annual > 0, np.inf, 0.0))


def maximum_per_job(labor_harmony, cap=None):
    """The section 75 maximum per job per year with the bonuses that apply: the cap on the base
    amount plus bonuses (``award_credit_cap_per_job``, or the scenario's ``cap_per_job``), plus the
    labor harmony addition where a labor harmony agreement applies. [USD/job/year]

    >>> float(maximum_per_job(False)), float(maximum_per_job(True))
    (8000.0, 9000.0)
    """
    cap = np.asarray(parameter("award_credit_cap_per_job") if cap is None else cap, dtype=float)
    addition = float(parameter("award_labor_harmony_addition_per_job"))
    return cap + np.where(labor_harmony, addition, 0.0)


def within_maximum(per_job, maximum):
    """``per_job <= maximum`` (up to floating-point rounding)."""
    per_job = np.asarray(per_job, dtype=float)
    return per_job <= np.asarray(maximum, dtype=float) * (1.0 + _ROUNDING)


def maximum_grade(cap_given: bool = False) -> str:
    """The grade of the maximum (``statute``, ``rule``, ``secondary``, ``convention``), or
    ``scenario`` where the scenario gives its own cap. The check fails eligibility only at ``statute``."""
    if cap_given:
        return "scenario"
    grades = {PARAMETERS["award_credit_cap_per_job"].source, PARAMETERS["award_labor_harmony_addition_per_job"].source}
    for grade in ("convention", "secondary", "rule", "statute"):  # the weakest of the two
        if grade in grades:
            return grade
    return "convention"


def check(inputs, phases, retained_jobs_eligible) -> np.ndarray:
    """Check ``75`` over every phase, for n variants: True where each phase's credit per job is
    within its maximum, or where the maximum is not graded statute (then only a warning).

    ``inputs`` is the model's value accessor (:class:`netbenefit.model.cashflows.Inputs`); ``phases`` the
    model's phases (:class:`netbenefit.model.cashflows.PhaseFlows`, their ``credits`` by year).
    """
    passed, _ = check_with_values(inputs, phases, retained_jobs_eligible)
    return passed


def check_with_values(inputs, phases, retained_jobs_eligible):
    """(passed, values) of check ``75``: ``values`` holds, for each phase, its credit per job per
    year, its maximum, the maximum's grade and whether the credit is within it (read from
    :func:`decision`)."""
    record = decision(inputs, phases, retained_jobs_eligible)
    values = [
        (comparison.value, comparison.limit, grade, comparison.holds)
        for comparison, grade in zip(record.comparisons, record.facts["grades"], strict=True)
    ]
    return record.passed, values


def decision(inputs, phases, retained_jobs_eligible) -> Decision:
    """Check ``75`` as one record: each phase's credit per credit-eligible job per year against its
    section 75 maximum with the bonuses that apply, at most. It fails only where a phase is above a
    maximum graded ``statute``; the first phase above its maximum decides (none where every phase is
    within). The record's facts: ``grades``, each phase's maximum's grade."""
    passed = np.ones((1, 1), dtype=bool)
    comparisons, grades = [], []
    for index, phase in enumerate(phases):
        prefix = "" if index == 0 else f"phases.{index - 1}."
        within, grade, per_job, maximum = phase_values(
            inputs, prefix, np.max(phase.credits, axis=-1, keepdims=True), retained_jobs_eligible
        )
        passed = passed & (within | (grade != "statute"))  # a maximum not read in statute only warns
        what = f"phase {index + 1}" if len(phases) > 1 else "credit per job"
        comparisons.append(Comparison(per_job, maximum, "at_most", within, "usd", what, CHECK_ID))
        grades.append(grade)
    above = ~np.stack(np.broadcast_arrays(*[np.asarray(c.holds, dtype=bool) for c in comparisons]), axis=-1)
    deciding = np.where(np.any(above, axis=-1), np.argmax(above, axis=-1), -1)
    return Decision(CHECK_ID, passed, tuple(comparisons), deciding, {"grades": tuple(grades)})


def labor_harmony_applies(inputs, prefix: str) -> np.ndarray:
    """Whether the labor harmony addition is in a phase's maximum: as its section 75 calculator
    says; an award given as an amount (no ``award.section_75``) does not say, and the largest
    maximum, with the addition, is taken (the check warns or fails only above every maximum the
    section allows) [convention]."""
    if inputs.get(prefix + "award.section_75") is None:
        return np.ones((1, 1), dtype=bool)
    return inputs.flag(prefix + "award.section_75.labor_harmony")


def phase_within(inputs, prefix: str, annual_credit, retained_jobs_eligible):
    """(within, grade) of one phase: whether its credit per job is within its maximum, and the
    maximum's grade."""
    within, grade, _, _ = phase_values(inputs, prefix, annual_credit, retained_jobs_eligible)
    return within, grade


def phase_values(inputs, prefix: str, annual_credit, retained_jobs_eligible):
    """(within, grade, per_job, maximum) of one phase."""
    key = prefix + "award.section_75."
    cap = inputs.optional_number(key + "cap_per_job")
    maximum = maximum_per_job(labor_harmony_applies(inputs, prefix), cap)
    per_job = credit_per_job(
        annual_credit,
        inputs.number(prefix + "jobs.new"),
        inputs.number(prefix + "jobs.retained"),
        retained_jobs_eligible,
    )
    return within_maximum(per_job, maximum), maximum_grade(cap is not None), per_job, maximum
