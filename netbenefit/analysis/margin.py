"""The margin of the net benefit test (the deciding test's ratio minus its threshold) compared
between two results: the benefit window in words, and the change of the margin split into rows
that add up (the inputs' Shapley values of the ratio, the benefit window and the threshold).
:mod:`netbenefit.diff` uses it; the threshold of each side is the one its
own location sets, 71(a)(5), (a)(5)(a), (a)(5)(b), and only the 400 percent test counts an extended
commitment, 71(a)(5)(d).
"""

from __future__ import annotations

import numpy as np

from ..labels import years
from ..model.result import Result


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
    """The part of ``result``'s ratio (the deciding test's) that the extended commitment's years give:
    the ratio less the same tests' ratio without them (0 where the extension is not counted)."""
    if not result.extension_counted:
        return 0.0
    return result.ratio - result.ratio_without_extension


def margin_rows(result_a: Result, result_b: Result, keys: list[str], contributions: np.ndarray) -> list:
    """The change of the margin, ``margin_b - margin_a``, as rows that add up: the inputs' Shapley
    values of the ratio (the deciding test's, as every side of the comparison reads it), less the
    benefit window's part (taken from the location inputs that moved the window), then the window
    and the threshold. They add up: the margin is the ratio less the threshold."""
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
    return rows
