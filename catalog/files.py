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
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from catalog.errors import CatalogError, LockTimeoutError

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


def atomic_write(path: Path, text: str, newline: str = "\n") -> None:
    """Replace the file with text so that a reader or a crash sees the old file or the new
    one. A symbolic link is followed: its target is replaced and the link kept. newline
    is written for each '\\n' (a CRLF file stays CRLF)."""
    data = text if newline == "\n" else text.replace("\r\n", "\n").replace("\n", newline)
    atomic_write_parts(path, [data.encode("utf-8")])


def atomic_write_parts(path: Path, parts: Iterable[bytes | memoryview]) -> list[int] | None:
    """atomic_write of these bytes, one part after the other (so a big file edited in one
    place is written from slices of its old bytes, never joined in memory). Returns the
    stat stamp of the file it made (size, mtime, ctime, inode, as the index records them),
    or None when the file at path is no longer the one it wrote."""
    target = path.resolve()
    tmp = temp_path(target)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0),
                     0o666)
        try:
            write_parts(fd, parts)
            os.fsync(fd)
            written = os.fstat(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        if os.environ.get(CRASH_ENV) == "before-rename":
            os.kill(os.getpid(), signal.SIGKILL)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    sync_folder(target.parent)
    try:
        now = os.stat(target)
    except OSError:
        return None
    if (now.st_ino, now.st_size, now.st_mtime_ns) != (written.st_ino, written.st_size,
                                                     written.st_mtime_ns):
        return None  # someone else's write already: let the index find out for itself
    return [now.st_size, now.st_mtime_ns, now.st_ctime_ns, now.st_ino]


# Parts handed to the system in one writev call (POSIX guarantees 16; Linux takes 1024),
# and the bytes held for it at most (parts made on the way, as an export's, are not all
# kept in memory).
_BATCH = min(os.sysconf("SC_IOV_MAX"), 1024) if hasattr(os, "sysconf") else 16
_BATCH_BYTES = 1 << 20


def write_parts(fd: int, parts: Iterable[bytes | memoryview]) -> None:
    """Write the parts one after the other, many per system call: a 12k-paper rename
    writes its 112 MB file as 24k slices, which took 0.23 s one write at a time and
    0.08 s in batches."""
    batch: list[bytes | memoryview] = []
    held = 0
    for part in parts:
        if len(part):
            batch.append(part)
            held += len(part)
        if len(batch) == _BATCH or held >= _BATCH_BYTES:
            _write_batch(fd, batch)
            batch, held = [], 0
    if batch:
        _write_batch(fd, batch)


def _write_batch(fd: int, batch: list[bytes | memoryview]) -> None:
    written = os.writev(fd, batch) if hasattr(os, "writev") else 0
    for part in batch:  # after a short write (or with no writev), the rest one by one
        if written >= len(part):
            written -= len(part)
            continue
        view = memoryview(part)[written:]
        written = 0
        while view:
            view = view[os.write(fd, view):]


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
    """An exclusive flock on lock_path (the lock filelock takes on POSIX, so papers
    processes of other versions exclude each other too), without importing filelock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        with _file_lock(lock_path, timeout, what):
            yield
        return
    try:
        # Opened, never created by a retry loop: a read-only folder fails at once.
        handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise _cannot_lock(lock_path, what, err) from None
    try:
        deadline = time.monotonic() + max(timeout, 0)
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise _busy(lock_path, what) from None
                time.sleep(0.05)
            except OSError as err:
                raise _cannot_lock(lock_path, what, err) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        os.close(handle)


@contextlib.contextmanager
def _file_lock(lock_path: Path, timeout: float, what: str) -> Iterator[None]:  # pragma: no cover
    from filelock import FileLock, Timeout

    lock = FileLock(str(lock_path), timeout=timeout)
    try:
        os.close(os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644))
        lock.acquire()
    except Timeout:
        raise _busy(lock_path, what) from None
    except OSError as err:
        raise _cannot_lock(lock_path, what, err) from None
    try:
        yield
    finally:
        lock.release()


def _busy(lock_path: Path, what: str) -> LockTimeoutError:
    return LockTimeoutError(f"{what}: another papers process is writing it "
                            f"(lock {lock_path}); try again in a moment")


def _cannot_lock(lock_path: Path, what: str, err: OSError) -> CatalogError:
    return CatalogError(f"{what}: cannot take the lock {lock_path} ({err.strerror}); "
                        "papers needs to write beside the file")
