"""HTML views of results: rich display in Jupyter, and the self-contained report.

- :func:`result_html` is what a :class:`~netbenefit.model.result.Result` shows in a notebook
  (``Result._repr_html_``): the ratio against its threshold, the checks and the cash flows.
- :class:`Comparison` wraps several results: in a notebook it shows a styled summary table,
  ``.table`` is :func:`netbenefit.compare`'s DataFrame and ``.plot()`` draws
  :func:`netbenefit.views.charts.compare_ratios`.
- :func:`report_html` is the stand-alone page of ``netbenefit report``: inputs, every check with
  its clause, the conventions used, the cash flows and the charts embedded as PNG images. It
  needs no network access to be read (no external style sheets, scripts or fonts).

The parts: :mod:`netbenefit.views.html.pieces` (the style sheet, formatters and tables every view
shares), :mod:`netbenefit.views.html.result` (what a notebook shows of a result and of several
results) and :mod:`netbenefit.views.html.report` (the report, its print style sheet and the PDF).
Every function reads the result's fields and tables; none applies a rule.

>>> import netbenefit
>>> from netbenefit.views.html import Comparison
>>> comparison = Comparison.of(["scenarios/party_city.yaml", "scenarios/mega_project.yaml"])  # doctest: +SKIP
>>> comparison  # doctest: +SKIP
"""

from __future__ import annotations

from ...model.compare import Comparison  # importable from here as before
from .pieces import FAIL_STYLE, PASS_STYLE, STYLE, figure_png_base64, flatten, html_table, written_value
from .report import (
    CASHFLOW_COLUMNS_PER_TABLE,
    CHART_CAPTIONS,
    PAPER_SIZES,
    benefits_by_tax_html,
    chart_alt,
    clawback_html,
    conventions_html,
    inputs_html,
    print_css,
    report_html,
    write_pdf,
    write_report,
)
from .result import (
    CASHFLOW_HEADLINE_COLUMNS,
    award_calculation_html,
    cashflows_html,
    checks_html,
    comparison_html,
    headline_html,
    phase_tests_html,
    result_html,
    warnings_html,
)

__all__ = [
    "CASHFLOW_COLUMNS_PER_TABLE",
    "CASHFLOW_HEADLINE_COLUMNS",
    "CHART_CAPTIONS",
    "FAIL_STYLE",
    "PAPER_SIZES",
    "PASS_STYLE",
    "STYLE",
    "Comparison",
    "award_calculation_html",
    "benefits_by_tax_html",
    "cashflows_html",
    "chart_alt",
    "checks_html",
    "clawback_html",
    "comparison_html",
    "conventions_html",
    "figure_png_base64",
    "flatten",
    "headline_html",
    "html_table",
    "inputs_html",
    "phase_tests_html",
    "print_css",
    "report_html",
    "result_html",
    "warnings_html",
    "write_pdf",
    "write_report",
    "written_value",
]
