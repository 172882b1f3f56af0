"""The economist's view, reported beside the statutory test of 71(a)(5), never replacing it.

The statutory test compares the present value of **all** the project's net benefits to the State
with the present value of the requested credits. An economist asks two more questions:

- **but for**: what share of the jobs did the award actually cause? Jobs that would have come
  anyway bring their taxes anyway, so only the *but-for share* of the benefits is the award's
  doing. Estimates in the research literature range from about 2% to 25% (T. J. Bartik, "'But
  For' Percentages for Economic Development Incentives", W.E. Upjohn Institute, 2018). The share
  is always an explicit argument: no value is presumed.
- **cost of growth**: new jobs and residents need public services (schools, roads, safety) that
  the State pays for; their present value, from a user-given cost per new job or resident and
  year, is subtracted from the benefits.

It also reports the figure used under the Grow New Jersey program: net benefit in dollars net of
the award, PV benefits - PV credits.

For the jobs and costs the award caused: economic net benefit = s x (B - G) - K, where B is the PV
of the statutory benefits, G the PV of the cost of growth, K the PV of the credits and s the
but-for share. Every function is pure: it touches no file and no global state.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..errors import ScenarioError
from ..law.rules import meets_threshold
from .conventions import Conventions

if TYPE_CHECKING:
    from .result import Result

#: Rows of :func:`economist_view`, in order.
VIEWS = ("statutory", "but_for", "but_for_net_of_cost_of_growth")

_SOURCE = "economist's view"


def _check_share(name: str, value: float) -> float:
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ScenarioError(_SOURCE, name, f"must be a share from 0 to 1 (0.1, not 10), got {value!r}")
    return value


def _check_amount(name: str, value: float) -> float:
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ScenarioError(_SOURCE, name, f"must be a finite amount >= 0, got {value!r}")
    return value


def pv_cost_of_growth(
    new_jobs: ArrayLike,
    discount_factor: ArrayLike,
    weight: ArrayLike,
    *,
    cost_per_new_job: float = 0.0,
    cost_per_resident: float = 0.0,
    residents_per_new_job: float = 0.0,
) -> float:
    """Present value of the State's cost of public services for the growth a project brings.

    cost_t = new_jobs_t x (cost_per_new_job + residents_per_new_job x cost_per_resident), counted
    with the benefit window's weights and discounted like the benefits.

    Parameters
    ----------
    new_jobs : array_like, shape (years,)
        New full-time jobs in place in project years 1, 2, ... [jobs]
    discount_factor, weight : array_like, shape (years,)
        The result's discount factors and benefit-window weights (its ``cashflows`` columns).
    cost_per_new_job : float
        State cost of public services per new job and year. [USD/job/year]
    cost_per_resident : float
        State cost of public services per new resident and year. [USD/resident/year]
    residents_per_new_job : float
        New residents of the State per new job (those who move in, with their households). [residents/job]

    Returns
    -------
    float
        [USD, present value at approval]

    >>> pv_cost_of_growth([10, 10], [1.0, 0.5], [1.0, 1.0], cost_per_new_job=100.0)
    1500.0
    """
    per_job = _check_amount("cost_per_new_job", cost_per_new_job) + _check_amount(
        "residents_per_new_job", residents_per_new_job
    ) * _check_amount("cost_per_resident", cost_per_resident)
    values = np.asarray(new_jobs, dtype=float) * per_job * np.asarray(weight, dtype=float)
    return float(np.sum(values * np.asarray(discount_factor, dtype=float)))


def economist_view(
    pv_benefits: float,
    pv_credits: float,
    threshold: float,
    *,
    but_for_share: float,
    pv_cost_of_growth: float = 0.0,
) -> pd.DataFrame:
    """The statutory test beside the economist's view of the same project.

    Parameters
    ----------
    pv_benefits : float
        B, PV of the net benefits of the statutory test. [USD]
    pv_credits : float
        K, PV of the requested credits. [USD]
    threshold : float
        The statutory multiple (4.00, 3.00 or 2.00, or an override).
    but_for_share : float
        s, the share of the jobs that the award caused (0..1). Required: no value is presumed.
    pv_cost_of_growth : float
        G, PV of the State's cost of the growth (:func:`pv_cost_of_growth`). [USD]

    Returns
    -------
    DataFrame
        One row per view (``VIEWS``): ``statutory`` (B), ``but_for`` (s x B) and
        ``but_for_net_of_cost_of_growth`` (s x (B - G)), with the columns ``pv_benefits``,
        ``pv_credits``, ``ratio``, ``threshold``, ``passes_threshold`` (ratio >= threshold, the
        statutory comparison, shown for every row), ``net_of_award`` (PV benefits - PV credits,
        the Grow NJ style figure) [USD] and ``net_positive`` (net_of_award > 0).

    >>> table = economist_view(400.0, 100.0, 4.0, but_for_share=0.25, pv_cost_of_growth=80.0)
    >>> table["pv_benefits"].tolist(), table["net_of_award"].tolist()
    ([400.0, 100.0, 80.0], [300.0, 0.0, -20.0])
    """
    share = _check_share("but_for_share", but_for_share)
    benefits = float(pv_benefits)
    credits = _check_amount("pv_credits", pv_credits)
    if credits <= 0:
        raise ScenarioError(_SOURCE, "pv_credits", "must be more than 0 for a ratio")
    growth = _check_amount("pv_cost_of_growth", pv_cost_of_growth)
    values = [benefits, share * benefits, share * (benefits - growth)]
    table = pd.DataFrame({"pv_benefits": values}, index=pd.Index(list(VIEWS), name="view"))
    table["pv_credits"] = credits
    table["ratio"] = table["pv_benefits"] / credits
    table["threshold"] = float(threshold)
    # The statutory comparison and its tolerance, applied to each view.
    table["passes_threshold"] = meets_threshold(table["ratio"].to_numpy(), float(threshold))
    table["net_of_award"] = table["pv_benefits"] - credits
    table["net_positive"] = table["net_of_award"] > 0
    table.attrs.update(but_for_share=share, pv_cost_of_growth=growth)  # for charts and reports
    return table


def economist_view_of(
    result: Result,
    *,
    but_for_share: float,
    cost_per_new_job: float = 0.0,
    cost_per_resident: float = 0.0,
    residents_per_new_job: float = 0.0,
) -> pd.DataFrame:
    """:func:`economist_view` of an evaluated :class:`~netbenefit.Result`, on the test that decides
    71(a)(5) (for a project without later phases, the whole project): its statutory row is the
    ratio and verdict the result states.

    The cost of growth is computed from the new full-time jobs of that test's phases, each phase's
    benefit-window weights and the discount factors (:func:`pv_cost_of_growth`).
    """
    c = result.computation
    years = len(c.years)
    discount = np.broadcast_to(c.discount_factor, (1, years))[0]
    growth = math.fsum(
        pv_cost_of_growth(
            np.broadcast_to(phase.new_full_time_jobs, (1, years))[0],
            discount,
            np.broadcast_to(phase.weight, (1, years))[0],
            cost_per_new_job=cost_per_new_job,
            cost_per_resident=cost_per_resident,
            residents_per_new_job=residents_per_new_job,
        )
        for phase in c.phases[: len(result.deciding_phases)]
    )
    test = result.table_rows("phase_tests")[result.net_benefit_decision.deciding]
    table = economist_view(
        test.pv_benefits, test.pv_credits, result.threshold, but_for_share=but_for_share, pv_cost_of_growth=growth
    )
    phased = len(result.net_benefit_decision.comparisons) > 1
    table.attrs["test"] = result.deciding_test.what if phased else ""  # the test of 71(a)(5) the rows are of
    table.attrs["conventions"] = Conventions.of_result(result)
    return table


def but_for_share_to_pass(
    pv_benefits: float, pv_credits: float, threshold: float, pv_cost_of_growth: float = 0.0
) -> float:
    """Smallest but-for share at which s x (B - G) / K still meets the threshold (may exceed 1).

    Returns ``inf`` when B - G <= 0 (no share is enough).

    >>> but_for_share_to_pass(800.0, 100.0, 4.0)
    0.5
    """
    net = float(pv_benefits) - float(pv_cost_of_growth)
    if net <= 0:
        return float("inf")
    return float(threshold) * float(pv_credits) / net
