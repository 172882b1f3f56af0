"""The documentation holds together: a README that is a front door, links and anchors that resolve,
a layout page that names every module, an index that lists every page, pointers that land, and a
worked example that prints what the README shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
MARKDOWN = [README, *PAGES, ROOT / "tests" / "README.md"]

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text: str):
    """The lines of a Markdown text outside fenced code blocks."""
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield line


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for line in prose_lines(path.read_text(encoding="utf-8")):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def relative_links(path: Path):
    for line in prose_lines(path.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            yield target


# --- the README -----------------------------------------------------------------------------------


def test_the_readme_is_a_front_door_of_at_most_300_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move reference material to docs/"


def test_the_readme_says_what_the_tool_is_in_its_first_five_lines():
    opening = " ".join(README.read_text(encoding="utf-8").splitlines()[:5])
    for words in ("netbenefit", "Emerge Program", "section", "71", "net positive benefit test"):
        assert words in opening, words


def test_the_readme_keeps_its_test_commands():
    """``.ci/run`` runs the README's test command; the quick tier is named too."""
    readme = README.read_text(encoding="utf-8")
    assert 'pip install ".[dev]" && python -m pytest\n' in readme
    assert 'python -m pytest -m "not slow"\n' in readme


def _block_after(text: str, heading: str, language: str, skip: int = 0) -> str:
    section = text[text.index(heading):]
    blocks = re.findall(rf"^```{language}\n(.*?)^```", section, flags=re.M | re.S)
    return blocks[skip]


def test_the_worked_example_prints_what_the_readme_shows(monkeypatch):
    text = README.read_text(encoding="utf-8")
    code = _block_after(text, "## A worked example", "python")
    shown = _block_after(text, "## A worked example", "text")
    assert len(code.splitlines()) <= 10
    monkeypatch.chdir(ROOT)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue() == shown


def test_the_command_line_example_prints_the_lines_the_readme_shows(monkeypatch, capsys):
    from netbenefit.cli import main

    session = _block_after(README.read_text(encoding="utf-8"), "## A worked example", "console").splitlines()
    command = session[0].removeprefix("$ ").split()
    assert command[0] == "netbenefit"
    monkeypatch.chdir(ROOT)
    assert main(command[1:]) == 0
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    position = 0
    for line in session[1:]:
        if line.strip() == "...":
            continue
        assert line.rstrip() in printed[position:], line
        position = printed.index(line.rstrip(), position) + 1


# --- links, anchors and pointers --------------------------------------------------------------------


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_to_a_file_and_heading(path):
    broken = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"{target}: no heading with that anchor in {destination.name}")
    assert not broken, f"{path.relative_to(ROOT)}: " + "; ".join(broken)


def _code():
    for folder in ("netbenefit", "tests", "benchmarks"):
        yield from sorted((ROOT / folder).rglob("*.py"))
    yield from sorted((ROOT / "notebooks").glob("*.ipynb"))


def _sources():
    yield from (path for path in _code() if path.name != "test_docs.py")
    yield from MARKDOWN


def test_no_docstring_or_comment_points_at_a_readme_section():
    """The README is a front door: reference lives in docs/, and code points at the page there."""
    pattern = re.compile(r"README(\.md)?(#|, ?\"|,? section)")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        if path.suffix != ".md"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not offenders


def test_every_pointer_to_a_docs_page_lands():
    """``(docs/page.md, "Section")``, ``(docs/page.md, 5)`` (a numbered item) and
    ``(docs/page.md, `name`)`` name something the page holds."""
    pointer = re.compile(r"docs/([\w-]+\.md),\s+(?:\"([^\"]+)\"|`([^`]+)`|(\d+)\b)")
    missing = []
    for path in _sources():
        for match in pointer.finditer(path.read_text(encoding="utf-8")):
            page, quoted, code, number = match.groups()
            target = DOCS / page
            if not target.exists():
                missing.append(f"{path.name}: {page}")
                continue
            text = target.read_text(encoding="utf-8")
            if quoted and quoted not in text:
                missing.append(f"{path.name}: {page}, {quoted!r}")
            if code and f"`{code}`" not in text:
                missing.append(f"{path.name}: {page}, `{code}`")
            if number and not re.search(rf"^{number}\. ", text, flags=re.M):
                missing.append(f"{path.name}: {page}, item {number}")
    assert not missing


# --- the pages ----------------------------------------------------------------------------------------


def test_the_layout_page_names_every_module():
    layout = (DOCS / "layout.md").read_text(encoding="utf-8")
    package = ROOT / "netbenefit"
    modules = sorted(path.relative_to(package).as_posix() for path in package.rglob("*.py"))
    assert len(modules) > 50
    unnamed = [module for module in modules if f"`{module}`" not in layout]
    assert not unnamed, f"docs/layout.md does not name: {', '.join(unnamed)}"


def test_the_index_lists_every_docs_page():
    listed = {target.partition("#")[0] for target in relative_links(DOCS / "index.md")}
    pages = {page.name for page in PAGES if page.name != "index.md"}
    assert not pages - listed, f"docs/index.md does not list: {', '.join(sorted(pages - listed))}"


def test_the_anchor_rule_is_githubs():
    assert slug("Tests, CI and benchmarks") == "tests-ci-and-benchmarks"
    assert slug("`max_award(scenario, key=None)`: the largest") == "max_awardscenario-keynone-the-largest"
    assert slug("1. The award calculator (`netbenefit.award`)") == "1-the-award-calculator-netbenefitaward"
