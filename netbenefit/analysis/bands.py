"""Percentile bands of the cumulative present value, year by year, over random draws.

:func:`cumulative_pv_bands` draws values of some keys (the distributions of
:func:`netbenefit.analysis.montecarlo`), runs the model on every draw at once
(:func:`netbenefit.model.cashflows.compute`) and gives, for each project year, percentiles of the
cumulative PV of counted net benefits and of the cumulative PV of the credits. Its chart is
:func:`netbenefit.views.charts.fan`, which draws the table only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ScenarioError
from ..io.arguments import checked, mapping
from ..model.cashflows import Computation, compute
from ..model.conventions import Conventions
from ..model.scenario import Scenario
from .keys import check_values, key_labels, key_spec
from .montecarlo import parse_distribution

#: Percentiles of the bands: the 5-95 and 25-75 bands and the median. [percent]
BAND_PERCENTILES = (5, 25, 50, 75, 95)  # not a statutory number: a convention of fan charts
#: Columns of the table.
BAND_COLUMNS = ("year", "percentile", "cumulative_pv_net_benefits", "cumulative_pv_credits")


def _cumulative(computation: Computation) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative PV of counted net benefits and of credits, ``(variants, years)``. [USD]"""
    shape = (computation.size, len(computation.years))
    counted = sum(np.broadcast_to(p.net_benefits * p.weight, shape) for p in computation.phases)
    credits = sum(np.broadcast_to(p.credits, shape) for p in computation.phases)
    discount = np.broadcast_to(computation.discount_factor, shape)
    return np.cumsum(counted * discount, axis=1), np.cumsum(credits * discount, axis=1)


@checked(vary=mapping)  # netbenefit.io.arguments (draws: below)
def cumulative_pv_bands(
    scenario: Scenario,
    vary: Mapping[str, Any],
    draws: int = 500,  # not a statutory number: a moderate default
    seed: int | None = None,
    percentiles: Sequence[float] = BAND_PERCENTILES,
) -> pd.DataFrame:
    """Percentiles of the cumulative PV of net benefits and of credits in each project year.

    Parameters
    ----------
    scenario : Scenario
    vary : mapping of dotted key -> distribution
        As for :func:`netbenefit.analysis.montecarlo` (``("normal", mean, sd)``...).
    draws : int
        Number of draws, all computed at once (a moderate number: the memory grows with
        draws x years). [draws]
    seed : int, optional
        Seed of ``numpy.random.SeedSequence``; the same seed gives the same bands.
    percentiles : sequence of float
        Percentiles computed in each year. [percent]

    Returns
    -------
    DataFrame
        Long table, one row per year and percentile: ``year``, ``percentile``,
        ``cumulative_pv_net_benefits`` and ``cumulative_pv_credits`` [USD, PV at approval].
        ``attrs``: ``conventions`` (of the base scenario), ``threshold`` (of the base), ``draws``,
        ``base`` (the base scenario's ``year`` and cumulative PVs, tuples), ``name``, ``key_labels``
        (each varied key in words, with its phase).

    Examples
    --------
    >>> bands = netbenefit.cumulative_pv_bands(scenario, {"jobs.new": ("normal", 260, 25)}, seed=1)  # doctest: +SKIP
    >>> netbenefit.views.charts.fan(bands)  # doctest: +SKIP
    """
    if isinstance(draws, bool) or not isinstance(draws, int | np.integer) or not 1 <= draws <= 100_000:
        raise ScenarioError(scenario.source, "", f"draws must be a whole number from 1 to 100,000, not {draws!r}")
    distributions = {key: parse_distribution(scenario, key, spec) for key, spec in vary.items()}
    for key in distributions:
        key_spec(scenario, key)
    generators = [np.random.default_rng(c) for c in np.random.SeedSequence(seed).spawn(len(distributions))]
    overrides = {
        key: check_values(scenario, key, distribution.draw(rng, int(draws)))
        for (key, distribution), rng in zip(distributions.items(), generators, strict=True)
    }
    computation = compute(scenario, overrides)
    benefits, credits = _cumulative(computation)
    years = computation.years
    levels = list(percentiles)
    benefit_bands = np.percentile(benefits, levels, axis=0)  # (percentiles, years)
    credit_bands = np.percentile(credits, levels, axis=0)
    table = pd.DataFrame(
        {
            "year": np.tile(years, len(levels)),
            "percentile": np.repeat(levels, len(years)),
            "cumulative_pv_net_benefits": benefit_bands.reshape(-1),
            "cumulative_pv_credits": credit_bands.reshape(-1),
        }
    )
    base = compute(scenario)
    base_benefits, base_credits = _cumulative(base)
    table.attrs.update(
        conventions=Conventions.of_computation(scenario, base, tuple(distributions)),
        threshold=float(np.asarray(base.threshold).reshape(-1)[0]),
        draws=int(draws),
        base={
            "year": tuple(int(y) for y in base.years),
            "cumulative_pv_net_benefits": tuple(float(v) for v in base_benefits[0]),
            "cumulative_pv_credits": tuple(float(v) for v in base_credits[0]),
        },
        name=scenario.name,
        key_labels=key_labels(scenario, distributions),  # each key in words, with its phase
    )
    return table
