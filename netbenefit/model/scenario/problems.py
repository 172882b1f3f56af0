"""How a validation problem reads: every problem of a scenario file, one line each (``file: key:
problem``), as one ScenarioError, with the fix where it helps ("did you mean 0.3?")."""

from __future__ import annotations

import difflib
import functools
import reprlib
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Union

from pydantic import BaseModel, ValidationError

from ...errors import ScenarioError
from ...law.parameters import parameter
from .fields import Block
from .limits import MAX_PROBLEMS_LISTED, MAX_YEARS
from .shared import NOT_SHAREABLE

_PROBLEMS = {
    "missing": "required key is missing",
    "extra_forbidden": "unknown key",
    "finite_number": "must be a finite number (not NaN or infinity)",
    "model_type": "must be a mapping of keys to values",
    "model_attributes_type": "must be a mapping of keys to values",
    "dict_type": "must be a mapping of keys to values",
    "mapping_type": "must be a mapping of keys to values",
    "tuple_type": "must be a list",
    "list_type": "must be a list",
    "bool_type": "must be true or false",
    "string_type": "must be text",
    "string_unicode": "must not hold a lone surrogate, which no UTF-8 file can hold",  # netbenefit.io.text_rule
    "int_type": "must be a whole number",
    "float_type": "must be a number",
    "date_type": "must be a date (YYYY-MM-DD)",
    "date_from_datetime_parsing": "must be a date (YYYY-MM-DD)",
    "date_from_datetime_inexact": "must be a date (YYYY-MM-DD), without a time",
    "date_parsing": "must be a date (YYYY-MM-DD)",
}


#: Keys a block's own rule reads before its fields are validated (``phases.N.starts_in_year``, read
#: into ``start_year``): a problem of the rule that begins ``key: `` names that key.
SUB_KEYS = ("starts_in_year",)

_SHOWN_CHARACTERS = 60  # not a statutory number: longest value quoted in an error message
_REPR = reprlib.Repr()  # bounded: a value may be a huge or deeply nested structure
_REPR.maxlevel, _REPR.maxstring = 3, _SHOWN_CHARACTERS
_REPR.maxlong = _REPR.maxother = _SHOWN_CHARACTERS


def short_repr(value: Any) -> str:
    """``value`` as an error message quotes it: its repr, at most 60 characters however large it is."""
    text = _REPR.repr(value)
    return text if len(text) <= _SHOWN_CHARACTERS else text[: _SHOWN_CHARACTERS - 3] + "..."


def scenario_error(error: ValidationError, source: str, model: type[BaseModel] | None = None) -> ScenarioError:
    """Every validation problem, one line each (``file: key: problem``), as one ScenarioError.

    ``model`` is the validated model, whose keys are offered for an unknown key ("did you mean
    ...?"); None offers none.
    """
    return error_of(source, problem_list(error, model))


def problem_list(error: ValidationError, model: type[BaseModel] | None = None) -> list[tuple[str, str]]:
    """``(dotted key, problem)`` of every validation problem of ``error``, in the file's order."""
    items = _without_union_tags(error.errors(include_url=False))
    # A list whose item failed is also reported "too short" by pydantic: that line adds nothing.
    inner = [tuple(item["loc"]) for item in items]

    def redundant(item: Mapping[str, Any]) -> bool:
        loc = tuple(item["loc"])
        return item["type"] == "too_short" and any(other[: len(loc)] == loc != other for other in inner)

    return [_problem(item, model) for item in items if not redundant(item)]


def error_of(source: str, problems: list[tuple[str, str]]) -> ScenarioError:
    """One ScenarioError listing ``problems`` (at most MAX_PROBLEMS_LISTED, then how many more),
    each problem once."""
    problems = list(dict.fromkeys(problems))
    shown = problems[:MAX_PROBLEMS_LISTED]
    if len(problems) > MAX_PROBLEMS_LISTED:
        shown.append(("", f"(and {len(problems) - MAX_PROBLEMS_LISTED:,} more problems)"))
    (key, problem), *more = shown
    return ScenarioError(source, key, problem, more=more)


