"""netbenefit: the Emerge Program eligibility rules and net positive benefit test.

Section 71 of P.L.2020, c.156 (C.34:1B-339), as amended, applied to scenario files:

>>> import netbenefit
>>> scenario = netbenefit.load_scenario("scenarios/office_hq_default_area.yaml")  # doctest: +SKIP
>>> result = netbenefit.evaluate(scenario)  # doctest: +SKIP
>>> result.ratio, result.threshold, result.eligible  # doctest: +SKIP

Most public names are imported on first use, so that a command loads only what it needs.
"""

from . import _startup

_startup.hold_while_starting()  # the command line: signals held from here (netbenefit._startup)

import sys  # noqa: E402
import types  # noqa: E402
from importlib import import_module  # noqa: E402
from importlib.machinery import ModuleSpec  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

from .version import installed_version  # noqa: E402

#: The public import paths of modules that live in a floor's folder (docs/layout.md): the public
#: path, and every module under it, is the module of the folder, imported on first use.
PUBLIC_PATHS: dict[str, str] = {
    "netbenefit.after_approval": "netbenefit.model.after_approval",
    "netbenefit.award": "netbenefit.law.award",
    "netbenefit.charts": "netbenefit.views.charts",
    "netbenefit.html": "netbenefit.views.html",
    "netbenefit.methods": "netbenefit.model.methods",
    "netbenefit.parameters": "netbenefit.law.parameters",
    "netbenefit.portfolio": "netbenefit.analysis.portfolio",
    "netbenefit.rules": "netbenefit.law.rules",
    "netbenefit.scenario": "netbenefit.model.scenario",
    "netbenefit.workbook": "netbenefit.views.workbook",
}


class _PublicPaths:
    """Finds ``netbenefit.parameters`` (and every public path above) as the module it names, the
    same module object, so that a public path and the folder's path are one module, not two."""

    @staticmethod
    def _real(name: str) -> str | None:
        for public, real in PUBLIC_PATHS.items():
            if name == public or name.startswith(public + "."):
                return real + name[len(public) :]
        return None

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        return None if self._real(name) is None else ModuleSpec(name, self)  # type: ignore[arg-type]

    def create_module(self, spec: ModuleSpec) -> types.ModuleType:
        return import_module(self._real(spec.name))  # type: ignore[arg-type]

    def exec_module(self, module: types.ModuleType) -> None:
        pass  # the module ran when it was imported by its own path


sys.meta_path.insert(0, _PublicPaths())

# Bound now: every command evaluates.
from .model.compare import compare as compare  # noqa: E402
from .model.evaluate import evaluate as evaluate  # noqa: E402


class _FrontDoor(types.ModuleType):
    """The package: the public path ``netbenefit.portfolio`` (a module) never replaces the function
    ``netbenefit.portfolio`` when it is imported (the import system sets a package's attribute)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "portfolio" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _FrontDoor

#: Public name -> the module that defines it (imported on first use).
_EXPORTS = {
    "Actuals": "model.after_approval",
    "follow": "model.after_approval",
    "load_actuals": "model.after_approval",
    "break_even_discount_rate": "analysis",
    "cumulative_pv_bands": "analysis",
    "evaluate_variants": "analysis",
    "implied_discount_rate": "analysis",
    "max_award": "analysis",
    "min_new_jobs": "analysis",
    "montecarlo": "analysis",
    "sensitivity": "analysis",
    "sweep": "analysis",
    "tornado": "views.charts",
    "award_table": "law.award",
    "Comparison": "model.compare",
    "Diff": "analysis.diff",
    "diff": "analysis.diff",
    "economist_view": "model.economics",
    "economist_view_of": "model.economics",
    "explore": "views.explore",
    "ScenarioError": "errors",
    "PARAMETERS": "law.parameters",
    "parameter": "law.parameters",
    "PlausibilityWarning": "model.plausibility",
    "Portfolio": "analysis.portfolio",
    "portfolio": "analysis.portfolio",
    "portfolio_montecarlo": "analysis.portfolio",
    "Result": "model.result",
    "Scenario": "model.scenario",
    "load_scenario": "model.scenario",
}

__all__ = sorted([*_EXPORTS, "compare", "evaluate"])

if TYPE_CHECKING:  # the public names as a type checker and an editor see them (bound on first use below)
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
    if name == "__version__":
        globals()[name] = value = installed_version()
        return value
    if name not in _EXPORTS:
        raise AttributeError(f"module 'netbenefit' has no attribute {name!r}")
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
