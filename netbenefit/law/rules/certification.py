"""After approval, as pure functions on numbers and arrays: the credit certified in proportion to
the jobs in place, the retained requirement met first, forfeiture for a fall of the statewide
workforce, and the comparison with the prior report that may re-run the test.

N.J.A.C. 19:31U-1.14 and 19:31U-1.4(c), as summarized by the authority (see
:mod:`netbenefit.model.after_approval`, which applies them to a scenario and its actual results, and
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
    """Jobs in place counted toward the approved retained jobs first, N.J.A.C. 19:31U-1.4(c)
    [secondary]: ``(new counted, retained counted)`` where retained counted = min(all jobs, the
    approved retained jobs) and every job beyond them counts as new, whatever the file calls it (a
    retained job reported above the approved number is not "retained" for the award).

    >>> [a.tolist() for a in retained_first([120.0], [80.0], 100.0)]  # new jobs fill the requirement
    [[100.0], [100.0]]
    >>> [a.tolist() for a in retained_first([20.0], [270.0], 250.0)]  # 20 retained beyond it count as new
    [[40.0], [250.0]]
    """
    new = np.asarray(new_jobs, dtype=float)
    retained = np.asarray(retained_jobs, dtype=float)
    total = new + retained
    counted_retained = np.minimum(total, np.asarray(retained_required, dtype=float))
    return total - counted_retained, counted_retained


def prior_report(actual, projected_first):
    """What each year's report is compared with: the prior year's report; for the first, the
    project agreement (the projection), N.J.A.C. 19:31U-1.14 [secondary].

    >>> prior_report([90.0, 80.0, 85.0], 100.0).tolist()
    [100.0, 90.0, 80.0]
    """
    actual = np.asarray(actual, dtype=float)
    return np.concatenate([[float(projected_first)], actual[:-1]])


def allocate_to_phases(total, projected, allocation="in_proportion"):
    """New jobs reported for the project as a whole, allocated to its phases [convention].

    ``in_proportion`` (the default): each phase gets the share of the year's total that its
    projection is of the year's projected total; ``in_order``: the initial phase's projection is
    filled first, then the next phase's, and so on. What exceeds every projection is spread in
    proportion to the projections either way; a year without any projection puts its jobs in the
    initial phase.

    Parameters
    ----------
    total : array_like, shape (years,)
        Jobs reported for the project in each year. [jobs]
    projected : array_like, shape (phases, years)
        Each phase's projected jobs in the same years. [jobs]
    allocation : "in_proportion" or "in_order"

    Returns
    -------
    array, shape (phases, years), adding up to ``total`` in each year

    >>> allocate_to_phases([150.0], [[100.0], [200.0]]).tolist()
    [[50.0], [100.0]]
    >>> allocate_to_phases([150.0], [[100.0], [200.0]], "in_order").tolist()
    [[100.0], [50.0]]
    >>> allocate_to_phases([330.0, 7.0], [[100.0, 0.0], [200.0, 0.0]], "in_order").tolist()
    [[110.0, 7.0], [220.0, 0.0]]
    """
    total = np.asarray(total, dtype=float)
    projected = np.atleast_2d(np.asarray(projected, dtype=float))
    whole = projected.sum(axis=0)
    share = np.divide(projected, whole, out=np.zeros_like(projected), where=whole > 0)
    share[0] = np.where(whole > 0, share[0], 1.0)  # nothing projected: the initial phase
    if allocation == "in_proportion":
        return share * total
    if allocation != "in_order":
        raise ValueError(f"allocation must be in_proportion or in_order, not {allocation!r}")
    before = np.cumsum(projected, axis=0) - projected  # projected jobs of the phases before each one
    filled = np.clip(total - before, 0.0, projected)
    return filled + share * np.maximum(total - whole, 0.0)


def below_floor(actual, projected, floor_share):
    """Whether ``actual`` drops below ``floor_share`` of ``projected`` (N.J.A.C. 19:31U-1.14(c):
    "drops below 80 percent"): a fall of more than ``1 - floor_share``, a value at the floor up to
    rounding not counting as below. False where nothing was projected or nothing is reported (NaN).

    >>> below_floor([79.99, 80.0, 80.01], [100.0, 100.0, 100.0], 0.8).tolist()
    [True, False, False]
    """
    actual = np.asarray(actual, dtype=float)
    projected = np.asarray(projected, dtype=float)
    known = ~(np.isnan(actual) | np.isnan(projected))
    fall = fall_share(np.nan_to_num(actual), np.nan_to_num(projected))
    return known & (np.nan_to_num(projected) > 0) & more_than(fall, 1.0 - float(floor_share))
