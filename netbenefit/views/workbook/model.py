"""What the workbook shows, gathered from a result: the inputs as rows, and the model behind a
cash-flow sheet (:mod:`netbenefit.views.workbook`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .layout import EFFECT_LABELS, STREAM_LABELS

if TYPE_CHECKING:
    from ...model.result import Result
    from ...model.scenario import Scenario

# ----------------------------------------------------------------------------------------------
# Inputs as rows
# ----------------------------------------------------------------------------------------------


def input_rows(scenario: Scenario) -> list[tuple[str, Any, bool]]:
    """Every input of ``scenario`` as (dotted key, value, given in the scenario), defaults included.

    Lists and year mappings are opened into one row per item; an empty list or mapping has no
    row; a value not given (None) has an empty value.
    """
    from pydantic import BaseModel

    rows: list[tuple[str, Any, bool]] = []

    def walk(node: Any, key: str, given: bool) -> None:
        if isinstance(node, BaseModel):
            for name in type(node).model_fields:
                walk(getattr(node, name), f"{key}.{name}" if key else name, given and name in node.model_fields_set)
        elif isinstance(node, Mapping):
            for item, value in node.items():
                walk(value, f"{key}.{item}", given)
        elif isinstance(node, list | tuple):
            for index, value in enumerate(node):
                walk(value, f"{key}.{index}", given)
        else:
            rows.append((key, node, given))

    walk(scenario, "", True)
    return rows


# ----------------------------------------------------------------------------------------------
# The model behind a cash-flow sheet
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetStream:
    label: str
    amounts: np.ndarray  # signed: revenues > 0, costs < 0 [USD, nominal]
    abated: bool
    name: str = ""  # the component's name (income_tax..., or the stream's own)
    source: str = ""  # operations | construction | explicit
    effect: str = "direct"  # direct | indirect_and_induced
    explicit_index: int | None = None  # j of the phase's streams.j, for a stream the scenario gives
    tax: str = "other"  # the tax the stream belongs to (netbenefit.taxes.TAXES)


@dataclass(frozen=True)
class SheetPhase:
    number: int
    name: str
    start_year: float  # [years after approval]
    first_credit_year: float
    commitment_period_years: float
    counted_extension_years: float
    streams: tuple[SheetStream, ...]
    credits: np.ndarray  # [USD, nominal]
    section_75: bool = False  # the award is built by the section 75 calculator


@dataclass(frozen=True)
class SheetModel:
    years: list[int]  # [project year]
    context: dict[str, np.ndarray]  # full_time_jobs, wages, capital_investment: all phases, by year
    phases: list[SheetPhase]


def cashflow_model(result: Result) -> SheetModel:
    """The years, the context columns and each phase's streams, credits and benefit window, from
    the model (:mod:`netbenefit.model.cashflows`)."""
    scenario, computation = result.scenario, result.computation
    n_years = len(computation.years)
    extension = float(result.extended_years) if result.extension_counted else 0.0
    awards = [scenario.award] + [phase.award for phase in scenario.phases]
    phases = []
    for flows, award in zip(computation.phases, awards, strict=True):
        streams = []
        explicit = 0
        for component in flows.components:
            sign = 1.0 if component.kind == "revenue" else -1.0
            label = STREAM_LABELS.get(component.name, component.name)
            if component.source != "explicit":
                label = f"{label}, {EFFECT_LABELS.get(component.effect, component.effect)}"
            amounts = sign * np.broadcast_to(component.values, (1, n_years))[0]
            index = None
            if component.source == "explicit":
                index, explicit = explicit, explicit + 1
            streams.append(
                SheetStream(
                    label,
                    amounts.astype(float),
                    bool(component.abated),
                    component.name,
                    component.source,
                    component.effect,
                    index,
                    component.tax,
                )
            )
        phases.append(
            SheetPhase(
                number=flows.number,
                name=flows.name,
                start_year=float(np.asarray(flows.start_year).reshape(-1)[0]),
                first_credit_year=float(award.first_credit_year),
                commitment_period_years=float(np.asarray(flows.commitment_period_years).reshape(-1)[0]),
                counted_extension_years=extension,
                streams=tuple(streams),
                credits=np.broadcast_to(flows.credits, (1, n_years))[0].astype(float),
                section_75=award.annual_credit is None and award.section_75 is not None,
            )
        )
    columns, rows = result.table_columns_and_rows("cashflows")  # the result's own totals over phases
    context = {
        name: np.array([row[columns.index(name)] for row in rows], dtype=float)
        for name in ("full_time_jobs", "wages", "capital_investment")
    }
    return SheetModel([int(year) for year in computation.years], context, phases)
