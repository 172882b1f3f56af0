"""The program view: several applications by New Jersey State fiscal year.

>>> import netbenefit
>>> book = netbenefit.portfolio(["scenarios/portfolio/a.yaml", "scenarios/portfolio/b.yaml"])  # doctest: +SKIP
>>> book.fiscal_years  # doctest: +SKIP

- :func:`portfolio` / :class:`Portfolio` (:mod:`netbenefit.analysis.portfolio.book`): each application's
  requested credits and counted benefits by fiscal year, the totals, the cumulative credits, the
  applications passing and failing, and the headroom under a cap the user gives;
- :func:`portfolio_montecarlo` (:mod:`netbenefit.analysis.portfolio.montecarlo`): the program's fiscal-year
  cost with honest percentiles, each application's own uncertain drivers and shared macro draws,
  in one process or on a Dask cluster.

``import netbenefit`` binds :func:`portfolio` from here on first use (the analysis floor loads pandas).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .book import Portfolio
from .montecarlo import PortfolioMonteCarlo, portfolio_montecarlo
from .portfolio_file import load_portfolio_file

if TYPE_CHECKING:
    from ...model.result import Result
    from ...model.scenario import Scenario

__all__ = ["Portfolio", "PortfolioMonteCarlo", "load_portfolio_file", "portfolio", "portfolio_montecarlo"]


def portfolio(
    scenarios: str | Path | Scenario | Result | Iterable[str | Path | Scenario | Result],
    *,
    cap: float | None = None,
    regions: bool = False,
) -> Portfolio:
    """Evaluate ``scenarios`` and return their :class:`Portfolio`: paths of scenario files (a folder
    for its ``*.yaml`` files), Scenario or Result objects; one or a list.

    ``cap``: a limit on the total value of credits awarded (approved) in each State fiscal year
    [USD], given by the user (the statute's figure could not be read: docs/portfolio.md); with
    it, the fiscal-year table has the headroom under it. None: no headroom. ``regions``: also the
    credits awarded in the north and the south against the regional split of the Aspire and Emerge
    cap (secondary), by each application's ``location.region``.
    """
    return Portfolio.of(scenarios, cap=cap, regions=regions)

