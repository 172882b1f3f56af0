"""Scenario files: loading, validation and the typed, immutable scenario.

A scenario is one YAML file in the v1 format (docs/scenario-format.md). It is read with a
safe loader that also rejects duplicate keys, validated field by field, and returned as a frozen
:class:`Scenario`. Every problem raises :class:`~netbenefit.errors.ScenarioError`, whose one-line
message names the file, the dotted key path and the problem.
"""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import math
import re
import reprlib
import stat
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal, Union

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    Strict,
    ValidationError,
    model_validator,
)

from .errors import ScenarioError
from .named_files import MAX_FILE_BYTES, csv_number, read_named_file
from .parameters import parameter
from .text_rule import Line, Prose, no_control_characters, refused_character

# ----------------------------------------------------------------------------------------------
# Field types
# ----------------------------------------------------------------------------------------------

Money = Annotated[float, Strict(), Field(ge=0)]  # [USD, nominal]
Count = Annotated[float, Strict(), Field(ge=0)]  # full-time jobs, square feet
Share = Annotated[float, Strict(), Field(ge=0, le=1)]  # a decimal share, 0.3 not 30
Flag = Annotated[bool, Strict()]
Text = Annotated[str, Strict()]
#: The longest timeline the model runs, in years (cashflows.MAXIMUM_HORIZON_YEARS); whole-number
#: year keys and periods are bounded by it so that no value of a file overflows a float.
MAX_YEARS = 1000  # not a statutory number: a guard against runaway horizons
#: A YAML document whose aliases would expand to more nodes than this is refused ("billion laughs").
MAX_YAML_NODES = 200_000
#: ... or whose collections nest deeper than this (a v1 file needs 6 levels).
MAX_YAML_DEPTH = 50  # not a statutory number: a guard against stack exhaustion



def _sequence(value: Any) -> Any:
    """A list must be a list (a YAML sequence): a set has no order, a mapping is not a list."""
    if isinstance(value, set | frozenset):
        raise ValueError("must be a list (a YAML sequence of '- ' items), not a set: a set has no order")
    return value


#: A list of items (portions, ramp shares, streams, phases, bonuses): a YAML sequence, never a set.
Items = BeforeValidator(_sequence)
#: A name (of the scenario, a phase, a stream or a bonus): text of one character or more, printable.
Name = Annotated[str, Strict(), Field(min_length=1), AfterValidator(no_control_characters)]
YearKey = Annotated[int, Strict(), Field(ge=1, le=MAX_YEARS)]  # project (or phase) year, 1 = first year
YearCount = Annotated[int, Strict(), Field(ge=0, le=MAX_YEARS)]
#: A year of an amount: 0 is the approval year (emerge-model.md 2.1), 1 the first year after it.
AmountYear = Annotated[int, Strict(), Field(ge=0, le=MAX_YEARS)]
ByYear = Annotated[Mapping[AmountYear, Money], AfterValidator(MappingProxyType)]


def _empty_by_year() -> Mapping[int, float]:
    return MappingProxyType({})


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


# ----------------------------------------------------------------------------------------------
# The v1 scenario
# ----------------------------------------------------------------------------------------------

PortionUse = Literal["industrial", "warehousing", "logistics", "research_and_development", "other"]
PortionWork = Literal["rehabilitation", "new_construction"]


class Business(_Model):
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


class Location(_Model):
    qualified_incentive_area: Flag = False  # 71(a)(3)
    qualified_incentive_tract: Flag = False
    government_restricted_municipality: Flag = False
    distressed_municipality: Flag = False
    enhanced_area: Flag = False
    mega_project: Flag = False


class Portion(_Model):
    """A portion of the premises, 71(b)(1). ``use`` is its use before and after the work."""

    use: PortionUse
    work: PortionWork
    gross_leasable_area_sqft: Count


class Facility(_Model):
    portions: Annotated[tuple[Portion, ...], Field(min_length=1), Items]
    accommodates_share: Share  # 71(d)


class Jobs(_Model):
    new: Count  # new full-time jobs at full ramp-up
    retained: Count = 0.0
    ramp: Annotated[tuple[Share, ...], Field(min_length=1), Items] = (1.0,)
    median_salary: Money | None = None  # [USD/year] in (phase) year 1
    salary_growth: Annotated[float, Strict(), Field(gt=-1)] = 0.0
    nj_withholding_share: Share  # 71(d)


class Bonus(_Model):
    """A bonus of section 75 of P.L.2020, c.156, added to the base credit of every job."""

    name: Name
    per_job: Money  # [USD/job/year]


class Section75(_Model):
    """Inputs of the section 75 award calculator (:mod:`netbenefit.award`).

    The base amount follows the project's location flags and the two flags below, which
    :class:`Location` does not hold.
    """

    qualified_opportunity_zone: Flag = False
    employment_and_investment_corridor: Flag = False
    bonuses: Annotated[tuple[Bonus, ...], Items] = ()
    labor_harmony: Flag = False  # jobs under a labor harmony agreement
    cap_per_job: Money | None = None  # [USD/job/year]; None: the cited parameter


class Award(_Model):
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


class RecaptureInterest(_Model):
    """Simple annual interest on a recapture (netbenefit.rules.clawback.recapture_interest)."""

    rate: Share  # [1/year]


class Commitment(_Model):
    period_years: Annotated[float, Strict(), Field(gt=0)] | None = None  # None: 1.5 x E
    #: True when the authority set a commitment period other than 1.5 x E (section 69 definition).
    period_set_by_authority: Flag = False
    extended_years: YearCount = 0  # 71(a)(5)(d)
    #: Credits recaptured for leaving within the commitment period (netbenefit.rules.clawback).
    recapture: RecaptureRule | RecaptureTable = "pro_rata"
    #: Interest on the recapture from the end of the year each credit was received (None: none).
    recapture_interest: RecaptureInterest | None = None
    #: Extended years maintained, 71(a)(5)(d): whole years (the default) or pro rata by fraction of a year.
    extension_years_counted: Literal["whole_years", "pro_rata"] = "whole_years"


class PhaseCommitment(_Model):
    period_years: Annotated[float, Strict(), Field(gt=0)] | None = None
    period_set_by_authority: Flag = False


class PhaseFacility(_Model):
    """Premises a later phase adds: tested for accommodation, 71(d)."""

    accommodates_share: Share


