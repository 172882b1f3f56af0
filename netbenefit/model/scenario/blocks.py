"""The blocks of the v1 scenario format (docs/scenario-format.md): the business, its location,
the facility, jobs, award, commitment, revenue drivers, streams, attestations, readings and later
phases. The top level, :class:`~netbenefit.model.scenario.format.Scenario`, holds them."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, Strict, model_validator

from ...io.text_rule import Line
from ...law.parameters import parameter
from .fields import Block, ByYear, Count, Flag, Items, Money, Name, Share, YearCount, YearKey, empty_by_year
from .limits import MAX_YEARS

PortionUse = Literal["industrial", "warehousing", "logistics", "research_and_development", "other"]
PortionWork = Literal["rehabilitation", "new_construction"]


class Business(Block):
    small_business: Flag = False  # 71(b)(1)(e), 71(c)(1)(a)
    targeted_industry: Flag = False  # 71(c)(1)(b)
    full_time_employees_at_application: Count = 0.0  # W in 71(c)(1)(a)
    #: 71(b)(1)(e): the small-business waiver applies "provided the applicant has demonstrated ...
    #: its intent to remain in the State for the commitment period"; not given: not demonstrated.
    intent_to_remain_demonstrated: Flag | None = None
    #: 71(c)(1)(e)/(f): "a minimum of the business's retained full-time jobs at the time of
    #: application"; not given: taken as jobs.retained (docs/scenario-format.md).
    retained_jobs_at_application: Count | None = None
    naics: Annotated[str, Strict(), Field(pattern=r"^[0-9]{2,6}$")] | None = None  # row of revenue.multiplier_table


class Location(Block):
    qualified_incentive_area: Flag = False  # 71(a)(3)
    qualified_incentive_tract: Flag = False
    government_restricted_municipality: Flag = False
    distressed_municipality: Flag = False
    enhanced_area: Flag = False
    mega_project: Flag = False
    #: The region of the State, for the regional split of the Aspire and Emerge cap (secondary):
    #: read only by a portfolio asked for it (docs/portfolio.md).
    region: Literal["north", "south"] | None = None


class Portion(Block):
    """A portion of the premises, 71(b)(1). ``use`` is its use before and after the work."""

    use: PortionUse
    work: PortionWork
    gross_leasable_area_sqft: Count


class Facility(Block):
    portions: Annotated[tuple[Portion, ...], Field(min_length=1), Items]
    accommodates_share: Share  # 71(d)


class Jobs(Block):
    new: Count  # new full-time jobs at full ramp-up
    retained: Count = 0.0
    ramp: Annotated[tuple[Share, ...], Field(min_length=1), Items] = (1.0,)
    median_salary: Money | None = None  # [USD/year] in (phase) year 1
    salary_growth: Annotated[float, Strict(), Field(gt=-1)] = 0.0
    nj_withholding_share: Share  # 71(d)


class Bonus(Block):
    """A bonus of section 75 of P.L.2020, c.156, added to the base credit of every job."""

    name: Name
    per_job: Money  # [USD/job/year]


class Section75(Block):
    """Inputs of the section 75 award calculator (:mod:`netbenefit.award`).

    The base amount follows the project's location flags and the two flags below, which
    :class:`Location` does not hold.
    """

    qualified_opportunity_zone: Flag = False
    employment_and_investment_corridor: Flag = False
    bonuses: Annotated[tuple[Bonus, ...], Items] = ()
    labor_harmony: Flag = False  # jobs under a labor harmony agreement
    cap_per_job: Money | None = None  # [USD/job/year]; None: the cited parameter


class Award(Block):
    annual_credit: Money | None = None  # [USD/year]
    per_new_job: Money | None = None  # [USD/job/year]
    per_retained_job: Money | None = None
    section_75: Section75 | None = None  # the section 75 calculator gives the per-job amounts
    #: at most seven years: section 69 (C.34:1B-337) definition of "eligibility period", as the
    #: authority states it ("The maximum term is seven years") [secondary: s.69 not read].
    eligibility_period_years: Annotated[
        int, Strict(), Field(ge=1, le=parameter("eligibility_period_years_maximum"))
    ] = parameter("eligibility_period_years_default")
    first_credit_year: YearKey = 1


RecaptureRule = Literal["pro_rata", "pro_rata_award", "all", "none"]
#: A table of recaptured shares of the credits received, by whole years maintained.
def _not_empty_table(table: Mapping) -> Mapping:
    if not table:
        raise ValueError(
            "an empty table names no share to recapture; give pro_rata, all or none, or the shares "
            "recaptured by whole years maintained (e.g. {0: 1.0, 5: 0.5})"
        )
    return MappingProxyType(table)


RecaptureTable = Annotated[
    Mapping[Annotated[int, Strict(), Field(ge=0, le=MAX_YEARS)], Share], AfterValidator(_not_empty_table)
]


class RecaptureInterest(Block):
    """Simple annual interest on a recapture (netbenefit.rules.clawback.recapture_interest)."""

    rate: Share  # [1/year]


class Commitment(Block):
    period_years: Annotated[float, Strict(), Field(gt=0)] | None = None  # None: 1.5 x E
    #: True when the authority set a commitment period other than 1.5 x E (section 69 definition).
    period_set_by_authority: Flag = False
    extended_years: YearCount = 0  # 71(a)(5)(d)
    #: Credits recaptured for leaving within the commitment period (netbenefit.law.rules.clawback).
    recapture: RecaptureRule | RecaptureTable = "pro_rata"
    #: Interest on the recapture from the end of the year each credit was received (None: none).
    recapture_interest: RecaptureInterest | None = None
    #: Extended years maintained, 71(a)(5)(d): whole years (the default) or pro rata by fraction of a year.
    extension_years_counted: Literal["whole_years", "pro_rata"] = "whole_years"


class PhaseCommitment(Block):
    period_years: Annotated[float, Strict(), Field(gt=0)] | None = None
    period_set_by_authority: Flag = False


class PhaseFacility(Block):
    """Premises a later phase adds: tested for accommodation, 71(d)."""

    accommodates_share: Share


class Readings(Block):
    """Readings of the law that stay choices (docs/model.md#readings): the default and its alternative."""

    #: Several location flags at once: the lowest threshold and retained-jobs minimum (default) or the highest.
    several_locations: Literal["lowest", "highest"] = "lowest"
    #: A capital investment below the 71(b)(1) minimum: a donation under 71(b)(2) (default) or ineligibility.
    capital_shortfall: Literal["donation", "ineligible"] = "donation"
    #: Retained full-time jobs in the benefits, 71(a)(5) ("the resultant creation and retention of new
    #: and retained full-time jobs"): every retained job the scenario states (default, the authority's
    #: stated practice) or only those 71(c)(1)(d)-(f) makes eligible for credits (netbenefit before 0.2).
    retained_benefits: Literal["all_retained", "credit_eligible_only"] = "all_retained"
    #: The wages of a workforce with a wage dispersion sigma: the mean, median x exp(sigma^2/2), for
    #: every wage-based stream (default), or the median (netbenefit before 0.2, for the spending streams).
    payroll: Literal["mean", "median"] = "mean"
    #: 71(d) across phases: each phase's share weighted by its withholdings (default) or by its jobs.
    withholding_weights: Literal["withholdings", "jobs"] = "withholdings"
    #: N.J.A.C. 19:31U-1.14(b): the first annual report is compared with the new jobs the project
    #: agreement approves (default) or with the ramp's first year (the comparison before).
    first_report_basis: Literal["approved_jobs", "ramp"] = "approved_jobs"
    #: A commitment period the scenario states that the authority did not set: counts in no test
    #: (default; the defined 1.5 x E decides) or in the 400 percent test (the reading before 2026-12-06).
    stated_commitment_period: Literal["defined_period", "counts_in_400_percent_test"] = "defined_period"
    #: A recapture table (commitment.recapture) read in years from each phase's own commitment start
    #: (default, as pro_rata) or in years after approval for every phase (the reading before).
    recapture_table_years: Literal["phase", "approval"] = "phase"
    #: N.J.A.C. 19:31U-1.14(c), the 80 percent floor after approval: against the project agreement's
    #: approved figures at full ramp, every year and measure (default), or the ramp's projection of
    #: each year (the comparison before, with the first year's jobs read by ``first_report_basis``).
    floor_basis: Literal["agreement", "ramp"] = "agreement"
    #: 76(a)(2) for a phased project: the project's totals against the prior report (default), or
    #: each phase against its own agreement and first report.
    rerun_comparison: Literal["project", "each_phase"] = "project"
    #: C.34:1B-341(a)(4), a significant reduction of the jobs or salaries certified at the start of
    #: a phase's eligibility period: named in a warning (default), or ``pro_rata``: the share of the
    #: credits whose jobs or salaries were not kept recaptured [convention; provisional until 76(f) is read].
    reduction_recapture: Literal["none", "pro_rata"] = "none"


class FilingStatus(Block):
    """Shares of the jobs by filing status of the Gross Income Tax, N.J.S.A. 54A:2-1; they sum to 1."""

    single: Share = 0.0
    married_joint: Share = 0.0


class QualifyingChildren(Block):
    """Shares of the jobs' returns by qualifying children of the federal earned income credit,
    26 U.S.C. 32 (the rows of its table); they sum to 1."""

    none: Share = 0.0
    one: Share = 0.0
    two: Share = 0.0
    three_or_more: Share = 0.0


class IncomeTax(Block):
    """The Gross Income Tax on the jobs' wages (docs/scenario-format.md, "Benefit streams").

    ``brackets``: the published schedules on a lognormal distribution of wages whose median is
    ``jobs.median_salary`` and whose log standard deviation is ``wage_dispersion``, less the
    personal exemptions; ``effective_rate``: wages x ``rate``.
    """

    method: Literal["brackets", "effective_rate"]
    rate: Share | None = None  # effective_rate only
    filing_status: FilingStatus | None = None  # brackets only; None: every job a single filer
    wage_dispersion: Annotated[float, Strict(), Field(ge=0, le=3)] = 0.0  # brackets only
    #: Dependants per return, N.J.S.A. 54A:3-1(b)(2) (brackets only); 0: none, an omission that raises the tax.
    dependents_per_return: Annotated[float, Strict(), Field(ge=0, le=20)] = 0.0  # not a statutory number: a bound
    #: Property taxes (or 18% of the rent) deducted per return, N.J.S.A. 54A:3A-17, capped (brackets only). [USD]
    property_tax_deduction: Money = 0.0
    #: Net the New Jersey earned income tax credit, N.J.S.A. 54A:4-7, from the tax (brackets only);
    #: None: as the scenario's method says (netbenefit: no; authority: yes).
    earned_income_tax_credit: Flag | None = None
    #: Returns by qualifying children for the credit; None: every return without one (the smallest credit).
    qualifying_children: QualifyingChildren | None = None


class Revenue(Block):
    """Built-in revenue drivers (docs/scenario-format.md, "Benefit streams"). Rates and shares are decimals."""

    income_tax_effective_rate: Share | None = None
    income_tax: Literal["progressive"] | IncomeTax | None = None
    index_brackets: Flag = False  # brackets and exemptions grow with the scenario's inflation
    taxable_spending_share: Share = 0.0
    construction_taxable_share: Share = 0.0
    construction_labor_share: Share = 0.0
    construction_income_tax_rate: Share = 0.0
    earnings_multiplier: Annotated[float, Strict(), Field(ge=1)] = 1.0  # Type II, total / direct
    construction_earnings_multiplier: Annotated[float, Strict(), Field(ge=1)] | None = None  # None: earnings_
    employment_multiplier: Annotated[float, Strict(), Field(ge=1)] = 1.0  # total jobs / direct jobs
    multiplier_table: Line | None = None  # CSV, relative to the scenario file, row chosen by business.naics
    corporate_business_tax: Money = 0.0  # [USD/year] in year 1; grows with inflation
    allocated_taxable_net_income: Money | None = None  # [USD/year] in year 1; CBT by N.J.S.A. 54:10A-5
    sales_and_use_tax_rate: Share = parameter("sales_and_use_tax_rate")  # optional override


class Stream(Block):
    name: Name
    kind: Literal["revenue", "cost"]
    abated: Flag = False  # True: excluded under 71(a)(5)(e)
    tax: Literal["gross_income_tax", "sales_and_use_tax", "corporation_business_tax", "other"] = "other"
    grows_with_inflation: Flag = False  # True: the amounts are in year-1 dollars and grow with inflation
    by_year: ByYear = Field(default_factory=empty_by_year)
    from_csv: Line | None = None  # provenance; by_year holds the values read


class Exemption(Block):
    landlord_not_assisted: Flag | None = None  # 71(a)(8)(a)(i)
    landlord_party_to_contract: Flag | None = None  # 71(a)(8)(a)(ii)
    lease_share_of_facility: Share | None = None  # 71(a)(8)(a)(iii)


class PrevailingWage(Block):
    construction: Flag | None = None
    building_services: Flag | None = None
    exemption: Exemption | None = None
    construction_starts_years_after_first_certificate: Count | None = None  # 71(a)(8)(b)


class Attestations(Block):
    material_factor: Flag | None = None  # 71(a)(4)
    environmental_standards: Flag | None = None  # 71(a)(6)
    affirmative_action: Flag | None = None  # 71(a)(7)
    prevailing_wage: PrevailingWage | None = None  # 71(a)(8)


class Phase(Block):
    """A later phase of a phased project; its years count from ``start_year``.

    ``starts_in_year: 3`` says the same in plain language: the phase's first year is project year
    3, which is ``start_year: 2`` (phase year t is project year start_year + t). Give one of the
    two; the scenario keeps ``start_year`` (``to_yaml`` writes it).
    """

    name: Name
    start_year: YearCount
    capital_investment: ByYear = Field(default_factory=empty_by_year)
    jobs: Jobs
    award: Award
    commitment: PhaseCommitment = PhaseCommitment()
    facility: PhaseFacility | None = None  # premises added by the phase, 71(d)
    streams: Annotated[tuple[Stream, ...], Items] = ()

    @model_validator(mode="before")
    @classmethod
    def _starts_in_year(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or "starts_in_year" not in data:
            return data
        data = dict(data)
        year = data.pop("starts_in_year")
        if "start_year" in data:
            raise ValueError(
                "starts_in_year: give start_year or starts_in_year, not both (starts_in_year: N is start_year: N - 1)"
            )
        if isinstance(year, bool) or not isinstance(year, int) or not 1 <= year <= MAX_YEARS:
            # the phase's first year is one of the model's MAX_YEARS project years
            raise ValueError(f"starts_in_year: must be a whole number from 1 to {MAX_YEARS} (got {year!r})")
        data["start_year"] = year - 1
        return data
