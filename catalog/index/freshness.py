"""Whether the index holds the files it was built from: stat stamps first, then digests.

The index keeps in its meta table the digest of the catalog's bytes and of the
registries (with the schema version), and the files' stat taken when it last looked
('stamps', 'stamped'). A command that finds the stat unchanged, and taken when a later
write must change it, trusts it; otherwise it hashes the bytes. The catalog's digest is
made of its top-level blocks' digests (`Layout`): a writer that changed one block hashes
that block, not the file.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from catalog import files
from catalog.errors import CatalogError, LockTimeoutError
from catalog.index.schema import SCHEMA_VERSION
from catalog.model import content_digest
from catalog.paths import Paths

if TYPE_CHECKING:
    from catalog.data.reader import Cut

# A stat stamp is trusted only once the files are older than this when it is taken: a
# write within the file system clock's resolution could otherwise keep the same stamp.
_RACY_NS = 1_000_000_000
_RACY_FINE_NS = 50_000_000


def uri(path: Path, mode: str) -> str:
    """An SQLite URI that opens path without creating it."""
    return f"file:{quote(str(path.resolve()))}?mode={mode}"


@dataclass(frozen=True)
class Layout:
    """The catalog's bytes as the index keeps them: cut into top-level blocks (one piece
    when they cannot be cut), each block's digest, and the file's, made of theirs."""

    cuts: list[Cut]
    digests: list[str]
    digest: str
    blocks: bool  # cut into blocks with a label each (a year read alone can be re-read)

    def rows(self) -> list[dict[str, str | int]]:
        """The index's chunks table: each block, where it lies, its digest."""
        return [
            {
                "label": c.label,
                "digest": d,
                "start": c.line,
                "offset": c.begin,
                "size": c.end - c.begin,
            }
            for c, d in zip(self.cuts, self.digests, strict=True)
        ]


def layout(data: bytes) -> Layout:
    """The blocks of the catalog's bytes and their digests."""
    from catalog.data.reader import Cut, cut

    cuts = cut(data)
    blocks = cuts is not None and len({c.label for c in cuts}) == len(cuts)
    if cuts is None:
        cuts = [Cut("", 1, 0, len(data))] if data else []
    view = memoryview(data)
    digests = [content_digest(view[c.begin : c.end]) for c in cuts]
    return Layout(cuts, digests, combined(digests), blocks)


def combined(digests: list[str]) -> str:
    """The file's digest, of its blocks' digests in file order."""
    return content_digest("\n".join(digests).encode("ascii"))


def file_digest(data: bytes) -> str:
    """The digest the index keeps of the catalog's bytes (a writer compares it to its own)."""
    return layout(data).digest


def stamp(path: Path) -> list[int]:
    """What stat says of a file: size, modification and change times, inode (zeros when
    missing). Equal stamps mean the same bytes, unless the file was written again within
    the clock's resolution; trusted guards against that."""
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return [0, 0, 0, 0]


def stamp_of(st: os.stat_result) -> list[int]:
    """stamp() of a stat already taken."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def stamps(paths: Paths) -> dict[str, list[int]]:
    """The stamps of the catalog and its registries."""
    return {
        name: stamp(path)
        for name, path in (
            ("catalog", paths.catalog),
            ("venues", paths.venues),
            ("tags", paths.tags),
        )
    }


def trusted(taken: dict[str, list[int]], taken_ns: int) -> bool:
    """Stamps that a later write must change: each file missing, or its modification time
    older than its change time (a write sets both to the time it runs, so the
    modification time then moves), or both well in the past when the stamps were taken:
    a second, or, where the file system keeps times finer than a second (their
    nanoseconds are not all zero: ext4, xfs, btrfs, tmpfs), 50 ms, since a write then
    gets a time at most one clock tick (<= 10 ms) old."""
    fine = all(s[1] % 1_000_000_000 and s[2] % 1_000_000_000 for s in taken.values() if any(s))
    window = _RACY_FINE_NS if fine else _RACY_NS
    return all(
        not any(s) or s[1] < s[2] or taken_ns - max(s[1], s[2]) > window for s in taken.values()
    )


def registry_digest(paths: Paths) -> str:
    """The digest of the registries' bytes and of the schema version."""
    parts = [SCHEMA_VERSION.encode()]
    for path in (paths.venues, paths.tags):
        try:
            parts.append(files.read_file(path))
        except OSError:
            parts.append(b"")
    return content_digest(b"\0".join(parts))


def meta(conn: sqlite3.Connection) -> dict[str, str]:
    """The index's meta table ({} when it has none)."""
    try:
        return dict(conn.execute("select key, value from meta").fetchall())
    except sqlite3.DatabaseError:
        return {}


def read_meta(paths: Paths) -> dict[str, str]:
    """The meta table of the index file."""
    conn = sqlite3.connect(uri(paths.db, "ro"), uri=True)
    try:
        return meta(conn)
    finally:
        conn.close()


def fresh(paths: Paths) -> int | None:
    """The number of papers when the index matches the files (stat first, then their
    bytes); None when it must be updated or rebuilt."""
    now = stamps(paths)
    try:
        found = read_meta(paths)
    except sqlite3.Error:
        return None
    count = int(found.get("papers", 0) or 0)
    if found.get("schema") != SCHEMA_VERSION:
        return None
    recorded = found.get("stamps")
    if recorded and json.loads(recorded) == now and trusted(now, int(found["stamped"])):
        return count
    try:
        data = files.read_file(paths.catalog)
    except OSError:
        return None
    if found.get("digest") != file_digest(data) or found.get("registry") != registry_digest(paths):
        return None
    if trusted(now, time.time_ns()):  # same bytes: remember their stat for next time
        _restamp(paths, now)
    return count


def holds(found: dict[str, str], data: Callable[[], bytes], taken: list[int]) -> bool:
    """Whether an index with this meta holds exactly the catalog bytes of a file opened
    with the stamp taken (data: its bytes, read only when the index did not record that
    stamp, trusted, and they must be hashed)."""
    if found.get("schema") != SCHEMA_VERSION:
        return False
    recorded = json.loads(found.get("stamps") or "{}").get("catalog")
    if recorded == taken and trusted({"catalog": taken}, int(found["stamped"])):
        return True
    return found.get("digest") == file_digest(data())


def _restamp(paths: Paths, now: dict[str, list[int]]) -> None:
    """Record the files' stat in the index when its lock is free (best effort: a reader in
    a read-only place just hashes again next time)."""
    with (
        contextlib.suppress(LockTimeoutError, CatalogError, OSError, sqlite3.Error),
        files.locked([paths.db], 0, paths.display(paths.db)),
    ):
        conn = sqlite3.connect(uri(paths.db, "rw"), uri=True, timeout=0.1)
        try:
            with conn:
                set_stamps(conn, now)
        finally:
            conn.close()


def set_stamps(conn: sqlite3.Connection, now: dict[str, list[int]]) -> None:
    """Record the files' stamps, and when they were taken."""
    conn.executemany(
        "insert or replace into meta values (?, ?)",
        [("stamps", json.dumps(now)), ("stamped", str(time.time_ns()))],
    )


def set_meta(conn: sqlite3.Connection, text_digest: str, registry: str, count: int) -> None:
    """Record what the index now holds."""
    values = {
        "digest": text_digest,
        "registry": registry,
        "schema": SCHEMA_VERSION,
        "papers": str(count),
    }
    conn.executemany("insert or replace into meta values (?, ?)", values.items())
