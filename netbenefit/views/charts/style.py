"""The house style of every chart: palette, hatching, formatters, figures, text fitted to them and
the conventions footnote (printing a figure: :mod:`netbenefit.views.charts.printing`).

Backend: when no ``ax`` is given, a new figure is made with ``matplotlib.pyplot``. If pyplot has
not been imported yet and the ``MPLBACKEND`` environment variable is not set, the headless
``Agg`` backend is selected, so the charts work on a server or in CI without a display. Jupyter
sets ``MPLBACKEND`` to its inline backend, which is kept; to use another backend, import pyplot
(or set ``MPLBACKEND``) before drawing. :func:`new_figure` makes a figure without pyplot at all,
which is what the command-line tools use.

Colours: "passes" is blue and "fails" is orange with a hatch, so the two stay apart when printed
in grey or seen by a reader with red-green colour blindness.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import textwrap
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from ... import labels
from ...io.writing import import_held
from ...model.conventions import Conventions

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ...model.result import Result

#: Colours of a passing and a failing test, and of the threshold marks.
PASS_COLOUR, FAIL_COLOUR, THRESHOLD_COLOUR = "#1f77b4", "#ff7f0e", "#222222"
FAIL_HATCH = "//"
#: A second colour for pairs (low / high ends, approved / certified) and neutral greys.
LOW_COLOUR, HIGH_COLOUR, NEUTRAL_COLOUR, LIGHT_COLOUR = "#9ecae1", "#08519c", "#555555", "#bbbbbb"
#: Colours of a series of categories (taxes, steps), in order; the first is the pass colour.
PALETTE = ("#1f77b4", "#9ecae1", "#2ca02c", "#8c564b", "#9467bd", "#d7b5a6", "#7f7f7f", "#17becf")
#: The axis label of a ratio set against a threshold: the ratio of the test that decides 71(a)(5)
#: (the whole project's for a project without later phases), ``Result.ratio``.
RATIO_AXIS_LABEL = "Net benefit ratio of the test that decides, 71(a)(5) [%]"
#: The gid of the conventions footnote of a chart (tests and tools find it by this id).
FOOTNOTE_GID = "netbenefit-conventions"


# ----------------------------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------------------------


#: Every chart is drawn with math text off: text between dollar signs (a bonus named ``$5$``, a
#: stream ``$1M to $2M``) is drawn as written, never read as maths, and no call site escapes it.
PLAIN_TEXT = {"text.parse_math": False}


_Arguments = ParamSpec("_Arguments")
_Drawn = TypeVar("_Drawn")


def plain_text(function: Callable[_Arguments, _Drawn]) -> Callable[_Arguments, _Drawn]:
    """``function`` (a chart), drawing with math text off (:data:`PLAIN_TEXT`): every text it makes
    is drawn as written. The charts of :mod:`netbenefit.views.charts` are all wrapped so."""

    @functools.wraps(function)
    def drawn(*args: _Arguments.args, **kwargs: _Arguments.kwargs) -> _Drawn:
        chart_library()
        import matplotlib

        # only where math text would be on outside (not in a chart that another chart draws)
        make_ticks = matplotlib.rcParams["text.parse_math"]
        with matplotlib.rc_context(PLAIN_TEXT):
            drawn_on = function(*args, **kwargs)
            figure = getattr(drawn_on, "figure", drawn_on)
            if make_ticks:
                for ax in getattr(figure, "axes", ()):
                    for axis in (ax.xaxis, ax.yaxis):  # ticks are made when first asked for: now
                        axis.get_major_ticks()
                        axis.get_minor_ticks()
            return drawn_on

    return drawn


def chart_library() -> None:
    """Import the chart library (matplotlib) with the signals that end a run held, the first time
    (:func:`netbenefit.io.writing.import_held`): a signal landing while its C extensions initialise
    is acted on after, in one line, never inside them (a traceback, exit 1). Every first use of it
    passes here: a chart drawn (:func:`plain_text`), a figure made, printed or measured."""
    import_held()


def _use_headless_backend_unless_chosen() -> None:
    """Select ``Agg`` unless pyplot is already in use or ``MPLBACKEND`` chooses a backend."""
    chart_library()
    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        import matplotlib

        matplotlib.use("Agg")


#: The title of an Axes a chart makes sits at the top of the Axes (``axes.titley`` 1.0, and the
#: title's pad above it), where Matplotlib would otherwise search for a place clear of what stands
#: above the Axes: the charts put nothing there (no tick labels, axis label or offset text at the
#: top), so the search always found the top, and it measured every tick label of the y axis for
#: each title at every layout pass and print (docs/charts-and-reports.md, "Performance notes"). A
#: chart drawn on an Axes of yours (``ax=``) keeps the search.
TITLE_AT_THE_TOP = {"axes.titley": 1.0}


def axes_or_new(ax: Axes | None, size: tuple[float, float]) -> Axes:
    """``ax`` itself, or the Axes of a new pyplot figure of ``size`` [inches], its title at the top
    (:data:`TITLE_AT_THE_TOP`)."""
    if ax is not None:
        return ax
    _use_headless_backend_unless_chosen()
    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(TITLE_AT_THE_TOP):
        _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def new_figure(size: tuple[float, float] = (10.0, 5.5)) -> tuple[Figure, Axes]:
    """A figure and its Axes, made without pyplot (no backend, nothing kept in memory), the Axes'
    title at its top (:data:`TITLE_AT_THE_TOP`).

    Parameters
    ----------
    size : (float, float)
        Width and height. [inches]
    """
    chart_library()
    import matplotlib
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    with matplotlib.rc_context(TITLE_AT_THE_TOP):
        return figure, figure.add_subplot()



def figure_size(chart: str, results: Result | Sequence[Result]) -> tuple[float, float]:
    """A readable size for ``chart`` (a function name of this module) drawn for ``results``. [inches]"""
    if chart == "compare_ratios":
        return (11.0, max(3.0, 1.2 + 0.55 * len(results)))
    if chart == "scorecard":
        return (11.0, 1.2 + 0.62 * len(results.checks))
    return (10.0, 5.5)


# ----------------------------------------------------------------------------------------------
# Formatting
# ----------------------------------------------------------------------------------------------


def money_axis(axis, scale: float) -> None:
    """Format the ticks of ``axis`` (``ax.yaxis`` or ``ax.xaxis``) as dollars, in millions when large."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: labels.money(value, scale)))


