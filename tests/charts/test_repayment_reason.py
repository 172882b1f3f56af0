"""The repayment chart's note says why nothing is repaid: the project passes without the
extension, or fails even with it counted, 71(a)(5)(d)."""

import warnings
from pathlib import Path

import netbenefit
from netbenefit.views import charts

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _note(result) -> str:
    ax = charts.new_figure()[1]
    charts.repayment_schedule(result, ax=ax)
    return " ".join(t.get_text() for t in ax.texts)


def test_a_project_that_fails_even_with_the_extension_is_not_said_to_pass_without_it():
    scenario = netbenefit.load_scenario(SCENARIOS / "extended_commitment.yaml")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        failing = netbenefit.evaluate(scenario.replace({"award.annual_credit": 9_999_999}))
    assert failing.extension_counted and not failing.passes and failing.incremental_credit == 0
    note = _note(failing)
    assert "fails the test even with the extension counted" in note
    assert "passes without the extension" not in note
