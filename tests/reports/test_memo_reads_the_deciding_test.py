"""The memo, the report and the notebook views read the test that decides 71(a)(5): a three-phase
campus (250 + 150 + 100 new jobs, 60 retained, its median salary shared by the phases, 5 extended
years elected) at a distressed site (300%), at a site that is not (400%, where only the extension
makes it pass) and with its award front-loaded on phase 1 (phase 1 alone fails while the whole
project passes). Every ratio set beside a threshold is ``Result.ratio`` written true to the verdict
beside it; every phase key carries its phase; the words follow the record."""

from __future__ import annotations

import html as html_module
import re
import warnings
from types import SimpleNamespace

import pytest

import netbenefit
from netbenefit.analysis.solvers import NO_SOLUTION, SOLVED, SolverResult
from netbenefit.labels import margin_points, ratio_verdict
from netbenefit.views.decision_words import deciding_sentence
from netbenefit.views.html import memo_pages, memo_sections
from netbenefit.views.html.memo import diff_memo_html
from netbenefit.views.html.result import comparison_html, headline_html

from .test_report_memo import pdf_pages, printed


def campus(*, distressed: bool = True, front_loaded: bool = False, **changes) -> netbenefit.Scenario:
    """The three-phase campus (see the module docstring)."""
    data = {
        "name": "Three-phase campus" + ("" if distressed else ", North site") + (", front-loaded" * front_loaded),
        "application_date": "2026-03-02",
        "discount_rate": 0.06,
        "business": {
            "small_business": False,
            "targeted_industry": True,
            "full_time_employees_at_application": 400,
            "retained_jobs_at_application": 60,
        },
        "location": {"qualified_incentive_area": True, "distressed_municipality": distressed},
        "facility": {
            "portions": [{"use": "other", "work": "rehabilitation", "gross_leasable_area_sqft": 150000}],
            "accommodates_share": 0.9,
        },
        "capital_investment": {1: 30_000_000, 2: 10_000_000},
        "shared": ["jobs.median_salary"],
        "jobs": {
            "new": 250,
            "retained": 60,
            "ramp": [0.5, 1.0],
            "median_salary": 82_000,
            "salary_growth": 0.025,
            "nj_withholding_share": 0.9,
        },
        "award": {"annual_credit": 1_900_000 if front_loaded else 1_500_000, "eligibility_period_years": 7},
        "commitment": {"extended_years": 5},
        "revenue": {
            "income_tax_effective_rate": 0.055,
            "taxable_spending_share": 0.3,
            "construction_taxable_share": 0.35,
            "construction_labor_share": 0.4,
            "construction_income_tax_rate": 0.035,
            "earnings_multiplier": 1.6,
            "corporate_business_tax": 400_000,
        },
        "phases": [
            {
                "name": "Phase 2",
                "start_year": 3,
                "capital_investment": {1: 15_000_000},
                "jobs": {"new": 150, "nj_withholding_share": 0.9},
                "award": {"annual_credit": 100_000 if front_loaded else 800_000, "eligibility_period_years": 7},
            },
            {
                "name": "Phase 3",
                "start_year": 5,
                "capital_investment": {1: 10_000_000},
                "jobs": {"new": 100, "nj_withholding_share": 0.9},
                "award": {"annual_credit": 50_000 if front_loaded else 500_000, "eligibility_period_years": 7},
            },
        ],
        "attestations": {
            "material_factor": True,
            "environmental_standards": True,
            "affirmative_action": True,
            "prevailing_wage": {"construction": True, "building_services": True},
        },
    }
    scenario = netbenefit.Scenario.from_dict(data, source="campus.yaml")
    return scenario.replace(changes) if changes else scenario


@pytest.fixture(scope="module")
def results():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "distressed": netbenefit.evaluate(campus()),
            "north": netbenefit.evaluate(campus(distressed=False)),
            "front": netbenefit.evaluate(campus(front_loaded=True)),
        }


