"""The cited parameters file: complete, cited, used, and never duplicated as a literal in code."""

import datetime as dt
import io
import re
import tokenize
from pathlib import Path

import pytest

import netbenefit
from netbenefit.law.parameters import COMPARISONS, FIELDS, PARAMETERS, SOURCES, parameter

PACKAGE = Path(netbenefit.__file__).parent
SOURCE_FILES = sorted(PACKAGE.rglob("*.py"))


def test_parameters_are_loaded():
    assert parameter("net_benefit_threshold_default") == 4.0
    assert parameter("application_deadline") == dt.date(2029, 3, 1)


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_every_parameter_is_described_and_cited(name):
    entry = PARAMETERS[name]
    for field_name in FIELDS:
        assert getattr(entry, field_name) not in (None, ""), f"{name}: {field_name} is empty"
    assert entry.comparison in COMPARISONS
    assert entry.source in SOURCES
    assert isinstance(entry.effective, dt.date)
    if entry.source == "statute" and entry.reference.startswith("P.L.2020"):
        assert re.search(r"s\.\d+", entry.reference), f"{name}: no section in {entry.reference!r}"


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_every_parameter_is_used_by_the_code(name):
    uses = [path for path in SOURCE_FILES if f'"{name}"' in path.read_text(encoding="utf-8")]
    assert uses, f"parameter {name} is not used anywhere in the package"


def test_section_71_parameters_cite_section_71():
    section_71 = [p for p in PARAMETERS.values() if p.reference.startswith("P.L.2020, c.156, s.71")]
    assert len(section_71) >= 20


# Statutory values of s.71 that must come from the parameters file, never from a literal.
STATUTORY_NUMBERS = {20, 60, 40, 120, 25, 35, 150, 250, 500, 1000, 0.25, 0.8, 0.35, 0.06625, 1.5, 1e-9}
STATUTORY_FLOATS = {4.0, 3.0, 2.0}  # the 400/300/200 percent thresholds, written as floats


NOT_STATUTORY = "# not a statutory number"  # a line may say so, with its reason


def numeric_literals(path: Path):
    """(line, text, value) of every number token in a Python file: not strings, not comments."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for token in tokens:
        if token.type == tokenize.NUMBER and NOT_STATUTORY not in token.line:
            text = token.string.replace("_", "")
            value = (
                complex(text)
                if text.lower().endswith("j")
                else float(text)
                if any(c in text for c in ".eE") and not text.lower().startswith("0x")
                else int(text, 0)
            )
            yield token.start[0], token.string, value


def is_presentation(path: Path) -> bool:
    """Charts, HTML and command-line parsing draw and format; they apply no rule, and their layout
    numbers (a dpi of 150, an alpha of 0.8) may coincide with statutory ones."""
    relative = path.relative_to(PACKAGE)
    presentation_words = ("chart", "html", "report", "plot")
    return "commands" in relative.parts or relative.parts[:2] == ("views", "charts") or any(
        word in path.stem for word in presentation_words
    )


MODEL_FILES = [path for path in SOURCE_FILES if not is_presentation(path)]


def test_the_model_modules_are_scanned():
    names = {path.name for path in MODEL_FILES}
    assert {"steps.py", "blocks.py", "eligibility.py", "net_benefit.py", "finance.py", "evaluate.py"} <= names


@pytest.mark.parametrize("path", MODEL_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_statutory_number_is_written_as_a_literal(path):
    offenders = [
        f"{path.name}:{line}: {text}"
        for line, text, value in numeric_literals(path)
        if value in STATUTORY_NUMBERS or (isinstance(value, float) and value in STATUTORY_FLOATS)
    ]
    assert not offenders, "statutory numbers belong in netbenefit/law/parameters: " + ", ".join(offenders)
