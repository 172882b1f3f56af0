"""The model of a cash-flow sheet as formulas of the named input cells: jobs, wages, construction,
the streams of the revenue drivers, the streams given by year, the credits, the benefit windows
and the threshold (:mod:`netbenefit.views.workbook`).

Each function returns the text of one formula (without ``=``) for one row, from the names of the
Inputs sheet (:class:`~netbenefit.views.workbook.cells.ScenarioCells`) and the letters of the row's
columns. The arithmetic is that of :mod:`netbenefit.model.cashflows` (phases.py, streams.py, steps.py),
step by step; a figure no formula here computes (the Gross Income Tax on the brackets, the
section 75 calculator, the Corporation Business Tax of an allocated income, the job minimum of
71(c)) stays the value netbenefit computed, and its header or label says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...law.parameters import parameter
from ...law.taxes import (
    FILING_STATUSES,
    QUALIFYING_CHILDREN,
    federal_earned_income_credit_schedule,
    personal_exemption,
    schedule,
)
from ...model.commitment_window import DEFINED_PERIOD
from ...model.methods import earned_income_credit_netted
from .cells import ScenarioCells

if TYPE_CHECKING:
    from ...model.result import Result

#: Said of a figure that is netbenefit's value, not a formula of the input cells.
NOT_RECOMPUTED = "as evaluated by netbenefit, not recomputed"


def _number(value: float) -> str:
    return repr(float(value))


@dataclass
class PhaseRefs:
    """How the formulas of one phase read its inputs: the names of its keys, its phase year."""

    cells: ScenarioCells
    prefix: str  # "" or "phases.i."

    def name(self, key: str, default: str = "0") -> str:
        """The name of the phase's input ``key`` (``jobs.new`` -> ``phases_0_jobs_new``)."""
        return self.cells.names.get(self.prefix + key, default)

    def top(self, key: str, default: str = "0") -> str:
        """The name of a scenario-wide input (``revenue...``, ``inflation``)."""
        return self.cells.names.get(key, default)

    def phase_year(self, r: int) -> str:
        """The phase year of row ``r`` (project year less the phase's start)."""
        if not self.prefix:
            return f"A{r}"
        return f"(A{r}-{self.name('start_year')})"

    def by_year(self, list_key: str, r: int) -> str:
        """The value of a list by year in row ``r``'s phase year (0 before the phase)."""
        row, year = self.cells.by_year[self.prefix + list_key], self.phase_year(r)
        return f"IF({year}>=0,INDEX({row},{year}+1),0)"


def flag(name: str) -> str:
    """A boolean input cell as a condition: an empty cell (a fact not given) is false."""
    return f"({name}=TRUE)"


# -- jobs and wages (phases.py: full_time_jobs, wages_of) ------------------------------------------


def new_jobs(p: PhaseRefs, r: int) -> str:
    """jobs.new x the ramp's share of the phase year (the last held), from phase year 1."""
    ramp, year = p.cells.by_year[p.prefix + "jobs.ramp"], p.phase_year(r)
    return f"IF({year}>=1,{p.name('jobs.new')}*INDEX({ramp},MIN({year},COLUMNS({ramp}))),0)"


def retained_jobs(p: PhaseRefs, r: int, counted: str | None) -> str:
    """jobs.retained from phase year 1; ``counted``: the cell saying whether 71(c) counts them
    (readings.retained_benefits: credit_eligible_only), None where every retained job counts."""
    factor = f"*IF({counted},1,0)" if counted else ""
    return f"IF({p.phase_year(r)}>=1,{p.name('jobs.retained')}{factor},0)"


def median_salary(p: PhaseRefs, r: int) -> str:
    """jobs.median_salary grown by jobs.salary_growth from phase year 1."""
    growth = f"POWER(1+{p.name('jobs.salary_growth')},MAX({p.phase_year(r)},1)-1)"
    return f"{p.name('jobs.median_salary')}*{growth}"


def wages(result: Result, p: PhaseRefs, jobs: str, salary: str) -> str:
    """Jobs x the median salary, or x the mean of the lognormal wages (brackets, readings.payroll: mean)."""
    income_tax = result.scenario.revenue.income_tax if result.scenario.revenue else None
    if getattr(income_tax, "method", None) == "brackets" and result.scenario.readings.payroll == "mean":
        sigma = p.top("revenue.income_tax.wage_dispersion")
        return f"{jobs}*({salary}*EXP(0.5*{sigma}*{sigma}))"
    return f"{jobs}*{salary}"


# -- the streams of the revenue drivers (streams.py: driver_components) ----------------------------


