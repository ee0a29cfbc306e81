"""Writing files safely: atomic replacement, per-file locks, temporaries of dead writers.

Every file papers writes (the catalog, its registries, the index, an export) is first
written to a temporary file beside its target, named `.NAME.PID.tmp`, then renamed
over it. The PID in the name says whose it is: a temporary is removed only when the
process that made it is gone, so two writers of different catalogs in one folder never
remove each other's live files.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from catalog.errors import CatalogError, ConcurrentEditError, LockTimeoutError

# Test hook: makes the writer kill itself between writing the temporary file and
# renaming it, to show that a crash mid-write leaves the previous file intact.
CRASH_ENV = "PAPERS_TEST_CRASH"
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.tmp$")


def temp_path(path: Path) -> Path:
    """This process's temporary file for path (beside it, so the rename stays atomic)."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def pid_alive(pid: int) -> bool:
    """True unless no process has this id (a process of another user counts as alive)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, it is someone else's
        return True
    return True


def remove_dead_temporaries(folder: Path, name: str | None = None) -> list[Path]:
    """Remove the temporaries (of the file called name, or of any file) in folder whose
    writer is dead; returns what was removed. A live writer's temporary is left alone."""
    removed: list[Path] = []
    with contextlib.suppress(OSError):
        for tmp in folder.glob(".*.tmp"):
            match = _TEMP_RE.match(tmp.name)
            if not match or (name is not None and match["name"] != name):
                continue
            pid = int(match["pid"])
            if pid == os.getpid() or pid_alive(pid):
                continue
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed.append(tmp)
    return removed


@dataclass(frozen=True)
class Kept:
    """Bytes begin..end of a file open for reading, written again as they are (an edit
    copies the lines it did not change instead of reading them into memory)."""

    source: OpenFile
    begin: int
    end: int


Piece = str | bytes | Kept


def atomic_write(
    path: Path,
    text: str | Iterable[Piece],
    newline: str = "\n",
    expected: bytes | Callable[[Path], bool] | None = None,
) -> None:
    """Replace the file with text (a string, or pieces written one after the other:
    strings, bytes, spans of an open file) so that a reader or a crash sees the old file
    or the new one. A symbolic link is followed: its target is replaced and the link
    kept. newline is written for each '\\n' of a string (a CRLF file stays CRLF).
    expected: the bytes the file must hold (b'' for no file) when it is replaced, or a
    test of the file taken out (given its path); else ConcurrentEditError and the file is
    left as the other program wrote it. The test is made on the very file the new one
    replaced (an atomic exchange), so an editor's save just before the replace is never
    lost."""
    parts = [text.replace("\r\n", "\n")] if isinstance(text, str) else text
    target = path.resolve()
    tmp = temp_path(target)
    try:
        with open(tmp, "wb") as handle:
            for part in parts:
                _write_piece(handle, part, newline)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        _crash_point("before-rename")
        if expected is None:
            os.replace(tmp, target)
        else:
            _replace_if_unchanged(tmp, target, expected, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    sync_folder(target.parent)
    _crash_point("after-rename")


def _write_piece(handle: BinaryIO, piece: Piece, newline: str) -> None:
    if isinstance(piece, str):
        handle.write(encoded(piece, newline) if newline != "\n" else piece.encode("utf-8"))
    elif isinstance(piece, bytes):
        handle.write(piece)
    else:
        at = piece.begin
        while at < piece.end:
            block = piece.source.read(at, min(piece.end, at + _COPY_BLOCK))
            handle.write(block)
            at += len(block)


# Bytes copied at a time from a file an edit keeps most of.
_COPY_BLOCK = 1 << 20


def _replace_if_unchanged(
    tmp: Path, target: Path, expected: bytes | Callable[[Path], bool], shown: Path
) -> None:
    """Put tmp in target's place if target still holds expected (or passes its test);
    tmp is gone after."""
    if expected == b"":  # a new file: created only if nobody made one meanwhile
        try:
            os.link(tmp, target)
        except FileExistsError:
            raise _changed(shown) from None
        except OSError:  # a file system without hard links
            if _current(target) != b"":
                raise _changed(shown) from None
            os.replace(tmp, target)
        tmp.unlink(missing_ok=True)
        return
    if isinstance(expected, bytes):
        wanted = expected

        def expected(path: Path) -> bool:
            return _current(path) == wanted

    if not exchange(tmp, target):  # no atomic exchange here: compare, then replace
        if not expected(target):
            raise _changed(shown)
        os.replace(tmp, target)
        return
    # tmp now holds what target held at the instant of the exchange.
    if not expected(tmp):
        exchange(tmp, target)  # give the other program's file back its place
        raise _changed(shown)
    tmp.unlink()


def _changed(path: Path) -> ConcurrentEditError:
    return ConcurrentEditError(
        f"{path}: changed by another program while papers was writing it; papers "
        "left it as that program wrote it (this edit is not in it): run the command again"
    )


_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2 RENAME_EXCHANGE); False where
    the system or file system cannot, and then nothing was changed."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if done == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: not supported here
        return False
    raise OSError(errno, os.strerror(errno), str(b))


