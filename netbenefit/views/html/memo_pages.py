"""The optional pages of a director's memo (:mod:`netbenefit.views.html.memo`): the sensitivity
(tornado), the Monte Carlo run, what changed from a reference scenario (a diff) and the actual
results.

Every figure is read from the record that decided it (the sensitivity table, the Monte Carlo
summary, the diff, the followed result); none applies a rule. A ratio beside a threshold is the
ratio of the test that decides 71(a)(5); each varied key is named with its phase; each side of a
diff carries its own threshold and margin.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ... import labels
from ...analysis import montecarlo
from ...analysis.bands import cumulative_pv_bands
from ...analysis.diff import Diff
from ...analysis.diff import diff as make_diff
from ...analysis.keys import key_label
from ...errors import ScenarioError
from ...io.safe_text import html as escape  # one rule for user text in HTML
from ...labels import margin_points, money_exact, percentage_points, ratio, ratio_verdict, share
from .. import charts
from ..charts.style import new_figure
from .memo_actuals import actuals_page_html
from .memo_sections import MemoFacts, MemoSections, driver_rows
from .pieces import figure_html
from .table import Cell, table_html

if TYPE_CHECKING:
    from ...model.scenario import Scenario

#: Draws of the Monte Carlo page's fan chart at most (all computed at once).
FAN_DRAWS = 500  # not a statutory number: the bands' memory grows with draws x years


def sensitivity_page_html(facts: MemoFacts) -> str:
    """The tornado of the default drivers, with their table."""
    if facts.drivers.empty:
        return ""
    figure, ax = new_figure((10.0, 4.8))
    charts.tornado(facts.drivers, ax=ax)
    known = facts.drivers.attrs.get("key_labels")
    alt = "Tornado chart: " + "; ".join(
        f"{labels.varied_short_label(row.key, known)} {ratio(row.ratio_low, 1)} to {ratio(row.ratio_high, 1)}"
        for row in facts.drivers.itertuples()
    )
    caption = (
        "The ratio of the test that decides 71(a)(5) with each driver moved by 20% either way, the others kept."
    )
    return (
        f'<section class="memo-page sensitivity"><h2>{escape(facts.result.name)}: sensitivity</h2>'
        f"{figure_html(figure, alt, caption)}"
        f"{driver_rows(facts, len(facts.drivers))}</section>"
    )


# ----------------------------------------------------------------------------------------------
# Monte Carlo
# ----------------------------------------------------------------------------------------------


def distribution_words(key: str, spec: Any) -> str:
    """A ``vary`` entry of :func:`netbenefit.montecarlo` in words, its numbers in the key's unit (money
    as dollars, jobs as counts, shares as percents): ``normal with mean $82,000 and standard deviation
    $8,000``; ``uniform from 200 to 300``; ``one of yes, no``.

    >>> distribution_words("jobs.median_salary", ("normal", 82000, 8000))
    'normal with mean $82,000 and standard deviation $8,000'
    >>> distribution_words("jobs.new", ("triangular", 200, 250, 320))
    'triangular from 200 to 320, most likely 250'
    """

    def shown(amount: Any) -> str:
        try:
            return labels.value(key, amount, short=False)
        except KeyError:
            return labels.number(amount)

    items = list(spec) if isinstance(spec, list | tuple) else [spec]
    if items and isinstance(items[0], str):
        name, *numbers = items
        if name == "normal":
            return f"normal with mean {shown(numbers[0])} and standard deviation {shown(numbers[1])}"
        if name == "uniform":
            return f"uniform from {shown(numbers[0])} to {shown(numbers[1])}"
        if name == "triangular":
            return f"triangular from {shown(numbers[0])} to {shown(numbers[2])}, most likely {shown(numbers[1])}"
        if name == "lognormal":  # numpy's: mean and sigma of the underlying normal; its median exp(mean)
            return (
                f"lognormal, its logarithm normal with mean {numbers[0]:g} and standard deviation {numbers[1]:g} "
                f"(median {shown(math.exp(numbers[0]))})"
            )
        return f"{name} ({', '.join(shown(n) for n in numbers)})"
    return "one of " + ", ".join(shown(item) for item in items)


def varied_words(scenario: Scenario, key: str, spec: Any) -> str:
    """A drawn key with its phase and its distribution: ``Every phase: Median salary, normal with
    mean $82,000 and standard deviation $8,000``."""
    try:
        name = key_label(scenario, key, short=True)
    except (ScenarioError, KeyError):
        name = labels.short_label(key, default=key)
    return f"{name}, {distribution_words(key, spec)}"


def montecarlo_page_html(facts: MemoFacts, sections: MemoSections) -> str:
    """The probability of passing over the draws, the percentiles of the deciding test's ratio, and
    the fan of the cumulative PV of net benefits of all phases."""
    scenario, vary = facts.result.scenario, dict(sections.montecarlo or {})
    run = montecarlo(scenario, draws=sections.draws, vary=vary, seed=sections.seed, progress=False, keep_draws=False)
    summary = run.summary
    fan_draws = min(sections.draws, FAN_DRAWS)
    bands = cumulative_pv_bands(scenario, vary, draws=fan_draws, seed=sections.seed)
    figure, ax = new_figure((10.0, 5.0))
    charts.fan(bands, ax=ax)
    p = summary.ratio_percentiles
    drawn = "; ".join(varied_words(scenario, key, spec) for key, spec in vary.items())
    sentence = (
        f"Over {summary.draws:,} draws (seed {run.seed}) of {drawn}: the net benefit test passes in "
        f"{share(summary.probability_passes, 1)} of draws and every check in {share(summary.probability_eligible, 1)}. "
        f"The ratio of the test that decides 71(a)(5), draw by draw, has its median at {ratio(p[50], 1)} and its 5th "
        f"to 95th percentiles at {ratio(p[5], 1)} and {ratio(p[95], 1)}, against a threshold of "
        f"{ratio(facts.result.threshold)}."
    )
    caption = (
        f"Cumulative present value of net benefits of all phases, percentile bands over {fan_draws:,} draws "
        "(the whole project's, not the deciding test's: no threshold is drawn)."
    )
    return (
        f'<section class="memo-page montecarlo"><h2>{escape(facts.result.name)}: Monte Carlo</h2>'
        f"<p>{escape(sentence)}</p>{figure_html(figure, sentence, caption)}</section>"
    )


# ----------------------------------------------------------------------------------------------
# What changed
# ----------------------------------------------------------------------------------------------


def _side_words(diff: Any, side: str) -> str:
    """One side of a diff (``"a"`` or ``"b"``): its name, the ratio of its deciding test against its own
    threshold (written true to its verdict), the verdict and its margin."""
    passes = bool(getattr(diff, f"passes_{side}"))
    written, limit = ratio_verdict(getattr(diff, f"ratio_{side}"), getattr(diff, f"threshold_{side}"), passes, 1)
    return (
        f"{side.upper()}, {getattr(diff, f'name_{side}')}: the test that decides gives {written} against a "
        f"threshold of {limit} ({getattr(diff, f'threshold_clause_{side}')}), {'passes' if passes else 'fails'}, "
        f"a margin of {margin_points(getattr(diff, f'margin_{side}'), passes)}"
    )


def diff_sentences(diff: Any) -> list[str]:
    """What the diff page says before its tables, each side with its own threshold and margin, as
    the command line's ``diff`` does: the two sides, what makes their ratios not compare directly
    (``Diff.differences_in_words``: the thresholds, the benefit windows, an extension that decides),
    and the whole projects' present values."""
    sides = [_side_words(diff, "a"), _side_words(diff, "b")]
    change = f"The margin moves by {percentage_points(diff.margin_change, 2)}"
    if diff.threshold_a == diff.threshold_b:
        change += f", and the ratio by as much ({percentage_points(diff.ratio_change, 2)})"
    out = [f"{sides[0]}. {sides[1]}. {change}."]
    out += [words[:1].upper() + words[1:] + "." for words in diff.differences_in_words()]
    out.append(
        f"The whole project's present value of net benefits moves from {money_exact(diff.pv_benefits_a)} to "
        f"{money_exact(diff.pv_benefits_b)}, of the requested credits from {money_exact(diff.pv_credits_a)} to "
        f"{money_exact(diff.pv_credits_b)}."
    )
    return out


