"""The inputs that differ between two scenarios, and how a summary shows each side of one: the
plain values compared key by key (:func:`changed_inputs`) and written so that two different values
never read the same (:func:`shown_pair`). :mod:`netbenefit.analysis.diff` reads them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from ..model.scenario import Scenario

_THOUSANDS = 1000  # not a statutory number: numbers from here on are shown with thousands separators


def changed_inputs(a: Scenario, b: Scenario) -> list[tuple[str, Any, Any]]:
    """``(dotted key, value in a, value in b)`` for each input that differs, in file order.

    Blocks are compared key by key, lists item by item when both have as many items, and year
    mappings year by year when both give the same years; otherwise the whole block, list or
    mapping is one changed input (``phases``, ``capital_investment``, ``revenue``).
    """
    out: list[tuple[str, Any, Any]] = []
    _compare(a.to_dict(), b.to_dict(), [], out)
    return out


def _compare(old: Any, new: Any, path: list[str], out: list) -> None:
    if isinstance(old, dict) and isinstance(new, dict) and set(old) == set(new):
        for key in old:
            _compare(old[key], new[key], [*path, str(key)], out)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (x, y) in enumerate(zip(old, new, strict=True)):
            _compare(x, y, [*path, str(i)], out)
    elif not _same(old, new):
        out.append((".".join(path), old, new))


def _same(old: Any, new: Any) -> bool:
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    return old == new


def json_value(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_value(item) for item in value]
    return value


def money_change(value: float) -> str:
    return f"{'-' if value < 0 else '+'}${abs(value):,.0f}"


#: The longest text the summary shows of one side of a changed input. [characters]
SHOWN_TEXT = 80


def _shown(value: Any) -> str:
    if value is None:
        return "(not given)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) >= _THOUSANDS:
        return f"{value:,.0f}"
    if isinstance(value, int | float):
        return f"{value:g}" if abs(value) < _THOUSANDS else f"{value:,}"
    return str(json_value(value))


def shown_pair(old: Any, new: Any, width: int = SHOWN_TEXT) -> tuple[str, str]:
    """The two sides of a changed input as the summary shows them: each whole where it fits in
    ``width`` characters; else cut around the first place where they differ ("..." marking what is
    left out), so that two different values never read the same.

    >>> shown_pair("a" * 100 + "X", "a" * 100 + "Y", 20)
    ('...aaaaaaaaaaaaaaaaX', '...aaaaaaaaaaaaaaaaY')
    >>> shown_pair("X" + "a" * 100, "Y" + "a" * 100, 20)
    ('Xaaaaaaaaaaaaaaaa...', 'Yaaaaaaaaaaaaaaaa...')
    """
    texts = [_shown(old), _shown(new)]
    if all(len(text) <= width for text in texts):
        return texts[0], texts[1]
    first = next((i for i, (x, y) in enumerate(zip(*texts, strict=False)) if x != y), min(map(len, texts)))
    start = max(0, min(first - width // 2, max(map(len, texts)) - width + 3))
    out = []
    for text in texts:
        part = text[start : start + width - (3 if start else 0) - (3 if len(text) - start > width else 0)]
        out.append(("..." if start else "") + part + ("..." if start + len(part) < len(text) else ""))
    return out[0], out[1]
