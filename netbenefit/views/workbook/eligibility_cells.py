"""The rules of the award as formulas of the named input cells, written under a cash-flow sheet's
year table: the job minimum of 71(c)(1) (its clauses (a) to (f), whether the retained jobs count)
and the section 75 credit per job (:mod:`netbenefit.views.workbook`).

The arithmetic is that of :func:`netbenefit.law.rules.job_minimum.job_minimum_clause`,
:func:`netbenefit.model.cashflows.steps.jobs_created` and :func:`netbenefit.law.award.scenario_credit_per_job`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...labels import share
from ...law.parameters import parameter
from ...law.rules.eligibility import capital_investment_rate
from ...law.taxes import FILING_STATUSES, personal_exemption
from ...model.withholdings import withholding_basis
from .cells import column_letter, put, put_formula
from .drivers import PhaseRefs, expected_schedule, flag, progressive_tax, schedule
from .layout import JOBS_FORMAT, MONEY_FORMAT

if TYPE_CHECKING:
    from ...model.result import Result


def _number(name: str) -> str:
    return repr(float(parameter(name)))


def _max(terms: list[str]) -> str:
    """MAX of the terms, nested so that no MAX takes more than 200 arguments."""
    while len(terms) > 200:
        terms = [f"MAX({','.join(terms[k : k + 200])})" for k in range(0, len(terms), 200)]
    return f"MAX({','.join(terms)})"


def jobs_created(result: Result, ref: PhaseRefs) -> str:
    """jobs.new x the largest ramp share of the phase years through the last credit year, 71(c)."""
    ramp = ref.cells.by_year["jobs.ramp"]
    last = f"MAX({ref.name('award.first_credit_year')}+{ref.name('award.eligibility_period_years')}-1,1)"
    terms = [f"IF({t}<={last},INDEX({ramp},{t}),0)" for t in range(1, len(result.scenario.jobs.ramp) + 1)]
    return f"{ref.name('jobs.new')}*{_max(terms)}"


def job_minimum_rows(sheet, result: Result, ref: PhaseRefs, row: int, column: int) -> tuple[int, str, str]:
    """Rows from ``row``: the jobs created, the retained-job minimum of (d), whether each clause of
    71(c)(1) is met, whether any is (71(a)(2)) and whether the retained jobs count. Returns (the
    next free row, the absolute cell of "met", the absolute cell of "retained jobs eligible")."""
    letter = column_letter(column)
    name = ref.cells.names.get
    several = result.scenario.readings.several_locations

    def fact(key: str) -> str:
        return flag(name(key, "FALSE"))

    small, targeted = fact("business.small_business"), fact("business.targeted_industry")
    restricted, tract = fact("location.government_restricted_municipality"), fact("location.qualified_incentive_tract")
    enhanced = fact("location.enhanced_area")
    retained = name("jobs.retained", "0")
    workforce = name("business.full_time_employees_at_application", "0")
    at_application = name("business.retained_jobs_at_application")
    keeps = "TRUE" if at_application is None else f"IF(ISNUMBER({at_application}),{retained}>={at_application},TRUE)"
    tract_minimum = _number("retained_jobs_minimum_tract_or_enhanced_area")
    restricted_minimum = _number("retained_jobs_minimum_government_restricted_municipality")
    elsewhere = _number("retained_jobs_minimum_elsewhere")
    if several == "highest":
        minimum_d = f"IF(OR({tract},{enhanced}),{tract_minimum},IF({restricted},{restricted_minimum},{elsewhere}))"
    else:
        minimum_d = f"IF({restricted},{restricted_minimum},IF(OR({tract},{enhanced}),{tract_minimum},{elsewhere}))"
    cell = {}
    lines = [
        (
            "created",
            "New full-time jobs created within the eligibility period, 71(c) (jobs.new x the ramp)",
            jobs_created(result, ref),
            JOBS_FORMAT,
        ),
        ("minimum_d", "Retained jobs that make them eligible too, 71(c)(1)(d), by location", minimum_d, JOBS_FORMAT),
    ]
    r = row
    for key, label, formula, number_format in lines:
        put(sheet, r, 1, label).bold = True
        put_formula(sheet, r, column, "=" + formula, number_format)
        cell[key] = f"${letter}${r}"
        r += 1
    new = cell["created"]
    clauses = {
        "a": (
            "71(c)(1)(a): a small business adds 25% of its workforce in new jobs",
            f"AND({small},{workforce}>=1,{new}>={_number('small_business_new_job_growth_share')}*{workforce})",
        ),
        "b": (
            "71(c)(1)(b): a targeted industry, at least 25 new jobs",
            f"AND(NOT({small}),{targeted},{new}>={_number('targeted_industry_minimum_new_jobs')})",
        ),
        "c": (
            "71(c)(1)(c): any other business, at least 35 new jobs",
            f"AND(NOT({small}),NOT({targeted}),{new}>={_number('other_business_minimum_new_jobs')})",
        ),
    }
    for key, (label, formula) in clauses.items():
        put(sheet, r, 1, f"{label}: met").bold = True
        put_formula(sheet, r, column, "=" + formula)
        cell[key] = f"${letter}${r}"
        r += 1
    b, c = cell["b"], cell["c"]
    more = {
        "d": (
            "71(c)(1)(d): eligible under (b) or (c), retaining the minimum above",
            f"AND(OR({b},{c}),{retained}>={cell['minimum_d']})",
        ),
    }
    more["e"] = (
        "71(c)(1)(e): not under (b)-(d), in a tract, enhanced area or restricted municipality, retaining 500",
        f"AND(NOT(OR({b},{c},$D_CELL$)),OR({tract},{enhanced},{restricted}),"
        f"{retained}>={_number('retained_only_minimum_incentive_location')},{keeps})",
    )
    more["f"] = (
        "71(c)(1)(f): not under (b)-(e), anywhere in the State, retaining 1,000",
        f"AND(NOT(OR({b},{c},$D_CELL$,$E_CELL$)),{retained}>={_number('retained_only_minimum_statewide')},{keeps})",
    )
    for key, (label, formula) in more.items():
        formula = formula.replace("$D_CELL$", cell.get("d", "")).replace("$E_CELL$", cell.get("e", ""))
        put(sheet, r, 1, f"{label}: met").bold = True
        put_formula(sheet, r, column, "=" + formula)
        cell[key] = f"${letter}${r}"
        r += 1
    put(sheet, r, 1, "Job minimum met, 71(c)(1) (the check 71(a)(2))").bold = True
    put_formula(sheet, r, column, "=OR(" + ",".join(cell[k] for k in "abcdef") + ")")
    met = f"${letter}${r}"
    put(sheet, r + 1, 1, "Retained jobs eligible for credits, 71(c)(1)(d)-(f)").bold = True
    put_formula(sheet, r + 1, column, f"=OR({cell['d']},{cell['e']},{cell['f']})")
    return r + 2, met, f"${letter}${r + 1}"


def section_75_per_job(ref: PhaseRefs, award) -> tuple[str, str]:
    """(per new job, per retained job) of the section 75 calculator, as formulas: the highest base
    amount of 75(b) that applies, plus the bonuses, capped, plus the labor harmony addition; a
    retained job earns its share of the new job's amount."""
    key = "award.section_75."
    name = ref.cells.names.get

    def fact(full_key: str) -> str:
        return flag(name(full_key, "FALSE"))

    areas = [
        ("TRUE", "award_base_credit_other_eligible_area"),
        (
            f"OR({fact(ref.prefix + key + 'qualified_opportunity_zone')},"
            f"{fact(ref.prefix + key + 'employment_and_investment_corridor')})",
            "award_base_credit_opportunity_zone_or_corridor",
        ),
        (fact("location.distressed_municipality"), "award_base_credit_distressed_municipality"),
        (fact("location.enhanced_area"), "award_base_credit_enhanced_area"),
        (
            f"OR({fact('location.government_restricted_municipality')},{fact('location.mega_project')})",
            "award_base_credit_government_restricted_or_mega_project",
        ),
    ]
    base = "MAX(" + ",".join(f"IF({applies},{_number(parameter_name)},0)" for applies, parameter_name in areas) + ")"
    bonuses = "+".join(ref.name(f"{key}bonuses.{i}.per_job") for i in range(len(award.section_75.bonuses))) or "0"
    cap = ref.name(key + "cap_per_job")
    cap = f"IF(ISNUMBER({cap}),{cap},{_number('award_credit_cap_per_job')})"
    harmony = f"IF({fact(ref.prefix + key + 'labor_harmony')},{_number('award_labor_harmony_addition_per_job')},0)"
    new_job = f"MIN({base}+{bonuses},{cap})+{harmony}"
    return new_job, _number("award_retained_job_share_of_new_job")


