"""The net positive benefit test of 71(a)(5): thresholds, the comparison, extended commitment.

Pure functions on numbers and numpy arrays; they broadcast over variants.
"""

from __future__ import annotations

import numpy as np

from ..parameters import parameter
from .decision import Comparison, Decision, phases_name

#: Codes returned by :func:`statutory_threshold` (and 3 for an override under 71(a)(5)(f)).
THRESHOLD_CLAUSES = ("71(a)(5)", "71(a)(5)(a)", "71(a)(5)(b)", "71(a)(5)(f)")
DEFAULT, DISTRESSED_OR_ENHANCED, RESTRICTED_OR_MEGA, OVERRIDE = 0, 1, 2, 3


def statutory_threshold(
    distressed_municipality, enhanced_area, government_restricted_municipality, mega_project, several_locations="lowest"
):
    """The statutory threshold multiple and the code of its clause.

    400% by default, 71(a)(5); 300% in a distressed municipality or enhanced area, 71(a)(5)(a);
    200% in a government-restricted municipality or for a mega project, 71(a)(5)(b). Where
    several apply the lowest is used (a convention, the default reading);
    ``several_locations="highest"`` takes the highest of those that apply instead.

    Returns
    -------
    (threshold, clause_code) : arrays
        ``THRESHOLD_CLAUSES[clause_code]`` names the clause.

    >>> [float(x) for x in statutory_threshold(True, False, False, True)]
    [2.0, 2.0]
    """
    restricted_or_mega = np.logical_or(government_restricted_municipality, mega_project)
    distressed_or_enhanced = np.logical_or(distressed_municipality, enhanced_area)
    if several_locations == "highest":  # the alternative reading: the 300% test wins over the 200%
        restricted_or_mega = restricted_or_mega & ~distressed_or_enhanced
    code = np.where(
        restricted_or_mega, RESTRICTED_OR_MEGA, np.where(distressed_or_enhanced, DISTRESSED_OR_ENHANCED, DEFAULT)
    )
    threshold = np.where(
        restricted_or_mega,
        parameter("net_benefit_threshold_restricted_or_mega"),  # 71(a)(5)(b)
        np.where(
            distressed_or_enhanced,
            parameter("net_benefit_threshold_distressed_or_enhanced"),  # 71(a)(5)(a)
            parameter("net_benefit_threshold_default"),  # 71(a)(5)
        ),
    )
    return threshold, code


def extension_counts(statutory_clause_code):
    """Whether an elected extended commitment counts toward the benefits, 71(a)(5)(d).

    Only the 400 percent test of 71(a)(5) counts benefits through an extended commitment; the
    300 and 200 percent tests of (a) and (b) count them "through the end of the commitment
    period". An override under 71(a)(5)(f) changes the percentage, not the window, so pass the
    statutory code here.
    """
    return np.asarray(statutory_clause_code) == DEFAULT


def meets_threshold(ratio, threshold):
    """``ratio >= threshold``, 71(a)(5) ("at least"), with a relative tolerance of 1e-9 so that a
    ratio equal to the threshold up to floating-point rounding passes.

    >>> bool(meets_threshold(4.0 * (1 - 1e-12), 4.0)), bool(meets_threshold(3.99, 4.0))
    (True, False)
    """
    ratio = np.asarray(ratio, dtype=float)
    threshold = np.asarray(threshold, dtype=float)
    tolerance = parameter("net_benefit_ratio_relative_tolerance")
    return (ratio >= threshold) | (
        np.abs(ratio - threshold) <= tolerance * np.maximum(np.abs(ratio), np.abs(threshold))
    )


def deciding_test(cumulative_ratio):
    """Index of the test that decides 71(a)(5) for a phased project: the cumulative test with the
    lowest ratio (the tests share one threshold, so the lowest ratio passes only if every test
    does), the earliest on a tie. It also binds :func:`largest_passing_credit_pv`. [index, (n, 1)]

    >>> int(deciding_test([[2.548, 3.205]]).item()), int(deciding_test([[3.0, 3.0]]).item())
    (0, 0)
    """
    return np.argmin(np.asarray(cumulative_ratio, dtype=float), axis=-1, keepdims=True)


