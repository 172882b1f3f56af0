"""netbenefit: the Emerge Program eligibility rules and net positive benefit test.

Section 71 of P.L.2020, c.156 (C.34:1B-339), as amended, applied to scenario files:

>>> import netbenefit
>>> scenario = netbenefit.load_scenario("scenarios/office_hq_default_area.yaml")  # doctest: +SKIP
>>> result = netbenefit.evaluate(scenario)  # doctest: +SKIP
>>> result.ratio, result.threshold, result.eligible  # doctest: +SKIP
"""

from importlib.metadata import PackageNotFoundError, version

from .after_approval import Actuals, follow, load_actuals
from .analysis import (
    break_even_discount_rate,
    evaluate_variants,
    implied_discount_rate,
    max_award,
    min_new_jobs,
    montecarlo,
    sensitivity,
    sweep,
    tornado,
)
from .award import award_table
from .compare import compare
from .economics import economist_view, economist_view_of
from .errors import ScenarioError
from .evaluate import evaluate
from .parameters import PARAMETERS, parameter
from .result import Result
from .scenario import Scenario, load_scenario

try:
    __version__ = version("netbenefit")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "Actuals",
    "PARAMETERS",
    "Result",
    "Scenario",
    "ScenarioError",
    "award_table",
    "break_even_discount_rate",
    "compare",
    "economist_view",
    "economist_view_of",
    "evaluate",
    "evaluate_variants",
    "follow",
    "implied_discount_rate",
    "load_actuals",
    "load_scenario",
    "max_award",
    "min_new_jobs",
    "montecarlo",
    "parameter",
    "sensitivity",
    "sweep",
    "tornado",
]
