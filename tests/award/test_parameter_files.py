"""Every parameters file of the package is loaded; a name is defined once across all of them."""

from importlib import resources

import pytest

from netbenefit.law.parameters import FIELDS, PARAMETERS, parse_parameter_files

ENTRY = "\n".join(
    [
        "{name}:",
        "  description: A number.",
        "  unit: usd",
        "  comparison: value",
        "  effective: 2021-01-07",
        "  source: convention",
        "  reference: a reference",
        "  value: 1",
    ]
)


def test_every_yaml_file_of_the_folder_is_loaded():
    folder = resources.files("netbenefit.law.parameters")
    files = [entry.name for entry in folder.iterdir() if entry.name.endswith(".yaml")]
    assert {"emerge.yaml", "award.yaml"} <= set(files)
    assert "award_credit_cap_per_job" in PARAMETERS
    assert "net_benefit_threshold_default" in PARAMETERS


def test_award_parameters_have_the_same_fields_as_emerge():
    text = resources.files("netbenefit.law.parameters").joinpath("award.yaml").read_text(encoding="utf-8")
    assert set(parse_parameter_files([("award.yaml", text)])) <= set(PARAMETERS)
    secondary = (
        "award_credit_cap_per_job",
        "award_labor_harmony_addition_per_job",
        "award_retained_job_share_of_new_job",
    )
    for name in secondary:
        assert PARAMETERS[name].source == "secondary"


def test_a_name_in_two_files_is_an_error():
    with pytest.raises(RuntimeError, match="already defined"):
        parse_parameter_files([("a.yaml", ENTRY.format(name="x")), ("b.yaml", ENTRY.format(name="x"))])


def test_a_name_twice_in_one_file_is_an_error():
    text = ENTRY.format(name="x") + "\n" + ENTRY.format(name="x")
    with pytest.raises(RuntimeError, match="given twice"):
        parse_parameter_files([("a.yaml", text)])


def test_an_entry_without_every_field_is_an_error():
    text = "\n".join(line for line in ENTRY.format(name="x").splitlines() if "unit" not in line)
    with pytest.raises(RuntimeError, match="fields must be exactly"):
        parse_parameter_files([("a.yaml", text)])
    assert "unit" in FIELDS


def test_distinct_names_in_two_files_load():
    loaded = parse_parameter_files([("a.yaml", ENTRY.format(name="x")), ("b.yaml", ENTRY.format(name="y"))])
    assert sorted(loaded) == ["x", "y"]


def test_the_data_files_reader_refuses_a_name_twice_at_any_depth():
    # The plausible ranges are read with it too (netbenefit.model.plausibility).
    from netbenefit.law.parameters import parse_data_yaml

    assert parse_data_yaml("a:\n  low: 1\nb: 2\n") == {"a": {"low": 1}, "b": 2}
    with pytest.raises(RuntimeError, match="names given twice in one file: low"):
        parse_data_yaml("a:\n  low: 1\n  low: 2\n")
