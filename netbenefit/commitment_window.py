"""The window of the net benefit test: through the end of the commitment period, 71(a)(5).

The 300 and 200 percent tests count "the benefits generated during the period of time from
approval through the end of the commitment period", 71(a)(5)(a) and (b) [statute], and the
commitment period is defined as 1.5 times the eligibility period (section 69, C.34:1B-337, as the
authority states it [secondary: section 69 not read]). A ``commitment.period_years`` other than
that counts in those two tests only where ``commitment.period_set_by_authority: true`` says the
authority set it; otherwise the defined period decides whether the project passes, and the result
gives the ratio over the period as given beside it (``Result.ratio_as_given``). The 400 percent
test of 71(a)(5) counts the period as given: a business may elect a longer period there (an
extended commitment, 71(a)(5)(d)).
"""

from __future__ import annotations

import math

import numpy as np

from .parameters import parameter
from .rules.net_benefit import DISTRESSED_OR_ENHANCED, RESTRICTED_OR_MEGA
from .scenario import Scenario


def defined_period(eligibility_period_years):
    """1.5 x the eligibility period: the commitment period of the section 69 definition. [years]"""
    return parameter("commitment_period_multiple_of_eligibility_period") * eligibility_period_years


def decides_on_defined_window(statutory_clause_code):
    """Whether a period not set by the authority gives way to the defined one: the 300 and 200
    percent tests, 71(a)(5)(a) and (b)."""
    return np.isin(statutory_clause_code, (DISTRESSED_OR_ENHANCED, RESTRICTED_OR_MEGA))


def window_period(period_years, eligibility_period_years, statutory_clause_code, set_by_authority):
    """A phase's commitment period as the test counts it: the period given where the authority set
    it or the test is the 400 percent one, else the defined period. [years]

    >>> [float(window_period(20.0, 7, code, authority)) for code, authority in [(1, False), (1, True), (0, False)]]
    [10.5, 20.0, 20.0]
    """
    counts = np.asarray(set_by_authority, dtype=bool) | ~decides_on_defined_window(statutory_clause_code)
    return np.where(counts, period_years, defined_period(np.asarray(eligibility_period_years, dtype=float)))


def periods_not_set(scenario: Scenario) -> list[str]:
    """Keys of the commitment periods other than the defined one that the authority did not set."""
    records = [("commitment", scenario.commitment, scenario.award)] + [
        (f"phases.{i}.commitment", phase.commitment, phase.award) for i, phase in enumerate(scenario.phases)
    ]
    return [
        key
        for key, commitment, award in records
        if commitment.period_years is not None
        and not math.isclose(commitment.period_years, defined_period(award.eligibility_period_years))
        and not commitment.period_set_by_authority
    ]


def as_given(scenario: Scenario) -> Scenario:
    """The scenario with every stated period taken as set by the authority: its test over the period
    as given."""
    keys = periods_not_set(scenario)
    return scenario.replace({f"{key}.period_set_by_authority": True for key in keys}, name=scenario.name)
