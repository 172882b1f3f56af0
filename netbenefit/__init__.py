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

from importlib import import_module  # noqa: E402

# These share their name with their module: they are bound now, since importing the module
# (which any command does) would otherwise leave the package attribute pointing at the module.
from .compare import compare as compare  # noqa: E402
from .diff import diff as diff  # noqa: E402
from .evaluate import evaluate as evaluate  # noqa: E402
from .explore import explore as explore  # noqa: E402
from .portfolio import portfolio as portfolio  # noqa: E402

#: Public name -> the module that defines it (imported on first use).
_EXPORTS = {
    "Actuals": "after_approval",
    "follow": "after_approval",
    "load_actuals": "after_approval",
    "break_even_discount_rate": "analysis",
    "cumulative_pv_bands": "analysis",
    "evaluate_variants": "analysis",
    "implied_discount_rate": "analysis",
    "max_award": "analysis",
    "min_new_jobs": "analysis",
    "montecarlo": "analysis",
    "sensitivity": "analysis",
    "sweep": "analysis",
    "tornado": "charts",
    "award_table": "award",
    "Comparison": "compare",
    "Diff": "diff",
    "economist_view": "economics",
    "economist_view_of": "economics",
    "ScenarioError": "errors",
    "PARAMETERS": "parameters",
    "parameter": "parameters",
    "PlausibilityWarning": "plausibility",
    "Portfolio": "portfolio",
    "portfolio_montecarlo": "portfolio",
    "Result": "result",
    "Scenario": "scenario",
    "load_scenario": "scenario",
}

__all__ = sorted([*_EXPORTS, "compare", "diff", "evaluate", "explore", "portfolio"])


def __getattr__(name: str):
    if name == "__version__":
        from .version import installed_version

        globals()[name] = value = installed_version()
        return value
    if name not in _EXPORTS:
        raise AttributeError(f"module 'netbenefit' has no attribute {name!r}")
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