class Readings(_Model):
    """Readings of the law that stay choices (docs/conventions.md): the default and its alternative."""

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


class FilingStatus(_Model):
    """Shares of the jobs by filing status of the Gross Income Tax, N.J.S.A. 54A:2-1; they sum to 1."""

    single: Share = 0.0
    married_joint: Share = 0.0


class QualifyingChildren(_Model):
    """Shares of the jobs' returns by qualifying children of the federal earned income credit,
    26 U.S.C. 32 (the rows of its table); they sum to 1."""

    none: Share = 0.0
    one: Share = 0.0
    two: Share = 0.0
    three_or_more: Share = 0.0


class IncomeTax(_Model):
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


class Revenue(_Model):
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


class Stream(_Model):
    name: Name
    kind: Literal["revenue", "cost"]
    abated: Flag = False  # True: excluded under 71(a)(5)(e)
    tax: Literal["gross_income_tax", "sales_and_use_tax", "corporation_business_tax", "other"] = "other"
    grows_with_inflation: Flag = False  # True: the amounts are in year-1 dollars and grow with inflation
    by_year: ByYear = Field(default_factory=_empty_by_year)
    from_csv: Line | None = None  # provenance; by_year holds the values read


class Exemption(_Model):
    landlord_not_assisted: Flag | None = None  # 71(a)(8)(a)(i)
    landlord_party_to_contract: Flag | None = None  # 71(a)(8)(a)(ii)
    lease_share_of_facility: Share | None = None  # 71(a)(8)(a)(iii)


class PrevailingWage(_Model):
    construction: Flag | None = None
    building_services: Flag | None = None
    exemption: Exemption | None = None
    construction_starts_years_after_first_certificate: Count | None = None  # 71(a)(8)(b)


class Attestations(_Model):
    material_factor: Flag | None = None  # 71(a)(4)
    environmental_standards: Flag | None = None  # 71(a)(6)
    affirmative_action: Flag | None = None  # 71(a)(7)
    prevailing_wage: PrevailingWage | None = None  # 71(a)(8)


class Phase(_Model):
    """A later phase of a phased project; its years count from ``start_year``.

    ``starts_in_year: 3`` says the same in plain language: the phase's first year is project year
    3, which is ``start_year: 2`` (phase year t is project year start_year + t). Give one of the
    two; the scenario keeps ``start_year`` (``to_yaml`` writes it).
    """

    name: Name
    start_year: YearCount
    capital_investment: ByYear = Field(default_factory=_empty_by_year)
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
                "give start_year or starts_in_year, not both (starts_in_year: N is start_year: N - 1)"
            )
        if isinstance(year, bool) or not isinstance(year, int) or not 1 <= year <= MAX_YEARS + 1:
            raise ValueError(f"starts_in_year must be a whole number from 1 to {MAX_YEARS + 1} (got {year!r})")
        data["start_year"] = year - 1
        return data


