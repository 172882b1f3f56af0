"""The sentence each s.71 check carries in a result: what was compared, with what, under which clause.

These functions only describe: each writes its sentence from the check's record
(:class:`~netbenefit.law.rules.decision.Decision`), as the rule made it in the pipeline, and from
the scenario's own words (its keys, its attestations); none calls a rule or reads a parameter.
"""

from __future__ import annotations

from ..labels import compared, money_exact, share, test_name
from ..law.rules.decision import Decision
from . import withholdings
from .scenario import Scenario


def jobs(count: float) -> str:
    return f"{count:,.0f}" if float(count).is_integer() else f"{count:,.2f}"


def _attested(value: bool | None, key: str, what: str, clause: str) -> str:
    if value is None:
        return f"Not given: {key} is missing, and nothing is presumed ({what}, {clause})."
    if value:
        return f"Attested: {what}, {clause}."
    return f"Not attested: {key} is false ({what}, {clause})."


def capital_investment_message(scenario: Scenario, decision: Decision) -> str:
    """The 71(a)(1) sentence, written from its record: the initial phase's capital investment
    against the minimum of 71(b)(1), each portion's rate, and a shortfall's treatment."""
    facts = decision.facts
    if facts["waived"]:
        return (
            "Small business: no minimum capital investment, 71(b)(1)(e), as it has demonstrated its intent to "
            "remain in the State for the commitment period."
        )
    investment, minimum = decision.comparisons[0].value, decision.comparisons[0].limit
    parts = [
        f"{jobs(area)} sq ft {use} {work.replace('_', ' ')} x ${rate}, {clause}"
        for area, use, work, rate, clause in facts["portions"]
    ]
    text = (
        f"Capital investment of the initial phase {money_exact(investment)} vs minimum {money_exact(minimum)} "
        f"({'; '.join(parts)})."
    )
    if facts["small_business"]:
        text = (
            "Small business without business.intent_to_remain_demonstrated: true, so the minimum applies, "
            f"71(b)(1)(e). {text}"
        )
    if not facts["shortfall_is_donation"] and not decision.comparisons[0].holds:
        return (
            text + " Shortfall: read as a condition of eligibility (readings.capital_shortfall: ineligible), not met."
        )
    if facts["donation"] > 0:
        text += (
            f" Shortfall: the business shall donate the uninvested balance of {money_exact(facts['donation'])} to "
            "the infrastructure fund, 71(b)(2); eligibility stands with that obligation."
        )
    else:
        text += " Met."
    return text


def jobs_message(scenario: Scenario, clause: str | None, decision: Decision) -> str:
    """The 71(a)(2) sentence, written from its record: its first comparison is the count of new
    jobs the rule compared (the ramp's jobs within the eligibility period) against the minimum of
    71(c)(1)(a), (b) or (c) it applied; the retained-job minimums of (d), (e) and (f) are its facts."""
    facts = decision.facts
    new_jobs = decision.comparisons[0]
    new, minimum, retained = new_jobs.value, new_jobs.limit, facts["retained"]
    if new_jobs.clause == "71(c)(1)(a)":
        base = (
            f"Small business: {jobs(new)} new full-time jobs vs {share(facts['growth_share'], finest=4)} of a "
            f"workforce of {jobs(facts['workforce'])} = {jobs(minimum)}, 71(c)(1)(a)"
        )
    elif new_jobs.clause == "71(c)(1)(b)":
        base = f"Targeted industry: {jobs(new)} new full-time jobs vs {jobs(minimum)}, 71(c)(1)(b)"
    else:
        base = f"{jobs(new)} new full-time jobs vs {jobs(minimum)}, 71(c)(1)(c)"
    retained_minimum, minimum_e, minimum_f = (jobs(facts[f"retained_minimum_{letter}"]) for letter in ("d", "e", "f"))
    if new < scenario.jobs.new:
        stated = jobs(scenario.jobs.new)
        base += f" (the ramp puts {jobs(new)} of the {stated} stated in place within the eligibility period)"
    if clause == "71(c)(1)(d)":
        return (
            f"{base}; and {jobs(retained)} retained full-time jobs >= {retained_minimum}, so they count too, "
            "71(c)(1)(d)."
        )
    if clause == "71(c)(1)(e)":
        return (
            f"{base}. Eligible on {jobs(retained)} retained full-time jobs (>= {minimum_e} in a qualified incentive "
            "tract, enhanced area or government-restricted municipality), 71(c)(1)(e); the minimum is all its "
            f"retained jobs at application{_at_application(scenario)}."
        )
    if clause == "71(c)(1)(f)":
        return (
            f"{base}. Eligible on {jobs(retained)} retained full-time jobs (>= {minimum_f} anywhere in the State), "
            f"71(c)(1)(f); the minimum is all its retained jobs at application{_at_application(scenario)}."
        )
    if clause is not None:
        retained_note = (
            f"; {jobs(retained)} retained full-time jobs are below the {retained_minimum} of 71(c)(1)(d), "
            "so they do not count"
            if retained > 0 and clause != "71(c)(1)(a)"
            else ""
        )
        return f"{base}: met{retained_note}."
    return (
        f"{base}: not met; {jobs(retained)} retained full-time jobs do not reach the {minimum_e} of 71(c)(1)(e) "
        f"(in an incentive location) or the {minimum_f} of 71(c)(1)(f)."
    )


