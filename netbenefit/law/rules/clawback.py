"""What a business owes back if it stops maintaining its project: the clawback schedule.

The statute frames the recapture as a range. C.34:1B-341(a)(4) (section 73 of P.L.2020, c.156):
the project agreement shall include "a provision to permit the authority to recapture all or part
of any tax credits awarded, at its discretion, if the eligible business does not remain in
compliance with this provision for the required term" [statute]. Any amount between none and all
of the credits received is within the law; the rule chosen here is this project's convention inside
that range, and the schedule shows the range beside it.

Two obligations, for an exit after m whole years maintained (years after approval), on two
separate slices of the credits received, so that no dollar is repaid twice:

- **recapture** of the credits of the commitment period (the credits received less the incremental
  slice below) for leaving within the commitment period. The rule is named and replaceable
  (``commitment.recapture``): ``pro_rata`` (the default), received(m) x (C - served) / C, each
  phase's served years counted from its own start; ``pro_rata_award`` (the measure before: the
  credits received beyond award x served / C); ``all``; ``none``; or a table of recaptured shares
  by years maintained [convention]. ``commitment.recapture_interest`` adds simple annual interest
  from the end of the year each credit was received to the year of exit (off by default): the
  Grow New Jersey rules let a recapture "include interest on the recapture amount at the rate
  equal to the statutory rate for corporate business or insurance premiums tax deficiencies, plus
  any statutory penalties and all costs incurred by the Authority" (N.J.A.C. 19:31Q-1.10(b)3,
  the Grow New Jersey Assistance Program's rules, N.J.A.C. 19:31-18 before their recodification)
  [rule of another program: a convention here].
- **extension repayment** of the incremental slice, 71(a)(5)(d): "a business electing a period of
  extended commitment and failing to maintain the project through the expiration of that extended
  commitment period shall be obligated to repay a proportion of the incremental benefits received
  on account of having extended the commitment period, taking into consideration the number of
  years of extended commitment during which the business maintained the project" [statute]. The
  proportion ``(X - k) / X`` for k of X extended years maintained is a convention; so is the
  incremental slice: the credits of the phases of the cumulative test that needed the extension,
  each in the share of that test's credit that is incremental, each phase's extension clocked from
  the end of its own commitment period.

Pure functions on numbers and numpy arrays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from .net_benefit import incremental_credit_of_each_test

#: Named recapture rules (``commitment.recapture``); a mapping {years maintained: share} is the sixth.
RECAPTURE_RULES = ("pro_rata", "pro_rata_award", "all", "none")
#: Columns of the clawback schedule (the Result contract).
SCHEDULE_COLUMNS = (
    "years_maintained",
    "credits_received",
    "recapture_none",
    "recapture",
    "recapture_all",
    "interest",
    "extension_repayment",
    "total",
    "pv_total",
)
#: Where the statute sets the range of the recapture: "all or part of any tax credits awarded".
RECAPTURE_CLAUSE = "C.34:1B-341(a)(4)"
#: The range none ... all is provisional until section 76(f) (C.34:1B-344(f)), the recapture that
#: 76(a)(2) refers to ("any recapture under subsection f."), is read.
RECAPTURE_RANGE_NOTE = "provisional: section 76(f), C.34:1B-344(f), not read"


class YearsAfterApproval(dict):
    """A recapture table read in years after approval for every phase (``readings.recapture_table_years:
    approval``, the reading before), not on each phase's own clock."""


def recapture_rule(scenario):
    """The scenario's recapture rule (``commitment.recapture``) as :func:`recapture` reads it: a table
    marked :class:`YearsAfterApproval` where ``readings.recapture_table_years`` is ``approval``."""
    rule = scenario.commitment.recapture
    if isinstance(rule, Mapping) and getattr(scenario.readings, "recapture_table_years", "phase") == "approval":
        return YearsAfterApproval(rule)
    return rule


_ROUNDING = 1e-9  # not a statutory number: 10.999999999 years maintained count as 11


def table_share(table: Mapping[int, float], years_maintained) -> np.ndarray:
    """The share of a recapture table for each number of years maintained: the share of the largest
    listed year at or below it; 1.0 (everything) below the first listed year.

    >>> table_share({0: 1.0, 3: 0.5, 6: 0.25}, [0, 2, 3, 7]).tolist()
    [1.0, 1.0, 0.5, 0.25]
    """
    m = np.asarray(years_maintained, dtype=float)
    share = np.ones_like(m)
    for year in sorted(table):
        share = np.where(m + _ROUNDING >= year, float(table[year]), share)
    return share