def progressive_tax(salary: str) -> str:
    """The single-filer schedule of N.J.S.A. 54A:2-1 at ``salary`` (the v1 ``income_tax: progressive``):
    the sum of the ramps ``(rate_k - rate_k-1) x MAX(salary - lower_k, 0)``."""
    lower, rates = schedule("single")
    terms, previous = [], 0.0
    for threshold, rate in zip(lower, rates, strict=True):
        terms.append(f"{_number(rate - previous)}*MAX({salary}-{_number(threshold)},0)")
        previous = rate
    return "(" + "+".join(terms) + ")"


def income_tax(result: Result, p: PhaseRefs, jobs: str, wages_cell: str, salary: str) -> str | None:
    """The Gross Income Tax of the operations, direct; None where it is the brackets on the
    lognormal wages (not a formula here: netbenefit's value)."""
    income_tax_input = result.scenario.revenue.income_tax
    withholding = p.name("jobs.nj_withholding_share")
    if income_tax_input == "progressive":
        return f"{jobs}*{progressive_tax(salary)}*{withholding}"
    if income_tax_input is not None and income_tax_input.method == "brackets":
        return None  # the helper columns' formula (bracket_income_tax)
    if income_tax_input is not None:
        return f"{wages_cell}*({p.top('revenue.income_tax.rate')}*{withholding})"
    return f"{wages_cell}*({p.top('revenue.income_tax_effective_rate')}*{withholding})"


def driver_stream(result: Result, p: PhaseRefs, name: str, r: int, at: dict[str, str]) -> str | None:
    """A direct stream of the revenue drivers in row ``r`` (``at``: letters of the row's jobs,
    wages, salary, capital and construction-wage columns); None where no formula computes it."""
    sales_rate = p.top("revenue.sales_and_use_tax_rate")
    spending = p.top("revenue.taxable_spending_share")
    jobs, wage, salary = f"{at['jobs']}{r}", f"{at['wages']}{r}", f"{at['salary']}{r}"
    capital, construction = f"{at['capital']}{r}", f"{at['construction_wages']}{r}"
    if name == "income_tax":
        if "index" in at:  # the brackets, from the helper columns
            return bracket_income_tax(result, p, r, at)
        return income_tax(result, p, jobs, wage, salary)
    if name == "spending_sales_tax":
        return f"{wage}*({spending}*{sales_rate})"
    if name == "construction_income_tax":
        return f"{construction}*{p.top('revenue.construction_income_tax_rate')}"
    if name == "construction_spending_sales_tax":
        return f"{construction}*{spending}*{sales_rate}"
    if name == "construction_sales_tax":
        return f"{capital}*{p.top('revenue.construction_taxable_share')}*{sales_rate}"
    if name == "corporation_business_tax":
        if result.scenario.revenue.allocated_taxable_net_income is not None:
            return None  # the CBT schedule by tax year: netbenefit's value
        growth = f"POWER(1+{p.top('inflation')},A{r}-1)"
        return f"IF({jobs}>0,{p.top('revenue.corporate_business_tax')}*{growth},0)"
    return None


def indirect(p: PhaseRefs, source: str, direct_cell: str) -> str:
    """The indirect and induced part: (the multiplier - 1) x the direct amount."""
    multiplier = "construction_earnings_multiplier" if source == "construction" else "earnings_multiplier"
    return f"{direct_cell}*({p.top('revenue.' + multiplier)}-1)"


def explicit_stream(p: PhaseRefs, j: int, r: int, cost: bool) -> str:
    """A stream given by year (streams.j.by_year), grown with inflation from year 1 where marked."""
    grows = flag(p.name(f"streams.{j}.grows_with_inflation", "FALSE"))
    growth = f"IF({grows},POWER(1+{p.top('inflation')},A{r}-1),1)"
    return f"{'-' if cost else ''}{p.by_year(f'streams.{j}.by_year', r)}*{growth}"


# -- credits and windows (phases.py: tax_credits, benefit_window; steps.py) ------------------------


def credits(result: Result, p: PhaseRefs, award, r: int, retained_eligible: str, per_job=None) -> str | None:
    """The annual credit in each year of the eligibility period: the annual credit given, or the
    credit per new and retained job (given, or ``per_job``: the cells of the section 75 calculator)
    times the jobs, the retained part where 71(c) makes them eligible."""
    first, years = p.name("award.first_credit_year"), p.name("award.eligibility_period_years")
    year = p.phase_year(r)
    if award.annual_credit is not None:
        annual = p.name("award.annual_credit")
    else:
        per_new, per_retained = per_job or (p.name("award.per_new_job"), p.name("award.per_retained_job"))
        retained = f"IF({retained_eligible},{per_retained}*{p.name('jobs.retained')},0)"
        annual = f"({per_new}*{p.name('jobs.new')}+{retained})"
    return f"IF(AND({year}>={first},{year}<{first}+{years}),{annual},0)"


