"""The arguments of the Python API, checked in one place.

Every writer (``to_pdf``, ``to_excel``, ``to_html``, ``to_yaml``, the explorer's export) and every
entry point of the library checks the arguments it is given here, so that a wrong one is a
:class:`~netbenefit.errors.ScenarioError` naming the function and the argument
(``to_pdf: date: give a date as YYYY-MM-DD, not '2026-13-01'``), never a ``TypeError``, a
``ValueError`` of the system (``embedded null byte``) or an ``AttributeError``, and what a file
could hold is taken in every kind Python gives it (a ``types.MappingProxyType``, a numpy integer):

- :func:`path`: the path of a file read, ``str`` or ``os.PathLike``, no NUL and no lone surrogate
  (which no file name can hold); :func:`output_file`: the path of a file written, whose folder
  must exist (it is not made: an ``OSError`` naming the file, as pandas' writers raise) and which
  is not a folder;
- :func:`date`: a date, or text of exactly ``YYYY-MM-DD``;
- :func:`count`: a whole number in a range (an ``int`` or a numpy integer; not a bool, a float or
  text); :func:`number`: a finite real number;
- :func:`mapping`: any :class:`collections.abc.Mapping`, given back as plain dicts all the way
  down (a read-only mapping can then be copied and pickled);
- :func:`text`, :func:`flag`, :func:`choice`, and :func:`optional` of any of them.

:func:`checked` applies them to a function's arguments by name::

    @checked(grid=mapping, chunk_size=count)
    def sweep(scenario, grid, *, chunk_size=20_000): ...

The ground floor: it imports nothing of netbenefit but :mod:`netbenefit.errors` and the text rule.
"""

from __future__ import annotations

import datetime as dt
import errno
import functools
import inspect
import math
import operator
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ScenarioError
from .text_rule import refused_character

#: A check of one argument: ``check(value, argument, function)`` gives the value to use, or
#: raises ScenarioError naming ``function`` and ``argument``.
Check = Callable[[Any, str, str], Any]

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


#: The longest value quoted in a message. [characters]
_SHOWN_CHARACTERS = 60  # not a statutory number: a message stays one short line


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARACTERS else text[: _SHOWN_CHARACTERS - 3] + "..."


def _kind(value: Any) -> str:
    return type(value).__name__


def unnameable(name: str) -> str | None:
    """Why no file can have the name ``name`` (a NUL; a lone surrogate the file system's encoding
    cannot write, as an undecodable byte of a listed name can be), or None."""
    if "\x00" in name:
        return "must not hold a NUL character (found \\x00)"
    try:
        os.fsencode(name)
    except UnicodeEncodeError as error:
        return f"must not hold a lone surrogate (found \\u{ord(name[error.start]):04x}), which no file name can hold"
    return None


def path_kind(value: Any, argument: str, function: str) -> Path:
    """A path given as text or an ``os.PathLike`` (its name is checked where the file is read)."""
    if isinstance(value, bytes) or not isinstance(value, str | os.PathLike):
        raise ScenarioError(function, argument, f"give the path of a file (text or a Path), not {_kind(value)}")
    try:
        name = os.fspath(value)
    except TypeError as error:  # a PathLike whose __fspath__ gives bytes or another kind
        raise ScenarioError(function, argument, f"give the path of a file (text or a Path): {error}") from None
    if not isinstance(name, str):
        raise ScenarioError(function, argument, f"give the path of a file as text, not {_kind(name)}")
    return Path(name)


def path(value: Any, argument: str, function: str) -> Path:
    """The path of a file: text or an ``os.PathLike``, which a file can be named."""
    path_kind(value, argument, function)
    name = os.fspath(value)
    problem = unnameable(name)
    if problem is not None:
        raise ScenarioError(function, argument, f"the path {problem}")
    if not name.strip():
        raise ScenarioError(function, argument, "give the path of a file, not empty text")
    return Path(name)


def output_file(value: Any, argument: str, function: str) -> Path:
    """The path of a file to write: :func:`path`, in a folder that exists, and not a folder itself.
    A folder that is missing is not made, as pandas' writers do not make it: like them, an
    ``OSError`` naming the file (``FileNotFoundError``; ``NotADirectoryError`` where a file stands
    in its place; ``IsADirectoryError`` for a folder), in one line."""
    target = path(value, argument, function)
    folder = target.parent
    if not folder.is_dir():
        if folder.exists():
            raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder", str(target))
        missing = f"no folder {folder}: make it first (a file's folder is not made)"
        raise FileNotFoundError(errno.ENOENT, missing, str(target))
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder; give the path of the file to write", str(target))
    return target


