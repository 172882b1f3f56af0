"""Expected outputs of the bundled scenarios: the JSON result contract plus cash-flow totals.

Regenerate after a deliberate change of the model, and review the diff:

    python tests/regression/expected_outputs.py
"""

from __future__ import annotations

import json
from pathlib import Path

import netbenefit

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
EXPECTED = Path(__file__).resolve().parent / "expected"


def observed(path: Path) -> dict:
    result = netbenefit.evaluate(netbenefit.load_scenario(path))
    totals = result.cashflows.sum(numeric_only=True)
    return {
        "result": result.to_dict(),
        "cashflow_totals": {
            name: float(totals[name])
            for name in ("full_time_jobs", "wages", "revenues", "costs", "credits", "pv_net_benefits", "pv_credits")
        },
        "years": int(len(result.cashflows)),
    }


def main() -> None:
    EXPECTED.mkdir(exist_ok=True)
    for path in sorted(SCENARIOS.glob("*.yaml")):
        target = EXPECTED / f"{path.stem}.json"
        target.write_text(json.dumps(observed(path), indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
