"""Multiplier tables of the third round: read strictly (a NAICS code or a column given twice, a
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
from netbenefit.plausibility import plausibility_warnings

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
    from netbenefit.plausibility import RANGES

    keys = {key for plausible in RANGES for key in plausible.keys}
    assert {
        "revenue.earnings_multiplier",
        "revenue.employment_multiplier",
        "revenue.construction_earnings_multiplier",
    } <= keys