SECTION_75_HEADERS = ("Credit per new job, section 75 [USD/job/year]", "Credit per retained job [USD/job/year]")


# -- the checks 71(a)(1) and 71(d) -----------------------------------------------------------------


def _row(sheet, r: int, column: int, label: str, formula: str, number_format: str | None = None) -> str:
    put(sheet, r, 1, label).bold = True
    put_formula(sheet, r, column, "=" + formula, number_format)
    return f"${column_letter(column)}${r}"


def capital_rows(sheet, result: Result, ref: PhaseRefs, row: int, column: int) -> tuple[int, str, str, str]:
    """71(b)(1) and 71(a)(1): the minimum capital investment (each portion's area x the rate of
    its use and work; waived for a small business that shows its intent to remain), the initial
    phase's capital investment, the shortfall, and whether 71(a)(1) is met (a shortfall donated to
    the infrastructure fund, 71(b)(2), meets it). Returns (next row, met, minimum, investment)."""
    name = ref.cells.names.get
    terms = []
    for i, portion in enumerate(result.scenario.facility.portions):
        rate, _ = capital_investment_rate(portion.use, portion.work)  # by the use and work given
        terms.append(f"{float(rate)!r}*{name(f'facility.portions.{i}.gross_leasable_area_sqft', '0')}")
    small, intent = name("business.small_business", "FALSE"), name("business.intent_to_remain_demonstrated", "FALSE")
    waived = f"AND({flag(small)},{flag(intent)})"
    minimum = _row(
        sheet,
        row,
        column,
        "Minimum capital investment, 71(b)(1): area x the rate of each portion's use and work (as evaluated)",
        f"IF({waived},0,{'+'.join(terms) or '0'})",
        MONEY_FORMAT,
    )
    investment = _row(
        sheet,
        row + 1,
        column,
        "Capital investment of the initial phase [USD]",
        f"SUM({ref.cells.by_year['capital_investment']})",
        MONEY_FORMAT,
    )
    shortfall = _row(sheet, row + 2, column, "Shortfall [USD]", f"MAX(0,{minimum}-{investment})", MONEY_FORMAT)
    donated = result.scenario.readings.capital_shortfall == "donation"
    met = _row(
        sheet,
        row + 3,
        column,
        "71(a)(1) met" + (" (a shortfall is donated to the infrastructure fund, 71(b)(2))" if donated else ""),
        "TRUE" if donated else f"NOT({shortfall}>0)",
    )
    return row + 4, met, minimum, investment


