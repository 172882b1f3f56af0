"""A scenario written back as a file (``Scenario.to_yaml``) reads back to an equal scenario, from
any folder; and what equality compares.

Two scenarios are equal when the model reads the same values from them. Where a value was read
from a file is provenance, not part of what the scenario is: a stream's ``from_csv`` (its values
are ``by_year``) and ``revenue.multiplier_table`` (the multipliers it supplies for
``business.naics`` are the values; the file is where they came from). So a stream written inline
equals the stream read from CSV, and multipliers written as ``revenue.earnings_multiplier``...
equal the same multipliers read from a table.

``to_yaml`` writes every value. Streams read from CSV are written inline. A multiplier table is
named by its path relative to the folder of the file written, when it is inside that folder (the
rule of every file a scenario names: netbenefit.io.named_files); otherwise (or when the table is
held in memory, read back from a workbook's sheet) its multipliers are written inline as the
scalar keys, so that the file reads back from any folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: The scalar keys of ``revenue`` that a multiplier table's columns stand for.
TABLE_KEYS = ("earnings_multiplier", "employment_multiplier", "construction_earnings_multiplier")


def equality_form(scenario) -> dict[str, Any]:
    """The values of ``scenario`` that equality compares: :meth:`Scenario.to_dict` (streams by
    their values), with a multiplier table's row in place of the table's name."""
    data = scenario.to_dict()
    table = scenario.multipliers
    if table is not None:
        data["revenue"] = {**data["revenue"], "multiplier_table": None, **{k: table[k] for k in TABLE_KEYS}}
    return data


def equality_hash(scenario) -> int:
    """A hash agreeing with equality (:func:`equality_form`)."""
    return hash(json.dumps(equality_form(scenario), sort_keys=True, default=str))


#: Whole numbers up to this are written as integers (``new: 180``); a float holds each exactly.
_EXACT_INTEGERS = 2**53  # not a statutory number: the largest run of integers a float holds exactly


def whole_numbers(value: Any) -> Any:
    """``value`` (plain data) with each float that is a whole number written as an integer
    (``180.0`` as ``180``): every number key reads an integer back as the same number."""
    if isinstance(value, float) and value.is_integer() and abs(value) < _EXACT_INTEGERS:
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    return value


def relative_source(source: str, target: Path | None) -> str:
    """The file a scenario was read from, as a header names it: relative to the folder of the file
    written (``target``; None: the working folder), never an absolute path; ``<dict>`` as it is."""
    if source.startswith("<"):
        return source
    start = Path(target) if target is not None else Path.cwd()
    try:
        return Path(os.path.relpath(os.path.abspath(source), os.path.abspath(start))).as_posix()
    except ValueError:  # another drive (Windows): the file's name
        return Path(source).name


def yaml_data(scenario, target: Path | None) -> tuple[dict[str, Any], list[str]]:
    """``(data, notes)``: the plain data ``to_yaml`` writes for a file in the folder ``target``
    (None: text for no known folder), and the comment lines saying what was rewritten. Whole
    numbers are integers (:func:`whole_numbers`)."""
    data, notes = _yaml_data(scenario, target)
    return whole_numbers(data), notes


def _yaml_data(scenario, target: Path | None) -> tuple[dict[str, Any], list[str]]:
    data = scenario.to_dict()
    notes: list[str] = []
    revenue = scenario.revenue
    if revenue is None or revenue.multiplier_table is None:
        return data, notes
    table = Path(os.path.realpath(scenario.base_dir / revenue.multiplier_table))
    if target is not None and "revenue.multiplier_table" not in scenario.held_files:  # (held: no file to name)
        folder = Path(os.path.realpath(target))
        if table.is_relative_to(folder):
            relative = table.relative_to(folder).as_posix()
            data["revenue"] = {**data["revenue"], "multiplier_table": relative}
            if relative != revenue.multiplier_table:
                notes.append(f"revenue.multiplier_table: {revenue.multiplier_table}, relative to this file's folder")
            return data, notes
    row = scenario.multipliers
    data["revenue"] = {**data["revenue"], "multiplier_table": None, **{k: row[k] for k in TABLE_KEYS}}
    notes.append(
        f"revenue.multiplier_table ({revenue.multiplier_table}): the multipliers of NAICS {row['naics']} "
        "written inline (earnings_multiplier, employment_multiplier, construction_earnings_multiplier)"
    )
    return data, notes
