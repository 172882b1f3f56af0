"""The present values step of the model: sums over years and phases, without temporary products."""

from __future__ import annotations

import numpy as np


def cumulative(columns: list[np.ndarray]) -> np.ndarray:
    """The running sum over phases of one ``(n, 1)`` column per phase, ``(n, phases)``: a copy of
    the one column of a project without later phases (the sum a cumulative sum gives)."""
    if len(columns) == 1:
        return np.array(columns[0], dtype=float)
    return np.cumsum(np.concatenate(columns, axis=1), axis=1)


def sum_of_products(flows: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """``sum over years of flows x factors`` for each variant, ``(1 or n, 1)``, without a
    temporary ``(n, years)`` product."""
    flows, factors = np.broadcast_arrays(flows, factors)
    return np.einsum("ij,ij->i", flows, factors)[:, None]


def weighted_present_value(flows: np.ndarray, weight: np.ndarray, discount: np.ndarray) -> np.ndarray:
    """``sum over years of flows x weight x discount`` for each variant, ``(1 or n, 1)``.

    With one variant, or weights that vary, as :func:`sum_of_products` of the flows and the
    weighted discount factors; with many variants and one row of weights, in one pass (no
    ``(n, years)`` product of the weights and the discount factors).
    """
    if weight.shape[0] == 1 and max(flows.shape[0], discount.shape[0]) > 1:
        shape = np.broadcast_shapes(flows.shape, discount.shape)
        flows, discount = np.broadcast_to(flows, shape), np.broadcast_to(discount, shape)
        return np.einsum("ij,ij,j->i", flows, discount, np.broadcast_to(weight, (1, shape[1]))[0])[:, None]
    return sum_of_products(flows, weight * discount)


def column(array, size: int) -> np.ndarray:
    return np.broadcast_to(array, (size, 1))


def ratio(benefits: np.ndarray, credits: np.ndarray) -> np.ndarray:
    """benefits / credits, NaN where the credits are zero (the caller reports that case)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(credits > 0, benefits / np.where(credits > 0, credits, 1.0), np.nan)
