"""What draws a chart file: one digest of everything its bytes are made from.

``compare`` keeps a chart whose file is still the one it wrote and whose digest has not changed
(:mod:`netbenefit.io.run_folder` records both in the folder's manifest), and draws only the others. The
digest of a chart file (:func:`chart_key`) covers:

- the data the chart reads: for each result it draws, the result's facts (every field that is
  not a table), the model's arrays the tables are built from (``Result.computation``) and the
  validated scenario (every value, defaults included; the multiplier table read with it; its
  source), so that any input that moves a number or a message moves the digest;
- its options: the chart, the image format, the resolution and the PNG writer's options, the
  SVG id salt and the date an SVG or PDF records (``SOURCE_DATE_EPOCH``);
- the package: its version and the bytes of every file of the installed package (code,
  parameters), so that an edited or upgraded netbenefit never keeps a chart drawn by another;
- the style: the versions of Matplotlib, FreeType and Pillow and every ``rcParams`` value (a
  ``matplotlibrc`` or a change made in Python included);
- the fonts: every font file Matplotlib knows, by path, size, modification time and inode, and
  the bytes of the one its settings pick first (:func:`fonts_digest`).

A value the digest cannot read (an object of a kind it does not know) makes the chart's key
None: such a chart is always drawn.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import functools
import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

import numpy as np

from ..io.writing import import_held
from ..model.result import OnDemand
from ..version import installed_version

if TYPE_CHECKING:
    from ..model.result import Result

#: Changes whenever what the digest covers, or how, changes: every chart is drawn again.
KEY_FORMAT = 2


class NotDigestible(TypeError):
    """A value whose digest cannot be taken: the chart reading it is always drawn."""


def _feed(hasher, value, depth: int = 0) -> None:
    """Feed ``value`` to ``hasher`` with its type, so that equal digests mean equal values."""
    if depth > 50:
        raise NotDigestible("nested too deep")
    update, name = hasher.update, type(value).__name__
    if value is None or isinstance(value, bool | int | float | complex | str | bytes | dt.date | dt.time | enum.Enum):
        update(f"{name}:{value!r};".encode())
    elif isinstance(value, PurePath):
        update(f"{name}:{value.as_posix()!r};".encode())
    elif isinstance(value, np.ndarray):
        update(f"ndarray:{value.dtype.str}:{value.shape};".encode())
        if value.dtype.hasobject:
            for item in value.reshape(-1):
                _feed(hasher, item, depth + 1)
        else:
            update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, np.generic):
        _feed(hasher, value.item(), depth + 1)
    elif isinstance(value, Mapping):
        update(f"{name}:{len(value)}{{".encode())
        for key, item in value.items():
            _feed(hasher, key, depth + 1)
            _feed(hasher, item, depth + 1)
        update(b"}")
    elif isinstance(value, Sequence):
        update(f"{name}:{len(value)}[".encode())
        for item in value:
            _feed(hasher, item, depth + 1)
        update(b"]")
    elif isinstance(value, set | frozenset):
        update(f"{name}:{sorted(repr(item) for item in value)!r};".encode())
    elif hasattr(value, "model_dump") and hasattr(type(value), "model_fields"):  # a pydantic model
        update(f"{type(value).__qualname__}(".encode())
        for field in type(value).model_fields:
            update(field.encode() + b"=")
            _feed(hasher, getattr(value, field), depth + 1)
        update(b")")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        update(f"{type(value).__qualname__}(".encode())
        for field in dataclasses.fields(value):
            update(field.name.encode() + b"=")
            _feed(hasher, getattr(value, field.name), depth + 1)
        update(b")")
    elif hasattr(type(value), "__slots__") and not hasattr(value, "__dict__"):
        # an object of the model (a stream component): its public attributes; a leading
        # underscore marks a value kept once computed from the others
        update(f"{type(value).__qualname__}(".encode())
        for slot in _slots(type(value)):
            if not slot.startswith("_") and hasattr(value, slot):
                update(slot.encode() + b"=")
                _feed(hasher, getattr(value, slot), depth + 1)
        update(b")")
    else:
        raise NotDigestible(f"cannot take the digest of a {type(value).__qualname__}")


def _slots(cls: type) -> list[str]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return list(dict.fromkeys(names))


def _is_table(value) -> bool:
    # a pandas object, or a subclass of one (netbenefit.model.tables.ResultTable), without importing pandas
    return isinstance(value, OnDemand) or any(k.__module__.startswith("pandas") for k in type(value).__mro__)


def result_digest(result: Result) -> str:
    """The digest of what a chart of ``result`` can read (see the module's text).

    The tables are left out, whether built yet or not: each is built from the computation and
    the scenario, which are in. Raises :class:`NotDigestible` for a value of an unknown kind.
    """
    hasher = hashlib.sha256(b"result;")
    for field in dataclasses.fields(result):
        if field.name in ("scenario", "computation"):
            continue
        value = result.__dict__.get(field.name)
        if _is_table(value):
            continue
        hasher.update(field.name.encode() + b"=")
        _feed(hasher, value)
    hasher.update(b"computation=")
    _feed(hasher, result.computation)
    scenario = result.scenario
    hasher.update(b"scenario=")
    _feed(hasher, scenario)
    _feed(hasher, {"multipliers": scenario.multipliers, "source": scenario.source})
    return hasher.hexdigest()


@functools.cache
def package_digest() -> str:
    """netbenefit's version and the digest of every file of the package (code and parameters)."""
    root = Path(__file__).resolve().parent  # the package folder
    hasher = hashlib.sha256(f"netbenefit {installed_version()};".encode())
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo") or not path.is_file():
            continue
        hasher.update(path.relative_to(root).as_posix().encode() + b"\0")
        hasher.update(hashlib.sha256(path.read_bytes()).digest())
    return hasher.hexdigest()


def style_digest() -> str:
    """The digest of the chart library and its settings: the versions of Matplotlib, FreeType
    and Pillow and every ``rcParams`` value (``backend`` left out: it is not read when a figure
    is printed to a file, and reading it may switch backends)."""
    import_held()  # the chart library imported with the signals held
    import matplotlib
    import PIL
    from matplotlib import ft2font

    hasher = hashlib.sha256(
        f"matplotlib {matplotlib.__version__}; freetype {ft2font.__freetype_version__}; "
        f"pillow {PIL.__version__};".encode()
    )
    for key, value in sorted(dict.items(matplotlib.rcParams)):  # dict's items: no backend resolved
        if key != "backend":
            hasher.update(f"{key}={value!r};".encode())
    hasher.update(fonts_digest().encode())
    return hasher.hexdigest()


def fonts_digest() -> str:
    """The digest of the font files a chart may be drawn with: every font Matplotlib knows (its
    own and the system's), by path, size, modification time and inode, and the bytes of the one
    its settings pick first. A font file replaced, added or removed changes it, so that a chart
    drawn with another font is drawn again."""
    from matplotlib import font_manager

    manager = font_manager.fontManager
    hasher = hashlib.sha256(b"fonts;")
    paths = sorted({str(entry.fname) for entry in [*manager.ttflist, *manager.afmlist]})
    for path in paths:
        try:
            status = os.stat(path)
            hasher.update(f"{path}|{status.st_size}|{status.st_mtime_ns}|{status.st_ino};".encode())
        except OSError:
            hasher.update(f"{path}|missing;".encode())
    try:
        chosen = font_manager.findfont(font_manager.FontProperties(), fallback_to_default=True)
        with open(chosen, "rb") as handle:
            hasher.update(hashlib.file_digest(handle, "sha256").digest())
    except (OSError, ValueError):
        hasher.update(b"no default font;")
    return hasher.hexdigest()


def chart_key(
    file_name: str, chart: str, image_format: str, result_digests: Sequence[str], style: str, options: Mapping
) -> str:
    """The digest of one chart file: ``file_name`` (relative to the output folder), the chart
    drawn, its format and printing ``options``, the digests of the results it reads (in order),
    the package's and the ``style``'s digests."""
    hasher = hashlib.sha256(f"netbenefit chart key {KEY_FORMAT};".encode())
    _feed(hasher, [file_name, chart, image_format, list(result_digests), package_digest(), style, dict(options)])
    return hasher.hexdigest()
