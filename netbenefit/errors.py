"""The one exception type for input that netbenefit cannot evaluate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class ScenarioError(ValueError):
    """A scenario (or a value given to the library) that cannot be evaluated.

    Parameters
    ----------
    source : str
        Where the input came from: a file path, or ``<dict>`` for a scenario built in Python.
    key : str
        Dotted key path of the offending value (``jobs.new``, ``phases.0.award``), or ``""`` for
        the whole document.
    problem : str
        What is wrong, in one short sentence.

    more : sequence of (key, problem), optional
        Further problems of the same input, after the first.

    ``str(error)`` is one line ``source: key: problem`` per problem (one line when there is one
    problem); ``lines`` holds them. ``key`` and ``problem`` are those of the first problem.
    """

    def __init__(self, source: str, key: str, problem: str, *, more: Sequence[tuple[str, str]] = ()) -> None:
        self.source = str(source)
        self.key = key
        self.problem = " ".join(str(problem).split())  # always one line
        self.problems = ((key, self.problem), *((k, " ".join(str(p).split())) for k, p in more))
        self.lines = tuple(
            printable(f"{self.source}: {k}: {p}" if k else f"{self.source}: {p}") for k, p in self.problems
        )
        super().__init__("\n".join(self.lines))

    def __reduce__(self) -> tuple[Callable[..., ScenarioError], tuple[Any, ...]]:
        """Pickled whole (its class, source and every problem): an error raised on a Dask worker
        reaches the command as the same error, reported in its own lines."""
        (key, problem), *more = self.problems
        return (_rebuilt, (type(self), self.source, key, problem, tuple(more)))


def _rebuilt(cls: type, source: str, key: str, problem: str, more: tuple) -> ScenarioError:
    return cls(source, key, problem, more=more)


def printable(text: str) -> str:
    """``text`` with each control or other non-printable character (a newline in a file name or a
    quoted YAML key, a terminal escape) written as its escape sequence, so the message stays one
    line and prints as it reads."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)
