"""Over generated scenarios (phases starting later, fractional commitment periods, abated and cost
streams, extended commitments, mid-year timing), the workbook recomputed by the ``formulas``
package gives evaluate's ratio (the deciding test's: the lowest cumulative test's), PV of benefits
and PV of credits, margin and largest credit that passes."""

from __future__ import annotations

from hypothesis import given, settings
from properties.scenario_strategies import scenario_dicts
from workbook_engines import Recomputed

import netbenefit
from netbenefit.model.scenario import Scenario

#: The recomputed ratio may differ from evaluate's by this, relative to max(1, ratio).
RATIO_TOLERANCE = 1e-9


@settings(max_examples=10)
@given(scenario_dicts())
def test_the_workbook_recomputes_to_evaluate(tmp_path_factory, data):
    result = netbenefit.evaluate(Scenario.from_dict(data))
    path = result.to_excel(tmp_path_factory.mktemp("workbook") / "result.xlsx")
    engine = Recomputed(path)
    deciding = result.ratio  # the deciding test's ratio, 71(a)(5)
    assert deciding == float(result.phase_tests["ratio"].min())
    assert abs(engine.name("ratio") - deciding) <= RATIO_TOLERANCE * max(1.0, abs(deciding))
    assert abs(engine.name("margin") - (deciding - result.threshold)) <= RATIO_TOLERANCE * max(1.0, abs(deciding))
    largest = result.max_credit_pv  # never below 0
    assert largest >= 0
    credit_scale = result.pv_credits * max(1.0, abs(deciding)) / result.threshold  # (the ratio's tolerance, in credits)
    assert abs(engine.name("max_credit_pv") - largest) <= 1e-9 * max(credit_scale, 1.0)
    scale = max(abs(result.pv_benefits), 1.0)
    assert abs(engine.name("pv_benefits") - result.pv_benefits) <= 1e-9 * scale
    assert abs(engine.name("pv_credits") - result.pv_credits) <= 1e-9 * result.pv_credits
    assert bool(engine.name("passes")) is result.passes
