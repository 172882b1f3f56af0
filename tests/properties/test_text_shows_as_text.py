"""Any text a scenario, actual-results or portfolio file can hold appears in every HTML output only
as text: never as a tag, an attribute or an entity a browser acts on.

Each surface is rendered twice, once with the file's text and once with plain words in its place:
the two pages have the same elements with the same attributes, in the same order (text changes no
markup), no element or attribute the text spells exists, and the text itself is read back from the
page's text. The surfaces: a scenario, a result and each of its tables, a comparison, the table of
``netbenefit.compare``, a sweep, a Monte Carlo run and its draws, a sensitivity table, a solver's
answer, a diff, a portfolio and its tables and page, the tables of a project followed through its
actual results, a portfolio Monte Carlo, the report, the memo (its actual-results page too) and
the memo of a diff; and a table of the user's own, every cell,
column and index label hostile. The charts are drawn but not printed (their text is in the page as
alternative text, escaped with the rest)."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import base_scenario_dict, with_changes

import netbenefit
from netbenefit.analysis.portfolio.montecarlo import portfolio_montecarlo
from netbenefit.analysis.portfolio.portfolio_file import load_portfolio_file
from netbenefit.io.text_rule import refused_character
from netbenefit.model.after_approval.actuals import Actuals
from netbenefit.model.tables import shown

ROOT = Path(__file__).resolve().parents[2]

#: Markup a file's text may spell: an element with an event handler, a script, a formatting tag,
#: an entity, a comment, quotes that would close an attribute, the end of a cell or a table.
PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('x')</script>",
    "<b>x</b>",
    '"><svg onload=alert(1)>',
    "' onmouseover='alert(1)",
    "&lt;not a tag&gt; &amp; &#60;",
    "<!-- open comment",
    "</td></tr></table>",
    "<style>*{display:none}</style>",
    "javascript:alert(1)",
]
#: The elements and attributes a payload spells, none of which may reach a page.
FORBIDDEN_TAGS = {"script", "svg"}  # (an img, a style and a b the package writes itself: same as the plain page)
FORBIDDEN_ATTRIBUTES = {"onerror", "onload", "onmouseover"}


def _allowed(text: str) -> bool:
    return bool(text.strip()) and refused_character(text) is None


#: Any text the text rule lets a name hold, with the payloads among it.
TEXT = st.one_of(
    st.sampled_from(PAYLOADS),
    st.builds(lambda a, b, c: a + b + c, st.text(max_size=8), st.sampled_from(PAYLOADS), st.text(max_size=8)),
    st.text(min_size=1, max_size=24),
).filter(_allowed)


class _Page(HTMLParser):
    """The elements of a page (tag and attribute names, in order) and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, tuple[str, ...]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, tuple(name for name, _ in attrs)))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        self.text.append(data)

    def handle_comment(self, data):
        self.elements.append(("<!--", (data,)))


def parsed(page: str) -> _Page:
    reader = _Page()
    reader.feed(page)
    reader.close()
    return reader


@pytest.fixture(scope="module", autouse=True)
def charts_drawn_not_printed():
    """The charts are drawn (their alternative text is written) but not printed: a property test
    of the pages' text, not of the images."""
    import netbenefit.views.html.pieces as pieces
    import netbenefit.views.notebook as notebook

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pieces, "figure_png_base64", lambda figure, dpi=110: "")
        patch.setattr(notebook, "figure_png_base64", lambda figure, dpi=110: "")
        yield


def scenario_with_texts(texts: dict[str, str]) -> netbenefit.Scenario:
    """The test scenario with ``texts`` at its text keys: its name, description, a stream, a later
    phase and its stream, and a section 75 bonus (an award by the calculator)."""
    data = with_changes(
        base_scenario_dict(),
        {
            "name": texts["name"],
            "description": texts["description"],
            "streams.0.name": texts["stream"],
            "award": {
                "section_75": {"bonuses": [{"name": texts["bonus"], "per_job": 500}]},
                "eligibility_period_years": 7,
            },
            "phases": [
                {
                    "name": texts["phase"],
                    "start_year": 2,
                    "jobs": {"new": 40, "nj_withholding_share": 1.0},
                    "award": {"annual_credit": 100_000},
                    "streams": [{"name": texts["phase stream"], "kind": "revenue", "by_year": {1: 2e6, 2: 2e6}}],
                }
            ],
        },
    )
    return netbenefit.Scenario.from_dict(data, source="hostile.yaml")


KEYS = ("name", "description", "stream", "bonus", "phase", "phase stream")
PLAIN = {key: f"Plain words {i}" for i, key in enumerate(KEYS)}