def recapture(received, award_total, years_maintained, commitment_start, commitment_period, rule="pro_rata"):
    """Credits recaptured for leaving after ``years_maintained`` years, within the commitment period. [USD]

    The commitment period runs ``commitment_period`` (C) years from ``commitment_start`` (years
    after approval: the year before the phase's first credit year). Once the project is maintained
    through its end, nothing is recaptured; before, never more than the credits received: the
    statute's range is none ... all of them, C.34:1B-341(a)(4).

    Parameters
    ----------
    received : float or array
        Credits received by the end of year m (the slice the recapture applies to), nominal. [USD]
    award_total : float or array
        The whole award of that slice, nominal, over the eligibility period (``pro_rata_award`` only). [USD]
    years_maintained : float or array
        m, whole years maintained after approval. [years]
    commitment_start, commitment_period : float or array
        [years]
    rule : "pro_rata", "pro_rata_award", "all", "none", or a mapping {years maintained: share}
        ``pro_rata``: the credits received in the share of the commitment period not served,
        ``received x (C - served) / C``; ``pro_rata_award``: the credits received beyond the share
        of the whole award earned by the years served, ``max(0, received - award x served / C)``
        (the measure before; it lets an under-performer owe less than a full performer);
        ``all``: every credit received; ``none``: nothing; a table: its share of the credits received,
        read at the years served of the phase's own clock, ``m - commitment_start`` (a
        :class:`YearsAfterApproval` table: at m, years after approval).

    >>> float(recapture(600.0, 700.0, 6, 0.0, 10.5))  # 600 x 4.5 / 10.5
    257.14285714285717
    >>> float(recapture(600.0, 700.0, 6, 0.0, 10.5, "pro_rata_award"))  # 600 - 700 x 6 / 10.5 = 200
    200.0
    >>> float(recapture(700.0, 700.0, 11, 0.0, 10.5))  # maintained through C: nothing
    0.0
    >>> float(recapture(600.0, 700.0, 6, 3.0, 10.5, {0: 1.0, 3: 0.5, 6: 0.25}))  # 3 years served: 0.5
    300.0
    """
    received = np.asarray(received, dtype=float)
    m = np.asarray(years_maintained, dtype=float)
    period = np.asarray(commitment_period, dtype=float)
    served = np.clip(m - commitment_start, 0.0, period)
    within = m + _ROUNDING < np.asarray(commitment_start, dtype=float) + period
    if isinstance(rule, YearsAfterApproval):
        amount = table_share(rule, m) * received
    elif isinstance(rule, Mapping):  # on the phase's own clock, as pro_rata
        amount = table_share(rule, np.maximum(m - np.asarray(commitment_start, dtype=float), 0.0)) * received
    elif rule == "pro_rata":
        amount = received * (period - served) / period
    elif rule == "pro_rata_award":
        amount = np.maximum(0.0, received - np.asarray(award_total, dtype=float) * served / period)
    elif rule == "all":
        amount = received
    elif rule == "none":
        amount = np.zeros_like(received)
    else:
        raise ValueError(f"recapture rule must be one of {RECAPTURE_RULES} or a table, not {rule!r}")
    return np.where(within, np.clip(amount, 0.0, received), 0.0)


def recapture_interest(recaptured, credits_by_year, years_maintained, rate):
    """Simple annual interest on a recapture, from the end of the year each credit was received to
    the exit after m years maintained: ``rate x (m - t)`` on the recaptured part of year t's credit,
    the recapture taken from every year's credit in the same share [convention; off by default]. [USD]

    Parameters
    ----------
    recaptured : array, one per m
    credits_by_year : array
        Credits of project years 1, 2, ... of the slice recaptured (received at each year's end). [USD]
    years_maintained : array of whole years m
    rate : float
        Yearly rate (``commitment.recapture_interest.rate``).

    >>> recapture_interest([300.0], [100.0, 100.0, 100.0], [3], 0.05).tolist()  # 5% x (2 + 1 + 0) x 100
    [15.0]
    """
    m = np.asarray(years_maintained, dtype=int)
    credits = np.asarray(credits_by_year, dtype=float)
    rows = int(m.max(initial=0)) + 1
    padded = np.zeros(max(rows, credits.size))
    padded[: credits.size] = credits
    year = np.arange(1, padded.size + 1, dtype=float)
    received = np.concatenate([[0.0], np.cumsum(padded)])[m]
    year_weighted = np.concatenate([[0.0], np.cumsum(padded * year)])[m]
    credit_years = m * received - year_weighted  # sum over t <= m of credit_t x (m - t)
    share = np.divide(
        np.asarray(recaptured, dtype=float), received, out=np.zeros(m.shape, dtype=float), where=received > 0
    )
    return float(rate) * share * credit_years


