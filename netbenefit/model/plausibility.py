"""Plausibility warnings: valid inputs that are probably a slip (a percent written for a decimal).

The ranges are data (``netbenefit/law/parameters/ranges/plausibility.yaml``), each with its reason
and the likely fix. A value outside its range passes validation and is evaluated as given;
:func:`netbenefit.evaluate` puts one line per such value in ``Result.warnings`` and emits it with
:func:`warnings.warn` as a :class:`PlausibilityWarning`. The command line prints each as
``netbenefit: warning: ...`` on stderr, and ``--strict`` turns them into errors (exit 2).

Values typed by hand outside a file are checked by the same ranges, through one function,
:func:`warn_entered`: the values of ``sweep`` (``--set``) and ``sensitivity`` (in
:func:`netbenefit.analysis.keys.check_values`), the bounds, modes, means, medians and listed values
of a Monte Carlo distribution (``--vary``, :mod:`netbenefit.analysis.entered`), the changes given
to :meth:`Scenario.replace`, and the bounds of the rates a solver searches. Each is checked before
any computation, so that ``--strict`` refuses it with exit 2 before any work.

>>> plausibility_warnings(scenario.replace({"discount_rate": 6}))  # doctest: +SKIP
('office.yaml: discount_rate: 6 is implausible (above 0.25: ...); did you mean 0.06? (a percent ...)',)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..errors import printable
from ..law.parameters import parameter, parse_data_yaml
from .scenario.paths import at_path

if TYPE_CHECKING:  # for annotations only: the scenario package imports this module
    from .scenario import Scenario

RANGES_FILE = "ranges/plausibility.yaml"
MEASURES = ("value", "per_job")
FIXES = {
    "divide_by_100": "a percent written for a decimal",
    "multiply_by_1000": "an amount written in thousands of dollars",
    "decimal_point": "a misplaced decimal point",
    "divide_by_1000": "an amount with three zeros too many",
    "none": "",
}
_FIELDS = {
    "keys",
    "measure",
    "low",
    "high",
    "high_parameters",
    "fix",
    "fix_at_least",
    "fix_at_least_parameter",
    "source",
    "reason",
}
THOUSAND = 1000  # not a statutory number: dollars in a thousand (the scale of the usual slips)
_MAX_SCALING_STEPS = 6  # not a statutory number: a fix divides by 10 (or 1,000) at most this often


class PlausibilityWarning(UserWarning):
    """A valid input outside its plausible range (``netbenefit/law/parameters/ranges/plausibility.yaml``).

    ``str(warning)`` is one line: ``file: key: value is implausible (...); did you mean ...?``.
    ``lines`` holds every warning of the same scenario (this one included), so that a caller that
    turns warnings into errors (``warnings.simplefilter("error", PlausibilityWarning)``) can
    report them all.
    """

    def __init__(self, message: str, lines: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.lines = lines or (message,)


@dataclass(frozen=True)
class PlausibleRange:
    """One entry of the ranges file: which keys, which measure, the range, the fix, the reason."""

    name: str
    keys: tuple[str, ...]
    measure: str
    low: float | None
    high: float | None
    fix: str
    fix_at_least: float | None
    source: str
    reason: str

    def outside(self, value: float) -> bool:
        """Whether ``value`` is below ``low`` or above ``high`` (a value at a bound is plausible)."""
        return (self.low is not None and value < self.low) or (self.high is not None and value > self.high)

    def bound_text(self) -> str:
        if self.low is not None and self.high is not None:
            return f"outside {reader_number(self.low)} to {reader_number(self.high)}"
        return f"below {reader_number(self.low)}" if self.low is not None else f"above {reader_number(self.high)}"


def _load_ranges() -> tuple[PlausibleRange, ...]:
    text = resources.files("netbenefit.law.parameters").joinpath(RANGES_FILE).read_text(encoding="utf-8")
    raw = parse_data_yaml(text)  # libyaml's parser where installed; no name given twice
    ranges = []
    for name, entry in raw.items():
        unknown = set(entry) - _FIELDS
        if unknown or entry.get("measure") not in MEASURES or entry.get("fix") not in FIXES:
            raise RuntimeError(f"{RANGES_FILE}: {name}: unknown fields {sorted(unknown)}, measure or fix")
        if entry.get("source") != "convention" or not entry.get("reason") or not entry.get("keys"):
            raise RuntimeError(f"{RANGES_FILE}: {name}: needs keys, a reason and source: convention")
        high = entry.get("high")
        if "high_parameters" in entry:
            high = sum(float(parameter(cited)) for cited in entry["high_parameters"])
        low = entry.get("low")
        if low is None and high is None:
            raise RuntimeError(f"{RANGES_FILE}: {name}: give low, high or high_parameters")
        ranges.append(
            PlausibleRange(
                name=name,
                keys=tuple(entry["keys"]),
                measure=entry["measure"],
                low=None if low is None else float(low),
                high=None if high is None else float(high),
                fix=entry["fix"],
                fix_at_least=_fix_at_least(entry),
                source=entry["source"],
                reason=" ".join(str(entry["reason"]).split()),
            )
        )
    return tuple(ranges)


def _fix_at_least(entry: dict) -> float | None:
    if "fix_at_least_parameter" in entry:
        return float(parameter(entry["fix_at_least_parameter"]))
    return None if entry.get("fix_at_least") is None else float(entry["fix_at_least"])


#: Every plausible range, in the order of the ranges file.
RANGES: tuple[PlausibleRange, ...] = _load_ranges()


def plausibility_warnings(scenario: Scenario) -> tuple[str, ...]:
    """One line per input of ``scenario`` outside its plausible range (empty when none is).

    Each line names the file, the dotted key, the value, the range and its reason, and the likely
    fix (``did you mean 0.06?``). Keys the scenario does not give (or does not know, such as a
    key of a later format) are skipped.
    """
    return tuple(line for _, _, line in _findings(scenario)) + _table_warnings(scenario)


def _findings(scenario: Scenario) -> list[tuple[str, float, str]]:
    """``(dotted key, value, line)`` of each input of ``scenario`` outside its plausible range."""
    data = scenario  # read through its attributes: no plain copy is made
    found = []
    for plausible in RANGES:
        for pattern in plausible.keys:
            for key, value, jobs in _values(data, pattern, plausible.measure):
                measured = value / jobs if plausible.measure == "per_job" else value
                if plausible.outside(measured):
                    where = scenario.place(key)  # the key, or the cell of a workbook read back
                    found.append((key, value, _message(scenario.source, where, value, measured, jobs, plausible)))
    return found


def _table_warnings(scenario: Scenario) -> tuple[str, ...]:
    """The multipliers a ``revenue.multiplier_table`` supplies, held to the ranges of the scalar
    keys they stand for (``revenue.earnings_multiplier``...): one line each outside its range."""
    table = getattr(scenario, "multipliers", None)
    if not table:
        return ()
    lines = []
    for plausible in RANGES:
        for pattern in plausible.keys:
            column = pattern.removeprefix("revenue.")
            value = table.get(column) if pattern.startswith("revenue.") else None
            if isinstance(value, float) and plausible.outside(value):
                label = f"revenue.multiplier_table: {column} of NAICS {table.get('naics')}"
                lines.append(_message(scenario.source, label, value, value, 1.0, plausible))
    return tuple(lines)


def warn_if_implausible(scenario: Scenario, *, stacklevel: int = 2) -> tuple[str, ...]:
    """Emit each plausibility warning of ``scenario`` with :func:`warnings.warn`; return them all.

    A value already warned about as it was given (:meth:`Scenario.replace` warns of the values it
    is given, and records them in ``scenario.warned_values``) is not warned about again: each
    value is offered its warning once. The lines returned (``Result.warnings``) hold them all."""
    lines = plausibility_warnings(scenario)
    warned: frozenset[tuple[str, float]] = getattr(scenario, "warned_values", frozenset())
    already = {line for key, value, line in _findings(scenario) if (key, value) in warned}
    for line in lines:
        if line not in already:
            warnings.warn(PlausibilityWarning(line, lines), stacklevel=stacklevel + 1)
    return lines


#: Set inside :func:`quiet`: values entered by the package itself, already checked, warn no more.
_QUIET: ContextVar[bool] = ContextVar("netbenefit_plausibility_quiet", default=False)
#: Distinct values of one key checked one by one; beyond, the smallest and the largest.
_MAX_VALUES_CHECKED = 1_000  # not a statutory number: a bound on the work of a check


@contextmanager
def quiet() -> Iterator[None]:
    """No warnings of :func:`warn_entered` inside: for values the package itself passes on
    (a Monte Carlo draw, a solver's probe, a check of a value already warned about)."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


def quieted() -> bool:
    """Whether inside :func:`quiet`."""
    return _QUIET.get()


def _key_matches(pattern: str, key: str) -> bool:
    """Whether a dotted ``key`` matches a ranges file pattern ("*": any list item)."""
    wanted, given = pattern.split("."), key.split(".")
    return len(wanted) == len(given) and all(
        w == g or (w == "*" and g.isdigit()) for w, g in zip(wanted, given, strict=True)
    )


def entered_warnings(
    key: str, values: Iterable[Any], *, via: str, scenario: Scenario | None = None, source: str | None = None
) -> tuple[str, ...]:
    """One line per value given for ``key`` by hand (a sweep, a distribution, a solver's range,
    :meth:`Scenario.replace`) outside its plausible range, with the likely fix.

    ``via`` says how the value entered (``"given to sweep"``, ``"the mean of normal(6, 0.5)"``);
    ``scenario`` gives the file's name and, for a per-job range, the jobs of the key's phase.
    """
    source = source or (scenario.source if scenario is not None else "<input>")
    numbers = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float) and not hasattr(value, "__float__"):
            continue
        number = float(value)
        if math.isfinite(number) and number not in numbers:
            numbers.append(number)
    if len(numbers) > _MAX_VALUES_CHECKED:
        numbers = [min(numbers), max(numbers)]
    lines = []
    for plausible in RANGES:
        if not any(_key_matches(pattern, key) for pattern in plausible.keys):
            continue
        jobs = 1.0
        if plausible.measure == "per_job":
            block = at_path(scenario, key.split(".")[:-2] + ["jobs"], None) if scenario is not None else None
            jobs = float(at_path(block, "new", None) or 0) + float(at_path(block, "retained", None) or 0)
            if jobs <= 0:
                continue
        for number in numbers:
            measured = number / jobs if plausible.measure == "per_job" else number
            if plausible.outside(measured):
                lines.append(_message(source, key, number, measured, jobs, plausible, via))
    return tuple(lines)