class Scenario(_Model):
    """A validated, immutable Emerge application scenario (v1 format).

    Build one with :func:`load_scenario` (a YAML file) or :meth:`Scenario.from_dict`; derive a
    variant with :meth:`replace`. The top level is the initial phase; ``phases`` holds the later
    ones.
    """

    name: Name
    description: Prose = ""
    application_date: dt.date  # 71(f)
    #: The date the authority approved the application; project year 1 is its calendar year (tax
    #: years, real dollars, calendar and fiscal years). None: the application date.
    approval_date: dt.date | None = None
    discount_rate: Annotated[float, Strict(), Field(gt=-1)]  # nominal, 71(a)(5)(c)
    timing: Literal["end_of_year", "mid_year"] = "end_of_year"
    inflation: Annotated[float, Strict(), Field(gt=-1, le=1)] = 0.0  # yearly, for flat amounts and real values
    threshold_override: Annotated[float, Strict(), Field(gt=0)] | None = None  # 71(a)(5)(f)
    business: Business = Business()
    location: Location = Location()
    facility: Facility
    capital_investment: ByYear = Field(default_factory=_empty_by_year)
    jobs: Jobs
    award: Award
    commitment: Commitment = Commitment()
    revenue: Revenue | None = None
    streams: Annotated[tuple[Stream, ...], Items] = ()
    attestations: Attestations = Attestations()
    phases: Annotated[tuple[Phase, ...], Items] = ()
    readings: Readings = Readings()
    #: The set of conventions (netbenefit/parameters/methods.yaml): this project's, or the authority's
    #: published choices where they are known.
    method: Literal["netbenefit", "authority"] = "netbenefit"

    @property
    def approval(self) -> dt.date:
        """The approval date: ``approval_date``, or the application date where none is given."""
        return self.approval_date or self.application_date

    _source: str = PrivateAttr(default="<dict>")
    _base_dir: str = PrivateAttr(default=".")
    _written: Any = PrivateAttr(default=None)  # the mapping as given, for reports
    _multipliers: Mapping[str, Any] | None = PrivateAttr(default=None)  # the revenue.multiplier_table row
    #: The values at dotted keys the model has read (netbenefit.cashflows.Inputs): the scenario is
    #: immutable, so each is looked up once, whatever the number of evaluations.
    _values_at: dict[str, Any] = PrivateAttr(default_factory=dict)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<dict>", base_dir: str | Path | None = None) -> Scenario:
        """Validate a plain mapping (as a YAML file would give) into a Scenario.

        ``base_dir`` is where ``from_csv`` paths are resolved (default: the working directory).
        Raises :class:`ScenarioError` naming ``source``, the key path and the problem.
        """
        source = str(source)
        base = Path(base_dir) if base_dir is not None else Path.cwd()
        if not isinstance(data, Mapping):
            raise ScenarioError(source, "", "the scenario must be a mapping of keys to values")
        data_given = data
        data = _read_csv_streams(dict(data), source, base)
        try:
            scenario = cls.model_validate(data)
        except ValidationError as error:
            raise _scenario_error(error, source, Scenario) from None
        _check_consistency(scenario, source)
        scenario._source, scenario._base_dir = source, str(base)
        scenario._written = copy.deepcopy(dict(data_given))
        if scenario.revenue is not None and scenario.revenue.multiplier_table is not None:
            scenario._multipliers = MappingProxyType(read_multiplier_table(scenario, base, source))
        return scenario

    @property
    def multipliers(self) -> Mapping[str, Any] | None:
        """The row of ``revenue.multiplier_table`` chosen by ``business.naics`` (None without a table)."""
        return self._multipliers

    @property
    def source(self) -> str:
        """The file (or ``<dict>``) this scenario was read from."""
        return self._source

    @property
    def as_written(self) -> dict[str, Any]:
        """The scenario's values as its author wrote them (whole numbers stay whole, keys left out
        stay out, ``from_csv`` stays a file name): for reports. A copy; the scenario is unchanged."""
        return copy.deepcopy(self._written) if self._written is not None else self.to_dict()

    @property
    def base_dir(self) -> Path:
        """The folder against which ``from_csv`` paths were resolved."""
        return Path(self._base_dir)

    def to_dict(self) -> dict[str, Any]:
        """A plain mapping that :meth:`from_dict` turns back into an equal Scenario.

        Streams read from CSV are given by their values (``by_year``).
        """
        return _plain(self)

    def to_yaml(self, path: str | Path | None = None) -> str | Path:
        """The scenario as a YAML scenario file that :func:`load_scenario` reads back to an equal
        scenario (every value, defaults included), from any folder. Streams read from CSV
        (``from_csv``) are written with their values inline (``by_year``); a multiplier table is
        named relative to the folder of ``path`` when it is inside it, else its multipliers are
        written inline (:mod:`netbenefit.round_trip`); a comment at the top of the file says so.

        Returns the text when ``path`` is None; otherwise writes the file atomically and returns
        its path (an OSError names the file).
        """
        lines = [f"# {self.name}: written by netbenefit from {self.source}, every value, defaults included."]
        inline = [
            f"{key}.{i} (from_csv: {stream.from_csv})"
            for key, streams in [("streams", self.streams)]
            + [(f"phases.{k}.streams", phase.streams) for k, phase in enumerate(self.phases)]
            for i, stream in enumerate(streams)
            if stream.from_csv is not None
        ]
        if inline:
            lines.append("# Streams read from CSV files are written with their values inline (by_year):")
            lines += [f"#   {item}" for item in inline]
        from .round_trip import yaml_data

        data, notes = yaml_data(self, None if path is None else Path(path).parent)  # a table's path, or its row
        if notes:
            lines.append("# Files named relative to the folder of this file, or their values written inline:")
            lines += [f"#   {note}" for note in notes]
        body = yaml.dump(data, Dumper=_ScenarioDumper, sort_keys=False, allow_unicode=True, width=100)
        comment = "\n".join(re.sub(r"[\n\r\x85\u2028\u2029]", " ", line) for line in lines)  # one line each
        text = comment + "\n" + body
        if path is None:
            return text
        from .files import write_file

        return write_file(Path(path), lambda temporary: temporary.write_text(text, encoding="utf-8"))

    def __eq__(self, other: object) -> bool:
        """Equal when the validated values are: how a scenario was written (its file, its
        wording) and where values were read from (``from_csv``, ``revenue.multiplier_table``:
        provenance) are not part of what it is (:mod:`netbenefit.round_trip`)."""
        if not isinstance(other, Scenario):
            return NotImplemented
        if self.__dict__ == other.__dict__ and self._multipliers == other._multipliers:
            return True
        from .round_trip import equality_form

        return equality_form(self) == equality_form(other)

    def __hash__(self) -> int:
        from .round_trip import equality_hash

        return equality_hash(self)

    def replace(self, changes: Mapping[str, Any] | None = None, **keyword_changes: Any) -> Scenario:
        """A validated copy with the values at some dotted key paths changed.

        >>> variant = scenario.replace({"jobs.new": 200, "discount_rate": 0.05})  # doctest: +SKIP

        List items and year keys are path segments too: ``phases.0.jobs.new``,
        ``capital_investment.2``, ``facility.portions.0.gross_leasable_area_sqft``. Keyword
        arguments name top-level keys (``scenario.replace(discount_rate=0.05)``).

        Without a ``name`` among the changes, the variant is named after them, so that variants
        tell themselves apart in tables and charts: ``Office HQ (discount_rate=0.04, jobs.new=200)``.
        """
        data = self.to_dict()
        written = self.as_written
        # Values the scenario itself returns (a read-only mapping of years, a block, a tuple of
        # items) are given back as the plain data a file holds.
        changes = {key: _plain(value) for key, value in {**(changes or {}), **keyword_changes}.items()}
        for key, value in changes.items():
            _set_path(data, key, value, self.source)
            try:
                _set_path(written, key, value, self.source)
            except ScenarioError:  # a path the author did not write: the values as validated
                written = None
        if changes and "name" not in changes:
            data["name"] = variant_name(self.name, changes)
            if written is not None:
                written["name"] = data["name"]
        variant = Scenario.from_dict(data, source=self.source, base_dir=self.base_dir)
        if written is not None:
            variant._written = written
        from .plausibility import emit, entered_warnings, quieted

        if not quieted():  # a percent for a rate: a PlausibilityWarning, every line carried by each
            via = "given to Scenario.replace"
            lines = []
            for key, value in changes.items():
                lines += entered_warnings(key, [value], via=via, scenario=variant)
            emit(tuple(lines), stacklevel=2)
        return variant

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: the inputs as written, with their labels."""
        from .views import view

        return view("scenario_html")(self)

    def value_at(self, key: str) -> Any:
        """The value at a dotted key path (``jobs.new``, ``phases.0.award.annual_credit``)."""
        node: Any = self
        for segment in key.split("."):
            node = _child(node, segment)
            if node is _MISSING:
                raise ScenarioError(self.source, key, "no such key in this scenario")
        return node


def variant_name(name: str, changes: Mapping[str, Any]) -> str:
    """``name (key=value, ...)``: the name :meth:`Scenario.replace` gives a variant."""
    shown = ", ".join(f"{key}={_short_value(value)}" for key, value in changes.items())
    return f"{name} ({shown})"


def _short_value(value: Any) -> str:
    """A value as a name shows it: 0.04, 200, true, 2026-06-01, or a shortened list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, int | float | str | dt.date):
        return str(value)
    return _shown(_plain(value))


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------


class _DuplicateKeyError(yaml.YAMLError):
    pass