@pytest.fixture(scope="module")
def facts(results):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: memo_sections.memo_facts(result) for name, result in results.items()}


def text_of(page: str) -> str:
    """The words of an HTML page, its tags and entities read, its spaces collapsed."""
    page = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'src="data:[^"]*"', "", page)
    return " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_shapes_are_what_they_say(results):
    front, north = results["front"], results["north"]
    assert front.deciding_phases == (1,) and not front.passes and front.whole_project_ratio > front.threshold
    assert north.passes and north.extension_decides and not north.passes_without_extension
    assert results["distressed"].passes and not results["distressed"].extension_decides


# -- the first page ------------------------------------------------------------------------------


def test_one_grammar_for_the_deciding_test_sentence(results):
    front, north, distressed = results["front"], results["north"], results["distressed"]
    assert deciding_sentence(front).startswith(
        "The deciding test, phase 1 alone, fails: a net benefit ratio of 264.8% against a threshold of 300% "
        "(71(a)(5)(a)), a margin of -35.17 points."
    )
    assert deciding_sentence(distressed).startswith("The deciding test, phases 1+2, passes: a net benefit ratio of")
    assert deciding_sentence(north).endswith(
        "It passes only with the elected 5-year extended commitment, 71(a)(5)(d): without it 323.8% < 400%, fails."
    )
    one = netbenefit.evaluate("scenarios/party_city.yaml")
    assert deciding_sentence(one).startswith("The net benefit test passes: a net benefit ratio of")
    for result in results.values():
        assert "is that of" not in memo_sections.summary_sentence(SimpleNamespace(result=result))


def test_the_drivers_table_writes_each_end_with_its_own_verdict(results, facts):
    """Each end's ratio is the deciding test's of that variant (evaluate(scenario.replace(...)), the
    record), written true to the verdict beside it; the shared salary is "Every phase", the initial
    phase's own award "Phase 1"."""
    result, fact = results["front"], facts["front"]
    page = text_of(memo_sections.summary_page_html(fact, first=True))
    assert "Every phase: Median salary" in page and "Phase 1: Annual credit" in page
    for row in fact.drivers.head(memo_sections.FIRST_PAGE_DRIVERS).itertuples(index=False):
        for value in (row.low, row.high):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                moved = netbenefit.evaluate(result.scenario.replace({row.key: value}))
            written, _ = ratio_verdict(moved.ratio, moved.threshold, moved.passes, 1)
            words = f"{written}, {'passes' if moved.passes else 'fails'}"
            assert words in page, (row.key, value, words)
            assert f"{moved.whole_project_ratio:.1%}, " not in page or moved.whole_project_ratio == moved.ratio
            end = "low" if value == row.low else "high"
            assert getattr(row, f"passes_{end}") == moved.passes  # the sensitivity's record of that end
            assert getattr(row, f"ratio_{end}") == pytest.approx(moved.ratio, rel=1e-12)


def test_a_phased_first_page_names_the_deciding_tests_present_values_and_the_whole_projects(results, facts):
    result = results["distressed"]
    page = text_of(memo_sections.summary_page_html(facts["distressed"], first=True))
    row = result.phase_tests.iloc[1]  # phases 1+2 decide
    assert f"Present values of the deciding test, phases 1+2 net benefits ${row.pv_benefits:,.0f}" in page
    assert f"Present value of net benefits, whole project ${result.pv_benefits:,.0f}" in page
    assert f"(whole project's ratio {result.whole_project_ratio:.1%})" in page
    assert "Requested credits scaled alike until every test passes, present value" in page
    assert "Largest credit" not in page and "largest credit" not in page


