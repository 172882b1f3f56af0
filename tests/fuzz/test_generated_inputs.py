"""Generated malformed scenario files and CSV streams: each one is a ScenarioError, never a crash.

A v1 file that breaks the contract (scenario-format.md) must be rejected "with an error that names
the key and the file"; through the command line that is exit status 2 and one line on stderr.
The inputs are valid scenarios (tests/properties/scenario_strategies.py) with one fault put in:
a wrong type at any key, a missing required key, an unknown key at any level, a number that is
NaN, infinite, huge or negative, or arbitrary bytes and text.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path

from fuzz.fuzz_support import assert_one_clean_error_line, dump, files_under, load_error, run_cli_in_process
from hypothesis import given, settings
from hypothesis import strategies as st
from properties.scenario_strategies import scenario_dicts

import netbenefit

EXAMPLES = settings(max_examples=150)
STRUCTURED = settings(max_examples=100)  # each example parses a full scenario twice

#: Every key name of the v1 contract: an "unknown" key is drawn outside this set.
V1_KEY_NAMES = set(
    """name description application_date discount_rate timing threshold_override business small_business
    targeted_industry full_time_employees_at_application location qualified_incentive_area
    qualified_incentive_tract government_restricted_municipality distressed_municipality enhanced_area
    mega_project facility portions use work gross_leasable_area_sqft accommodates_share capital_investment
    jobs new retained ramp median_salary salary_growth nj_withholding_share award annual_credit per_new_job
    per_retained_job eligibility_period_years first_credit_year commitment period_years extended_years revenue
    income_tax_effective_rate income_tax taxable_spending_share construction_taxable_share
    construction_labor_share construction_income_tax_rate earnings_multiplier corporate_business_tax
    sales_and_use_tax_rate streams kind abated by_year from_csv attestations material_factor
    environmental_standards affirmative_action prevailing_wage construction building_services exemption
    landlord_not_assisted landlord_party_to_contract lease_share_of_facility
    construction_starts_years_after_first_certificate phases start_year section_75""".split()
)

#: Values of the wrong type for a key whose valid value is of the given type.
WRONG_TYPES = {
    bool: [2, "yes", [True], {"a": 1}, 0.5],
    int: ["12abc", [1], {"a": 1}, True, "1"],
    float: ["12abc", [1.5], {"a": 1}, False, "0.5"],
    str: [12, [1], {"a": 1}, True, 3.5],
    dict: ["text", [1], 12, True],
    list: ["text", {"a": 1}, 12, False],
}
#: Numbers no key accepts: not finite, too large for a float, or below every lower bound (-1).
BAD_NUMBERS = [float("nan"), float("inf"), float("-inf"), 10**400, -(10**400), -1e308, -2]


def paths(node, prefix=()):
    """(path tuple, value) of every value inside a scenario dict, depth first."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key), value
            yield from paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*prefix, index), value
            yield from paths(value, (*prefix, index))


def dotted(path) -> str:
    return ".".join(str(part) for part in path)


def parent_of(data, path):
    node = data
    for part in path[:-1]:
        node = node[part]
    return node


def type_of(value):
    if isinstance(value, bool):
        return bool
    if hasattr(value, "isoformat"):  # a date written unquoted
        return str
    return type(value) if type(value) in WRONG_TYPES else None


@st.composite
def wrong_type_files(draw):
    data = draw(scenario_dicts())
    candidates = [(path, value) for path, value in paths(data) if type_of(value) is not None]
    path, value = draw(st.sampled_from(candidates))
    replacement = draw(st.sampled_from(WRONG_TYPES[type_of(value)]))
    if path[-1] == "application_date" and isinstance(replacement, bool | int | float):
        replacement = "the first of June"  # a number is a Unix time to the date parser
    mutated = copy.deepcopy(data)
    parent_of(mutated, path)[path[-1]] = replacement
    return mutated, path


@st.composite
def bad_number_files(draw):
    data = draw(scenario_dicts())
    candidates = [path for path, value in paths(data) if isinstance(value, int | float) and not isinstance(value, bool)]
    path = draw(st.sampled_from(candidates))
    mutated = copy.deepcopy(data)
    parent_of(mutated, path)[path[-1]] = draw(st.sampled_from(BAD_NUMBERS))
    return mutated, path


unknown_keys = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12).filter(
    lambda key: key not in V1_KEY_NAMES
)


@st.composite
def unknown_key_files(draw):
    data = draw(scenario_dicts())
    levels = [()] + [
        path
        for path, value in paths(data)
        if isinstance(value, dict) and path[-1] not in ("capital_investment", "by_year")
    ]
    level = draw(st.sampled_from(levels))
    key = draw(unknown_keys)
    mutated = copy.deepcopy(data)
    target = mutated
    for part in level:
        target = target[part]
    target[key] = draw(st.sampled_from([1, "x", None, [1], {"a": 1}]))
    return mutated, (*level, key)


REQUIRED = [
    ("name",),
    ("application_date",),
    ("discount_rate",),
    ("facility",),
    ("facility", "portions"),
    ("facility", "accommodates_share"),
    ("facility", "portions", 0, "use"),
    ("facility", "portions", 0, "work"),
    ("facility", "portions", 0, "gross_leasable_area_sqft"),
    ("jobs",),
    ("jobs", "new"),
    ("jobs", "nj_withholding_share"),
    ("award",),
]


