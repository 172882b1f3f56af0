"""Discounting and benefit-window weights: pure functions on numbers and numpy arrays.

Years are numbered 1, 2, 3, ... from approval. Every function broadcasts: a discount rate may
be a scalar or an array of shape ``(variants,)`` against years of shape ``(years,)``, giving
``(variants, years)``.
"""

from __future__ import annotations

import numpy as np

TIMINGS = ("end_of_year", "mid_year")


def discount_exponent(years, timing: str = "end_of_year"):
    """Exponent of the discount factor of a flow in project year ``years``.

    Parameters
    ----------
    years : int or array_like of int
        Project year, 1 for the first year after approval, 0 for the approval year. [year]
    timing : {"end_of_year", "mid_year"}
        ``end_of_year``: a flow in year t is discounted t years; ``mid_year``: t - 0.5 years;
        year 0 is discounted 0 years under both (docs/model.md#timeline).

    >>> discount_exponent([0, 1, 2], "mid_year").tolist()
    [0.0, 0.5, 1.5]
    """
    if timing not in TIMINGS:
        raise ValueError(f"timing must be one of {TIMINGS}, not {timing!r}")
    years = np.asarray(years, dtype=float)
    # year 0, the approval year, is discounted at t = 0 under every convention (docs/model.md#timeline)
    return np.maximum(years - 0.5, 0.0) if timing == "mid_year" else years


def discount_factors(discount_rate, years, timing: str = "end_of_year"):
    """Discount factor ``(1 + r) ** -exponent`` of each year.

    Parameters
    ----------
    discount_rate : float or array_like, shape (variants,)
        Nominal annual discount rate, a decimal greater than -1. [1/year]
    years : array_like of int, shape (years,)
        Project years, 1 for the first year after approval. [year]
    timing : {"end_of_year", "mid_year"}

    Returns
    -------
    ndarray
        Shape ``(years,)`` for a scalar rate, ``(variants, years)`` for an array of rates.

    Warnings
    --------
    Unlike ``numpy_financial.npv``, which discounts its first value at t=0, year 1 here is
    discounted a full year (end of year) or half a year (mid-year).

    >>> discount_factors(0.10, [1, 2]).round(6).tolist()
    [0.909091, 0.826446]
    """
    rate = np.asarray(discount_rate, dtype=float)
    exponent = discount_exponent(years, timing)
    # exp(-exponent x log(1 + r)) is (1 + r) ** -exponent; numpy evaluates it several times faster
    # over the (variants, years) array of many variants.
    log_growth = np.log1p(rate)
    if rate.ndim:
        log_growth = log_growth[..., None]
    return np.exp(-exponent * log_growth)


def present_value(cash_flows, discount_rate, *, timing: str = "end_of_year", years=None):
    """Present value at approval of annual cash flows.

    Parameters
    ----------
    cash_flows : array_like, shape (..., years)
        Amount in each project year, the last axis being years 1, 2, ... [USD, nominal]
    discount_rate : float or array_like, shape (...)
        Nominal annual discount rate. [1/year]
    timing : {"end_of_year", "mid_year"}
    years : array_like of int, optional
        Project year of each column; default 1, 2, ..., n.

    Returns
    -------
    float or ndarray, shape (...)
        Present value at approval. [USD]

    Warnings
    --------
    The first value is year 1, discounted one year (end of year) or half a year (mid-year):
    not t=0 as in ``numpy_financial.npv``.

    >>> round(present_value([110.0, 121.0], 0.10), 6)
    200.0
    """
    cash_flows = np.asarray(cash_flows, dtype=float)
    if years is None:
        years = np.arange(1, cash_flows.shape[-1] + 1)
    factors = discount_factors(discount_rate, years, timing)
    total = np.sum(cash_flows * factors, axis=-1)
    return float(total) if np.ndim(total) == 0 else total


def window_weights(window_end, years):
    """Weight of each project year in a benefit window that ends at ``window_end``.

    The window runs from the start of year 1 to the point ``window_end`` years after approval;
    a year inside it weighs 1, a year cut by its end weighs the fraction inside, a later year 0:
    ``clip(window_end - (year - 1), 0, 1)``. Year 0, the approval year, is inside every window
    (weight 1 for any ``window_end >= 0``, docs/model.md#timeline).

    Parameters
    ----------
    window_end : float or array_like, shape (variants,)
        End of the window, in years after approval. For a commitment of L years starting at
        the beginning of first credit year s, ``window_end = s - 1 + L``. [year]
    years : array_like of int, shape (years,)

    >>> window_weights(10.5, [9, 10, 11, 12]).tolist()
    [1.0, 1.0, 0.5, 0.0]
    """
    end = np.asarray(window_end, dtype=float)
    years = np.asarray(years, dtype=float)
    if end.ndim:
        end = end[..., None]
    return np.clip(end - (years - 1.0), 0.0, 1.0)
