"""The old public import paths, kept for one release as deprecated shims, as numpy keeps the modules
it moved (``numpy/core/_utils.py``): each module at an old path (``netbenefit/charts/__init__.py``,
``netbenefit/rules/clawback.py``, ...) warns once, when it is first imported, naming its new path
and the version that removes it, then gives the new module's objects, the same ones.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from importlib import import_module
from typing import Any

#: The release that moved the modules to their floors, and the one that removes the old paths.
SINCE = "0.2.0"
REMOVED_IN = "0.3.0"


def moved(old: str, new: str) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """Warn that the module ``old`` is now ``new`` (a ``DeprecationWarning`` at the line that
    imports it), and give the old module its ``__getattr__``, ``__dir__`` (PEP 562) and
    ``__all__``: every name is looked up in ``new``."""
    warnings.warn(
        f"{old} was deprecated in netbenefit {SINCE} and will be removed in {REMOVED_IN}: use {new} instead",
        DeprecationWarning,
        stacklevel=3,  # the module's body, then the line that imports it
    )
    module = import_module(new)

    def __getattr__(name: str) -> Any:
        return getattr(module, name)

    def __dir__() -> list[str]:
        return dir(module)

    return __getattr__, __dir__, list(getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")]))