def warn_entered(
    key: str,
    values: Iterable[Any],
    *,
    via: str,
    scenario: Scenario | None = None,
    source: str | None = None,
    stacklevel: int = 2,
) -> tuple[str, ...]:
    """Emit :func:`entered_warnings` as :class:`PlausibilityWarning` (nothing inside :func:`quiet`).

    The one check of a value typed by hand, whatever the way it enters: ``sweep`` and
    ``sensitivity`` (through :func:`netbenefit.analysis.keys.check_values`), a Monte Carlo
    distribution's bounds, means and medians, :meth:`Scenario.replace`, and the range a solver
    searches. Under ``warnings.simplefilter("error")`` (``--strict``) the first raises, before any
    computation.
    """
    if _QUIET.get():
        return ()
    lines = entered_warnings(key, values, via=via, scenario=scenario, source=source)
    return emit(lines, stacklevel=stacklevel + 1)


def emit(lines: tuple[str, ...], *, stacklevel: int = 2) -> tuple[str, ...]:
    """Each line as a :class:`PlausibilityWarning` that carries them all (``--strict`` lists all)."""
    for line in lines:
        warnings.warn(PlausibilityWarning(line, lines), stacklevel=stacklevel + 1)
    return lines


def _values(data: Scenario | Mapping[str, Any], pattern: str, measure: str) -> Iterator[tuple[str, float, float]]:
    """``(dotted key, value, jobs)`` for each numeric value matching ``pattern`` ("*": any list item).

    ``jobs`` is 1, or for a per-job measure the new plus retained full-time jobs of the phase the
    key belongs to (the ``jobs`` block beside its ``award`` block).
    """
    for key, value in _walk(data, pattern.split("."), []):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            continue
        jobs = 1.0
        if measure == "per_job":
            block = at_path(data, key.split(".")[:-2] + ["jobs"], None)
            jobs = float(at_path(block, "new", None) or 0) + float(at_path(block, "retained", None) or 0)
            if jobs <= 0:
                continue
        yield key, float(value), jobs


