"""The derived SQLite index of the catalog: where it is, whose it is, and keeping it fresh.

Freshness is a content hash stored in the database (catalog.index.freshness): a
command that finds the hash unchanged touches nothing. When only some year blocks
changed, only those are re-parsed and replaced (catalog.index.update); anything else
rebuilds the file from scratch with sqlite-utils into a temporary database that is
renamed into place (catalog.index.build). The tables are catalog.index.schema's.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from catalog import files
from catalog.errors import IndexPathError, InvalidCatalogError
from catalog.index import freshness
from catalog.index.freshness import Layout, uri
from catalog.index.freshness import file_digest as file_digest  # writers compare theirs
from catalog.index.freshness import layout as layout  # writers cut bytes the index lacks
from catalog.index.update import Change, update
from catalog.index.update import line_shifts as line_shifts  # readers turn stored lines
from catalog.paths import Paths

# catalog.data.reader (and with it PyYAML) is imported only when something must be parsed:
# a search on a fresh index never needs it; sqlite-utils only when the index is built.

_SQLITE_MAGIC = b"SQLite format 3\x00"
# In the SQLite header (offset 68): says papers built the file, even when other pages of it
# are damaged. "papr".
APPLICATION_ID = 0x70617072
# Seconds a command waits for another process building the index (a big catalog's build).
INDEX_LOCK_TIMEOUT = 600.0


@dataclass
class RefreshResult:
    """What refresh did: 'fresh' (nothing), 'updated' (some years) or 'built'."""

    action: str
    papers: int = 0
    years: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- whose file is it


def _describe(paths: Paths) -> str:
    return paths.display(paths.db)


def _not_ours(paths: Paths, why: str) -> IndexPathError:
    db = _describe(paths)
    return IndexPathError(
        f"{db}: {why}; papers never replaces a file it did not make. "
        "Point --db / PAPERS_DB at a new file (the default is "
        f"build/catalog.db), or, if {db} is an old papers index, remove it "
        "yourself"
    )


def probe(paths: Paths) -> str:
    """'missing' or 'ours' (an SQLite file whose header, or meta table, says papers built
    it); IndexPathError for anything else at that path, which papers must never replace."""
    try:
        st = os.stat(paths.db)
    except FileNotFoundError:
        return "missing"
    except OSError as err:
        raise IndexPathError(
            f"{_describe(paths)}: cannot use this index path "
            f"({err.strerror}); point --db / PAPERS_DB elsewhere"
        ) from None
    if stat.S_ISDIR(st.st_mode):
        raise IndexPathError(
            f"{_describe(paths)}: is a folder; --db / PAPERS_DB names the "
            "index file itself, e.g. build/catalog.db"
        )
    if not stat.S_ISREG(st.st_mode):
        raise _not_ours(paths, "not a regular file")
    try:
        with open(paths.db, "rb") as handle:
            header = handle.read(100)
    except OSError as err:
        raise IndexPathError(
            f"{_describe(paths)}: cannot read the index "
            f"({err.strerror}); point --db / PAPERS_DB elsewhere"
        ) from None
    if not header.startswith(_SQLITE_MAGIC):
        raise _not_ours(paths, "not an index papers built (not an SQLite database)")
    if header[68:72] == APPLICATION_ID.to_bytes(4, "big"):
        return "ours"
    if header[68:72] == bytes(4) and _legacy_index(paths):
        return "ours"  # built before the header carried our id: its meta table says so
    raise _not_ours(paths, "an SQLite database papers did not build")


def _legacy_index(paths: Paths) -> bool:
    try:
        conn = sqlite3.connect(uri(paths.db, "ro"), uri=True)
    except sqlite3.Error:
        return False
    try:
        meta = freshness.meta(conn)
    finally:
        conn.close()
    return {"digest", "registry", "schema"} <= set(meta)


# ---------------------------------------------------------------- freshness


def connect(paths: Paths) -> sqlite3.Connection:
    """A connection to a fresh index, refreshing it first when the catalog changed."""
    refresh(paths)
    try:
        conn = sqlite3.connect(uri(paths.db, "rw"), uri=True)
    except sqlite3.OperationalError:  # a read-only place: reading is all we need
        conn = sqlite3.connect(uri(paths.db, "ro"), uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def read_connection(paths: Paths) -> sqlite3.Connection:
    """A connection that reads the index as it is (no refresh; never creates the file)."""
    return sqlite3.connect(uri(paths.db, "ro"), uri=True)


def refresh(paths: Paths, force: bool = False) -> RefreshResult:
    """Bring the index up to date with the catalog and the reader's files (reading state
    and notes, catalog.index.personal); InvalidCatalogError if one is unusable."""
    result = _refresh_catalog(paths, force)
    _refresh_personal(paths)
    return result


def _refresh_personal(paths: Paths) -> None:
    """Fill the reader's tables again when the reading file or a note changed."""
    from catalog.index import personal

    current = personal.digest(paths)
    conn = sqlite3.connect(uri(paths.db, "ro"), uri=True)
    try:
        if current and personal.stored(conn) == current:
            return
    finally:
        conn.close()
    with files.locked([paths.db], INDEX_LOCK_TIMEOUT, _describe(paths)):
        try:
            conn = sqlite3.connect(uri(paths.db, "rw"), uri=True)
            try:
                with conn:
                    personal.fill(conn, paths, current)
            finally:
                conn.close()
        except sqlite3.OperationalError as err:
            if "readonly" not in str(err) and "unable to open" not in str(err):
                raise
            # a read-only index (a shared copy) shows the state it was built with


