"""Life after approval: annual certification, forfeiture, re-run of the test on actual results.

After an Emerge award is approved, the authority certifies the credit each year against what the
business actually did. Following the authority's Emerge Program rules, N.J.A.C. 19:31U-1.14 and
19:31U-1.4(c), as summarized by the authority and read by an independent legal review (the rule
text itself is not in the sources in hand) [secondary]:

- the credit is certified in proportion to the full-time jobs actually in place, never more than
  the approved amount of the year (certification, P.L.2020, c.156, s.76, C.34:1B-344, and
  N.J.A.C. 19:31U-1.14, as summarized by the authority; neither text read) [secondary]; where the
  business has new and retained jobs, the jobs in place meet the retained requirement first and
  only the rest count as new jobs (N.J.A.C. 19:31U-1.4(c)) [secondary];
- in a tax period in which the business's statewide full-time workforce is **more than** 20
  percent below its level in the last tax period before approval, the credit is forfeited, and
  in later periods until the workforce is restored to the threshold level of that subsection (a
  fall of no more than 20 percent); an actual-results file may ask for the level itself
  (``restored_at: full_level``);
- except for a small business, where new full-time jobs or their median salary fall by **more
  than** 10 percent below the prior year's annual report ("or the project agreement if the annual
  report is the first such report filed": by default the new jobs the agreement approves,
  ``readings.first_report_basis``), the authority may re-run the net benefit test and reduce the
  award, N.J.A.C. 19:31U-1.14(b) [rule, read]. Subsection (c) of 19:31U-1.14 could not be read and
  is not modelled. The small-business exception is the rule's words; section 76 of P.L.2020,
  c.156 (C.34:1B-344) was not read.

To these this module adds the clawback of :mod:`netbenefit.rules.clawback` in the year the
project stops: recapture within the commitment period and the repayment of the incremental
credit of an extended commitment, 71(a)(5)(d), both on the credits actually certified; and the
net benefit test re-run on the actual results instead of the projections (a variant scenario
built with :meth:`~netbenefit.scenario.Scenario.replace`, evaluated like any other).

Actual results are read from a YAML file (:func:`load_actuals`)::

    name: Office headquarters, years 1-4 as reported
    workforce_before_approval: 1200     # statewide full-time workforce, last tax period before approval
    maintained_through_year: null        # last project year the project was maintained; null: still is
    years:                               # project years 1, 2, ... without a gap; or years_from_csv: FILE
      - {year: 1, new_jobs: 120, retained_jobs: 0, median_salary: 97000, statewide_workforce: 1310}

Every bound comes from the cited parameters file ``after_approval.yaml``.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from .errors import ScenarioError
from .evaluate import evaluate
from .named_files import csv_number, read_named_file
from .parameters import parameter
from .result import Result
from .rules import repayment_schedule
from .rules.clawback import extended_years_maintained, phase_clawback
from .scenario import MAX_YEARS, Scenario, load_scenario, read_yaml
from .scenario import scenario_error as _scenario_error
from .text_rule import Line

Count = Annotated[float, Strict(), Field(ge=0)]
Money = Annotated[float, Strict(), Field(ge=0)]
Share = Annotated[float, Strict(), Field(ge=0, le=1)]
YearKey = Annotated[int, Strict(), Field(ge=1)]

#: Columns of a CSV of actual results: required ones first, then optional ones.
CSV_REQUIRED = ("year", "new_jobs", "statewide_workforce")
CSV_OPTIONAL = ("retained_jobs", "median_salary", "nj_withholding_share")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class ActualYear(_Model):
    """What the business reported for one project year (1 = the first year after approval)."""

    year: YearKey
    new_jobs: Count  # new full-time jobs in place
    retained_jobs: Count = 0.0  # retained full-time jobs in place
    median_salary: Money | None = None  # [USD/year] of the new jobs; None: not reported
    statewide_workforce: Count  # the business's full-time workforce in the State
    nj_withholding_share: Share | None = None  # None: the scenario's


class Actuals(_Model):
    """Actual annual results of an approved project, validated."""

    name: Line = ""  # netbenefit.text_rule
    workforce_before_approval: Annotated[float, Strict(), Field(gt=0)]  # last tax period before approval
    maintained_through_year: Annotated[int, Strict(), Field(ge=0, le=MAX_YEARS)] | None = None  # None: still maintained
    #: After a forfeiture, the credit resumes at the threshold level (a fall of no more than 20%) or the full level.
    restored_at: Literal["threshold_level", "full_level"] = "threshold_level"
    years: Annotated[tuple[ActualYear, ...], Field(min_length=1)]

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<dict>", base_dir: str | Path | None = None) -> Actuals:
        """Validate a mapping (as a YAML file gives); ``years_from_csv`` is read from ``base_dir``.

        Raises :class:`ScenarioError` naming ``source``, the key path and the problem.
        """
        source = str(source)
        if not isinstance(data, Mapping):
            raise ScenarioError(source, "", "the actual results must be a mapping of keys to values")
        data = dict(data)
        if "years_from_csv" in data:
            if "years" in data:
                raise ScenarioError(source, "years_from_csv", "give years or years_from_csv, not both")
            base = Path(base_dir) if base_dir is not None else Path.cwd()
            data["years"] = read_actual_years_csv(data.pop("years_from_csv"), base, source)
        try:
            actuals = cls.model_validate(data)
        except ValidationError as error:
            raise _scenario_error(error, source) from None
        years = [row.year for row in actuals.years]
        for i, year in enumerate(years):
            if year != i + 1:
                problem = f"project years must run 1, 2, 3, ... in order without a gap; item {i} is year {year}"
                raise ScenarioError(source, f"years.{i}.year", f"{problem}, not {i + 1}")
        return actuals


def read_actual_years_csv(name: Any, base: Path, source: str) -> list[dict[str, Any]]:
    """Rows of a CSV of actual results (header: ``year,new_jobs,statewide_workforce`` and any of
    ``retained_jobs,median_salary,nj_withholding_share``), as mappings. Raises ScenarioError."""
    key = "years_from_csv"
    path, text = read_named_file(name, base, source, key, "the actual results file's folder")  # netbenefit.named_files
    try:
        rows = [row for row in csv.reader(io.StringIO(text, newline="")) if any(cell.strip() for cell in row)]
    except csv.Error as error:
        raise ScenarioError(source, key, f"cannot read CSV file {path}: {error}") from None
    if not rows:
        raise ScenarioError(source, key, f"{path}: the CSV file is empty")
    header = [cell.strip().lower() for cell in rows[0]]
    missing = [column for column in CSV_REQUIRED if column not in header]
    unknown = [column for column in header if column not in CSV_REQUIRED + CSV_OPTIONAL]
    if missing or unknown or len(set(header)) != len(header):
        problem = f"missing columns {missing}" if missing else f"unknown or repeated columns {unknown or header}"
        expected = ", ".join(CSV_REQUIRED + CSV_OPTIONAL)
        raise ScenarioError(source, key, f"{path}: header: {problem}; expected {expected}")
    if len(rows) == 1:
        raise ScenarioError(source, key, f"{path}: the CSV has a header but no rows")
    parsed = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise ScenarioError(source, key, f"{path} line {line}: expected {len(header)} cells, got {len(row)}")
        record: dict[str, Any] = {}
        for column, cell in zip(header, (cell.strip() for cell in row), strict=True):
            if cell == "" and column in CSV_OPTIONAL:
                continue
            try:
                value = csv_number(cell)  # ASCII digits: not 2_0, not Arabic-Indic digits
            except ValueError:
                problem = f"{path} line {line}: {column} must be a number, got {cell!r}"
                raise ScenarioError(source, key, problem) from None
            if column == "year":
                if not value.is_integer():
                    raise ScenarioError(source, key, f"{path} line {line}: year must be a whole number, got {cell!r}")
                value = int(value)
            record[column] = value
        try:
            ActualYear.model_validate(record)
        except ValidationError as error:
            inner = _scenario_error(error, str(path))
            raise ScenarioError(source, key, f"{path} line {line}: {inner.key}: {inner.problem}") from None
        parsed.append(record)
    return parsed


def load_actuals(path: str | Path) -> Actuals:
    """Read and validate a YAML file of actual results (``years`` or ``years_from_csv``).

    Raises
    ------
    ScenarioError
        For any problem, with a one-line message ``file: key.path: problem``.
    """
    path = Path(path)
    return Actuals.from_dict(read_yaml(path), source=str(path), base_dir=path.parent)


# ----------------------------------------------------------------------------------------------
# The rules, as pure functions on numbers and arrays
# ----------------------------------------------------------------------------------------------


def more_than(value, bound):
    """``value > bound``, a value equal to the bound up to rounding not counting as more.

    >>> bool(more_than(1 - 800 / 1000, 0.2)), bool(more_than(1 - 799.9 / 1000, 0.2))
    (False, True)
    """
    value = np.asarray(value, dtype=float)
    bound = np.asarray(bound, dtype=float)
    tolerance = parameter("after_approval_comparison_relative_tolerance")
    close = np.abs(value - bound) <= tolerance * np.maximum(np.abs(value), np.abs(bound))
    return (value > bound) & ~close


def fall_share(actual, projected):
    """How far ``actual`` is below ``projected``, as a share of it: ``1 - actual / projected``.

    Zero where nothing was projected; negative where the actual exceeds the projection.

    >>> fall_share([90.0, 110.0, 5.0], [100.0, 100.0, 0.0]).round(6).tolist()
    [0.1, -0.1, 0.0]
    """
    actual = np.asarray(actual, dtype=float)
    projected = np.asarray(projected, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(projected > 0, 1.0 - actual / np.where(projected > 0, projected, 1.0), 0.0)


def forfeited_years(statewide_workforce, workforce_before_approval, restoration_share=None):
    """Whether the credit of each year is forfeited for a fall of the statewide workforce.

    A year is forfeited when the workforce is **more than** ``statewide_workforce_forfeiture_drop_share``
    (20 percent) below its level in the last tax period before approval, and every later year until
    it is restored to at least ``restoration_share`` of that level: by default
    ``statewide_workforce_restoration_share``, 0.8, the threshold level of N.J.A.C. 19:31U-1.14(a)
    [secondary]; 1.0 for the level itself.

    Parameters
    ----------
    statewide_workforce : array_like, shape (years,)
        Full-time workforce in the State in project years 1, 2, ... [jobs]
    workforce_before_approval : float
        Full-time workforce in the State in the last tax period before approval. [jobs]

    Returns
    -------
    (drop_share, forfeited) : arrays of shape (years,)

    >>> forfeited_years([800, 799, 790, 800], 1000)[1].tolist()  # 20% no; 20.1% yes; until restored
    [False, True, True, False]
    >>> forfeited_years([800, 799, 900, 1000], 1000, restoration_share=1.0)[1].tolist()
    [False, True, True, False]
    """
    workforce = np.asarray(statewide_workforce, dtype=float)
    drop = fall_share(workforce, workforce_before_approval)
    triggered = more_than(drop, parameter("statewide_workforce_forfeiture_drop_share"))
    if restoration_share is None:
        restoration_share = parameter("statewide_workforce_restoration_share")
    restoration = restoration_share * workforce_before_approval
    restored = (workforce >= restoration) | ~more_than(restoration, workforce)
    forfeited = np.zeros(workforce.shape, dtype=bool)
    for t in range(workforce.shape[0]):
        forfeited[t] = triggered[t] or (t > 0 and forfeited[t - 1] and not restored[t])
    return drop, forfeited


def certified_credit(approved_credit, per_new_job, per_retained_job, new_jobs, retained_jobs):
    """Credit certified for a year: the jobs actually in place at the award's amounts per job,
    never more than the approved credit of the year. [USD]

    The certification in proportion to the jobs in place is the authority's [secondary]; valuing
    each job at the award's amount per new or retained job is a convention (for an award given
    as an annual amount, every counted job is worth the annual credit / the jobs it was based on).

    >>> certified_credit(1000.0, 10.0, 5.0, [50, 120], [0, 0]).tolist()
    [500.0, 1000.0]
    """
    value = np.asarray(per_new_job, dtype=float) * new_jobs + np.asarray(per_retained_job, dtype=float) * retained_jobs
    return np.minimum(np.asarray(approved_credit, dtype=float), value)


def retained_first(new_jobs, retained_jobs, retained_required):
    """Jobs in place counted toward the retained requirement first, N.J.A.C. 19:31U-1.4(c) [secondary]:
    ``(new counted, retained counted)`` where retained counted = min(all jobs, the requirement).

    >>> [a.tolist() for a in retained_first([120.0], [80.0], 100.0)]
    [[100.0], [100.0]]
    """
    new = np.asarray(new_jobs, dtype=float)
    retained = np.asarray(retained_jobs, dtype=float)
    total = new + retained
    counted_retained = np.minimum(total, np.maximum(retained, np.asarray(retained_required, dtype=float)))
    return total - counted_retained, counted_retained


def prior_report(actual, projected_first):
    """What each year's report is compared with: the prior year's report; for the first, the
    project agreement (the projection), N.J.A.C. 19:31U-1.14 [secondary].

    >>> prior_report([90.0, 80.0, 85.0], 100.0).tolist()
    [100.0, 90.0, 80.0]
    """
    actual = np.asarray(actual, dtype=float)
    return np.concatenate([[float(projected_first)], actual[:-1]])


def first_report_jobs(scenario: Scenario, ramp_first_year: float) -> float:
    """The new jobs the first annual report is compared with, N.J.A.C. 19:31U-1.14(b): "the project
    agreement if the annual report is the first such report filed" [rule]. By default the new jobs
    the agreement approves (``jobs.new``); ``readings.first_report_basis: ramp`` takes the ramp's
    first year instead (the comparison before)."""
    if scenario.readings.first_report_basis == "ramp":
        return float(ramp_first_year)
    return float(scenario.jobs.new)


def extension_repayment(incremental_credit, extended_years, commitment_end, maintained_through_year):
    """Repayment of the incremental credit when the project stops during its extended commitment.

    The extended commitment runs from ``commitment_end`` (years after approval) for
    ``extended_years`` years; the business maintained the project through the end of project year
    ``maintained_through_year``, i.e. ``m = floor(maintained_through_year - commitment_end)``
    whole extended years (0 when it stopped before the extension began). The repayment is row m of
    :func:`netbenefit.rules.net_benefit.repayment_schedule`, 71(a)(5)(d) (the formula is a
    convention), and 0 once every extended year was maintained.

    Returns
    -------
    (years_maintained, repayment) : (int, float)

    >>> extension_repayment(300.0, 3, 10.5, 12)  # 1.5 extended years maintained -> m = 1
    (1, 200.0)
    """
    years = int(extended_years)
    if years <= 0 or maintained_through_year is None:
        return (years if maintained_through_year is None else 0), 0.0
    tolerance = parameter("after_approval_comparison_relative_tolerance")
    maintained = math.floor(maintained_through_year - commitment_end + tolerance)
    maintained = min(max(maintained, 0), years)
    if maintained >= years:
        return years, 0.0
    return maintained, dict(repayment_schedule(incremental_credit, years))[maintained]


# ----------------------------------------------------------------------------------------------
# The pipeline: scenario + actual results -> AfterApproval
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AfterApproval:
    """An approved scenario followed through its actual results.

    - ``years``: one row per reported project year: approved, in-proportion, forfeited and
      certified credits [USD], projected and actual jobs, salaries, workforce, the falls, the
      flags, and in a flagged year the ratio of the test re-run on actual results;
    - ``comparison``: the net benefit test on the projections and re-run on actual results;
    - ``projected`` and ``actual``: the two :class:`~netbenefit.Result` objects.
    """

    scenario: Scenario
    actuals: Actuals
    projected: Result
    actual: Result
    actual_scenario: Scenario
    years: pd.DataFrame = field(repr=False)
    comparison: pd.DataFrame = field(repr=False)
    approved_credits: float  # [USD] over the reported years
    certified_credits: float  # [USD] over the reported years
    forfeited_years: tuple[int, ...]
    rerun_flag_years: tuple[int, ...]
    rerun_ratio: float
    rerun_passes: bool
    supported_award_share: float  # share of the approved credits the re-run supports (1 = all)
    extended_years_maintained: int | None
    repayment: float  # [USD] of the incremental credit of an extended commitment
    repayment_year: int | None  # the year after the project stopped, when anything is owed
    recapture: float = 0.0  # [USD] credits recaptured for leaving within the commitment period
    interest: float = 0.0  # [USD] on the recapture (commitment.recapture_interest)

    def summary(self) -> str:
        """A short plain-text account of the actual results against the approval."""
        lines = [
            f"{self.scenario.name}: actual results, years 1-{len(self.years)}",
            f"  credits certified ${self.certified_credits:,.0f} of ${self.approved_credits:,.0f} approved "
            "for these years (N.J.A.C. 19:31U-1.14)",
        ]
        if self.forfeited_years:
            years = ", ".join(str(y) for y in self.forfeited_years)
            lines.append(f"  forfeited for a fall of the statewide workforce in years {years}")
        if self.rerun_flag_years:
            years = ", ".join(str(y) for y in self.rerun_flag_years)
            lines.append(f"  new jobs or median salary fell beyond the bound in years {years}: the test may be re-run")
        lines.append(
            f"  net benefit ratio projected {self.projected.ratio:.2%}, on actual results {self.rerun_ratio:.2%} "
            f"vs threshold {self.actual.threshold:.0%}: {'passes' if self.rerun_passes else 'fails'}"
        )
        if not self.rerun_passes:
            lines.append(f"  the actual results support {self.supported_award_share:.1%} of the approved credits")
        if self.recapture > 0:
            lines.append(
                f"  stopped after year {self.repayment_year - 1}, within the commitment period: recapture "
                f"${self.recapture:,.0f} in year {self.repayment_year} (rule: {self.scenario.commitment.recapture!r}; "
                "the statute allows none ... all, C.34:1B-341(a)(4))"
            )
        if self.interest > 0:
            lines.append(f"  interest on the recapture ${self.interest:,.0f} in year {self.repayment_year}")
        if self.repayment > 0:
            lines.append(
                f"  extended commitment: {self.extended_years_maintained} of {self.projected.extended_years} years "
                f"maintained; repayment ${self.repayment:,.0f} in year {self.repayment_year}, 71(a)(5)(d)"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def _per_job_amounts(scenario: Scenario, projected: Result) -> tuple[float, float]:
    """The approved award's amount per new and per retained full-time job per year. [USD]"""
    award = scenario.award
    retained = scenario.jobs.retained if projected.retained_jobs_eligible else 0.0
    if award.annual_credit is not None:
        jobs = scenario.jobs.new + retained
        per_job = award.annual_credit / jobs if jobs > 0 else 0.0
        return per_job, per_job
    if award.section_75 is not None:
        steps = projected.award_calculation.set_index("step")
        return float(steps.loc["per_new_job", "per_job"]), float(steps.loc["per_retained_job", "per_job"])
    return award.per_new_job, award.per_retained_job or 0.0


