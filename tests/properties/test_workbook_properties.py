"""Over generated scenarios (phases starting later, fractional commitment periods, abated and cost
streams, extended commitments, mid-year timing), the workbook recomputed by the ``formulas``
package gives evaluate's ratio, PV of benefits and PV of credits."""

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
    assert abs(engine.name("ratio") - result.ratio) <= RATIO_TOLERANCE * max(1.0, abs(result.ratio))
    scale = max(abs(result.pv_benefits), 1.0)
    assert abs(engine.name("pv_benefits") - result.pv_benefits) <= 1e-9 * scale
    assert abs(engine.name("pv_credits") - result.pv_credits) <= 1e-9 * result.pv_credits
    assert bool(engine.name("passes")) is result.passes
