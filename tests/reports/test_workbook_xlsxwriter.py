"""The one private XlsxWriter API the workbook uses, ``Worksheet._prepare_formula`` (overridden by
:func:`netbenefit.views.workbook.book.worksheet_class` to skip XlsxWriter's renaming passes), still
applies: the method has the signature the override calls, ``write_formula`` goes through the
override, and a workbook written through it holds the formulas XlsxWriter itself writes.
pyproject.toml caps XlsxWriter to the major version these tests ran with."""

from __future__ import annotations

import inspect
import re
import tomllib
import zipfile
from pathlib import Path

import xlsxwriter
from xlsxwriter.worksheet import Worksheet

import netbenefit
from netbenefit.io.writing import file_stems
from netbenefit.views.workbook import FORMULA_FUNCTIONS, build_workbook, worksheet_class

ROOT = Path(__file__).resolve().parents[2]

#: Formulas of the workbook's own functions (the shortcut), and one XlsxWriter renames (its own path).
FAST = [
    "=SUM(A1:A2)",
    "=IF(A1>0,MAX(0,MIN(1,$F$9-(A1-1))),0)",
    '=POWER(1+discount_rate,-(A2-IF(timing="mid_year",0.5,0)))',
]
RENAMED = "=XLOOKUP(A1,B1:B9,C1:C9)"


def test_prepare_formula_has_the_signature_the_override_calls():
    method = getattr(Worksheet, "_prepare_formula", None)
    assert method is not None, "XlsxWriter no longer has Worksheet._prepare_formula: see worksheet_class"
    parameters = list(inspect.signature(method).parameters.values())
    assert [p.name for p in parameters[:2]] == ["self", "formula"]
    assert all(p.default is not inspect.Parameter.empty for p in parameters[2:])  # called with the formula alone
    assert issubclass(worksheet_class(), Worksheet)
    assert "_prepare_formula" in vars(worksheet_class())


def test_xlsxwriter_is_capped_to_the_major_version_tested():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    (requirement,) = [d for d in dependencies if d.lower().startswith("xlsxwriter")]
    cap = re.search(r"<\s*(\d+)", requirement)
    assert cap, f"{requirement}: no upper bound on the major version"
    major = int(xlsxwriter.__version__.split(".")[0])
    assert major < int(cap.group(1)) and major == int(cap.group(1)) - 1, (requirement, xlsxwriter.__version__)


def test_write_formula_goes_through_the_override(tmp_path, monkeypatch):
    """Each formula reaches the override; only the one with a function XlsxWriter renames reaches
    XlsxWriter's own preparation; the file holds the formulas as XlsxWriter writes them."""
    fast_class = worksheet_class()
    seen, prepared_by_xlsxwriter = [], []
    override, original = fast_class._prepare_formula, Worksheet._prepare_formula

    def spy(self, formula, *args, **kwargs):
        seen.append(formula)
        return override(self, formula, *args, **kwargs)

    def spy_original(self, formula, *args, **kwargs):
        prepared_by_xlsxwriter.append(formula)
        return original(self, formula, *args, **kwargs)

    monkeypatch.setattr(fast_class, "_prepare_formula", spy)
    monkeypatch.setattr(Worksheet, "_prepare_formula", spy_original)
    path = tmp_path / "formulas.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Sheet1", worksheet_class=fast_class)
    for row, formula in enumerate([*FAST, RENAMED]):
        sheet.write_formula(row, 0, formula, None, "")
    book.close()
    assert seen == [*FAST, RENAMED]
    assert prepared_by_xlsxwriter == [RENAMED]
    with zipfile.ZipFile(path) as archive:
        xml = archive.read("xl/worksheets/sheet1.xml").decode()
    written = [f.replace("&quot;", '"').replace("&gt;", ">") for f in re.findall(r"<f[^>]*>([^<]*)</f>", xml)]
    assert written == [formula[1:] for formula in FAST] + ["_xlfn.XLOOKUP(A1,B1:B9,C1:C9)"]


def test_every_formula_of_a_workbook_takes_the_shortcut(tmp_path, monkeypatch):
    """A workbook of netbenefit's writes every formula through the override, none through
    XlsxWriter's renaming (its functions are all in FORMULA_FUNCTIONS)."""
    result = netbenefit.evaluate(ROOT / "scenarios" / "party_city.yaml")
    workbook = build_workbook([result], comparison=True, sheet_stems=file_stems([result]))
    formulas = [cell.value for sheet in workbook.sheets.values() for cell in sheet.cells.values() if cell.formula]
    functions = {name for formula in formulas for name in re.findall(r"([A-Z][A-Z0-9.]*)\(", formula)}
    assert functions <= FORMULA_FUNCTIONS
    fast_class, seen, prepared_by_xlsxwriter = worksheet_class(), [], []
    override, original = fast_class._prepare_formula, Worksheet._prepare_formula
    monkeypatch.setattr(fast_class, "_prepare_formula", lambda self, f, *a, **k: seen.append(f) or override(self, f))
    monkeypatch.setattr(
        Worksheet, "_prepare_formula", lambda self, f, *a, **k: prepared_by_xlsxwriter.append(f) or original(self, f)
    )
    workbook.save(tmp_path / "party_city.xlsx")
    assert sorted(seen) == sorted(formulas) and len(seen) > 100
    assert prepared_by_xlsxwriter == []
