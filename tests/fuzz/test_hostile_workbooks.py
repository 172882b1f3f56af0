"""Hostile workbooks (docs/workbook.md, "The round trip"): a file given as a workbook is refused in
one line naming it, quickly, never a hang nor a traceback, within the loader's bounds
(netbenefit.io.workbook_file): a zip bomb, a part whose size is forged, a sheet of a million rows, a
row of a hundred thousand cells, XML entities (the "billion laughs", an external entity), not an
archive, an archive that is not a workbook, a file too large, a pipe, a folder, too many parts, a
sheet without its dimension, a workbook netbenefit did not write, a Round trip sheet tampered with."""

from __future__ import annotations

import os
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from fuzz.fuzz_support import assert_one_clean_error_line, run_cli_in_process, run_cli_subprocess

import netbenefit
from netbenefit.errors import ScenarioError
from netbenefit.io.workbook_file import MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, MAX_WORKBOOK_BYTES, MAX_WORKBOOK_MEMBERS

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "party_city.yaml"
#: A refusal takes at most this long. [seconds]
QUICKLY = 10.0
SHEET = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """A workbook netbenefit wrote: the base every hostile file is made from."""
    return netbenefit.evaluate(SCENARIO).to_excel(tmp_path_factory.mktemp("book") / "book.xlsx")


def rewritten(book: Path, out: Path, replace: dict | None = None, add: dict | None = None) -> Path:
    """A copy of the archive ``book`` with parts replaced and added (bytes or text)."""
    replace, add = replace or {}, add or {}
    with zipfile.ZipFile(book) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = replace.get(item.filename, source.read(item.filename))
            target.writestr(item.filename, data.encode() if isinstance(data, str) else data)
        for name, data in add.items():
            target.writestr(name, data.encode() if isinstance(data, str) else data)
    return out


def refusal(path: Path) -> str:
    start = time.perf_counter()
    with pytest.raises(ScenarioError) as refused:
        netbenefit.Scenario.from_excel(path)
    assert time.perf_counter() - start < QUICKLY
    assert len(refused.value.lines) == 1, refused.value.lines
    assert refused.value.lines[0].startswith(f"{path}: ")
    return refused.value.lines[0]


def test_a_zip_bomb_is_refused_before_it_is_unpacked(book, tmp_path):
    bomb = rewritten(book, tmp_path / "bomb.xlsx", add={"xl/media/bomb.bin": bytes(100 * 1024 * 1024)})
    assert bomb.stat().st_size < 1024 * 1024
    assert refusal(bomb).endswith("bytes once unpacked (at most 64 MiB; a zip bomb?)")


def test_a_part_whose_size_is_forged_is_refused(book, tmp_path):
    path = rewritten(book, tmp_path / "forged.xlsx")
    data = bytearray(path.read_bytes())
    name = b"xl/worksheets/sheet1.xml"
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # local and central headers
        at = data.find(signature + b"", 0)
        while at != -1:
            start = at + (30 if signature == b"PK\x03\x04" else 46)
            if data[start : start + len(name)] == name:
                data[at + offset : at + offset + 4] = (100).to_bytes(4, "little")  # claims 100 bytes
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))
    assert "cannot be read as an Excel workbook" in refusal(path)


@pytest.mark.slow
def test_a_sheet_of_a_million_rows_is_refused(book, tmp_path):
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>1</v></c></row>' for r in range(1, 1_000_001))
    sheet = f'{SHEET}<dimension ref="A1:A1000000"/><sheetData>{rows}</sheetData></worksheet>'
    path = rewritten(book, tmp_path / "rows.xlsx", replace={"xl/worksheets/sheet1.xml": sheet})
    assert refusal(path).endswith(f"a sheet of more than {MAX_SHEET_ROWS:,} rows")


def test_a_row_of_a_hundred_thousand_cells_is_refused(book, tmp_path):
    cells = "<c><v>1</v></c>" * 100_000
    sheet = f'{SHEET}<dimension ref="A1"/><sheetData><row r="1">{cells}</row></sheetData></worksheet>'
    path = rewritten(book, tmp_path / "wide.xlsx", replace={"xl/worksheets/sheet1.xml": sheet})
    assert refusal(path).endswith(f"a row of more than {MAX_SHEET_COLUMNS:,} cells")


def test_a_sheet_that_states_no_dimension_is_refused(book, tmp_path):
    sheet = f'{SHEET}<sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>'
    path = rewritten(book, tmp_path / "dimension.xlsx", replace={"xl/worksheets/sheet1.xml": sheet})
    assert refusal(path).endswith("its part xl/worksheets/sheet1.xml states no dimension")


