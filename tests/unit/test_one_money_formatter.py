"""One money formatter everywhere: a negative amount reads "-$1,234" in the summary, the diff,
the solvers, the report, the notebook Styler and the charts, never "$-1,234"."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

import netbenefit
from netbenefit import labels
from netbenefit.views import notebook

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


@pytest.mark.slow
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


def test_money_and_percent_are_formatted_in_labels_only():
    """One money formatter (``labels.money`` short, ``labels.money_exact`` to the dollar) and one
    percent formatter (``labels.share`` for shares, ``labels.ratio`` for net benefit ratios): no
    other module defines a function that formats money or a percent (the charts' axis formatters
    call them)."""
    import ast

    names = re.compile(r"^_?(money|percent|dollars?|share|ratio)(_exact|_text|_label)?$")
    defined = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.name}"
        for path in ROOT.rglob("*.py")
        if path.parent.name != "labels" and path.name != "labels.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and names.match(node.name)
        and node.returns is not None and ast.unparse(node.returns) == "str"
    ]
    assert not defined, defined
