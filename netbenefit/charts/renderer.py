"""Matplotlib's Agg renderer, drawing the same pixels with less work: each font file read once
into memory, each text laid out once, and each glyph rendered once for each place within a pixel
it is drawn at.

:func:`faster_renderer` gives the renderer that :func:`netbenefit.charts.style.figure_bytes`
prints every PNG with. Each of its three changes applies only where this version of Matplotlib is
built as this module expects (its own functions are reused, not rewritten, wherever they can be);
elsewhere that part is Matplotlib's own. ``tests/outputs/test_compare_charts.py`` prints texts and
charts with it and with Matplotlib's own canvas and compares the bytes.
"""

from __future__ import annotations

import functools
import os


@functools.cache
def faster_renderer() -> type | None:
    """A subclass of Matplotlib's ``RendererAgg`` with :func:`_fonts_in_memory`,
    :func:`_texts_laid_out_once` and :func:`_glyphs_rendered_once` where each applies; ``None``
    where none does."""
    from matplotlib.backends.backend_agg import RendererAgg

    methods = {
        **_fonts_in_memory(RendererAgg),
        **_texts_laid_out_once(RendererAgg),
        **_glyphs_rendered_once(RendererAgg),
    }
    if not methods:
        return None
    return type("RendererAgg", (RendererAgg,), {**methods, "__module__": __name__})


def _rebound(function, **names):
    """A copy of ``function`` that finds ``names`` in place of its module's own; LookupError
    where it does not use them all (or is a closure)."""
    import inspect
    import types

    function = inspect.unwrap(function)
    missing = set(names) - set(function.__code__.co_names)
    if missing or function.__closure__ is not None:
        raise LookupError(f"{function.__qualname__} is not built as expected: {sorted(missing)}")
    copy = types.FunctionType(
        function.__code__, {**function.__globals__, **names}, function.__name__, function.__defaults__
    )
    copy.__kwdefaults__ = function.__kwdefaults__
    return copy


def _fonts_in_memory(RendererAgg: type) -> dict:  # noqa: N803 (Matplotlib's name)
    """The renderer's ``_prepare_font``, reading each font file once into memory instead of
    through a file on disk.

    FreeType reads a glyph from its font file each time a text is measured or drawn, and
    Matplotlib hands it the file through Python: a seek and a read, each a system call, for every
    glyph. From memory, a text costs the same work without them. The fonts are Matplotlib's own:
    its own functions (``_get_font``, which builds a font and its fallbacks, ``get_font``, which
    caches it per thread, and the renderer's ``_prepare_font``) are copied with one name changed in
    each, so that the font files they open are read from bytes kept in memory; which fonts,
    fallbacks, sizes and options Matplotlib picks is untouched, and so are the pixels. Like
    Matplotlib's cache of fonts, this one is emptied in a forked process (a font cannot cross a
    fork; the bytes can)."""
    import io

    from matplotlib import font_manager, ft2font

    @functools.cache
    def font_file(path: str) -> bytes:
        with open(path, "rb") as file:
            return file.read()

    class FontFiles:  # the ft2font module as Matplotlib's _get_font sees it: files read from memory
        @staticmethod
        def FT2Font(filename, *args, **kwargs):  # noqa: N802 (Matplotlib's name)
            if isinstance(filename, str | bytes | os.PathLike):
                filename = io.BytesIO(font_file(os.fsdecode(filename)))
            return ft2font.FT2Font(filename, *args, **kwargs)

    try:
        build = functools.lru_cache(64)(_rebound(font_manager._get_font, ft2font=FontFiles))
        get_font = _rebound(font_manager.get_font, _get_font=build)
        prepare_font = _rebound(RendererAgg._prepare_font, get_font=get_font)
    except (AttributeError, LookupError):
        return {}
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=build.cache_clear)
    return {"_prepare_font": prepare_font}


#: How many laid-out texts a process keeps; when full, it starts again empty.
TEXTS_KEPT = 5_000


