"""One table of the scenario keys' labels (netbenefit.labels.table.SCENARIO_KEYS): the workbook's
Inputs sheet and the notebook (through netbenefit.labels.label) both read their labels from it,
and every label the workbook writes declares its unit."""

from __future__ import annotations

from pathlib import Path

import netbenefit
from netbenefit import labels
from netbenefit.labels.table import DATE_FORMAT, NUMBER_FORMAT, SCENARIO_KEYS, WORKBOOK_LABELS
from netbenefit.views import notebook, workbook

ROOT = Path(__file__).resolve().parents[2]

#: Inputs that are text (no unit): the workbook writes them with an empty unit.
TEXT_INPUTS = {"name", "description", "use", "work", "income_tax"}


def test_every_workbook_label_key_is_a_key_of_the_one_table():
    assert set(WORKBOOK_LABELS) == {key for key, entry in SCENARIO_KEYS.items() if entry.workbook is not None}
    assert workbook.INPUT_LABELS is WORKBOOK_LABELS


def test_the_inputs_sheet_labels_a_key_by_the_whole_key_not_its_last_segment():
    # was: looked up by the last segment, `revenue.income_tax.method` took the label of the
    # top-level `method` (the set of conventions) and `revenue.income_tax.rate` was "Rate"
    assert workbook.input_label("revenue.income_tax.method")[0] == "Income tax method"
    assert workbook.input_label("method")[0] == SCENARIO_KEYS["method"].in_workbook[0]
    assert workbook.input_label("revenue.income_tax.rate")[:2] == ("Effective income tax rate", "share")
    assert workbook.input_label("streams.2.name")[0] == "Stream name, item 3"  # the one wording of labels
    assert workbook.input_label("phases.0.name")[0] == "Phase 2: Phase name"
    assert workbook.input_label("phases.1.jobs.new")[0] == f"Phase 3: {SCENARIO_KEYS['jobs.new'].in_workbook[0]}"
    assert workbook.input_label("no_such.key") == ("Key", "", "")  # a key the table does not hold: its name


def test_every_workbook_label_has_a_unit():
    for key, (text, unit, number_format) in WORKBOOK_LABELS.items():
        ending = key.rsplit(".", 1)[-1]
        assert text and number_format, key
        if ending in TEXT_INPUTS:
            assert unit == "" and number_format == NUMBER_FORMAT, ending
        else:
            assert unit, f"the workbook's label of {ending!r} has no unit"
        if number_format == DATE_FORMAT:
            assert unit == "date", ending
    for key, entry in SCENARIO_KEYS.items():  # a number the workbook formats has a unit in the table too
        if entry.workbook is not None and entry.workbook.number_format not in (NUMBER_FORMAT, DATE_FORMAT):
            assert entry.unit, f"{key}: a number format but no unit"


def test_the_workbook_and_the_notebook_labels_come_from_the_one_table():
    for key, entry in SCENARIO_KEYS.items():
        assert labels.label(key) == labels.SCENARIO_LABELS[key] == entry.with_unit
        assert labels.unit(key) == entry.unit
        if entry.workbook is not None:
            assert workbook.input_label(key) == entry.in_workbook
    # one wording per key: the workbook's Inputs sheet writes the table's label, its unit as people
    # write it (the cell shows the share as a percent)
    rate = SCENARIO_KEYS["discount_rate"]
    assert rate.with_unit == "Discount rate [share/year]"
    assert workbook.input_label("discount_rate") == ("Discount rate", "% a year", "0.00%")
    assert workbook.input_label("phases.0.jobs.new")[0] == f"Phase 2: {SCENARIO_KEYS['jobs.new'].in_workbook[0]}"


def test_the_notebook_and_the_inputs_sheet_show_the_tables_words(tmp_path):
    import openpyxl

    result = netbenefit.evaluate(ROOT / "scenarios" / "party_city.yaml")
    page = notebook.scenario_html(result.scenario)
    sheet = openpyxl.load_workbook(result.to_excel(tmp_path / "party_city.xlsx"))["Inputs"]
    by_key = {row[1]: (row[0], row[2]) for row in sheet.iter_rows(min_row=2, values_only=True)}
    for key in ("discount_rate", "jobs.new", "award.annual_credit", "facility.accommodates_share"):
        entry = SCENARIO_KEYS[key]
        assert entry.with_unit in page
        assert by_key[key] == entry.in_workbook[:2]
