"""The installed version of netbenefit, read from the installed package's metadata on first use.

A ground-floor module: it imports nothing of netbenefit's."""

from __future__ import annotations

import functools
from importlib.metadata import PackageNotFoundError, version

#: What :func:`installed_version` gives where netbenefit runs from a source tree that is not
#: installed: ``__version__`` says ``0+unknown`` (a PEP 440 local version), the command line's
#: ``--version`` and the HTML report say ``unknown``.
NOT_INSTALLED = "0+unknown"


@functools.cache
def _installed() -> str | None:
    try:
        return version("netbenefit")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return None


def installed_version(missing: str = NOT_INSTALLED) -> str:
    """The installed version of netbenefit, or ``missing`` where it is not installed."""
    found = _installed()
    return missing if found is None else found
