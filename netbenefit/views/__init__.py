"""The one place where a model or analysis object reaches its views.

A :class:`~netbenefit.model.result.Result`, a :class:`~netbenefit.model.scenario.Scenario`, a
:class:`~netbenefit.analysis.diff.Diff`, a comparison, a Monte Carlo run, a sensitivity table, a solver's
result and a portfolio each show themselves in a notebook, write their workbook or report and draw
their charts through one function here per view (a writer checks the path it is given first,
:func:`netbenefit.io.writing.written_file`), which imports the view module when first
called, by a real import an import reader follows, as pandas reaches its plotting backend
(``pandas/plotting/_core.py``). So no model or analysis module
imports the HTML, workbook, chart, notebook or output code, even inside a function: the floors of
the package point one way (``docs/layout.md``), and ``tests/unit/test_floors.py`` keeps them.

The views floor, this folder: charts, HTML pages and the memo, the workbook, notebook display and
tables, the explorer, and the files of a comparison or a portfolio (``result_files``,
``portfolio_files``, with the chart cache). A view may import the analysis, the model, the law,
``io`` and ``errors``; never the command line.

>>> callable(result_html)
True
"""
from __future__ import annotations

from typing import Any

from ..io.writing import written_file  # every file the Python API writes: its path checked first


def result_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.html.result_html`."""
    from .html import result_html  # a view, a floor above the model: imported on first use

    return result_html(*args, **kwargs)


def result_table_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.notebook.result_table_html`."""
    from .notebook import result_table_html  # a view, a floor above the model: imported on first use

    return result_table_html(*args, **kwargs)


def scenario_charts() -> dict[str, Any]:
    """The table of charts :mod:`netbenefit.views.charts` draws (``SCENARIO_CHARTS``)."""
    from .charts import SCENARIO_CHARTS  # a view, a floor above the model: imported on first use

    return SCENARIO_CHARTS


def write_workbook(results: Any, path: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.workbook.write_workbook` (``to_excel``: the path checked first,
    :func:`netbenefit.io.writing.written_file`)."""
    with written_file("to_excel", path) as target:
        from .workbook import write_workbook  # a view, a floor above the model: imported on first use

        return write_workbook(results, target, **kwargs)


def write_report(results: Any, path: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.html.write_report` (``to_html``: the path checked first)."""
    with written_file("to_html", path) as target:
        from .html import write_report  # a view, a floor above the model: imported on first use

        return write_report(results, target, **kwargs)


def write_memo(results: Any, path: Any, **options: Any) -> Any:
    """:func:`netbenefit.views.html.memo.write_memo` (``to_pdf``: the path and every option checked
    first, :func:`netbenefit.views.html.memo.memo_options`)."""
    with written_file("to_pdf", path) as target:
        from .html.memo import memo_options, write_memo  # a view, a floor above the model: imported on first use

        return write_memo(results, target, **memo_options(options, "to_pdf"))


def scenario_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.notebook.scenario_html`."""
    from .notebook import scenario_html  # a view, a floor above the model: imported on first use

    return scenario_html(*args, **kwargs)


def comparison_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.html.comparison_html`."""
    from .html import comparison_html  # a view, a floor above the model: imported on first use

    return comparison_html(*args, **kwargs)


def compare_ratios(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.charts.compare_ratios`."""
    from .charts import compare_ratios  # a view, a floor above the model: imported on first use

    return compare_ratios(*args, **kwargs)


def diff_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.notebook.diff_html`."""
    from .notebook import diff_html  # a view, a floor above the model: imported on first use

    return diff_html(*args, **kwargs)


def ratio_waterfall(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.charts.ratio_waterfall`."""
    from .charts import ratio_waterfall  # a view, a floor above the model: imported on first use

    return ratio_waterfall(*args, **kwargs)


def write_diff_memo(diff: Any, path: Any, **options: Any) -> Any:
    """:func:`netbenefit.views.html.memo.write_diff_memo` (``to_pdf``: the path and every option
    checked first)."""
    with written_file("to_pdf", path) as target:
        from .html.memo import memo_options, write_diff_memo  # a view, a floor above the model: imported on first use

        return write_diff_memo(diff, target, **memo_options(options, "to_pdf", diff=True))


def montecarlo_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.notebook.montecarlo_html`."""
    from .notebook import montecarlo_html  # a view, a floor above the model: imported on first use

    return montecarlo_html(*args, **kwargs)


def montecarlo_distribution(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.charts.montecarlo_distribution`."""
    from .charts import montecarlo_distribution  # a view, a floor above the model: imported on first use

    return montecarlo_distribution(*args, **kwargs)


def sensitivity_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.notebook.sensitivity_html`."""
    from .notebook import sensitivity_html  # a view, a floor above the model: imported on first use

    return sensitivity_html(*args, **kwargs)


def tornado(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.charts.tornado`."""
    from .charts import tornado  # a view, a floor above the model: imported on first use

    return tornado(*args, **kwargs)


def solver_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.notebook.solver_html`."""
    from .notebook import solver_html  # a view, a floor above the model: imported on first use

    return solver_html(*args, **kwargs)


def portfolio_html(*args: Any, **kwargs: Any) -> Any:
    """:func:`netbenefit.views.portfolio_files.portfolio_html`."""
    from .portfolio_files import portfolio_html  # a view, a floor above the model: imported on first use

    return portfolio_html(*args, **kwargs)


def portfolio_charts() -> dict[str, Any]:
    """The table of charts :mod:`netbenefit.views.charts.portfolio` draws (``PORTFOLIO_CHARTS``)."""
    from .charts.portfolio import PORTFOLIO_CHARTS  # a view, a floor above the model: imported on first use

    return PORTFOLIO_CHARTS


def write_portfolio_workbook(portfolio: Any, path: Any) -> Any:
    """:func:`netbenefit.views.portfolio_files.write_portfolio_workbook` (``to_excel``: the path checked first)."""
    with written_file("to_excel", path) as target:
        from .portfolio_files import write_portfolio_workbook  # a view, a floor above the model: imported on first use

        return write_portfolio_workbook(portfolio, target)


def write_portfolio_page(portfolio: Any, path: Any) -> Any:
    """:func:`netbenefit.views.portfolio_files.write_portfolio_page` (``to_html``: the path checked first)."""
    with written_file("to_html", path) as target:
        from .portfolio_files import write_portfolio_page  # a view, a floor above the model: imported on first use

        return write_portfolio_page(portfolio, target)


def chart_module() -> Any:
    """:mod:`netbenefit.views.charts`, for a name kept for compatibility (``analysis.tornado``)."""
    from . import charts as module  # a view, a floor above the model: imported on first use

    return module