def extended_years_maintained(years_maintained, commitment_end, extended_years, counting="whole_years"):
    """Years of the extended commitment maintained after m years: ``m - commitment_end``, clipped to
    [0, X]; whole years (the default) or pro rata by fraction of a year.

    >>> extended_years_maintained([10, 11, 12, 16], 10.5, 5).tolist()
    [0.0, 0.0, 1.0, 5.0]
    >>> extended_years_maintained([11, 12], 10.5, 5, "pro_rata").tolist()
    [0.5, 1.5]
    """
    k = np.asarray(years_maintained, dtype=float) - np.asarray(commitment_end, dtype=float)
    if counting == "whole_years":
        k = np.floor(k + _ROUNDING)
    elif counting != "pro_rata":
        raise ValueError(f"counting must be whole_years or pro_rata, not {counting!r}")
    return np.clip(k, 0.0, float(extended_years))


def extension_repayment(incremental_received, extended_maintained, extended_years):
    """Repayment of the incremental benefit received, 71(a)(5)(d): ``incremental x (X - k) / X``. [USD]

    The proportion is a convention ("taking into consideration the number of years of extended
    commitment during which the business maintained the project"). Zero without an extension.

    >>> float(extension_repayment(300.0, 1, 3))
    200.0
    """
    if extended_years <= 0:
        return np.zeros_like(np.asarray(incremental_received, dtype=float) * extended_maintained)
    remaining = (extended_years - np.asarray(extended_maintained, dtype=float)) / extended_years
    return np.asarray(incremental_received, dtype=float) * np.clip(remaining, 0.0, 1.0)


def extension_test(cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension, threshold) -> int:
    """Index of the cumulative test (initial phase, then 1..k) whose incremental credit is the
    project's, 71(a)(5)(d): the test that needs the extension most (the first on a tie).

    >>> extension_test([100.0, 200.0], [80.0, 160.0], [320.0, 480.0], 4.0)
    1
    """
    by_test = incremental_credit_of_each_test(
        cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension, threshold
    )
    return int(np.argmax(by_test))


def incremental_shares(
    cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension, threshold, incremental
):
    """The share of each phase's credits received on account of the extended commitment, 71(a)(5)(d).

    The incremental credit is that of the cumulative test (initial phase, then 1..k) that needs the
    extension most (:func:`netbenefit.law.rules.net_benefit.incremental_credit_by_test`): the phases of
    that test carry it, each in the same share of its credits; later phases carry none [convention].

    Parameters
    ----------
    cumulative_requested, cumulative_pv_credits, cumulative_pv_without_extension : sequences, one per test
    threshold : float
    incremental : float
        The project's incremental credit (0: no extension needed or counted). [USD]

    >>> incremental_shares([100.0, 200.0], [80.0, 160.0], [320.0, 480.0], 4.0, 50.0).tolist()
    [0.25, 0.25]
    """
    requested = np.asarray(cumulative_requested, dtype=float)
    credits = np.asarray(cumulative_pv_credits, dtype=float)
    shares = np.zeros(requested.shape)
    if incremental <= 0:
        return shares
    test = extension_test(requested, credits, cumulative_pv_without_extension, threshold)
    shares[: test + 1] = min(1.0, incremental / requested[test]) if requested[test] > 0 else 0.0
    return shares


