"""The JSON Schema of a scenario file, for editors that validate YAML as it is typed.

:func:`scenario_schema` is generated from the scenario model itself (``Scenario``, through
pydantic's ``model_json_schema`` with :class:`_ScenarioSchema`), so that it holds, on every rule
JSON Schema can express, exactly what the loader holds:

- types, ranges and required keys, as pydantic writes them;
- the text rule (:mod:`netbenefit.io.text_rule`): a name or a path holds no control character, no
  lone surrogate and no bidirectional override or isolate, a description none of them but line
  breaks and tabs (a ``pattern`` written from the rule's own ranges, found from the validator of
  the field);
- a list of distinct items (``shared``): ``uniqueItems``, found from the validator of the field;
- year keys (``capital_investment``, a stream's ``by_year``, a recapture table): whole numbers in
  their range, as ``propertyNames``; a recapture table is not empty (``minProperties``);
- a date is a date, or a date and time at midnight (which the loader reads as that date);
- a phase gives ``start_year`` or ``starts_in_year`` (1 to 1,000), exactly one of them, and its
  years by year start at 1.

The rules across several keys are checked on load only; the schema's description lists them
(:data:`CROSS_KEY_RULES`). ``netbenefit schema`` writes it. With the YAML language server (VS
Code, vim, emacs), a first line ``# yaml-language-server: $schema=scenario.schema.json`` in a
scenario file makes the editor flag an unknown key, a share above 1 or a missing required key
while it is typed. ``tests/fuzz/test_schema_agrees_with_the_loader.py`` holds the schema to
the loader on generated and bundled files.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic.json_schema import GenerateJsonSchema

from ..io.text_rule import DESCRIPTION_ALLOWS, REFUSED_RANGES, description_text, no_control_characters
from .scenario import Scenario, blocks
from .scenario.fields import unique_items
from .scenario.limits import MAX_YEARS

#: The JSON Schema draft pydantic writes.
DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: The end of the text, in every regular expression engine (``$`` also matches before a last line
#: break in Python's and others').
END = "(?![\\s\\S])"


def refused_class(allowed: str = "") -> str:
    """The characters the text rule refuses (:data:`netbenefit.io.text_rule.REFUSED_RANGES`) but
    ``allowed``, as the body of an ECMA-262 character class (``\\u0000-\\u0008``...)."""
    kept = sorted(ord(char) for char in allowed)
    parts = []
    for first, last in REFUSED_RANGES:
        start = first
        for code in [*(k for k in kept if first <= k <= last), last + 1]:
            if start <= code - 1:
                end = code - 1
                parts.append(f"\\u{start:04x}" if start == end else f"\\u{start:04x}-\\u{end:04x}")
            start = code + 1
    return "".join(parts)


#: Text under the text rule: no control character (Unicode category Cc), no lone surrogate, no
#: bidirectional override or isolate. [ECMA-262 pattern]
LINE_PATTERN = f"^[^{refused_class()}]*" + END
#: A description: line breaks and tabs allowed, nothing else the rule refuses.
PROSE_PATTERN = f"^[^{refused_class(DESCRIPTION_ALLOWS)}]*" + END
#: A date (YYYY-MM-DD).
DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}" + END
#: A date and time at midnight, which the loader reads as the date (YAML 1.1 timestamps).
MIDNIGHT_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt]|[ \\t]+)00:00:00(\\.0+)?([ \\t]*(Z|[+-]00(:?00)?))?" + END

#: The rules the loader checks across several keys, which JSON Schema does not express here.
CROSS_KEY_RULES = (
    "approval_date is not before application_date",
    "business: full_time_employees_at_application (>= 1) is given for a small business",
    "award (and each phase's): exactly one of annual_credit, per_new_job and section_75; per_retained_job goes "
    "with per_new_job; bonus names are distinct",
    "revenue: income_tax_effective_rate or income_tax: progressive, not both; median_salary when revenue is given; "
    "an income tax block's keys as its method takes them, filing status shares summing to 1",
    "some benefit is given: revenue drivers or streams",
    "stream names are unique in their list and not those of the built-in columns",
    "a later phase's amounts by year start at year 1",
    "a stream gives by_year or from_csv, not both; from_csv names a CSV file inside the scenario file's folder",
    "the model's timeline (every phase's years, commitment and amounts) is at most 1,000 years",
    "shared is given only with later phases, and a later phase leaves out the keys shared",
)


def _integer_pattern(low: int, high: int) -> str | None:
    """An ECMA-262 pattern of the whole numbers from ``low`` to ``high`` written plainly (no sign,
    no leading zero), for the keys of a mapping by year; None for a range it does not write."""
    if low not in (0, 1) or high < 10:
        return None
    digits = len(str(high))
    below = f"[1-9][0-9]{{0,{digits - 2}}}" if digits > 1 else "[1-9]"  # 1 .. 10**(digits-1) - 1
    top = str(high)
    # every number of `digits` digits not above `high`: spelt out only for a round bound (1000)
    if high != 10 ** (digits - 1):
        return None
    parts = ([] if low else ["0"]) + [below, top]
    return "^(" + "|".join(parts) + ")" + END


class _ScenarioSchema(GenerateJsonSchema):
    """pydantic's schema, with the rules of the model's own validators that JSON Schema can say."""

    def function_after_schema(self, schema) -> dict[str, Any]:
        json_schema = super().function_after_schema(schema)
        function = schema.get("function", {}).get("function")
        if function is no_control_characters:
            json_schema = _with(json_schema, "pattern", LINE_PATTERN)
        elif function is description_text:
            json_schema = _with(json_schema, "pattern", PROSE_PATTERN)
        elif function is getattr(blocks, "_not_empty_table", None):
            json_schema = _with(json_schema, "minProperties", 1)
        elif function is unique_items:
            json_schema = _with(json_schema, "uniqueItems", True)
        return json_schema

    def dict_schema(self, schema) -> dict[str, Any]:
        json_schema = super().dict_schema(schema)
        keys = schema.get("keys_schema") or {}
        if keys.get("type") == "int":
            pattern = _integer_pattern(int(keys.get("ge", keys.get("gt", -1) + 1)), int(keys.get("le", 10**9)))
            json_schema["propertyNames"] = {"pattern": pattern or "^(0|[1-9][0-9]*)" + END}
        return json_schema

    def date_schema(self, schema) -> dict[str, Any]:
        # the pattern too: a validator need not check a format
        date = {"type": "string", "format": "date", "pattern": DATE_PATTERN}
        return {"anyOf": [date, {"type": "string", "pattern": MIDNIGHT_PATTERN}]}


def _with(json_schema: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``json_schema`` with ``key: value`` added (beside a ``$ref`` through ``allOf``)."""
    if "$ref" in json_schema or key in json_schema:
        return {"allOf": [json_schema, {key: value}]}
    return {**json_schema, key: value}