#: The columns of the benefit windows' table (under a cash-flow sheet) that hold each phase's
#: figures for 71(d) and for the horizon: (column, header).
PHASE_FACT_COLUMNS = {
    "needed": (9, "Last project year it needs (window end, last credit year)"),
    "weight": (10, "Withholding weight, 71(d) (tax at the median salary, wages or jobs)"),
    "share": (11, "NJ withholding share"),
    "premises": (12, "Its premises accommodate more than half of the jobs, 71(d) (TRUE: no premises of its own)"),
}


def withholding_rows(
    sheet, result: Result, refs: list[PhaseRefs], row: int, column: int, sigma: str, window_row: int
) -> tuple[int, str, str]:
    """71(d): every premises accommodates more than half of the jobs, and the NJ withholding share
    of all phases, weighted by their withholdings (netbenefit.model.withholdings), is at least 80%. Each
    phase's weight, share and premises test are cells of the windows' table from ``window_row``.
    Returns (next row, met, the weighted share)."""
    scenario = result.scenario
    basis = withholding_basis(scenario)
    minimum = float(parameter("accommodation_share_minimum"))
    for role in ("weight", "share", "premises"):
        put(sheet, window_row, PHASE_FACT_COLUMNS[role][0], PHASE_FACT_COLUMNS[role][1]).header = True
    facilities = [True] + [phase.facility is not None for phase in scenario.phases]
    for k, (ref, facility) in enumerate(zip(refs, facilities, strict=True)):
        jobs = f"({ref.name('jobs.new')}+{ref.name('jobs.retained')})"
        salary = ref.name("jobs.median_salary")
        if basis == "jobs":
            weight = jobs
        elif basis == "wages":
            weight = f"{jobs}*{salary}"
        elif scenario.revenue.income_tax == "progressive":
            weight = f"{jobs}*{progressive_tax(salary)}"
        else:  # the brackets' expected tax at the median, personal exemptions only
            income_tax = scenario.revenue.income_tax
            statuses = ["single"] if income_tax.filing_status is None else list(FILING_STATUSES)
            mean = f"{salary}*EXP(0.5*{sigma}*{sigma})"
            tax = "+".join(
                ("1" if income_tax.filing_status is None else ref.top(f"revenue.income_tax.filing_status.{status}"))
                + f"*({expected_schedule(salary, mean, sigma, *schedule(status), repr(personal_exemption(status)))})"
                for status in statuses
            )
            weight = f"{jobs}*({tax})"
        r = window_row + 1 + k
        put_formula(sheet, r, PHASE_FACT_COLUMNS["weight"][0], "=" + weight, MONEY_FORMAT)
        put_formula(sheet, r, PHASE_FACT_COLUMNS["share"][0], f"={ref.name('jobs.nj_withholding_share')}", "0.00%")
        premises = f"={ref.name('facility.accommodates_share')}>{minimum!r}" if facility else "=TRUE"
        put_formula(sheet, r, PHASE_FACT_COLUMNS["premises"][0], premises)

    def span(role: str) -> str:
        letter = column_letter(PHASE_FACT_COLUMNS[role][0])
        return f"${letter}${window_row + 1}:${letter}${window_row + len(refs)}"

    first_share = f"${column_letter(PHASE_FACT_COLUMNS['share'][0])}${window_row + 1}"
    weighted = (
        f"IF(SUM({span('weight')})>0,SUMPRODUCT({span('share')},{span('weight')})/SUM({span('weight')}),{first_share})"
    )
    nj_share = _row(
        sheet, row, column, "NJ withholding share of all phases, weighted by withholdings, 71(d)", weighted, "0.00%"
    )
    withholding = float(parameter("gross_income_tax_withholding_share_minimum"))
    met = _row(
        sheet,
        row + 1,
        column,
        f"71(d) met: every premises holds more than half of the jobs, and at least {share(withholding)} of the "
        "withholdings are NJ's",
        f"AND(AND({span('premises')}),{nj_share}>={withholding!r})",
    )
    return row + 2, met, nj_share


def needed_year(ref: PhaseRefs, w: int, year_rounding: float) -> str:
    """The last project year a phase needs (its window's end rounded up, its last credit year),
    from its row ``w`` of the windows' table."""
    credits_end = f"B{w}+C{w}+{ref.name('award.eligibility_period_years')}-1"
    return f"MAX(ROUNDUP(F{w}-{year_rounding!r},0),{credits_end})"
