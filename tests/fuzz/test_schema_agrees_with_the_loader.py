"""``netbenefit schema`` held to the loader: every generated and bundled file is accepted by both
or refused by both, on every rule JSON Schema can express (types, ranges, patterns, key names,
required keys, one of two keys). Each generated file is a valid scenario with at most one change
of one key (the rules across several keys are listed in the schema's description, not in it)."""

from __future__ import annotations

import copy
import datetime as dt
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import netbenefit
from netbenefit.model.schema import CROSS_KEY_RULES, scenario_schema

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "properties"))
from scenario_strategies import scenario_dicts  # noqa: E402

jsonschema = pytest.importorskip("jsonschema")
ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = jsonschema.Draft202012Validator(scenario_schema())


def _plain(node):
    """The file as JSON reads it (as an editor's YAML language server does): keys and dates as text."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [_plain(v) for v in node]
    if isinstance(node, dt.date):
        return node.isoformat()
    return node


def _loader_accepts(data) -> bool:
    try:
        netbenefit.Scenario.from_dict(copy.deepcopy(data), source="generated.yaml")
    except netbenefit.ScenarioError:
        return False
    return True


def _schema_accepts(data) -> bool:
    return VALIDATOR.is_valid(_plain(data))


#: Characters the text rule refuses (control characters, lone surrogates, bidirectional overrides
#: and isolates) or allows only in a description (a tab, a line break), and their neighbours it allows.
CONTROL = st.sampled_from([
    "\x00", "\x07", "\x1b", "\x7f", "\x85", "\t", "\n", "\r", "\ud800", "\udbff", "\udfff", "\u202a", "\u202e",
    "\u2066", "\u2069", "\u200f", "\u202f", "\u2065", "\u206a", "\U0001f600",
])  # fmt: skip
SHARED = st.sampled_from([
    [], ["jobs.salary_growth"], ["jobs.salary_growth", "jobs.salary_growth"], ["jobs.median_salary"],
    ["jobs.median_salary", "jobs.salary_growth"], ["jobs.median_salary", "jobs.salary_growth", "jobs.median_salary"],
])  # fmt: skip


def _set_name(data, text):
    data["name"] = text


@st.composite
def changed(draw):
    """A valid scenario, and at most one change of one key (a value of one rule JSON Schema says;
    an approval date after any generated application date, the rule across the two being the
    loader's alone)."""
    data = draw(scenario_dicts())
    change = draw(st.sampled_from([
        "none", "name", "description", "phase name", "stream name", "year key", "phase year key",
        "recapture", "starts_in_year", "streams", "approval_date", "share", "money", "kind", "unknown key",
        "shared",
    ]))  # fmt: skip
    phases = data.get("phases") or []
    if change == "name":
        data["name"] = draw(st.text(min_size=0, max_size=3)) + draw(CONTROL) * draw(st.integers(0, 1))
    elif change == "description":
        data["description"] = "Some words" + draw(CONTROL)
    elif change == "phase name" and phases:
        phases[0]["name"] = "Phase" + draw(CONTROL)
    elif change == "stream name" and data.get("streams"):
        data["streams"][0]["name"] = draw(CONTROL) + "taxes"
    elif change == "year key":
        data["capital_investment"] = {draw(st.integers(-2, 1003)): 1000.0}
    elif change == "phase year key" and phases:
        phases[0]["capital_investment"] = {draw(st.sampled_from([0, 1, 999, 1000, 1001, -1])): 5.0}
    elif change == "recapture":
        data.setdefault("commitment", {})["recapture"] = draw(st.sampled_from([
            {}, {0: 1.0}, {0: 1.5}, {1001: 0.5}, "all", "pro_rata_award", "bogus", None, [0.5], 1,
        ]))  # fmt: skip
    elif change == "starts_in_year" and phases:
        year = draw(st.sampled_from([0, 1, 3, 1000, 1001, -1, 2.5, True, "3"]))
        if draw(st.booleans()):
            del phases[0]["start_year"]
        phases[0]["starts_in_year"] = year
    elif change == "streams":
        data["streams"] = draw(st.sampled_from([None, {}, "x"]))
    elif change == "approval_date":
        data["approval_date"] = draw(st.sampled_from([
            dt.date(2031, 5, 1), dt.datetime(2031, 5, 1), dt.datetime(2031, 5, 1, 12, 30), "2031-05-01", "May 1",
            dt.date(9999, 12, 31),
        ]))  # fmt: skip
    elif change == "share":
        data["jobs"]["nj_withholding_share"] = draw(st.sampled_from([-0.1, 0, 1, 1.01, 85]))
    elif change == "money":
        data["award"][next(iter(data["award"]))] = draw(st.sampled_from([-1, 0, 5e6]))
    elif change == "kind":
        data["discount_rate"] = draw(st.sampled_from(["0.05", True, None, [0.05], 0.05]))
    elif change == "shared" and phases:
        # every later phase leaves out the keys that may be shared: the rule across keys holds,
        # and the list's own rule (distinct items) is what is tried
        data["shared"] = draw(SHARED)
        for phase in phases:
            for key in ("median_salary", "salary_growth") if data["shared"] else ():
                phase["jobs"].pop(key, None)
        if "jobs.median_salary" not in data["shared"] and "median_salary" in data["jobs"]:
            for phase in phases:
                phase["jobs"]["median_salary"] = data["jobs"]["median_salary"]
    elif change == "unknown key":
        data[draw(st.sampled_from(["discount_rates", "jobs_new"]))] = 1
    return data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changed())
@pytest.mark.slow
def test_a_generated_file_is_accepted_by_both_or_refused_by_both(data):
    assert _loader_accepts(data) == _schema_accepts(data), (
        [e.message for e in VALIDATOR.iter_errors(_plain(data))][:3],
    )


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").rglob("*.yaml")), ids=lambda p: p.stem)
def test_a_bundled_scenario_is_accepted_by_both(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if "applications" in data or "years" in data or "years_from_csv" in data:
        pytest.skip("not a scenario file")
    loaded = netbenefit.load_scenario(path)
    assert loaded is not None and _schema_accepts(data)


def test_the_rules_across_keys_are_listed_in_the_schema_s_description():
    description = scenario_schema()["description"]
    assert all(rule in description for rule in CROSS_KEY_RULES)


def _phased_campus() -> dict:
    return yaml.safe_load((ROOT / "scenarios" / "phased_campus.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "change",
    ["shared twice", "a lone surrogate in the name", "U+202E in the name", "U+2066 in the description"],
)
def test_the_cases_the_schema_let_through_are_refused_by_both(change):
    # Was: the schema accepted each, and the loader refused it.
    data = _phased_campus()
    if change == "shared twice":
        data["shared"] = ["jobs.salary_growth", "jobs.salary_growth"]
        for phase in data["phases"]:
            phase["jobs"].pop("salary_growth", None)
        data["shared"] = data["shared"][:1]
        assert _loader_accepts(data) and _schema_accepts(data)  # once: both accept
        data["shared"] *= 2
    elif change == "a lone surrogate in the name":
        data["name"] = "Campus \ud800"
    elif change == "U+202E in the name":
        data["name"] = "Campus \u202esupmaC"
    else:
        data["description"] = "Two phases \u2066x\u2069"
    assert not _loader_accepts(data) and not _schema_accepts(data)
