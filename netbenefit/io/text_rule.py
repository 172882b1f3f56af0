"""The one rule for every text key of a file the tool reads: a scenario, an actual-results file,
a portfolio file, the files they name.

Names (of the scenario, a phase, a stream, a bonus), descriptions and paths are written to the
terminal, CSV files, the workbook, HTML and charts. None may hold a control character (a NUL, an
escape, a line break: Unicode category Cc), which a workbook cannot hold and a terminal would act
on, nor a lone surrogate (category Cs: ``"\\ud800"`` in a double-quoted YAML string), which no
UTF-8 file can hold, so every writer would fail on it, nor a bidirectional override or isolate
(U+202A-U+202E, U+2066-U+2069, :data:`BIDI_CONTROLS`), which reorders what a reader sees after it
in a terminal, a page and a workbook (a name that reads ``Party City`` while its text is another).
A description alone may hold line breaks and tabs. A value that breaks the rule is refused when
the file is read: one line naming the key.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Strict

#: The bidirectional overrides and isolates: LRE, RLE, PDF, LRO, RLO (U+202A-U+202E) and LRI,
#: RLI, FSI, PDI (U+2066-U+2069). Each changes the order in which the text after it is shown.
BIDI_CONTROLS = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
#: Every character the rule refuses, as ranges of code points (first, last): the control characters
#: (Unicode category Cc), the surrogates (Cs; only a lone one can reach a str) and
#: :data:`BIDI_CONTROLS`. The JSON Schema's text patterns are written from it
#: (:mod:`netbenefit.model.schema`); a test holds it to :func:`refused_character` on every code point.
REFUSED_RANGES = ((0x00, 0x1F), (0x7F, 0x9F), (0xD800, 0xDFFF), (0x202A, 0x202E), (0x2066, 0x2069))


def refused_character(text: str, allowed: str = "") -> str | None:
    """The problem with ``text`` under the rule (``allowed``: control characters it may hold), or None."""
    for char in text:
        if char in BIDI_CONTROLS:
            return (
                f"must not hold a bidirectional override or isolate (found \\u{ord(char):04x}), "
                "which reorders the text a reader sees"
            )
        kind = unicodedata.category(char)
        if kind in ("Cc", "Cs") and char not in allowed:
            shown = char.encode("unicode_escape", "backslashreplace").decode("ascii")
            if kind == "Cs":
                shown = f"\\u{ord(char):04x}"
                return f"must not hold a lone surrogate (found {shown}), which no UTF-8 file can hold"
            return f"must not hold a control character (found {shown})"
    return None


def no_control_characters(text: str) -> str:
    """A name or a path: no control character, no lone surrogate, no bidirectional override."""
    problem = refused_character(text)
    if problem is not None:
        raise ValueError(problem)
    return text


#: Control characters a description may hold: line breaks and tabs.
DESCRIPTION_ALLOWS = "\n\r\t"


def description_text(text: str) -> str:
    """A description: line breaks and tabs allowed, no other control character, no lone surrogate,
    no bidirectional override."""
    problem = refused_character(text, DESCRIPTION_ALLOWS)
    if problem is not None:
        raise ValueError(problem)
    return text


#: Text of one line (a path, a name that may be empty).
Line = Annotated[str, Strict(), AfterValidator(no_control_characters)]
#: Text of several lines (a description).
Prose = Annotated[str, Strict(), AfterValidator(description_text)]