@pytest.mark.parametrize(
    "declaration",
    [
        '<!DOCTYPE sst [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>',
        '<!DOCTYPE sst [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
    ],
    ids=["billion laughs", "external entity"],
)
def test_xml_entities_are_refused(declaration, book, tmp_path):
    with zipfile.ZipFile(book) as source:
        strings = source.read("xl/sharedStrings.xml").decode()
    head, _, body = strings.partition("?>")
    reference = "<t>&d;</t>" if "lol" in declaration else "<t>&e;</t>"
    assert "<t>Input</t>" in body
    hostile = f"{head}?>{declaration}{body.replace('<t>Input</t>', reference, 1)}"
    path = rewritten(book, tmp_path / "entities.xlsx", replace={"xl/sharedStrings.xml": hostile})
    assert refusal(path).endswith("holds an XML entity or document type declaration, refused (an XML entity attack?)")


def test_files_that_are_not_workbooks_are_refused(book, tmp_path):
    text = tmp_path / "text.xlsx"
    text.write_text("name: not a workbook\n")
    assert refusal(text).endswith("not an Excel workbook (.xlsx): the file is not a zip archive")
    empty = tmp_path / "empty.xlsx"
    empty.write_bytes(b"")
    assert refusal(empty).endswith("not an Excel workbook (.xlsx): the file is not a zip archive")
    archive = tmp_path / "archive.xlsx"
    with zipfile.ZipFile(archive, "w") as target:
        target.writestr("readme.txt", "hello")
    assert refusal(archive).endswith("not an Excel workbook (.xlsx): the archive holds no xl/workbook.xml")
    other = tmp_path / "other.xlsx"
    openpyxl.Workbook().save(other)
    assert "not a workbook written by netbenefit" in refusal(other)
    many = rewritten(book, tmp_path / "many.xlsx", add={f"xl/media/{k}.txt": "" for k in range(MAX_WORKBOOK_MEMBERS)})
    assert "parts (at most" in refusal(many)
    large = tmp_path / "large.xlsx"
    with large.open("wb") as handle:
        handle.truncate(MAX_WORKBOOK_BYTES + 1)
    assert refusal(large).endswith("the file is larger than 16 MiB")
    folder = tmp_path / "folder.xlsx"
    folder.mkdir()
    assert refusal(folder).endswith("is a folder, not a workbook")
    assert refusal(tmp_path / "missing.xlsx").endswith("file not found")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_pipe_named_as_a_workbook_is_refused_without_waiting(tmp_path):
    pipe = tmp_path / "pipe.xlsx"
    os.mkfifo(pipe)
    assert refusal(pipe).endswith("the file is not a regular file (a device, pipe or socket)")
    renamed = tmp_path / "pipe.yaml"  # (not read as a workbook: the YAML loader refuses it)
    os.rename(pipe, renamed)
    with pytest.raises(ScenarioError, match="not a regular file"):
        netbenefit.load_scenario(renamed)


def test_a_round_trip_sheet_tampered_with_is_refused(book, tmp_path):
    def tampered(change, name: str) -> str:
        workbook = openpyxl.load_workbook(book)
        change(workbook["Round trip"])
        workbook.save(tmp_path / name)
        return refusal(tmp_path / name)

    assert "of form 2; this netbenefit reads form 1" in tampered(
        lambda sheet: setattr(sheet["B1"], "value", 2), "2.xlsx"
    )
    line = tampered(lambda sheet: setattr(sheet["F8"], "value", "nonsense"), "kind.xlsx")
    assert line.endswith(
        "'Round trip'!A8: a row of keys cannot be read: the sheet is not as netbenefit wrote it; "
        "write the workbook again"
    )


def test_a_hostile_workbook_through_the_command_line_is_one_line(book, tmp_path):
    bomb = rewritten(book, tmp_path / "bomb.xlsx", add={"xl/media/bomb.bin": bytes(100 * 1024 * 1024)})
    assert_one_clean_error_line(run_cli_in_process(bomb), bomb)


@pytest.mark.slow
def test_hostile_workbooks_in_a_process_of_bounded_memory(book, tmp_path):
    bomb = rewritten(book, tmp_path / "bomb.xlsx", add={"xl/media/bomb.bin": bytes(100 * 1024 * 1024)})
    cells = "<c><v>1</v></c>" * 1_000_000
    sheet = f'{SHEET}<dimension ref="A1"/><sheetData><row r="1">{cells}</row></sheetData></worksheet>'
    wide = rewritten(book, tmp_path / "wide.xlsx", replace={"xl/worksheets/sheet1.xml": sheet})
    for path in (bomb, wide):
        assert_one_clean_error_line(run_cli_subprocess(path, tmp_path), path)