def _problem(item: Mapping[str, Any], model: type[BaseModel] | None) -> tuple[str, str]:
    """(dotted key, problem) for one pydantic error."""
    loc = [str(part) for part in item["loc"]]
    kind = item["type"]
    if loc and loc[-1] == "[key]":  # a bad key of a year mapping
        # amounts' years count from 0, the approval year (docs/model.md#timeline); a recapture table
        # counts whole years maintained, from 0
        return ".".join(loc[:-2] + [loc[-2]]), f"year keys must be whole numbers >= 0 and <= {MAX_YEARS}"
    key = ".".join(loc)
    problem = _PROBLEMS.get(kind)
    if problem is None:
        message = item["msg"].removeprefix("Value error, ").replace("Input should be", "must be")
        problem = message[:1].lower() + message[1:]
        sub_key, _, rest = problem.partition(": ")
        if kind == "value_error" and (sub_key in SUB_KEYS or sub_key.isdigit()) and rest:  # a key or item of it
            key, problem = ".".join([*loc, sub_key]), rest
    if kind == "extra_forbidden":
        if len(loc) >= 2 and loc[-2] == "commitment" and "phases" in loc:
            problem += (
                " (a phase's commitment sets period_years and period_set_by_authority only; "
                "extended_years is the project's)"
            )
        elif model is not None:
            problem += _closest_key(model, loc)
    if kind == "less_than_equal" and loc and loc[-1] == "eligibility_period_years":
        problem = (
            f"at most {parameter('eligibility_period_years_maximum')} years (the eligibility period of "
            "P.L.2020, c.156, s.69, C.34:1B-337, as the authority states it)"
        )
    if kind == "literal_error" and key == "revenue.income_tax":
        problem += " or a block with method: brackets or effective_rate"
    if kind == "literal_error" and loc[:1] == ["shared"]:
        problem = f"cannot be shared: {problem} ({NOT_SHAREABLE})"
    if kind == "literal_error" and key.endswith("commitment.recapture"):
        problem += " or a table of the shares recaptured by whole years maintained (e.g. {0: 1.0, 5: 0.5})"
    value = item.get("input")
    bound = (item.get("ctx") or {}).get("le", (item.get("ctx") or {}).get("lt"))
    if kind == "less_than_equal" and bound == 1 and isinstance(value, int | float):
        # A Share: the commonest slip is a percent written for a decimal share (30 for 0.3).
        problem = f"must be a decimal share from 0 to 1 (got {short_repr(value)})"
        if 1 < value <= 100:
            problem = f"must be a decimal share: did you mean {value / 100:.10g}? (got {short_repr(value)}, above 1)"
    elif (
        kind in ("less_than_equal", "less_than")
        and _decimal_key(model, loc)
        and _percent_of(value, bound, kind == "less_than_equal")
    ):
        # A rate with a bound other than 1 (wage_dispersion <= 3): the same slip, 45 for 0.45.
        problem += f" (got {short_repr(value)}); did you mean {value / 100:.10g}? (a percent written for a decimal)"
    elif kind == "string_type" and loc[-1:] == ["naics"] and type(value) is int:  # an unquoted code in YAML
        problem = f"must be text: write it in quotes: '{value}' (a NAICS code is a code, not a number)"
    elif kind not in ("missing", "extra_forbidden") and not (kind == "value_error" and isinstance(value, Mapping)):
        problem += f" (got {short_repr(value)})"  # a rule of a whole block (a phase) names its keys itself
    return key, problem