def net_benefit_decision(
    cumulative_ratio,
    cumulative_pv_credits,
    threshold,
    threshold_clause_code,
    statutory_clause_code,
    counted_extension,
    window_facts=None,
    cumulative_ratio_without_extension=None,
) -> Decision:
    """71(a)(5) as one record: each cumulative test (the initial phase alone, then phases 1..k)
    compares its ratio of PV net benefits to PV requested credits with the threshold, at least
    (:func:`meets_threshold`), and passes only with credits to compare; the project passes when
    every test does, and the test with the lowest ratio decides (:func:`deciding_test`).

    Parameters
    ----------
    cumulative_ratio, cumulative_pv_credits : arrays (n, tests)
        Each test's ratio of PV counted net benefits to PV requested credits (NaN without
        credits), and its PV of requested credits. [multiple], [USD, PV at approval]
    threshold : array (n, 1)
        The threshold multiple (statutory, or the override of 71(a)(5)(f)).
    threshold_clause_code, statutory_clause_code : arrays (n, 1)
        Indexes into :data:`THRESHOLD_CLAUSES`: the threshold's clause, and the statutory one
        whatever the override (it sets the benefit window, 71(a)(5)(d) vs (a) and (b)).
    counted_extension : array (n, 1)
        The extended years the window counts (0 where the extension does not count). [years]
    window_facts : mapping, optional
        What the pipeline counted in each test's window (each phase's commitment period), kept
        among the record's facts.
    cumulative_ratio_without_extension : array (n, tests), optional
        Each test's ratio over its window without the elected extension (the same as
        ``cumulative_ratio`` where no extension counts): the same tests, without it.

    The record's facts: ``threshold_clause``, ``statutory_clause``,
    ``extension_counts`` (the window may count an extension: the 400 percent test, 71(a)(5)(d)),
    ``counted_extension``, and the same tests without the extension: ``ratio_without_extension``
    (the lowest of their ratios), ``passes_without_extension`` and ``extension_decides`` (the
    project passes with the elected extension and fails without it).

    >>> decision = net_benefit_decision([[3.0, 3.5]], [[100.0, 200.0]], 3.0, 1, 1, 0.0)
    >>> bool(decision.passed), int(decision.deciding.item()), decision.variant().decided_by.what
    (True, 0, 'phases 1')
    """
    ratios = np.asarray(cumulative_ratio, dtype=float)
    credits = np.asarray(cumulative_pv_credits, dtype=float)
    threshold = np.asarray(threshold, dtype=float)
    passes = meets_threshold(ratios, threshold) & (credits > 0)  # 71(a)(5): at least the threshold
    clauses = np.asarray(THRESHOLD_CLAUSES, dtype=object)
    threshold_clause = clauses[np.asarray(threshold_clause_code)]
    tests = tuple(
        Comparison(
            ratios[..., k : k + 1],
            threshold,
            "at_least",
            passes[..., k : k + 1],
            "ratio",
            phases_name(k + 1),
            threshold_clause,
        )
        for k in range(ratios.shape[-1])
    )
    passed = np.all(passes, axis=-1, keepdims=True)
    without = ratios if cumulative_ratio_without_extension is None else np.asarray(cumulative_ratio_without_extension)
    passes_without = np.all(meets_threshold(without, threshold) & (credits > 0), axis=-1, keepdims=True)
    facts = {
        "threshold_clause": threshold_clause,
        "statutory_clause": clauses[np.asarray(statutory_clause_code)],
        "extension_counts": extension_counts(statutory_clause_code),
        "counted_extension": np.asarray(counted_extension, dtype=float),
        "ratio_without_extension": np.min(without, axis=-1, keepdims=True),
        "passes_without_extension": passes_without,
        "extension_decides": passed & ~passes_without,  # 71(a)(5)(d): it passes only with the extension
        **(window_facts or {}),
    }
    return Decision("71(a)(5)", passed, tests, deciding_test(ratios), facts)