def actual_scenario(scenario: Scenario, actuals: Actuals, projected: Result) -> Scenario:
    """The scenario with its jobs, salary and withholdings replaced by the actual results.

    Conventions (the model holds a level of new jobs times a ramp, a salary growing at a constant
    rate, and constant retained jobs):

    - new jobs: ``jobs.new`` is the largest number of new jobs reported and the ramp follows the
      reported years exactly; the last reported year holds afterwards, and zero jobs follow
      ``maintained_through_year``;
    - retained jobs and the withholding share: those of the last reported year;
    - median salary: the salary of year 1, growing at the constant rate that reaches the last
      reported salary (where salaries are reported);
    - the credits stay the approved ones (the award is given as its approved annual credit);
    - capital investment and explicit streams stay as projected.
    """
    reported = actuals.years
    new_jobs = [row.new_jobs for row in reported]
    stop = actuals.maintained_through_year
    if stop is not None:
        new_jobs = new_jobs[:stop] + [new_jobs[-1]] * max(0, stop - len(new_jobs)) + [0.0]
    peak = max(new_jobs)
    ramp = [jobs / peak if peak > 0 else 0.0 for jobs in new_jobs]
    last = reported[-1]
    changes: dict[str, Any] = {
        "name": f"{scenario.name} (actual results)",
        "jobs.new": float(peak),
        "jobs.ramp": ramp,
        "jobs.retained": float(last.retained_jobs),
        "award": {
            "annual_credit": float(projected.cashflows["credits"].max()),
            "eligibility_period_years": scenario.award.eligibility_period_years,
            "first_credit_year": scenario.award.first_credit_year,
        },
    }
    if last.nj_withholding_share is not None:
        changes["jobs.nj_withholding_share"] = float(last.nj_withholding_share)
    salaries = [(row.year, row.median_salary) for row in reported if row.median_salary is not None]
    if scenario.jobs.median_salary is not None and salaries:
        (first_year, first_salary), (last_year, last_salary) = salaries[0], salaries[-1]
        growth = scenario.jobs.salary_growth
        if last_year > first_year and first_salary > 0:
            growth = (last_salary / first_salary) ** (1.0 / (last_year - first_year)) - 1.0
        changes["jobs.median_salary"] = float(first_salary / (1.0 + growth) ** (first_year - 1))
        changes["jobs.salary_growth"] = float(growth)
    return scenario.replace(changes)