def _percent_of(value: Any, bound: Any, inclusive: bool) -> bool:
    """Whether ``value``, above a rate's small ``bound`` (at most 10), is inside it once divided by 100."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not isinstance(bound, int | float):
        return False
    if not -1e15 < value < 1e15:  # not a statutory number: far beyond any percent (and any float)
        return False
    small_bound = 0 < bound <= 10  # not a statutory number: bounds of shares, rates and multiples
    return small_bound and value > bound and (value / 100 <= bound if inclusive else value / 100 < bound)


def _decimal_key(model: type[BaseModel] | None, loc: list[str]) -> bool:
    """Whether the key at ``loc`` holds a decimal (a rate, a share, a multiple), where a percent
    written for a decimal is a possible slip; never a whole number (years, counts). Without a model
    to read the key's type from, a decimal."""
    if model is None:
        return True
    annotation: Any = model
    for segment in loc:
        annotation = bare_annotation(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(segment)
            if field is None:
                return True
            annotation = field.annotation
        elif typing.get_origin(annotation) is tuple and segment.isdigit():
            annotation = typing.get_args(annotation)[0]
        else:
            return True
    return bare_annotation(annotation) is not int


def _closest_key(model: type[BaseModel], loc: list[str]) -> str:
    """``"; did you mean X?"`` naming the known key closest to the unknown ``loc[-1]`` (difflib)."""
    annotation: Any = model
    for segment in loc[:-1]:
        annotation = bare_annotation(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(segment)
            if field is None:
                return ""
            annotation = field.annotation
        elif typing.get_origin(annotation) is tuple and segment.isdigit():
            annotation = typing.get_args(annotation)[0]
        else:
            return ""
    annotation = bare_annotation(annotation)
    if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
        return ""
    known = list(annotation.model_fields)
    close = difflib.get_close_matches(loc[-1], known, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]}?"
    return f"; the keys here are {', '.join(known)}"


def bare_annotation(annotation: Any, *, block_of_choice: bool = False) -> Any:
    """``annotation`` without ``Annotated[...]`` and ``... | None``; with ``block_of_choice``, a
    choice among several types that holds one block (a model) is that block."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin is Union or origin is types.UnionType:
            options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            blocks = [arg for arg in options if isinstance(arg, type) and issubclass(arg, BaseModel)]
            if len(options) == 1:
                annotation = options[0]
            elif block_of_choice and len(blocks) == 1:
                annotation = blocks[0]
            else:
                return annotation
        else:
            return annotation


def _union_tag_positions(loc: tuple, kind: str = "") -> set[int]:
    """Positions in an error location of the segments that name a member of a union (pydantic's
    tags: ``literal['pro_rata','all','none']``, ``function-after[...]``, ``IncomeTax``), not a key
    of the format. A key the author wrote (a mapping's key, before ``[key]``; an unknown key) is
    never taken for one."""
    positions = set()
    for i, part in enumerate(loc):
        if i == 0 or not isinstance(part, str) or part == "[key]":
            continue
        if i + 1 < len(loc) and loc[i + 1] == "[key]":
            continue
        if kind == "extra_forbidden" and i == len(loc) - 1:
            continue
        if "[" in part or part in _model_names():
            positions.add(i)
    return positions


def _is_choice_error(error: Mapping[str, Any]) -> bool:
    return any(str(error["loc"][i]).startswith("literal[") for i in _union_tag_positions(error["loc"], error["type"]))


def _without_union_tags(errors: Sequence[Mapping[str, Any]]) -> list[dict]:
    """Errors of a choice-or-block key (``revenue.income_tax: progressive`` or a block): when the
    value is a mapping, the block's errors only, with the members' names taken out of the keys."""
    choice_errors = [e for e in errors if _is_choice_error(e)]
    chosen = errors
    if choice_errors:
        others = [e for e in errors if e not in choice_errors]
        if isinstance(choice_errors[0].get("input"), Mapping):  # a block was meant: its own errors
            chosen = others or errors
        else:  # a value was meant: the choice's error (must be 'progressive')
            chosen = choice_errors + [e for e in others if not _union_tag_positions(e["loc"], e["type"])]
    return [
        {
            **e,
            "loc": tuple(
                part for i, part in enumerate(e["loc"]) if i not in _union_tag_positions(e["loc"], e["type"])
            ),
        }
        for e in chosen
    ]


@functools.cache
def _model_names() -> frozenset[str]:
    """The names of the scenario's blocks, which pydantic gives the members of a union in error
    locations (read once, when the first problem is told: every block is defined by then)."""
    return frozenset(model.__name__ for model in Block.__subclasses__()) | {"Scenario"}
