"""Which scenario keys may vary, and checks of the values given for them.

A *key* is a dotted path into a scenario (``jobs.new``, ``discount_rate``,
``capital_investment.2``, ``phases.0.award.annual_credit``). The constraints of a key are read
from the pydantic models of :mod:`netbenefit.model.scenario`, so a sweep or a Monte Carlo run accepts
exactly the values a scenario file would accept:

- a *number* key (``Money``, ``Count``, ``Share``, rates...) takes finite numbers within the
  bounds of its field (``ge``/``gt``/``le``/``lt``): shares in [0, 1], counts and amounts >= 0,
  the discount rate > -1, the earnings multiplier >= 1;
- an *integer* key (years: ``award.eligibility_period_years``, ``award.first_credit_year``,
  ``commitment.extended_years``, ``phases.0.start_year``) takes whole numbers within its bounds;
- a *flag* key takes booleans only.

A key must name a value the model reads: text, dates and choices (``name``, ``timing``,
``facility.portions.0.use``) are not numeric and cannot vary; a year of ``capital_investment`` or
of a stream must already be in the scenario; a block that the scenario leaves out (``revenue``
when it has none) cannot be varied either. Every problem raises
:class:`~netbenefit.errors.ScenarioError` naming the key.

The rule for the values (see :func:`check_values`): every value is checked against the field's
bounds and type, vectorised; then the smallest and the largest value (or, in a sweep, each
distinct value) is applied with :meth:`Scenario.replace`, so that the rules of the scenario
format that involve several keys also apply.
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union

import numpy as np
from pydantic import BaseModel

from ..errors import ScenarioError
from ..model.plausibility import quiet, warn_entered
from ..model.scenario import Scenario
from ..model.scenario.paths import at_path, key_label
from ..model.scenario.shared import tied_to

#: Keys whose values the model reads from the scenario object, never from variant arrays.
_NOT_VARIABLE_LEAVES = ("abated",)

#: A sweep applies each distinct value with Scenario.replace up to this many, else the extremes.
MAX_DISTINCT_REPLACED = 1_000  # not a statutory number: a limit on validation work
#: Bounds up to this are those of shares, rates and multiples, where a percent is the usual slip.
_RATE_SCALE = 10  # not a statutory number: the largest upper bound read as a share or rate
#: How :func:`check_values` treats numbers outside a key's valid range.
OUT_OF_RANGE = ("error", "clip")


class OutOfRangeError(ScenarioError):
    """Values outside a key's valid range (``out_of_range="error"``); ``"clip"`` would move them."""


#: What a Monte Carlo draw outside its key's range can do instead (the error's fix).
CLIP_HINT = (
    "; choose a distribution that stays inside the range, or clip such draws to the nearest valid value "
    "(--clip on the command line, out_of_range='clip' in Python)"
)


def drawn_values(
    scenario: Scenario, key: str, draws: np.ndarray, out_of_range: str = "error", checked: dict | None = None
) -> np.ndarray:
    """:func:`check_values` of Monte Carlo draws: a draw out of range names the fix, ``--clip``.
    ``checked`` (one dict for the chunks of a run) is :func:`check_values`'s."""
    try:
        return check_values(scenario, key, draws, out_of_range=out_of_range, checked=checked)
    except OutOfRangeError as error:
        raise OutOfRangeError(error.source, error.key, error.problem + CLIP_HINT) from None


@dataclass(frozen=True)
class KeySpec:
    """What a variable key accepts.

    Attributes
    ----------
    key : str
        The dotted key.
    kind : {"number", "integer", "flag"}
    lower, upper : float or None
        Bounds of the field (None: unbounded).
    lower_inclusive, upper_inclusive : bool
        Whether the bound itself is allowed (``ge``/``le``) or not (``gt``/``lt``).
    base : object
        The scenario's own value at the key (None when it is not given).
    """

    key: str
    kind: str
    lower: float | None
    lower_inclusive: bool
    upper: float | None
    upper_inclusive: bool
    base: Any

    def describe(self) -> str:
        """The valid range in words, e.g. ``a number >= 0 and <= 1``."""
        if self.kind == "flag":
            return "true or false"
        parts = []
        if self.lower is not None:
            parts.append(f"{'>=' if self.lower_inclusive else '>'} {self.lower:g}")
        if self.upper is not None:
            parts.append(f"{'<=' if self.upper_inclusive else '<'} {self.upper:g}")
        noun = "a whole number" if self.kind == "integer" else "a finite number"
        return noun + (" " + " and ".join(parts) if parts else "")


