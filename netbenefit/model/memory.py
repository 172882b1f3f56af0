"""The memory a run needs, estimated before it is allocated.

A run that holds one value per draw (a Monte Carlo run's ratios, a portfolio's fiscal-year sums)
allocates them at its start. Asked for more than the machine can give (``--draws 1e9``), numpy
raises ``MemoryError`` or the system ends the process; so the estimate is checked first, against
the memory available to this process (the free physical memory, and the address-space limit when
one is set), and a run that cannot fit is one line naming the key to lower.
"""

from __future__ import annotations

import os

try:
    import resource
except ImportError:  # not POSIX (Windows): no limit on the address space to read
    resource = None

from ..errors import ScenarioError

#: The share of the available memory a run may plan to use (the rest: the model's own arrays,
#: Python, the libraries). Not a statutory number.
USABLE_SHARE = 0.5


def available_bytes() -> int | None:
    """The memory this process can still allocate, or None when it cannot be known."""
    known = []
    try:
        known.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, OSError, ValueError):
        pass
    try:
        if resource is not None:
            soft, _ = resource.getrlimit(resource.RLIMIT_AS)
            if soft not in (resource.RLIM_INFINITY, -1) and soft > 0:
                known.append(int(soft))
    except (OSError, ValueError):
        pass
    return min(known) if known else None


def check_memory(source: str, key: str, needed: float, what: str) -> None:
    """Raise ScenarioError naming ``key`` when ``needed`` bytes (for ``what``) exceed the usable
    share of :func:`available_bytes`."""
    available = available_bytes()
    if available is None or needed <= available * USABLE_SHARE:
        return
    raise ScenarioError(
        source,
        key,
        f"{what} needs about {needed / 2**30:,.1f} GiB of memory, more than this machine can give "
        f"({available * USABLE_SHARE / 2**30:,.1f} GiB): lower it",
    )
