"""One run, one folder: the outputs of ``compare --out`` belong to one run.

The folder keeps a manifest, ``.netbenefit-manifest.json``, of the files netbenefit wrote into it.
When a run (with ``--force``) writes into a folder that holds a previous run's outputs, the files
the manifest lists and this run did not write are removed once this run has written everything,
so the folder never shows a stale result beside a fresh one. Nothing the manifest does not list is
ever removed: a file the user put in the folder stays, and an entry that leads outside the folder,
is not a regular file (a link, a folder) or is missing is left alone.

While a run writes, it holds a lock, ``.netbenefit.lock`` (an advisory ``flock`` on POSIX, which
the system releases when the process ends, so the lock of a run that died is free; the file holds
the process id for the message). A second run into the same folder is refused with one line.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .output import OUTPUT_ROOT, WRITTEN, OutputError, atomic_write_text

#: The list of files netbenefit wrote into the folder (JSON).
MANIFEST_NAME = ".netbenefit-manifest.json"
#: The lock a run holds while it writes.
LOCK_NAME = ".netbenefit.lock"
#: Version of the manifest's format.
MANIFEST_FORMAT = 1


class Run:
    """The files one run writes into its folder (see :func:`one_run`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.previous = read_manifest(folder)
        self.arrived: list[Path] = []  # every file atomic_write put in place during the run
        self.listed: list[Path] = []

    @property
    def written(self) -> list[str]:
        """The files this run wrote into the folder, relative to it."""
        names = [_relative(self.folder, path) for path in [*self.listed, *self.arrived]]
        return [name for name in dict.fromkeys(names) if not name.startswith("../")]

    def wrote(self, paths: Iterable[Path]) -> list[Path]:
        """Record files written into the folder (besides those written by atomic_write); returns them."""
        paths = list(paths)
        self.listed += paths
        return paths

    def finish(self) -> None:
        """After a complete run: remove the previous run's files this run did not write, then
        record this run's files."""
        written = self.written
        for name in sorted(set(self.previous) - set(written)):
            remove_written_file(self.folder, name)
        write_manifest(self.folder, written)

    def abandon(self) -> None:
        """After a failed or interrupted run: record the files of the previous run that remain and
        those this run wrote, so that a later run can remove them."""
        kept = [name for name in self.previous if (self.folder / name).is_file()]
        try:
            write_manifest(self.folder, [*kept, *self.written])
        except OSError:  # the disk that failed the run may fail this too; the run's error is reported
            pass


@contextmanager
def one_run(folder: Path) -> Iterator[Run]:
    """Hold the folder's lock while the body writes; then keep its manifest (:class:`Run`).

    Raises :class:`~netbenefit.output.OutputError` when another run holds the lock.
    """
    folder = Path(folder)
    lock = _lock(folder)
    try:
        run = Run(folder)
        token, root = WRITTEN.set(run.arrived), OUTPUT_ROOT.set(folder)
        try:
            yield run
        except BaseException:
            run.abandon()
            raise
        finally:
            WRITTEN.reset(token)
            OUTPUT_ROOT.reset(root)
        run.finish()
    finally:
        _unlock(folder, lock)


def check_unlocked(folder: Path) -> None:
    """Refuse at once (:class:`~netbenefit.output.OutputError`) when another run holds the lock of
    an existing ``folder``, before any work; :func:`one_run` takes the lock for the writing."""
    folder = Path(folder)
    if folder.is_dir():
        _unlock(folder, _lock(folder))


def read_manifest(folder: Path) -> list[str]:
    """The files a previous run recorded; none when there is no manifest or it cannot be read."""
    try:
        data = json.loads((Path(folder) / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    files = data.get("files") if isinstance(data, dict) else None
    return [name for name in files if isinstance(name, str)] if isinstance(files, list) else []


def write_manifest(folder: Path, names: Iterable[str]) -> None:
    data = {"format": MANIFEST_FORMAT, "written_by": "netbenefit", "files": sorted(dict.fromkeys(names))}
    atomic_write_text(Path(folder) / MANIFEST_NAME, json.dumps(data, indent=1) + "\n")


def remove_written_file(folder: Path, name: str) -> bool:
    """Remove ``folder/name`` if it is a regular file inside ``folder`` (links resolved), then the
    folders it leaves empty; returns whether it was removed. Any other entry is left alone."""
    relative = Path(name)
    if relative.is_absolute() or not relative.parts or ".." in relative.parts or name in (MANIFEST_NAME, LOCK_NAME):
        return False
    path = Path(folder) / relative
    root = os.path.realpath(folder)
    if not Path(os.path.realpath(path.parent)).is_relative_to(root):
        return False
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return False
        path.unlink()
    except OSError:
        return False
    parent = path.parent
    while Path(os.path.realpath(parent)) != Path(root):
        try:
            parent.rmdir()  # only an empty folder
        except OSError:
            break
        parent = parent.parent
    return True


def _relative(folder: Path, path: Path) -> str:
    path = Path(path)
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return os.path.relpath(path, folder).replace(os.sep, "/")


def _lock(folder: Path) -> int | None:
    """Take the folder's lock (POSIX ``flock``); refuse when another process holds it."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return None
    path = folder / LOCK_NAME
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    for _ in range(10):
        try:  # never through a link planted as the lock (its target would be truncated)
            fd = os.open(path, flags, 0o644)
        except OSError as error:
            raise OutputError(f"{path}: cannot be the lock of the output folder ({_why(path, error)})") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OutputError(f"{path}: cannot be the lock of the output folder (not a regular file)")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if not isinstance(error, BlockingIOError):  # a file system without locks (ENOLCK): no lock
                os.close(fd)
                path.unlink(missing_ok=True)
                return None
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise OutputError(
                f"{folder}: another netbenefit run (process {holder}) is writing into this folder; "
                "wait for it to finish or give another --out"
            ) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:  # removed by the run that held it: take a fresh one
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
            return fd
        os.close(fd)
    raise OutputError(f"{folder}: the lock {LOCK_NAME} keeps changing; is another run writing here?")


def _why(path: Path, error: OSError) -> str:
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            return "a link; remove it"
    except OSError:
        pass
    return error.strerror or str(error)


def _unlock(folder: Path, fd: int | None) -> None:
    if fd is None:
        return
    try:
        (folder / LOCK_NAME).unlink(missing_ok=True)  # removed while held: a waiting run retries
    finally:
        os.close(fd)
