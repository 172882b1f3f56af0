"""The window of the net benefit test: through the end of the commitment period, 71(a)(5).

The 300 and 200 percent tests count "the benefits generated during the period of time from
approval through the end of the commitment period", 71(a)(5)(a) and (b) [statute], and the
commitment period is defined as 1.5 times the eligibility period (section 69, C.34:1B-337, as the
authority states it [secondary: section 69 not read]). A ``commitment.period_years`` other than
that counts in no test unless ``commitment.period_set_by_authority: true`` says the authority set
it: the defined period decides whether the project passes (the 400 percent test included), and the
result gives the ratio over the period as given beside it (``Result.ratio_as_given``). The 400
percent test counts benefits beyond the commitment period only through an elected extended
commitment, 71(a)(5)(d), which carries its incremental credit and the duty to repay it; a longer
period written in the scenario would buy that window without the duty
(docs/model.md, 3). ``readings.stated_commitment_period: counts_in_400_percent_test`` keeps
the earlier reading, in which the 400 percent test counted the period as given.
"""

from __future__ import annotations

import math

import numpy as np

from ..law.parameters import parameter
from ..law.rules.net_benefit import DISTRESSED_OR_ENHANCED, RESTRICTED_OR_MEGA
from .scenario import Scenario


def defined_period(eligibility_period_years):
    """1.5 x the eligibility period: the commitment period of the section 69 definition. [years]"""
    return parameter("commitment_period_multiple_of_eligibility_period") * eligibility_period_years


#: ``readings.stated_commitment_period``: a stated period not set by the authority counts in no
#: test (the default) or, as before, in the 400 percent test.
DEFINED_PERIOD, COUNTS_IN_400_PERCENT_TEST = "defined_period", "counts_in_400_percent_test"


def decides_on_defined_window(statutory_clause_code, reading: str = DEFINED_PERIOD):
    """Whether a period not set by the authority gives way to the defined one: in every test (the
    default reading), or in the 300 and 200 percent tests only, 71(a)(5)(a) and (b) (the earlier
    reading, ``counts_in_400_percent_test``)."""
    if reading == DEFINED_PERIOD:
        return np.ones(np.shape(statutory_clause_code), dtype=bool)
    return np.isin(statutory_clause_code, (DISTRESSED_OR_ENHANCED, RESTRICTED_OR_MEGA))


def window_period(
    period_years, eligibility_period_years, statutory_clause_code, set_by_authority, reading: str = DEFINED_PERIOD
):
    """A phase's commitment period as the test counts it: the period given where the authority set
    it, else the defined period (in the earlier reading, the period given in the 400 percent test
    too). [years]

    >>> [float(window_period(20.0, 7, code, authority)) for code, authority in [(1, False), (1, True), (0, False)]]
    [10.5, 20.0, 10.5]
    >>> float(window_period(20.0, 7, 0, False, COUNTS_IN_400_PERCENT_TEST))
    20.0
    """
    counts = np.asarray(set_by_authority, dtype=bool) | ~decides_on_defined_window(statutory_clause_code, reading)
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
