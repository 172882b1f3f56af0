"""Recomputing a workbook with an engine independent of netbenefit: the ``formulas`` package, or
LibreOffice headless (``soffice``). Used by the workbook tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import openpyxl

#: The longest a LibreOffice conversion may take. [seconds]
SOFFICE_TIMEOUT = 300


def deciding_ratio(result) -> float:
    """The ratio of the test that decides 71(a)(5), which the workbook's ``ratio`` cell holds: the
    lowest of the cumulative tests' ratios (the earliest on a tie), the result's ``ratio``."""
    assert result.ratio == float(result.phase_tests["ratio"].min())
    return float(result.ratio)


def result_figure(result, name: str) -> float:
    """The figure of ``result`` that the workbook's cell named ``name`` holds."""
    return deciding_ratio(result) if name == "ratio" else float(getattr(result, name))


def name_target(path: Path, name: str) -> tuple[str, str]:
    """(sheet, cell) a workbook name refers to."""
    workbook = openpyxl.load_workbook(path)
    ((sheet, cell),) = list(workbook.defined_names[name].destinations)
    return sheet, cell.replace("$", "")


def set_named_cell(path: Path, name: str, value, out: Path) -> Path:
    """Save a copy of the workbook at ``out`` with the cell named ``name`` set to ``value``, as a
    reviewer editing it would (formulas kept, no cached values)."""
    workbook = openpyxl.load_workbook(path)
    ((sheet, cell),) = list(workbook.defined_names[name].destinations)
    workbook[sheet][cell.replace("$", "")] = value
    workbook.save(out)
    return out


class Recomputed:
    """A workbook recomputed by the ``formulas`` package: values of names and of cells."""

    def __init__(self, path: Path):
        import formulas

        self.file = Path(path).name
        solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
        self.values = {key.upper(): value for key, value in solution.items()}

    def name(self, name: str):
        return _scalar(self.values[f"'[{self.file}]'!{name}".upper()].value)

    def cell(self, sheet: str, cell: str):
        key = f"'[{self.file}]{sheet}'!{cell}".upper()
        return _scalar(self.values[key].value) if key in self.values else None


def _scalar(value):
    while hasattr(value, "__len__") and not isinstance(value, str):
        value = value[0]
    return value.item() if hasattr(value, "item") else value


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def libreoffice_values(path: Path, names: list[str]) -> dict[str, float]:
    """The values of workbook names after LibreOffice headless opened, recomputed and saved the
    workbook (read back from the values it cached)."""
    return libreoffice_values_of([path], names)[0]


def libreoffice_recomputed(paths: list[Path], out: Path) -> list[Path]:
    """Each workbook (distinct file names) opened, recomputed and saved by LibreOffice headless into
    the folder ``out``, as a reviewer's spreadsheet program saves it (values cached, flags written
    as ``=TRUE()``), in one LibreOffice run; the paths of the saved files."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        subprocess.run(
            [
                soffice(),
                f"-env:UserInstallation={(folder / 'profile').as_uri()}",
                "--headless",
                "--norestore",
                "--calc",
                "--convert-to",
                "xlsx:Calc MS Excel 2007 XML",
                "--outdir",
                str(out),
                *map(str, paths),
            ],
            check=True,
            capture_output=True,
            timeout=SOFFICE_TIMEOUT * max(1, len(paths) // 10),
            env={**os.environ, "HOME": str(folder)},
        )
    return [out / Path(path).name for path in paths]


def libreoffice_values_of(paths: list[Path], names: list[str]) -> list[dict[str, float]]:
    """:func:`libreoffice_values` of several workbooks (distinct file names), in one LibreOffice run."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        libreoffice_recomputed(paths, out)
        values = []
        for path in paths:  # a name, or a cell as 'Sheet!B6'
            targets = {name: _sheet_cell(name) if "!" in name else name_target(path, name) for name in names}
            workbook = openpyxl.load_workbook(out / Path(path).name, data_only=True)
            values.append({name: workbook[sheet][cell].value for name, (sheet, cell) in targets.items()})
        return values


def set_inputs(path: Path, changes: dict, out: Path) -> Path:
    """Save a copy of the workbook at ``out`` with input cells changed, as a reviewer editing it
    would: ``{name: value}`` for a named cell, ``{(name, k): value}`` for the k-th cell (from 0)
    of a named row (a list by year)."""
    from openpyxl.utils import column_index_from_string, get_column_letter

    workbook = openpyxl.load_workbook(path)
    for target, value in changes.items():
        name, offset = target if isinstance(target, tuple) else (target, 0)
        ((sheet, reference),) = list(workbook.defined_names[name].destinations)
        first = reference.replace("$", "").split(":")[0]
        letters = "".join(c for c in first if c.isalpha())
        row = first[len(letters) :]
        workbook[sheet][f"{get_column_letter(column_index_from_string(letters) + offset)}{row}"] = value
    workbook.save(out)
    return out


def _sheet_cell(reference: str) -> tuple[str, str]:
    """``'Sheet name'!B6`` or ``Sheet!B6`` -> (sheet, cell)."""
    sheet, cell = reference.rsplit("!", 1)
    return sheet.strip("'"), cell
