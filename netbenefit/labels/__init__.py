"""Human labels with units for every scenario key and every result column, and the formatters.

One table, :data:`LABELS`, read by the charts, the HTML report, the workbook and the command
line, so that a key has the same words everywhere; its scenario keys come from
:data:`SCENARIO_KEYS` (:mod:`netbenefit.labels.table`), which holds beside each key's label and unit
the wording and number format of the workbook's Inputs sheet. Scenario keys are dotted paths without their
list positions (``facility.portions.gross_leasable_area_sqft``); :func:`label` accepts the full
path of one value (``facility.portions.0.gross_leasable_area_sqft``, ``phases.1.jobs.new``,
``capital_investment.3``) and names the item, the phase or the year.

Formatters: :func:`money` (``$1.1M``, ``$250K``), :func:`money_exact` (``$1,234,567``),
:func:`share` (a decimal share, 0.075 -> ``7.5%``), :func:`ratio` (a net benefit ratio, 4.92 ->
``492%``, as the statute states its thresholds), :func:`years` and :func:`value` (a value of a
key, formatted by its unit).

The words floor, below every other (every floor may use words): labels, units, formatters, the
workbook's number formats, the names of the tests. May import: the standard library; nothing of
netbenefit. A wording that states what a rule decided takes the rule's record as an argument
(:func:`compared`, :func:`net_benefit_headline`); no label reads a parameter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .after_approval import AFTER_APPROVAL_LABELS
from .columns import CASHFLOW_LABELS, RESULT_LABELS, TAX_LABELS
from .table import SCENARIO_KEYS, SCENARIO_LABELS, SPOKEN_UNITS, WORKBOOK_LABELS, Label, WorkbookLabel
from .written import (
    compared,
    margin_points,
    missing,
    net_benefit_headline,
    ratio_verdict,
    test_name,
    written_pair,
    year_list,
)

__all__ = [
    "compared",
    "margin_points",
    "test_name",
    "net_benefit_headline",
    "ratio_verdict",
    "written_pair",
    "year_list",
    "SCENARIO_KEYS",
    "SCENARIO_LABELS",
    "WORKBOOK_LABELS",
    "Label",
    "WorkbookLabel",
    "CASHFLOW_LABELS",
    "RESULT_LABELS",
    "TAX_LABELS",
    "LABELS",
    "label",
    "positioned",
    "phase_words",
    "phase_of",
    "phase_tagged",
    "named_once",
    "spoken",
    "SPOKEN_UNITS",
    "PHASE_BLOCKS",
    "unit",
    "short_label",
    "varied_short_label",
    "money",
    "money_exact",
    "share",
    "ratio",
    "ratio_against",
    "percentage_points",
    "years",
    "number",
    "jobs",
    "UNITS",
    "cell",
    "value",
]

#: The one table: scenario keys, cash-flow columns, other result columns, the after-approval tables' columns.
LABELS: dict[str, str] = {**AFTER_APPROVAL_LABELS, **RESULT_LABELS, **CASHFLOW_LABELS, **SCENARIO_LABELS}

_WEIGHT_PHASE = re.compile(r"^weight_phase_(\d+)$")
_UNIT = re.compile(r"\s*\[([^\]]*)\]$")


def phase_words(phase: int) -> str:
    """The one wording of a phase, before what it qualifies: ``Phase 2`` (charts, tables and the
    workbook alike: ``Phase 2: New full-time jobs``)."""
    return f"Phase {phase}"


def _normalise(key: str) -> tuple[str, int | None, list[str]]:
    """``key`` without list positions and year keys, the phase it names (``phases.0`` is the
    project's second phase), and the notes for the other positions (item, year)."""
    segments = key.split(".")
    notes: list[str] = []
    kept: list[str] = []
    phase = None
    for i, segment in enumerate(segments):
        if segment.isdigit():
            parent = segments[i - 1] if i else ""
            if parent == "phases":
                phase = int(segment) + 2
            elif parent in ("capital_investment", "by_year"):
                notes.append(f"year {int(segment)}")
            else:
                notes.append(f"item {int(segment) + 1}")
            continue
        kept.append(segment)
    return ".".join(kept), phase, notes


def positioned(text: str, key: str) -> str:
    """``text`` (a key's label) with the phase, year or item its dotted ``key`` names, in the one
    wording every view uses: ``Phase 2: Capital investment [USD], year 3``.

    >>> positioned("Capital investment [USD]", "phases.0.capital_investment.3")
    'Phase 2: Capital investment [USD], year 3'
    """
    _, phase, notes = _normalise(key)
    text = ", ".join([text, *notes]) if notes else text
    return f"{phase_words(phase)}: {text}" if phase is not None else text


#: The top-level blocks a later phase repeats: in a phased project their keys are phase 1's.
PHASE_BLOCKS = ("jobs", "award", "capital_investment", "commitment", "facility", "streams")


def phase_of(key: str) -> int | None:
    """The phase a dotted key belongs to: ``phases.N...`` is phase N + 2, a key of a block that
    phases repeat (:data:`PHASE_BLOCKS`) is phase 1; None for a key of the whole project."""
    _, phase, _ = _normalise(key)
    if phase is not None:
        return phase
    return 1 if key.split(".")[0] in PHASE_BLOCKS else None


def phase_tagged(key: str, keys: Iterable[str] = (), *, short: bool = False) -> str:
    """The label of ``key`` (:func:`label`, or :func:`short_label` with ``short``), tagged with
    phase 1 when ``keys`` name a later phase's key (so that every phase key says its phase).

    >>> phase_tagged("jobs.new", ["jobs.new", "phases.0.jobs.new"])
    'Phase 1: New full-time jobs [jobs]'
    """
    text = short_label(key) if short else label(key)
    later = any(_normalise(other)[1] is not None for other in keys)
    if later and _normalise(key)[1] is None and phase_of(key) == 1:
        return f"{phase_words(1)}: {text}"
    return text


def named_once(keys: Iterable[str]) -> list[str]:
    """Each key's short label once, with the phases it is varied in: ``Median salary (phases 1
    and 2)``; a key of one phase of a phased project ``Phase 2: Median salary``.

    >>> named_once(["jobs.median_salary", "phases.0.jobs.median_salary", "revenue.earnings_multiplier"])
    ['Median salary (phases 1 and 2)', 'Earnings multiplier, total / direct']
    """
    keys = list(keys)
    phased = any(_normalise(key)[1] is not None for key in keys)
    groups: dict[str, list[int | None]] = {}
    for key in keys:
        base, phase, notes = _normalise(key)
        words = short_label(base, default=base)
        words = ", ".join([words, *notes]) if notes else words
        groups.setdefault(words, []).append(phase if phase is not None else (phase_of(key) if phased else None))
    names = []
    for words, phases in groups.items():
        found = sorted({p for p in phases if p is not None})
        if len(found) > 1:
            names.append(f"{words} (phases {', '.join(str(p) for p in found[:-1])} and {found[-1]})")
        elif found:
            names.append(f"{phase_words(found[0])}: {words}")
        else:
            names.append(words)
    return names




def spoken(text: str) -> str:
    """A label with its unit as people write it where values show as percents: ``Discount rate
    [% a year]`` for ``Discount rate [share/year]``.

    >>> spoken("Discount rate [share/year]")
    'Discount rate [% a year]'
    """
    return re.sub(r"\[([^\]]*)\]", lambda m: f"[{SPOKEN_UNITS.get(m.group(1), m.group(1))}]", text)


def label(key: str, *, streams: Iterable[str] = (), default: str | None = None) -> str:
    """The human label, with its unit, of a scenario key or a result column.

    Parameters
    ----------
    key : str
        A dotted scenario key (``award.annual_credit``, ``phases.0.jobs.new``) or a column name
        (``pv_credits``, ``weight_phase_2``).
    streams : iterable of str
        Names of the scenario's own streams (columns of ``Result.cashflows``): labelled by their
        name, in nominal USD.
    default : str, optional
        What a key or column with no label gives instead (as ``dict.get``).

    Raises
    ------
    KeyError
        For a key or column with no label and no ``default`` (a new key needs a line in :data:`LABELS`).

    Examples
    --------
    >>> label("award.annual_credit")
    'Annual credit [USD/year]'
    >>> label("phases.0.jobs.new")
    'Phase 2: New full-time jobs [jobs]'
    >>> label("capital_investment.3")
    'Capital investment [USD], year 3'
    """
    if key in LABELS:
        return LABELS[key]
    if key in set(streams):
        return f"{key} [USD]"
    match = _WEIGHT_PHASE.match(key)
    if match:
        return f"Share of the year in phase {match.group(1)}'s benefit window [share]"
    base, _, _ = _normalise(key)
    if base.startswith("phases.") and base not in LABELS:
        base = base[len("phases.") :]
    if base.endswith(".by_year") or base == "by_year":
        base = "streams.by_year"
    if base not in LABELS:
        if default is not None:
            return default
        raise KeyError(f"no label for {key!r}: add it to netbenefit.labels.LABELS")
    return positioned(LABELS[base], key)


def unit(key: str, *, streams: Iterable[str] = ()) -> str:
    """The unit in the label of ``key`` (``USD/year``, ``share``, ``%``...), or "" when it has none."""
    match = _UNIT.search(label(key, streams=streams).split(", phase ")[0].split(", year ")[0].split(", item ")[0])
    return match.group(1) if match else ""


def short_label(key: str, *, streams: Iterable[str] = (), default: str | None = None) -> str:
    """The label without its unit (``Annual credit``); ``default`` (given as it is) for a key
    with no label, as for :func:`label`."""
    try:
        text = label(key, streams=streams)
    except KeyError:
        if default is None:
            raise
        return default
    return _UNIT.sub("", text) if _UNIT.search(text) else re.sub(r"\s*\[[^\]]*\]", "", text)


def varied_short_label(key: str, known: Mapping[str, str] | None = None) -> str:
    """A varied key's label without its unit: from ``known`` when it has the key (the labels an
    analysis result carries, ``attrs["key_labels"]``, with the key's phase), else
    :func:`short_label`, else the key itself.

    >>> varied_short_label("jobs.new", {"jobs.new": "Phase 1: New full-time jobs [jobs]"})
    'Phase 1: New full-time jobs'
    """
    if known and key in known:
        return re.sub(r"\s*\[[^\]]*\]", "", known[key])
    return short_label(key, default=key)


# ----------------------------------------------------------------------------------------------
# Formatters
# ----------------------------------------------------------------------------------------------


def money(amount: float | None, scale: float | None = None) -> str:
    """An amount in short form: ``$1.1M``, ``$250K``, ``$12``, ``-$3.4M``. [USD]

    ``scale`` is the size of the largest amount shown beside it (an axis), so that the ticks of
    one axis share one form; default the amount itself.

    >>> money(1_080_000), money(250_000), money(-3_400_000), money(12)
    ('$1.1M', '$250K', '-$3.4M', '$12')
    """
    if missing(amount):
        return ""
    if amount == 0:
        return "$0"
    alone = scale is None  # one amount: a decimal up to $100M; on an axis, none from $20M
    scale = abs(amount) if scale is None else abs(scale)
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if scale >= 1e9:
        return _short(sign, amount, 1e9, "B", 1)
    if scale >= 1e6:
        wide = scale >= 1e8 if alone else scale >= 2e7 and amount >= 1e6  # not a statutory number: $100M, $20M
        return _short(sign, amount, 1e6, "M", 0 if wide else 1)
    if scale >= 1e3:  # not a statutory number: thousands
        return _short(sign, amount, 1e3, "K", 0)  # not a statutory number: thousands
    return _short(sign, amount, 1.0, "", 0)


#: Decimals a short amount may add to keep its leading digit ($9.5K, not $10K), before it is
#: written to the dollar instead.
_MAX_EXTRA_DECIMALS = 3  # not a statutory number: $9.995M at most, then $9,995,000


def _short(sign: str, amount: float, unit: float, suffix: str, digits: int) -> str:
    """``amount / unit`` to ``digits`` decimals, with more where rounding would change its
    leading digit (9,500 is ``$9.5K``, never ``$10K``; 6,981,866 is ``$6.98M``, not ``$7.0M``);
    to the dollar when even that would."""
    leading = f"{amount:e}"[0]
    for extra in range(_MAX_EXTRA_DECIMALS + 1):
        text = f"{amount / unit:,.{digits + extra}f}"
        first = next((c for c in text if c in "123456789"), None)
        if first == leading or (first is None and amount < 0.5):  # "$0" only for less than 50 cents
            return f"{sign}${text}{suffix}"
    return f"{sign}${amount:,.0f}"


def money_exact(amount: float | None) -> str:
    """An amount to the dollar: ``$1,234,567`` (negative ``-$1,234``). [USD]"""
    if missing(amount):
        return ""
    return f"-${-amount:,.0f}" if amount < 0 else f"${amount:,.0f}"


def share(value: float | None, digits: int | None = None, *, finest: int = 2) -> str:
    """A decimal share as a percent: 0.075 -> ``7.5%``, 0.25 -> ``25%``, 0.0625 -> ``6.25%``.

    Without ``digits``, as few decimals as show the value to ``finest`` decimals of a percent
    (0.01% by default; the checks' sentences show 0.0001%).

    >>> share(0.8), share(0.50015), share(0.50015, finest=4), share(0.0551, 1)
    ('80%', '50.02%', '50.015%', '5.5%')
    """
    if missing(value):
        return ""
    if digits is None:
        text = f"{value * 100:.{finest}f}".rstrip("0").rstrip(".")
        return f"{'0' if text in ('-0', '') else text}%"
    return f"{value:.{digits}%}"


def ratio(value: float | None, digits: int = 0) -> str:
    """A net benefit ratio (a multiple) as a percent, as the statute states its thresholds.

    >>> ratio(4.92), ratio(4.0), ratio(4.806, 1)
    ('492%', '400%', '480.6%')
    """
    if missing(value):
        return "undefined"
    return f"{value:.{digits}%}"


def ratio_against(value: float, threshold: float) -> str:
    """``492% vs 400%``."""
    return f"{ratio(value)} vs {ratio(threshold)}"


def percentage_points(change: float | None, digits: int = 1) -> str:
    """A change of a ratio or a share (a difference of two multiples) in percentage points,
    signed: 0.806 -> ``+80.6 percentage points``; a change that rounds to zero has no sign.

    >>> percentage_points(0.806), percentage_points(-0.0123), percentage_points(0.00001)
    ('+80.6 percentage points', '-1.2 percentage points', '0.0 percentage points')
    """
    if missing(change):
        return "undefined"
    text = f"{100 * change:+.{digits}f}"
    if float(text) == 0:
        text = text[1:]
    return f"{text} percentage points"


def years(value: float | None) -> str:
    """A number of years: ``1 year``, ``10 years``, ``7.5 years``."""
    if missing(value):
        return ""
    text = f"{value:g}"
    return f"{text} year" if text == "1" else f"{text} years"


def number(value: Any) -> str:
    """A plain number as a person writes it: whole numbers without ``.0``, thousands separated."""
    if missing(value):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return f"{int(value):,}"
    if isinstance(value, float):
        return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:,.0f}"
    return str(value)


