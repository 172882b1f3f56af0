"""The JSON Schema of a scenario file, for editors that validate YAML as it is typed.

:func:`scenario_schema` is pydantic's ``Scenario.model_json_schema()`` with the draft named and a
title; ``netbenefit schema`` writes it. With the YAML language server (VS Code, vim, emacs), a
first line ``# yaml-language-server: $schema=scenario.schema.json`` in a scenario file makes the
editor flag an unknown key, a share above 1 or a missing required key while it is typed. The
schema holds the bounds of each key, not the rules across keys (``Scenario`` checks those on load).
"""

from __future__ import annotations

import json
from typing import Any

#: The JSON Schema draft pydantic writes.
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario (format v1), as a mapping."""
    from .scenario import Scenario

    schema = Scenario.model_json_schema()
    return {"$schema": DRAFT, "title": "netbenefit scenario (v1)", **{k: v for k, v in schema.items() if k != "title"}}


def scenario_schema_text() -> str:
    """:func:`scenario_schema` as indented JSON, ending in a newline."""
    return json.dumps(scenario_schema(), indent=2, sort_keys=False) + "\n"