def _key_words(key: str, keys: list[str], scenario: Scenario | None) -> str:
    """An input of the diff in words with its phase: from ``scenario`` where it has the key (a shared
    driver is "every phase"), else tagged by the other keys (``Phase 1:`` where a later phase's key
    is among them), else the row's own words (``threshold, 71(a)(5)``)."""
    if " + " in key:  # a block of keys
        return " + ".join(_key_words(part, keys, scenario) for part in key.split(" + "))
    if scenario is not None:
        try:
            return key_label(scenario, key, short=True)
        except (ScenarioError, KeyError, ValueError):
            pass
    try:
        return labels.phase_tagged(key, keys, short=True)
    except KeyError:
        words = labels.short_label(key, default=key)
        return words[:1].upper() + words[1:]  # a row of its own: "Threshold, 71(a)(5)"


def diff_page_html(diff: Any, *, first: bool = False, scenario: Scenario | None = None) -> str:
    """What changed between two scenarios and what moved the margin (:class:`~netbenefit.analysis.diff.Diff`):
    each side's ratio with its threshold and margin, what makes them not compare directly, the inputs
    that differ (each with its phase; ``scenario``, where given, names its shared drivers) and the
    attribution of the margin, with the threshold and the benefit window as rows of their own where
    they differ."""

    def shown(key: str, amount: Any) -> str:
        try:
            return labels.value(key, amount)
        except KeyError:
            return str(amount)

    keys = [str(key) for key in diff.inputs["key"]]
    inputs = [
        [_key_words(row.key, keys, scenario), shown(row.key, row.old), shown(row.key, row.new)]
        for row in diff.inputs.itertuples(index=False)
        if row.key not in ("name", "description")
    ]
    how = "by block" if diff.grouped else "by input"
    table = getattr(diff, "attribution_shown", diff.attribution)
    attribution = [
        [_key_words(str(row.key), keys, scenario), Cell(percentage_points(row.contribution, 2), numeric=True)]
        for row in table.itertuples(index=False)
    ]
    change = percentage_points(diff.margin_change, 2)
    attribution.append([Cell("Total: the margin's change", header=True), Cell(change, numeric=True)])
    sentences = diff_sentences(diff)
    waterfall = ""
    if not table.empty:
        figure, ax = new_figure((10.0, 4.6))
        charts.ratio_waterfall(diff, ax=ax)
        caption = (
            f"The change of the margin over the threshold attributed {how} (the ratio's Shapley values, with the "
            "threshold and the benefit window as rows of their own where they differ; they add up)."
        )
        waterfall = figure_html(figure, " ".join(sentences), caption)
    paragraphs = "".join(f"<p>{escape(sentence)}</p>" for sentence in sentences)
    return (
        f'<section class="memo-page diff{" first" if first else ""}"><h2>What changed: {escape(diff.name_a)} and '
        f"{escape(diff.name_b)}</h2>{paragraphs}"
        f"{table_html(['Input', 'Reference', 'This scenario'], inputs)}"
        f"{table_html([f'Attributed {how}', 'Change of the margin'], attribution)}{waterfall}</section>"
    )


def optional_pages_html(facts: MemoFacts, sections: MemoSections, *, diff: Any = None, actuals: Any = None) -> str:
    """The optional pages asked for, in this order: sensitivity, Monte Carlo, diff, actual results."""
    parts = []
    if sections.sensitivity:
        parts.append(sensitivity_page_html(facts))
    if sections.montecarlo:
        parts.append(montecarlo_page_html(facts, sections))
    if diff is not None:
        made = diff if isinstance(diff, Diff) else make_diff(diff, facts.result.scenario)
        parts.append(diff_page_html(made, scenario=facts.result.scenario))
    if actuals is not None:
        parts.append(actuals_page_html(facts.result, actuals))
    return "".join(parts)