@np.errstate(all="ignore")  # an overflowing amount is a non-finite value or an error, not a warning
def follow(scenario: Scenario | str | Path, actuals: Actuals | str | Path) -> AfterApproval:
    """Follow an approved scenario through its actual annual results.

    Parameters
    ----------
    scenario : Scenario, or the path of a scenario file
        The approved application (an initial phase only: later phases are not followed).
    actuals : Actuals, or the path of a YAML file of actual results

    Returns
    -------
    AfterApproval

    Raises
    ------
    ScenarioError
        When the scenario has later phases, or either input cannot be read or evaluated.
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    if not isinstance(actuals, Actuals):
        actuals = load_actuals(actuals)
    if scenario.phases:
        raise ScenarioError(scenario.source, "phases", "actual results are followed for a project without later phases")
    projected = evaluate(scenario)
    cashflows = projected.cashflows
    reported = actuals.years
    year = np.array([row.year for row in reported])
    at = lambda column: cashflows[column].reindex(year, fill_value=0.0).to_numpy(dtype=float)  # noqa: E731
    approved = at("credits")
    projected_new = at("new_full_time_jobs")
    projected_retained = at("retained_full_time_jobs")
    actual_new = np.array([row.new_jobs for row in reported], dtype=float)
    counted = projected.retained_jobs_eligible  # 71(c) decides whether retained jobs count
    actual_retained = np.array([row.retained_jobs for row in reported], dtype=float) * counted

    stop = actuals.maintained_through_year
    maintained = np.ones(year.shape, dtype=bool) if stop is None else year <= stop
    per_new, per_retained = _per_job_amounts(scenario, projected)
    if counted:  # N.J.A.C. 19:31U-1.4(c): the retained requirement is met first
        actual_new, actual_retained = retained_first(actual_new, actual_retained, scenario.jobs.retained)
    in_proportion = certified_credit(approved, per_new, per_retained, actual_new, actual_retained) * maintained
    restoration = 1.0 if actuals.restored_at == "full_level" else None
    drop, forfeited = forfeited_years(
        [row.statewide_workforce for row in reported], actuals.workforce_before_approval, restoration
    )
    certified = np.where(forfeited, 0.0, in_proportion)

    # The re-run flag: a fall of more than 10% against the prior year's report ("the project
    # agreement if the annual report is the first such report filed"), except for a small business,
    # N.J.A.C. 19:31U-1.14(b) [rule].
    rerun_fall = parameter("net_benefit_rerun_fall_share")
    new_fall = fall_share(actual_new, prior_report(actual_new, first_report_jobs(scenario, projected_new[0])))
    jobs = scenario.jobs
    if jobs.median_salary is not None:
        projected_salary = jobs.median_salary * (1.0 + jobs.salary_growth) ** (year - 1.0)
    else:
        projected_salary = np.full(year.shape, np.nan)
    actual_salary = np.array([np.nan if row.median_salary is None else row.median_salary for row in reported])
    compared_salary = prior_report(actual_salary, projected_salary[0])
    salary_fall = np.where(
        np.isnan(actual_salary) | np.isnan(compared_salary),
        np.nan,
        fall_share(np.nan_to_num(actual_salary), np.nan_to_num(compared_salary)),
    )
    flag = more_than(new_fall, rerun_fall) | more_than(np.nan_to_num(salary_fall), rerun_fall)
    flag = flag & (not scenario.business.small_business)  # "Except for a small business"

    variant = actual_scenario(scenario, actuals, projected)
    actual = evaluate(variant)
    pv_credits = projected.pv_credits
    supported = 1.0 if actual.passes else min(1.0, actual.max_credit_pv / pv_credits)

    # The clawback in the year the project stops, on the credits actually certified.
    commitment_start = scenario.award.first_credit_year - 1
    commitment_end = commitment_start + projected.commitment_period_years
    extended = projected.extended_years if projected.extension_counted else 0
    years_maintained, repayment, recaptured, interest = None, 0.0, 0.0, 0.0
    if stop is not None:
        # by project year from 1 (a year-0 row, the approval year, never holds a credit)
        approved_all = cashflows.loc[cashflows.index >= 1, "credits"].to_numpy(dtype=float)
        received_by_year = approved_all[:stop].copy()
        reported_until = min(stop, len(certified))
        received_by_year[:reported_until] = certified[:reported_until]
        share = projected.incremental_credit / projected.requested_credits if extended else 0.0
        rate = scenario.commitment.recapture_interest.rate if scenario.commitment.recapture_interest else 0.0
        owed = phase_clawback(
            received_by_year,
            [stop],
            commitment_start,
            projected.commitment_period_years,
            share,
            extended,
            scenario.commitment.recapture,
            scenario.commitment.extension_years_counted,
            rate,
            award_total=projected.requested_credits,
        )
        recaptured = float(owed["recapture"][0])
        interest = float(owed["interest"][0])
        if extended:
            kept = extended_years_maintained(
                stop, commitment_end, extended, scenario.commitment.extension_years_counted
            )
            years_maintained = int(np.floor(kept))
            repayment = float(owed["extension_repayment"][0])
    repayment_year = stop + 1 if repayment > 0 or recaptured > 0 else None

    table = pd.DataFrame(
        {
            "approved_credit": approved,
            "projected_new_jobs": projected_new,
            "actual_new_jobs": actual_new,
            "projected_retained_jobs": projected_retained,
            "actual_retained_jobs": actual_retained,
            "maintained": maintained,
            "credit_in_proportion": in_proportion,
            "statewide_workforce": [row.statewide_workforce for row in reported],
            "workforce_drop_share": drop,
            "forfeited": forfeited,
            "forfeited_credit": np.where(forfeited, in_proportion, 0.0),
            "certified_credit": certified,
            "projected_median_salary": projected_salary,
            "actual_median_salary": actual_salary,
            "new_jobs_fall_share": new_fall,
            "salary_fall_share": salary_fall,
            "rerun_flag": flag,
            "rerun_ratio": np.where(flag, float(actual.ratio), np.nan),  # the test re-run on actual results
        },
        index=pd.Index(year, name="year"),
    )
    table = clawback_rows(table, repayment_year, recaptured, interest, repayment)
    reported_approved = float(approved.sum())
    comparison = pd.DataFrame(
        {
            "projected": [
                projected.pv_benefits,
                projected.pv_credits,
                projected.ratio,
                projected.threshold,
                projected.passes,
                projected.max_credit_pv,
                reported_approved,
            ],
            "actual": [
                actual.pv_benefits,
                actual.pv_credits,
                actual.ratio,
                actual.threshold,
                actual.passes,
                actual.max_credit_pv,
                float(certified.sum()),
            ],
        },
        index=pd.Index(
            ["pv_benefits", "pv_credits", "ratio", "threshold", "passes", "max_credit_pv", "credits_reported_years"],
            name="measure",
        ),
        dtype=object,
    )
    return AfterApproval(
        scenario=scenario,
        actuals=actuals,
        projected=projected,
        actual=actual,
        actual_scenario=variant,
        years=table,
        comparison=comparison,
        approved_credits=reported_approved,
        certified_credits=float(certified.sum()),
        forfeited_years=tuple(int(y) for y in year[forfeited]),
        rerun_flag_years=tuple(int(y) for y in year[flag]),
        rerun_ratio=float(actual.ratio),
        rerun_passes=bool(actual.passes),
        supported_award_share=float(supported),
        extended_years_maintained=years_maintained,
        repayment=float(repayment),
        repayment_year=repayment_year,
        recapture=recaptured,
        interest=interest,
    )


def clawback_rows(table: pd.DataFrame, owed_year: int | None, recaptured: float, interest: float, repayment: float):
    """The years table with the clawback in the year it is owed: ``recapture``, ``interest`` and
    ``repayment`` columns, and a row for that year when it follows the last year reported (its
    other columns empty: nothing was reported for it)."""
    if owed_year is not None and owed_year not in table.index:
        table = table.reindex(table.index.append(pd.Index([owed_year], name="year")))
    at = table.index.to_numpy() == (owed_year or 0)
    return table.assign(
        repayment=np.where(at, repayment, 0.0),
        recapture=np.where(at, recaptured, 0.0),
        interest=np.where(at, interest, 0.0),
    )