# The most papers reads of one file: a 100,000-paper catalog is about 120 MB.
MAX_READ = 1 << 30


class NotAFileError(OSError):
    """A path that names no regular file (a device, a pipe, a socket) or one too big."""


def read_file(path: Path, limit: int = MAX_READ) -> bytes:
    """A regular file's bytes, at most limit of them. A device (/dev/zero), a pipe or a
    socket is refused before anything is read (opened without waiting for a writer), and
    so is a bigger file: NotAFileError says which. FileNotFoundError and other OSErrors
    pass on."""
    handle = _open_regular(path, limit)
    try:
        with os.fdopen(handle, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    finally:
        os.close(handle)
    if len(data) > limit:  # it grew while being read
        raise NotAFileError(f"{path}: larger than {limit >> 20} MiB, more than papers reads")
    return data


def _open_regular(path: Path, limit: int) -> int:
    """A descriptor of a regular file of at most limit bytes (read_file's checks)."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        if not stat.S_ISREG(info.st_mode):
            raise NotAFileError(f"{path}: not a regular file (a device, pipe or socket)")
        if info.st_size > limit:
            raise NotAFileError(f"{path}: larger than {limit >> 20} MiB, more than papers reads")
    except BaseException:
        os.close(handle)
        raise
    return handle


class OpenFile:
    """A regular file held open for reading, with read_file's checks: its stat when it was
    opened, and its bytes read where they are needed (a big catalog is not read whole to
    change one paper). A save by rename after it was opened leaves it reading the file it
    opened."""

    def __init__(self, path: Path, limit: int = MAX_READ):
        self.path = path
        self.fd = _open_regular(path, limit)
        self.stat = os.fstat(self.fd)
        self.stat_ns = time.time_ns()  # when its stat was taken
        self.size = self.stat.st_size

    def read(self, begin: int = 0, end: int | None = None) -> bytes:
        """Its bytes begin..end (to its size as opened when end is None)."""
        end = self.size if end is None else end
        parts = []
        while begin < end:
            part = os.pread(self.fd, min(end - begin, MAX_READ), begin)
            if not part:
                break  # it shrank since it was opened
            parts.append(part)
            begin += len(part)
        return b"".join(parts)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def __enter__(self) -> OpenFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def encoded(text: str, newline: str = "\n") -> bytes:
    """The bytes atomic_write writes for text."""
    text = text.replace("\r\n", "\n")
    return (text if newline == "\n" else text.replace("\n", newline)).encode("utf-8")


def _current(path: Path) -> bytes:
    try:
        return read_file(path)
    except FileNotFoundError:
        return b""


_renames = {"before-rename": 0, "after-rename": 0}


def _crash_point(where: str) -> None:
    """Test hook: PAPERS_TEST_CRASH=before-rename[:N] or after-rename[:N] kills the
    process at the Nth (first) such point of its writes, as a power cut would."""
    wanted = os.environ.get(CRASH_ENV)
    if not wanted or not wanted.startswith(where):
        return
    _renames[where] += 1
    if wanted in (where, f"{where}:{_renames[where]}"):
        os.kill(os.getpid(), signal.SIGKILL)


def sync_folder(folder: Path) -> None:
    """Make a rename in folder durable."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def lock_file(path: Path) -> Path:
    """The lock file of a data file: beside the file it names (a link's target), hidden."""
    target = path.resolve()
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def locked(targets: list[Path], timeout: float, what: str) -> Iterator[None]:
    """Hold the lock of every file in targets, taken in one fixed order (sorted by resolved
    path) so that two writers sharing some of the files never wait on each other in a
    circle. what names the holder for the timeout message."""
    with contextlib.ExitStack() as stack:
        for lock_path in sorted({lock_file(p) for p in targets}, key=str):
            stack.enter_context(_lock(lock_path, timeout, what))
        yield


@contextlib.contextmanager
def _lock(lock_path: Path, timeout: float, what: str) -> Iterator[None]:
    """An exclusive lock on lock_path (filelock: flock on POSIX)."""
    from filelock import FileLock, Timeout

    try:
        # Opened, never created by a retry loop: a read-only folder fails at once.
        os.close(os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644))
    except OSError as err:
        raise _cannot_lock(lock_path, what, err) from None
    lock = FileLock(str(lock_path), timeout=max(timeout, 0))
    try:
        lock.acquire(poll_interval=0.05)
    except Timeout:
        raise _busy(lock_path, what) from None
    except OSError as err:
        raise _cannot_lock(lock_path, what, err) from None
    try:
        yield
    finally:
        lock.release()


def _busy(lock_path: Path, what: str) -> LockTimeoutError:
    return LockTimeoutError(
        f"{what}: another papers process is writing it (lock {lock_path}); try again in a moment"
    )


def _cannot_lock(lock_path: Path, what: str, err: OSError) -> CatalogError:
    return CatalogError(
        f"{what}: cannot take the lock {lock_path} ({err.strerror}); "
        "papers needs to write beside the file"
    )