def phase_clawback(
    credits_by_year,
    years_maintained,
    commitment_start: float,
    commitment_period: float,
    incremental_share: float = 0.0,
    extended_years: int = 0,
    rule="pro_rata",
    counting: str = "whole_years",
    interest_rate: float = 0.0,
    award_total: float | None = None,
) -> dict[str, np.ndarray]:
    """One phase's obligations for an exit after each m of ``years_maintained``, on its own clock.

    The credits received split in two slices: the incremental one (``incremental_share`` of them,
    repaid under 71(a)(5)(d) until the phase's extended commitment ends) and the rest (recaptured
    by ``rule`` within the phase's commitment period). No dollar is in both.

    Returns
    -------
    dict of arrays, one per m: ``credits_received``, ``recapture``, ``recapture_all`` (the statute's
    upper bound on the recapture: every credit of the recaptured slice while within the commitment
    period), ``interest``, ``extension_repayment``.
    """
    m = np.asarray(years_maintained, dtype=int)
    credits = np.asarray(credits_by_year, dtype=float)
    rows = int(m.max(initial=0)) + 1
    padded = np.zeros(max(rows, credits.size))
    padded[: credits.size] = credits
    received = np.concatenate([[0.0], np.cumsum(padded)])[m]
    share = float(incremental_share)
    base_received = (1.0 - share) * received
    award = float(credits.sum() if award_total is None else award_total)
    recaptured = recapture(base_received, (1.0 - share) * award, m, commitment_start, commitment_period, rule)
    within = m + _ROUNDING < commitment_start + commitment_period
    interest = (
        recapture_interest(recaptured, (1.0 - share) * padded, m, interest_rate)
        if interest_rate > 0
        else np.zeros(m.shape)
    )
    if share > 0 and extended_years > 0:
        k = extended_years_maintained(m, commitment_start + commitment_period, extended_years, counting)
        repayment = extension_repayment(share * received, k, extended_years)
    else:
        repayment = np.zeros(m.shape)
    return {
        "credits_received": received,
        "recapture": recaptured,
        "recapture_all": np.where(within, base_received, 0.0),
        "interest": interest,
        "extension_repayment": repayment,
    }


def schedule_length(commitment_ends, extended_years: int) -> int:
    """Rows of a schedule: m = 0 .. ceil(max(C_end + X)) - 1 over the phases, each phase's
    commitment (and extension) ending on its own clock."""
    last = max(float(end) + extended_years for end in commitment_ends)
    return max(1, math.ceil(last - _ROUNDING))


def empty_schedule() -> dict[str, np.ndarray]:
    """The schedule of a project that is not eligible: no award, nothing to recapture."""
    return {name: np.zeros(0, dtype=int if name == "years_maintained" else float) for name in SCHEDULE_COLUMNS}


def clawback_schedule(
    credits,
    commitment_starts,
    commitment_periods,
    incremental_share_by_phase,
    extended_years: int,
    discount_factor,
    rule="pro_rata",
    counting: str = "whole_years",
    interest_rate: float = 0.0,
) -> dict[str, np.ndarray]:
    """The amount at risk for an exit after each number of whole years maintained.

    Parameters
    ----------
    credits : array, shape (phases, years)
        Credits of each phase by project year (1, 2, ...), nominal. [USD]
    commitment_starts, commitment_periods : sequences, one per phase
        Years after approval at which each phase's commitment period begins, and its length. [years]
    incremental_share_by_phase : sequence, one per phase
        The share of each phase's credits received on account of the extended commitment
        (:func:`incremental_shares`).
    extended_years : int
        X, the elected extended commitment (0: none, or not counted).
    discount_factor : callable
        Discount factor of a project year (arrays of years), at approval.
    rule, counting, interest_rate
        The recapture rule, how extended years maintained are counted, and the yearly rate of
        simple interest on the recapture (0: none).

    Returns
    -------
    dict of arrays named by :data:`SCHEDULE_COLUMNS`, one row per m.
    """
    credits = np.atleast_2d(np.asarray(credits, dtype=float))
    starts = [float(s) for s in commitment_starts]
    periods = [float(p) for p in commitment_periods]
    shares = [float(s) for s in incremental_share_by_phase]
    rows = schedule_length([s + p for s, p in zip(starts, periods, strict=True)], extended_years)
    m = np.arange(rows)
    parts = [
        phase_clawback(credits[p], m, starts[p], periods[p], shares[p], extended_years, rule, counting, interest_rate)
        for p in range(credits.shape[0])
    ]
    column = {name: sum(part[name] for part in parts) for name in parts[0]}
    total = column["recapture"] + column["interest"] + column["extension_repayment"]
    return {
        "years_maintained": m.astype(int),
        "credits_received": column["credits_received"],
        "recapture_none": np.zeros(rows),
        "recapture": column["recapture"],
        "recapture_all": column["recapture_all"],
        "interest": column["interest"],
        "extension_repayment": column["extension_repayment"],
        "total": total,
        # owed in the year after the last year maintained
        "pv_total": total * np.asarray(discount_factor(m + 1.0), dtype=float),
    }
