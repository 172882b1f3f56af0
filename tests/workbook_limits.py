"""Excel's limits on a formula, checked on every workbook the tests write (tests/conftest.py).

Excel refuses (or reads as ``#N/A``) a formula longer than 8,192 characters, a function given
more than 255 arguments, or functions nested more than 64 levels deep (Microsoft, "Excel
specifications and limits"), and a sheet named ``History``, which it reserves.
"""

from __future__ import annotations

FORMULA_LENGTH_LIMIT = 8192
FORMULA_ARGUMENT_LIMIT = 255
FORMULA_NESTING_LIMIT = 64
RESERVED_SHEET_NAMES = ("history",)


def formula_problems(formula: str) -> list[str]:
    """What breaks Excel's limits in ``formula`` (empty when nothing does)."""
    problems = []
    if len(formula) > FORMULA_LENGTH_LIMIT:
        problems.append(f"{len(formula):,} characters (Excel: at most {FORMULA_LENGTH_LIMIT:,})")
    arguments: list[int] = []  # commas + 1 of each open parenthesis
    deepest, quote = 0, None
    for char in formula:
        if quote:
            if char == quote:
                quote = None
            continue
        if char in "\"'":
            quote = char
        elif char == "(":
            arguments.append(1)
            deepest = max(deepest, len(arguments))
        elif char == ")":
            count = arguments.pop()
            if count > FORMULA_ARGUMENT_LIMIT:
                problems.append(f"a function of {count} arguments (Excel: at most {FORMULA_ARGUMENT_LIMIT})")
        elif char == "," and arguments:
            arguments[-1] += 1
    if deepest > FORMULA_NESTING_LIMIT:
        problems.append(f"{deepest} levels of nesting (Excel: at most {FORMULA_NESTING_LIMIT})")
    return problems


def workbook_problems(book) -> list[str]:
    """The problems of every formula and sheet name of a ``netbenefit.views.workbook.Book``."""
    problems = []
    for sheet in book.sheets.values():
        if sheet.title.casefold() in RESERVED_SHEET_NAMES:
            problems.append(f"sheet {sheet.title!r}: a name Excel reserves")
        for (row, column), cell in sheet.cells.items():
            if cell.formula:
                problems += [f"{sheet.title!r} row {row} column {column}: {p}" for p in formula_problems(cell.value)]
    return problems
