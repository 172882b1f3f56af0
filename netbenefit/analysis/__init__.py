"""Scenario analysis at scale: sweeps, Monte Carlo, percentile bands, solvers and sensitivity.

Every function here runs :func:`netbenefit.model.cashflows.compute` on arrays of variants, so its
numbers are those :func:`netbenefit.evaluate` gives for ``scenario.replace({...})``. Values are
checked against the scenario format first (:mod:`netbenefit.analysis.keys`). See
``docs/analysis.md``.

The analysis floor: many variants of one scenario, two scenarios (``diff``, ``margin``), many
applications (``portfolio/``). May import the model, the law, ``io`` and ``errors``; never the views
or the command line, but an analysis object's view methods (``plot``, ``to_pdf``, ``_repr_html_``)
each import their view in the method (``tests/unit/test_floors.py`` lists them).
"""

import warnings
from typing import Any

from .bands import BAND_COLUMNS, cumulative_pv_bands
from .keys import KeySpec, check_values, key_label, key_spec
from .montecarlo import DISTRIBUTIONS, MonteCarloResult, MonteCarloSummary, montecarlo, summarise
from .rates import break_even_discount_rate, implied_discount_rate
from .sensitivity import sensitivity
from .solvers import SolverResult, max_award, min_new_jobs
from .sweep import sweep
from .variants import NOTES, RESULT_COLUMNS, evaluate_variants

__all__ = [
    "BAND_COLUMNS",
    "DISTRIBUTIONS",
    "NOTES",
    "RESULT_COLUMNS",
    "KeySpec",
    "MonteCarloResult",
    "MonteCarloSummary",
    "SolverResult",
    "break_even_discount_rate",
    "check_values",
    "cumulative_pv_bands",
    "evaluate_variants",
    "implied_discount_rate",
    "key_label",
    "key_spec",
    "max_award",
    "min_new_jobs",
    "montecarlo",
    "sensitivity",
    "summarise",
    "sweep",
]


def __getattr__(name: str) -> Any:
    if name == "tornado":  # the chart lives in netbenefit.views.charts; this old name still works, with a warning
        warnings.warn(
            "netbenefit.analysis.tornado is deprecated; use netbenefit.views.charts.tornado (or netbenefit.tornado)",
            DeprecationWarning,
            stacklevel=2,
        )
        from ..views.charts import tornado

        return tornado
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
