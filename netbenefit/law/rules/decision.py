"""What a rule decided, as one record: the comparisons it made and which one decided.

Each check function of :mod:`netbenefit.law.rules` returns its :class:`Decision`, built where it
compares; the pipeline collects them and every sentence, table cell, chart label and JSON field that
states a check's outcome is formatted from the record (:mod:`netbenefit.model.explain`,
:mod:`netbenefit.labels`): nothing calls a rule or reads a parameter again to write about it. A
:class:`Comparison` carries the values as the rule compared them and whether its requirement held
(the relative tolerance of 71(a)(5) included), so that the relation written between the two numbers
is the one that is true of them.

Over variants (a sweep, a Monte Carlo run) a record holds arrays, one value per variant (shape
``(n, 1)``), as the rules compute them; :meth:`Decision.variant` gives one variant's record, with
plain numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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

    value: Any  # float, or an array over variants
    limit: Any
    requirement: str  # at_least | more_than | at_most | less_than
    holds: Any  # bool, or an array over variants
    unit: str = "ratio"  # how its numbers are written: ratio (a multiple, as a percent) | share | jobs | usd
    what: Any = ""
    clause: Any = ""  # str, or an array of str over variants (a clause that depends on a variant's inputs)
    #: Whether the rule made this comparison (bool, or an array over variants): the retained jobs of
    #: 71(a)(2) are compared only where they decide. :meth:`Decision.variant` leaves out one not made.
    applies: Any = True

    @property
    def relation(self) -> str:
        """The relation true of ``value`` and ``limit`` as the rule decided: ``>=`` or ``<`` for
        an "at least" requirement, ``>`` or ``<=`` for "more than"."""
        return _RELATIONS[(self.requirement, bool(self.holds))]

    @property
    def margin(self) -> float:
        """``value - limit`` (for a ratio, in multiples: 0.0159 is 1.59 percentage points)."""
        return float(self.value) - float(self.limit)

    def variant(self, index: int = 0) -> Comparison:
        """The comparison of one variant, with plain numbers."""
        return Comparison(
            *(one_variant(getattr(self, name), index) for name in ("value", "limit")),
            self.requirement,
            bool(one_variant(self.holds, index)),
            self.unit,
            one_variant(self.what, index),
            one_variant(self.clause, index),
            bool(one_variant(self.applies, index)),
        )

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


def one_variant(value: Any, index: int = 0) -> Any:
    """One variant's value of a record's field: element ``index`` of an array over variants (its
    first where the array holds one value for every variant), as a plain Python value; a tuple,
    list or mapping element by element; anything else as it is."""
    if isinstance(value, np.ndarray):
        item = value.flat[index if value.size > 1 else 0]
        return item.item() if isinstance(item, np.generic) else item
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple([one_variant(item, index) for item in value])
    if isinstance(value, list):
        return [one_variant(item, index) for item in value]
    if isinstance(value, Mapping):
        return {key: one_variant(item, index) for key, item in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Decision:
    """A check as decided: its id (``71(a)(5)``), whether it passed, the comparisons it made (none
    for an attestation) and the index of the one that decided (``None`` where none did; over
    variants an array, -1 where none did).

    ``facts`` holds what else the rule read to decide, by name, so that its sentence is written from
    the record: the terms of a limit (each portion's rate of 71(b)(1)), a condition's parts (the
    exemptions of 71(a)(8)), the limits of the comparisons it did not report (the retained-job
    minimums of 71(c)(1)(d)-(f)). The JSON gives the comparisons, not the facts.
    """

    id: str
    passed: Any
    comparisons: tuple[Comparison, ...] = ()
    deciding: Any = None
    facts: Mapping[str, Any] = field(default_factory=dict)

    def variant(self, index: int = 0) -> Decision:
        """The record of one variant (plain numbers; comparisons not made for it left out)."""
        every = [comparison.variant(index) for comparison in self.comparisons]
        kept = [k for k, comparison in enumerate(every) if comparison.applies]
        deciding = one_variant(self.deciding, index)
        deciding = kept.index(deciding) if deciding is not None and deciding in kept else None
        return Decision(
            self.id,
            bool(one_variant(self.passed, index)),
            tuple(every[k] for k in kept),
            deciding,
            one_variant(dict(self.facts), index),
        )

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
