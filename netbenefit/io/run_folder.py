"""One run, one folder: the outputs of ``compare --out`` belong to one run.

The folder keeps a manifest, ``.netbenefit-manifest.json``, of the files netbenefit wrote into it:
for each, the SHA-256 of its bytes, and for a chart the digest of everything that drew it
(:mod:`netbenefit.views.chart_keys`). When a run (with ``--force``) writes into a folder that holds a
previous run's outputs, the files the manifest lists and this run did not write are removed once
this run has written everything, so the folder never shows a stale result beside a fresh one.
Only a file whose bytes are those the manifest recorded is ever removed: a file the user put in
the folder (or changed since) stays, whatever a manifest says, and an entry that leads outside the
folder, is not a regular file (a link, a folder) or is missing is left alone.

A chart whose file is still the one recorded and whose digest is unchanged is kept as it is
(:meth:`Run.unchanged`), unless the run was started with ``cache=False`` (``--no-cache``).

While a run writes, it holds a lock, ``.netbenefit.lock`` (an advisory ``flock`` on POSIX, which
the system releases when the process ends, so the lock of a run that died is free; the file holds
the process id for the message). A second run into the same folder is refused with one line.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX (Windows): a folder is not locked
    fcntl = None

from .writing import OUTPUT_ROOT, WRITTEN_DIGESTS, OutputError, atomic_write_text, sha256_of

#: The list of files netbenefit wrote into the folder (JSON).
MANIFEST_NAME = ".netbenefit-manifest.json"
#: The lock a run holds while it writes.
LOCK_NAME = ".netbenefit.lock"
#: Version of the manifest's format: 1 listed names; 2 maps each name to ``{"sha256": ...}`` and,
#: for a chart, ``"drawn_from"``: the digest of what drew it.
MANIFEST_FORMAT = 2


def file_digest(path: Path) -> str | None:
    """The SHA-256 of the regular file ``path`` (not followed if a link), None if there is none."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        return sha256_of(path)
    except OSError:
        return None


class Run:
    """The files one run writes into its folder (see :func:`one_run`)."""

    def __init__(self, folder: Path, *, cache: bool = True) -> None:
        self.folder = folder
        self.cache = cache
        self.previous = read_manifest(folder)  # name -> {"sha256": ..., "drawn_from": ...}
        self.digests: dict[Path, str] = {}  # every file atomic_write put in place: the digest of the bytes it wrote
        self.kept_digests: dict[str, str] = {}  # a kept chart's digest, checked when it was kept
        self.listed: list[Path] = []
        self.drawn_from: dict[str, str] = {}  # this run's charts: name -> digest of what drew it
        self.kept: list[str] = []  # charts kept as they were (not drawn again)

    @property
    def written(self) -> list[str]:
        """The files this run wrote into the folder, relative to it."""
        names = [relative_name(self.folder, path) for path in [*self.listed, *self.digests]]
        return [name for name in dict.fromkeys(names) if not name.startswith("../")]

    def wrote(self, paths: Iterable[Path]) -> list[Path]:
        """Record files written into the folder (besides those written by atomic_write); returns them."""
        paths = list(paths)
        self.listed += paths
        return paths

    def may_keep(self) -> bool:
        """Whether :meth:`unchanged` may say yes to any file: the cache is on and the previous run
        recorded what drew a file (a chart)."""
        return self.cache and any("drawn_from" in entry for entry in self.previous.values())

    def unchanged(self, name: str, drawn_from: str | None) -> bool:
        """Whether the file ``name`` (relative to the folder) may be kept as it is: the cache is
        on, the previous run recorded it drawn from ``drawn_from`` (not None), and its bytes are
        still those recorded. Records ``drawn_from`` for this run's manifest either way."""
        if drawn_from is None:
            return False
        self.drawn_from[name] = drawn_from
        entry = self.previous.get(name, {})
        if not self.cache or entry.get("drawn_from") != drawn_from or "sha256" not in entry:
            return False
        if file_digest(self.folder / name) != entry["sha256"]:
            return False
        self.kept_digests[name] = entry["sha256"]
        return True

    def keep(self, paths: Iterable[Path]) -> list[Path]:
        """Record files kept from the previous run as this run's (their bytes were checked by
        :meth:`unchanged`); returns them."""
        paths = list(paths)
        self.listed += paths
        self.kept += [relative_name(self.folder, path) for path in paths]
        return paths

    def _entries(self, names: Iterable[str]) -> dict[str, dict[str, str]]:
        """The manifest's entries of ``names``: the digest of the bytes this run wrote to each (or
        found in a chart it kept), not of what is on disk at the end: a file another program
        changed meanwhile is then not the one recorded, and a later run draws it again."""
        written = {relative_name(self.folder, path): digest for path, digest in self.digests.items()}
        entries = {}
        for name in names:
            digest = written.get(name) or self.kept_digests.get(name) or file_digest(self.folder / name)
            if digest is not None:
                entries[name] = {"sha256": digest}
                if name in self.drawn_from:
                    entries[name]["drawn_from"] = self.drawn_from[name]
        return entries

    def finish(self) -> None:
        """After a complete run: remove the previous run's files this run did not write (those
        whose bytes are still the ones recorded), then record this run's files."""
        written = self.written
        for name in sorted(set(self.previous) - set(written)):
            remove_written_file(self.folder, name, self.previous[name].get("sha256"))
        write_manifest(self.folder, self._entries(written))

    def abandon(self) -> None:
        """After a failed or interrupted run: record the files of the previous run that remain
        unchanged and those this run wrote, so that a later run can remove them."""
        written = self.written
        kept = {
            name: entry
            for name, entry in self.previous.items()
            if name not in written and entry.get("sha256") and file_digest(self.folder / name) == entry["sha256"]
        }
        try:
            write_manifest(self.folder, {**kept, **self._entries(written)})
        except OSError:  # the disk that failed the run may fail this too; the run's error is reported
            pass