class _StrictSafeLoader(yaml.SafeLoader):
    """PyYAML's SafeLoader (no Python objects) that also rejects duplicate mapping keys."""


def _construct_unique_mapping(loader: _StrictSafeLoader, node: yaml.MappingNode, deep: bool = False):
    """A mapping whose own keys are unique. Keys brought in by a merge key (``<<: *base``) may be
    given again: as YAML 1.1 defines merging, the mapping's own key overrides the merged one, and
    of several merged mappings the first one that holds a key gives its value."""
    seen: set[Any] = set()
    for key_node, _ in node.value:  # the mapping's own keys, before the merged ones are added
        if key_node.tag == "tag:yaml.org,2002:merge":
            key: Any = "<<"
        else:
            key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in seen
            seen.add(key)
        except TypeError:  # an unhashable key; the constructor below reports it
            continue
        if duplicate:
            line = key_node.start_mark.line + 1
            raise _DuplicateKeyError(f"duplicate key {key!r} (line {line})")
    loader.flatten_mapping(node)  # merged keys first, so that the mapping's own keys override them
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_StrictSafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)


def _compose_bounded_document(loader: _StrictSafeLoader) -> yaml.Node:
    """Compose the document, then refuse one whose aliases expand too far or refer to themselves."""
    node = yaml.composer.Composer.compose_document(loader)
    _check_alias_expansion(node)
    return node


def _compose_shallow_node(loader: _StrictSafeLoader, parent: Any, index: Any) -> yaml.Node:
    """Compose one node, refusing nesting deeper than MAX_YAML_DEPTH before it is all scanned."""
    depth = getattr(loader, "_depth", 0) + 1
    if depth > MAX_YAML_DEPTH:
        raise _LimitError(f"nested more than {MAX_YAML_DEPTH} levels deep")
    loader._depth = depth
    try:
        return yaml.composer.Composer.compose_node(loader, parent, index)
    finally:
        loader._depth = depth - 1


_StrictSafeLoader.compose_document = _compose_bounded_document
_StrictSafeLoader.compose_node = _compose_shallow_node

if getattr(yaml, "__with_libyaml__", False):  # PyYAML built with libyaml: the C parser gives the events

    class _StrictCSafeLoader(
        yaml.composer.Composer, yaml.cyaml.CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver
    ):
        """:class:`_StrictSafeLoader` with libyaml's scanner and parser (in C) under the same Python
        composer, so the duplicate-key, depth and alias limits are those of the Python loader."""

        def __init__(self, stream):
            yaml.cyaml.CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

        compose_document = _compose_bounded_document
        compose_node = _compose_shallow_node

    _StrictCSafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)
    #: The loader of scenario files: the C one where PyYAML has libyaml, else the pure-Python one.
    _SCENARIO_LOADER: type = _StrictCSafeLoader
else:  # pragma: no cover - PyYAML without libyaml
    _SCENARIO_LOADER = _StrictSafeLoader


def _check_alias_expansion(root: yaml.Node) -> None:
    """Count the nodes of the document with every alias expanded, without expanding them."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        children = _yaml_children(node)
        if closing:
            open_nodes.discard(id(node))
            sizes[id(node)] = 1 + sum(sizes[id(child)] for child in children)
            if sizes[id(node)] > MAX_YAML_NODES:
                raise _LimitError(f"aliases expand to more than {MAX_YAML_NODES:,} values")
        elif id(node) in open_nodes:
            raise _LimitError("an alias refers to a collection that contains it")
        elif id(node) not in sizes:
            open_nodes.add(id(node))
            stack.append((node, True))
            stack.extend((child, False) for child in children)


def _yaml_children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [child for pair in node.value for child in pair]
    return []


class _LimitError(yaml.YAMLError):
    pass


def read_text_file(path: Path, source: str, key: str, what: str) -> str:
    """The UTF-8 text of a regular file of at most MAX_FILE_BYTES. Raises ScenarioError."""
    try:
        status = path.stat()
    except FileNotFoundError:
        raise ScenarioError(source, key, f"{what} not found: {path}" if key else "file not found") from None
    except OSError as error:
        raise ScenarioError(source, key, f"{what} {path} cannot be read ({error.strerror})") from None
    where = f"{what} {path}" if key else "the file"
    if stat.S_ISDIR(status.st_mode):
        problem = f"{where} is a folder, not a file" if key else "is a folder, not a scenario file"
        raise ScenarioError(source, key, problem)
    if not stat.S_ISREG(status.st_mode):
        raise ScenarioError(source, key, f"{where} is not a regular file (a device, pipe or socket)")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ScenarioError(source, key, f"{where} cannot be read ({error.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(source, key, f"{where} is larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError(source, key, f"{where} is not UTF-8 text") from None


def read_yaml(path: str | Path) -> Any:
    """Parse a YAML file safely: no Python objects, no duplicate keys, no alias bombs, at most
    MAX_FILE_BYTES, and not empty. Raises ScenarioError."""
    path = Path(path)
    text = read_text_file(path, str(path), "", "scenario file")
    try:
        document = _load_yaml(text)
    except (_DuplicateKeyError, _LimitError) as error:
        raise ScenarioError(str(path), "", str(error)) from None
    except yaml.YAMLError as error:
        raise ScenarioError(str(path), "", f"not valid YAML: {_yaml_problem(error)}") from None
    except RecursionError:
        raise ScenarioError(str(path), "", "not valid YAML: nested too deeply") from None
    except (ValueError, TypeError, AttributeError, OverflowError) as error:  # a tagged or dated value
        detail = str(error) if isinstance(error, ValueError | OverflowError) else "a tag does not fit its value"
        raise ScenarioError(str(path), "", f"not valid YAML: a value cannot be read ({detail})") from None
    if document is None:
        raise ScenarioError(str(path), "", "the file is empty")
    return document


class _ScenarioDumper(yaml.SafeDumper):
    """PyYAML's SafeDumper, writing text with a line break double-quoted (escaped), so that it
    loads back unchanged (a plain or single-quoted scalar folds or normalises line breaks)."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = '"' if re.search(r"[\n\r\x85\u2028\u2029]", text) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_ScenarioDumper.add_representer(str, _represent_text)


