"""Shared pytest configuration: hypothesis profiles.

``ci`` (the default) is deterministic and keeps no example database, so a run explores the same
inputs on every machine and writes nothing into the work tree; ``thorough`` explores ten times
more inputs for a local run: ``HYPOTHESIS_PROFILE=thorough python -m pytest tests/properties``.
"""

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "database": None,
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow],
}
settings.register_profile("ci", derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
