"""Deprecated in 0.2.0, removed in 0.3.0: this module is :mod:`netbenefit.model.scenario.paths`."""

from .. import _moved

__getattr__, __dir__, __all__ = _moved.moved(__name__, "netbenefit.model.scenario.paths")
