"""Year 0, the approval year: amounts a scenario gives in it (docs/model.md#timeline).

Year 0's flows (capital spending, streams of the initial phase) are discounted at t = 0 under
every timing convention (factor 1) and count in every benefit window (weight 1); no credit is paid
in it. The timeline has a year-0 column only when a scenario gives an amount there, so that every
other scenario's tables are unchanged. A later phase's years start at 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scenario import Scenario

#: The line of a result's conventions when the scenario gives an amount in year 0.
NOTE = (
    "year 0 (the approval year): its amounts are discounted at t = 0 (factor 1) under every timing "
    "convention and count in every benefit window (weight 1); no credit is paid in it "
    "[convention, docs/model.md#timeline]"
)


def has_year_zero(scenario: Scenario) -> bool:
    """Whether the scenario gives an amount in year 0: capital investment or a stream of the
    initial phase (a later phase's years start at 1)."""
    return 0 in scenario.capital_investment or any(0 in stream.by_year for stream in scenario.streams)


def notes(scenario: Scenario) -> tuple[str, ...]:
    """The conventions line of year 0, when the scenario uses it."""
    return (NOTE,) if has_year_zero(scenario) else ()
