"""netbenefit: the Emerge Program eligibility rules and net positive benefit test.

Section 71 of P.L.2020, c.156 (C.34:1B-339), as amended, applied to scenario files:

>>> import netbenefit
>>> scenario = netbenefit.load_scenario("scenarios/office_hq_default_area.yaml")  # doctest: +SKIP
>>> result = netbenefit.evaluate(scenario)  # doctest: +SKIP
>>> result.ratio, result.threshold, result.eligible  # doctest: +SKIP

``evaluate`` and ``compare`` are bound at import; every other public name is imported on first
use (PEP 562, :func:`__getattr__` below), so that a command loads only what it needs.
"""

from . import _startup

_startup.hold_while_starting()  # the command line: signals held from here (netbenefit._startup)

from importlib import import_module  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

from .model.compare import compare as compare  # noqa: E402  (every command evaluates)
from .model.evaluate import evaluate as evaluate  # noqa: E402
from .version import installed_version  # noqa: E402

if TYPE_CHECKING:  # the names an editor and a type checker see; at run time, imported on first use
    from .analysis import (
        break_even_discount_rate,
        cumulative_pv_bands,
        evaluate_variants,
        implied_discount_rate,
        max_award,
        min_new_jobs,
        montecarlo,
        sensitivity,
        sweep,
    )
    from .analysis.diff import Diff, diff
    from .analysis.portfolio import Portfolio, portfolio, portfolio_montecarlo
    from .errors import ScenarioError
    from .law.award import award_table
    from .law.parameters import PARAMETERS, parameter
    from .model.after_approval import Actuals, follow, load_actuals
    from .model.compare import Comparison
    from .model.economics import economist_view, economist_view_of
    from .model.plausibility import PlausibilityWarning
    from .model.result import Result
    from .model.scenario import Scenario, load_scenario
    from .views.charts import tornado
    from .views.explore import explore

#: Public name -> the module that defines it (imported on first use).
_EXPORTS = {
    "break_even_discount_rate": "analysis",
    "cumulative_pv_bands": "analysis",
    "evaluate_variants": "analysis",
    "implied_discount_rate": "analysis",
    "max_award": "analysis",
    "min_new_jobs": "analysis",
    "montecarlo": "analysis",
    "sensitivity": "analysis",
    "sweep": "analysis",
    "Diff": "analysis.diff",
    "diff": "analysis.diff",
    "Portfolio": "analysis.portfolio",
    "portfolio": "analysis.portfolio",
    "portfolio_montecarlo": "analysis.portfolio",
    "ScenarioError": "errors",
    "award_table": "law.award",
    "PARAMETERS": "law.parameters",
    "parameter": "law.parameters",
    "Actuals": "model.after_approval",
    "follow": "model.after_approval",
    "load_actuals": "model.after_approval",
    "Comparison": "model.compare",
    "economist_view": "model.economics",
    "economist_view_of": "model.economics",
    "PlausibilityWarning": "model.plausibility",
    "Result": "model.result",
    "Scenario": "model.scenario",
    "load_scenario": "model.scenario",
    "tornado": "views.charts",
    "explore": "views.explore",
}

__all__ = [
    "Actuals",
    "Comparison",
    "Diff",
    "PARAMETERS",
    "PlausibilityWarning",
    "Portfolio",
    "Result",
    "Scenario",
    "ScenarioError",
    "award_table",
    "break_even_discount_rate",
    "compare",
    "cumulative_pv_bands",
    "diff",
    "economist_view",
    "economist_view_of",
    "evaluate",
    "evaluate_variants",
    "explore",
    "follow",
    "implied_discount_rate",
    "load_actuals",
    "load_scenario",
    "max_award",
    "min_new_jobs",
    "montecarlo",
    "parameter",
    "portfolio",
    "portfolio_montecarlo",
    "sensitivity",
    "sweep",
    "tornado",
]


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use (later lookups find it bound)."""
    if name == "__version__":
        value: object = installed_version()
    elif name in _EXPORTS:
        value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'netbenefit' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