def _load_yaml(text: str) -> Any:
    """The document of ``text``, read by :data:`_SCENARIO_LOADER`. A file libyaml refuses is read
    again by the pure-Python loader, whose message (and nesting limit) is the one reported."""
    try:
        return yaml.load(text, Loader=_SCENARIO_LOADER)  # noqa: S506 - a safe loader (no Python objects)
    except (_DuplicateKeyError, _LimitError):
        raise
    except yaml.YAMLError:
        if _SCENARIO_LOADER is _StrictSafeLoader:
            raise
        return yaml.load(text, Loader=_StrictSafeLoader)  # noqa: S506 - a SafeLoader subclass


def _yaml_problem(error: yaml.YAMLError) -> str:
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    return f"{problem}{where}"


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a v1 scenario file.

    Parameters
    ----------
    path : str or Path
        A YAML scenario file. ``from_csv`` paths inside it are relative to its folder.

    Raises
    ------
    ScenarioError
        For any problem, with a one-line message ``file: key.path: problem``.
    """
    path = Path(path)
    return Scenario.from_dict(read_yaml(path), source=str(path), base_dir=path.parent)


# ----------------------------------------------------------------------------------------------
# Streams from CSV
# ----------------------------------------------------------------------------------------------


def _read_csv_streams(data: dict, source: str, base: Path) -> dict:
    """Replace each stream's ``from_csv`` by the ``by_year`` values its CSV holds."""
    data["streams"] = _csv_stream_list(data.get("streams"), "streams", source, base)
    phases = data.get("phases")
    if isinstance(phases, list | tuple):
        data["phases"] = [
            {**phase, "streams": _csv_stream_list(phase.get("streams"), f"phases.{i}.streams", source, base)}
            if isinstance(phase, Mapping) and "streams" in phase
            else phase
            for i, phase in enumerate(phases)
        ]
    if data["streams"] is None:
        del data["streams"]
    return data


def _csv_stream_list(streams: Any, key: str, source: str, base: Path) -> Any:
    if not isinstance(streams, list | tuple):
        return streams
    resolved = []
    for i, stream in enumerate(streams):
        if isinstance(stream, Mapping):
            has_csv = stream.get("from_csv") is not None
            has_years = "by_year" in stream
            if has_csv and has_years:
                raise ScenarioError(source, f"{key}.{i}", "give by_year or from_csv, not both")
            if not has_csv and not has_years:
                raise ScenarioError(source, f"{key}.{i}", "a stream needs by_year or from_csv")
            if has_csv:
                stream = {**stream, "by_year": read_stream_csv(stream["from_csv"], base, source, f"{key}.{i}.from_csv")}
        resolved.append(stream)
    return resolved


def read_stream_csv(name: Any, base: Path, source: str, key: str) -> dict[int, float]:
    """Read a stream CSV (header ``year,amount``) into ``{year: amount}``. Raises ScenarioError."""
    path, text = read_named_file(name, base, source, key, "the scenario file's folder")
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise ScenarioError(source, key, f"cannot read CSV file {path}: {error}") from None
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if not rows or [cell.strip().lower() for cell in rows[0]] != ["year", "amount"]:
        raise ScenarioError(source, key, f"{path}: the first line must be the header year,amount")
    values: dict[int, float] = {}
    for line, row in enumerate(rows[1:], start=2):
        where = f"{path} line {line}"
        if len(row) != 2:
            raise ScenarioError(source, key, f"{where}: expected 2 cells (year,amount), got {len(row)}")
        year_text, amount_text = (cell.strip() for cell in row)
        whole = year_text.isascii() and year_text.isdigit() and len(year_text.lstrip("0")) <= len(str(MAX_YEARS))
        if not whole or not 0 <= int(year_text) <= MAX_YEARS:  # 0: the approval year, emerge-model.md 2.1
            raise ScenarioError(
                source, key, f"{where}: year must be a whole number from 0 to {MAX_YEARS}, got {_shown(year_text)}"
            )
        try:
            amount = csv_number(amount_text)
        except ValueError:
            raise ScenarioError(source, key, f"{where}: amount must be a number, got {_shown(amount_text)}") from None
        if not math.isfinite(amount) or amount < 0:
            raise ScenarioError(source, key, f"{where}: amount must be a finite number >= 0, got {_shown(amount_text)}")
        year = int(year_text)
        if year in values:
            raise ScenarioError(source, key, f"{where}: year {year} appears twice")
        values[year] = amount
    if not values:
        raise ScenarioError(source, key, f"{path}: the CSV has a header but no rows")
    return values


# ----------------------------------------------------------------------------------------------
# Errors and cross-field rules
# ----------------------------------------------------------------------------------------------

_PROBLEMS = {
    "missing": "required key is missing",
    "extra_forbidden": "unknown key",
    "finite_number": "must be a finite number (not NaN or infinity)",
    "model_type": "must be a mapping of keys to values",
    "model_attributes_type": "must be a mapping of keys to values",
    "dict_type": "must be a mapping of keys to values",
    "mapping_type": "must be a mapping of keys to values",
    "tuple_type": "must be a list",
    "list_type": "must be a list",
    "bool_type": "must be true or false",
    "string_type": "must be text",
    "string_unicode": "must not hold a lone surrogate, which no UTF-8 file can hold",  # netbenefit.text_rule
    "int_type": "must be a whole number",
    "float_type": "must be a number",
    "date_type": "must be a date (YYYY-MM-DD)",
    "date_from_datetime_parsing": "must be a date (YYYY-MM-DD)",
    "date_from_datetime_inexact": "must be a date (YYYY-MM-DD), without a time",
    "date_parsing": "must be a date (YYYY-MM-DD)",
}


_SHOWN_CHARACTERS = 60  # not a statutory number: longest value quoted in an error message
#: Problems of one file listed one per line, at most (a generated file may have thousands).
MAX_PROBLEMS_LISTED = 100  # not a statutory number: a bound on the length of an error report


_REPR = reprlib.Repr()  # bounded: a value may be a huge or deeply nested structure
_REPR.maxlevel, _REPR.maxstring = 3, _SHOWN_CHARACTERS
_REPR.maxlong = _REPR.maxother = _SHOWN_CHARACTERS


def _shown(value: Any) -> str:
    text = _REPR.repr(value)
    return text if len(text) <= _SHOWN_CHARACTERS else text[: _SHOWN_CHARACTERS - 3] + "..."


