"""Reading a scenario file: a regular UTF-8 file of bounded size, parsed by the one strict YAML
loader (:mod:`netbenefit.io.strict_yaml`), then validated into a :class:`Scenario`."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from ...errors import ScenarioError
from ...io import strict_yaml
from ...io.arguments import checked, path_kind, unnameable
from .format import Scenario
from .limits import MAX_FILE_BYTES
from .workbook_form import is_workbook_file


def read_text_file(path: Path, source: str, key: str, what: str) -> str:
    """The UTF-8 text of a regular file of at most MAX_FILE_BYTES. Raises ScenarioError."""
    problem = unnameable(str(path))  # a NUL, or a lone surrogate no file name can hold
    if problem is not None:
        raise ScenarioError(source, key, f"the path {problem}" if key else f"the path of the file {problem}")
    try:
        status = path.stat()
    except FileNotFoundError:
        raise ScenarioError(source, key, f"{what} not found: {path}" if key else "file not found") from None
    except OSError as error:
        raise ScenarioError(source, key, f"{what} {path} cannot be read ({error.strerror})") from None
    where = f"{what} {path}" if key else "the file"
    if stat.S_ISDIR(status.st_mode):
        problem = f"{where} is a folder, not a file" if key else "is a folder, not a scenario file"
        raise ScenarioError(source, key, problem)
    if not stat.S_ISREG(status.st_mode):
        raise ScenarioError(source, key, f"{where} is not a regular file (a device, pipe or socket)")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ScenarioError(source, key, f"{where} cannot be read ({error.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(source, key, f"{where} is larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError(source, key, f"{where} is not UTF-8 text") from None


def read_yaml(path: str | Path) -> Any:
    """Parse a YAML file safely: no Python objects, no duplicate keys, no alias bombs, at most
    MAX_FILE_BYTES, and not empty. Raises ScenarioError."""
    path = Path(path)
    text = read_text_file(path, str(path), "", "scenario file")
    try:
        document = strict_yaml.load(text)
    except (strict_yaml.DuplicateKeyError, strict_yaml.LimitError) as error:
        raise ScenarioError(str(path), "", str(error)) from None
    except yaml.YAMLError as error:
        raise ScenarioError(str(path), "", f"not valid YAML: {_yaml_problem(error)}") from None
    except RecursionError:
        raise ScenarioError(str(path), "", "not valid YAML: nested too deeply") from None
    except (ValueError, TypeError, AttributeError, OverflowError) as error:  # a tagged or dated value
        detail = str(error) if isinstance(error, ValueError | OverflowError) else "a tag does not fit its value"
        raise ScenarioError(str(path), "", f"not valid YAML: a value cannot be read ({detail})") from None
    if document is None:
        raise ScenarioError(str(path), "", "the file is empty")
    return document


def _yaml_problem(error: yaml.YAMLError) -> str:
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    return f"{problem}{where}"


@checked(path=path_kind)  # text or a Path (netbenefit.io.arguments); its name is checked as it is read
def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and validate a v1 scenario file.

    Parameters
    ----------
    path : str or Path
        A YAML scenario file. ``from_csv`` paths inside it are relative to its folder. Or a
        workbook netbenefit wrote (``.xlsx``; :meth:`Scenario.from_excel`): a comparison
        workbook's scenario is chosen with ``Scenario.from_excel(path, scenario=N)``.

    Raises
    ------
    ScenarioError
        For any problem, with a one-line message ``file: key.path: problem``.
    """
    path = Path(path)
    if is_workbook_file(path):  # a workbook netbenefit wrote, read back (docs/workbook.md)
        return Scenario.from_excel(path)
    return Scenario.from_dict(read_yaml(path), source=str(path), base_dir=path.parent)


def scenario_argument(value: Any, function: str) -> Scenario:
    """The scenario a function of the library was given: a Scenario, or the path of a scenario
    file (loaded). Anything else is a ScenarioError saying a Scenario is expected."""
    if isinstance(value, Scenario):
        return value
    if isinstance(value, str | os.PathLike):
        return load_scenario(value)
    raise ScenarioError(
        function, "", f"expected a Scenario or the path of a scenario file, not {type(value).__name__}"
    )
