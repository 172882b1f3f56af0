"""C.34:1B-341(a)(4): a significant reduction of the jobs or salaries certified at the start.

Section 73 of P.L.2020, c.156 (C.34:1B-341(a)(4)) makes the project agreement permit the authority
to recapture all or part of the credits "if the eligible business does not remain in compliance
with this provision for the required term or significantly reduces the number of full-time
employees, or the salaries thereof, to which the eligible business certified at the commencement
of the eligibility period" [statute]. The first half is the stop (:mod:`netbenefit.law.rules.clawback`);
this module is the second: a reduction while the business stays.

- **The baseline** is what each phase certified in its first credit year (the commencement of its
  eligibility period), not the full-ramp agreement: a ramp year at or above that start is never a
  reduction [statute's words].
- **"Significantly"** is not defined in the texts read: a year whose jobs or salaries fall below
  ``reduction_trigger_share`` (80 percent) of the baseline is named as the trigger [convention].
- **The recapture on it** (only under ``readings.reduction_recapture: pro_rata``; provisional until
  76(f) is read) extends the ``pro_rata`` rule of a stop to a partial stop: each year of the
  commitment period stands for 1/C of the credits received, and a year that kept a share k of its
  baseline (the smaller of its jobs' and its salaries' share) leaves 1 - k of it unserved
  [convention]. A stop's recapture counts the years after the stop, this one the years before it,
  so no year is counted twice.

Pure functions on numbers and numpy arrays.
"""

from __future__ import annotations

import numpy as np

from ..parameters import parameter
from .certification import below_floor

#: Where the statute allows a recapture on a reduction.
REDUCTION_CLAUSE = "C.34:1B-341(a)(4)"
#: The statute's words on it, as read.
REDUCTION_WORDS = (
    '"... or significantly reduces the number of full-time employees, or the salaries thereof, to which '
    'the eligible business certified at the commencement of the eligibility period" (C.34:1B-341(a)(4))'
)


def trigger_share() -> float:
    """The share of the baseline below which a year is a significant reduction [convention]:
    ``reduction_trigger_share`` of ``after_approval.yaml`` (80 percent, as the floor of N.J.A.C.
    19:31U-1.14(c); "significantly" is not defined in the texts read)."""
    return float(parameter("reduction_trigger_share"))


def baseline(values, first_index: int) -> float:
    """What a phase certified at the commencement of its eligibility period: its value of the
    first credit year (index ``first_index`` of the reported years); NaN where it is not reported
    or is 0 (nothing was certified to reduce).

    >>> baseline([200.0, 100.0], 0), baseline([200.0], 3)
    (200.0, nan)
    """
    values = np.asarray(values, dtype=float)
    if not 0 <= first_index < values.size or not values[first_index] > 0:
        return float("nan")
    return float(values[first_index])


def reduced(values, start_value: float, share: float) -> np.ndarray:
    """Whether each value is below ``share`` of ``start_value`` ("significantly reduces"), a value
    at the bound up to rounding not counting as below; False without a baseline or a value.

    >>> reduced([159.99, 160.0, 100.0, np.nan], 200.0, 0.8).tolist()
    [True, False, True, False]
    """
    values = np.asarray(values, dtype=float)
    return below_floor(values, np.full(values.shape, float(start_value)), share)


def kept_share(jobs, jobs_baseline: float, salary=None, salary_baseline: float = float("nan")) -> np.ndarray:
    """The share of its baseline each year kept: the smaller of its jobs' and its salaries' shares
    (a measure without a baseline or a value left out), at most 1.

    >>> kept_share([100.0, 200.0], 200.0, [90.0, 50.0], 100.0).tolist()
    [0.5, 0.5]
    """
    jobs = np.asarray(jobs, dtype=float)
    shares = [np.where(np.isnan(jobs), 1.0, jobs / jobs_baseline) if jobs_baseline > 0 else np.ones(jobs.shape)]
    if salary is not None and salary_baseline > 0:
        salary = np.asarray(salary, dtype=float)
        shares.append(np.where(np.isnan(salary), 1.0, salary / salary_baseline))
    return np.clip(np.minimum.reduce(shares), 0.0, 1.0)


def commitment_weight(years, commitment_start: float, commitment_period: float) -> np.ndarray:
    """The share of each project year inside the commitment period, from the end of year
    ``commitment_start`` for ``commitment_period`` years (C = 10.5: half of the eleventh year).

    >>> commitment_weight([1, 11, 12], 0.0, 10.5).tolist()
    [1.0, 0.5, 0.0]
    """
    years = np.asarray(years, dtype=float)
    end = commitment_start + commitment_period
    return np.clip(np.minimum(years, end) - np.maximum(years - 1.0, commitment_start), 0.0, 1.0)


def reduction_recapture(received, unserved_years, commitment_period, recaptured_already=0.0):
    """The recapture on a reduction, ``pro_rata``: ``received x unserved / C``, where ``unserved``
    is the sum over the years of reduction of (1 - kept share) x the year's share of the commitment
    period; never more than what a stop's recapture left of the credits received. [USD]

    >>> float(reduction_recapture(700.0, 2.5, 10.5))  # 200 then 100 for five years: 5 x 0.5 unserved
    166.66666666666666
    >>> float(reduction_recapture(700.0, 2.5, 10.5, recaptured_already=600.0))
    100.0
    """
    received = np.asarray(received, dtype=float)
    amount = received * np.asarray(unserved_years, dtype=float) / np.asarray(commitment_period, dtype=float)
    return np.clip(amount, 0.0, np.maximum(received - recaptured_already, 0.0))