def _scenario_error(error: ValidationError, source: str, model: type[BaseModel] | None = None) -> ScenarioError:
    """Every validation problem, one line each (``file: key: problem``), as one ScenarioError.

    ``model`` is the validated model, whose keys are offered for an unknown key ("did you mean
    ...?"); None offers none.
    """
    items = _without_union_tags(error.errors(include_url=False))
    # A list whose item failed is also reported "too short" by pydantic: that line adds nothing.
    inner = [tuple(item["loc"]) for item in items]

    def redundant(item: Mapping[str, Any]) -> bool:
        loc = tuple(item["loc"])
        return item["type"] == "too_short" and any(other[: len(loc)] == loc != other for other in inner)

    items = [item for item in items if not redundant(item)]
    problems = [_problem(item, model) for item in items[:MAX_PROBLEMS_LISTED]]
    if len(items) > MAX_PROBLEMS_LISTED:
        problems.append(("", f"(and {len(items) - MAX_PROBLEMS_LISTED:,} more problems)"))
    (key, problem), *more = problems
    return ScenarioError(source, key, problem, more=more)


def _problem(item: Mapping[str, Any], model: type[BaseModel] | None) -> tuple[str, str]:
    """(dotted key, problem) for one pydantic error."""
    loc = [str(part) for part in item["loc"]]
    kind = item["type"]
    if loc and loc[-1] == "[key]":  # a bad key of a year mapping
        # amounts' years count from 0, the approval year (emerge-model.md 2.1); a recapture table
        # counts whole years maintained, from 0
        return ".".join(loc[:-2] + [loc[-2]]), f"year keys must be whole numbers >= 0 and <= {MAX_YEARS}"
    key = ".".join(loc)
    problem = _PROBLEMS.get(kind)
    if problem is None:
        message = item["msg"].removeprefix("Value error, ").replace("Input should be", "must be")
        problem = message[:1].lower() + message[1:]
    if kind == "extra_forbidden":
        if len(loc) >= 2 and loc[-2] == "commitment" and "phases" in loc:
            problem += (
                " (a phase's commitment sets period_years and period_set_by_authority only; "
                "extended_years is the project's)"
            )
        elif model is not None:
            problem += _closest_key(model, loc)
    if kind == "less_than_equal" and loc and loc[-1] == "eligibility_period_years":
        problem = (
            f"at most {parameter('eligibility_period_years_maximum')} years (the eligibility period of "
            "P.L.2020, c.156, s.69, C.34:1B-337, as the authority states it)"
        )
    if kind == "literal_error" and key == "revenue.income_tax":
        problem += " or a block with method: brackets or effective_rate"
    if kind == "literal_error" and key.endswith("commitment.recapture"):
        problem += " or a table of the shares recaptured by whole years maintained (e.g. {0: 1.0, 5: 0.5})"
    value = item.get("input")
    bound = (item.get("ctx") or {}).get("le", (item.get("ctx") or {}).get("lt"))
    if kind == "less_than_equal" and bound == 1 and isinstance(value, int | float):
        # A Share: the commonest slip is a percent written for a decimal share (30 for 0.3).
        problem = f"must be a decimal share from 0 to 1 (got {_shown(value)})"
        if 1 < value <= 100:
            problem = f"must be a decimal share: did you mean {value / 100:.10g}? (got {_shown(value)}, above 1)"
    elif kind in ("less_than_equal", "less_than") and _percent_of(value, bound, kind == "less_than_equal"):
        # A rate with a bound other than 1 (wage_dispersion <= 3): the same slip, 45 for 0.45.
        problem += f" (got {_shown(value)}); did you mean {value / 100:.10g}? (a percent written for a decimal)"
    elif kind == "string_type" and loc[-1:] == ["naics"] and type(value) is int:  # an unquoted code in YAML
        problem = f"must be text: write it in quotes: '{value}' (a NAICS code is a code, not a number)"
    elif kind not in ("missing", "extra_forbidden") and not (kind == "value_error" and isinstance(value, Mapping)):
        problem += f" (got {_shown(value)})"  # a rule of a whole block (a phase) names its keys itself
    return key, problem


def _percent_of(value: Any, bound: Any, inclusive: bool) -> bool:
    """Whether ``value``, above a rate's small ``bound`` (at most 10), is inside it once divided by 100."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not isinstance(bound, int | float):
        return False
    if not -1e15 < value < 1e15:  # not a statutory number: far beyond any percent (and any float)
        return False
    small_bound = 0 < bound <= 10  # not a statutory number: bounds of shares, rates and multiples
    return small_bound and value > bound and (value / 100 <= bound if inclusive else value / 100 < bound)


def _closest_key(model: type[BaseModel], loc: list[str]) -> str:
    """``"; did you mean X?"`` naming the known key closest to the unknown ``loc[-1]`` (difflib)."""
    import difflib

    annotation: Any = model
    for segment in loc[:-1]:
        annotation = _model_of(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(segment)
            if field is None:
                return ""
            annotation = field.annotation
        elif typing.get_origin(annotation) is tuple and segment.isdigit():
            annotation = typing.get_args(annotation)[0]
        else:
            return ""
    annotation = _model_of(annotation)
    if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
        return ""
    known = list(annotation.model_fields)
    close = difflib.get_close_matches(loc[-1], known, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]}?"
    return f"; the keys here are {', '.join(known)}"


def _model_of(annotation: Any) -> Any:
    """``annotation`` without ``Annotated[...]`` and ``... | None``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin is Union or origin is types.UnionType:
            options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            if len(options) != 1:
                return annotation
            annotation = options[0]
        else:
            return annotation


def _union_tag_positions(loc: tuple, kind: str = "") -> set[int]:
    """Positions in an error location of the segments that name a member of a union (pydantic's
    tags: ``literal['pro_rata','all','none']``, ``function-after[...]``, ``IncomeTax``), not a key
    of the format. A key the author wrote (a mapping's key, before ``[key]``; an unknown key) is
    never taken for one."""
    positions = set()
    for i, part in enumerate(loc):
        if i == 0 or not isinstance(part, str) or part == "[key]":
            continue
        if i + 1 < len(loc) and loc[i + 1] == "[key]":
            continue
        if kind == "extra_forbidden" and i == len(loc) - 1:
            continue
        if "[" in part or part in _MODEL_NAMES:
            positions.add(i)
    return positions


