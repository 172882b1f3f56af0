"""The repository itself: self-contained, with the commands the README promises."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".toml", ".ipynb", ".txt", ".csv"}


def project_files():
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if path.is_file() and path.suffix in TEXT_SUFFIXES and not parts & {".git", ".venv", "build", "results"}:
            yield path


def test_nothing_reads_outside_the_repository():
    """Users never see the folder the reference material came from: the project keeps its own copy."""
    outside = "../" + "shared"  # written in two parts so that this file does not match itself
    offenders = [str(p.relative_to(ROOT)) for p in project_files() if outside in p.read_text(errors="ignore")]
    assert not offenders


def test_the_statute_text_is_kept_in_the_repository():
    text = (ROOT / "docs" / "emerge-section-71.txt").read_text(encoding="utf-8")
    assert text.startswith("71. a.") and "net positive benefit" in text


def test_readme_opens_with_the_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line for line in readme.splitlines()[:20] if line.startswith("python3 -m venv")]
    assert len(commands) == 2
    assert "netbenefit compare scenarios/*.yaml" in commands[0]
    assert 'pip install ".[dev]"' in commands[1] and commands[1].endswith("python -m pytest")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install --quiet ".[dev]"' in ci and "python -m pytest" in ci


def test_test_files_are_named_for_what_they_test():
    # a test file says its subject, not when it was written ("second_round", "third_reading")
    when = re.compile(r"(first|second|third|fourth|fifth|\d+(st|nd|rd|th))_(round|reading)|round_\d|reading_\d")
    found = [str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py") if when.search(path.name)]
    assert not found, found