def _phase_start(schema: dict[str, Any]) -> None:
    """A phase gives ``start_year`` or ``starts_in_year``, exactly one (``Phase``'s own rule)."""
    phase = schema.get("$defs", {}).get("Phase")
    if phase is None:
        return
    phase["properties"]["starts_in_year"] = {
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_YEARS,
        "description": "the phase's first project year (starts_in_year: N is start_year: N - 1)",
    }
    phase["required"] = [key for key in phase.get("required", []) if key != "start_year"]
    phase["oneOf"] = [{"required": ["start_year"]}, {"required": ["starts_in_year"]}]
    # a later phase's years start at 1: year 0, the approval year, is the initial phase's
    from_one = {"pattern": _integer_pattern(1, MAX_YEARS)}
    phase["properties"]["capital_investment"]["propertyNames"] = from_one
    streams = phase["properties"]["streams"]
    streams["items"] = {"allOf": [streams["items"], {"properties": {"by_year": {"propertyNames": from_one}}}]}


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario (format v1), as a mapping."""
    schema = Scenario.model_json_schema(schema_generator=_ScenarioSchema)
    _phase_start(schema)
    description = schema.get("description", "")
    rules = "Rules across keys, checked when the file is read: " + "; ".join(CROSS_KEY_RULES) + "."
    return {
        "$schema": DRAFT,
        "title": "netbenefit scenario (v1)",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
        "description": f"{description}\n\n{rules}".strip(),
    }


def scenario_schema_text() -> str:
    """:func:`scenario_schema` as indented JSON, ending in a newline."""
    return json.dumps(scenario_schema(), indent=2, sort_keys=False) + "\n"