def _is_choice_error(error: dict) -> bool:
    return any(str(error["loc"][i]).startswith("literal[") for i in _union_tag_positions(error["loc"], error["type"]))


def _without_union_tags(errors: list[dict]) -> list[dict]:
    """Errors of a choice-or-block key (``revenue.income_tax: progressive`` or a block): when the
    value is a mapping, the block's errors only, with the members' names taken out of the keys."""
    choice_errors = [e for e in errors if _is_choice_error(e)]
    chosen = errors
    if choice_errors:
        others = [e for e in errors if e not in choice_errors]
        if isinstance(choice_errors[0].get("input"), Mapping):  # a block was meant: its own errors
            chosen = others or errors
        else:  # a value was meant: the choice's error (must be 'progressive')
            chosen = choice_errors + [e for e in others if not _union_tag_positions(e["loc"], e["type"])]
    return [
        {
            **e,
            "loc": tuple(
                part for i, part in enumerate(e["loc"]) if i not in _union_tag_positions(e["loc"], e["type"])
            ),
        }
        for e in chosen
    ]


#: The names of the scenario's blocks, which pydantic gives the members of a union in error locations.
_MODEL_NAMES = frozenset(model.__name__ for model in _Model.__subclasses__()) | {"Scenario"}


def _check_consistency(scenario: Scenario, source: str) -> None:
    """Rules that involve more than one key (scenario format, "Required keys")."""
    all_jobs = [("jobs", scenario.jobs)] + [(f"phases.{i}.jobs", phase.jobs) for i, phase in enumerate(scenario.phases)]
    all_awards = [("award", scenario.award)] + [
        (f"phases.{i}.award", phase.award) for i, phase in enumerate(scenario.phases)
    ]
    all_streams = [("streams", scenario.streams)] + [
        (f"phases.{i}.streams", phase.streams) for i, phase in enumerate(scenario.phases)
    ]
    if scenario.approval_date is not None and scenario.approval_date < scenario.application_date:
        raise ScenarioError(
            source,
            "approval_date",
            f"{scenario.approval_date.isoformat()} is before application_date "
            f"{scenario.application_date.isoformat()}; an application is approved after it is made",
        )
    if scenario.business.small_business and scenario.business.full_time_employees_at_application < 1:
        raise ScenarioError(
            source,
            "business.full_time_employees_at_application",
            "required (>= 1) for a small business, 71(c)(1)(a)",
        )
    for key, award in all_awards:
        given = [value is not None for value in (award.annual_credit, award.per_new_job, award.section_75)]
        if sum(given) != 1:
            raise ScenarioError(source, key, "give exactly one of annual_credit or per_new_job or section_75")
        if award.per_retained_job is not None and award.per_new_job is None:
            other = "annual_credit" if award.section_75 is None else "section_75"
            raise ScenarioError(source, f"{key}.per_retained_job", f"goes with per_new_job, not {other}")
        bonus_names = [bonus.name for bonus in award.section_75.bonuses] if award.section_75 is not None else []
        for i, name in enumerate(bonus_names):
            if name in bonus_names[:i]:
                raise ScenarioError(source, f"{key}.section_75.bonuses.{i}.name", f"{name!r} names another bonus too")
    if scenario.revenue is not None:
        if scenario.revenue.income_tax_effective_rate is not None and scenario.revenue.income_tax is not None:
            raise ScenarioError(
                source, "revenue.income_tax", "give income_tax_effective_rate or income_tax: progressive, not both"
            )
        _check_revenue(scenario, source)
        for key, jobs in all_jobs:
            if jobs.median_salary is None:
                raise ScenarioError(source, f"{key}.median_salary", "required when revenue is given")
    elif not any(streams for _, streams in all_streams):
        raise ScenarioError(
            source, "revenue", "the scenario has no benefits: give revenue drivers or streams (or both)"
        )
    from .columns import RESERVED_STREAM_NAMES  # one list of built-in names

    for key, streams in all_streams:
        names = [stream.name for stream in streams]
        for i, name in enumerate(names):
            if name in RESERVED_STREAM_NAMES:
                raise ScenarioError(source, f"{key}.{i}.name", f"{name!r} is the name of a built-in column")
            if name in names[:i]:
                raise ScenarioError(source, f"{key}.{i}.name", f"{name!r} is used by another stream of the list")
    _check_phase_year_zero(scenario, source)


def _check_phase_year_zero(scenario: Scenario, source: str) -> None:
    """Year 0, the approval year, belongs to the initial phase: a later phase's years start at 1
    (emerge-model.md 2.1, "Phase years start at 1")."""
    for i, phase in enumerate(scenario.phases):
        keys = [("capital_investment", phase.capital_investment)] + [
            (f"streams.{j}.by_year", stream.by_year) for j, stream in enumerate(phase.streams)
        ]
        for key, by_year in keys:
            if 0 in by_year:
                raise ScenarioError(
                    source,
                    f"phases.{i}.{key}.0",
                    "a later phase's years start at 1 (phase year 1 is project year start_year + 1); "
                    "year 0, the approval year, belongs to the initial phase: move the amount to the "
                    "top level's year 0 or to this phase's year 1",
                )


#: Columns of a multiplier table (docs/scenario-format.md, "Multiplier tables").
MULTIPLIER_COLUMNS = (
    "naics",
    "earnings_multiplier",
    "employment_multiplier",
    "construction_earnings_multiplier",
    "source",
)
_SHARE_SUM_TOLERANCE = 1e-9  # not a statutory number: filing shares may sum to 1 up to float rounding