def _at_application(scenario: Scenario) -> str:
    at_application = scenario.business.retained_jobs_at_application
    if at_application is None:
        return " (business.retained_jobs_at_application not given: taken as jobs.retained)"
    return f" ({jobs(at_application)}, met)"


def net_benefit_message(scenario: Scenario, decision, clause: str, extension_note: str) -> str:
    """The 71(a)(5) sentence, written from its record: the test that decides (the lowest ratio of
    the cumulative tests, which share one threshold) first, then the others."""
    decided = decision.decided_by
    text = f"PV of net benefits / PV of requested credits = {compared(decided)} ({clause})"
    tests = decision.comparisons
    if len(tests) > 1:
        text += f" in the test that decides, {test_name(decided.what)} (the lowest ratio); " + "; ".join(
            f"{test_name(test.what)}: {compared(test)}" for i, test in enumerate(tests) if i != decision.deciding
        )
        text += ";"
    text += f" at a {share(scenario.discount_rate, finest=4)} discount rate, {scenario.timing.replace('_', ' ')}."
    if clause == "71(a)(5)(f)":
        text += " The threshold is the scenario's override under 71(a)(5)(f), not the statutory one."
    failed = [k + 1 for k, test in enumerate(tests) if not test.holds] if len(tests) > 1 else []
    if failed:
        text += f" Cumulative test failed through phase {', '.join(str(k) for k in failed)}."
    if extension_note:
        text += " " + extension_note
    return text


def max_credit_note(decision: Decision) -> str:
    """Why the requested credits scaled alike until every test passes are 0, from the 71(a)(5)
    record: the deciding test's net benefits are not positive, so no scaling of the credits passes
    it ("" where the figure is above 0)."""
    decided = decision.decided_by
    if decided.value > 0:
        return ""
    whose = f"the test of {test_name(decided.what)}" if len(decision.comparisons) > 1 else "the project"
    return (
        f"the PV of net benefits of {whose} is not positive, so no scaling of the requested credits passes "
        "the test"
    )


def extension_note(scenario: Scenario, decision: Decision, incremental: float) -> str:
    """What an elected extended commitment did in the 71(a)(5) test, from its record: counted (the
    400 percent test, 71(a)(5)(d)) or not ((a) and (b) count through the commitment period only),
    and its incremental credit."""
    years = scenario.commitment.extended_years
    if years == 0:
        return ""
    facts = decision.facts
    if not decision.passed and facts["extension_counts"]:
        return (
            f"Counts a {years}-year extended commitment, 71(a)(5)(d), and fails even with it: no award, so its "
            "incremental credit and any repayment are 0."
        )
    if not facts["extension_counts"]:
        return (
            f"The elected {years}-year extended commitment is not counted: {facts['statutory_clause']} bases this "
            "test on the benefits through the end of the commitment period only; its incremental credit is 0."
        )
    if incremental > 0:
        return (
            f"Counts a {years}-year extended commitment, 71(a)(5)(d); incremental credit {money_exact(incremental)}, "
            "repaid in proportion to the extended years not maintained."
        )
    return (
        f"Counts a {years}-year extended commitment, 71(a)(5)(d); the project passes without it, so nothing is "
        "repaid if it is not maintained."
    )