#: The run writing, while :func:`one_run`'s body runs (write_charts asks it which charts to keep).
_RUN: ContextVar[Run | None] = ContextVar("run", default=None)


def current_run(folder: Path) -> Run | None:
    """The :class:`Run` writing into ``folder`` now, if any."""
    run = _RUN.get()
    return run if run is not None and Path(run.folder) == Path(folder) else None


@contextmanager
def one_run(folder: Path, *, cache: bool = True) -> Iterator[Run]:
    """Hold the folder's lock while the body writes; then keep its manifest (:class:`Run`).
    ``cache=False``: keep no chart of the previous run, draw every one.

    Raises :class:`~netbenefit.io.writing.OutputError` when another run holds the lock.
    """
    folder = Path(folder)
    lock = _lock(folder)
    try:
        run = Run(folder, cache=cache)
        token, root, run_token = WRITTEN_DIGESTS.set(run.digests), OUTPUT_ROOT.set(folder), _RUN.set(run)
        try:
            yield run
        except BaseException:
            run.abandon()
            raise
        finally:
            _RUN.reset(run_token)
            WRITTEN_DIGESTS.reset(token)
            OUTPUT_ROOT.reset(root)
        run.finish()
    finally:
        _unlock(folder, lock)


def check_unlocked(folder: Path) -> None:
    """Refuse at once (:class:`~netbenefit.io.writing.OutputError`) when another run holds the lock of
    an existing ``folder``, before any work; :func:`one_run` takes the lock for the writing."""
    folder = Path(folder)
    if folder.is_dir():
        _unlock(folder, _lock(folder))


#: The largest manifest read: a run of thousands of files records a few hundred kilobytes. [bytes]
MAX_MANIFEST_BYTES = 4 * 1024 * 1024  # not a statutory number
#: The deepest nesting of a manifest (it holds 3 levels: the document, ``files``, an entry).
MAX_MANIFEST_DEPTH = 8
_HEX = frozenset("0123456789abcdef")