def test_a_pass_that_rests_on_the_extension_says_so_wherever_the_verdict_stands(results, facts):
    north = results["north"]
    words = north.extension_words()
    assert words.startswith("passes only with the elected 5-year extended commitment")
    first = text_of(memo_sections.summary_page_html(facts["north"], first=True))
    assert first.count(words) == 2  # the summary and the deciding test's row
    comparison = text_of(memo_sections.comparison_page_html(list(facts.values())))
    assert f"{north.name} {words}." in comparison and "passes only with the extension (see below)" in comparison
    assert words in text_of(headline_html(north)) and words in text_of(comparison_html(list(results.values())))
    for other in ("distressed", "front"):
        assert "only with the elected" not in text_of(memo_sections.summary_page_html(facts[other], first=True))


def test_the_comparison_page_sets_each_deciding_ratio_beside_its_threshold(results, facts):
    page = text_of(memo_sections.comparison_page_html(list(facts.values())))
    front = results["front"]
    assert "phase 1 alone 264.8% 300% -35.17 points fails no" in page
    assert f"{front.whole_project_ratio:.1%}" not in page  # 409.4%: the whole project's, never beside a threshold
    for result in results.values():
        value, threshold = ratio_verdict(result.ratio, result.threshold, result.passes, 1)
        assert f"{value} {threshold} {margin_points(result.margin, result.passes)}" in page