def statutory_threshold(cells: ScenarioCells, several_locations: str) -> str:
    """71(a)(5): 200% for a government-restricted municipality or a mega project, (b); 300% in a
    distressed municipality or an enhanced area, (a); else 400%; the lowest where several apply
    (readings.several_locations: highest takes the 300% over the 200%)."""

    def fact(key: str) -> str:
        return flag(cells.names.get(f"location.{key}", "FALSE"))

    restricted = f"OR({fact('government_restricted_municipality')},{fact('mega_project')})"
    distressed = f"OR({fact('distressed_municipality')},{fact('enhanced_area')})"
    if several_locations == "highest":
        restricted = f"AND({restricted},NOT({distressed}))"
    low = _number(parameter("net_benefit_threshold_restricted_or_mega"))
    middle = _number(parameter("net_benefit_threshold_distressed_or_enhanced"))
    default = _number(parameter("net_benefit_threshold_default"))
    return f"IF({restricted},{low},IF({distressed},{middle},{default}))"


def is_default_test(statutory: str) -> str:
    """Whether the statutory test is the 400 percent one of 71(a)(5) (its threshold differs from the others')."""
    return f"({statutory}={_number(parameter('net_benefit_threshold_default'))})"


def threshold(cells: ScenarioCells, statutory: str) -> str:
    """The scenario's threshold_override, 71(a)(5)(f), where given; else the statutory threshold."""
    override = cells.names.get("threshold_override")
    if override is None:
        return statutory
    return f"IF(ISNUMBER({override}),{override},{statutory})"


def commitment_period(p: PhaseRefs, statutory: str, reading: str = DEFINED_PERIOD) -> str:
    """The period given where it counts, else 1.5 x the eligibility period
    (commitment_window.window_period): where the authority set it; in the earlier reading
    (``readings.stated_commitment_period: counts_in_400_percent_test``) in the 400 percent test too."""
    given = p.name("commitment.period_years")
    multiple = _number(parameter("commitment_period_multiple_of_eligibility_period"))
    defined = f"{multiple}*{p.name('award.eligibility_period_years')}"
    authority = flag(p.name("commitment.period_set_by_authority", "FALSE"))
    counts = authority if reading == DEFINED_PERIOD else f"OR({authority},{is_default_test(statutory)})"
    return f"IF(ISNUMBER({given}),IF({counts},{given},{defined}),{defined})"


def counted_extension(cells: ScenarioCells, statutory: str) -> str:
    """The extended commitment counted, 71(a)(5)(d): only under the 400 percent test."""
    return f"IF({is_default_test(statutory)},{cells.names.get('commitment.extended_years', '0')},0)"


# -- the Gross Income Tax on the brackets, in closed form (taxes.py: expected_gross_income_tax) ----


def bracket_columns(result: Result) -> list[str]:
    """The helper columns of each phase for the Gross Income Tax on the brackets (none for another
    method): the index of the brackets, the median over it, the mean of that wage, then per filing
    status the deductions of a return and its expected tax, and, where netted, the expected federal
    earned income credit."""
    income_tax = result.scenario.revenue.income_tax if result.scenario.revenue else None
    if getattr(income_tax, "method", None) != "brackets":
        return []

    statuses = ["single"] if income_tax.filing_status is None else list(FILING_STATUSES)
    roles = ["index", "scaled_median", "scaled_mean"]
    roles += [f"{kind}_{status}" for status in statuses for kind in ("deduction", "tax")]
    if earned_income_credit_netted(result.scenario):
        roles += [f"credit_{status}" for status in statuses]
    return roles


BRACKET_HEADERS = {
    "index": ("Bracket index (inflation growth where revenue.index_brackets)", "0.000000"),
    "scaled_median": ("Median salary over the bracket index [USD]", "money"),
    "scaled_mean": ("Mean of the lognormal wage over the bracket index [USD]", "money"),
    "deduction_single": ("Exemptions and deductions of a single filer, over the index [USD]", "money"),
    "tax_single": ("Expected Gross Income Tax of a single filer, before the index [USD]", "money"),
    "deduction_married_joint": ("Exemptions and deductions of a joint return, over the index [USD]", "money"),
    "tax_married_joint": ("Expected Gross Income Tax of a joint return, before the index [USD]", "money"),
    "credit_single": ("Expected federal earned income credit, single filer, before the index [USD]", "money"),
    "credit_married_joint": ("Expected federal earned income credit, joint return, before the index [USD]", "money"),
}


