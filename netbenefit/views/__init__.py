"""The one place where a model or analysis object reaches its views.

A :class:`~netbenefit.model.result.Result`, a :class:`~netbenefit.model.scenario.Scenario`, a
:class:`~netbenefit.analysis.diff.Diff`, a comparison, a Monte Carlo run, a sensitivity table, a solver's
result and a portfolio each show themselves in a notebook, write their workbook or report and draw
their charts through :func:`view`, which finds the view module by its name when first asked, as
pandas finds its plotting backend (``pandas/plotting/_core.py``). So no model or analysis module
imports the HTML, workbook, chart, notebook or output code, even inside a function: the floors of
the package point one way (``docs/layout.md``), and ``tests/unit/test_floors.py`` keeps them.

The views floor, this folder: charts, HTML pages and the memo, the workbook, notebook display and
tables, the explorer, and the files of a comparison or a portfolio (``result_files``,
``portfolio_files``, with the chart cache). A view may import the analysis, the model, the law,
``io`` and ``errors``; never the command line.

>>> view("result_html").__name__
'result_html'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Each view a model object uses: its name -> (the view module, the name in it).
VIEWS: dict[str, tuple[str, str]] = {
    # a result
    "result_html": ("netbenefit.views.html", "result_html"),
    "result_table_html": ("netbenefit.views.notebook", "result_table_html"),
    "scenario_charts": ("netbenefit.views.charts", "SCENARIO_CHARTS"),
    "write_workbook": ("netbenefit.views.workbook", "write_workbook"),
    "write_report": ("netbenefit.views.html", "write_report"),
    "write_memo": ("netbenefit.views.html.memo", "write_memo"),
    # a scenario
    "scenario_html": ("netbenefit.views.notebook", "scenario_html"),
    # several results
    "comparison_html": ("netbenefit.views.html", "comparison_html"),
    "compare_ratios": ("netbenefit.views.charts", "compare_ratios"),
    # a diff
    "diff_html": ("netbenefit.views.notebook", "diff_html"),
    "ratio_waterfall": ("netbenefit.views.charts", "ratio_waterfall"),
    "write_diff_memo": ("netbenefit.views.html.memo", "write_diff_memo"),
    # the analysis
    "montecarlo_html": ("netbenefit.views.notebook", "montecarlo_html"),
    "montecarlo_distribution": ("netbenefit.views.charts", "montecarlo_distribution"),
    "sensitivity_html": ("netbenefit.views.notebook", "sensitivity_html"),
    "tornado": ("netbenefit.views.charts", "tornado"),
    "solver_html": ("netbenefit.views.notebook", "solver_html"),
    # a portfolio
    "portfolio_html": ("netbenefit.views.portfolio_files", "portfolio_html"),
    "portfolio_charts": ("netbenefit.views.charts.portfolio", "PORTFOLIO_CHARTS"),
    "write_portfolio_workbook": ("netbenefit.views.portfolio_files", "write_portfolio_workbook"),
    "write_portfolio_page": ("netbenefit.views.portfolio_files", "write_portfolio_page"),
}


def view(name: str) -> Any:
    """The view ``name`` of :data:`VIEWS` (a function, or a table of charts), its module imported
    on first use."""
    module, attribute = VIEWS[name]
    return getattr(import_module(module), attribute)