def _texts_laid_out_once(RendererAgg: type) -> dict:  # noqa: N803 (Matplotlib's name)
    """The renderer's ``draw_text``, laying out (shaping) each text once for each font, size and
    resolution and reusing its glyphs and their places wherever else it is drawn.

    Matplotlib (3.10 and later) lays out a text each time it draws it, to find each glyph and its
    place from the text's origin; these depend on the text, its font (the font object, which
    Matplotlib makes anew for another kerning factor or fallback list), size, resolution and
    hinting, and not on where the text is drawn. Tick labels, axis labels and footnotes are drawn
    again and again. Math text, and a text with font features or a language of its own, is drawn
    by Matplotlib's own function."""
    from matplotlib.backends.backend_agg import get_hinting_flag

    draw_text = RendererAgg.draw_text
    used = set(getattr(getattr(draw_text, "__code__", None), "co_names", ()))
    if not {"_prepare_font", "_layout", "_draw_text_glyphs_and_boxes", "get_fontfeatures"} <= used:
        return {}
    laid_out: dict = {}  # (font, size, dpi, text, flags) -> (font, size, glyph, 0, 1, x, y) of each glyph
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=laid_out.clear)  # its fonts are not the child's

    def draw_text_laid_out_once(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath or (mtext is not None and (mtext.get_fontfeatures() or mtext.get_language())):
            return draw_text(self, gc, x, y, s, prop, angle, ismath, mtext)
        font = self._prepare_font(prop)
        size = prop.get_size_in_points()
        flags = get_hinting_flag()
        key = (font, size, self.dpi, s, flags)
        glyphs = laid_out.get(key)
        if glyphs is None:
            items = font._layout(s, flags=flags, features=None, language=None)
            glyphs = tuple((item.ft_object, size, item.glyph_index, 0, 1, item.x, item.y) for item in items)
            if len(laid_out) >= TEXTS_KEPT:
                laid_out.clear()
            laid_out[key] = glyphs
        self._draw_text_glyphs_and_boxes(gc, x, y, angle, glyphs, [])

    draw_text_laid_out_once.__name__ = "draw_text"
    return {"draw_text": draw_text_laid_out_once}


#: How many rendered glyphs a process keeps (a few tens of bytes to a few kilobytes each); when
#: full, it starts again empty.
GLYPHS_KEPT = 20_000


def _glyphs_rendered_once(RendererAgg: type) -> dict:  # noqa: N803 (Matplotlib's name)
    """The renderer's ``_draw_text_glyphs_and_boxes``, rendering each glyph once for each font,
    size, resolution, angle and place within a pixel (in FreeType's 1/64 of a pixel) it is drawn
    at, and copying the same bitmap wherever else it is drawn at that place within a pixel.

    Matplotlib (3.10 and later) renders every glyph of a text on its own, at its position in
    FreeType's 1/64 of a pixel; a glyph moved by whole pixels is the same bitmap moved by as
    many pixels. Charts draw the same tick labels, axis labels and footnotes again and again,
    mostly at the same places within a pixel: of the 50,241 glyphs the charts of the 13 bundled
    scenarios draw, 6,603 are different. Glyphs drawn without antialiasing, and the boxes of math
    text, are drawn by Matplotlib's own function. (A glyph that no font has is warned of where the
    text is laid out, not here.)"""
    import math

    import numpy as np
    from matplotlib import ft2font

    draw = getattr(RendererAgg, "_draw_text_glyphs_and_boxes", None)
    used = set(getattr(getattr(draw, "__code__", None), "co_names", ()))
    if not {"_render_glyph", "_set_transform", "draw_text_image"} <= used or not hasattr(ft2font, "RenderMode"):
        return {}
    from matplotlib.backends.backend_agg import get_hinting_flag

    normal = ft2font.RenderMode.NORMAL
    rendered: dict = {}  # (font, size, dpi, glyph, angle, slant, extend, place within a pixel, flags) -> bitmap
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=rendered.clear)  # its fonts are not the child's

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):
        if not gc.get_antialiased():
            return draw(self, gc, x, y, angle, glyphs, boxes)
        # y is downwards. As Matplotlib's own, but for the glyphs rendered before.
        cos = math.cos(math.radians(angle))
        sin = math.sin(math.radians(angle))
        load_flags = get_hinting_flag()
        height = int(self.height)
        matrices: dict = {}
        for font, size, glyph_index, slant, extend, dx, dy in glyphs:  # dy is upwards.
            matrix = matrices.get((slant, extend))
            if matrix is None:
                matrix = matrices[slant, extend] = (
                    (0x10000 * np.array([[cos, -sin], [sin, cos]]) @ [[extend, extend * slant], [0, 1]])
                    .round()
                    .astype(int)
                )
            place = (
                round(0x40 * (x + dx * cos - dy * sin)),
                # FreeType's y is upwards.
                round(0x40 * (self.height - y + dx * sin + dy * cos)),
            )
            key = (font, size, self.dpi, glyph_index, angle, slant, extend, place[0] & 63, place[1] & 63, load_flags)
            bitmap = rendered.get(key)
            if bitmap is None:
                font.set_size(size, self.dpi)
                font._set_transform(matrix, list(place))
                glyph = font._render_glyph(glyph_index, load_flags, normal)
                # the bitmap and its corner at the place's whole pixel (0, 0)
                bitmap = (np.array(glyph.buffer), glyph.left - (place[0] >> 6), glyph.top - (place[1] >> 6))
                if len(rendered) >= GLYPHS_KEPT:
                    rendered.clear()
                rendered[key] = bitmap
            buffer, left, top = bitmap
            # draw_text_image's y is downwards & the bitmap bottom side.
            self._renderer.draw_text_image(
                buffer, left + (place[0] >> 6), height - (top + (place[1] >> 6)) + buffer.shape[0], 0, gc
            )
        if boxes:
            draw(self, gc, x, y, angle, (), boxes)

    return {"_draw_text_glyphs_and_boxes": _draw_text_glyphs_and_boxes}
