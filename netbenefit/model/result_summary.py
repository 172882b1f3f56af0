"""The plain-text account of a result (:meth:`Result.summary`, what ``netbenefit evaluate``
prints): the ratio against its threshold, the present values, the benefits by tax, the conventions,
the clawback schedule in brief, then each check, every line from the result's records and tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..labels import money_exact, ratio_verdict, test_name

if TYPE_CHECKING:
    from .result import Result


def summary(result: Result) -> str:
    """A short plain-text account of ``result``: the ratio against its threshold, then each check."""
    phased = len(result.net_benefit_decision.comparisons) > 1
    verdict = "ELIGIBLE" if result.eligible else "NOT ELIGIBLE"
    lines = [
        f"{result.name}: {verdict}",
        f"  net benefit {result.verdict()}",
    ]
    if result.extension_decides:
        lines.append(f"  {result.extension_words()}")
    if phased:
        test = result.deciding_test
        row = result.table_rows("phase_tests")[result.net_benefit_decision.deciding]
        whole, _ = ratio_verdict(result.whole_project_ratio, result.threshold, True, 1)
        lines += [
            f"  {test_name(test.what)} (the test that decides): PV net benefits {money_exact(row.pv_benefits)}; "
            f"PV credits {money_exact(row.pv_credits)}",
            f"  whole project: PV net benefits {money_exact(result.pv_benefits)}; PV credits "
            f"{money_exact(result.pv_credits)}; whole-project ratio {whole}",
        ]
    else:
        lines.append(
            f"  PV net benefits {money_exact(result.pv_benefits)}; PV credits {money_exact(result.pv_credits)}"
        )
    lines.append(
        f"  requested credits scaled alike until every test passes, PV {money_exact(result.max_credit_pv)} "
        f"({result.currency}, PV at approval)" + (f": {result.max_credit_pv_note}" if result.max_credit_pv_note else "")
    )
    if result.ratio_as_given is not None and result.ratio_as_given != result.ratio:
        lines.append(
            f"  over the commitment period as the scenario states it (not set by the authority, so not counted, "
            f"71(a)(5)): ratio {result.ratio_as_given:.1%}"
        )
    for row in result.table_rows("benefits_by_tax"):
        tax = row.tax.replace("_", " ")
        lines.append(f"  benefits, {tax}: {money_exact(row.nominal)} counted, PV {money_exact(row.pv)}")
    if _has_indirect_jobs(result):
        peak = result.cashflows["indirect_and_induced_jobs"].max()
        direct = result.cashflows["full_time_jobs"].max()
        lines.append(
            f"  jobs at their peak: {direct:,.0f} direct, {peak:,.0f} indirect and induced (employment multiplier)"
        )
    lines.append(f"  method: {result.scenario.method} (netbenefit.methods)")
    for note in result.conventions:
        lines.append(f"  convention: {note}")
    if phased:
        for test in result.net_benefit_decision.comparisons:  # written true to each test's verdict
            written, _ = ratio_verdict(test.value, test.limit, test.holds, 1)
            lines.append(f"  {test_name(test.what)}: ratio {written} {'passes' if test.holds else 'fails'}")
    if result.infrastructure_fund_donation > 0:
        lines.append(f"  infrastructure fund donation, 71(b)(2): {money_exact(result.infrastructure_fund_donation)}")
    if result.excluded_streams:
        lines.append(f"  excluded as abated, 71(a)(5)(e): {', '.join(result.excluded_streams)}")
    lines.extend(_clawback_lines(result.table_rows("clawback_schedule")))
    if result.clawback_note:
        lines.append(f"  clawback: {result.clawback_note}")
    for row in result.table_rows("checks"):
        lines.append(f"  [{'pass' if row.passed else 'FAIL'}] {row.id:<9} {row.message}")
    return "\n".join(lines)


def _has_indirect_jobs(result: Result) -> bool:
    """Whether the scenario has an employment multiplier above 1 (indirect and induced jobs)."""
    revenue = result.scenario.revenue
    if revenue is None:
        return False
    multipliers = result.scenario.multipliers or {}
    return max(revenue.employment_multiplier, float(multipliers.get("employment_multiplier") or 1.0)) > 1.0


def _clawback_lines(rows: list) -> list[str]:
    """A compact account of the clawback schedule: the amount at risk by years maintained."""
    at_risk = [row for row in rows if row.total > 0]
    if not at_risk:
        return []
    shown = ", ".join(f"{int(row.years_maintained)}: {money_exact(row.total)}" for row in rows)
    last = max(int(row.years_maintained) for row in at_risk)
    return [
        f"  clawback if the project stops after m years maintained (recapture + interest + extension repayment; "
        f"the recapture may be none ... all of the credits received, C.34:1B-341(a)(4)), "
        f"nothing after {last + 1} years:",
        f"    {shown}",
    ]
