"""The derived SQLite index of the catalog (sqlite-utils, FTS5).

Freshness is a content hash stored in the database: a command that finds the
hash unchanged touches nothing. When only some year blocks changed, only
those are re-parsed and replaced; anything else rebuilds the file from scratch
into a temporary database that is renamed into place. The tables and rows are
catalog.index.schema's.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from catalog import files
from catalog.errors import CatalogError, IndexPathError, InvalidCatalogError, LockTimeoutError
from catalog.index.schema import (
    COLUMNS,
    FTS_SETUP,
    INDEXES,
    LINE_COLUMN,
    TABLES,
    add_words,
    cell,
    insert_papers,
    insert_records,
    row_of,
)
from catalog.model import (
    Paper,
    content_digest,
)
from catalog.paths import Paths

# catalog.data.reader (and with it PyYAML) is imported only when something must be parsed:
# a search on a fresh index never needs it.


SCHEMA_VERSION = "11"  # 5: porter tokenizer, abstract and sources columns; 6: narrow
# trigger; 7: words; 8: every field of a paper (a chapter's book, articleno, distinct);
# 9: lines kept relative to a shift per year block (meta "shifts"); 10: SHA-256 digests;
# 11: the reader's state and notes (tables reading, notes, notes_fts)
# In the SQLite header (offset 68): says papers built the file, even when other pages of it
# are damaged. "papr".
APPLICATION_ID = 0x70617072
_SQLITE_MAGIC = b"SQLite format 3\x00"
# A stat stamp is trusted only once the files are older than this when it is taken: a
# write within the file system clock's resolution could otherwise keep the same stamp.
_RACY_NS = 1_000_000_000
_RACY_FINE_NS = 50_000_000
# Seconds a command waits for another process building the index (a big catalog's build).
INDEX_LOCK_TIMEOUT = 600.0
# Fraction of changed year blocks above which a full rebuild is cheaper.
_REBUILD_SHARE = 0.5
# A paper's line is stored minus its year block's shift (meta "shifts": {label: lines},
# absent = 0): when an edit adds or removes lines, the papers of later years move by one
# number each, not by rewriting thousands of wide rows. A full build stores true lines.
_SHIFTS = "shifts"


@dataclass
class RefreshResult:
    """What refresh did: 'fresh' (nothing), 'updated' (some years) or 'built'."""

    action: str
    papers: int = 0
    years: list[str] = field(default_factory=list)


def _hash(data: bytes) -> str:
    return content_digest(data)


def file_digest(data: bytes) -> str:
    """The digest the index keeps of the catalog's bytes (a writer compares it to its own)."""
    return _hash(data)


def _stamp(path: Path) -> list[int]:
    """What stat says of a file: size, modification and change times, inode (zeros when
    missing). Equal stamps mean the same bytes, unless the file was written again within
    the clock's resolution; _trusted guards against that."""
    try:
        st = os.stat(path)
    except OSError:
        return [0, 0, 0, 0]
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _stamps(paths: Paths) -> dict[str, list[int]]:
    return {
        name: _stamp(path)
        for name, path in (
            ("catalog", paths.catalog),
            ("venues", paths.venues),
            ("tags", paths.tags),
        )
    }


def _trusted(stamps: dict[str, list[int]], taken_ns: int) -> bool:
    """A stamp taken well after the files' last change: a later write changes it. Well
    after: a second, or, where the file system keeps times finer than a second (their
    nanoseconds are not all zero: ext4, xfs, btrfs, tmpfs), 50 ms, since a write then
    gets a time at most one clock tick (<= 10 ms) old."""
    newest = max(max(s[1], s[2]) for s in stamps.values())
    fine = all(s[1] % 1_000_000_000 and s[2] % 1_000_000_000 for s in stamps.values() if any(s))
    return taken_ns - newest > (_RACY_FINE_NS if fine else _RACY_NS)


def _registry_digest(paths: Paths) -> str:
    parts = [SCHEMA_VERSION.encode()]
    for path in (paths.venues, paths.tags):
        try:
            parts.append(files.read_file(path))
        except OSError:
            parts.append(b"")
    return _hash(b"\0".join(parts))


def _meta(conn: sqlite3.Connection) -> dict[str, str]:
    try:
        return dict(conn.execute("select key, value from meta").fetchall())
    except sqlite3.DatabaseError:
        return {}


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
        conn = sqlite3.connect(_uri(paths.db, "ro"), uri=True)
    except sqlite3.Error:
        return False
    try:
        meta = _meta(conn)
    finally:
        conn.close()
    return {"digest", "registry", "schema"} <= set(meta)