def percent_axis(axis) -> None:
    """Format ratio ticks (4.0) as percentages (400%), as the statute states its thresholds."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.0%}"))


def points_axis(axis) -> None:
    """Format the ticks of a difference of two ratios (0.25) as signed percentage points (``+25``);
    the axis label says the unit, ``[percentage points]``."""
    from matplotlib.ticker import FuncFormatter

    def points(value, _):
        text = f"{100 * value:+.0f}"
        return "0" if float(text) == 0 else text

    axis.set_major_formatter(FuncFormatter(points))


def wrapped_lines(text: str, width: int, lines: int, ellipsis: str) -> list[str]:
    """``text`` wrapped at ``width`` on at most ``lines`` lines, the last ending in ``ellipsis``
    when the text is cut short (``textwrap.wrap``'s keyword for that string)."""
    return textwrap.wrap(text, width=width, max_lines=lines, placeholder=ellipsis)


class MissingGlyphsWarning(UserWarning):
    """A name has characters that no font of the charts can draw (said once per name)."""


#: What a run of characters the chart fonts lack is drawn as (the warning says so, once).
MISSING_GLYPHS = "[?]"


@functools.cache
def _drawable_codepoints() -> frozenset[int]:
    """The characters the charts' font can draw (Matplotlib's font for the house family)."""
    chart_library()
    import matplotlib
    from matplotlib import font_manager, ft2font

    path = font_manager.findfont(font_manager.FontProperties(family=matplotlib.rcParams["font.family"]))
    return frozenset(ft2font.FT2Font(path).get_charmap())


@functools.cache
def drawable(text: str) -> str:
    """``text`` as the charts can draw it: each run of characters their font lacks (a name in a
    script such as Chinese or Japanese, where no font with it is installed) drawn as
    :data:`MISSING_GLYPHS` instead of empty boxes, and said once, by a :class:`MissingGlyphsWarning`
    naming the text (install a font with the script, such as Noto Sans CJK, to draw it)."""
    covered = _drawable_codepoints()
    if all(ord(c) in covered or c.isspace() for c in text):
        return text
    shown = re.sub(r"[^\s]+", lambda m: "".join(c if ord(c) in covered else "\0" for c in m.group(0)), text)
    shown = re.sub("\0+", MISSING_GLYPHS, shown)
    warnings.warn(
        f"{text!r} has characters the charts' font cannot draw: drawn as {shown!r}; install a font that has "
        "them (Noto Sans CJK for Chinese, Japanese or Korean) to draw them",
        MissingGlyphsWarning,
        stacklevel=2,
    )
    return shown


#: The longest word a label keeps whole [characters]: a longer one (a path, a code) is shortened,
#: its cut marked by an ellipsis. Every other word is kept whole or left out whole.
LONGEST_WORD = 40  # not a statutory number: what a tick label or a title line holds


def _words(text: str) -> list[str]:
    """The words of ``text``, each at most :data:`LONGEST_WORD` characters (a longer one cut, and its
    cut marked "...")."""
    return [w if len(w) <= LONGEST_WORD else w[: LONGEST_WORD - 3] + "..." for w in text.split()]


def _fit(words: list[str], width: int, *, from_end: bool = False) -> list[str]:
    """The most words from the start (or the end) of ``words`` that fit ``width`` characters joined
    by spaces; the first one at least, whatever its length."""
    taken: list[str] = []
    for word in reversed(words) if from_end else words:
        if taken and len(" ".join([*taken, word])) > width:
            break
        taken.append(word)
    return taken[::-1] if from_end else taken


def scenario_label(name: str, width: int = 30, lines: int = 2) -> str:
    """A scenario name on at most ``lines`` lines of about ``width`` characters, drawable
    (:func:`drawable`), never cut inside a word (a word longer than :data:`LONGEST_WORD` aside).

    A longer name keeps its beginning and its end (where variants usually differ), with an ellipsis
    between them: on its last line (``...`` and the end), or, on one line, between the two.

    >>> scenario_label("Life-sciences campus, two phases, distressed municipality (discount rate 3%)", 40, 1)
    'Life-sciences... (discount rate 3%)'
    >>> print(scenario_label("Supercalifragilisticexpialidocious Holdings Incorporated of Newark", 20))
    Supercalifragilisticexpialidocious...
    ...of Newark
    """
    words = _words(drawable(name))
    wrapped = textwrap.wrap(" ".join(words), width=width, break_long_words=False, break_on_hyphens=False)
    if len(wrapped) <= lines:
        return "\n".join(wrapped)
    if lines == 1:  # the beginning and the end on one line
        tail = _fit(words[1:], (width - 3) // 2, from_end=True) if len(words) > 1 else []
        head = _fit(words[: len(words) - len(tail)], width - 3 - len(" ".join(tail)))
        return " ".join(head) + "..." + (" " + " ".join(tail) if tail else "")
    head_lines: list[str] = []
    rest = list(words)
    for i in range(lines - 1):
        line = _fit(rest, width - 3 if i == lines - 2 else width)  # the last one carries "..."
        head_lines.append(" ".join(line))
        rest = rest[len(line) :]
    tail = _fit(rest[1:], width - 3, from_end=True) if len(rest) > 1 else rest
    if len(tail) < len(rest):
        head_lines[-1] += "..."
        tail_line = "..." + " ".join(tail)
    else:
        tail_line = " ".join(tail)
    return "\n".join([*head_lines, tail_line])


#: Width of a character of the house fonts, as a share of the font size (DejaVu Sans, digits and
#: lower case); text is fitted to the figure with it before anything is drawn.
_CHARACTER_WIDTH = 0.62  # not a statutory number: a measure of the font
#: Share of the figure's width the Axes take, at most, beside their tick labels.
_AXES_SHARE = 0.78  # not a statutory number: a measure of the layout


def text_width(text: str, fontsize: float) -> float:
    """The width of ``text`` drawn at ``fontsize`` in the house font, its longest line. [pt]"""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(size=fontsize)
    return max((text_to_path.get_text_width_height_descent(line, font, ismath=False)[0] for line in text.split("\n")),
               default=0.0)


def characters_across(ax: Axes, fontsize: float, share: float = _AXES_SHARE) -> int:
    """How many characters of ``fontsize`` [pt] fit across ``share`` of the figure's width."""
    return max(8, int(ax.figure.get_figwidth() * 72 * share / (fontsize * _CHARACTER_WIDTH)))


def set_title(ax: Axes, text: str, *, lines: int = 3) -> None:
    """The title of ``ax``, each of its lines wrapped to the Axes' width, at most ``lines`` lines
    (the last cut short with an ellipsis): a long name or a long list of keys stays in the figure."""
    chart_library()
    from matplotlib import rcParams
    from matplotlib.font_manager import FontProperties

    size = FontProperties(size=rcParams["axes.titlesize"]).get_size_in_points()
    width = characters_across(ax, size)
    wrapped: list[str] = []
    for line in text.split("\n"):
        wrapped += wrapped_lines(line, width, lines, "...") or [""]
    if len(wrapped) > lines:
        wrapped = [*wrapped[: lines - 1], wrapped_lines(" ".join(wrapped[lines - 1 :]), width, 1, "...")[0]]
    ax.set_title("\n".join(wrapped))


def label_every(ax: Axes, count: int, characters: int, fontsize: float) -> int:
    """Label every k-th of ``count`` evenly spaced bars so that labels of ``characters``
    characters at ``fontsize`` [pt] do not touch; returns k (1: every bar)."""
    if count <= 1:
        return 1
    per_bar = ax.figure.get_figwidth() * 72 * _AXES_SHARE / count  # [pt]
    needed = characters * fontsize * _CHARACTER_WIDTH + 4
    return max(1, -(-int(needed) // max(int(per_bar), 1)))


def tick_text(text: str, width: int, lines: int = 3) -> str:
    """A tick label wrapped at ``width`` characters on at most ``lines`` lines (an ellipsis ends a
    longer one); each line of ``text`` is wrapped on its own."""
    wrapped: list[str] = []
    for line in text.split("\n"):
        wrapped += wrapped_lines(line, max(width, 4), lines, "...") or [""]
    if len(wrapped) > lines:
        wrapped = [*wrapped[: lines - 1], wrapped[lines - 1].rstrip(".") + "..."]
    return "\n".join(wrapped)


def verdict(passes: bool) -> str:
    return "passes" if passes else "fails"


def year_axis(ax: Axes, years) -> None:
    from matplotlib.ticker import MaxNLocator

    if len(years) <= 20:
        ax.set_xticks(list(years))  # every year labelled
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(min(years) - 0.6, max(years) + 0.6)
    ax.set_xlabel("Project year after approval [year]")


#: The keywords of a value label that a line may cross (a threshold, a base ratio, a cap): an
#: opaque white backing drawn above the lines, so that no line strikes the label's words.
LABEL_BACKING: dict[str, Any] = {
    "bbox": {"boxstyle": "square,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.9},
    "zorder": 6,
}


def pass_fail(passes: bool) -> dict[str, Any]:
    """Bar keywords of a passing (blue) or failing (orange, hatched) test, readable in grey."""
    if passes:
        return {"color": PASS_COLOUR, "edgecolor": "white", "hatch": None}
    return {"facecolor": FAIL_COLOUR, "edgecolor": "black", "hatch": FAIL_HATCH}


def pass_fail_handles(passes_label: str, fails_label: str) -> list:
    """Legend patches for a passing and a failing bar."""
    from matplotlib.patches import Patch

    return [
        Patch(color=PASS_COLOUR, label=passes_label),
        Patch(facecolor=FAIL_COLOUR, hatch=FAIL_HATCH, edgecolor="black", label=fails_label),
    ]


# ----------------------------------------------------------------------------------------------
# The conventions footnote
# ----------------------------------------------------------------------------------------------


def _conventions(thing: Any) -> list[Conventions]:
    """The conventions of a Result, a Conventions, a table with ``attrs["conventions"]``, an object
    with ``.conventions``, or a sequence of these."""
    if thing is None:
        return []
    if isinstance(thing, Conventions):
        return [thing]
    attrs = getattr(thing, "attrs", None)
    if isinstance(attrs, dict) and "conventions" in attrs:
        return _conventions(attrs["conventions"])
    if isinstance(thing, dict) and "discount_rate" in thing:
        return [Conventions(**thing)]
    if hasattr(thing, "scenario") and hasattr(thing, "commitment_period_years"):
        return [Conventions.of_result(thing)]
    if hasattr(thing, "conventions"):
        return _conventions(thing.conventions)
    if isinstance(thing, Sequence) and not isinstance(thing, str):
        return [c for item in thing for c in _conventions(item)]
    return []


def _joined(values: list[str]) -> str:
    return " or ".join(dict.fromkeys(values))


def _span(values: list[float], form) -> str:
    """``form(v)`` of the one value, or ``form(low) to form(high)``."""
    low, high = min(values), max(values)
    return form(low) if low == high else f"{form(low)} to {form(high)}"


def conventions_text(result_or_results: Any) -> str:
    """One or two lines: discount rate, timing, nominal or real USD, and the benefit window.

    ``result_or_results`` is a Result, several, a :class:`~netbenefit.model.conventions.Conventions`,
    or an analysis table carrying ``attrs["conventions"]``. Values that differ between results
    are listed, each once.
    """
    found = _conventions(result_or_results)
    if not found:
        return ""
    rate = _span([c.discount_rate for c in found], labels.share)
    timing = _joined([c.timing.replace("_", "-") for c in found])
    dollars = _joined([c.dollars for c in found])
    period = _span([c.commitment_period_years for c in found], labels.years)
    extensions = []
    for c in found:
        if c.extended_years == 0:
            extensions.append("no extension")
        else:
            extensions.append(
                f"extended commitment {labels.years(c.extended_years)} "
                f"{'counted' if c.extension_counted else 'not counted'}, 71(a)(5)(d)"
            )
    varied = sorted({key for c in found for key in c.varied})
    named = {key: text for c in found for key, text in zip(c.varied, c.varied_labels, strict=False)}  # with phases
    text = (
        f"Discount rate {rate} a year, {timing} timing, present values at approval; {dollars} USD. "
        f"Benefit window: commitment period {period} + {_joined(extensions)}."
    )
    if varied:
        text += " Varied: " + ", ".join(named.get(key) or labels.short_label(key) for key in varied) + "."
    text += f" Method: {_joined([c.method for c in found])}."
    return text


def conventions_footnote(result_or_results: Any, ax: Axes | None = None, *, extra: str = ""):
    """Write :func:`conventions_text` (and ``extra``) in small grey type under ``ax``.

    Placed below the x-axis label, left-aligned with the Axes; constrained layout makes room for
    it. Returns the text artist (its gid is :data:`FOOTNOTE_GID`), or None without conventions
    and ``extra``. Called with only a Result (no ``ax``), returns the text alone.
    """
    text = " ".join(part for part in (conventions_text(result_or_results), extra) if part)
    if ax is None:
        return text
    if not text:
        return None
    wrapped = "\n".join(textwrap.wrap(text, width=int(ax.figure.get_figwidth() * 16)))
    anchor = ax.xaxis.label if ax.get_xlabel() else ax.xaxis
    note = ax.annotate(
        wrapped,
        xy=(0.0, 0.0),
        xycoords=("figure fraction", anchor),
        xytext=(6, -5),
        textcoords="offset points",
        ha="left",
        va="top",
        fontsize=7,
        color="#555555",
        annotation_clip=False,
    )
    note.set_gid(FOOTNOTE_GID)
    return note


def footnote_of(ax: Axes) -> str:
    """The text of the conventions footnote of ``ax`` ("" when it has none)."""
    for child in ax.texts:
        if child.get_gid() == FOOTNOTE_GID:
            return child.get_text().replace("\n", " ")
    return ""
