"""The clawback step of :func:`netbenefit.model.after_approval.follow`, each phase on its own clock: the
recapture for leaving within the commitment period and its interest, the recapture on a
significant reduction (C.34:1B-341(a)(4), ``readings.reduction_recapture``), and the repayment of
the incremental credit of an extended commitment, 71(a)(5)(d), on the credits actually received.
The pure rules are :mod:`netbenefit.law.rules.clawback` and :mod:`netbenefit.law.rules.reduction`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...labels import year_list
from ...law import finance
from ...law.rules.clawback import extended_years_maintained, incremental_shares, phase_clawback, recapture_rule
from ...law.rules.reduction import reduction_recapture
from ..result import Result
from ..scenario import Scenario
from .annual_certification import Certification, Projection, phase_models


@dataclass(frozen=True)
class Clawback:
    """The clawback in the year the project stops (or, for a reduction alone, the year after the last
    report), on the credits actually certified."""

    years_maintained: int | None  # whole extended years maintained (initial phase); None without a stop or an extension
    repayment: float  # [USD] of the incremental credit, 71(a)(5)(d)
    recaptured: float  # [USD] within the commitment period
    interest: float  # [USD] on the recapture
    year: int | None  # the year after the project stopped (or after the last report), when anything is owed
    by_phase: pd.DataFrame | None = None  # one row per phase: its clock and what it owes
    reduction: float = 0.0  # [USD] recaptured on a reduction, C.34:1B-341(a)(4) (readings.reduction_recapture)


def incremental_share_by_phase(scenario: Scenario, projected: Result) -> np.ndarray:
    """The share of each phase's credits received on account of the extended commitment (as the
    result's clawback schedule reads it, :func:`netbenefit.law.rules.clawback.incremental_shares`)."""
    c = projected.computation
    if not (projected.extended_years and projected.extension_counted):
        return np.zeros(len(c.phases))
    return incremental_shares(
        np.cumsum([float(np.ravel(p.requested_credits)[0]) for p in c.phases]),
        np.ravel(c.cumulative_pv_credits[0]),
        np.cumsum([float(np.ravel(p.pv_benefits_without_extension)[0]) for p in c.phases]),
        projected.threshold,
        projected.incremental_credit,
    )


def received_by_year(plan: Projection, certified: Certification, stop: int | None) -> np.ndarray:
    """The credits each phase received by project year 1, 2, ... (phases, years): those certified in
    the reported years and, up to a stop after the last report, the approved ones [convention];
    nothing after the stop, nor after the last report while the project is maintained. [USD]"""
    reported = certified.certified_by_phase.shape[1]
    last = reported if stop is None else stop
    approved = plan.credits_from_year_1
    received = np.zeros((approved.shape[0], max(last, 1)))
    width = min(last, approved.shape[1])
    received[:, :width] = approved[:, :width]
    until = min(last, reported)
    received[:, :until] = certified.certified_by_phase[:, :until]
    return received[:, :last]


