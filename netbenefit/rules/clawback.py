"""What a business owes back if it stops maintaining its project: the clawback schedule.

Two obligations, for an exit after m whole years maintained (years after approval):

- **recapture** of credits received for leaving within the commitment period. The rule is named
  and replaceable (``commitment.recapture``): ``pro_rata`` (the default), ``all``, ``none``, or a
  table of recaptured shares by years maintained. The text of N.J.A.C. 19:31U-1.14, where the
  authority's recapture rule would be written, is not in the sources in hand: every rule here is
  a convention of this project (README, "Conventions"; docs/clawback.md).
- **extension repayment**, 71(a)(5)(d): "a business electing a period of extended commitment and
  failing to maintain the project through the expiration of that extended commitment period
  shall be obligated to repay a proportion of the incremental benefits received on account of
  having extended the commitment period, taking into consideration the number of years of
  extended commitment during which the business maintained the project" [statute]. The
  proportion ``(X - k) / X`` for k of X extended years maintained is a convention; so is the
  incremental benefit received by year m, the incremental credit in proportion to the credits
  received by then.

Nothing is repaid twice: the extension repayment is at most the credits received less the
recapture, so the total never exceeds the credits received. Pure functions on numbers and
numpy arrays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

#: Named recapture rules (``commitment.recapture``); a mapping {years maintained: share} is the fifth.
RECAPTURE_RULES = ("pro_rata", "all", "none")
#: Columns of the clawback schedule (the Result contract).
SCHEDULE_COLUMNS = ("years_maintained", "credits_received", "recapture", "extension_repayment", "total", "pv_total")
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
    after approval: the year before the first credit year). Once the project is maintained through
    its end, nothing is recaptured; before, never more than the credits received.

    Parameters
    ----------
    received : float or array
        Credits received by the end of year m, nominal. [USD]
    award_total : float or array
        The whole award, nominal, over the eligibility period. [USD]
    years_maintained : float or array
        m, whole years maintained after approval. [years]
    commitment_start, commitment_period : float or array
        [years]
    rule : "pro_rata", "all", "none", or a mapping {years maintained: share}
        ``pro_rata``: the credits received beyond the share of the whole award earned by the years
        of the commitment period served, ``max(0, received - award x served / C)``; ``all``: every
        credit received; ``none``: nothing; a table: its share of the credits received.

    >>> float(recapture(600.0, 700.0, 6, 0.0, 10.5))  # 600 - 700 x 6 / 10.5 = 200
    200.0
    >>> float(recapture(700.0, 700.0, 11, 0.0, 10.5))  # maintained through C: nothing
    0.0
    """
    received = np.asarray(received, dtype=float)
    m = np.asarray(years_maintained, dtype=float)
    period = np.asarray(commitment_period, dtype=float)
    served = np.clip(m - commitment_start, 0.0, period)
    within = m + _ROUNDING < np.asarray(commitment_start, dtype=float) + period
    if isinstance(rule, Mapping):
        amount = table_share(rule, m) * received
    elif rule == "pro_rata":
        amount = np.maximum(0.0, received - np.asarray(award_total, dtype=float) * served / period)
    elif rule == "all":
        amount = received
    elif rule == "none":
        amount = np.zeros_like(received)
    else:
        raise ValueError(f"recapture rule must be one of {RECAPTURE_RULES} or a table, not {rule!r}")
    return np.where(within, np.minimum(amount, received), 0.0)


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


def schedule_length(commitment_ends, extended_years: int) -> int:
    """Rows of a schedule: m = 0 .. ceil(max(C_end) + X) - 1, where C_end is the initial phase's
    commitment end (the first of ``commitment_ends``) for the extension."""
    ends = [float(end) for end in commitment_ends]
    last = max(max(ends), ends[0] + extended_years)
    return max(1, math.ceil(last - _ROUNDING))


def clawback_schedule(
    credits,
    commitment_starts,
    commitment_periods,
    incremental_credit: float,
    extended_years: int,
    discount_factor,
    rule="pro_rata",
    counting: str = "whole_years",
) -> dict[str, np.ndarray]:
    """The amount at risk for an exit after each number of whole years maintained.

    Parameters
    ----------
    credits : array, shape (phases, years)
        Credits of each phase by project year (1, 2, ...), nominal. [USD]
    commitment_starts, commitment_periods : sequences, one per phase
        Years after approval at which each phase's commitment period begins, and its length. [years]
    incremental_credit : float
        Credit received on account of the extended commitment, 71(a)(5)(d), on the whole award. [USD]
    extended_years : int
        X, the elected extended commitment (0: none, or not counted).
    discount_factor : callable
        Discount factor of a project year (arrays of years), at approval.
    rule, counting
        The recapture rule and how extended years maintained are counted.

    Returns
    -------
    dict of arrays named by :data:`SCHEDULE_COLUMNS`, one row per m.
    """
    credits = np.atleast_2d(np.asarray(credits, dtype=float))
    starts = [float(s) for s in commitment_starts]
    periods = [float(p) for p in commitment_periods]
    ends = [s + p for s, p in zip(starts, periods, strict=True)]
    rows = schedule_length(ends, extended_years)
    m = np.arange(rows, dtype=float)
    padded = np.zeros((credits.shape[0], max(rows, credits.shape[1])))
    padded[:, : credits.shape[1]] = credits
    cumulative = np.concatenate([np.zeros((credits.shape[0], 1)), np.cumsum(padded, axis=1)], axis=1)
    received_by_phase = cumulative[:, :rows]  # column m: credits of years 1..m
    received = received_by_phase.sum(axis=0)
    awards = credits.sum(axis=1)
    recaptured = sum(
        recapture(received_by_phase[p], awards[p], m, starts[p], periods[p], rule) for p in range(credits.shape[0])
    )
    requested = float(awards.sum())
    incremental_received = incremental_credit * received / requested if requested > 0 else np.zeros_like(received)
    k = extended_years_maintained(m, ends[0], extended_years, counting)
    repayment = np.minimum(extension_repayment(incremental_received, k, extended_years), received - recaptured)
    total = recaptured + repayment
    return {
        "years_maintained": m.astype(int),
        "credits_received": received,
        "recapture": recaptured,
        "extension_repayment": repayment,
        "total": total,
        # owed in the year after the last year maintained
        "pv_total": total * np.asarray(discount_factor(m + 1), dtype=float),
    }
