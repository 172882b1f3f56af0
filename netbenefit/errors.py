"""The one exception type for input that netbenefit cannot evaluate."""

from __future__ import annotations


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

    ``str(error)`` is one line: ``source: key: problem``.
    """

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = str(source)
        self.key = key
        self.problem = " ".join(str(problem).split())  # always one line
        where = f"{self.source}: {self.key}" if self.key else self.source
        super().__init__(_printable(f"{where}: {self.problem}"))


def _printable(text: str) -> str:
    """``text`` with each control or other non-printable character (a newline in a file name or a
    quoted YAML key, a terminal escape) written as its escape sequence, so the message stays one
    line and prints as it reads."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)
