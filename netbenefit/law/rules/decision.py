"""What a rule decided, as one record: the comparisons it made and which one decided.

Every sentence, table cell, chart label and JSON field that states a check's outcome is formatted
from its :class:`Decision` (:mod:`netbenefit.model.explain`, :mod:`netbenefit.law.labels`); nothing computes
a rule again to write about it. A :class:`Comparison` carries the values as the rule compared them
and whether its requirement held (the relative tolerance of 71(a)(5) included), so that the relation
written between the two numbers is the one that is true of them.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The relation written between the value and the limit, by requirement and whether it held.
_RELATIONS = {
    ("at_least", True): ">=",
    ("at_least", False): "<",
    ("more_than", True): ">",
    ("more_than", False): "<=",
    ("at_most", True): "<=",
    ("at_most", False): ">",
    ("less_than", True): "<",
    ("less_than", False): ">=",
}


@dataclass(frozen=True, slots=True)
class Comparison:
    """One comparison a rule made: ``value`` against ``limit`` under ``requirement``.

    ``holds`` is the rule's verdict on this comparison (for 71(a)(5), with its relative tolerance).
    ``what`` names what was compared (``"phases 1+2"``, ``"accommodation"``); ``clause`` the clause
    that sets the limit.
    """

    value: float
    limit: float
    requirement: str  # at_least | more_than | at_most | less_than
    holds: bool
    unit: str = "ratio"  # how its numbers are written: ratio (a multiple, as a percent) | share | jobs | usd
    what: str = ""
    clause: str = ""

    @property
    def relation(self) -> str:
        """The relation true of ``value`` and ``limit`` as the rule decided: ``>=`` or ``<`` for
        an "at least" requirement, ``>`` or ``<=`` for "more than"."""
        return _RELATIONS[(self.requirement, bool(self.holds))]

    @property
    def margin(self) -> float:
        """``value - limit`` (for a ratio, in multiples: 0.0159 is 1.59 percentage points)."""
        return float(self.value) - float(self.limit)

    def as_dict(self) -> dict:
        return {
            "what": self.what,
            "value": float(self.value),
            "relation": self.relation,
            "limit": float(self.limit),
            "clause": self.clause,
            "unit": self.unit,
        }


def phases_name(count: int) -> str:
    """The name of the cumulative test of phases 1..count of 71(a)(5): ``"phases 1"``,
    ``"phases 1+2"``, ``"phases 1+2+3"``, and from four phases on ``"phases 1-12"``.

    >>> phases_name(1), phases_name(3), phases_name(12)
    ('phases 1', 'phases 1+2+3', 'phases 1-12')
    """
    if count > 3:
        return f"phases 1-{count}"
    return "phases " + "+".join(str(k) for k in range(1, count + 1))


@dataclass(frozen=True, slots=True)
class Decision:
    """A check as decided: its id (``71(a)(5)``), whether it passed, the comparisons it made (none
    for an attestation) and the index of the one that decided (``None`` where none did)."""

    id: str
    passed: bool
    comparisons: tuple[Comparison, ...] = ()
    deciding: int | None = None

    @property
    def decided_by(self) -> Comparison | None:
        """The comparison that decided the check, or None."""
        return None if self.deciding is None else self.comparisons[self.deciding]

    def as_dict(self) -> dict:
        """The record's fields for the JSON result: the deciding comparison (``value``, ``relation``,
        ``limit``, ``clause``, ``test``) and every comparison made."""
        decided = self.decided_by
        out = {"id": self.id, "passed": bool(self.passed)}
        if decided is not None:
            out |= {
                "value": float(decided.value),
                "relation": decided.relation,
                "limit": float(decided.limit),
                "clause": decided.clause,
                "test": decided.what,
            }
        if len(self.comparisons) > 1:
            out["comparisons"] = [c.as_dict() for c in self.comparisons]
        return out