def _ramp(median: str, mean: str, sigma: str, strike: str, positive: bool) -> str:
    """E[max(W - K, 0)] for W lognormal (median, sigma): ``m e^(s^2/2) N(d1) - K N(d2)``,
    ``d2 = ln(m / K) / s``, ``d1 = d2 + s``; ``max(m - K, 0)`` for s = 0. ``positive``: the strike
    K is above 0 for every valid input, else it is 0 (the ramp is then the wage itself)."""
    if not positive:
        return f"IF({sigma}>0,{mean},{median})-{strike}"
    d2 = f"LN({median}/{strike})/{sigma}"
    call = f"{mean}*NORMSDIST({d2}+{sigma})-{strike}*NORMSDIST({d2})"
    return f"IF({sigma}>0,IF({median}>0,{call},0),MAX({median}-{strike},0))"


def expected_schedule(median: str, mean: str, sigma: str, lower, rates, deduction: str | None) -> str:
    """The sum of the schedule's ramps at the strikes ``deduction + lower_k`` (a deduction cell is
    at least the personal exemption, above 0)."""
    terms, previous = [], 0.0
    for threshold, rate in zip(lower, rates, strict=True):
        if deduction is None:
            strike, positive = _number(threshold), threshold > 0
        else:
            strike, positive = (f"({deduction}+{_number(threshold)})" if threshold else deduction), True
        terms.append(f"{_number(rate - previous)}*{_ramp(median, mean, sigma, strike, positive)}")
        previous = rate
    return "+".join(terms)


def bracket_helper(result: Result, p: PhaseRefs, role: str, r: int, at: dict[str, str], sigma: str) -> str:
    """The formula of a helper column of :func:`bracket_columns` in row ``r`` (``sigma``: the cell
    of the wage dispersion)."""
    key = "revenue.income_tax."
    if role == "index":
        return f"IF({flag(p.top('revenue.index_brackets', 'FALSE'))},POWER(1+{p.top('inflation')},A{r}-1),1)"
    if role == "scaled_median":
        return f"{at['salary']}{r}/{at['index']}{r}"
    if role == "scaled_mean":
        return f"{at['scaled_median']}{r}*EXP(0.5*{sigma}*{sigma})"
    median, mean = f"{at['scaled_median']}{r}", f"{at['scaled_mean']}{r}"
    kind, status = role.split("_", 1)
    if kind == "deduction":  # the personal exemptions, and the other deductions over the index
        dependents = (
            f"{p.top(key + 'dependents_per_return')}*{_number(parameter('gross_income_tax_dependent_exemption'))}"
        )
        property_tax = (
            f"MIN({p.top(key + 'property_tax_deduction')},{_number(parameter('property_tax_deduction_maximum'))})"
        )
        return f"{_number(personal_exemption(status))}+({dependents}+{property_tax})/{at['index']}{r}"
    if kind == "tax":
        return expected_schedule(median, mean, sigma, *schedule(status), f"{at['deduction_' + status]}{r}")
    income_tax = result.scenario.revenue.income_tax
    terms = []
    for row in QUALIFYING_CHILDREN:
        if income_tax.qualifying_children is None:
            if row != "none":
                continue
            share = "1"
        else:
            share = p.top(f"{key}qualifying_children.{row}")
        lower, rates = federal_earned_income_credit_schedule(status, row)
        terms.append(f"{share}*({expected_schedule(median, mean, sigma, lower, rates, None)})")
    return "+".join(terms)


def bracket_income_tax(result: Result, p: PhaseRefs, r: int, at: dict[str, str]) -> str:
    """jobs x index x (sum over statuses of share x expected tax, less the NJ share of the federal
    earned income credit where netted) x the withholding share."""
    income_tax = result.scenario.revenue.income_tax
    roles = bracket_columns(result)
    statuses = [role[4:] for role in roles if role.startswith("tax_")]

    def share_of(status: str) -> str:
        if income_tax.filing_status is None:
            return "1"
        return p.top(f"revenue.income_tax.filing_status.{status}")

    tax = "+".join(f"{share_of(s)}*{at['tax_' + s]}{r}" for s in statuses)
    index = f"{at['index']}{r}"
    per_job = f"{index}*({tax})"
    if any(role.startswith("credit_") for role in roles):
        credit = "+".join(f"{share_of(s)}*{at['credit_' + s]}{r}" for s in statuses)
        per_job = f"{per_job}-{_number(parameter('nj_earned_income_tax_credit_share'))}*{index}*({credit})"
    return f"{at['jobs']}{r}*({per_job})*{p.name('jobs.nj_withholding_share')}"