def _refresh_catalog(paths: Paths, force: bool = False) -> RefreshResult:
    """Bring the index up to date with the catalog; raise InvalidCatalogError if unusable.

    A check finds nothing changed from stat alone when it can; else it hashes the files'
    bytes. Any change is made under the index's lock, so readers wait for a build rather
    than see a half-made file, and two builders never race."""
    state = probe(paths)  # before any lock: a foreign file is refused at once
    if not force and state == "ours":
        count = freshness.fresh(paths)
        if count is not None:
            return RefreshResult("fresh", count)
    try:
        paths.db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise IndexPathError(
            f"{_describe(paths)}: cannot create its folder "
            f"({err.strerror}); point --db / PAPERS_DB elsewhere"
        ) from None
    with files.locked([paths.db], INDEX_LOCK_TIMEOUT, _describe(paths)):
        files.remove_dead_temporaries(paths.db.parent, paths.db.name)
        state = probe(paths)  # another process may have built it while we waited
        if not force and state == "ours":
            count = freshness.fresh(paths)
            if count is not None:
                return RefreshResult("fresh", count)
        stamps = freshness.stamps(paths)  # before reading: a write after this changes it
        data = _read_catalog(paths)
        layout = freshness.layout(data)
        registry = freshness.registry_digest(paths)
        if not force and state == "ours":
            try:
                done = update(paths, data, layout, registry, stamps)
            except sqlite3.DatabaseError:
                done = None  # a damaged index: rebuilt below, like any other
            if done is not None:
                return RefreshResult(*done)
        from catalog.index.build import build

        count, years = build(paths, data, layout, registry, stamps)
        return RefreshResult("built", count, years)


def apply(paths: Paths, old_digest: str, change: Change) -> bool:
    """Bring the index up to date with what a writer made of the catalog bytes of this
    digest, and the reader's tables with their files; False when it holds other bytes
    (the caller refreshes it). The files' stamps are taken now, after the write."""
    from catalog.index.update import apply as apply_change

    stamps = freshness.stamps(paths)
    with files.locked([paths.db], INDEX_LOCK_TIMEOUT, _describe(paths)):
        if probe(paths) != "ours" or not apply_change(paths, old_digest, change, stamps):
            return False
    _refresh_personal(paths)
    return True


def holding(paths: Paths, stat: os.stat_result, read: Callable[[], bytes]) -> Layout | None:
    """How the index cuts the catalog's bytes, when it holds exactly those of the file a
    writer opened with this stat (read: its bytes, read once and only when its stat
    cannot tell), after bringing the index up to date when it lags; None when it cannot
    be made to (the writer then reads the bytes itself)."""
    stamp = freshness.stamp_of(stat)
    found: list[bytes] = []

    def data() -> bytes:
        if not found:
            found.append(read())
        return found[0]

    try:
        if probe(paths) == "ours":
            held = _held(paths, stamp, data)
            if held is not None:
                return held
        refresh(paths)
        return _held(paths, stamp, data)
    except (OSError, sqlite3.Error):
        return None


def _held(paths: Paths, stamp: list[int], data: Callable[[], bytes]) -> Layout | None:
    from catalog.data.reader import Cut

    conn = sqlite3.connect(uri(paths.db, "ro"), uri=True)
    try:
        conn.execute("begin")  # the meta and the blocks as one writer left them
        meta = freshness.meta(conn)
        rows = conn.execute(
            "select label, digest, start, offset, size from chunks order by offset"
        ).fetchall()
    finally:
        conn.close()
    if not freshness.holds(meta, data, stamp):
        return None
    cuts = [Cut(label, start, offset, offset + size) for label, _, start, offset, size in rows]
    digests = [r[1] for r in rows]
    return Layout(cuts, digests, meta["digest"], meta.get("blocks") == "read")


def _read_catalog(paths: Paths) -> bytes:
    from catalog.data import reader, yamlfile

    try:
        return yamlfile.read_bytes(paths.catalog, paths.display())
    except FileNotFoundError:
        raise InvalidCatalogError([reader.missing(paths.display())]) from None


def rebuild(paths: Paths) -> RefreshResult:
    """Rebuild the index from scratch."""
    return refresh(paths, force=True)
