"""The one place where a model or analysis object reaches its views.

A :class:`~netbenefit.model.result.Result`, a :class:`~netbenefit.model.scenario.Scenario`, a
:class:`~netbenefit.analysis.diff.Diff`, a comparison, a Monte Carlo run, a sensitivity table, a solver's
result and a portfolio each show themselves in a notebook, write their workbook or report and draw
their charts through :func:`view`, which finds the view module by its name when first asked, as
pandas finds its plotting backend (``pandas/plotting/_core.py``). So no model or analysis module
imports the HTML, workbook, chart, notebook or output code, even inside a function: the floors of
the package point one way (``docs/layout.md``), and ``tests/unit/test_floors.py`` keeps them.

>>> view("result_html").__name__
'result_html'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Each view a model object uses: its name -> (the view module, the name in it).
VIEWS: dict[str, tuple[str, str]] = {
    # a result
    "result_html": ("netbenefit.html", "result_html"),
    "result_table_html": ("netbenefit.notebook", "result_table_html"),
    "scenario_charts": ("netbenefit.charts", "SCENARIO_CHARTS"),
    "write_workbook": ("netbenefit.workbook", "write_workbook"),
    "write_report": ("netbenefit.html", "write_report"),
    "write_memo": ("netbenefit.html.memo", "write_memo"),
    # a scenario
    "scenario_html": ("netbenefit.notebook", "scenario_html"),
    # several results
    "comparison_html": ("netbenefit.html", "comparison_html"),
    "compare_ratios": ("netbenefit.charts", "compare_ratios"),
    # a diff
    "diff_html": ("netbenefit.notebook", "diff_html"),
    "ratio_waterfall": ("netbenefit.charts", "ratio_waterfall"),
    "write_diff_memo": ("netbenefit.html.memo", "write_diff_memo"),
    # the analysis
    "montecarlo_html": ("netbenefit.notebook", "montecarlo_html"),
    "montecarlo_distribution": ("netbenefit.charts", "montecarlo_distribution"),
    "sensitivity_html": ("netbenefit.notebook", "sensitivity_html"),
    "tornado": ("netbenefit.charts", "tornado"),
    "solver_html": ("netbenefit.notebook", "solver_html"),
    # a portfolio
    "portfolio_html": ("netbenefit.portfolio_views", "portfolio_html"),
    "portfolio_charts": ("netbenefit.charts.portfolio", "PORTFOLIO_CHARTS"),
    "write_portfolio_workbook": ("netbenefit.portfolio_views", "write_portfolio_workbook"),
    "write_portfolio_page": ("netbenefit.portfolio_views", "write_portfolio_page"),
}


def view(name: str) -> Any:
    """The view ``name`` of :data:`VIEWS` (a function, or a table of charts), its module imported
    on first use."""
    module, attribute = VIEWS[name]
    return getattr(import_module(module), attribute)
