"""Plain data and dotted key paths: a scenario as the plain data a file holds, the value at a
key path (``phases.0.jobs.new``), a value set at one, and the name :meth:`Scenario.replace` gives
a variant."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ... import labels
from ...errors import ScenarioError
from .blocks import Stream
from .problems import short_repr
from .shared import covered

if TYPE_CHECKING:
    from .format import Scenario

#: What :func:`child` gives for a segment the node does not have.
MISSING = object()


def plain(value: Any) -> Any:
    """``value`` (a block, a read-only mapping, a tuple) as the plain data a file holds: dicts and
    lists; a stream read from CSV is given by its values (``by_year``), not its file."""
    if isinstance(value, BaseModel):
        out = {name: plain(getattr(value, name)) for name in type(value).model_fields}
        if isinstance(value, Stream):
            out.pop("from_csv")
        return out
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):  # an array or a numpy number
        return plain(value.tolist())
    return value


def child(node: Any, segment: str) -> Any:
    """The value at one segment of a dotted key path inside ``node`` (a block, a mapping, a list),
    or :data:`MISSING`."""
    if isinstance(node, BaseModel):
        return getattr(node, segment, MISSING) if segment in type(node).model_fields else MISSING
    if isinstance(node, Mapping):
        key: Any = int(segment) if segment.isdigit() else segment
        return node.get(key, MISSING)
    if isinstance(node, list | tuple):
        if segment.isdigit() and int(segment) < len(node):
            return node[int(segment)]
    return MISSING


def at_path(node: Any, key: str | list[str], missing: Any = MISSING) -> Any:
    """The value at the dotted ``key`` (or its segments) inside ``node``, a scenario, a block or
    the plain data of a file, each segment read by :func:`child`; ``missing`` where there is none.

    The one reader of a dotted key: :meth:`Scenario.value_at`, the plausibility checks, the
    model's values (``cashflows.inputs``) and the variable keys (``analysis.keys.key_spec``) all
    read through it.
    """
    for segment in key.split(".") if isinstance(key, str) else key:
        node = child(node, segment)
        if node is MISSING:
            return missing
    return node


def set_path(data: dict, key: str, value: Any, source: str) -> None:
    """Set ``value`` at the dotted ``key`` of the plain ``data``, making the mappings on the way;
    a ScenarioError names a path that cannot be set."""
    if not isinstance(key, str) or not key:
        raise ScenarioError(source, repr(key), "a key is a dotted path of text, such as 'jobs.new'")
    segments = key.split(".")
    node: Any = data
    for depth, segment in enumerate(segments):
        last = depth == len(segments) - 1
        where = ".".join(segments[: depth + 1])
        if isinstance(node, list):
            if not segment.isdigit() or int(segment) >= len(node):
                raise ScenarioError(source, where, f"no item {segment} in this list of {len(node)}")
            index: Any = int(segment)
        elif isinstance(node, dict):
            index = int(segment) if segment.isdigit() else segment
        else:
            raise ScenarioError(source, where, "cannot set a key inside a value that is not a mapping or list")
        if last:
            node[index] = value
        else:
            if isinstance(node, dict) and (index not in node or node[index] is None):
                node[index] = {}
            node = node[index]


def variant_name(name: str, changes: Mapping[str, Any]) -> str:
    """``name (key=value, ...)``: the name :meth:`Scenario.replace` gives a variant."""
    shown = ", ".join(f"{key}={_short_value(value)}" for key, value in changes.items())
    return f"{name} ({shown})"


def _short_value(value: Any) -> str:
    """A value as a name shows it: 0.04, 200, true, 2026-06-01, or a shortened list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, int | float | str | dt.date):
        return str(value)
    return short_repr(plain(value))


#: Top-level keys that are the initial phase's own (a later phase has its own of each).
_PHASE_OWN = re.compile(
    r"^(jobs|award|capital_investment|streams)(\.|$)|^commitment\.period_(years|set_by_authority)$"
    r"|^facility\.accommodates_share$"
)


def phase_of(scenario: Scenario, key: str) -> str:
    """The phase a key belongs to, in words: ``"phase 1"`` for the initial phase's own keys of a
    phased project (``jobs.new``), ``"phase 2"`` for ``phases.0...``, ``"every phase"`` for a key the
    phases share (``shared``), and ``""`` for a project-wide key or a project of one phase."""
    if not scenario.phases:
        return ""
    match = re.match(r"^phases\.(\d+)\.", key)
    if match:
        return f"phase {int(match.group(1)) + 2}"
    if key in covered(scenario.shared):
        return "every phase"
    return "phase 1" if _PHASE_OWN.match(key) else ""


def key_label(scenario: Scenario, key: str, *, short: bool = False) -> str:
    """A key in words with its unit (``short``: without it), and its phase in a phased project, in
    the one wording every view uses (:func:`netbenefit.labels.positioned`): ``Phase 1: New
    full-time jobs [jobs]``, ``Every phase: Median salary [USD/year]``. The one label of a varied
    key in the tornado, sweep and Monte Carlo summaries and the explorer."""
    text = labels.short_label(key, default=key) if short else labels.label(key, default=key)
    phase = phase_of(scenario, key)
    if not phase or key.startswith("phases."):  # a later phase's key names its phase already
        return text
    return f"{phase[0].upper()}{phase[1:]}: {text}"
