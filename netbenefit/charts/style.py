"""Deprecated in 0.2.0, removed in 0.3.0: this module is :mod:`netbenefit.views.charts.style`; printing
a figure (``save_figure``, ``figure_bytes``, ``DPI``, ...) is :mod:`netbenefit.views.charts.printing`."""

from typing import Any

from .. import _moved
from ..views.charts import printing

_style, __dir__, __all__ = _moved.moved(__name__, "netbenefit.views.charts.style")


def __getattr__(name: str) -> Any:
    """A name of the house style, or of printing a figure (in this module's place until 0.2.0)."""
    if not name.startswith("_") and hasattr(printing, name):
        return getattr(printing, name)
    return _style(name)
