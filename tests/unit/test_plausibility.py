"""Plausibility warnings: valid values that are probably a slip, each named with its likely fix."""

import warnings
from pathlib import Path

import pytest

import netbenefit
from netbenefit.law.parameters import parameter
from netbenefit.model.plausibility import RANGES, PlausibilityWarning, plausibility_warnings

ROOT = Path(__file__).resolve().parents[2]
OFFICE = ROOT / "scenarios" / "office_hq_default_area.yaml"


@pytest.fixture(scope="module")
def office():
    return netbenefit.load_scenario(OFFICE)


# The slips of the issue: each warns naming the key, the value and the fix.
SLIPS = [
    ({"discount_rate": 6}, "discount_rate", "6 is implausible", "did you mean 0.06?"),
    ({"jobs.salary_growth": 3}, "jobs.salary_growth", "3 is implausible", "did you mean 0.03?"),
    ({"jobs.median_salary": 98}, "jobs.median_salary", "98 is implausible", "did you mean 98,000?"),
    ({"revenue.earnings_multiplier": 16.5}, "revenue.earnings_multiplier", "16.5 is implausible", "did you mean 1.65?"),
    ({"threshold_override": 250}, "threshold_override", "250 is implausible", "did you mean 2.5?"),
    # $950 million a year for 260 jobs is $3,653,846 a job; $950,000 is $3,654 a job.
    ({"award.annual_credit": 950_000_000}, "award.annual_credit", "3,653,846.15 a job", "did you mean 950,000?"),
]


@pytest.mark.parametrize("changes, key, value, fix", SLIPS, ids=[s[1] for s in SLIPS])
def test_each_slip_warns_with_file_key_value_and_fix(office, changes, key, value, fix):
    (line,) = plausibility_warnings(office.replace(changes))
    assert line.startswith(f"{OFFICE}: {key}: ")
    assert value in line and fix in line
    assert "\n" not in line


@pytest.mark.parametrize(
    "key, at_bound, beyond",
    [
        ("discount_rate", 0.25, 0.2500001),  # high 0.25: a value at the bound is plausible
        ("jobs.salary_growth", 0.15, 0.1500001),
        ("revenue.earnings_multiplier", 4.0, 4.0000001),
        ("threshold_override", 10.0, 10.000001),
        ("jobs.median_salary", 15_000.0, 14_999.99),  # low 15,000
        # 260 jobs x $9,000 (cap $8,000 + labor harmony $1,000) = $2,340,000 a year
        ("award.annual_credit", 2_340_000.0, 2_340_001.0),
        ("award.per_new_job", 9_000.0, 9_000.01),
    ],
)
def test_boundaries(office, key, at_bound, beyond):
    changes = {key: at_bound}
    if key == "award.per_new_job":
        changes = {"award.annual_credit": None, key: at_bound}
    assert plausibility_warnings(office.replace(changes)) == ()
    changes[key] = beyond
    (line,) = plausibility_warnings(office.replace(changes))
    assert f": {key}: " in line


def test_the_per_job_limit_is_read_from_the_section_75_parameters():
    (per_job,) = [r for r in RANGES if r.name == "annual_credit_per_job"]
    cap = parameter("award_credit_cap_per_job") + parameter("award_labor_harmony_addition_per_job")
    assert per_job.high == cap == 9000


def test_every_range_has_a_reason_and_is_graded_convention():
    for plausible in RANGES:
        assert plausible.source == "convention" and len(plausible.reason) > 20 and plausible.keys


def test_later_phases_are_checked_with_their_own_jobs():
    scenario = netbenefit.load_scenario(ROOT / "scenarios" / "phased_campus.yaml")
    # Phase 2: 60 jobs; $600,000 a year is $10,000 a job, above $9,000.
    (line,) = plausibility_warnings(scenario.replace({"phases.0.award.annual_credit": 600_000}))
    assert ": phases.0.award.annual_credit: 600,000 a year for 60 jobs is 10,000 a job" in line
    assert "did you mean" not in line  # $600,000 / 1,000 is $10 a job, below the smallest base credit ($500)
    (line,) = plausibility_warnings(scenario.replace({"phases.0.jobs.salary_growth": 2}))
    assert ": phases.0.jobs.salary_growth: 2 is implausible" in line and "did you mean 0.02?" in line


def test_no_fix_is_suggested_outside_the_valid_range(office):
    # 4.5 / 10 = 0.45 is below the multiplier's lower bound of 1: no suggestion.
    (line,) = plausibility_warnings(office.replace({"revenue.earnings_multiplier": 4.5}))
    assert "did you mean" not in line