def prevailing_wage_message(scenario: Scenario, decision: Decision) -> str:
    """The 71(a)(8) sentence, from its record (the exemptions of (a)(i)-(iii) and (b)) and the
    scenario's attestations."""
    wage = scenario.attestations.prevailing_wage
    if wage is None:
        return "Not given: attestations.prevailing_wage is missing, and nothing is presumed, 71(a)(8)."
    facts = decision.facts
    exempt, construction_exempt = facts["exempt"], facts["construction_exempt"]
    if exempt and decision.passed:
        lease, maximum = facts["lease_share"], facts["lease_share_maximum"]
        return (
            "Exempt, 71(a)(8)(a)(i)-(iii): the landlord is not assisted, is a party to the contract, and the "
            f"lease is {share(lease, finest=4)} (< {share(maximum, finest=4)}) of the entire facility."
        )
    if decision.passed:
        construction = (
            f"construction commences {facts['years_after']:g} years after the first certificate of compliance (> "
            f"{facts['years_after_minimum']}), 71(a)(8)(b)"
            if construction_exempt and not wage.construction
            else "construction workers are paid prevailing wage"
        )
        return f"Building-services workers are paid prevailing wage and {construction}, 71(a)(8)."
    missing = []
    if not wage.building_services:
        missing.append(
            "building-services workers are not attested paid prevailing wage"
            if wage.building_services is not None
            else "attestations.prevailing_wage.building_services is not given"
        )
    if not (wage.construction or construction_exempt):
        missing.append(
            "construction workers are not attested paid prevailing wage and no 71(a)(8)(b) exemption applies"
            if wage.construction is not None
            else "attestations.prevailing_wage.construction is not given"
        )
    return "Not met, 71(a)(8): " + "; ".join(missing) + "; the 71(a)(8)(a)(i)-(iii) exemption does not apply."


def accommodation_message(scenario: Scenario, decision) -> str:
    """The 71(d) sentence, written from its record (the shares the rule compared)."""
    *accommodation, withholding = decision.comparisons
    first = (
        f"the facility accommodates {share(accommodation[0].value, finest=4)} of new and retained full-time "
        f"employees (must be more than {share(accommodation[0].limit, finest=4)})"
    )
    second = (
        f"{share(withholding.value, finest=4)} of their withholdings are subject to the NJ Gross Income Tax "
        f"(must be at least {share(withholding.limit, finest=4)})"
    )
    if scenario.phases:
        added = [f"{c.what.replace(' premises', '')} {share(c.value, finest=4)}" for c in accommodation[1:]]
        first += f"; premises added: {', '.join(added)}" if added else ""
        second = (
            f"{share(withholding.value, finest=4)} of the withholdings of the jobs of all phases (each phase's share "
            f"weighted by {withholdings.BASIS_WORDS[withholdings.withholding_basis(scenario)]}) are subject to the NJ "
            f"Gross Income Tax (must be at least {share(withholding.limit, finest=4)})"
        )
    return f"{'Met' if decision.passed else 'Not met'}, 71(d): {first}; {second}."