def _uri(path: Path, mode: str) -> str:
    """An SQLite URI that opens path without creating it."""
    return f"file:{quote(str(path.resolve()))}?mode={mode}"


# ---------------------------------------------------------------- freshness


def connect(paths: Paths) -> sqlite3.Connection:
    """A connection to a fresh index, refreshing it first when the catalog changed."""
    refresh(paths)
    try:
        conn = sqlite3.connect(_uri(paths.db, "rw"), uri=True)
    except sqlite3.OperationalError:  # a read-only place: reading is all we need
        conn = sqlite3.connect(_uri(paths.db, "ro"), uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def read_connection(paths: Paths) -> sqlite3.Connection:
    """A connection that reads the index as it is (no refresh; never creates the file)."""
    return sqlite3.connect(_uri(paths.db, "ro"), uri=True)


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
    conn = sqlite3.connect(_uri(paths.db, "ro"), uri=True)
    try:
        if current and personal.stored(conn) == current:
            return
    finally:
        conn.close()
    with files.locked([paths.db], INDEX_LOCK_TIMEOUT, _describe(paths)):
        try:
            conn = sqlite3.connect(_uri(paths.db, "rw"), uri=True)
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
        fresh = _fresh(paths)
        if fresh is not None:
            return fresh
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
            fresh = _fresh(paths)
            if fresh is not None:
                return fresh
        stamps = _stamps(paths)  # before reading: a write after this changes the stamp
        data, text = _read_catalog(paths)
        text_digest = _hash(data)
        registry = _registry_digest(paths)
        if not force and state == "ours":
            try:
                result = _try_update(paths, text, text_digest, registry, stamps)
            except sqlite3.DatabaseError:
                result = None  # a damaged index: rebuilt below, like any other
            if result is not None:
                return result
        return _build(paths, text, text_digest, registry, stamps)


def _fresh(paths: Paths) -> RefreshResult | None:
    """A 'fresh' result when the index matches the files (stat first, then their bytes);
    None when it must be updated or rebuilt."""
    stamps = _stamps(paths)
    try:
        conn = sqlite3.connect(_uri(paths.db, "ro"), uri=True)
        try:
            meta = _meta(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    count = int(meta.get("papers", 0) or 0)
    if meta.get("schema") != SCHEMA_VERSION:
        return None
    recorded = meta.get("stamps")
    if recorded and json.loads(recorded) == stamps and _trusted(stamps, int(meta["stamped"])):
        return RefreshResult("fresh", count)
    try:
        data = files.read_file(paths.catalog)
    except OSError:
        return None
    if meta.get("digest") != _hash(data) or meta.get("registry") != _registry_digest(paths):
        return None
    if _trusted(stamps, time.time_ns()):  # same bytes: remember their stat for next time
        _restamp(paths, stamps)
    return RefreshResult("fresh", count)


def catalog_stamp(paths: Paths) -> list[int]:
    """The catalog file's stat stamp, as the index records it."""
    return _stamp(paths.catalog)


def holding(paths: Paths, data: bytes, stamp: list[int] | None) -> dict[str, str] | None:
    """The index's meta when it holds exactly these catalog bytes, after bringing it up to
    date when it lags; None when it cannot be made to (a writer then reads the bytes
    itself). stamp: the file's stat taken before data was read and unchanged after (None
    if it changed), which spares hashing the bytes when the index recorded it."""
    digest: list[str] = []

    def matches(meta: dict[str, str]) -> bool:
        if meta.get("schema") != SCHEMA_VERSION:
            return False
        recorded = json.loads(meta.get("stamps") or "{}").get("catalog")
        if stamp and recorded == stamp and _trusted({"catalog": stamp}, int(meta["stamped"])):
            return True
        digest[:] = digest or [_hash(data)]
        return meta.get("digest") == digest[0]

    try:
        if probe(paths) == "ours":
            meta = _read_meta(paths)
            if matches(meta):
                return meta
        refresh(paths)
        meta = _read_meta(paths)
    except (OSError, sqlite3.Error):
        return None
    return meta if matches(meta) else None


def _read_meta(paths: Paths) -> dict[str, str]:
    conn = sqlite3.connect(_uri(paths.db, "ro"), uri=True)
    try:
        return _meta(conn)
    finally:
        conn.close()


def _restamp(paths: Paths, stamps: dict[str, list[int]]) -> None:
    """Record the files' stat in the index when its lock is free (best effort: a reader in
    a read-only place just hashes again next time)."""
    with (
        contextlib.suppress(LockTimeoutError, CatalogError, OSError, sqlite3.Error),
        files.locked([paths.db], 0, _describe(paths)),
    ):
        conn = sqlite3.connect(_uri(paths.db, "rw"), uri=True, timeout=0.1)
        try:
            with conn:
                _set_stamps(conn, stamps)
        finally:
            conn.close()


def _set_stamps(conn: sqlite3.Connection, stamps: dict[str, list[int]]) -> None:
    conn.executemany(
        "insert or replace into meta values (?, ?)",
        [("stamps", json.dumps(stamps)), ("stamped", str(time.time_ns()))],
    )


def _read_catalog(paths: Paths) -> tuple[bytes, str]:
    from catalog.data import reader, yamlfile

    try:
        data = yamlfile.read_bytes(paths.catalog, paths.display())
    except FileNotFoundError:
        raise InvalidCatalogError([reader.missing(paths.display())]) from None
    return data, yamlfile.decode(data, paths.display())


def _try_update(
    paths: Paths, text: str, text_digest: str, registry: str, stamps: dict[str, list[int]]
) -> RefreshResult | None:
    conn = sqlite3.connect(_uri(paths.db, "rw"), uri=True)
    try:
        meta = _meta(conn)
        if meta.get("schema") != SCHEMA_VERSION or "registry" not in meta:
            return None
        registries_changed = meta["registry"] != registry
        if registries_changed and not _update_registries(conn, paths, registry):
            return None
        if meta.get("digest") == text_digest:
            with conn:
                _set_stamps(conn, stamps)
            return RefreshResult(
                "updated" if registries_changed else "fresh", int(meta.get("papers", 0))
            )
        return _update(conn, paths, text, text_digest, stamps)
    finally:
        conn.close()


def _update_registries(conn: sqlite3.Connection, paths: Paths, registry: str) -> bool:
    """_replace_registries in a transaction of its own."""
    with conn:
        return _replace_registries(conn, paths, registry)


def _replace_registries(conn: sqlite3.Connection, paths: Paths, registry: str) -> bool:
    """Replace the venue and tag tables in place (a new tag must not cost a full build);
    papers whose venue's name changed get the new name (and their full-text row). False,
    and nothing changed, when a venue has a field the table has no column for (a build
    makes it)."""
    venues, vocabulary = _load_registries(paths)
    columns = [r[1] for r in conn.execute("pragma table_info(venues)")]
    records = [v.to_dict() for v in venues.values()]
    if any(not set(r) <= set(columns) for r in records):
        return False
    old = dict(conn.execute("select short, name from venues").fetchall())
    marks = ", ".join("?" * len(columns))
    names = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
    conn.execute("delete from venues")
    conn.execute("delete from vocabulary")
    conn.executemany(
        f"insert into venues ({names}) values ({marks})",
        [[cell(r.get(c)) for c in columns] for r in records],
    )
    conn.executemany("insert into vocabulary values (?, ?)", list(vocabulary.items()))
    for short in set(old) | set(venues):
        name = venues[short].name if short in venues else None
        if old.get(short) != name:
            conn.execute("update papers set venue_name = ? where venue = ?", (name, short))
    add_words(conn, " ".join(v.name for v in venues.values()).split())
    conn.execute("insert or replace into meta values ('registry', ?)", (registry,))
    return True


def _load_registries(paths: Paths) -> tuple[dict[str, Any], dict[str, str]]:
    from catalog.data.registry import load_tags, load_venues

    return load_venues(paths.venues), load_tags(paths.tags)


def _build(
    paths: Paths, text: str, text_digest: str, registry: str, stamps: dict[str, list[int]]
) -> RefreshResult:
    """A new index in a temporary file, renamed over the old one (the caller holds the
    index's lock)."""
    target = paths.db.resolve()
    tmp = files.temp_path(target)
    try:
        result = _build_into(tmp, paths, text, text_digest, registry, stamps)
        os.replace(tmp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(err, OSError | sqlite3.OperationalError) and not isinstance(
            err, FileNotFoundError
        ):
            raise IndexPathError(
                f"{_describe(paths)}: cannot write the index here "
                f"({getattr(err, 'strerror', None) or err}); point --db / "
                "PAPERS_DB at a writable place"
            ) from None
        raise
    return result


def _build_into(
    tmp: Path,
    paths: Paths,
    text: str,
    text_digest: str,
    registry: str,
    stamps: dict[str, list[int]],
) -> RefreshResult:
    """The whole index in a new file: rows first, one year block at a time (one block's
    YAML tree in memory, not the whole file's), then the secondary indexes and the
    full-text index in one pass over the rows. The schema is the one sqlite-utils makes
    (tests/test_index.py compares them), so datasette and sqlite-utils open it."""
    from catalog.index import personal

    venues, vocabulary = _load_registries(paths)
    tmp.unlink(missing_ok=True)
    # A throwaway file until it is renamed into place: no syncs on the way, the journal
    # in memory (a new file's pages need none; off would make a savepoint's rollback,
    # which _insert_catalog uses, undefined).
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute(f"pragma application_id = {APPLICATION_ID}")
        conn.execute("pragma journal_mode = memory")
        conn.execute("pragma synchronous = off")
        conn.execute("begin")
        for sql in TABLES:
            conn.execute(sql)
        insert_records(conn, "venues", [v.to_dict() for v in venues.values()])
        insert_records(
            conn, "vocabulary", [{"tag": t, "description": d} for t, d in vocabulary.items()]
        )
        venue_names = {short: v.name for short, v in venues.items()}
        count, years = _insert_catalog(conn, text, paths.display(), venue_names)
        for sql in INDEXES:
            conn.execute(sql)
        _set_meta(conn, text_digest, registry, count)
        _set_stamps(conn, stamps)
        for sql in FTS_SETUP:
            conn.execute(sql)
        personal.fill(conn, paths, personal.digest(paths))
        conn.execute("commit")
        conn.execute("pragma journal_mode = delete")
    finally:
        conn.close()
    return RefreshResult("built", count, sorted(years))


class _BlockUnreadable(Exception):
    """A year block read on its own has a blocking problem: the whole file decides."""


def _insert_catalog(
    conn: sqlite3.Connection, text: str, filename: str, venue_names: dict[str, str]
) -> tuple[int, set[str]]:
    """Insert every paper (and the year blocks' digests); (papers, years) inserted.
    InvalidCatalogError with every blocking problem, as a read of the whole file finds
    them, when the catalog cannot be read."""
    from catalog.data import reader

    conn.execute("savepoint blocks")
    try:
        return _insert_blocks(conn, reader.parse_blocks(text, filename), filename, venue_names)
    except _BlockUnreadable:
        conn.execute("rollback to blocks")
    papers, problems = reader.parse(text, filename)
    problems += reader.duplicate_keys(papers, filename)
    blocking = [p for p in problems if p.blocking]
    if blocking:
        raise InvalidCatalogError(blocking)
    # A file that reads whole but not in blocks (a quoted value running over a line
    # that looks like a top-level key): rows as the whole file gives them, and no year
    # blocks recorded. With them, a later change to one block would be read alone, as
    # it does not read in the file (a paper made of another's title), and writers would
    # patch bytes inside a value: every refresh of such a file is a full build.
    insert_papers(conn, papers, venue_names)
    return len(papers), {str(p.year) for p in papers}


def _insert_blocks(
    conn: sqlite3.Connection,
    blocks: Iterable[tuple[Any, list[Paper], list]],
    filename: str,
    venue_names: dict[str, str],
) -> tuple[int, set[str]]:
    from catalog.data import reader

    first_lines: dict[str, int] = {}
    count = 0
    years: set[str] = set()
    for chunk, papers, problems in blocks:
        if any(p.blocking for p in problems) or reader.duplicate_keys(
            papers, filename, first_lines
        ):
            raise _BlockUnreadable
        insert_papers(conn, papers, venue_names)
        if chunk is not None:
            conn.execute(
                "insert into chunks values (?, ?, ?)", (chunk.label, chunk.digest, chunk.start)
            )
        count += len(papers)
        years.update(str(p.year) for p in papers)
    return count, years


def _set_meta(conn: sqlite3.Connection, text_digest: str, registry: str, count: int) -> None:
    meta = {
        "digest": text_digest,
        "registry": registry,
        "schema": SCHEMA_VERSION,
        "papers": str(count),
    }
    conn.executemany("insert or replace into meta values (?, ?)", meta.items())


def line_shifts(conn: sqlite3.Connection) -> dict[str, int]:
    """How far each year block's stored lines are from the file's: a paper's line in the
    file is its stored line plus the shift of its chunk (its year)."""
    try:
        row = conn.execute("select value from meta where key = ?", (_SHIFTS,)).fetchone()
    except sqlite3.OperationalError:  # no meta table: nothing was ever shifted
        return {}
    return json.loads(row[0]) if row else {}


def _set_shifts(conn: sqlite3.Connection, shifts: dict[str, int]) -> None:
    conn.execute(
        "insert or replace into meta values (?, ?)",
        (_SHIFTS, json.dumps({k: v for k, v in shifts.items() if v})),
    )


def _stored(papers: Iterable[Paper], shifts: dict[str, int]) -> list[Paper]:
    """The papers with the lines the table keeps (the file's minus their block's shift)."""
    return [
        p if not shifts.get(str(p.year)) else replace(p, line=p.line - shifts[str(p.year)])
        for p in papers
    ]


def _update(
    conn: sqlite3.Connection,
    paths: Paths,
    text: str,
    text_digest: str,
    stamps: dict[str, list[int]],
) -> RefreshResult | None:
    """Re-parse only the changed year blocks; None when a full build is needed instead."""
    from catalog.data import reader

    chunks = reader.split_chunks(text)
    if chunks is None or len({c.label for c in chunks}) != len(chunks):
        return None
    conn.execute("begin immediate")  # one writer; re-read state under the lock
    try:
        stored = {r[0]: (r[1], r[2]) for r in conn.execute("select * from chunks")}
        if not stored:
            conn.rollback()
            return None
        changed = [c for c in chunks if stored.get(c.label, ("",))[0] != c.digest]
        gone = set(stored) - {c.label for c in chunks}
        if len(changed) + len(gone) > max(1, len(chunks) * _REBUILD_SHARE):
            conn.rollback()
            return None
        papers = []
        for chunk in changed:
            found, problems = reader.parse(chunk.text, paths.display(), chunk.start - 1)
            if any(p.blocking for p in problems):
                conn.rollback()
                return None  # the full build reports every problem in file order
            papers.extend(found)
        touched = [c.label for c in changed] + sorted(gone)
        marks = ",".join("?" * len(touched))
        others = {
            r[0]
            for r in conn.execute(f"select key from papers where chunk not in ({marks})", touched)
        }
        keys = [p.key for p in papers]
        if len(set(keys)) != len(keys) or others & set(keys):
            conn.rollback()
            return None
        # A block that moved keeps its rows: its shift takes up the move (a new block
        # starts with none).
        old_shifts = line_shifts(conn)
        shifts = {
            c.label: old_shifts.get(c.label, 0) + c.start - stored[c.label][1]
            for c in chunks
            if c.label in stored
        }
        venue_names = dict(conn.execute("select short, name from venues").fetchall())
        _replace_changed_rows(conn, _stored(papers, shifts), touched, venue_names)
        conn.execute("delete from chunks")
        conn.executemany(
            "insert into chunks values (?, ?, ?)", [(c.label, c.digest, c.start) for c in chunks]
        )
        count = conn.execute("select count(*) from papers").fetchone()[0]
        registry = _meta(conn)["registry"]
        _set_meta(conn, text_digest, registry, count)
        _set_shifts(conn, shifts)
        _set_stamps(conn, stamps)
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return RefreshResult("updated", count, touched)


def _replace_changed_rows(
    conn: sqlite3.Connection, papers: list[Paper], chunks: list[str], venue_names: dict[str, str]
) -> None:
    """Make the rows of these chunks those of papers (lines as stored), writing only the
    papers whose row changed: a one-paper edit re-indexes one paper, not its whole year."""
    marks = ",".join("?" * len(chunks))
    old = {
        row[0]: row
        for row in conn.execute(f"select {COLUMNS} from papers where chunk in ({marks})", chunks)
    }
    moved: list[tuple[int, str]] = []
    fresh: list[Paper] = []
    for paper in papers:
        row = row_of(paper, venue_names)
        was = old.pop(paper.key, None)
        if was is not None and _but_line(was) == _but_line(row):
            if was[LINE_COLUMN] != row[LINE_COLUMN]:
                moved.append((paper.line, paper.key))
            continue
        if was is not None:
            old[paper.key] = was  # changed: its old rows go, the new ones come
        fresh.append(paper)
    gone = [(key,) for key in old]
    for name in ("authors", "tags"):
        conn.executemany(f"delete from {name} where paper = ?", gone)
    conn.executemany("delete from papers where key = ?", gone)
    conn.executemany("update papers set line = ? where key = ?", moved)
    insert_papers(conn, fresh, venue_names)


def rebuild(paths: Paths) -> RefreshResult:
    """Rebuild the index from scratch."""
    return refresh(paths, force=True)


def _but_line(row: tuple) -> tuple:
    """A row without its line, to tell a paper that only moved from one that changed."""
    return row[:LINE_COLUMN] + row[LINE_COLUMN + 1 :]
