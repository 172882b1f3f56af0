"""The words every view writes of the 71(a)(5) decision, read from the result's record: the name of
the test that decides, its ratio against the threshold written true to its verdict, the sentence
that names it, and what an elected extension did to the verdict.

One grammar for every chart, page and memo: a phased project's deciding test is "phase 1 alone" or
"phases 1+2" (the cumulative tests, 71(a)(5)); a project without later phases has one test, the
whole project's, and no name is needed. Nothing here applies a rule: each word is formatted from
:class:`netbenefit.law.rules.decision.Decision` records the pipeline made
(``Result.net_benefit_decision``, ``Result.deciding_test``, ``Result.extension_words``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..labels import margin_points, ratio_verdict
from ..labels import test_name as name_of_test

if TYPE_CHECKING:
    from ..model.result import Result


def phased(result: Result) -> bool:
    """Whether the result has more than one cumulative test (a project with later phases)."""
    return len(result.net_benefit_decision.comparisons) > 1


def deciding_name(result: Result) -> str:
    """The name of the test that decides (``phases 1+2``), or "" for a project without later phases."""
    return name_of_test(result.deciding_test.what) if phased(result) else ""


def verdict_word(passes: bool) -> str:
    return "passes" if passes else "fails"


def deciding_ratio(result: Result, digits: int = 1) -> tuple[str, str]:
    """The deciding test's ratio and its threshold, written so that the verdict is true of them
    (``("323.8%", "300%")``; 299.99% fails 300%, never ``300.0%``)."""
    decided = result.deciding_test
    return ratio_verdict(decided.value, decided.limit, bool(decided.holds), digits)


def deciding_sentence(result: Result, digits: int = 1) -> str:
    """The 71(a)(5) sentence of a memo or page, one grammar for every shape:

    ``The net benefit test passes: a net benefit ratio of 491.6% against a threshold of 400%
    (71(a)(5)), a margin of +91.63 points.``; for a phased project, ``The deciding test, phases
    1+2+3, passes: ...``; where the pass rests on the elected extension, the sentence says what the
    test gives without it.
    """
    decided = result.deciding_test
    value, threshold = deciding_ratio(result, digits)
    subject = f"The deciding test, {deciding_name(result)}," if phased(result) else "The net benefit test"
    text = (
        f"{subject} {verdict_word(bool(decided.holds))}: a net benefit ratio of {value} against a threshold of "
        f"{threshold} ({result.threshold_clause}), a margin of {margin_points(result.margin, bool(decided.holds))}."
    )
    extension = result.extension_words(digits)
    if extension:
        text += f" It {extension}."
    return text


def deciding_words(result: Result, digits: int = 1) -> str:
    """The deciding test in a table cell: ``phases 1+2: 323.8% vs 300% (71(a)(5)(a)), passes``
    (without the name for a project without later phases); where the pass rests on the elected
    extension, the verdict says so with what the test gives without it (``passes only with the
    elected 5-year extended commitment, 71(a)(5)(d): without it 372.2% < 400%, fails``)."""
    value, threshold = deciding_ratio(result, digits)
    name = deciding_name(result)
    verdict = result.extension_words(digits) or verdict_word(bool(result.deciding_test.holds))
    return f"{name + ': ' if name else ''}{value} vs {threshold} ({result.threshold_clause}), {verdict}"


#: What ``max_credit_pv`` is, in the words every view gives it: the requested credits scaled alike
#: (never "the largest credit that passes": another allocation across the phases could carry more).
MAX_CREDIT_WORDS = "Requested credits scaled alike until every test passes"


def max_credit_text(result: Result, money) -> str:
    """``max_credit_pv`` written by ``money`` (a formatter of dollars), with the result's note on why
    it is 0 where it is (``Result.max_credit_pv_note``)."""
    text = money(result.max_credit_pv)
    return f"{text} ({result.max_credit_pv_note})" if result.max_credit_pv_note else text


def other_failed_checks(result: Result) -> list[str]:
    """The ids of the checks other than 71(a)(5) that fail (``Result.checks``): where one fails, the
    words name it, never the ratio."""
    return [row.id for row in result.checks.itertuples(index=False) if not row.passed and row.id != "71(a)(5)"]


def other_checks_words(result: Result) -> str:
    """``not eligible: 71(a)(2) fails`` where a check other than 71(a)(5) fails, else ""."""
    failed = other_failed_checks(result)
    if not failed:
        return ""
    return f"not eligible: {', '.join(failed)} {'fails' if len(failed) == 1 else 'fail'}"


def deciding_label(result: Result, digits: int = 0) -> str:
    """A chart's label of the deciding test: ``492% vs 400%``, ``phases 1+2: 324% vs 300%``, with
    ``only with the extension, 71(a)(5)(d)`` where the pass rests on it and the other checks that
    fail."""
    value, threshold = deciding_ratio(result, digits)
    name = deciding_name(result)
    parts = [f"{name + ': ' if name else ''}{value} vs {threshold}"]
    if result.extension_decides:
        parts.append("only with the extension, 71(a)(5)(d)")
    if other_checks_words(result):
        parts.append(other_checks_words(result))
    return "; ".join(parts)
