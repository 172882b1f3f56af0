"""Every chart netbenefit draws: matplotlib only, for notebooks, reports and the command line.

Every chart function takes results the library computed (a :class:`~netbenefit.model.result.Result`,
a list of them, or an analysis table) and an optional ``ax=``; it draws on that Axes, or on a new
figure when none is given, and returns the Axes. The charts read the results only: they never
apply a rule of s.71 themselves, so a chart always agrees with :meth:`Result.summary`.

>>> import netbenefit
>>> from netbenefit.views import charts
>>> result = netbenefit.evaluate("scenarios/party_city.yaml")  # doctest: +SKIP
>>> ax = charts.cumulative_pv(result)  # doctest: +SKIP
>>> charts.save_figure(ax.figure, "party_city.png")  # doctest: +SKIP

Modules: :mod:`.style` (palette, hatching, formatters, figures), :mod:`.results` (one scenario
and comparisons), :mod:`.award` (award build-up, life after approval, the economist's view),
:mod:`.analysis` (sensitivity, sweeps), :mod:`.montecarlo` (the Monte Carlo distribution, percentile
bands), :mod:`.cumulative` (the cumulative PV of the test that decides), :mod:`.schedules` (benefits
by tax, the clawback schedule, the ratio waterfall of a Diff).

Every chart is a plain function, one object whichever path names it (``charts.cumulative_pv is
charts.cumulative.cumulative_pv``), drawn with math text off: each is defined under
:func:`~netbenefit.views.charts.style.plain_text`, so a dollar sign in a name is drawn as written.
"""

from .analysis import sweep, sweep_keys, tornado
from .award import award_waterfall, credits_by_year, economist_view_chart
from .montecarlo import fan, montecarlo_distribution
from .printing import FORMATS, save_figure
from .results import (
    COST_COLOUR,
    COST_LABEL,
    SCENARIO_CHARTS,
    STREAM_CATEGORIES,
    benefit_streams,
    chart_note,
    compare_ratios,
    cumulative_pv,
    draw,
    meaningful_charts,
    phase_ratios,
    repayment_schedule,
    scorecard,
    stream_categories,
)
from .schedules import benefits_by_tax, clawback_schedule, ratio_waterfall
from .style import (
    FAIL_COLOUR,
    FAIL_HATCH,
    FOOTNOTE_GID,
    PALETTE,
    PASS_COLOUR,
    THRESHOLD_COLOUR,
    conventions_footnote,
    conventions_text,
    figure_size,
    footnote_of,
    new_figure,
    plain_text,
)

__all__ = [
    "FAIL_COLOUR",
    "FAIL_HATCH",
    "FOOTNOTE_GID",
    "FORMATS",
    "PALETTE",
    "PASS_COLOUR",
    "SCENARIO_CHARTS",
    "COST_COLOUR",
    "COST_LABEL",
    "STREAM_CATEGORIES",
    "THRESHOLD_COLOUR",
    "award_waterfall",
    "benefit_streams",
    "benefits_by_tax",
    "chart_note",
    "clawback_schedule",
    "conventions_footnote",
    "conventions_text",
    "fan",
    "footnote_of",
    "montecarlo_distribution",
    "ratio_waterfall",
    "sweep",
    "sweep_keys",
    "compare_ratios",
    "credits_by_year",
    "cumulative_pv",
    "draw",
    "economist_view_chart",
    "figure_size",
    "meaningful_charts",
    "new_figure",
    "phase_ratios",
    "plain_text",
    "repayment_schedule",
    "save_figure",
    "scorecard",
    "stream_categories",
    "tornado",
]
