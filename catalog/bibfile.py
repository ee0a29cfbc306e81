"""Every paper's BibTeX written to a file: entries streamed in key order, a few dozen a
write; on Linux, a big catalog's second half (by key) formatted at the
same time by a child process, on the other processor, into a temporary file beside the
output that is then appended. The bytes are those one process writes; the output is
replaced whole, and only once every entry is written.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from catalog import files, index
from catalog.paths import Paths

# Papers from which the second half is formatted by a child process: below, starting
# one costs more than it saves. Linux only: elsewhere a fork without exec is not safe
# with every system library (macOS's), and Windows has none.
SPLIT_MIN = 20_000
CAN_SPLIT = sys.platform.startswith("linux") and hasattr(os, "fork")
# A batch's text and bytes stay below malloc's threshold for a block of its own (128 KiB):
# each batch reuses the memory of the one before. (500 entries, ~600 KB: fresh pages for
# each, 85,000 page faults at 100k papers against 5,500.)
BATCH = 50
_CHUNK = 1 << 20  # bytes of the child's file read at a time

# entries(conn, first, stop): the entries of the papers whose keys are in [first, stop)
# (None: no bound), in key order.
Entries = Callable[[sqlite3.Connection, str | None, str | None], Iterator[str]]


def write(output: Path, paths: Paths, conn: sqlite3.Connection, entries: Entries) -> int:
    """Write every paper's entry to output (a blank line between two); the number written.
    An entry that cannot be written raises (bibtex.ExportError) and leaves output as it
    was; so does an OSError of the write."""
    count = [0]
    halves = _split(conn) if CAN_SPLIT else None
    if halves is None:
        files.atomic_write_parts(output, _batches(entries(conn, None, None), count))
        return count[0]
    split, size = halves
    child = _Half(output, paths, conn, entries, split, size)
    try:
        files.atomic_write_parts(output, itertools.chain(
            _batches(entries(conn, None, split), count), child.parts(count)))
    finally:
        child.close()
    return count[0]


def _batches(entries: Iterable[str], count: list[int]) -> Iterator[bytes]:
    """Entries as bytes, BATCH at a time, a blank line between two (count: how many so
    far, the ones before included)."""
    entries = iter(entries)
    while batch := list(itertools.islice(entries, BATCH)):
        yield ("\n" * bool(count[0]) + "\n".join(batch)).encode("utf-8")
        count[0] += len(batch)


def _split(conn: sqlite3.Connection) -> tuple[str, int] | None:
    """The first key of the second half and how many papers it holds, when the catalog is
    big enough to split."""
    total = conn.execute("select count(*) from papers").fetchone()[0]
    if total < SPLIT_MIN:
        return None
    split = conn.execute("select key from papers order by key limit 1 offset ?",
                         (total // 2,)).fetchone()[0]
    return split, total - total // 2


class _Half:
    """The entries from split on, formatted by a forked child into a temporary file
    (.NAME.PID.tmp beside the output, so that one left by a killed child is removed as any
    dead writer's is) while the parent formats the first half. When the child fails (an
    entry it cannot write, an index changed under it), the parent formats that half
    itself, and so raises the error a single process would."""

    def __init__(self, output: Path, paths: Paths, conn: sqlite3.Connection,
                 entries: Entries, split: str, size: int):
        self.conn, self.entries, self.split, self.size = conn, entries, split, size
        target = output.resolve()
        digest = _digest(conn)
        self.pid = os.fork()
        if self.pid == 0:  # the child: it never returns
            os._exit(_child(target, paths, entries, split, digest))
        self.tmp = target.with_name(f".{target.name}.{self.pid}.tmp")
        self.done = False

    def parts(self, count: list[int]) -> Iterator[bytes]:
        """The second half's bytes, once the parent has written the first."""
        _, status = os.waitpid(self.pid, 0)
        self.done = True
        if os.waitstatus_to_exitcode(status) == 0:
            with open(self.tmp, "rb") as part:
                while chunk := part.read(_CHUNK):
                    yield chunk
            count[0] += self.size  # the child wrote every entry of its half, or failed
            return
        yield from _batches(self.entries(self.conn, self.split, None), count)

    def close(self) -> None:
        """Stop the child if the parent gave up first; remove its file."""
        if not self.done:
            import signal

            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        self.tmp.unlink(missing_ok=True)


def _child(target: Path, paths: Paths, entries: Entries, split: str, digest: str | None
           ) -> int:
    """The child's work: 0 when its half is in its temporary file, else 1."""
    try:
        conn = index.read_connection(paths)  # its own: a connection is not to cross a fork
        if _digest(conn) != digest:  # the index changed between the two reads
            return 1
        fd = os.open(files.temp_path(target), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            files.write_parts(fd, _batches(entries(conn, split, None), [1]))
        finally:
            os.close(fd)
        return 0
    except BaseException:  # the parent does this half again, and reports what fails
        return 1


def _digest(conn: sqlite3.Connection) -> Any:
    row = conn.execute("select value from meta where key = 'digest'").fetchone()
    return row[0] if row else None