@st.composite
def missing_key_files(draw):
    data = draw(scenario_dicts())
    required = list(REQUIRED)
    award = data["award"]
    required.append(("award", "annual_credit" if "annual_credit" in award else "per_new_job"))
    if "revenue" in data:
        required.append(("jobs", "median_salary"))
    for i in range(len(data["streams"])):
        required += [("streams", i, "name"), ("streams", i, "kind"), ("streams", i, "by_year")]
    for i, _ in enumerate(data.get("phases", [])):
        required += [("phases", i, key) for key in ("name", "start_year", "jobs", "award")]
    path = draw(st.sampled_from(required))
    mutated = copy.deepcopy(data)
    del parent_of(mutated, path)[path[-1]]
    return mutated, path


def check_rejected(text: str, path) -> None:
    """Load and run the command line on ``text``: a ScenarioError that names the file and ``path``
    (or the mapping that holds it); exit 2, one stderr line; no file written."""
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "scenario.yaml"
        file.write_text(text, encoding="utf-8")
        before = files_under(Path(folder))
        error = load_error(file)
        assert error is not None, f"accepted a scenario with a fault at {dotted(path)}"
        assert error.source == str(file)
        assert error.key and dotted(path).startswith(error.key), (error.key, dotted(path), str(error))
        run = run_cli_in_process(file)
        assert_one_clean_error_line(run, file, error.key if error.key.isprintable() else None)
        assert files_under(Path(folder)) == before


@STRUCTURED
@given(wrong_type_files())
def test_a_value_of_the_wrong_type_at_any_key_is_rejected_naming_the_key(case):
    data, path = case
    check_rejected(dump(data), path)


@STRUCTURED
@given(bad_number_files())
def test_a_nan_infinite_huge_or_negative_number_at_any_numeric_key_is_rejected(case):
    data, path = case
    check_rejected(dump(data), path)


@STRUCTURED
@given(unknown_key_files())
def test_an_unknown_key_at_any_level_is_rejected_naming_it(case):
    data, path = case
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "scenario.yaml"
        file.write_text(dump(data), encoding="utf-8")
        error = load_error(file)
        assert error is not None
        assert error.key == dotted(path) and error.problem.startswith("unknown key"), str(error)
        assert_one_clean_error_line(run_cli_in_process(file), file)


@STRUCTURED
@given(missing_key_files())
def test_a_missing_required_key_is_rejected_naming_it(case):
    data, path = case
    check_rejected(dump(data), path)


# ----------------------------------------------------------------------------------------------
# Arbitrary bytes, text and YAML documents
# ----------------------------------------------------------------------------------------------

yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def check_any_input(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "scenario.yaml"
        file.write_bytes(content)
        before = files_under(Path(folder))
        error = load_error(file)
        assert error is not None
        assert str(error).startswith(str(file))
        assert_one_clean_error_line(run_cli_in_process(file), file)
        assert files_under(Path(folder)) == before


@EXAMPLES
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_are_rejected_cleanly(content):
    check_any_input(content)


@EXAMPLES
@given(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=500))
def test_arbitrary_text_with_control_and_unicode_characters_is_rejected_cleanly(text):
    check_any_input(text.encode("utf-8"))


@EXAMPLES
@given(yaml_values)
def test_an_arbitrary_yaml_document_is_rejected_cleanly(value):
    check_any_input(dump(value).encode("utf-8"))


# ----------------------------------------------------------------------------------------------
# Stream CSV files: header, rows, years and amounts
# ----------------------------------------------------------------------------------------------

csv_cells = st.one_of(
    st.integers(-5, 1200).map(str),
    st.sampled_from(["", " ", "nan", "NaN", "inf", "-inf", "1e400", "-1e308", "1.5", "²", "１２", "0x10", "1_000",
                     "10" * 300, "abc", '"1"', "1,2", "\x00", "\ufeff1"]),
    st.floats(allow_nan=True).map(repr),
)  # fmt: skip
csv_rows = st.lists(st.lists(csv_cells, min_size=0, max_size=3).map(",".join), max_size=12)
csv_headers = st.sampled_from(["year,amount", "Year, Amount", "amount,year", "year", "year,amount,extra", "", "yr,amt"])


@EXAMPLES
@given(csv_headers, csv_rows, st.sampled_from(["\n", "\r\n", "\r"]))
def test_a_generated_stream_csv_loads_only_when_every_row_is_a_year_and_an_amount(header, rows, newline):
    base = {
        "name": "CSV stream",
        "application_date": "2026-06-01",
        "discount_rate": 0.05,
        "facility": {"portions": [{"use": "other", "work": "rehabilitation", "gross_leasable_area_sqft": 1000}],
                     "accommodates_share": 1.0},
        "jobs": {"new": 40, "nj_withholding_share": 1.0},
        "award": {"annual_credit": 1000},
        "streams": [{"name": "imported", "kind": "revenue", "from_csv": "data/stream.csv"}],
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "data").mkdir()
        (Path(folder) / "data" / "stream.csv").write_text(newline.join([header, *rows]) + newline, encoding="utf-8")
        file = Path(folder) / "scenario.yaml"
        file.write_text(dump(base), encoding="utf-8")
        try:
            scenario = netbenefit.load_scenario(file)
        except netbenefit.ScenarioError as error:
            assert error.key == "streams.0.from_csv", str(error)
            assert_one_clean_error_line(run_cli_in_process(file), file, "streams.0.from_csv")
            return
        values = dict(scenario.streams[0].by_year)
        assert header.replace(" ", "").lower() == "year,amount"
        assert values and all(1 <= year <= 1000 and 0 <= amount < float("inf") for year, amount in values.items())
        assert len(values) == len([row for row in rows if row.strip(" ,")])