def date(value: Any, argument: str, function: str) -> dt.date:
    """A date: a ``datetime.date`` (a ``datetime`` gives its date), or text of exactly
    ``YYYY-MM-DD`` (not ``20260310``, not ``2026-W10-1``, which ``date.fromisoformat`` reads)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    return _not_a_date(value, argument, function)


def _not_a_date(value: Any, argument: str, function: str):
    raise ScenarioError(function, argument, f"give a date as YYYY-MM-DD, not {_shown(value)}")


def date_text(text: str) -> dt.date:
    """``text`` of exactly ``YYYY-MM-DD`` as a date; ValueError otherwise (the command line's ``--date``)."""
    if not _DATE.fullmatch(text):
        raise ValueError(text)
    return dt.date.fromisoformat(text)


def count(least: int = 1, most: int | None = None) -> Check:
    """A check of a whole number from ``least`` to ``most``: an ``int`` or a numpy integer, not a
    bool (``True`` is not 1 draw), a float (``6.0``) or text (``"6"``)."""

    def check(value: Any, argument: str, function: str) -> int:
        whole = None
        if not isinstance(value, bool | float | str | bytes):
            try:
                whole = operator.index(value)
            except TypeError:
                whole = None
        span = f"from {least:,} to {most:,}" if most is not None else f">= {least:,}"
        if whole is None or whole < least or (most is not None and whole > most):
            raise ScenarioError(function, argument, f"must be a whole number {span}, not {_shown(value)}")
        return whole

    return check


def number(value: Any, argument: str, function: str) -> float:
    """A finite real number (an ``int``, a ``float``, a numpy number; not a bool or text)."""
    if isinstance(value, bool | str | bytes) or not hasattr(value, "__float__"):
        raise ScenarioError(function, argument, f"must be a number, not {_shown(value)}")
    try:
        result = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ScenarioError(function, argument, f"must be a number, not {_shown(value)}") from None
    if not math.isfinite(result):
        raise ScenarioError(function, argument, f"must be a finite number, not {_shown(value)}")
    return result


def plain(value: Any) -> Any:
    """``value`` with every mapping inside it (a ``MappingProxyType``, any ``Mapping``) a dict,
    lists and tuples kept as such: data that can be copied and pickled."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item) for item in value)
    return value


def mapping(value: Any, argument: str, function: str) -> dict:
    """Any :class:`collections.abc.Mapping` (a dict, a ``types.MappingProxyType``...), as plain
    dicts all the way down (:func:`plain`)."""
    if not isinstance(value, Mapping):
        raise ScenarioError(function, argument, f"must be a mapping (a dict), not {_kind(value)}")
    return plain(value)


def text(value: Any, argument: str, function: str) -> str:
    """Text under the text rule of a name (:mod:`netbenefit.io.text_rule`): it is written to every output."""
    if not isinstance(value, str):
        raise ScenarioError(function, argument, f"must be text, not {_kind(value)}")
    problem = refused_character(value)
    if problem is not None:
        raise ScenarioError(function, argument, problem)
    return value


def flag(value: Any, argument: str, function: str) -> bool:
    """``True`` or ``False`` (a numpy bool too); not ``"yes"`` or 1."""
    if type(value).__name__ in ("bool", "bool_"):
        return bool(value)
    raise ScenarioError(function, argument, f"must be True or False, not {_shown(value)}")


def choice(*choices: str) -> Check:
    """A check of one of ``choices``."""

    def check(value: Any, argument: str, function: str) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ScenarioError(function, argument, f"must be one of {', '.join(choices)}, not {_shown(value)}")
        return value

    return check


def iterable(value: Any, argument: str, function: str) -> Iterable:
    """Several items: a list, a tuple or another iterable (not one item given alone)."""
    if isinstance(value, str | bytes | os.PathLike | Mapping) or not isinstance(value, Iterable):
        raise ScenarioError(function, argument, f"give a list of items, not {_kind(value)} {_shown(value)}")
    return value


def optional(check: Check) -> Check:
    """``check``, with None passed as None (the default)."""

    def checked_or_none(value: Any, argument: str, function: str) -> Any:
        return None if value is None else check(value, argument, function)

    return checked_or_none


_Function = TypeVar("_Function", bound=Callable[..., Any])


def checked(name: str | None = None, **checks: Check) -> Callable[[_Function], _Function]:
    """Check the arguments of the decorated function by name before it runs (each argument given
    to its check, its value replaced by what the check gives); ``name`` is the function's name in
    a message (default: its qualified name, ``Scenario.replace``)."""

    def decorate(function: _Function) -> _Function:
        signature = inspect.signature(function)
        unknown = set(checks) - set(signature.parameters)
        if unknown:
            raise TypeError(f"{function.__qualname__} has no argument {sorted(unknown)}")
        shown = name or function.__qualname__

        @functools.wraps(function)
        def with_checked_arguments(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as error:  # a missing or an unknown argument: Python's own message
                raise TypeError(f"{shown}: {error}") from None
            for argument, check in checks.items():
                if argument in bound.arguments:
                    bound.arguments[argument] = check(bound.arguments[argument], argument, shown)
            return function(*bound.args, **bound.kwargs)

        return with_checked_arguments

    return decorate
