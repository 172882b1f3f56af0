"""A scenario file read as far as it is valid, so that the rules across keys
(:mod:`netbenefit.model.scenario.rules`) are checked in the same run as the problems of single keys.

:func:`partial` validates a block whole where it can; where it cannot, each of its keys on its own,
going down into the blocks that hold a problem. A key whose value is not valid (or that is
missing and required) reads :data:`INVALID`, which every rule takes as "not known": a rule that
needs it says nothing, so that no line reports a consequence of a problem already listed.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from .problems import bare_annotation


class _Invalid:
    """A value that is not valid: every key inside it is not valid either, it holds no items."""

    def __getattr__(self, name: str) -> _Invalid:
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "INVALID"


#: What a key reads in a partial scenario when its value is not valid.
INVALID: Any = _Invalid()


class Partial(types.SimpleNamespace):
    """A block read key by key: each attribute its valid value or :data:`INVALID`."""


def known(*values: Any) -> bool:
    """Whether none of ``values`` is :data:`INVALID`."""
    return not any(value is INVALID for value in values)


def partial(model: type[BaseModel], raw: Any) -> Any:
    """``model`` validated from ``raw``; where that fails, a :class:`Partial` of its keys (each
    valid value, its default where it is left out, :data:`INVALID` otherwise)."""
    try:
        return model.model_validate(raw)
    except ValidationError:
        pass
    if not isinstance(raw, Mapping):
        return INVALID
    values = {}
    for name, field in model.model_fields.items():
        if name in raw:
            values[name] = _value(_annotation(model, name), raw[name])
        elif field.is_required():
            values[name] = INVALID
        else:
            values[name] = field.get_default(call_default_factory=True)
    return Partial(**values)


@functools.cache
def _annotation(model: type[BaseModel], name: str) -> Any:
    field = model.model_fields[name]
    return Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation


@functools.cache
def _adapter(annotation: Any) -> TypeAdapter:
    return TypeAdapter(annotation)


def _value(annotation: Any, raw: Any) -> Any:
    try:
        return _adapter(annotation).validate_python(raw)
    except ValidationError:
        pass
    except Exception:  # pragma: no cover - an annotation pydantic cannot adapt alone
        return INVALID
    inner = bare_annotation(annotation, block_of_choice=True)
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        return partial(inner, raw)
    if typing.get_origin(inner) is tuple:
        item = bare_annotation(typing.get_args(inner)[0], block_of_choice=True)
        if isinstance(item, type) and issubclass(item, BaseModel) and isinstance(raw, list | tuple):
            return tuple(partial(item, value) for value in raw)
    return INVALID
