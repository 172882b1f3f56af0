"""Scenario files: loading, validation and the typed, immutable scenario.

A scenario is one YAML file in the v1 format (docs/scenario-format.md). It is read with a
safe loader that also rejects duplicate keys, validated field by field, and returned as a frozen
:class:`Scenario`. Every problem raises :class:`~netbenefit.errors.ScenarioError`, whose one-line
message names the file, the dotted key path and the problem.

The parts, each importing only those listed before it:

- :mod:`~netbenefit.model.scenario.limits`: every bound on a scenario file (years, file size, YAML depth
  and expansion, problems listed);
- :mod:`~netbenefit.model.scenario.fields`: the field types (amounts, shares, names, years) and ``Block``;
- :mod:`~netbenefit.model.scenario.problems`: how a validation problem reads, one line each;
- :mod:`~netbenefit.model.scenario.blocks`: the blocks of the v1 format (business, jobs, award, ...);
- :mod:`~netbenefit.model.scenario.csv_files`: the CSV files a scenario names (streams, multiplier table);
- :mod:`~netbenefit.model.scenario.rules`: the rules that involve more than one key;
- :mod:`~netbenefit.model.scenario.paths`: plain data and dotted key paths, a variant's name;
- :mod:`~netbenefit.model.scenario.format`: :class:`Scenario`, the top level;
- :mod:`~netbenefit.model.scenario.loading`: reading a file (:func:`load_scenario`, :func:`read_yaml`).

Every name is importable from ``netbenefit.model.scenario`` itself.
"""

from __future__ import annotations

from .blocks import (
    Attestations,
    Award,
    Bonus,
    Business,
    Commitment,
    Exemption,
    Facility,
    FilingStatus,
    IncomeTax,
    Jobs,
    Location,
    Phase,
    PhaseCommitment,
    PhaseFacility,
    Portion,
    PortionUse,
    PortionWork,
    PrevailingWage,
    QualifyingChildren,
    Readings,
    RecaptureInterest,
    RecaptureRule,
    RecaptureTable,
    Revenue,
    Section75,
    Stream,
)
from .csv_files import MULTIPLIER_COLUMNS, read_multiplier_table, read_stream_csv
from .fields import AmountYear, Block, ByYear, Count, Flag, Items, Money, Name, Share, Text, YearCount, YearKey
from .format import Scenario
from .limits import MAX_FILE_BYTES, MAX_PROBLEMS_LISTED, MAX_YAML_DEPTH, MAX_YAML_NODES, MAX_YEARS
from .loading import load_scenario, read_text_file, read_yaml
from .paths import variant_name
from .problems import scenario_error

#: The names these had before they were public (kept for code that imports them).

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_PROBLEMS_LISTED",
    "MAX_YAML_DEPTH",
    "MAX_YAML_NODES",
    "MAX_YEARS",
    "MULTIPLIER_COLUMNS",
    "AmountYear",
    "Attestations",
    "Award",
    "Block",
    "Bonus",
    "Business",
    "ByYear",
    "Commitment",
    "Count",
    "Exemption",
    "Facility",
    "FilingStatus",
    "Flag",
    "IncomeTax",
    "Items",
    "Jobs",
    "Location",
    "Money",
    "Name",
    "Phase",
    "PhaseCommitment",
    "PhaseFacility",
    "Portion",
    "PortionUse",
    "PortionWork",
    "PrevailingWage",
    "QualifyingChildren",
    "Readings",
    "RecaptureInterest",
    "RecaptureRule",
    "RecaptureTable",
    "Revenue",
    "Scenario",
    "Section75",
    "Share",
    "Stream",
    "Text",
    "YearCount",
    "YearKey",
    "load_scenario",
    "read_multiplier_table",
    "read_stream_csv",
    "read_text_file",
    "read_yaml",
    "scenario_error",
    "variant_name",
]
