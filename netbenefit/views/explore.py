"""``netbenefit.explore(scenario)``: sliders for the drivers that move the ratio most, in Jupyter.

>>> import netbenefit
>>> netbenefit.explore("scenarios/office_hq_default_area.yaml")  # doctest: +SKIP

The drivers are ranked by the one-way sensitivity of the ratio (:func:`netbenefit.sensitivity`,
each key moved by +/-20%); the ``count`` with the largest swing get a slider over
``base x (1 -/+ span)``, kept inside the key's valid range. Each change re-evaluates the variant
(:meth:`Scenario.replace`, then :func:`netbenefit.evaluate`: milliseconds) and redraws the
verdict, the ratio against its threshold and the cumulative PV chart. "Export YAML" writes the
current variant as a scenario file (:meth:`Scenario.to_yaml`).

The chart is drawn once (:class:`~netbenefit.views.live_chart.LiveChart`); a move updates its
lines, title, legend, scale and footnote and prints again only the artists a move changes, over the
rest kept from the previous print: the same bytes as a whole print, for less than one evaluation
and one new minimal chart.
The sliders update while dragged (``continuous_update=True``).

Optional: ``pip install 'netbenefit[explore]'`` (ipywidgets). Without it, :func:`explore`
returns :class:`Unavailable`, which shows a one-line message saying so.

This module imports neither ipywidgets nor matplotlib at its top: ``import netbenefit`` binds :func:`explore`.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analysis.keys import key_label, key_spec, moves_in_whole_steps
from ..analysis.sensitivity import sensitivity
from ..errors import ScenarioError
from ..io import arguments
from ..io.safe_text import html
from ..model.evaluate import evaluate
from ..model.scenario import Scenario, load_scenario
from ..model.scenario.shared import covered
from .decision_words import other_checks_words
from .live_chart import LiveChart

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..model.result import Result

#: Keys the explorer considers, in this order; those the scenario gives a nonzero number are ranked.
CANDIDATE_KEYS = (
    "jobs.new",
    "jobs.retained",
    "jobs.median_salary",
    "jobs.salary_growth",
    "jobs.nj_withholding_share",
    "award.annual_credit",
    "award.per_job_credit",
    "discount_rate",
    "inflation",
    "revenue.income_tax_effective_rate",
    "revenue.taxable_spending_share",
    "revenue.earnings_multiplier",
    "revenue.employment_multiplier",
    "revenue.corporate_business_tax",
    "revenue.construction_labor_share",
    "revenue.construction_taxable_share",
)
#: The change of each key for the ranking, and the half-width of a slider, as shares of the base.
RANKING_CHANGE, SLIDER_SPAN = 0.2, 0.5  # not statutory numbers: a view's choices
INSTALL_HINT = "netbenefit.explore needs ipywidgets: pip install 'netbenefit[explore]'"


class Unavailable:
    """What :func:`explore` returns where ipywidgets cannot be imported: it says so, in a notebook
    (``_repr_html_``) and as text."""

    def __init__(self, reason: str = INSTALL_HINT) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return self.reason

    def _repr_html_(self) -> str:
        return f"<p><b>{html(self.reason)}</b></p>"


def ranked_drivers(scenario: Scenario, count: int = 6) -> list[tuple[str, float, float]]:
    """The ``count`` keys whose +/-20% moves the ratio most: ``(key, base, swing)``, largest first."""
    rows = []
    for key in candidate_keys(scenario):
        try:
            spec = key_spec(scenario, key)
        except ScenarioError:
            continue
        if spec.kind == "flag" or not isinstance(spec.base, int | float) or spec.base == 0:
            continue
        try:
            table = sensitivity(scenario, {key: None}, relative=RANKING_CHANGE)
        except ScenarioError:  # a value out of range or an undefined ratio at +/-20%: not offered
            continue
        rows.append((key, float(spec.base), float(table["swing"].iloc[0])))
    rows.sort(key=lambda row: -row[2])
    return rows[:count]


def candidate_keys(scenario: Scenario) -> list[str]:
    """The keys the explorer ranks: :data:`CANDIDATE_KEYS` of the initial phase, then those of each
    later phase (``phases.0.jobs.new``...) that the phases do not share (a shared key is the
    initial phase's, moved as one key: netbenefit.model.scenario.shared)."""
    own = ("jobs.", "award.")  # a later phase has its own jobs and award
    shared = covered(scenario.shared)
    later = [
        f"phases.{i}.{key}"
        for i in range(len(scenario.phases))
        for key in CANDIDATE_KEYS
        if key.startswith(own) and key not in shared
    ]
    return [*CANDIDATE_KEYS, *later]


def slider_label(scenario: Scenario, key: str) -> str:
    """A slider's description: the key in words with its phase in a phased project (``Phase 1: New
    full-time jobs``; a shared key, ``Every phase: ...``)."""
    return key_label(scenario, key, short=True)


def slider_range(scenario: Scenario, key: str, span: float = SLIDER_SPAN) -> tuple[float, float, float]:
    """``(low, high, step)`` of a key's slider: ``base x (1 -/+ span)`` inside its valid range; a
    count of jobs or a whole-number key in whole steps between whole ends."""
    spec = key_spec(scenario, key)
    base = float(spec.base)
    low, high = sorted((base * (1 - span), base * (1 + span)))
    if spec.lower is not None:
        low = max(low, spec.lower if spec.lower_inclusive else spec.lower + abs(base) * 1e-3)
    if spec.upper is not None:
        high = min(high, spec.upper if spec.upper_inclusive else spec.upper - abs(base) * 1e-3)
    if moves_in_whole_steps(scenario, key):
        return float(math.ceil(low)), float(max(math.floor(high), math.ceil(low))), 1.0
    step = (high - low) / 200 or abs(base) / 100 or 0.001
    return low, high, step


class Explorer:
    """The explorer of one scenario (see the module docstring).

    Attributes
    ----------
    scenario : Scenario
        The scenario explored (its values are the sliders' starting points).
    sliders : dict of key -> ipywidgets slider
    variant : Scenario
        The scenario at the sliders' values.
    result : Result
        Its evaluation.
    widget : ipywidgets.VBox
        What the notebook shows.
    """

    def __init__(self, scenario: Scenario, *, count: int = 6, keys: Iterable[str] | None = None) -> None:
        import ipywidgets as widgets

        self.scenario = scenario
        self.result = evaluate(scenario)
        self.variant = scenario
        keys = list(keys) if keys is not None else [key for key, _, _ in ranked_drivers(scenario, count)]
        self.sliders: dict[str, Any] = {}

        for key in keys:
            low, high, step = slider_range(scenario, key)
            base = float(key_spec(scenario, key).base)
            kind = widgets.IntSlider if moves_in_whole_steps(scenario, key) else widgets.FloatSlider
            options = {"min": low, "max": high, "step": step, "value": base}
            if kind is widgets.IntSlider:
                options = {name: int(round(value)) for name, value in options.items()}
            slider = kind(
                description=slider_label(scenario, key),
                continuous_update=True,  # live while dragged: a move redraws the artists, not a new figure
                style={"description_width": "220px"},
                layout=widgets.Layout(width="620px"),
                readout_format=",.0f" if abs(base) >= 100 else ".4g",
                **options,
            )
            slider.observe(self._changed, names="value")
            self.sliders[key] = slider
        self.verdict = widgets.HTML()
        self.chart = widgets.Image(format="png")
        self.live: LiveChart | None = None  # the chart drawn once, then updated (LiveChart)
        self.path = widgets.Text(
            value=_default_path(scenario), description="File", layout=widgets.Layout(width="620px")
        )
        self.export_button = widgets.Button(description="Export YAML", icon="download")
        self.export_button.on_click(lambda _: self.export())
        self.status = widgets.HTML()
        self.reset_button = widgets.Button(description="Reset")
        self.reset_button.on_click(lambda _: self.reset())
        self.widget = widgets.VBox(
            [
                widgets.HTML(f"<b>{_escape(scenario.name)}</b>: the drivers that move the ratio most"),
                *self.sliders.values(),
                self.verdict,
                self.chart,
                widgets.HBox([self.path, self.export_button, self.reset_button]),
                self.status,
            ]
        )
        self.redraw()

    # --- callbacks (testable without a browser) ------------------------------------------------
    def changes(self) -> dict[str, Any]:
        """The sliders' values that differ from the scenario's."""
        changed = {}
        for key, slider in self.sliders.items():
            if slider.value != key_spec(self.scenario, key).base:
                changed[key] = slider.value
        return changed

    def _changed(self, change: Any = None) -> None:
        changes = self.changes()
        try:
            self.variant = self.scenario.replace(changes) if changes else self.scenario
            self.result = evaluate(self.variant)
        except ScenarioError as error:  # a combination the rules refuse: said, and nothing redrawn
            self.status.value = f"<span style='color:#a34700'>{_escape(error)}</span>"
            return
        self.status.value = ""
        self.redraw()

    def redraw(self) -> None:
        """The verdict, the ratio against its threshold, the cumulative PV chart (drawn once, then
        its artists updated)."""
        self.verdict.value = verdict_html(self.result)
        if self.live is None:
            self.live = LiveChart(self.result)
        else:
            self.live.update(self.result)
        self.chart.value = self.live.png()

    def reset(self) -> None:
        """Every slider back to the scenario's value."""
        for key, slider in self.sliders.items():
            slider.unobserve(self._changed, names="value")
            slider.value = key_spec(self.scenario, key).base
            slider.observe(self._changed, names="value")
        self._changed()

    def export(self, path: str | Path | None = None) -> Path | None:
        """Write the current variant as a scenario file (the ``File`` box's path by default). A path
        that cannot be written (a missing folder, which is not made; a NUL; a folder in the way) is
        said in the status line, never raised out of the button's callback."""
        given = path if path is not None else self.path.value
        try:  # the path checked as every writer's is (netbenefit.io.arguments.output_file)
            written = self.variant.to_yaml(arguments.output_file(given, "path", "export"))
        except (OSError, ValueError) as error:  # a ScenarioError is a ValueError
            self.status.value = f"<span style='color:#a34700'>cannot write {_escape(given)}: {_escape(error)}</span>"
            return None
        self.status.value = f"wrote {_escape(written)}"
        return Path(written)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        return f"<Explorer of {self.scenario.name!r}: {', '.join(self.sliders)}; {self.result!r}>"


def verdict_html(result: Result) -> str:
    """The verdict and a bar of the ratio against its threshold (HTML, text escaped)."""
    passes = bool(result.passes)
    colour = "#1f77b4" if passes else "#ff7f0e"
    top = max(result.ratio, result.threshold) * 1.25 or 1.0
    width = max(0.0, min(100.0, 100.0 * result.ratio / top))
    mark = 100.0 * result.threshold / top
    parts = [f"{result.name}: {result.verdict()}", result.extension_words()]  # passes only with the extension
    parts.append("eligible" if result.eligible else other_checks_words(result) or "not eligible")
    words = "; ".join(part for part in parts if part)
    return (
        f"<div><b style='color:{colour}'>{_escape(words)}</b>"
        "<div style='position:relative;width:600px;height:16px;background:#eee;margin-top:4px'>"
        f"<div style='width:{width:.1f}%;height:100%;background:{colour}'></div>"
        f"<div title='threshold' style='position:absolute;left:{mark:.1f}%;top:-3px;width:2px;height:22px;"
        "background:#222'></div></div></div>"
    )


def _escape(text: Any) -> str:
    return html(str(text))


def _default_path(scenario: Scenario) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(str(scenario.source)).stem or scenario.name).strip("_") or "scenario"
    return f"{stem}_variant.yaml"


def _keys(value: Any, argument: str, function: str) -> list:
    """One dotted key (its slider, not a slider per character) or several."""
    return [value] if isinstance(value, str) else list(arguments.iterable(value, argument, function))


@arguments.checked(count=arguments.count(1), keys=arguments.optional(_keys))  # netbenefit.io.arguments
def explore(
    scenario: Scenario | str | Path, *, count: int = 6, keys: str | Iterable[str] | None = None
) -> Explorer | Unavailable:
    """Sliders for ``scenario`` (a Scenario or a path) in Jupyter: :class:`Explorer`.

    ``count``: how many of the ranked drivers get a slider; ``keys``: the dotted keys to give
    sliders instead of the ranking. Where ipywidgets cannot be imported, returns
    :class:`Unavailable`, which says how to install it.
    """
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return Unavailable()

    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    return Explorer(scenario, count=count, keys=keys)
