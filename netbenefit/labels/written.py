"""Comparisons written true to the numbers they show: a value and its limit with the digits the
written relation needs (``399.999% < 400%``, never ``400.00% < 400%``), the margin of the net
benefit test in points, and the 71(a)(5) headline, each from the record of the rule that decided
(:mod:`netbenefit.law.rules.decision`). Re-exported by :mod:`netbenefit.labels`."""

from __future__ import annotations

import math
from typing import Any


def missing(number: Any) -> bool:
    """True for a number that is not there: None or NaN (written as "undefined" or left blank)."""
    return number is None or (isinstance(number, float) and math.isnan(number))


_RELATION_HOLDS = {
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
}
_MOST_DIGITS = 12  # past this a float's written digits stop meaning anything
_SAME_WRITTEN = 1e-9  # not a statutory number: a limit written within this (relative) is written exactly


def _written(value: float, unit: str, digits: int) -> str:
    """``value`` in ``unit`` with ``digits`` decimals (of a percent for ratios and shares)."""
    if unit in ("ratio", "share"):
        return f"{value * 100:,.{digits}f}%"
    if unit == "usd":
        text = f"{abs(value):,.{digits}f}"
        return f"-${text}" if value < 0 else f"${text}"
    return f"{value:,.{digits}f}"


def _exact(value: float, unit: str) -> str:
    """A limit written with no more digits than it has (``400%``, ``35``, ``$1,000``, ``80%``)."""
    scaled = value * 100 if unit in ("ratio", "share") else value
    for digits in range(_MOST_DIGITS + 1):
        text = _written(value, unit, digits)
        if abs(_read(text, unit) - scaled) <= _SAME_WRITTEN * max(1.0, abs(scaled)):
            return text
    return _written(value, unit, _MOST_DIGITS)


def _read(text: str, unit: str) -> float:
    return float(text.replace("%", "").replace("$", "").replace(",", ""))


def written_pair(value: float, limit: float, relation: str, unit: str = "ratio", digits: int = 2) -> tuple[str, str]:
    """``value`` and ``limit`` written so that ``relation`` is true of the numbers as written:
    ``value`` with ``digits`` decimals, more where fewer would make the relation false (a ratio of
    3.99999 failing 400% is ``399.999%``, never ``400.00%``); ``limit`` as exactly as it is.

    >>> written_pair(3.99999, 4.0, "<"), written_pair(4.9163, 4.0, ">=", digits=1)
    (('399.999%', '400%'), ('491.6%', '400%'))
    >>> written_pair(34.6, 35, "<", "jobs", 0), written_pair(0.5, 0.5, "<=", "share", 0)
    (('34.6', '35'), ('50%', '50%'))
    """
    if missing(value) or missing(limit):
        return ("undefined" if missing(value) else _written(value, unit, digits)), _exact(limit, unit)
    holds = _RELATION_HOLDS[relation]
    limit_text = _exact(limit, unit)
    written_limit = _read(limit_text, unit)
    for extra in range(_MOST_DIGITS + 1):
        text = _written(value, unit, digits + extra)
        if holds(_read(text, unit), written_limit):
            return text, limit_text
    return _written(value, unit, digits + _MOST_DIGITS), limit_text


def compared(comparison: Any, digits: int = 2) -> str:
    """A :class:`netbenefit.law.rules.decision.Comparison` as written: ``254.80% < 300%``, the digits
    those numbers need for the relation to be true of them (:func:`written_pair`)."""
    value, limit = written_pair(comparison.value, comparison.limit, comparison.relation, comparison.unit, digits)
    return f"{value} {comparison.relation} {limit}"


def margin_points(margin: float, passes: bool, digits: int = 2) -> str:
    """The margin of the net benefit test (ratio minus threshold, in multiples) in percentage
    points, signed, with the digits that keep its sign true to the verdict: ``+1.59 points``,
    ``+0.00 points`` for a ratio exactly at its threshold, ``-0.001 points`` for one just below.

    >>> margin_points(0.0159, True), margin_points(-0.00001, False), margin_points(0.0, True)
    ('+1.59 points', '-0.001 points', '+0.00 points')
    """
    if missing(margin):
        return "undefined"
    text, _ = written_pair(margin * 100, 0.0, ">=" if passes else "<", "jobs", digits)
    text = text.replace(",", "")
    return f"{'' if text.startswith('-') else '+'}{text} points"


def ratio_verdict(value: float, threshold: float, passes: bool, digits: int = 1) -> tuple[str, str]:
    """A ratio and its threshold for ``"491.6% vs 400%: passes"``: written so that the ratio as
    written is at least the threshold when it passes and below it when it fails (399.99% fails
    400%, never ``400.0% ... fails``)."""
    return written_pair(value, threshold, ">=" if passes else "<", "ratio", digits)


def test_name(what: str) -> str:
    """A cumulative test of 71(a)(5) in words, from the name its record gives it
    (``Comparison.what``): the initial phase's own test is ``phase 1 alone`` (the record's
    ``phases 1``); the others as the record names them (``phases 1+2``, ``phases 1-12``). Every
    sentence, headline and chart of a phased project names its tests so.

    >>> test_name("phases 1"), test_name("phases 1+2+3")
    ('phase 1 alone', 'phases 1+2+3')
    """
    return "phase 1 alone" if what == "phases 1" else str(what)


def net_benefit_headline(decision, digits: int = 1) -> tuple[str, str, str]:
    """(ratio, threshold, others) of the 71(a)(5) headline, from its record: the deciding test's
    ratio and threshold written so that the verdict is true of them, and, for a phased project,
    ``"phase 1 alone: "`` before the ratio and the other tests after it (``"phases 1+2: 320.5%
    passes"``), each named by :func:`test_name`.

    The first item carries the deciding test's name for a phased project: ``"phase 1 alone: 254.8%"``.
    """
    decided = decision.decided_by
    ratio_text, threshold_text = ratio_verdict(decided.value, decided.limit, decided.holds, digits)
    if len(decision.comparisons) == 1:
        return ratio_text, threshold_text, ""
    others = []
    for i, test in enumerate(decision.comparisons):
        if i != decision.deciding:
            value, _ = ratio_verdict(test.value, test.limit, test.holds, digits)
            others.append(f"{test_name(test.what)}: {value} {'passes' if test.holds else 'fails'}")
    return f"{test_name(decided.what)}: {ratio_text}", threshold_text, "; ".join(others)


def year_list(years) -> str:
    """Project years in words, runs of consecutive years joined: ``year 4``, ``years 1-6``,
    ``years 1, 3-5``; "" for none.

    >>> year_list([4]), year_list([1, 2, 3, 4, 5, 6]), year_list([1, 3, 4, 5]), year_list([2, 3])
    ('year 4', 'years 1-6', 'years 1, 3-5', 'years 2, 3')
    """
    values = sorted({int(year) for year in years})
    if not values:
        return ""
    runs: list[list[int]] = []
    for year in values:
        if runs and year == runs[-1][-1] + 1:
            runs[-1].append(year)
        else:
            runs.append([year])
    parts = []
    for run in runs:
        parts += [f"{run[0]}-{run[-1]}"] if len(run) > 2 else [str(year) for year in run]
    return f"{'year' if len(values) == 1 else 'years'} {', '.join(parts)}"