def test_an_ineligible_row_names_the_check_that_fails(results, facts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        few = netbenefit.evaluate(campus(**{"jobs.new": 20, "name": "Few jobs"}))  # 71(a)(2): below 25
    fact = memo_sections.memo_facts(few)
    page = text_of(memo_sections.comparison_page_html([fact, facts["distressed"]]))
    assert "no: 71(a)(2) fails" in page


# -- the break-even discount rate ----------------------------------------------------------------


def _with_break_even(fact, solver):
    return memo_sections.MemoFacts(fact.result, fact.deciding, solver, fact.drivers, fact.grades)


@pytest.mark.parametrize("every", [True, False])
def test_a_break_even_rate_that_does_not_exist_says_every_rate_tried(facts, every):
    solver = SolverResult(
        None,
        NO_SOLUTION,
        "no break-even rate",
        {"range": (-0.99, 1.0), "margin_at_low": 1.0, "margin_at_high": 0.5, "passes_at_every_rate": every},
    )
    fact = _with_break_even(facts["distressed"], solver)
    words = memo_sections.break_even_words(fact)
    verdict = "passes" if every else "fails"
    assert words.startswith(f"none: the test {verdict} at every rate tried (-99% to 100% a year)")
    assert "falls" not in words and "rises" not in words
    assert memo_sections.break_even_cell(fact) == f"none: {verdict} at every rate tried"


def test_a_break_even_rate_says_the_side_just_around_it_and_where_the_test_turns_again(facts):
    solver = SolverResult(0.0875, SOLVED, "", {"passes_side": "below", "roots": [0.0875, 0.31]})
    words = memo_sections.break_even_words(_with_break_even(facts["north"], solver))
    assert words.startswith("8.75% a year: the test passes at rates just below it and fails just above it")
    assert words.endswith("; the test changes side again at 31.00%")


# -- the optional pages --------------------------------------------------------------------------


def test_the_monte_carlo_sentence_gives_money_and_counts_with_each_phase(results):
    words = memo_pages.varied_words(results["distressed"].scenario, "jobs.median_salary", ("normal", 82_000, 8_000))
    assert words == "Every phase: Median salary, normal with mean $82,000 and standard deviation $8,000"
    words = memo_pages.varied_words(results["distressed"].scenario, "phases.0.jobs.new", ("uniform", 120, 180))
    assert words == "Phase 2: New full-time jobs, uniform from 120 to 180"
    assert memo_pages.distribution_words("discount_rate", [0.05, 0.07]) == "one of 5%, 7%"
    assert "median $" in memo_pages.distribution_words("jobs.median_salary", ("lognormal", 11.3, 0.1))


def test_the_diff_page_names_each_sides_threshold_and_margin_and_what_keeps_them_apart(results):
    diff = netbenefit.diff(campus(), campus(distressed=False))
    page = text_of(diff_memo_html(diff, date="2026-01-02"))
    assert (
        "A, Three-phase campus: the test that decides gives 323.8% against a threshold of 300% (71(a)(5)(a)), "
        "passes, a margin of +23.82 points" in page
    )
    assert (
        "B, Three-phase campus, North site: the test that decides gives 435.2% against a threshold of 400% "
        "(71(a)(5)), passes, a margin of +35.22 points" in page
    )
    assert "The thresholds differ (300%, 71(a)(5)(a), in A; 400%, 71(a)(5), in B)" in page
    assert "The benefit windows differ:" in page
    # the margin's attribution: the location's own share, the threshold and the window as rows of their own
    assert "Threshold, 71(a)(5) -100.00 percentage points" in page
    assert "Total: the margin's change +11.40 percentage points" in page
    assert "In a distressed municipality +111.40" not in page  # never the whole move put on the location


def test_the_diff_page_tags_each_key_with_its_phase(results):
    base = campus()
    changed = base.replace({"phases.0.jobs.new": 170, "jobs.new": 260, "jobs.median_salary": 85_000})
    diff = netbenefit.diff(base, changed)
    page = text_of(memo_pages.diff_page_html(diff, scenario=base))
    assert "Phase 2: New full-time jobs 150 170" in page and "Phase 1: New full-time jobs 250 260" in page
    assert "Every phase: Median salary" in page


# -- printed -------------------------------------------------------------------------------------


@printed
def test_the_printed_comparison_memo_reads_the_deciding_tests(results, tmp_path):
    path = tmp_path / "campus.pdf"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        netbenefit.Comparison.of(list(results.values())).to_pdf(path, date="2026-01-02")
    text = " ".join(" ".join(pdf_pages(path)).split())
    assert "The deciding test, phase 1 alone, fails: a net benefit ratio of 264.8% against a threshold of 300%" in text
    words = "passes only with the elected 5-year extended commitment, 71(a)(5)(d): without it 323.8% < 400%, fails"
    assert words in text
    assert "Every phase: Median salary" in text and "Phase 1: Annual credit" in text
    assert "409.4%" not in text.replace("whole project's ratio 409.4%", "")  # the front-loaded whole project's
    assert "is that of" not in text and "Largest credit" not in text


@printed
def test_the_printed_memo_of_one_scenario_with_its_optional_pages(results, tmp_path):
    path = tmp_path / "north.pdf"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results["north"].to_pdf(
            path,
            montecarlo={"jobs.median_salary": ("normal", 82_000, 8_000), "jobs.new": ("uniform", 200, 300)},
            draws=200,
            diff=campus(),
            date="2026-01-02",
        )
    text = " ".join(" ".join(pdf_pages(path)).split())
    assert "Every phase: Median salary, normal with mean $82,000 and standard deviation $8,000" in text
    assert "Phase 1: New full-time jobs, uniform from 200 to 300" in text
    assert "(92000" not in text and "82000" not in text
    assert "a threshold of 300% (71(a)(5)(a)), passes, a margin of +23.82 points" in text
    assert "The thresholds differ" in text
    assert "7 years from project year 1" in text and "5 years of extended commitment elected" in text


def test_the_reports_inputs_carry_their_phases(results):
    from netbenefit.views.html.report import inputs_html

    page = text_of(inputs_html(results["distressed"]))
    assert "jobs.new Phase 1: New full-time jobs [jobs] 250" in page
    assert "phases.0.jobs.new Phase 2: New full-time jobs [jobs] 150" in page
    assert "jobs.median_salary Every phase: Median salary [USD/year] 82,000" in page
    one = text_of(inputs_html(netbenefit.evaluate("scenarios/party_city.yaml")))
    assert "Phase 1:" not in one  # a project without later phases has no phase to name
