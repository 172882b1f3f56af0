"""A workbook's cells as a scenario file's plain data (:mod:`netbenefit.model.scenario.from_workbook`):
a cell's value typed as its key's declared type reads it, compared with the key's default, and
put at its dotted key; the items by position made lists again, by the types the blocks declare."""

from __future__ import annotations

import datetime as dt
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from .paths import MISSING
from .problems import bare_annotation
from .workbook_form import unguarded


def empty(problem: str) -> str:
    """A validation problem of an empty cell, said so (pydantic says ``(got None)``)."""
    return problem.replace("(got None)", "(the cell is empty)")


def is_formula(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("=")


def csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return unguarded(value) if isinstance(value, str) else str(value)


def typed(value: Any, annotation: Any) -> Any:
    """A cell's value as the key's type reads it: a text without its guard, a date without its
    (midnight) time, a whole number where a whole number is asked, a number typed where a text
    is asked (a NAICS code, a name) as its text. Anything else is left for validation to judge."""
    if isinstance(value, str):
        return unguarded(value)
    if isinstance(value, dt.datetime) and value.time() == dt.time(0) and annotation is dt.date:
        return value.date()
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if annotation is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if annotation is str and float(value).is_integer():
        return str(int(value))
    return value


def same(value: Any, default: Any) -> bool:
    """Whether a cell's value is the key's default (a flag is never a number, as in a file)."""
    if isinstance(value, bool) != isinstance(default, bool):
        return False
    return bool(value == default)


def key_field(root: Any, segments: list[str]) -> tuple[Any, Any]:
    """(the bare type, the default) of the key ``segments`` of ``root`` (the class of a scenario), as
    its blocks declare them; (None, MISSING) where the key has no declared type, MISSING where it
    has no default."""
    annotation: Any = root
    default: Any = MISSING
    for segment in segments:
        bare = bare_annotation(annotation, block_of_choice=True)
        origin = typing.get_origin(bare)
        if isinstance(bare, type) and issubclass(bare, BaseModel):
            field = bare.model_fields.get(segment)
            if field is None:
                return None, MISSING
            annotation = field.annotation
            default = MISSING if field.is_required() else field.get_default(call_default_factory=True)
        elif origin is tuple and segment.isdigit():
            annotation, default = typing.get_args(bare)[0], MISSING
        elif isinstance(origin, type) and issubclass(origin, Mapping) and len(typing.get_args(bare)) == 2:
            annotation, default = typing.get_args(bare)[1], MISSING
        else:
            return None, MISSING
    return bare_annotation(annotation), default


def _segment(segment: str) -> Any:
    return int(segment) if segment.isdigit() else segment


def parents(data: dict, segments: list[str]) -> None:
    """The blocks and items that hold the key ``segments``, made where missing."""
    node = data
    for segment in segments[:-1]:
        node = node.setdefault(_segment(segment), {})


def put(data: dict, segments: list[str], value: Any) -> None:
    node = data
    for segment in segments[:-1]:
        node = node.setdefault(_segment(segment), {})
    node[_segment(segments[-1])] = value


def listed(node: Any, annotation: Any) -> Any:
    """``node`` with the mappings that stand for lists (items by position) made lists, by the types
    the blocks declare."""
    bare = bare_annotation(annotation, block_of_choice=True)
    if not isinstance(node, dict):
        return node
    if isinstance(bare, type) and issubclass(bare, BaseModel):
        return {
            key: listed(value, bare.model_fields[key].annotation) if key in bare.model_fields else value
            for key, value in node.items()
        }
    if typing.get_origin(bare) is tuple and all(isinstance(key, int) for key in node):
        item = typing.get_args(bare)[0]
        return [listed(node.get(k, {}), item) for k in range(max(node, default=-1) + 1)]
    return node
