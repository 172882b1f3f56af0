"""``netbenefit schema``: the scenario JSON Schema, which every bundled scenario satisfies and a
typical slip (a share written as a percent, an unknown key) does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from netbenefit.cli import main

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
jsonschema = pytest.importorskip("jsonschema")


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    out = tmp_path_factory.mktemp("schema") / "scenario.schema.json"
    assert main(["schema", "--out", str(out)]) == 0
    return json.loads(out.read_text())


def _plain(node):
    """YAML as JSON reads it: year keys as text, dates as text."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if hasattr(node, "isoformat"):
        return node.isoformat()
    return node


def test_the_schema_is_draft_2020_12_with_the_scenario_keys(schema):
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"discount_rate", "jobs", "award", "phases"} <= set(schema["properties"])
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_scenario_satisfies_the_schema(schema, path):
    data = _plain(yaml.safe_load(path.read_text()))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    assert not errors, [e.message for e in errors[:3]]


def test_a_share_as_a_percent_and_an_unknown_key_are_flagged(schema):
    data = _plain(yaml.safe_load((SCENARIOS / "office_hq_default_area.yaml").read_text()))
    data["jobs"]["nj_withholding_share"] = 85
    data["jobs"]["new_jobs"] = 3
    messages = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]
    assert any("85" in m for m in messages) and any("new_jobs" in m for m in messages)


def test_schema_on_stdout_is_json(capsys):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "netbenefit scenario (v1)"