def largest_passing_credit_pv(pv_credits, cumulative_ratio, threshold):
    """The present value of the requested credits scaled alike until every cumulative test of
    71(a)(5) passes: ``K x max(0, min_k(R_k)) / T``. Scaling every credit by f scales each
    cumulative test's credits by f, so test k passes while f <= R_k / T. For a project without
    later phases this is ``pv_benefits / T``. Never below 0: where a test's net benefits are
    negative no scaling of the credits passes it, and the figure is 0. It is not the most any
    other allocation of the credits across the phases could carry. [USD, PV at approval]

    >>> float(largest_passing_credit_pv(100.0, [[2.5, 3.5]], 3.0).item())  # 100 x 2.5 / 3
    83.33333333333333
    >>> float(largest_passing_credit_pv(100.0, [[-0.5, 3.5]], 3.0).item())  # a test's benefits below 0
    0.0
    """
    lowest = np.min(np.asarray(cumulative_ratio, dtype=float), axis=-1, keepdims=True)
    return np.asarray(pv_credits, dtype=float) * np.maximum(lowest, 0.0) / threshold


def incremental_credit_by_test(
    cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension, threshold, passes_with_extension
):
    """The incremental credit of an extended commitment over every cumulative phase test, 71(a)(5)(d).

    Each cumulative test (initial phase, then 1..k) has its own credit beyond what it supports
    without the extension (:func:`incremental_credit`); the largest is the project's. A project
    that fails even with the extension receives no award: 0.

    Parameters
    ----------
    cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension : arrays (n, tests)
        [USD]
    threshold : array (n, 1)
    passes_with_extension : array of bool (n, 1)

    >>> incremental_credit_by_test([[100.0, 200.0]], [[80.0, 160.0]], [[240.0, 640.0]], 4.0, True).item()
    25.0
    """
    by_test = incremental_credit_of_each_test(
        cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension, threshold
    )
    return np.where(passes_with_extension, np.max(by_test, axis=-1, keepdims=True), 0.0)


def incremental_credit_of_each_test(
    cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension, threshold
):
    """The incremental credit of each cumulative phase test (initial phase, then 1..k), 71(a)(5)(d)
    (:func:`incremental_credit`): 0 for a test without credits. The project's is the largest
    (:func:`incremental_credit_by_test`, :func:`netbenefit.law.rules.clawback.extension_test`). [USD]

    >>> incremental_credit_of_each_test([100.0, 200.0], [80.0, 0.0], [240.0, 640.0], 4.0).tolist()
    [25.0, 0.0]
    """
    credits = np.asarray(cumulative_pv_credits, dtype=float)
    safe = np.where(credits > 0, credits, 1.0)
    return np.where(
        credits > 0, incremental_credit(cumulative_requested, safe, cumulative_pv_without_extension, threshold), 0.0
    )


def incremental_credit(requested_credits, pv_credits, pv_benefits_without_extension, threshold):
    """Nominal credit received on account of an extended commitment, 71(a)(5)(d) (a convention).

    The largest credit the project could have had without the extension has present value
    ``B0 / T``; the share of the requested credit above it is incremental:
    ``requested x max(0, 1 - (B0 / T) / K)``. Zero when the project passes without the
    extension.

    Parameters
    ----------
    requested_credits : float or array
        Requested tax credits, nominal, over the whole project. [USD]
    pv_credits : float or array
        K, their present value. [USD]
    pv_benefits_without_extension : float or array
        B0, present value of net benefits through the commitment period alone. [USD]
    threshold : float or array
        T, the applicable multiple.

    >>> float(incremental_credit(100.0, 80.0, 240.0, 4.0))  # B0/T = 60 of K = 80: 25% above
    25.0
    """
    share = 1.0 - (np.asarray(pv_benefits_without_extension, dtype=float) / threshold) / pv_credits
    return np.asarray(requested_credits, dtype=float) * np.maximum(0.0, share)


def repayment_schedule(incremental_credit_amount: float, extended_years: int) -> list[tuple[int, float]]:
    """Repayment owed if the project is maintained m of X extended years (m = 0 .. X-1).

    ``incremental credit x (X - m) / X``: a convention, since the law asks for "a proportion of
    the incremental benefits ... taking into consideration the number of years of extended
    commitment during which the business maintained the project", 71(a)(5)(d).

    >>> repayment_schedule(300.0, 3)
    [(0, 300.0), (1, 200.0), (2, 100.0)]
    """
    years = int(extended_years)
    return [(m, float(incremental_credit_amount) * (years - m) / years) for m in range(years)]