def clawback(
    scenario: Scenario,
    projected: Result,
    stop: int | None,
    certified: Certification,
    plan: Projection,
    unserved: np.ndarray | None = None,
) -> Clawback:
    """The clawback in the year the project stops (``stop``: the last project year maintained, for
    every phase), on the credits each phase actually received: recapture within the phase's
    commitment period and its interest (C.34:1B-341(a)(4)), and the repayment of the incremental
    credit of an extended commitment, 71(a)(5)(d), each phase on its own clock: years counted from
    the year before its own first credit year (:func:`netbenefit.law.rules.clawback.phase_clawback`).
    ``unserved``: each phase's years of its commitment left unserved by a significant reduction
    (:func:`netbenefit.model.after_approval.reduction.unserved_years`), recaptured pro rata under
    ``readings.reduction_recapture: pro_rata``, on the slice a stop's recapture applies to and
    never beyond what it left, in the year after the stop or the last report."""
    c = projected.computation
    extended = projected.extended_years if projected.extension_counted else 0
    shares = incremental_share_by_phase(scenario, projected)
    rate = scenario.commitment.recapture_interest.rate if scenario.commitment.recapture_interest else 0.0
    received = received_by_year(plan, certified, stop)
    reducing = unserved is not None and scenario.readings.reduction_recapture == "pro_rata"
    rows = []
    for k, model in enumerate(phase_models(scenario)):
        start = plan.start[k] + model.award.first_credit_year - 1
        period = float(np.ravel(c.phases[k].commitment_period_years)[0])
        row = {
            "phase": k + 1,
            "commitment_start": start,
            "commitment_period_years": period,
            "credits_received": float(received[k].sum()),
            "recapture": 0.0,
            "reduction_recapture": 0.0,
            "interest": 0.0,
            "extension_repayment": 0.0,
            "extended_years_maintained": None,
        }
        if stop is not None:
            owed = phase_clawback(
                received[k],
                [stop],
                start,
                period,
                float(shares[k]),
                extended,
                recapture_rule(scenario),
                scenario.commitment.extension_years_counted,
                rate,
                award_total=float(np.ravel(c.phases[k].requested_credits)[0]),
            )
            row.update(
                credits_received=float(owed["credits_received"][0]),
                recapture=float(owed["recapture"][0]),
                interest=float(owed["interest"][0]),
                extension_repayment=float(owed["extension_repayment"][0]),
            )
            if extended:
                kept = extended_years_maintained(
                    stop, start + period, extended, scenario.commitment.extension_years_counted
                )
                row["extended_years_maintained"] = int(np.floor(kept))
        if reducing and unserved[k] > 0:  # the slice a stop's recapture applies to: not the incremental one
            base = (1.0 - float(shares[k])) * row["credits_received"]
            row["reduction_recapture"] = float(reduction_recapture(base, unserved[k], period, row["recapture"]))
        rows.append(row)
    by_phase = pd.DataFrame(rows).set_index("phase")
    recaptured = float(by_phase["recapture"].sum())
    reduction = float(by_phase["reduction_recapture"].sum())
    interest = float(by_phase["interest"].sum())
    repayment = float(by_phase["extension_repayment"].sum())
    years_maintained = by_phase["extended_years_maintained"].iloc[0] if extended and stop is not None else None
    last = stop if stop is not None else certified.year.size
    owed_year = last + 1 if repayment > 0 or recaptured > 0 or reduction > 0 else None
    return Clawback(
        None if years_maintained is None else int(years_maintained),
        repayment,
        recaptured,
        interest,
        owed_year,
        by_phase,
        reduction,
    )


@dataclass(frozen=True)
class CreditsReceived:
    """The credits actually received, beside the approved ones: those received by year (certified in
    the reported years, approved up to a stop after the last report: :func:`received_by_year`) less
    the recapture (a stop's and a reduction's) and the repayment, and the ratio of the PV of the
    actual-results benefits (the re-run's, whole project) to their PV, each discounted in the year it
    falls. Not a statutory test: no threshold, no verdict. ``ratio`` is NaN where the credits are
    not all known (``note`` says why)."""

    received: float  # [USD] nominal, before the clawback
    net: float  # [USD] received less recapture (stop and reduction) and repayment
    pv: float  # [USD] the net's present value at approval
    ratio: float  # PV of the actual-results benefits / pv; NaN: see note
    note: str = ""


def credits_received(
    scenario: Scenario, plan: Projection, certified: Certification, owed: Clawback, stop: int | None, actual: Result
) -> CreditsReceived:
    """:class:`CreditsReceived` of a follow result (the scenario's discount rate and timing)."""
    by_year = received_by_year(plan, certified, stop).sum(axis=0)
    years = np.arange(1, by_year.size + 1)
    given_back = owed.recaptured + owed.reduction + owed.repayment
    factor = finance.discount_factors(scenario.discount_rate, np.append(years, owed.year or 0), scenario.timing)
    pv = float(by_year @ factor[:-1]) - (given_back * float(factor[-1]) if owed.year else 0.0)
    net = float(by_year.sum()) - given_back
    note = ""
    approved = plan.credits_from_year_1
    later = np.flatnonzero(approved[:, by_year.size :].sum(axis=0) > 0) + by_year.size + 1
    if stop is None and later.size:
        note = f"the credits of {year_list(later)} are not yet certified"
    elif pv <= 0:
        note = "every credit received was recaptured or repaid: no ratio on the credits received"
    ratio = float(actual.pv_benefits) / pv if not note else float("nan")
    return CreditsReceived(float(by_year.sum()), net, pv, ratio, note)


__all__ = [
    "Clawback",
    "CreditsReceived",
    "clawback",
    "credits_received",
    "incremental_share_by_phase",
    "received_by_year",
]