def commitment_period_warnings(scenario: Scenario, decision: Decision) -> tuple[str, ...]:
    """One line for each commitment period other than 1.5 x the eligibility period that the scenario
    does not say the authority set (section 69 definition of "commitment period", as stated by the
    authority: 1.5 times the eligibility period), from the windows of the 71(a)(5) record. Such a
    period counts in no test: the defined one decides, the 400 percent test included
    (:mod:`netbenefit.model.commitment_window`); a longer window is an elected extension,
    ``commitment.extended_years``, 71(a)(5)(d)."""
    facts = decision.facts
    lines = []
    for window in facts["windows"]:
        key, period, defined = window["key"], window["stated"], window["defined"]
        if period is not None and window["differs"] and not window["set_by_authority"]:
            counted = (
                f"the {facts['statutory_clause']} test counts benefits through the defined "
                f"{defined:g} years (ratio_as_given: through {period:g}). Where an extension is meant, elect it "
                "with commitment.extended_years (71(a)(5)(d): its incremental credit is repaid if the project is "
                "not maintained). Set "
                if facts["defined_window_decides"]
                else "the test counts benefits through it (readings.stated_commitment_period: "
                "counts_in_400_percent_test). Set "
            )
            lines.append(
                f"{key}.period_years {period:g} is not 1.5 x the eligibility period ({defined:g}), the commitment "
                "period of the section 69 definition; "
                + counted
                + f"{key}.period_set_by_authority: true if the authority set it."
            )
    return tuple(lines)


def application_date_message(decision: Decision) -> str:
    """The 71(f) sentence, from its record."""
    facts = decision.facts
    verdict = "within" if decision.passed else "outside"
    return (
        f"Application date {facts['application_date'].isoformat()} is {verdict} the application period: on or "
        f"after {facts['start'].isoformat()} and prior to {facts['deadline'].isoformat()}, 71(f)."
    )


def location_message(scenario: Scenario) -> str:
    if scenario.location.qualified_incentive_area:
        return "Located in a qualified incentive area, 71(a)(3)."
    return "Not located in a qualified incentive area: location.qualified_incentive_area is not true, 71(a)(3)."


def attestation_messages(scenario: Scenario) -> dict[str, str]:
    attestations = scenario.attestations
    return {
        "71(a)(4)": _attested(
            attestations.material_factor,
            "attestations.material_factor",
            "the award is a material factor in the decision to create or retain the jobs",
            "71(a)(4)",
        ),
        "71(a)(6)": _attested(
            attestations.environmental_standards,
            "attestations.environmental_standards",
            "the facility complies with minimum environmental and sustainability standards",
            "71(a)(6)",
        ),
        "71(a)(7)": _attested(
            attestations.affirmative_action,
            "attestations.affirmative_action",
            "the project complies with the authority's affirmative action requirements",
            "71(a)(7)",
        ),
    }


def clawback_note(eligible: bool) -> str:
    """Why a clawback schedule is empty: a project that is not eligible has no award to recapture."""
    if eligible:
        return ""
    return "none: the project is not eligible, so no tax credits are awarded and none can be recaptured"


def section_75_lines(decision: Decision) -> tuple[str, str]:
    """The message of check ``75`` and a warning ("" when none), written from its record: each
    phase's credit per job per year against the section 75 maximum with the bonuses that apply, and
    the maximum's grade."""
    phased = len(decision.comparisons) > 1
    parts, above = [], []
    for comparison, grade in zip(decision.comparisons, decision.facts["grades"], strict=True):
        name = f"{comparison.what}: " if phased else ""
        parts.append(
            f"{name}${comparison.value:,.0f} per credit-eligible job per year, maximum ${comparison.limit:,.0f} "
            f"[{grade}]"
        )
        if not comparison.holds:
            above.append((name, comparison.value, comparison.limit, grade))
    if not above:
        return f"Met, 75: {'; '.join(parts)} (section 75, C.34:1B-343).", ""
    statute = any(grade == "statute" for *_, grade in above)
    name, per_job, maximum, grade = above[0]
    if statute:
        return f"Not met, 75: {'; '.join(parts)}: above the section 75 maximum (C.34:1B-343).", ""
    warning = (
        f"{name}the credit per job per year ${per_job:,.0f} is above the section 75 maximum ${maximum:,.0f} with "
        f"the bonuses that apply; the maximum is graded {grade} (not read in the statute's words), so check 75 "
        "warns and does not decide eligibility (C.34:1B-343)"
    )
    return f"Warning, 75: {'; '.join(parts)}: above the maximum, graded {grade}, not statute.", warning
