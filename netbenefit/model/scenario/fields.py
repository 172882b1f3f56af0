"""The field types of the v1 scenario format: amounts, counts, shares, flags, names, years and
amounts by year, and :class:`Block`, the base of every block of a scenario file."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, Strict

from ...io.text_rule import no_control_characters
from .limits import MAX_YEARS

Money = Annotated[float, Strict(), Field(ge=0)]  # [USD, nominal]
Count = Annotated[float, Strict(), Field(ge=0)]  # full-time jobs, square feet
Share = Annotated[float, Strict(), Field(ge=0, le=1)]  # a decimal share, 0.3 not 30
Flag = Annotated[bool, Strict()]
Text = Annotated[str, Strict()]


def _sequence(value: Any) -> Any:
    """A list must be a list (a YAML sequence): a set has no order, a mapping is not a list."""
    if isinstance(value, set | frozenset):
        raise ValueError("must be a list (a YAML sequence of '- ' items), not a set: a set has no order")
    return value


#: A list of items (portions, ramp shares, streams, phases, bonuses): a YAML sequence, never a set.
Items = BeforeValidator(_sequence)


def unique_items(items: tuple) -> tuple:
    """A list whose items are distinct (``shared``): an item given again is named by its place
    (``shared.1: jobs.median_salary is listed twice``). The JSON Schema says it as ``uniqueItems``."""
    for i, item in enumerate(items):
        if item in items[:i]:
            raise ValueError(f"{i}: {item} is listed twice")
    return items


#: A list of distinct items (:func:`unique_items`).
UniqueItems = AfterValidator(unique_items)
#: A name (of the scenario, a phase, a stream or a bonus): text of one character or more, printable.
Name = Annotated[str, Strict(), Field(min_length=1), AfterValidator(no_control_characters)]
YearKey = Annotated[int, Strict(), Field(ge=1, le=MAX_YEARS)]  # project (or phase) year, 1 = first year
YearCount = Annotated[int, Strict(), Field(ge=0, le=MAX_YEARS)]
#: A year of an amount: 0 is the approval year (docs/model.md#timeline), 1 the first year after it.
AmountYear = Annotated[int, Strict(), Field(ge=0, le=MAX_YEARS)]
ByYear = Annotated[Mapping[AmountYear, Money], AfterValidator(MappingProxyType)]


def empty_by_year() -> Mapping[int, float]:
    """An empty, read-only mapping of amounts by year: the default of every such key."""
    return MappingProxyType({})


class Block(BaseModel):
    """A block of a scenario file: frozen; an unknown key, NaN or infinity is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
