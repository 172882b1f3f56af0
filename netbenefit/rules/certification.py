"""After approval, as pure functions on numbers and arrays: the credit certified in proportion to
the jobs in place, the retained requirement met first, forfeiture for a fall of the statewide
workforce, and the comparison with the prior report that may re-run the test.

N.J.A.C. 19:31U-1.14 and 19:31U-1.4(c), as summarized by the authority (see
:mod:`netbenefit.after_approval`, which applies them to a scenario and its actual results, and
where each reading is graded). Every bound comes from the cited parameters file
``after_approval.yaml``.
"""

from __future__ import annotations

import numpy as np

from ..parameters import parameter


def more_than(value, bound):
    """``value > bound``, a value equal to the bound up to rounding not counting as more.

    >>> bool(more_than(1 - 800 / 1000, 0.2)), bool(more_than(1 - 799.9 / 1000, 0.2))
    (False, True)
    """
    value = np.asarray(value, dtype=float)
    bound = np.asarray(bound, dtype=float)
    tolerance = parameter("after_approval_comparison_relative_tolerance")
    close = np.abs(value - bound) <= tolerance * np.maximum(np.abs(value), np.abs(bound))
    return (value > bound) & ~close


def fall_share(actual, projected):
    """How far ``actual`` is below ``projected``, as a share of it: ``1 - actual / projected``.

    Zero where nothing was projected; negative where the actual exceeds the projection.

    >>> fall_share([90.0, 110.0, 5.0], [100.0, 100.0, 0.0]).round(6).tolist()
    [0.1, -0.1, 0.0]
    """
    actual = np.asarray(actual, dtype=float)
    projected = np.asarray(projected, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(projected > 0, 1.0 - actual / np.where(projected > 0, projected, 1.0), 0.0)


def forfeited_years(statewide_workforce, workforce_before_approval, restoration_share=None):
    """Whether the credit of each year is forfeited for a fall of the statewide workforce.

    A year is forfeited when the workforce is **more than** ``statewide_workforce_forfeiture_drop_share``
    (20 percent) below its level in the last tax period before approval, and every later year until
    it is restored to at least ``restoration_share`` of that level: by default
    ``statewide_workforce_restoration_share``, 0.8, the threshold level of N.J.A.C. 19:31U-1.14(a)
    [secondary]; 1.0 for the level itself.

    Parameters
    ----------
    statewide_workforce : array_like, shape (years,)
        Full-time workforce in the State in project years 1, 2, ... [jobs]
    workforce_before_approval : float
        Full-time workforce in the State in the last tax period before approval. [jobs]

    Returns
    -------
    (drop_share, forfeited) : arrays of shape (years,)

    >>> forfeited_years([800, 799, 790, 800], 1000)[1].tolist()  # 20% no; 20.1% yes; until restored
    [False, True, True, False]
    >>> forfeited_years([800, 799, 900, 1000], 1000, restoration_share=1.0)[1].tolist()
    [False, True, True, False]
    """
    workforce = np.asarray(statewide_workforce, dtype=float)
    drop = fall_share(workforce, workforce_before_approval)
    triggered = more_than(drop, parameter("statewide_workforce_forfeiture_drop_share"))
    if restoration_share is None:
        restoration_share = parameter("statewide_workforce_restoration_share")
    restoration = restoration_share * workforce_before_approval
    restored = (workforce >= restoration) | ~more_than(restoration, workforce)
    forfeited = np.zeros(workforce.shape, dtype=bool)
    for t in range(workforce.shape[0]):
        forfeited[t] = triggered[t] or (t > 0 and forfeited[t - 1] and not restored[t])
    return drop, forfeited


def certified_credit(approved_credit, per_new_job, per_retained_job, new_jobs, retained_jobs):
    """Credit certified for a year: the jobs actually in place at the award's amounts per job,
    never more than the approved credit of the year. [USD]

    The certification in proportion to the jobs in place is the authority's [secondary]; valuing
    each job at the award's amount per new or retained job is a convention (for an award given
    as an annual amount, every counted job is worth the annual credit / the jobs it was based on).

    >>> certified_credit(1000.0, 10.0, 5.0, [50, 120], [0, 0]).tolist()
    [500.0, 1000.0]
    """
    value = np.asarray(per_new_job, dtype=float) * new_jobs + np.asarray(per_retained_job, dtype=float) * retained_jobs
    return np.minimum(np.asarray(approved_credit, dtype=float), value)


def retained_first(new_jobs, retained_jobs, retained_required):
    """Jobs in place counted toward the retained requirement first, N.J.A.C. 19:31U-1.4(c) [secondary]:
    ``(new counted, retained counted)`` where retained counted = min(all jobs, the requirement).

    >>> [a.tolist() for a in retained_first([120.0], [80.0], 100.0)]
    [[100.0], [100.0]]
    """
    new = np.asarray(new_jobs, dtype=float)
    retained = np.asarray(retained_jobs, dtype=float)
    total = new + retained
    counted_retained = np.minimum(total, np.maximum(retained, np.asarray(retained_required, dtype=float)))
    return total - counted_retained, counted_retained


def prior_report(actual, projected_first):
    """What each year's report is compared with: the prior year's report; for the first, the
    project agreement (the projection), N.J.A.C. 19:31U-1.14 [secondary].

    >>> prior_report([90.0, 80.0, 85.0], 100.0).tolist()
    [100.0, 90.0, 80.0]
    """
    actual = np.asarray(actual, dtype=float)
    return np.concatenate([[float(projected_first)], actual[:-1]])
