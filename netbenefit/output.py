"""Writing results to disk: every file is written to a temporary name and renamed into place,
so that a failing or interrupted run never leaves a half-written file."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from .compare import compare
from .result import Result


class OutputError(Exception):
    """The output folder cannot be written as asked (exists and is not empty, not a folder...)."""


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write(temporary_path)``, then rename the temporary file to ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(handle)
    try:
        write(Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))


def prepare_output_folder(folder: Path, force: bool) -> Path:
    """Check that ``folder`` may be written: missing, empty, or ``force`` given."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise OutputError(f"{folder}: the output folder is not empty; give --force to overwrite its files")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def file_stems(results: Sequence[Result]) -> list[str]:
    """A distinct, file-system-safe stem for each result (from its scenario file name)."""
    stems: list[str] = []
    for result in results:
        base = Path(result.scenario.source).stem if result.scenario.source != "<dict>" else result.name
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", base).strip("_") or "scenario"
        candidate, n = stem, 2
        while candidate in stems:
            candidate, n = f"{stem}_{n}", n + 1
        stems.append(candidate)
    return stems


def write_comparison(results: Sequence[Result], folder: Path) -> list[Path]:
    """``summary.csv`` (one row per scenario) and ``cashflows/<scenario>.csv`` for each.

    Returns the paths written, in order.
    """
    folder = Path(folder)
    written = []
    summary = compare(results)
    path = folder / "summary.csv"
    atomic_write(path, lambda temporary: summary.to_csv(temporary, index=False))
    written.append(path)
    for result, stem in zip(results, file_stems(results)):
        path = folder / "cashflows" / f"{stem}.csv"
        atomic_write(path, lambda temporary, r=result: r.cashflows.to_csv(temporary))
        written.append(path)
    return written
