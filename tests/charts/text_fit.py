"""Proofreading a drawn figure: text that overlaps, text outside the figure, money labels whose
rounding changes the leading digit. Used by test_text_fit.py."""

from __future__ import annotations

import re

#: Overlap of two text boxes tolerated, in pixels (anti-aliasing and the glyphs' side bearings).
TOLERANCE_PX = 1.0
_MONEY = re.compile(r"-?\\?\$(\d[\d,]*(?:\.\d+)?)([KMB]?)")
_SCALE = {"": 1.0, "K": 1e3, "M": 1e6, "B": 1e9}


def drawn_texts(figure) -> list:
    """Every visible, non-empty Text artist that the figure draws: titles, labels, annotations,
    legend entries, the footnote, and the tick labels of ticks inside the axes' view."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    if not hasattr(figure.canvas, "get_renderer"):  # a figure made without pyplot
        FigureCanvasAgg(figure)
    figure.canvas.draw()
    tick_labels, shown = set(), []
    for ax in figure.axes:
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            low, high = sorted(limits)
            span = high - low
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                for label in (tick.label1, tick.label2):
                    tick_labels.add(id(label))
                    inside = low - 1e-9 * span <= tick.get_loc() <= high + 1e-9 * span
                    if inside and tick.get_visible() and label.get_visible() and label.get_text().strip():
                        shown.append(label)
    for artist in figure.findobj(Text):
        if id(artist) in tick_labels or not artist.get_visible() or not artist.get_text().strip():
            continue
        if artist.axes is not None and not artist.axes.get_visible():
            continue
        shown.append(artist)
    return shown


def text_problems(figure, name: str = "") -> list[str]:
    """What a proofreader would mark: overlapping texts, texts outside the figure."""
    texts = drawn_texts(figure)
    renderer = figure.canvas.get_renderer()
    boxes = [(t, t.get_window_extent(renderer)) for t in texts]
    frame = figure.bbox
    problems = []
    for text, box in boxes:
        if (
            box.x0 < frame.x0 - TOLERANCE_PX
            or box.y0 < frame.y0 - TOLERANCE_PX
            or box.x1 > frame.x1 + TOLERANCE_PX
            or box.y1 > frame.y1 + TOLERANCE_PX
        ):
            problems.append(f"{name}: {_shown(text)} leaves the figure ({_box(box)} in {_box(frame)})")
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if width > TOLERANCE_PX and height > TOLERANCE_PX:
                problems.append(f"{name}: {_shown(a)} overlaps {_shown(b)} ({width:.0f} x {height:.0f} px)")
    return problems


def money_amounts(text: str) -> list[float]:
    """The amounts of the money labels in ``text`` ($9.5K -> 9500)."""
    amounts = []
    for match in _MONEY.finditer(text):
        number = float(match.group(1).replace(",", ""))
        amounts.append(number * _SCALE[match.group(2)])
    return amounts


def leading_digit(value: float) -> str:
    """The first significant digit of ``value`` ("9" for 9,500 and for 0.95)."""
    digits = f"{abs(value):.15e}"
    return digits[0]


def _shown(text) -> str:
    return repr(text.get_text()[:60])


def _box(box) -> str:
    return f"[{box.x0:.0f}, {box.y0:.0f}, {box.x1:.0f}, {box.y1:.0f}]"


def _categories(axis) -> bool:
    """Whether the ticks are the positions 0, 1, 2... of categories (a sweep's grid)."""
    import numpy as np

    locations = axis.get_ticklocs()
    return bool(np.array_equal(locations, np.arange(len(locations))))


def money_tick_problems(figure, name: str = "") -> list[str]:
    """Money tick labels whose amount has another leading digit than the tick's value (a tick at
    9,500 labelled "$10K")."""
    problems = []
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if "[USD" not in axis.label.get_text() or axis.get_ticklocs().size and _categories(axis):
                continue  # an axis of amounts (its label gives the unit), not of categories
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():
                location, text = tick.get_loc(), tick.label1.get_text().replace("\\$", "$")
                amounts = money_amounts(text)
                if not (low <= location <= high) or len(amounts) != 1 or location == 0 or amounts[0] == 0:
                    continue
                if leading_digit(amounts[0]) != leading_digit(location):
                    problems.append(f"{name}: the tick at {location:,.2f} reads {text!r}")
    return problems


#: How far inside a label's box a line must pass to strike it, in pixels (a line grazing a box is not a strike).
STRIKE_MARGIN_PX = 1.5


def _line_points(line):
    """The display coordinates of a drawn line, one point every pixel along each segment, kept to
    its Axes' box (what is clipped is not drawn)."""
    import numpy as np

    if line.get_linestyle() in ("None", "", " ") or not line.get_visible():
        return np.empty((0, 2))
    vertices = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
    vertices = vertices[np.isfinite(vertices).all(axis=1)]
    points = []
    for (x0, y0), (x1, y1) in zip(vertices[:-1], vertices[1:], strict=False):
        steps = max(2, int(np.hypot(x1 - x0, y1 - y0)) + 1)
        t = np.linspace(0.0, 1.0, steps)[:, None]
        points.append(np.hstack([x0 + t * (x1 - x0), y0 + t * (y1 - y0)]))
    if not points:
        return np.empty((0, 2))
    found = np.vstack(points)
    box = line.axes.bbox
    inside = (found[:, 0] >= box.x0) & (found[:, 0] <= box.x1) & (found[:, 1] >= box.y0) & (found[:, 1] <= box.y1)
    return found[inside]


def _backed_above(text, line) -> bool:
    """Whether ``text`` has an opaque backing drawn above ``line`` (the line passes behind it)."""
    patch = text.get_bbox_patch()
    if patch is None or not patch.get_visible() or patch.get_facecolor()[3] < 0.85:
        return False
    return text.get_zorder() > line.get_zorder()


def line_problems(figure, name: str = "", *, backing: bool = True) -> list[str]:
    """Labels struck by a line: every text an Axes writes (annotations, value labels; not the
    footnote, titles or ticks) against every drawn line of the figure (data lines, thresholds),
    unless the label has an opaque backing drawn above the line (with ``backing=False``, a line that
    passes behind a label strikes it too)."""
    from netbenefit.views.charts.style import FOOTNOTE_GID

    texts = drawn_texts(figure)
    renderer = figure.canvas.get_renderer()
    lines = [(line, _line_points(line)) for ax in figure.axes for line in ax.lines]
    problems = []
    for text in texts:
        if text.axes is None or text not in text.axes.texts or text.get_gid() == FOOTNOTE_GID:
            continue
        box = text.get_window_extent(renderer).padded(-STRIKE_MARGIN_PX)
        if box.width <= 0 or box.height <= 0:
            continue
        for line, points in lines:
            if not len(points) or (backing and _backed_above(text, line)):
                continue
            hit = (points[:, 0] > box.x0) & (points[:, 0] < box.x1) & (points[:, 1] > box.y0) & (points[:, 1] < box.y1)
            if hit.any():
                problems.append(f"{name}: {_shown(text)} struck by the line {line.get_label()!r}")
                break
    return problems