def test_inflation_is_checked_at_0_2(office):
    # 0.2 a year is the upper end of the plausible range: 0.2 passes, 0.5 warns naming the key.
    (line,) = plausibility_warnings(office.replace({"inflation": 0.5}))
    assert line.startswith(f"{office.source}: inflation: 0.5 is implausible")
    assert plausibility_warnings(office.replace({"inflation": 0.2})) == ()
    assert plausibility_warnings(office) == ()  # not given: 0


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_no_bundled_scenario_raises_a_warning(path):
    assert plausibility_warnings(netbenefit.load_scenario(path)) == ()


def _as_read(office, discount_rate, salary_growth):
    """``office`` with these values as a file gives them (no warning given yet)."""
    data = office.to_dict()
    data["discount_rate"], data["jobs"]["salary_growth"] = discount_rate, salary_growth
    return netbenefit.Scenario.from_dict(data, source=str(OFFICE), base_dir=OFFICE.parent)


def test_evaluate_warns_and_fills_result_warnings(office):
    scenario = _as_read(office, 6, 3)
    with pytest.warns(PlausibilityWarning) as caught:
        result = netbenefit.evaluate(scenario)
    assert len(result.warnings) == 2 and [str(w.message) for w in caught] == list(result.warnings)
    assert caught[0].filename == __file__  # points at the caller of evaluate
    assert result.to_dict()["warnings"] == list(result.warnings)
    assert netbenefit.PlausibilityWarning is PlausibilityWarning and issubclass(PlausibilityWarning, UserWarning)


def test_a_plausible_scenario_warns_nothing(office):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = netbenefit.evaluate(office)
    assert result.warnings == () and result.to_dict()["warnings"] == []


def test_as_errors_every_warning_of_the_scenario_is_carried(office):
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlausibilityWarning)
        with pytest.raises(PlausibilityWarning) as caught:
            netbenefit.evaluate(office.replace({"discount_rate": 6, "jobs.median_salary": 98}))
    assert len(caught.value.lines) == 2
    assert ": discount_rate: " in caught.value.lines[0] and ": jobs.median_salary: " in caught.value.lines[1]


@pytest.mark.slow
def test_the_notebook_view_and_the_report_show_the_warnings(office):
    from netbenefit.views.html import report_html

    with pytest.warns(PlausibilityWarning):
        result = netbenefit.evaluate(office.replace({"discount_rate": 6}))
    for page in (result._repr_html_(), report_html(result)):
        assert "Plausibility warnings" in page and "did you mean 0.06?" in page
    assert "Plausibility warnings" not in netbenefit.evaluate(office)._repr_html_()


def _plausibility_warnings_of(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    return value, [str(w.message) for w in caught if issubclass(w.category, PlausibilityWarning)]


@pytest.mark.parametrize(
    "key, value, fix",
    [
        ("discount_rate", 0.3, None),  # a decimal already: 0.003 (0.3%) is not what a 30% rate meant
        ("discount_rate", 0.99, None),
        ("discount_rate", 6, "did you mean 0.06?"),
        ("discount_rate", 1, "did you mean 0.01?"),
        ("jobs.salary_growth", 0.5, None),
        ("jobs.salary_growth", 3, "did you mean 0.03?"),
        ("inflation", 0.5, None),
        ("inflation", 1, "did you mean 0.01?"),
    ],
)
def test_the_hint_names_only_a_value_the_user_could_have_meant(office, key, value, fix):
    # Was: Scenario.replace({"discount_rate": 0.3}) said "did you mean 0.003?", and said it twice.
    variant, given = _plausibility_warnings_of(lambda: office.replace({key: value}))
    result, evaluated = _plausibility_warnings_of(lambda: netbenefit.evaluate(variant))
    assert len(given) == 1 and evaluated == []  # warned once, as it was given; evaluate does not say it again
    (line,) = result.warnings  # the result keeps it
    for text in (given[0], line):
        assert f": {key}: " in text
        assert (fix in text) if fix else "did you mean" not in text


def test_a_value_warned_about_once_stays_warned_through_later_variants(office):
    variant, given = _plausibility_warnings_of(lambda: office.replace({"discount_rate": 0.3}))
    again, more = _plausibility_warnings_of(lambda: variant.replace({"jobs.new": 250}))
    _, evaluated = _plausibility_warnings_of(lambda: netbenefit.evaluate(again))
    assert len(given) == 1 and more == [] and evaluated == []
    changed, said = _plausibility_warnings_of(lambda: again.replace({"discount_rate": 0.4}))
    _, evaluated = _plausibility_warnings_of(lambda: netbenefit.evaluate(changed))
    assert len(said) == 1 and "0.4 (given to Scenario.replace)" in said[0] and evaluated == []
    _, read = _plausibility_warnings_of(lambda: netbenefit.evaluate(_as_read(office, 0.3, 0.02)))
    assert len(read) == 1  # a value read from a file is warned about when evaluated
