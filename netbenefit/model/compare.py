"""Side-by-side comparison of several evaluated scenarios."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..io.arguments import checked, iterable, optional
from ..io.writing import written_file
from .evaluate import evaluate
from .result import Result
from .scenario import Scenario, load_scenario

if TYPE_CHECKING:
    from typing import Any

    import pandas as pd
    from matplotlib.axes import Axes

SUMMARY_COLUMNS = (
    "scenario",
    "name",
    "eligible",
    "passes",
    "ratio",
    "threshold",
    "threshold_clause",
    "margin",
    "deciding_test",
    "extension_decides",
    "ratio_without_extension",
    "pv_benefits",
    "pv_credits",
    "whole_project_ratio",
    "max_credit_pv",
    "requested_credits",
    "discount_rate",
    "jobs_clause",
    "retained_jobs_eligible",
    "capital_investment_minimum",
    "infrastructure_fund_donation",
    "extended_years",
    "incremental_credit",
    "failed_checks",
    "method",
)


def summary_row(result: Result) -> dict:
    """One scenario's headline facts (a row of :func:`compare`)."""
    failed = [row.id for row in result.table_rows("checks") if not row.passed]
    return {
        "scenario": result.scenario.source,
        "name": result.name,
        "eligible": result.eligible,
        "passes": result.passes,
        "ratio": result.ratio,
        "threshold": result.threshold,
        "threshold_clause": result.threshold_clause,
        "margin": result.margin,  # the deciding test's ratio minus the threshold, 71(a)(5)
        "deciding_test": result.deciding_test.what,
        "extension_decides": result.extension_decides,  # passes only with the elected extension, 71(a)(5)(d)
        "ratio_without_extension": result.ratio_without_extension,
        "pv_benefits": result.pv_benefits,  # the whole project's, beside its ratio
        "pv_credits": result.pv_credits,
        "whole_project_ratio": result.whole_project_ratio,
        "max_credit_pv": result.max_credit_pv,
        "requested_credits": result.requested_credits,
        "discount_rate": result.discount_rate,
        "jobs_clause": result.jobs_clause,
        "retained_jobs_eligible": result.retained_jobs_eligible,
        "capital_investment_minimum": result.capital_investment_minimum,
        "infrastructure_fund_donation": result.infrastructure_fund_donation,
        "extended_years": result.extended_years,
        "incremental_credit": result.incremental_credit,
        "failed_checks": " ".join(failed),
        "method": result.scenario.method,
    }


def under_methods(scenario: Scenario, methods: Iterable[str]) -> list[Scenario]:
    """``scenario`` under each set of conventions of ``methods`` (:mod:`netbenefit.model.methods`), in
    that order; with more than one, each variant's name says its method, so that the outputs of a
    comparison stay apart."""
    methods = list(dict.fromkeys(methods))
    if len(methods) == 1:
        return [scenario.replace({"method": methods[0]})]
    return [scenario.replace({"method": m, "name": f"{scenario.name} (method {m})"}) for m in methods]


@checked(items=iterable, methods=optional(iterable))  # netbenefit.io.arguments
def compare(items: Iterable[Result | Scenario | str | Path], *, methods: Iterable[str] | None = None) -> pd.DataFrame:
    """A summary table, one row per scenario (results, scenarios or scenario files), or one row per
    scenario and method with ``methods`` (e.g. ``("netbenefit", "authority")``).

    >>> table = compare(["scenarios/party_city.yaml", "scenarios/mega_project.yaml"])  # doctest: +SKIP
    """
    import pandas as pd

    results = []
    for item in items:
        if methods is None or isinstance(item, Result):
            results.append(item if isinstance(item, Result) else evaluate(item))
            continue
        scenario = item if isinstance(item, Scenario) else load_scenario(item)
        results.extend(evaluate(variant) for variant in under_methods(scenario, methods))
    from .tables import ResultTable  # pandas: deferred past start-up

    return ResultTable(pd.DataFrame([summary_row(result) for result in results], columns=list(SUMMARY_COLUMNS)))


@dataclass(frozen=True)
class Comparison:
    """Several evaluated scenarios, displayed side by side in a notebook.

    ``Comparison.of(items)`` evaluates scenario files or scenarios (results are kept as they
    are). In a notebook the comparison shows as a table coloured by the net benefit test;
    :attr:`table` is the DataFrame of :func:`netbenefit.compare`; :meth:`plot` draws the ratios.
    """

    results: tuple[Result, ...]

    @classmethod
    @checked("Comparison.of", items=iterable)
    def of(cls, items: Iterable[Result | Scenario | str | Path]) -> Comparison:
        return cls(tuple(item if isinstance(item, Result) else evaluate(item) for item in items))

    @property
    def table(self) -> pd.DataFrame:
        """One row per scenario: :func:`netbenefit.compare`."""
        return compare(self.results)

    def plot(self, ax: Axes | None = None) -> Axes:
        """:func:`netbenefit.views.charts.compare_ratios` of these results; returns the Axes."""
        from ..views.charts import compare_ratios

        return compare_ratios(self.results, ax=ax)

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: :func:`netbenefit.views.html.comparison_html`."""
        from ..views.html import comparison_html

        return comparison_html(self.results)

    def to_excel(self, path: str | Path) -> Path:
        """Write the workbook ``netbenefit compare`` writes (``comparison.xlsx``,
        :func:`netbenefit.views.workbook.write_workbook`). Atomic; returns the path; an OSError names the file."""
        with written_file("to_excel", path) as target:
            from ..views.workbook import write_workbook

            return write_workbook(self.results, target)

    def to_html(self, path: str | Path) -> Path:
        """Write the report ``netbenefit report`` writes for these scenarios
        (:func:`netbenefit.views.html.report_html`): their comparison, then each one. Atomic;
        returns the path; an OSError names the file."""
        with written_file("to_html", path) as target:
            from ..views.html import write_report

            return write_report(self.results, target)

    def to_pdf(self, path: str | Path, **options: Any) -> Path:
        """Write the memo of these scenarios as a PDF: a comparison page, then each one's first
        pages (options as :meth:`Result.to_pdf`; appendices with ``appendix=True``). Returns the path."""
        with written_file("to_pdf", path) as target:
            from ..views.html.memo import memo_options, write_memo

            return write_memo(self.results, target, **memo_options(options, "to_pdf"))