def jobs(count: float | None) -> str:
    """A number of jobs: whole numbers as such (``260``), a fraction with one decimal (``142.7``). [jobs]"""
    if missing(count):
        return ""
    return f"{count:,.0f}" if float(count).is_integer() else f"{count:,.1f}"


#: The units a column's label declares (in brackets), and how a table cell of each is written:
#: dollars to the dollar, jobs as counts, shares and ratios as decimals, percents as the statute
#: writes its thresholds, years as whole numbers. Every table of the report, the workbook and the
#: notebook views writes its cells through :func:`cell`.
UNITS = ("USD", "jobs", "share", "ratio", "%", "percentage points", "years", "year", "yes/no")


def cell(column: str, amount: Any, *, streams: Iterable[str] = (), unknown: str = "") -> str:
    """A table cell of ``column`` written by the unit its label declares (:data:`UNITS`).

    ``unknown`` is the unit of a column that has no label (a scenario's own stream: ``"USD"``).

    >>> cell("wages", 1234567.4), cell("indirect_and_induced_jobs", 143.0), cell("weight", 0.5)
    ('$1,234,567', '143', '0.50')
    >>> cell("discount_factor", 0.943396226), cell("ratio", 4.705), cell("costs", -1234.0)
    ('0.943396', '470.5%', '-$1,234')
    """
    if missing(amount):
        return ""
    if isinstance(amount, bool):
        return "yes" if amount else "no"
    try:
        found = unit(column, streams=streams)
    except KeyError:
        found = unknown
    if not isinstance(amount, int | float):
        try:
            amount = float(amount)
        except (TypeError, ValueError):
            return str(amount)
    if found.startswith("USD"):
        return money_exact(amount)
    if found == "jobs":
        return jobs(amount)
    if found.startswith("share"):
        return f"{amount:.2f}"
    if found == "ratio":
        return f"{amount:.6f}" if column == "discount_factor" else f"{amount:,.2f}"
    if found == "%":
        return ratio(amount, 1)
    if found == "percentage points":
        return f"{100 * amount:+,.2f}"
    return number(amount)


def value(key: str, amount: Any, *, short: bool = True, streams: Iterable[str] = ()) -> str:
    """A value of ``key`` formatted by the unit of its label.

    USD -> :func:`money` (or :func:`money_exact` with ``short=False``); share -> :func:`share`;
    ``%`` or ratio -> :func:`ratio`; years -> :func:`years`; yes/no -> ``yes``/``no``; otherwise
    :func:`number`.

    >>> value("award.annual_credit", 1_080_000), value("discount_rate", 0.075), value("ratio", 4.92)
    ('$1.1M', '7.5%', '492%')
    """
    if missing(amount):
        return ""
    if isinstance(amount, bool):
        return "yes" if amount else "no"
    if not isinstance(amount, int | float):
        try:
            amount = float(amount)
        except (TypeError, ValueError):
            return str(amount)
    found = unit(key, streams=streams)
    if found.startswith("USD"):
        return money(amount) if short else money_exact(amount)
    if found.startswith("share"):
        return share(amount)
    if found in ("%", "ratio") and key != "discount_factor" and key != "revenue.earnings_multiplier":
        return ratio(amount)
    if found == "years":
        return years(amount)
    return number(amount)
