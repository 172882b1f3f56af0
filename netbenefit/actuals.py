"""The actual results of an approved project, as the business reports them each year: read and
validated from a YAML file (:func:`load_actuals`) or a mapping (:meth:`Actuals.from_dict`), the
years given in the file or read from a CSV (``years_from_csv``). The rules that follow an approved
project through them are :mod:`netbenefit.after_approval`.

Actual results are read from a YAML file (:func:`load_actuals`)::

    name: Office headquarters, years 1-4 as reported
    workforce_before_approval: 1200     # statewide full-time workforce, last tax period before approval
    maintained_through_year: null        # last project year the project was maintained; null: still is
    years:                               # project years 1, 2, ... without a gap; or years_from_csv: FILE
      - {year: 1, new_jobs: 120, retained_jobs: 0, median_salary: 97000, statewide_workforce: 1310}
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from .errors import ScenarioError
from .named_files import csv_number, read_named_file
from .scenario import MAX_YEARS, Scenario, load_scenario, read_yaml, scenario_error
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
            raise scenario_error(error, source) from None
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
            inner = scenario_error(error, str(path))
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


def read_inputs(scenario: Scenario | str | Path, actuals: Actuals | str | Path) -> tuple[Scenario, Actuals]:
    """The approved scenario and its actual results, each read from its file where a path is given."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    if not isinstance(actuals, Actuals):
        actuals = load_actuals(actuals)
    return scenario, actuals
