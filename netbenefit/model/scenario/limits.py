"""Every bound on a scenario file, in one place: the years a file may name, the size of a file,
the depth and the expanded size of its YAML document, the problems one error lists.

None is a statutory number: each guards against runaway input (a horizon, a file, a document
that would exhaust time, memory or the stack).
"""

from __future__ import annotations

from ...io.named_files import MAX_FILE_BYTES
from ...io.strict_yaml import MAX_YAML_DEPTH, MAX_YAML_NODES

#: The longest timeline the model runs, in years (cashflows.MAXIMUM_HORIZON_YEARS); whole-number
#: year keys and periods are bounded by it so that no value of a file overflows a float.
MAX_YEARS = 1000  # not a statutory number: a guard against runaway horizons
#: Problems of one file listed one per line, at most (a generated file may have thousands).
MAX_PROBLEMS_LISTED = 100  # not a statutory number: a bound on the length of an error report

__all__ = ["MAX_FILE_BYTES", "MAX_PROBLEMS_LISTED", "MAX_YAML_DEPTH", "MAX_YAML_NODES", "MAX_YEARS"]
