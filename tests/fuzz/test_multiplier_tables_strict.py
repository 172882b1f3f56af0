"""Multiplier tables read strictly (a NAICS code or a column given twice, a
row whose cells do not match the header: exit 2 naming the line) and held to the plausibility
ranges of the scalar multipliers they stand for (a warning; an error under --strict)."""

from __future__ import annotations

import contextlib
import io
import warnings
from pathlib import Path

import pytest
import yaml

from netbenefit import ScenarioError, cli, load_scenario
from netbenefit.model.plausibility import plausibility_warnings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "industry_multipliers_example.yaml"
HEADER = "naics,earnings_multiplier,employment_multiplier,construction_earnings_multiplier,source"


def with_table(tmp_path: Path, table: str) -> Path:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["revenue"]["multiplier_table"] = "table.csv"
    (tmp_path / "table.csv").write_text(table, encoding="utf-8")
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "table, words",
    [
        # Was: the first row of the code won, silently.
        (
            f"{HEADER}\n523,1.5,2,1.5,a\n541,1.5,2,1.5,b\n523,3.5,2,1.5,c\n",
            "line 4: NAICS code '523' is listed twice (lines 2 and 4)",
        ),
        # Was: the last column of the name won, silently.
        (f"{HEADER},earnings_multiplier\n523,1.5,2,1.5,a,3.9\n", "line 1: column 'earnings_multiplier' appears twice"),
        # Was: the extra cells were dropped.
        (f"{HEADER}\n523,1.5,2,1.5,a,9\n", "line 2: expected 5 cells (as the header), got 6"),
        (f"{HEADER}\n541,1.5,2\n523,1.5,2,1.5,a\n", "line 2: expected 5 cells (as the header), got 3"),
        (f"{HEADER}\n\n523,1.5,2,1.5,a\n523,1.5,2,1.5,a\n", "line 4: NAICS code '523' is listed twice (lines 3 and 4)"),
        (f"{HEADER}\n523,1_5,2,1.5,a\n", "line 2: earnings_multiplier must be a number"),
        (f"{HEADER}\n523,1.5,2,1.5,a\x1bb\n", "line 2: source must not hold a control character"),
    ],
)
def test_a_multiplier_table_is_read_strictly(tmp_path, table, words):
    scenario = with_table(tmp_path, table)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(scenario)
    assert caught.value.key == "revenue.multiplier_table"
    assert words in caught.value.problem
    code, out, err = run("evaluate", str(scenario))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "row, column",
    [
        ("523,9,2,1.5,a", "earnings_multiplier"),
        ("523,1e300,2,1.5,a", "earnings_multiplier"),
        ("523,1.5,2,9,a", "construction_earnings_multiplier"),
        ("523,1.5,1e300,1.5,a", "employment_multiplier"),
    ],
)
def test_a_table_multiplier_outside_the_scalar_range_warns_and_fails_strict(tmp_path, row, column):
    # Was: no warning, and --strict exited 0.
    scenario = with_table(tmp_path, f"{HEADER}\n{row}\n")
    lines = plausibility_warnings(load_scenario(scenario))
    assert len(lines) == 1 and f"revenue.multiplier_table: {column} of NAICS 523" in lines[0]
    code, out, err = run("evaluate", str(scenario), "--strict")
    assert (code, out) == (2, "") and f"{column} of NAICS 523" in err
    code, out, err = run("evaluate", str(scenario))
    assert code == 0 and "netbenefit: warning:" in err


def test_a_plausible_table_gives_no_warning():
    assert plausibility_warnings(load_scenario(EXAMPLE)) == ()


def test_the_table_multipliers_have_the_ranges_of_the_scalar_keys():
    from netbenefit.model.plausibility import RANGES

    keys = {key for plausible in RANGES for key in plausible.keys}
    assert {
        "revenue.earnings_multiplier",
        "revenue.employment_multiplier",
        "revenue.construction_earnings_multiplier",
    } <= keys


# ----------------------------------------------------------------------------------------------
# The workbook within Excel's limits (every workbook the tests write is checked: tests/conftest.py)
# ----------------------------------------------------------------------------------------------


def _many(kind: str, count: int) -> dict:
    from support import base_scenario_dict, with_changes

    if kind == "streams":
        streams = [
            {"name": f"stream {i}", "kind": "revenue", "abated": i % 500 == 3, "by_year": {1: 1000.0, 2: 1000.0}}
            for i in range(count)
        ]
        return with_changes(base_scenario_dict(), {"streams": streams})
    phase = {
        "start_year": 1,
        "jobs": {"new": 1, "nj_withholding_share": 1.0},
        "award": {"annual_credit": 1},
        "streams": [{"name": "s", "kind": "revenue", "by_year": {1: 10.0}}],
    }
    return with_changes(base_scenario_dict(), {"phases": [{"name": f"p{i}", **phase} for i in range(count)]})


def test_the_limits_checker_finds_what_excel_refuses():
    from workbook_limits import formula_problems

    assert formula_problems("=AND(" + ",".join(["A1"] * 256) + ")")
    assert not formula_problems("=AND(" + ",".join(["A1"] * 255) + ")")
    assert formula_problems("=" + "+".join(["AB12"] * 2000))
    assert not formula_problems("=SUM('a,b(c'!A1:A2,\"x,(y\")")


@pytest.mark.parametrize("kind, count", [("phases", 300), ("streams", 2000)])
@pytest.mark.slow
def test_a_workbook_of_many_phases_or_streams_is_within_excel_limits(tmp_path, kind, count):
    # Was: =AND() over 301 phase cells (#N/A in passes); a formula of over 10,000 characters
    # adding up 2,000 streams.
    from workbook_limits import workbook_problems

    import netbenefit
    from netbenefit.io.writing import file_stems
    from netbenefit.model.scenario import Scenario
    from netbenefit.views.workbook import build_workbook

    result = netbenefit.evaluate(Scenario.from_dict(_many(kind, count)))
    book = build_workbook([result], comparison=True, sheet_stems=file_stems([result]))
    assert workbook_problems(book) == []


def test_a_scenario_named_history_gets_another_sheet_name():
    from netbenefit.views.workbook import sheet_names

    assert [name.casefold() for name in sheet_names(["History", "history", "Summary"])] == [
        "history~2",
        "history~3",
        "summary~2",
    ]
