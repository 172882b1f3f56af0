"""Error keys: every key an error names is a key of the format (no pydantic
union tag such as ``literal['pro_rata','all','none']``), for every union field; ``recapture: {}``
refused."""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any, Literal, Union

import pytest
from pydantic import BaseModel
from support import base_scenario_dict, with_changes

from netbenefit import ScenarioError
from netbenefit.model.scenario import Scenario


def _members(annotation: Any) -> list[Any]:
    """The members of a union (Annotated and None taken out); one item for a plain type."""
    while typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (Union, types.UnionType):
        return [m for arg in typing.get_args(annotation) for m in _members(arg) if m is not type(None)]
    return [annotation]


def union_fields(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Every key of the format whose value may be one of several kinds (a choice or a block...)."""
    found = []
    for name, field in model.model_fields.items():
        members = _members(field.annotation)
        kinds = {typing.get_origin(m) or m for m in members}
        if len(kinds) > 1 and not kinds <= {int, float}:
            found.append(prefix + name)
        for member in members:
            if typing.get_origin(member) is tuple:
                member = _members(typing.get_args(member)[0])[0]
                if isinstance(member, type) and issubclass(member, BaseModel):
                    found += union_fields(member, f"{prefix}{name}.0.")
            elif isinstance(member, type) and issubclass(member, BaseModel):
                found += union_fields(member, f"{prefix}{name}.")
    return sorted(set(found))


UNIONS = union_fields(Scenario)
#: Values of every kind, each wrong for a union field: text, numbers, lists, mappings of each kind.
WRONG = ["bogus", 5, 2.5, True, [1], {}, {0: 2.0}, {"x": 0.5}, {0: "a"}, {"method": "nope"}, {"rate": 5}]


def test_the_union_fields_are_found():
    assert "commitment.recapture" in UNIONS and "revenue.income_tax" in UNIONS


def _context(key: str) -> dict:
    data = base_scenario_dict()
    if key.startswith("revenue."):
        data = with_changes(data, {"revenue": {}, "jobs.median_salary": 50000})
    return data


@pytest.mark.parametrize("key", UNIONS)
@pytest.mark.parametrize("value", WRONG, ids=repr)
def test_every_error_key_of_a_union_field_is_a_key_of_the_format(key, value):
    # Was: commitment.recapture.literal['pro_rata','all','none']: ... and a second line keyed
    # commitment.recapture.function-after[mappingproxy(), dict[constrained-int,constrained-float]].
    try:
        Scenario.from_dict(with_changes(_context(key), {key: value}))
    except ScenarioError as error:
        keys = [line_key for line_key, _ in error.problems]
        for found in keys:
            assert "[" not in found and "-after" not in found, error
            assert not any(part[:1].isupper() for part in found.split(".")), error  # no class name
            assert found == key or found.startswith(key + "."), error
        if not isinstance(value, dict):  # a value of another kind: one line, the choice's
            assert len(error.lines) == 1, error


def test_an_empty_recapture_table_is_refused():
    # Was: recapture: {} silently meant "all".
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(with_changes(base_scenario_dict(), {"commitment.recapture": {}}))
    assert caught.value.key == "commitment.recapture" and "empty table" in caught.value.problem


def test_a_recapture_table_keeps_year_zero():
    scenario = Scenario.from_dict(with_changes(base_scenario_dict(), {"commitment.recapture": {0: 1.0, 5: 0.5}}))
    assert dict(scenario.commitment.recapture) == {0: 1.0, 5: 0.5}


@pytest.mark.parametrize("key", ["commitment.recapture", "revenue.income_tax"])
def test_an_unknown_key_in_a_union_block_keeps_its_name(key):
    value = {"Weird[key": 1} if key == "commitment.recapture" else {"method": "brackets", "Weird[key": 1}
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(with_changes(_context(key), {key: value}))
    assert "Weird[key" in str(caught.value)


def test_literal_is_not_a_kind_of_the_test():
    assert Literal["a"] not in UNIONS  # (the helper treats a Literal as one kind)
