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
from typing import TYPE_CHECKING, Any  # noqa: E402

from .model.compare import compare as compare  # noqa: E402  (every command evaluates)
from .model.evaluate import evaluate as evaluate  # noqa: E402
from .version import installed_version  # noqa: E402

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

__all__ = sorted([*_EXPORTS, "compare", "evaluate"])

if TYPE_CHECKING:  # the names an editor and a type checker see; at run time, imported on first use
    from .analysis.bands import cumulative_pv_bands as cumulative_pv_bands
    from .analysis.diff import Diff as Diff
    from .analysis.diff import diff as diff
    from .analysis.montecarlo import montecarlo as montecarlo
    from .analysis.portfolio import Portfolio as Portfolio
    from .analysis.portfolio import portfolio as portfolio
    from .analysis.portfolio import portfolio_montecarlo as portfolio_montecarlo
    from .analysis.rates import break_even_discount_rate as break_even_discount_rate
    from .analysis.rates import implied_discount_rate as implied_discount_rate
    from .analysis.sensitivity import sensitivity as sensitivity
    from .analysis.solvers import max_award as max_award
    from .analysis.solvers import min_new_jobs as min_new_jobs
    from .analysis.sweep import sweep as sweep
    from .analysis.variants import evaluate_variants as evaluate_variants
    from .errors import ScenarioError as ScenarioError
    from .law.award import award_table as award_table
    from .law.parameters import PARAMETERS as PARAMETERS
    from .law.parameters import parameter as parameter
    from .model.after_approval import Actuals as Actuals
    from .model.after_approval import follow as follow
    from .model.after_approval import load_actuals as load_actuals
    from .model.compare import Comparison as Comparison
    from .model.economics import economist_view as economist_view
    from .model.economics import economist_view_of as economist_view_of
    from .model.plausibility import PlausibilityWarning as PlausibilityWarning
    from .model.result import Result as Result
    from .model.scenario import Scenario as Scenario
    from .model.scenario import load_scenario as load_scenario
    from .views.charts import tornado as tornado
    from .views.explore import explore as explore


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (later lookups find it bound)."""
    if name == "__version__":
        value = installed_version()
    elif name in _EXPORTS:
        value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'netbenefit' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
