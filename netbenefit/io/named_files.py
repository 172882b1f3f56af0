"""The one rule for every file that a scenario or actual-results file names.

A scenario names files (``streams.N.from_csv``, ``revenue.multiplier_table``) and so does an
actual-results file (``years_from_csv``); any key added later that names a file reads it through
:func:`read_named_file`, so that every such file is held to the same rule:

- the name is a relative path (no ``..`` leading out, no absolute path) under the text rule
  (:mod:`netbenefit.io.text_rule`: no control character, lone surrogate or bidirectional override);
- after resolving symbolic links (``os.path.realpath``) the file is inside the folder of the
  file that names it (a link to a file outside it, a linked sub-folder leading out or a chain of
  links ending outside is refused);
- it is a regular file (not a folder, device, pipe or socket) of at most :data:`MAX_FILE_BYTES`,
  checked on the resolved path before it is opened, and again on the open file (the file opened
  is the one checked: opened without following a link, without waiting on a pipe);
- it is UTF-8 text (a leading byte-order mark is allowed).

Anything else is a :class:`~netbenefit.errors.ScenarioError` naming the file that names it, the
key and the problem; a refused file is never opened.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from ..errors import ScenarioError
from .text_rule import refused_character

#: A scenario file or a file it names larger than this is refused before it is parsed. [bytes]
MAX_FILE_BYTES = 512 * 1024  # not a statutory number: a v1 file is a few kilobytes


def path_inside(name: Any, base: Path, source: str, key: str, folder: str) -> Path:
    """The path of the file ``name``, relative to ``base`` (the folder of the file that names it,
    ``folder`` in words) and inside it once symbolic links are resolved. Raises ScenarioError."""
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(source, key, "must be the path of a CSV file")
    problem = refused_character(name)  # the text rule: a control character, a lone surrogate, a bidi override
    if problem is not None:
        raise ScenarioError(source, key, f"{problem}, got {name!r}")
    relative = os.path.normpath(name)
    if os.path.isabs(relative) or relative.split(os.sep)[0] == os.pardir:
        raise ScenarioError(source, key, f"must be a path inside {folder}, got {name!r}")
    path = Path(base) / relative
    if not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(base)):
        raise ScenarioError(source, key, f"must be a path inside {folder}, got {name!r} (a link leading outside it)")
    return path


def read_named_file(
    name: Any, base: Path, source: str, key: str, folder: str, what: str = "CSV file"
) -> tuple[Path, str]:
    """``(path, text)`` of the file ``name`` that the file ``source`` names at ``key``: inside
    ``base`` after resolving links, a regular file of at most :data:`MAX_FILE_BYTES`, UTF-8 text.
    Raises ScenarioError, without opening a file that is refused."""
    path = path_inside(name, base, source, key, folder)
    real = os.path.realpath(path)
    where = f"{what} {path}"
    try:
        status = os.lstat(real)
    except FileNotFoundError:
        raise ScenarioError(source, key, f"{what} not found: {path}") from None
    except OSError as error:
        raise ScenarioError(source, key, f"{where} cannot be read ({error.strerror})") from None
    if stat.S_ISLNK(status.st_mode):  # realpath stops at a loop of links
        raise ScenarioError(source, key, f"{where} is a link that leads to no file (a loop of links)")
    if stat.S_ISDIR(status.st_mode):
        raise ScenarioError(source, key, f"{where} is a folder, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise ScenarioError(source, key, f"{where} is not a regular file (a device, pipe or socket)")
    if status.st_size > MAX_FILE_BYTES:
        raise ScenarioError(source, key, f"{where} is larger than {MAX_FILE_BYTES // 1024} KiB")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as error:  # replaced by a link or removed since it was checked
        raise ScenarioError(source, key, f"{where} cannot be read ({error.strerror})") from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (status.st_dev, status.st_ino):
            raise ScenarioError(source, key, f"{where} changed while it was read")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise ScenarioError(source, key, f"{where} cannot be read ({error.strerror})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(source, key, f"{where} is larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        return path, data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError(source, key, f"{where} is not UTF-8 text") from None


#: A number as a CSV cell writes it: ASCII digits, an optional sign, decimal point and exponent.
#: (NaN and infinity are read, for the caller to refuse as not finite.)
_NUMBER = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf|infinity)", re.IGNORECASE)


def csv_number(text: str) -> float:
    """The number a CSV cell holds, read strictly: ASCII digits only (``float`` would also read
    ``2_0`` as 20, and Arabic-Indic or full-width digits). Raises ValueError."""
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"not a number: {text!r}")
    return float(text)
