"""The v1 scenario: :class:`Scenario`, the validated, immutable top level of a scenario file, with
its construction (:meth:`Scenario.from_dict`), its YAML and plain-data forms, and ``replace()``."""

from __future__ import annotations

import copy
import datetime as dt
import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

import yaml
from pydantic import Field, PrivateAttr, Strict, ValidationError

from ...errors import ScenarioError
from ...io.arguments import checked, mapping, optional, output_file, path, path_kind
from ...io.arguments import plain as plain_data
from ...io.text_rule import Prose
from ...io.writing import write_file
from ..plausibility import emit, entered_warnings, quieted
from ..round_trip import equality_form, equality_hash, relative_source, yaml_data
from .blocks import (
    Attestations,
    Award,
    Business,
    Commitment,
    Facility,
    Jobs,
    Location,
    Phase,
    Readings,
    Revenue,
    Stream,
)
from .csv_files import read_csv_streams, read_multiplier_table
from .fields import Block, ByYear, Items, Name, UniqueItems, empty_by_year
from .partial import partial
from .paths import MISSING, at_path, plain, set_path, variant_name
from .problems import error_of, problem_list
from .rules import consistency_problems
from .shared import SharedKey, shared_problems, with_shared, without_shared


class Scenario(Block):
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
    capital_investment: ByYear = Field(default_factory=empty_by_year)
    jobs: Jobs
    award: Award
    commitment: Commitment = Commitment()
    revenue: Revenue | None = None
    streams: Annotated[tuple[Stream, ...], Items] = ()
    attestations: Attestations = Attestations()
    phases: Annotated[tuple[Phase, ...], Items] = ()
    #: Drivers of the initial phase that every later phase shares (netbenefit.model.scenario.shared).
    shared: Annotated[tuple[SharedKey, ...], Items, UniqueItems] = ()
    readings: Readings = Readings()
    #: The set of conventions (netbenefit/law/parameters/methods.yaml): this project's, or the authority's
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
    #: Files the scenario names, held in memory in place of the files: key -> (where, text) (a
    #: workbook's Multiplier table sheet, read back: netbenefit.model.scenario.from_workbook).
    _held: Mapping[str, tuple[str, str]] = PrivateAttr(default_factory=dict)
    #: Where each key's value was read, as messages name it (``Inputs!jobs_new (jobs.new)`` for a
    #: scenario read from a workbook); a key not listed is named by itself.
    _places: Mapping[str, str] = PrivateAttr(default_factory=dict)
    #: The values at dotted keys the model has read (netbenefit.model.cashflows.Inputs): the scenario is
    #: immutable, so each is looked up once, whatever the number of evaluations.
    _values_at: dict[str, Any] = PrivateAttr(default_factory=dict)
    #: The (dotted key, value) pairs a plausibility warning was given for as they were given
    #: (:meth:`replace`): evaluating the scenario does not warn of them again.
    _warned: frozenset[tuple[str, float]] = PrivateAttr(default=frozenset())

    # -- construction ----------------------------------------------------------------------

    @classmethod
    @checked("Scenario.from_dict", base_dir=optional(path))  # netbenefit.io.arguments
    def from_dict(
        cls,
        data: Any,
        *,
        source: str = "<dict>",
        base_dir: str | Path | None = None,
        held_files: Mapping[str, tuple[str, str]] | None = None,
        places: Mapping[str, str] | None = None,
    ) -> Scenario:
        """Validate a plain mapping (as a YAML file would give) into a Scenario.

        ``base_dir`` is where ``from_csv`` paths are resolved (default: the working directory).
        ``held_files``: the text of a file the mapping names, held in memory in place of the file,
        by key (``{"revenue.multiplier_table": (where, csv_text)}``: a workbook's sheet, read back).
        ``places``: where each key's value was read, as messages name it (:meth:`place`).
        Raises :class:`ScenarioError` naming ``source``, the key path and the problem.
        """
        source = str(source)
        base = Path(base_dir) if base_dir is not None else Path.cwd()
        if not isinstance(data, Mapping):
            raise ScenarioError(source, "", "the scenario must be a mapping of keys to values")
        data = data_given = plain_data(data)  # any Mapping, a read-only one inside it too: plain dicts
        problems: list[tuple[str, str]] = []  # every problem of the file, told in one run
        data = read_csv_streams(dict(data), source, base, problems)
        problems += shared_problems(data)
        try:
            scenario = cls.model_validate(data)
        except ValidationError as error:
            # Every problem in one run: the rules across keys read the keys that are valid.
            problems = problem_list(error, Scenario) + problems
            rules = consistency_problems(partial(Scenario, data))
            given = {key for key, _ in problems}
            raise error_of(source, problems + [item for item in rules if item[0] not in given]) from None
        problems += consistency_problems(scenario)
        if problems:
            raise error_of(source, problems)
        try:
            scenario = with_shared(scenario)
        except ValueError as error:  # the growth compounded past any float
            raise ScenarioError(source, "jobs.salary_growth", str(error)) from None
        scenario._source, scenario._base_dir = source, str(base)
        scenario._written = copy.deepcopy(dict(data_given))
        held = dict(held_files or {})
        if scenario.revenue is not None and scenario.revenue.multiplier_table is not None:
            table = held.get("revenue.multiplier_table")
            scenario._multipliers = MappingProxyType(read_multiplier_table(scenario, base, source, table))
        scenario._held = MappingProxyType(held)
        scenario._places = MappingProxyType(dict(places or {}))
        return scenario

    @classmethod
    @checked("Scenario.from_excel", path=path_kind)  # text or a Path (netbenefit.io.arguments)
    def from_excel(cls, path: str | Path, scenario: int | None = None) -> Scenario:
        """The scenario of a workbook netbenefit wrote (:meth:`Result.to_excel`, ``compare``), as
        edited: rebuilt from its input cells and validated as a scenario file is
        (docs/workbook.md, "The round trip"). ``scenario``: which of a comparison workbook's
        scenarios (1, 2, ...); a workbook of one scenario needs none.

        Raises :class:`ScenarioError` naming the file, the cell and the key
        (``book.xlsx: Inputs!jobs_new (jobs.new): must be a number``)."""
        from .from_workbook import read_workbook  # openpyxl: deferred past start-up

        return read_workbook(path, scenario)

    @property
    def held_files(self) -> Mapping[str, tuple[str, str]]:
        """Files the scenario names held in memory in place of the files, by key: (where, text)."""
        return self._held

    def place(self, key: str) -> str:
        """Where the value of ``key`` was read, as a message names it: ``Inputs!jobs_new (jobs.new)``
        for a scenario read from a workbook, else the key itself."""
        return self._places.get(key, key)

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

        Streams read from CSV are given by their values (``by_year``); the keys the later phases
        share (``shared``) are written once, at the top level.
        """
        return without_shared(plain(self), self.shared)

    @checked("to_yaml", path=optional(output_file))  # netbenefit.io.arguments: a file in a folder that exists
    def to_yaml(self, path: str | Path | None = None) -> str | Path:
        """The scenario as a YAML scenario file that :func:`load_scenario` reads back to an equal
        scenario (every value, defaults included), from any folder. Streams read from CSV
        (``from_csv``) are written with their values inline (``by_year``); a multiplier table is
        named relative to the folder of ``path`` when it is inside it, else its multipliers are
        written inline (:mod:`netbenefit.model.round_trip`); a comment at the top of the file says so and
        names the file the scenario was read from, relative to the folder of ``path`` (the working
        folder for text). Whole numbers are written as integers (``new: 180``).

        Returns the text when ``path`` is None; otherwise writes the file atomically and returns
        its path (an OSError names the file).
        """
        target = None if path is None else Path(path).parent
        origin = relative_source(self.source, target)  # relative to the file written: never an absolute path
        lines = [f"# {self.name}: written by netbenefit from {origin}, every value, defaults included."]
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
        data, notes = yaml_data(self, target)  # a table's path, or its row
        if notes:
            lines.append("# Files named relative to the folder of this file, or their values written inline:")
            lines += [f"#   {note}" for note in notes]
        body = yaml.dump(data, Dumper=_ScenarioDumper, sort_keys=False, allow_unicode=True, width=100)
        comment = "\n".join(re.sub(r"[\n\r\x85\u2028\u2029]", " ", line) for line in lines)  # one line each
        text = comment + "\n" + body
        if path is None:
            return text

        return write_file(Path(path), lambda temporary: temporary.write_text(text, encoding="utf-8"))

    def __eq__(self, other: object) -> bool:
        """Equal when the validated values are: how a scenario was written (its file, its
        wording) and where values were read from (``from_csv``, ``revenue.multiplier_table``:
        provenance) are not part of what it is (:mod:`netbenefit.model.round_trip`)."""
        if not isinstance(other, Scenario):
            return NotImplemented
        if self.__dict__ == other.__dict__ and self._multipliers == other._multipliers:
            return True

        return equality_form(self) == equality_form(other)

    def __hash__(self) -> int:
        return equality_hash(self)

    @checked("Scenario.replace", changes=optional(mapping))  # any Mapping (netbenefit.io.arguments)
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
        written: dict[str, Any] | None = self.as_written
        # Values the scenario itself returns (a read-only mapping of years, a block, a tuple of
        # items) are given back as the plain data a file holds.
        changes = {key: plain(value) for key, value in {**(changes or {}), **keyword_changes}.items()}
        for key, value in changes.items():
            set_path(data, key, value, self.source)
            try:
                set_path(written, key, value, self.source)
            except ScenarioError:  # a path the author did not write: the values as validated
                written = None
        if changes and "name" not in changes:
            data["name"] = variant_name(self.name, changes)
            if written is not None:
                written["name"] = data["name"]
        held = self._held if at_path(data, "revenue.multiplier_table", None) == self._table() else None
        variant = Scenario.from_dict(data, source=self.source, base_dir=self.base_dir, held_files=held)
        if written is not None:
            variant._written = written

        variant._warned = self._warned
        if not quieted():  # a percent for a rate: a PlausibilityWarning, every line carried by each
            via = "given to Scenario.replace"
            lines: list[str] = []
            for key, value in changes.items():
                said = entered_warnings(key, [value], via=via, scenario=variant)
                if said and isinstance(value, int | float):  # warned once: evaluate does not say it again
                    variant._warned = variant._warned | {(key, float(value))}
                lines += said
            emit(tuple(lines), stacklevel=2)
        return variant

    @property
    def warned_values(self) -> frozenset[tuple[str, float]]:
        """The ``(dotted key, value)`` pairs :meth:`replace` gave a plausibility warning for (each
        value is warned about once: :func:`netbenefit.evaluate` does not warn of them again, and
        keeps their lines in ``Result.warnings``)."""
        return self._warned
    def _table(self) -> str | None:
        return self.revenue.multiplier_table if self.revenue is not None else None

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: the inputs as written, with their labels
        (:func:`netbenefit.views.notebook.scenario_html`)."""
        from ...views.notebook import scenario_html

        return scenario_html(self)

    def value_at(self, key: str) -> Any:
        """The value at a dotted key path (``jobs.new``, ``phases.0.award.annual_credit``)."""
        node = at_path(self, key)
        if node is MISSING:
            raise ScenarioError(self.source, key, "no such key in this scenario")
        return node


class _ScenarioDumper(yaml.SafeDumper):
    """PyYAML's SafeDumper, writing text with a line break double-quoted (escaped), so that it
    loads back unchanged (a plain or single-quoted scalar folds or normalises line breaks)."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = '"' if re.search(r"[\n\r\x85\u2028\u2029]", text) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_ScenarioDumper.add_representer(str, _represent_text)