def notebook_surfaces(texts: dict[str, str]) -> dict[str, str]:
    """Every HTML the notebook shows of a scenario with ``texts`` (and the page of its portfolio)."""
    from netbenefit.views.portfolio_files import portfolio_html

    scenario = scenario_with_texts(texts)
    result = netbenefit.evaluate(scenario)
    other = netbenefit.evaluate(scenario.replace({"jobs.new": 60, "name": texts["name"] + " B"}))
    pages = {
        "Scenario": scenario._repr_html_(),
        "Result": result._repr_html_(),
        "Comparison": netbenefit.Comparison((result, other))._repr_html_(),
        "compare()": netbenefit.compare([result, other])._repr_html_(),
        "sweep": netbenefit.sweep(scenario, {"jobs.new": [30, 40]})._repr_html_(),
        "sensitivity": netbenefit.sensitivity(scenario, {"jobs.new": None})._repr_html_(),
        "max_award": netbenefit.max_award(scenario, "award.section_75.bonuses.0.per_job")._repr_html_(),
        "diff": netbenefit.diff(scenario, other.scenario)._repr_html_(),
    }
    run = netbenefit.montecarlo(scenario, draws=20, vary={"jobs.new": ("uniform", 30, 40)}, seed=1, progress=False)
    pages["montecarlo"] = run._repr_html_()
    pages["montecarlo draws"] = run.draws._repr_html_()
    for table in ("cashflows", "checks", "phase_tests", "benefits_by_tax", "clawback_schedule", "award_calculation"):
        frame = getattr(result, table)
        if frame is not None:
            pages[f"Result.{table}"] = frame._repr_html_()
    pages.update(after_approval_surfaces(texts))
    book = netbenefit.portfolio([result, other])
    pages["Portfolio"] = book._repr_html_()
    pages["Portfolio.applications"] = book.applications._repr_html_()
    pages["portfolio page"] = portfolio_html(book)
    return pages


def after_approval_surfaces(texts: dict[str, str]) -> dict[str, str]:
    """The tables of the office headquarters followed through its actual results, the scenario
    and the actual results named by ``texts``."""
    office = netbenefit.load_scenario(ROOT / "scenarios" / "office_hq_default_area.yaml")
    office = office.replace({"name": texts["name"], "description": texts["description"]})
    reported = yaml.safe_load((ROOT / "scenarios" / "actuals" / "office_hq_actuals.yaml").read_text(encoding="utf-8"))
    reported["name"] = texts["phase"]
    after = netbenefit.follow(office, Actuals.from_dict(reported, base_dir=ROOT / "scenarios" / "actuals"))
    tables = ("years", "comparison", "phases", "phase_years", "rerun_tests", "floor", "reduction")
    return {f"follow.{name}": getattr(after, name)._repr_html_() for name in tables if hasattr(after, name)}


def assert_only_text(hostile: dict[str, str], plain: dict[str, str], texts: dict[str, str]) -> None:
    assert hostile.keys() == plain.keys()
    for surface, page in hostile.items():
        read, expected = parsed(page), parsed(plain[surface])
        assert read.elements == expected.elements, surface  # text changes no markup
        tags = {tag for tag, _ in read.elements}
        attributes = {name for _, names in read.elements for name in names}
        assert not tags & FORBIDDEN_TAGS and not attributes & FORBIDDEN_ATTRIBUTES, surface
    shown_text = " ".join(parsed(hostile["Result"]).text)
    assert " ".join(texts["name"].split()) in " ".join(shown_text.split())  # the name, as text


@settings(max_examples=12)
@given(st.fixed_dictionaries({key: TEXT for key in KEYS}))
@example({key: PAYLOADS[0] for key in KEYS})  # the scenario named <img src=x onerror=...> of the issue
@example({**PLAIN, "name": "<b>x</b>", "stream": "<script>alert(1)</script>"})
def test_a_file_s_text_is_only_text_in_every_notebook_view(texts):
    # Was: the Styler path of views/notebook.py rendered without escaping: a scenario named
    # <img src=x onerror=...> reached the notebook as live markup through a comparison table.
    if len({texts["stream"], texts["phase stream"]}) < 2 or texts["name"] == PLAIN["name"]:
        return  # two streams of one name are refused by the loader
    assert_only_text(notebook_surfaces(texts), notebook_surfaces(PLAIN), texts)


