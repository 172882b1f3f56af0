"""The margin of the net benefit test (the deciding test's ratio minus its threshold) compared
between two results: the benefit window in words, and the change of the margin split into rows
that add up (the inputs' Shapley values of the ratio, the benefit window, the threshold and a phased
project's deciding test). :mod:`netbenefit.diff` uses it; the threshold of each side is the one its
own location sets, 71(a)(5), (a)(5)(a), (a)(5)(b), and only the 400 percent test counts an extended
commitment, 71(a)(5)(d).
"""

from __future__ import annotations

import math

import numpy as np

from ..law.labels import years
from ..model.result import Result

SAME_MARGIN = 1e-9  # not a statutory number: a residual below this (relative) is rounding, not a row


def benefit_window(result: Result) -> str:
    """The benefit window of ``result``'s test in words: the commitment period from the first credit
    year, and the extended commitment where the test counts it (71(a)(5)(d); only the 400 percent
    test does)."""
    text = f"the commitment period ({years(result.commitment_period_years)} from the first credit year)"
    if result.extension_counted:
        return text + f" and {years(result.extended_years)} of extended commitment, 71(a)(5)(d)"
    if result.extended_years:
        elected = years(result.extended_years)
        return text + f" only (the {elected} of extended commitment elected are not counted, {result.threshold_clause})"
    return text


def _extension_part(result: Result) -> float:
    """The part of ``result``'s ratio that the extended commitment's years give (0 where not counted)."""
    if not result.extension_counted:
        return 0.0
    return result.ratio - result.pv_benefits_without_extension / result.pv_credits


def margin_rows(result_a: Result, result_b: Result, keys: list[str], contributions: np.ndarray) -> list:
    """The change of the margin, ``margin_b - margin_a``, as rows that add up: the inputs' Shapley
    values of the ratio, less the benefit window's part (taken from the location inputs that moved
    the window), then the window, the threshold and, for a phased project, the deciding test."""
    contributions = contributions.copy()
    rows = []
    window = _extension_part(result_b) - _extension_part(result_a)
    movers = [i for i, key in enumerate(keys) if key.split(".")[0] == "location" or "location" in key.split(" + ")]
    if benefit_window(result_a) != benefit_window(result_b) and window != 0 and movers:
        weights = np.abs(contributions[movers])
        weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(movers), 1.0 / len(movers))
        contributions[movers] -= window * weights
    else:
        window = 0.0
    rows += [(key, float(value)) for key, value in zip(keys, contributions, strict=True)]
    if window:
        rows.append(("benefit window (extended commitment counted or not), 71(a)(5)(d)", float(window)))
    if result_a.threshold != result_b.threshold:
        rows.append(("threshold, 71(a)(5)", float(result_a.threshold - result_b.threshold)))
    change = (result_b.margin - result_a.margin) - math.fsum(value for _, value in rows)
    if abs(change) > SAME_MARGIN * max(1.0, abs(result_a.ratio), abs(result_b.ratio)):
        rows.append(("deciding test (the lowest cumulative test, not the whole project)", float(change)))
    return rows
