"""Hostile text: one rule for every text key (no control character, no lone
surrogate; line breaks and tabs allowed in a description), every command's terminal output
escaped (``diff`` included), and every chart drawn with math text off (a bonus named ``$...$``)."""

from __future__ import annotations

import contextlib
import io
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import pytest
import yaml
from pydantic import BaseModel
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit import ScenarioError, cli
from netbenefit.model.after_approval import Actuals
from netbenefit.model.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]


def text_keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Every key of ``model`` (recursively) whose value is free text: list items as ``0``."""
    keys = []
    for name, field in model.model_fields.items():
        for kind, suffix in _kinds(field.annotation):
            key = f"{prefix}{name}{suffix}"
            if kind is str:
                keys.append(key)
            elif isinstance(kind, type) and issubclass(kind, BaseModel):
                keys.extend(text_keys(kind, key + "."))
    return keys


def _kinds(annotation: Any, suffix: str = "") -> list[tuple[Any, str]]:
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _kinds(typing.get_args(annotation)[0], suffix)
    if origin is Union or origin is types.UnionType:
        return [kind for arg in typing.get_args(annotation) for kind in _kinds(arg, suffix)]
    if origin is tuple:
        return _kinds(typing.get_args(annotation)[0], suffix + ".0")
    if origin is Literal or annotation is type(None):
        return []
    return [(annotation, suffix)]


#: Where each text key can be given in the base scenario: the values it needs beside it.
_CONTEXT = {
    "streams.0.from_csv": {},
    "award.section_75.bonuses.0.name": {
        "award": {"section_75": {"bonuses": [{"name": "x", "per_job": 100}]}, "eligibility_period_years": 7},
    },
    "revenue.multiplier_table": {
        "business.naics": "523",
        "revenue": {},
        "jobs.median_salary": 50000,
    },
    "phases.0.name": {
        "phases": [
            {
                "name": "x",
                "start_year": 2,
                "jobs": {"new": 10, "nj_withholding_share": 1.0},
                "award": {"annual_credit": 1000},
                "streams": [{"name": "p", "kind": "revenue", "by_year": {1: 1.0}}],
            }
        ]
    },
}


def scenario_with(key: str, value: str) -> dict:
    data = with_changes(base_scenario_dict(), _CONTEXT.get(key, {}))
    if key.startswith("phases.0."):
        data = with_changes(base_scenario_dict(), _CONTEXT["phases.0.name"])
        if ".section_75." in key:
            data = with_changes(data, {"phases.0.award": _CONTEXT["award.section_75.bonuses.0.name"]["award"]})
    if key.endswith("from_csv"):
        stream = key.rsplit(".", 1)[0]
        data = with_changes(data, {stream: {"name": "s", "kind": "revenue", "from_csv": value}})
        return data
    return with_changes(data, {key: value})


SCENARIO_TEXT_KEYS = text_keys(Scenario)


def test_the_text_keys_are_the_ones_the_format_has():
    # A new text key is held to the rule by its type; this list shows which keys that is.
    assert sorted(SCENARIO_TEXT_KEYS) == sorted(
        [
            "name",
            "description",
            "business.naics",
            "award.section_75.bonuses.0.name",
            "revenue.multiplier_table",
            "streams.0.name",
            "streams.0.from_csv",
            "phases.0.name",
            "phases.0.award.section_75.bonuses.0.name",
            "phases.0.streams.0.name",
            "phases.0.streams.0.from_csv",
        ]
    )
    assert text_keys(Actuals) == ["name"]


HOSTILE = ["a\ud800b", "a\udfffb", "a\x1b[2Jb", "a\x00b", "a\x7fb", "a\x85b"]


@pytest.mark.parametrize("key", SCENARIO_TEXT_KEYS)
@pytest.mark.parametrize("value", HOSTILE, ids=["surrogate", "low-surrogate", "escape", "nul", "del", "nel"])
def test_every_text_key_refuses_control_characters_and_lone_surrogates(key, value):
    # Was: a lone surrogate passed in description and paths, then crashed compare, report, diff.
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(scenario_with(key, value))
    assert caught.value.key == key, caught.value
    problem = caught.value.problem
    assert "control character" in problem or "lone surrogate" in problem or "should match pattern" in problem


@pytest.mark.parametrize("value", HOSTILE[:2] + HOSTILE[2:4])
def test_the_actual_results_name_follows_the_rule(value):
    data = {"workforce_before_approval": 100, "years": [{"year": 1, "new_jobs": 1, "statewide_workforce": 101}]}
    with pytest.raises(ScenarioError) as caught:
        Actuals.from_dict({**data, "name": value})
    assert caught.value.key == "name"


def test_a_description_may_hold_line_breaks_and_tabs():
    scenario = Scenario.from_dict(with_changes(base_scenario_dict(), {"description": "one\n\ttwo\r\nthree"}))
    assert scenario.description == "one\n\ttwo\r\nthree"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def write_double_quoted(path: Path, data: dict, key: str, escaped: str) -> Path:
    """``data`` as YAML with ``key: "<escaped>"`` in double quotes (a YAML escape such as \\ud800)."""
    text = yaml.safe_dump({k: v for k, v in data.items() if k != key}, sort_keys=False)
    path.write_text(f'{key}: "{escaped}"\n' + text, encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("command", ["evaluate", "compare", "report", "diff"])
def test_a_lone_surrogate_in_a_description_is_one_line_on_every_command(tmp_path, command):
    scenario = write_double_quoted(tmp_path / "s.yaml", base_scenario_dict(), "description", "x\\ud800y")
    argv = {
        "evaluate": ["evaluate", str(scenario)],
        "compare": ["compare", str(scenario), "--out", str(tmp_path / "out"), "--charts", "none"],
        "report": ["report", str(scenario), "--out", str(tmp_path / "r.html")],
        "diff": ["diff", str(scenario), str(scenario)],
    }[command]
    code, out, err = run(*argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert err.startswith(f"netbenefit: {scenario}: description: must not hold a lone surrogate (found \\ud800)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.yaml"]


def test_diff_prints_through_the_terminal_writer(tmp_path):
    # Was: the description printed raw (a carriage return acted on). A bidirectional override is
    # now refused on reading (tests/fuzz/test_text_that_reorders_refused.py).
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(yaml.safe_dump(base_scenario_dict()), encoding="utf-8")
    b.write_text(yaml.safe_dump(base_scenario_dict() | {"description": "evil\rFAKE \u200fgnp.exe"}), encoding="utf-8")
    code, out, err = run("diff", str(a), str(b))
    assert code == 0, err
    assert "\r" not in out and "\u200f" not in out
    assert "\\r" in out and "\\u200f" in out


# ----------------------------------------------------------------------------------------------
# Charts: math text off
# ----------------------------------------------------------------------------------------------


def test_a_bonus_named_with_dollar_signs_is_drawn_as_written():
    # Was: a section 75 bonus named "$\\frac{$" raised a mathtext ValueError (traceback).
    from netbenefit.views import charts
    from netbenefit.views.charts.printing import figure_bytes

    data = yaml.safe_load((ROOT / "scenarios" / "award_calculator.yaml").read_text(encoding="utf-8"))
    data["award"]["section_75"]["bonuses"][0]["name"] = "$\\frac{$ site $x^2$"
    result = netbenefit.evaluate(Scenario.from_dict(data, base_dir=ROOT / "scenarios"))
    ax = charts.award_waterfall(result.award_calculation)
    texts = [t.get_text() for t in ax.findobj(lambda a: hasattr(a, "get_text"))]
    texts += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    assert any("$\\frac{$ site $x^2$" in " ".join(text.split()) for text in texts)  # wrapped to fit, as written
    drawn = ax.figure.findobj(lambda a: hasattr(a, "get_parse_math") and a.get_text())
    assert drawn and all(not text.get_parse_math() for text in drawn)
    assert figure_bytes(ax.figure, "png")[:4] == b"\x89PNG"


@pytest.mark.slow
def test_a_stream_named_with_dollar_signs_is_drawn_by_every_scenario_chart():
    from netbenefit.views import charts
    from netbenefit.views.charts.printing import figure_bytes

    result = netbenefit.evaluate(
        Scenario.from_dict(with_changes(base_scenario_dict(), {"streams.0.name": "$1M to $2M \\frac{$"}))
    )
    for kind in charts.meaningful_charts(result):
        figure = charts.draw(kind, result)
        figure_bytes(figure, "svg")
        drawn = figure.findobj(lambda a: hasattr(a, "get_parse_math") and a.get_text())
        assert drawn and all(not text.get_parse_math() for text in drawn)