def page_surfaces(texts: dict[str, str], actuals_name: str) -> dict[str, str]:
    """The report, the memo with its pages (sensitivity, Monte Carlo, a diff, actual results) and
    the memo of a diff, of a scenario with ``texts``; the actual results named ``actuals_name``."""
    from netbenefit.views.html import report_html
    from netbenefit.views.html.memo import diff_memo_html, memo_html

    scenario = scenario_with_texts(texts)
    result = netbenefit.evaluate(scenario)
    other = netbenefit.evaluate(scenario.replace({"jobs.new": 60, "name": texts["name"] + " B"}))
    office = netbenefit.load_scenario(ROOT / "scenarios" / "office_hq_default_area.yaml")
    office = office.replace({"name": texts["name"]})
    reported = yaml.safe_load((ROOT / "scenarios" / "actuals" / "office_hq_actuals.yaml").read_text(encoding="utf-8"))
    reported["name"] = actuals_name
    actuals = Actuals.from_dict(reported, base_dir=ROOT / "scenarios" / "actuals")
    difference = netbenefit.diff(other.scenario, scenario)
    return {
        "report": report_html([result, other]),
        "memo": memo_html(result, sensitivity=True, montecarlo={"jobs.new": ("uniform", 30, 40)}, draws=20,
                          diff=difference),
        "memo of actual results": memo_html(netbenefit.evaluate(office), actuals=actuals),
        "memo of several": memo_html([result, other]),
        "diff memo": diff_memo_html(difference),
    }  # fmt: skip


@settings(max_examples=4)
@given(st.fixed_dictionaries({key: TEXT for key in KEYS}), TEXT)
@example({key: PAYLOADS[0] for key in KEYS}, PAYLOADS[1])
def test_a_file_s_text_is_only_text_in_the_report_and_the_memo(texts, actuals_name):
    if len({texts["stream"], texts["phase stream"]}) < 2 or texts["name"] == PLAIN["name"]:
        return
    hostile, plain = page_surfaces(texts, actuals_name), page_surfaces(PLAIN, "Plain words")
    for surface, page in hostile.items():
        read, expected = parsed(page), parsed(plain[surface])
        assert read.elements == expected.elements, surface
    text = " ".join(" ".join(parsed(hostile["report"]).text).split())
    assert " ".join(texts["name"].split()) in text  # the name, as text


@pytest.fixture(scope="module")
def book_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("book")


@settings(max_examples=4)
@given(name=TEXT, description=TEXT)
@example(name=PAYLOADS[0], description=PAYLOADS[2])
def test_a_portfolio_file_s_name_is_only_text(book_folder, name, description):
    folder = book_folder
    first = "01_harborview_analytics.yaml"
    shutil.copy(ROOT / "scenarios" / "portfolio" / first, folder / first)

    def page(name: str, description: str) -> str:
        data = {"name": name, "description": description, "draws": 20, "seed": 1, "applications": [first]}
        (folder / "book.yml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        run = portfolio_montecarlo(load_portfolio_file(folder / "book.yml"))
        return run._repr_html_() + run.fiscal_years._repr_html_()

    hostile, plain = page(name, description), page("Plain words", "More words")
    assert parsed(hostile).elements == parsed(plain).elements
    assert " ".join(name.split()) in " ".join(" ".join(parsed(hostile).text).split())


CELL = "<b>x</b>"
COLUMN = "<script>alert(1)</script>"


def test_a_table_of_the_user_s_own_shows_every_cell_column_and_index_label_as_text():
    # Was: a cell <b>x</b> and a column <script>...</script> passed through the Styler as markup.
    frame = pd.DataFrame({COLUMN: [CELL, "ok"], "ratio": [3.0, 4.0]}, index=pd.Index([PAYLOADS[0], "y"], name=CELL))
    for table in (shown(frame), netbenefit.compare([ROOT / "scenarios" / "party_city.yaml"]).assign(**{COLUMN: CELL})):
        read = parsed(table._repr_html_())
        assert not {tag for tag, _ in read.elements} & {"b", "script", "img"}
        text = "".join(read.text)
        assert CELL in text and COLUMN in text
    assert PAYLOADS[0] in "".join(parsed(shown(frame)._repr_html_()).text)
    pytest.importorskip("jinja2", reason="pandas' Styler needs jinja2 (the notebook extra)")
    from netbenefit.views.notebook import styled

    read = parsed(styled(frame).to_html())  # a Styler of the user's own, escaped the same way
    assert not {tag for tag, _ in read.elements} & {"b", "script", "img"}
    assert all(text in "".join(read.text) for text in (CELL, COLUMN, PAYLOADS[0]))


def test_no_view_module_writes_a_table_but_through_the_one_renderer():
    views = ROOT / "netbenefit" / "views"
    writers = sorted(
        str(path.relative_to(views))
        for path in views.rglob("*.py")
        if re.search(r"<table|<tr[ >]|<td[ >]", path.read_text(encoding="utf-8")) and path.name != "table.py"
    )
    assert writers == [], "every table through netbenefit.views.html.table"
