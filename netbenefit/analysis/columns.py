"""The per-variant results of a computation as flat arrays: the result columns, the ``note`` codes
and the failed checks as bit masks. The lowest part of :mod:`netbenefit.analysis`: the variants,
the structure, the Monte Carlo and the Dask tasks all read their columns from here."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..model.cashflows import Computation, compute
from ..model.columns import RESULT_COLUMNS as RESULT_COLUMNS  # the names, with the result's other columns
from ..model.scenario import Scenario

#: The float columns among them.
FLOAT_COLUMNS = ("pv_benefits", "pv_credits", "whole_project_ratio", "ratio", "threshold")
#: Values of the ``note`` column; "" for a row that evaluates normally.
NOTES = ("", "credits are zero", "present values overflow")
ZERO_CREDITS, OVERFLOW = 1, 2
#: Default number of variants computed at once (bounds the memory of long runs).
DEFAULT_CHUNK_SIZE = 100_000


def result_columns(computation: Computation) -> dict[str, np.ndarray]:
    """The per-variant results of a computation, as flat arrays, with the ``note`` codes."""
    size = computation.size
    pv_benefits = computation.column("pv_benefits").astype(float, copy=True)
    pv_credits = computation.column("pv_credits").astype(float, copy=True)
    without = computation.column("pv_benefits_without_extension")
    initial_requested = np.broadcast_to(computation.phases[0].requested_credits, (size, 1))[:, 0]
    note = np.zeros(size, dtype=np.int8)
    note[(initial_requested <= 0) | ~(pv_credits > 0)] = ZERO_CREDITS
    note[~(np.isfinite(pv_benefits) & np.isfinite(pv_credits) & np.isfinite(without))] = OVERFLOW
    flagged = note > 0
    ratio = computation.column("ratio").astype(float, copy=True)  # the test that decides, 71(a)(5)
    whole = computation.column("whole_project_ratio").astype(float, copy=True)
    passes = computation.column("passes").astype(bool, copy=True)
    eligible = computation.column("eligible").astype(bool, copy=True)
    if flagged.any():
        ratio[flagged] = np.nan
        whole[flagged] = np.nan
        passes[flagged] = False
        eligible[flagged] = False
    return {
        "failed_checks": failed_checks(computation),
        "pv_benefits": pv_benefits,
        "pv_credits": pv_credits,
        "whole_project_ratio": whole,
        "ratio": ratio,
        "threshold": computation.column("threshold").astype(float, copy=True),
        "passes": passes,
        "eligible": eligible,
        "note": note,
    }


def failed_checks(computation: Computation) -> np.ndarray:
    """Per variant, a bit mask of the checks of s.71 it fails: bit i for the i-th check of
    ``computation.checks`` (statute order, as :data:`netbenefit.model.evaluate.CHECK_IDS`)."""
    mask = np.zeros(computation.size, dtype=np.int32)
    same = 0  # the bits of the checks every variant fails alike (one value for all)
    for bit, passed in enumerate(computation.checks.values()):
        passed = np.asarray(passed, dtype=bool)
        if passed.size == 1:
            same |= int(not passed.reshape(-1)[0]) << bit
            continue
        failed = ~np.broadcast_to(passed, (computation.size, 1))[:, 0]
        mask |= failed.astype(np.int32) << bit
    if same:
        mask |= same
    return mask


def count_failures(check_ids, masks: np.ndarray) -> dict[str, int]:
    """How many variants fail each check, from the bit masks of :func:`failed_checks`."""
    masks = np.asarray(masks, dtype=np.int32)
    return {check_id: int(np.count_nonzero(masks & (1 << bit))) for bit, check_id in enumerate(check_ids)}


def repeated(scenario: Scenario, size: int) -> dict[str, np.ndarray]:
    """The result columns of the scenario itself, repeated ``size`` times (no key varied)."""
    columns = result_columns(compute(scenario))
    return {name: np.repeat(values, size) for name, values in columns.items()}


def general_columns(scenario: Scenario, overrides: Mapping[str, np.ndarray], size: int) -> dict[str, np.ndarray]:
    """The result columns of ``size`` variants by the general path: :func:`~netbenefit.model.cashflows.compute`
    on the overrides, or the scenario itself repeated where none is given."""
    return result_columns(compute(scenario, overrides)) if overrides else repeated(scenario, size)


def allocate(size: int) -> dict[str, np.ndarray]:
    """Empty result columns for ``size`` variants, filled chunk by chunk."""
    columns = {name: np.empty(size, dtype=float) for name in FLOAT_COLUMNS}
    columns["passes"] = np.empty(size, dtype=bool)
    columns["eligible"] = np.empty(size, dtype=bool)
    columns["note"] = np.empty(size, dtype=np.int8)
    columns["failed_checks"] = np.empty(size, dtype=np.int32)
    return columns