def _unwrap(annotation: Any, bounds: list) -> Any:
    """Strip Optional[...] and Annotated[...] from a type, collecting bound metadata."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            base, *metadata = typing.get_args(annotation)
            for item in metadata:
                bounds.extend(getattr(item, "metadata", None) or [item])
            annotation = base
        elif origin is Union or origin is types.UnionType:
            options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            blocks = [arg for arg in options if isinstance(arg, type) and issubclass(arg, BaseModel)]
            if len(options) != 1 and len(blocks) != 1:
                return annotation
            annotation = options[0] if len(options) == 1 else blocks[0]  # a choice or a block: the block
        else:
            return annotation


def _bounds(metadata: list) -> tuple[float | None, bool, float | None, bool]:
    lower = upper = None
    lower_inclusive = upper_inclusive = True
    for item in metadata:
        if getattr(item, "ge", None) is not None:
            lower, lower_inclusive = float(item.ge), True
        if getattr(item, "gt", None) is not None:
            lower, lower_inclusive = float(item.gt), False
        if getattr(item, "le", None) is not None:
            upper, upper_inclusive = float(item.le), True
        if getattr(item, "lt", None) is not None:
            upper, upper_inclusive = float(item.lt), False
    return lower, lower_inclusive, upper, upper_inclusive


#: Why a key inside a value that is a choice or a table (``commitment.recapture``: a rule's name
#: or a table of shares) cannot vary: the model reads the value whole, not from variant arrays.
_NOT_VARIABLE_CHOICE = (
    "cannot vary this key: {parent} is a choice of a rule or a table, read whole by the model; "
    "write each table as its own scenario file"
)


def key_spec(scenario: Scenario, key: str) -> KeySpec:
    """The type, bounds and base value of a variable key of ``scenario``.

    Raises
    ------
    ScenarioError
        Naming ``key`` when it is not in the scenario format, not in this scenario, not numeric,
        or not read by the model from variant arrays.
    """
    source = scenario.source
    if not isinstance(key, str) or not key:
        raise ScenarioError(source, str(key), "a key must be a dotted path such as jobs.new")
    tied = tied_to(scenario, key)
    if tied is not None:
        raise ScenarioError(
            source,
            key,
            f"{tied} is shared by every phase (shared: at the top level); vary {tied}, which moves every phase",
        )
    segments = key.split(".")
    annotation: Any = Scenario
    node: Any = scenario
    metadata: list = []
    for depth, segment in enumerate(segments):
        where = ".".join(segments[: depth + 1])
        metadata = []
        annotation = _unwrap(annotation, metadata)
        origin = typing.get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if segment not in annotation.model_fields:
                close = difflib.get_close_matches(segment, list(annotation.model_fields), n=1, cutoff=0.6)
                hint = f"; did you mean {'.'.join([*segments[:depth], close[0]])}?" if close else ""
                raise ScenarioError(source, key, f"unknown key {where!r} in the scenario format{hint}")
            if (node is None or not isinstance(node, BaseModel)) and segments[0] != "attestations":
                parent = ".".join(segments[:depth])
                raise ScenarioError(source, key, f"this scenario has no {parent!r} block, so {key!r} has no effect")
            field = annotation.model_fields[segment]
            metadata = list(field.metadata)
            annotation = field.annotation
            node = at_path(node, [segment], None)  # the one reader of a dotted key
        elif origin is tuple:
            if not segment.isdigit() or node is None or int(segment) >= len(node):
                size = 0 if node is None else len(node)
                parent = ".".join(segments[:depth])
                raise ScenarioError(source, key, f"no item {segment} in the list {parent} of {size}")
            annotation = typing.get_args(annotation)[0]
            node = at_path(node, [segment], None)  # the one reader of a dotted key
        elif origin is Union or origin is types.UnionType:  # a choice or a table (commitment.recapture)
            raise ScenarioError(source, key, _NOT_VARIABLE_CHOICE.format(parent=".".join(segments[:depth])))
        elif isinstance(origin, type) and issubclass(origin, Mapping):
            if not segment.isdigit() or node is None or int(segment) not in node:
                raise ScenarioError(
                    source,
                    key,
                    f"year {segment} is not in this scenario's {'.'.join(segments[:depth])}; "
                    "add it to the scenario file first",
                )
            annotation = typing.get_args(annotation)[1]
            node = at_path(node, [segment], None)  # the one reader of a dotted key
        else:
            raise ScenarioError(source, key, f"{'.'.join(segments[:depth])!r} is a value, not a block of keys")
    annotation = _unwrap(annotation, metadata)
    if annotation is bool:
        kind = "flag"
    elif annotation is int:
        kind = "integer"
    elif annotation is float:
        kind = "number"
    else:
        origin = typing.get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            what = "a block of keys"
        elif origin is Literal:
            what = "a choice of text values"
        elif origin is tuple:
            what = "a list; vary its items, e.g. " + key + ".0"
        elif origin is Union or origin is types.UnionType:
            raise ScenarioError(source, key, _NOT_VARIABLE_CHOICE.format(parent=key))
        elif isinstance(origin, type) and issubclass(origin, Mapping):
            what = "a mapping of years; vary one year, e.g. " + key + ".1"
        else:
            what = "text or a date"
        raise ScenarioError(source, key, f"cannot vary this key: it is not numeric ({what})")
    if segments[-1] in _NOT_VARIABLE_LEAVES and "streams" in segments:
        raise ScenarioError(source, key, "cannot vary this key: whether a stream is abated is fixed by the scenario")
    return KeySpec(key, kind, *_bounds(metadata), base=node)


def _as_array(spec: KeySpec, values: Any, source: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim == 0:
        array = array.reshape(1)
    if array.ndim != 1:
        raise ScenarioError(source, spec.key, "variant values must be a flat list or a one-dimensional array")
    if array.size == 0:
        raise ScenarioError(source, spec.key, "no values given")
    if spec.kind == "flag":
        if array.dtype != bool:
            raise ScenarioError(source, spec.key, f"a flag takes true or false, not {array.dtype.name} values")
        return array
    if array.dtype == bool or array.dtype.kind not in "iuf":
        raise ScenarioError(source, spec.key, f"takes numbers, not {array.dtype.name} values")
    return array.astype(float, copy=False)


def _first_bad(array: np.ndarray, bad: np.ndarray) -> str:
    count = int(np.count_nonzero(bad))
    first = array[np.argmax(bad)]
    shown = repr(bool(first)) if array.dtype == bool else f"{float(first):.10g}"
    return f"{count:,} of {array.size:,} value{'s' if array.size > 1 else ''} not valid (first {shown})"


def check_values(
    scenario: Scenario,
    key: str,
    values: Any,
    *,
    out_of_range: str = "error",
    replace: str = "extremes",
    checked: dict | None = None,
    via: str | None = None,
) -> np.ndarray:
    """Validate (or clip) the values given for one key; return them as a flat array.

    Parameters
    ----------
    scenario : Scenario
    key : str
        A dotted key (see :func:`key_spec`).
    values : array_like
        One value per variant: numbers for a number or integer key, booleans for a flag.
    out_of_range : {"error", "clip"}
        ``error`` (default): a value outside the key's valid range raises. ``clip``: numbers are
        moved to the nearest valid value (the bound itself for ``>=``/``<=``, the next
        representable number inside it for ``>``/``<``), and an integer key's values are rounded
        to whole numbers. NaN and infinity always raise.
    replace : {"extremes", "distinct"}
        Which values are then applied with :meth:`Scenario.replace` to check the rules that
        involve several keys: the smallest and largest (``extremes``) or each distinct value
        (``distinct``, used by sweeps; the extremes when there are more than
        :data:`MAX_DISTINCT_REPLACED`).
    checked : dict, optional
        With ``extremes``, the smallest and largest value already applied to each key of one run
        (``key -> (low, high)``), kept up to date here: values between them are not applied again.
        Checking only the extremes of a batch already reads a key valid at two values as valid
        between them; a run in chunks reads its chunks the same way, and a chunk within the
        values checked before needs no :meth:`Scenario.replace` (docs/analysis.md counts them).
    via : str, optional
        How the values were given by hand (``"given to sweep"``): each distinct value outside its
        plausible range is then a :class:`~netbenefit.model.plausibility.PlausibilityWarning` with the
        likely fix, before any computation. None for values the package makes (draws, probes).

    Returns
    -------
    ndarray
        Float values (bool for a flag), shape ``(n,)``.

    Raises
    ------
    ScenarioError
        Naming the key, with the number of bad values and the first one.
    """
    if out_of_range not in OUT_OF_RANGE:
        raise ValueError(f"out_of_range must be one of {OUT_OF_RANGE}, not {out_of_range!r}")
    spec = key_spec(scenario, key)
    source = scenario.source
    array = _as_array(spec, values, source)
    if spec.kind != "flag":
        finite = np.isfinite(array)
        if not finite.all():
            raise ScenarioError(source, key, f"must be finite numbers: {_first_bad(array, ~finite)}")
        if out_of_range == "clip":
            array = _clip(spec, array)
        else:
            bad = np.zeros(array.shape, dtype=bool)
            if spec.lower is not None:
                bad |= (array < spec.lower) if spec.lower_inclusive else (array <= spec.lower)
            if spec.upper is not None:
                bad |= (array > spec.upper) if spec.upper_inclusive else (array >= spec.upper)
            if spec.kind == "integer":
                bad |= array != np.round(array)
            if bad.any():
                problem = f"must be {spec.describe()}: {_first_bad(array, bad)}{_percent_hint(spec, array[bad])}"
                raise OutOfRangeError(source, key, problem)
    if via is not None and spec.kind == "number":
        given = np.unique(array)
        warn_entered(key, given if given.size <= MAX_DISTINCT_REPLACED else given[[0, -1]], via=via, scenario=scenario)
    bounds = None  # the smallest and largest value applied, when only the extremes are
    if (replace == "distinct" and np.unique(array).size <= MAX_DISTINCT_REPLACED) or spec.kind == "flag":
        probes = np.unique(array)
    else:
        bounds = float(array.min()), float(array.max())
        probes = np.unique(bounds)
        known = checked.get(key) if checked is not None else None
        if known is not None:
            probes = probes[(probes < known[0]) | (probes > known[1])]
            bounds = min(bounds[0], known[0]), max(bounds[1], known[1])
    for value in probes:
        _check_with_replace(scenario, spec, value)
    if checked is not None and bounds is not None:
        checked[key] = bounds
    return array


def _percent_hint(spec: KeySpec, bad: np.ndarray) -> str:
    """``"; did you mean 0.45?"`` for a share or rate above its bound that is a percent (45 for 0.45)."""
    first = float(bad[0])
    if spec.kind != "number" or spec.upper is None or spec.upper > _RATE_SCALE or first <= spec.upper:
        return ""
    fixed = first / 100
    inside = fixed <= spec.upper if spec.upper_inclusive else fixed < spec.upper
    return f"; did you mean {fixed:.10g}? (a percent written for a decimal)" if inside else ""


def _clip(spec: KeySpec, array: np.ndarray) -> np.ndarray:
    if spec.kind == "integer":
        array = np.round(array)
    if spec.lower is not None:
        lowest = spec.lower if spec.lower_inclusive else np.nextafter(spec.lower, np.inf)
        if spec.kind == "integer" and not spec.lower_inclusive:
            lowest = np.floor(spec.lower) + 1.0
        array = np.maximum(array, lowest)
    if spec.upper is not None:
        highest = spec.upper if spec.upper_inclusive else np.nextafter(spec.upper, -np.inf)
        if spec.kind == "integer" and not spec.upper_inclusive:
            highest = np.ceil(spec.upper) - 1.0
        array = np.minimum(array, highest)
    return array


def _python_value(spec: KeySpec, value: Any) -> Any:
    if spec.kind == "flag":
        return bool(value)
    if spec.kind == "integer":
        return int(value)
    return float(value)


def _check_with_replace(scenario: Scenario, spec: KeySpec, value: Any) -> None:
    shown = _python_value(spec, value)
    try:
        with quiet():  # the values given by hand are checked by check_values; draws and probes are not
            scenario.replace({spec.key: shown})
    except ScenarioError as error:
        where = f"{error.key}: " if error.key and error.key != spec.key else ""
        problem = f"the value {shown!r} is not valid ({where}{error.problem})"
        raise ScenarioError(scenario.source, spec.key, problem) from None


def table_values(scenario: Scenario, key: str, values: np.ndarray) -> np.ndarray:
    """Checked values as a result table shows them: whole-number keys as integers."""
    return values.astype(np.int64) if key_spec(scenario, key).kind == "integer" else values


def check_overrides(
    scenario: Scenario, overrides: Mapping[str, Any], *, out_of_range: str = "error", replace: str = "extremes"
) -> dict[str, np.ndarray]:
    """Validate every key and its values (see :func:`check_values`); all arrays of one length.

    Returns
    -------
    dict of key -> ndarray
        Ready for :func:`netbenefit.model.cashflows.compute`.
    """
    checked = {
        key: check_values(scenario, key, values, out_of_range=out_of_range, replace=replace)
        for key, values in overrides.items()
    }
    sizes = {key: array.shape[0] for key, array in checked.items()}
    if len(set(sizes.values())) > 1:
        raise ScenarioError(scenario.source, "", f"variant arrays differ in length: {sizes}")
    return checked


# ----------------------------------------------------------------------------------------------
# Keys in words, with their phase (netbenefit.model.scenario.paths); counts of jobs in whole jobs
# ----------------------------------------------------------------------------------------------

#: Counts of jobs: where a key is stepped (a slider, a sensitivity's relative move) it moves in whole jobs.
_JOB_COUNT = re.compile(
    r"^((phases\.\d+\.)?jobs\.(new|retained)|business\.(full_time_employees_at_application|retained_jobs_at_application))$"
)
def whole_jobs(key: str) -> bool:
    """Whether ``key`` is a count of jobs (``jobs.new``, ``jobs.retained``, a phase's, the
    business's workforce), which a stepped key moves in whole jobs."""
    return bool(_JOB_COUNT.match(key))


def moves_in_whole_steps(scenario: Scenario, key: str) -> bool:
    """Whether ``key`` moves in whole steps: a whole-number key, or a count of jobs (``jobs.new``
    moves in whole jobs), as a sensitivity's ends and the explorer's sliders do."""
    return whole_jobs(key) or key_spec(scenario, key).kind == "integer"


def whole_steps(scenario: Scenario, key: str, values: list[float]) -> list[float]:
    """``values`` of ``key`` as a stepped key takes them: whole numbers where it
    :func:`moves_in_whole_steps`, as given otherwise."""
    if moves_in_whole_steps(scenario, key):
        return [float(round(value)) for value in values]
    return values


def key_labels(scenario: Scenario, keys: Iterable[str]) -> dict[str, str]:
    """:func:`key_label` of each key, for an analysis result to carry (``attrs["key_labels"]``)."""
    return {key: key_label(scenario, key) for key in keys}
