"""One money formatter everywhere: a negative amount reads "-$1,234" in the summary, the diff,
the solvers, the report, the notebook Styler and the charts, never "$-1,234"."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import netbenefit
from netbenefit import labels, notebook

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
ROOT = Path(__file__).resolve().parents[2] / "netbenefit"


def _net_cost():
    """The office with a cost stream larger than its revenues: negative PV of net benefits."""
    office = netbenefit.load_scenario(SCENARIOS / "office_hq_default_area.yaml")
    data = office.as_written
    data["streams"] = [{"name": "public services", "kind": "cost", "by_year": {y: 90_000_000 for y in range(1, 12)}}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return netbenefit.evaluate(netbenefit.Scenario.from_dict(data, source="net_cost.yaml", base_dir=str(SCENARIOS)))


def test_negative_amounts_read_minus_dollar_everywhere():
    result = _net_cost()
    assert result.pv_benefits < 0
    texts = [
        result.summary(),
        netbenefit.diff(SCENARIOS / "office_hq_default_area.yaml", result.scenario).summary(),
        netbenefit.analysis.max_award(result.scenario).message,
        notebook.styled(result.cashflows).to_html(),
        result.cashflows._repr_html_(),
    ]
    for text in texts:
        assert "$-" not in text
    assert labels.money_exact(-1234) == "-$1,234" and labels.money(-1234) == "-$1K"
    assert "-$" in texts[0]


def test_no_module_formats_dollars_with_a_sign_after_the_dollar():
    """Amounts that may be negative go through labels.money_exact or labels.money; an f-string
    "${x:,.0f}" is left only where the amount cannot be negative (a cap, credits)."""
    allowed = {"award.py", "after_approval.py", "cells.py", "explain.py"}  # cells.py: the workbook's
    pattern = re.compile(r"\$\{[^}]*:,\.0f\}")
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in ROOT.rglob("*.py")
        if path.name not in allowed and path.relative_to(ROOT).as_posix() != "labels/__init__.py"
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line) and "abs(" not in line  # a sign written before the dollar is fine
    ]
    assert not offenders, offenders