def _manifest_text(path: Path) -> str | None:
    """The text of the manifest at ``path`` when it is a regular file of at most
    :data:`MAX_MANIFEST_BYTES` (checked before it is opened, and on the open file, which is
    opened without following a link and without waiting on a pipe); None otherwise. A named
    pipe, a link to ``/dev/zero`` or a huge file is never read."""
    try:
        status = os.lstat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_MANIFEST_BYTES:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (status.st_dev, status.st_ino):
            return None
        data = os.read(fd, MAX_MANIFEST_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > MAX_MANIFEST_BYTES:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _too_deep(text: str) -> bool:
    """Whether the JSON ``text`` nests deeper than :data:`MAX_MANIFEST_DEPTH` (checked before it
    is parsed: deep nesting would reach Python's recursion limit)."""
    depth = 0
    for char in re.sub(r'"(?:[^"\\]|\\.)*"', "", text):
        if char in "[{":
            depth += 1
            if depth > MAX_MANIFEST_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _good_name(name: object) -> bool:
    """An entry's name: a relative path of printable text (no NUL, control character or lone
    surrogate, which no file name of a run holds)."""
    if not isinstance(name, str) or not name or len(name) > 4096:
        return False
    return name.isprintable() and not any(0xD800 <= ord(char) <= 0xDFFF for char in name)


def _good_digest(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


def read_manifest(folder: Path) -> dict[str, dict[str, str]]:
    """The files a previous run recorded, each with what it recorded of it (``sha256``, and
    ``drawn_from`` for a chart; nothing for a name of a format-1 manifest, which listed names
    alone); none when there is no manifest or it cannot be read.

    The manifest is read as any file from outside: a regular file of bounded size and nesting,
    refused unopened otherwise (:func:`_manifest_text`); an entry whose name or digest is not of
    the form netbenefit writes is left out. A manifest that cannot be read makes a cold run
    (every chart drawn, no previous file removed), never a hang or an error."""
    text = _manifest_text(Path(folder) / MANIFEST_NAME)
    if text is None or _too_deep(text):
        return {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if isinstance(files, list):
        return {name: {} for name in files if _good_name(name)}
    if not isinstance(files, dict):
        return {}
    entries = {}
    for name, entry in files.items():
        if not _good_name(name) or not isinstance(entry, dict) or not _good_digest(entry.get("sha256")):
            continue  # an entry netbenefit did not write: refused
        entries[name] = {
            key: value for key, value in entry.items() if key in ("sha256", "drawn_from") and _good_digest(value)
        }
    return entries


def write_manifest(folder: Path, entries: Mapping[str, Mapping[str, str]]) -> None:
    """Record ``entries`` (name -> ``{"sha256": ..., "drawn_from": ...}``) as the folder's manifest."""
    files = {name: dict(entries[name]) for name in sorted(entries)}
    data = {"format": MANIFEST_FORMAT, "written_by": "netbenefit", "files": files}
    atomic_write_text(Path(folder) / MANIFEST_NAME, json.dumps(data, indent=1) + "\n")


def remove_written_file(folder: Path, name: str, sha256: str | None) -> bool:
    """Remove ``folder/name`` if it is a regular file inside ``folder`` (links resolved) whose
    bytes have the digest ``sha256`` (the one netbenefit recorded when it wrote the file), then
    the folders it leaves empty; returns whether it was removed. Any other entry, or a file whose
    digest is not given or differs (the user's, or changed since), is left alone."""
    relative = Path(name)
    if relative.is_absolute() or not relative.parts or ".." in relative.parts or name in (MANIFEST_NAME, LOCK_NAME):
        return False
    if not sha256:
        return False
    path = Path(folder) / relative
    root = os.path.realpath(folder)
    if not Path(os.path.realpath(path.parent)).is_relative_to(root):
        return False
    try:
        if not stat.S_ISREG(path.lstat().st_mode) or file_digest(path) != sha256:
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


def relative_name(folder: Path, path: Path) -> str:
    path = Path(path)
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return os.path.relpath(path, folder).replace(os.sep, "/")


def _lock(folder: Path) -> int | None:
    """Take the folder's lock (POSIX ``flock``); refuse when another process holds it."""
    if fcntl is None:  # not POSIX: no lock
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
