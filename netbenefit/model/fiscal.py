"""Project years in calendar time, and a result's amounts by New Jersey State fiscal year.

The State's fiscal year runs from July 1 to June 30 and is named by the calendar year in which it
ends: fiscal year 2027 is July 1, 2026 - June 30, 2027 [secondary: the State's budget documents
name fiscal years so; the statute text that fixes the dates is not reproduced in this project].

Placement [convention, docs/model.md, 19]:

- project year ``t >= 1`` runs from the approval date plus ``t - 1`` years to the day before the
  approval date plus ``t`` years (year 1 begins on the day of approval, as in the model);
- each project year's amounts fall, whole, in the fiscal year of its *timing point*: its last day
  under ``timing: end_of_year`` (the flow the model discounts ``t`` years), its middle day under
  ``timing: mid_year`` (discounted ``t - 0.5`` years: the day half-way through it, rounded down);
- year 0 (the approval year's own flows, discounted at t = 0) falls on the approval date;
- the amounts are those the net benefit test counts: benefits weighted by the benefit window
  (a half-counted last year brings half its benefits), credits as requested, nominal dollars.

So the fiscal-year totals add up, to the cent, to the result's nominal credits and counted
benefits. A date of approval on February 29 moves to February 28 in the years without one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ScenarioError
from ..law.finance import TIMINGS

if TYPE_CHECKING:
    import pandas as pd

    from .result import Result

#: Month in which the State fiscal year begins (July). [month]
FISCAL_YEAR_FIRST_MONTH = 7
#: The taxes of ``Result.benefits_by_tax``, in order (the columns of the benefits by tax).
BENEFIT_COLUMNS = ("gross_income_tax", "sales_and_use_tax", "corporation_business_tax", "other")
#: One line that states the placement, for tables and chart footnotes.
PLACEMENT_NOTE = (
    "State fiscal years (July 1 - June 30, named by the year they end); each project year's amounts "
    "fall whole in the fiscal year of its timing point ({timing}); benefits as counted by the test "
    "(window-weighted), nominal USD"
)


def state_fiscal_year(date: dt.date) -> int:
    """The New Jersey State fiscal year of ``date``: July 1 - June 30, named by the year it ends.

    >>> state_fiscal_year(dt.date(2026, 6, 30)), state_fiscal_year(dt.date(2026, 7, 1))
    (2026, 2027)
    """
    return date.year + 1 if date.month >= FISCAL_YEAR_FIRST_MONTH else date.year


def add_years(date: dt.date, years: int) -> dt.date:
    """``date`` moved by whole ``years`` (February 29 becomes February 28 in a common year)."""
    try:
        return date.replace(year=date.year + years)
    except ValueError:  # February 29 in a year without one
        return date.replace(year=date.year + years, day=28)


def project_year_span(approval: dt.date, year: int) -> tuple[dt.date, dt.date]:
    """First and last day of project year ``year >= 1`` (year 0 is the approval date itself)."""
    if year <= 0:
        return approval, approval
    start = add_years(approval, year - 1)
    return start, add_years(approval, year) - dt.timedelta(days=1)


def timing_point(approval: dt.date, year: int, timing: str = "end_of_year") -> dt.date:
    """The day on which the amounts of project year ``year`` are placed.

    ``end_of_year``: the last day of the year; ``mid_year``: the day half-way through it
    (rounded down); year 0: the approval date under both.

    >>> timing_point(dt.date(2026, 9, 15), 1)
    datetime.date(2027, 9, 14)
    >>> timing_point(dt.date(2026, 9, 15), 1, "mid_year")
    datetime.date(2027, 3, 16)
    """
    if timing not in TIMINGS:
        raise ValueError(f"timing must be one of {TIMINGS}, not {timing!r}")
    start, end = project_year_span(approval, int(year))
    if year <= 0 or timing == "end_of_year":
        return end
    return start + dt.timedelta(days=(end - start).days // 2)


#: The Gregorian calendar repeats every 400 years, to the day (146,097 days: whole weeks, the same
#: leap days), so a date moved by a multiple of 400 years falls on the same month and day.
CALENDAR_CYCLE_YEARS = 400


def fiscal_years(
    approval: dt.date, years: Iterable[int], timing: str = "end_of_year", source: str = "approval_date"
) -> np.ndarray:
    """The State fiscal year of each project year in ``years`` (an int array of the same length).

    A project that runs past the last date Python's calendar holds (December 31, 9999: an
    approval on 9999-12-31 is a date the format accepts) is placed exactly all the same: its
    dates are computed 400 years earlier, where the calendar is the same day for day
    (:data:`CALENDAR_CYCLE_YEARS`), and its fiscal years named 400 years later."""
    years = [int(t) for t in years]
    last = approval.year + max(years, default=0) + 1  # the latest calendar year a timing point can reach
    cycles = max(0, -(-(last - dt.MAXYEAR) // CALENDAR_CYCLE_YEARS))
    shift = cycles * CALENDAR_CYCLE_YEARS
    if shift and approval.year - shift < dt.MINYEAR:
        raise ScenarioError(
            source,
            "approval_date",
            f"{approval.isoformat()}: the project's years cannot be placed in State fiscal years",
        )
    moved = approval.replace(year=approval.year - shift)  # February 29 too: the cycle keeps it
    return np.array([state_fiscal_year(timing_point(moved, t, timing)) + shift for t in years], dtype=np.int64)


def by_fiscal_year(result: Result) -> pd.DataFrame:
    """``result``'s credits and counted benefits by State fiscal year (module docstring).

    Returns
    -------
    DataFrame
        Indexed by ``fiscal_year`` (every year from the first to the last with an amount):
        ``credits`` (requested, nominal) and the counted benefits by tax (:data:`BENEFIT_COLUMNS`)
        and their sum ``benefits``, all [USD, nominal]; ``project_years`` names the project years
        placed in each. ``attrs["conventions"]`` states the placement.
    """
    import pandas as pd

    scenario = result.scenario
    cashflows = result.cashflows
    years = cashflows.index.to_numpy()
    placed = fiscal_years(scenario.approval, years, scenario.timing, str(scenario.source))
    frame = pd.DataFrame({"fiscal_year": placed, "credits": cashflows["credits"].to_numpy(dtype=float)})
    streams = result.streams
    benefits = np.zeros((len(years), len(BENEFIT_COLUMNS)))
    if streams is not None and len(streams):
        position = {int(year): i for i, year in enumerate(years)}
        rows = streams["year"].map(position).to_numpy()
        column = streams["tax"].map({tax: j for j, tax in enumerate(BENEFIT_COLUMNS)}).to_numpy()
        np.add.at(benefits, (rows, column), streams["counted"].to_numpy(dtype=float))
    for j, tax in enumerate(BENEFIT_COLUMNS):
        frame[tax] = benefits[:, j]
    frame["project_year"] = years
    grouped = frame.groupby("fiscal_year", sort=True)
    table = grouped[["credits", *BENEFIT_COLUMNS]].sum()
    table = table.reindex(range(int(placed.min()), int(placed.max()) + 1), fill_value=0.0)
    table.index.name = "fiscal_year"
    table["benefits"] = table[list(BENEFIT_COLUMNS)].sum(axis=1)
    names = grouped["project_year"].apply(lambda s: " ".join(str(int(t)) for t in s))
    table["project_years"] = names.reindex(table.index, fill_value="")
    table.attrs["conventions"] = PLACEMENT_NOTE.format(timing=scenario.timing)
    return table
