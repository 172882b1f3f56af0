"""The actual results of an approved project, as the business reports them each year: read and
validated from a YAML file (:func:`load_actuals`) or a mapping (:meth:`Actuals.from_dict`), the
years given in the file or read from a CSV (``years_from_csv``). The rules that follow an approved
project through them are :mod:`netbenefit.model.after_approval`.

Actual results are read from a YAML file (:func:`load_actuals`)::

    name: Office headquarters, years 1-4 as reported
    workforce_before_approval: 1200     # statewide full-time workforce, last tax period before approval
    maintained_through_year: null        # last project year the project was maintained; null: still is
    years:                               # project years 1, 2, ... without a gap; or years_from_csv: FILE
      - {year: 1, new_jobs: 120, retained_jobs: 0, median_salary: 97000, statewide_workforce: 1310}

For a phased project a row gives the project's totals (new jobs are allocated to the phases in
proportion to each phase's projection in that year, or ``allocation: in_order``: the initial
phase's projection filled first; retained jobs go to the initial phase), or every row names its
phase (``phase: 1``, ``phase: 2``; the statewide workforce is the same in every row of a year).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from ...errors import ScenarioError
from ...io.arguments import checked, path_kind
from ...io.named_files import csv_number, read_named_file
from ...io.text_rule import Line
from ..scenario import MAX_YEARS, Scenario, load_scenario, read_yaml, scenario_error

Count = Annotated[float, Strict(), Field(ge=0)]
Money = Annotated[float, Strict(), Field(ge=0)]
Share = Annotated[float, Strict(), Field(ge=0, le=1)]
YearKey = Annotated[int, Strict(), Field(ge=1, le=MAX_YEARS)]  # bounded like a scenario's years

#: Columns of a CSV of actual results: required ones first, then optional ones.
CSV_REQUIRED = ("year", "new_jobs", "statewide_workforce")
CSV_OPTIONAL = ("retained_jobs", "median_salary", "nj_withholding_share", "phase")


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
    phase: Annotated[int, Strict(), Field(ge=1)] | None = None  # None: the project's totals (1 = initial phase)


class Actuals(_Model):
    """Actual annual results of an approved project, validated."""

    name: Line = ""  # netbenefit.io.text_rule
    workforce_before_approval: Annotated[float, Strict(), Field(gt=0)]  # last tax period before approval
    maintained_through_year: Annotated[int, Strict(), Field(ge=0, le=MAX_YEARS)] | None = None  # None: still maintained
    #: After a forfeiture, the credit resumes at the threshold level (a fall of no more than 20%) or the full level.
    restored_at: Literal["threshold_level", "full_level"] = "threshold_level"
    #: New jobs of the project's totals, to the phases: in proportion to their projections, or in order.
    allocation: Literal["in_proportion", "in_order"] = "in_proportion"
    #: What ends with the stop in the re-run: the business (every job, wage, spending, construction,
    #: corporation business tax and revenue stream; the default) or its new jobs only (the re-run before).
    stop_ends: Literal["business", "new_jobs"] = "business"
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
            raise scenario_error(error, source) from None
        _check_years(actuals, source)
        return actuals

    @property
    def by_phase(self) -> bool:
        """Whether the rows name their phases (else each row gives the project's totals)."""
        return self.years[0].phase is not None

    def totals(self) -> tuple[ActualYear, ...]:
        """One row per project year for the project as a whole: rows naming their phases summed
        (jobs; the median salary and the withholding share weighted by the jobs of the rows that
        give them); the rows themselves where they give the project's totals."""
        if not self.by_phase:
            return self.years
        rows = []
        for year in range(1, self.years[-1].year + 1):
            group = [row for row in self.years if row.year == year]
            jobs = [row.new_jobs + row.retained_jobs for row in group]
            rows.append(
                ActualYear(
                    year=year,
                    new_jobs=float(sum(row.new_jobs for row in group)),
                    retained_jobs=float(sum(row.retained_jobs for row in group)),
                    median_salary=_weighted([row.median_salary for row in group], [row.new_jobs for row in group]),
                    statewide_workforce=group[0].statewide_workforce,
                    nj_withholding_share=_weighted([row.nj_withholding_share for row in group], jobs),
                )
            )
        return tuple(rows)


def _weighted(values: Iterable[float | None], weights: Iterable[float]) -> float | None:
    """The mean of the values given, weighted (equally where every weight is 0); None if none is given."""
    pairs = [(float(v), float(w)) for v, w in zip(values, weights, strict=True) if v is not None]
    if not pairs:
        return None
    total = sum(w for _, w in pairs)
    if total <= 0:
        return sum(v for v, _ in pairs) / len(pairs)
    return sum(v * w for v, w in pairs) / total


def _check_years(actuals: Actuals, source: str) -> None:
    """Project years 1, 2, ... in order without a gap; rows naming their phases: every row names one,
    a phase once a year, the statewide workforce the same in every row of a year."""
    named = [row.phase is not None for row in actuals.years]
    if any(named) and not all(named):
        i = named.index(not named[0])
        problem = "give a phase in every row or in none (rows without one give the project's totals)"
        raise ScenarioError(source, f"years.{i}.phase", problem)
    expected, seen = 1, set()
    for i, row in enumerate(actuals.years):
        if row.year not in (expected, expected - 1) or (row.year == expected - 1 and not named[0]):
            problem = f"project years must run 1, 2, 3, ... in order without a gap; item {i} is year {row.year}"
            raise ScenarioError(source, f"years.{i}.year", f"{problem}, not {expected}")
        if row.year == expected:
            expected += 1
        if named[0]:
            if (row.year, row.phase) in seen:
                raise ScenarioError(source, f"years.{i}.phase", f"phase {row.phase} is given twice for year {row.year}")
            seen.add((row.year, row.phase))
            first = next(r for r in actuals.years if r.year == row.year)
            if row.statewide_workforce != first.statewide_workforce:
                problem = (
                    f"the statewide workforce of year {row.year} is {first.statewide_workforce:g} in one row and "
                    f"{row.statewide_workforce:g} in another: it is the business's, the same in every row of a year"
                )
                raise ScenarioError(source, f"years.{i}.statewide_workforce", problem)


def read_actual_years_csv(name: Any, base: Path, source: str) -> list[dict[str, Any]]:
    """Rows of a CSV of actual results (header: ``year,new_jobs,statewide_workforce`` and any of
    ``retained_jobs,median_salary,nj_withholding_share``), as mappings. Raises ScenarioError."""
    key = "years_from_csv"
    path, text = read_named_file(name, base, source, key, "the actual results file's folder")  # io/named_files.py
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
            if column in ("year", "phase"):
                if not value.is_integer():
                    raise ScenarioError(
                        source, key, f"{path} line {line}: {column} must be a whole number, got {cell!r}"
                    )
                value = int(value)
            record[column] = value
        try:
            ActualYear.model_validate(record)
        except ValidationError as error:
            inner = scenario_error(error, str(path))
            raise ScenarioError(source, key, f"{path} line {line}: {inner.key}: {inner.problem}") from None
        parsed.append(record)
    return parsed


@checked(path=path_kind)  # text or a Path (netbenefit.io.arguments)
def load_actuals(path: str | Path) -> Actuals:
    """Read and validate a YAML file of actual results (``years`` or ``years_from_csv``).

    Raises
    ------
    ScenarioError
        For any problem, with a one-line message ``file: key.path: problem``.
    """
    path = Path(path)
    return Actuals.from_dict(read_yaml(path), source=str(path), base_dir=path.parent)


def read_inputs(scenario: Scenario | str | Path, actuals: Actuals | str | Path) -> tuple[Scenario, Actuals]:
    """The approved scenario and its actual results, each read from its file where a path is given."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    if not isinstance(actuals, Actuals):
        actuals = load_actuals(actuals)
    return scenario, actuals