def _check_revenue(scenario: Scenario, source: str) -> None:
    """Rules of the revenue block that involve more than one key."""
    revenue = scenario.revenue
    income_tax = revenue.income_tax
    key = "revenue.income_tax"
    if isinstance(income_tax, IncomeTax):
        if income_tax.method == "effective_rate":
            if income_tax.rate is None:
                raise ScenarioError(source, f"{key}.rate", "required when method is effective_rate (e.g. rate: 0.05)")
            brackets_only = (
                ("filing_status", None),
                ("wage_dispersion", 0.0),
                ("dependents_per_return", 0.0),
                ("property_tax_deduction", 0.0),
                ("earned_income_tax_credit", None),
                ("qualifying_children", None),
            )
            for name, unset in brackets_only:
                if getattr(income_tax, name) != unset:
                    raise ScenarioError(source, f"{key}.{name}", "applies to method: brackets only")
        else:
            if income_tax.rate is not None:
                raise ScenarioError(source, f"{key}.rate", "applies to method: effective_rate only")
            shares = income_tax.filing_status
            if shares is not None:
                total = shares.single + shares.married_joint
                if abs(total - 1.0) > _SHARE_SUM_TOLERANCE:
                    raise ScenarioError(
                        source, f"{key}.filing_status", f"the shares of the jobs must sum to 1, got {total:.10g}"
                    )
            children = income_tax.qualifying_children
            if children is not None:
                total = children.none + children.one + children.two + children.three_or_more
                if abs(total - 1.0) > _SHARE_SUM_TOLERANCE:
                    raise ScenarioError(
                        source,
                        f"{key}.qualifying_children",
                        f"the shares of the returns must sum to 1, got {total:.10g}",
                    )
                if income_tax.earned_income_tax_credit is False:
                    raise ScenarioError(
                        source, f"{key}.qualifying_children", "goes with earned_income_tax_credit, which is false"
                    )
    if revenue.multiplier_table is not None:
        if scenario.business.naics is None:
            raise ScenarioError(source, "business.naics", "required when revenue.multiplier_table is given")
        defaults = {"earnings_multiplier": 1.0, "construction_earnings_multiplier": None, "employment_multiplier": 1.0}
        both = sorted(name for name, unset in defaults.items() if getattr(revenue, name) != unset)
        if both:
            raise ScenarioError(
                source, f"revenue.{both[0]}", "give the multipliers by revenue.multiplier_table or here, not both"
            )
    if revenue.corporate_business_tax > 0 and revenue.allocated_taxable_net_income is not None:
        raise ScenarioError(
            source,
            "revenue.allocated_taxable_net_income",
            "give corporate_business_tax (an amount) or allocated_taxable_net_income (its base), not both",
        )


def read_multiplier_table(scenario: Scenario, base: Path, source: str) -> dict[str, Any]:
    """The row of ``revenue.multiplier_table`` for ``business.naics``. Raises ScenarioError.

    The CSV has the header ``naics, earnings_multiplier, employment_multiplier,
    construction_earnings_multiplier, source``; every multiplier is a number >= 1 (total / direct).
    It is read strictly: a column named twice, a row whose cells do not match the header, or a
    NAICS code listed twice is an error naming the line (no first or last one silently wins).
    """
    key = "revenue.multiplier_table"
    path, text = read_named_file(scenario.revenue.multiplier_table, base, source, key, "the scenario file's folder")
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        rows = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as error:
        raise ScenarioError(source, key, f"cannot read CSV file {path}: {error}") from None
    header_line, header = (rows[0][0], [cell.strip().lower() for cell in rows[0][1]]) if rows else (1, [])
    for i, column in enumerate(header):
        if column in header[:i]:
            raise ScenarioError(source, key, f"{path} line {header_line}: column {_shown(column)} appears twice")
    missing = [column for column in MULTIPLIER_COLUMNS if column not in header]
    if missing:
        raise ScenarioError(
            source, key, f"{path}: missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        )
    naics, chosen, seen = scenario.business.naics, None, {}
    for line, row in rows[1:]:
        if len(row) != len(header):
            raise ScenarioError(
                source, key, f"{path} line {line}: expected {len(header)} cells (as the header), got {len(row)}"
            )
        cells = dict(zip(header, (cell.strip() for cell in row), strict=True))
        code = cells["naics"]
        if code in seen:
            twice = f"NAICS code {_shown(code)} is listed twice (lines {seen[code]} and {line})"
            raise ScenarioError(source, key, f"{path} line {line}: {twice}")
        seen[code] = line
        if code == naics:
            chosen = (line, cells)
    if chosen is None:
        raise ScenarioError(source, "business.naics", f"NAICS code {naics!r} is not in the multiplier table {path}")
    line, cells = chosen
    values: dict[str, Any] = {"naics": naics, "source": cells.get("source", "")}
    problem = refused_character(values["source"])
    if problem is not None:
        raise ScenarioError(source, key, f"{path} line {line}: source {problem}")
    for column in MULTIPLIER_COLUMNS[1:4]:
        try:
            value = csv_number(cells[column])
        except ValueError:
            raise ScenarioError(
                source, key, f"{path} line {line}: {column} must be a number, got {_shown(cells[column])}"
            ) from None
        if not math.isfinite(value) or value < 1:
            raise ScenarioError(
                source,
                key,
                f"{path} line {line}: {column} must be a number >= 1 (total / direct), got {_shown(cells[column])}",
            )
        values[column] = value
    return values


# ----------------------------------------------------------------------------------------------
# Plain data and dotted paths
# ----------------------------------------------------------------------------------------------

_MISSING = object()


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        out = {name: _plain(getattr(value, name)) for name in type(value).model_fields}
        if isinstance(value, Stream):
            out.pop("from_csv")
        return out
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _child(node: Any, segment: str) -> Any:
    if isinstance(node, BaseModel):
        return getattr(node, segment, _MISSING) if segment in type(node).model_fields else _MISSING
    if isinstance(node, Mapping):
        key: Any = int(segment) if segment.isdigit() else segment
        return node.get(key, _MISSING)
    if isinstance(node, list | tuple):
        if segment.isdigit() and int(segment) < len(node):
            return node[int(segment)]
    return _MISSING


def _set_path(data: dict, key: str, value: Any, source: str) -> None:
    segments = key.split(".")
    node: Any = data
    for depth, segment in enumerate(segments):
        last = depth == len(segments) - 1
        where = ".".join(segments[: depth + 1])
        if isinstance(node, list):
            if not segment.isdigit() or int(segment) >= len(node):
                raise ScenarioError(source, where, f"no item {segment} in this list of {len(node)}")
            index: Any = int(segment)
        elif isinstance(node, dict):
            index = int(segment) if segment.isdigit() else segment
        else:
            raise ScenarioError(source, where, "cannot set a key inside a value that is not a mapping or list")
        if last:
            node[index] = value
        else:
            if isinstance(node, dict) and (index not in node or node[index] is None):
                node[index] = {}
            node = node[index]