def _walk(node: Any, segments: list[str], done: list[str]) -> Iterator[tuple[str, Any]]:
    if not segments:
        yield ".".join(done), node
        return
    head, rest = segments[0], segments[1:]
    if head == "*":
        if isinstance(node, list | tuple):
            for i, item in enumerate(node):
                yield from _walk(item, rest, [*done, str(i)])
    else:
        value = at_path(node, [head], None)
        if value is not None:
            yield from _walk(value, rest, [*done, head])


def _message(
    source: str, key: str, value: float, measured: float, jobs: float, plausible: PlausibleRange, via: str = ""
) -> str:
    given = f"{reader_number(value)} ({via})" if via else reader_number(value)
    if plausible.measure == "per_job":
        what = f"{given} a year for {reader_number(jobs)} jobs is {reader_number(measured)} a job, which is implausible"
    else:
        what = f"{given} is implausible"
    text = f"{source}: {key}: {what} ({plausible.bound_text()}: {plausible.reason})"
    suggestion = _suggestion(value, jobs, plausible)
    if suggestion is not None:
        text += f"; did you mean {reader_number(suggestion)}? ({FIXES[plausible.fix]})"
    return printable(text)


def _suggestion(value: float, jobs: float, plausible: PlausibleRange) -> float | None:
    """The value the likely fix gives, if it falls inside the range and is a value the user could
    have meant; else None. A percent written for a decimal is a number of 1 or more (``30`` for
    0.30): a value already below 1 is a decimal, and dividing it by 100 (0.3 to 0.003, 0.3% for a
    rate of 30%) names nothing the user meant."""
    fix = plausible.fix
    if fix == "none":
        return None
    if fix == "divide_by_100":
        if abs(value) < 1:  # already a decimal (0.3 for 30%): a smaller decimal is not what was meant
            return None
        candidates = [value / 100]
    elif fix == "multiply_by_1000":
        candidates = [value * THOUSAND]
    else:
        step = 10.0 if fix == "decimal_point" else float(THOUSAND)
        candidates = [value / step**k for k in range(1, _MAX_SCALING_STEPS + 1)]
    for candidate in candidates:
        measured = candidate / jobs if plausible.measure == "per_job" else candidate
        if not plausible.outside(measured):
            low = plausible.fix_at_least
            return candidate if low is None or measured >= low else None
    return None


def reader_number(value: float) -> str:
    """A number as a reader writes it: 0.06, 1.65, 98,000, 950,000,000."""
    if not math.isfinite(value):  # a per-job amount over a vanishing number of jobs
        return f"{value:g}"
    if value == int(value) and abs(value) >= THOUSAND:
        return f"{value:,.0f}"
    if abs(value) >= THOUSAND:
        return f"{value:,.2f}"
    return f"{value:.10g}"
