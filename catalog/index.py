"""The derived SQLite index of the catalog (sqlite-utils, FTS5).

Freshness is a content hash stored in the database: a command that finds the
hash unchanged touches nothing. When only some year blocks changed, only
those are re-parsed and replaced; anything else rebuilds the file from scratch
into a temporary database that is renamed into place.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from catalog.errors import InvalidCatalogError
from catalog.model import Paper, digest, fold, has_undecomposable
from catalog.paths import Paths

# catalog.source (and with it PyYAML) is imported only when something must be parsed:
# a search on a fresh index never needs it.

SCHEMA_VERSION = "4"
# "folded" holds title and authors with ß, ø, ł ... spelled out, so "preusser" finds
# "Preußer" (the unicode61 tokenizer strips accents but keeps such letters).
# catalog.query.WEIGHTS follows this order.
FTS_COLUMNS = ["title", "authors", "tags", "summary", "venue_name", "folded", "abstract"]
# Porter stemming over unicode61: "embeddings" finds "embedding", "cache" finds "caching",
# and accents still fold ("cech" finds "Čech").
TOKENIZE = "porter unicode61 remove_diacritics 2"
# Fraction of changed year blocks above which a full rebuild is cheaper.
_REBUILD_SHARE = 0.5


@dataclass
class RefreshResult:
    """What refresh did: 'fresh' (nothing), 'updated' (some years) or 'built'."""

    action: str
    papers: int = 0
    years: list[str] = field(default_factory=list)


def _registry_digest(paths: Paths) -> str:
    parts = [SCHEMA_VERSION]
    for path in (paths.venues, paths.tags):
        parts.append(path.read_text(encoding="utf-8") if path.exists() else "")
    return digest("\0".join(parts))


def _meta(conn: sqlite3.Connection) -> dict[str, str]:
    try:
        return dict(conn.execute("select key, value from meta").fetchall())
    except sqlite3.DatabaseError:
        return {}


def connect(paths: Paths) -> sqlite3.Connection:
    """A connection to a fresh index, refreshing it first when the catalog changed."""
    refresh(paths)
    conn = sqlite3.connect(paths.db)
    conn.row_factory = sqlite3.Row
    return conn


def refresh(paths: Paths, force: bool = False) -> RefreshResult:
    """Bring the index up to date with the catalog; raise InvalidCatalogError if unusable."""
    try:
        text = paths.catalog.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        from catalog import source

        source.load(paths.catalog, paths.display())  # raises with the right message
        raise  # pragma: no cover
    text_digest = digest(text)
    registry = _registry_digest(paths)
    if not force and paths.db.exists():
        conn = sqlite3.connect(paths.db)
        try:
            meta = _meta(conn)
            if meta.get("digest") == text_digest and meta.get("registry") == registry:
                return RefreshResult("fresh", int(meta.get("papers", 0)))
            if meta.get("registry") == registry and meta.get("schema") == SCHEMA_VERSION:
                result = _update(conn, paths, text, text_digest)
                if result:
                    return result
        finally:
            conn.close()
    return _build(paths, text, text_digest, registry)


def _load_registries(paths: Paths) -> tuple[dict[str, Any], dict[str, str]]:
    from catalog.venues import load_tags, load_venues

    return load_venues(paths.venues), load_tags(paths.tags)


def _build(paths: Paths, text: str, text_digest: str, registry: str) -> RefreshResult:
    import sqlite_utils

    from catalog import source

    papers, problems = source.parse(text, paths.display())
    problems += source.duplicate_keys(papers, paths.display())
    blocking = [p for p in problems if p.blocking]
    if blocking:
        raise InvalidCatalogError(blocking)
    venues, vocabulary = _load_registries(paths)
    paths.db.parent.mkdir(parents=True, exist_ok=True)
    tmp = paths.db.with_name(f".{paths.db.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    db = sqlite_utils.Database(tmp)
    db.conn.execute("pragma journal_mode = off")
    db.conn.execute("pragma synchronous = off")
    with db.conn:
        _create_tables(db)
        table(db, "venues").insert_all((v.to_dict() for v in venues.values()), alter=True)
        table(db, "vocabulary").insert_all({"tag": t, "description": d}
                                           for t, d in vocabulary.items())
        venue_names = {short: v.name for short, v in venues.items()}
        _insert_papers(db.conn, papers, venue_names)
        chunks = source.split_chunks(text) or []
        labels = [c.label for c in chunks]
        if len(set(labels)) == len(labels):
            table(db, "chunks").insert_all({"label": c.label, "digest": c.digest, "start": c.start}
                                    for c in chunks)
        _set_meta(db.conn, text_digest, registry, len(papers))
    table(db, "papers").enable_fts(FTS_COLUMNS, fts_version="FTS5", tokenize=TOKENIZE,
                            create_triggers=True)
    db.conn.execute("pragma journal_mode = delete")
    db.conn.close()
    os.replace(tmp, paths.db)
    return RefreshResult("built", len(papers), sorted({str(p.year) for p in papers}))


def table(db: Any, name: str) -> Any:
    """A sqlite-utils Table (db[name] may also be a View, which mypy can't rule out)."""
    return db.table(name)


def _create_tables(db: Any) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["chunks"].create({"label": str, "digest": str, "start": int}, pk="label")
    db["venues"].create({"short": str, "kind": str, "name": str, "publisher": str},
                        pk="short")
    db["vocabulary"].create({"tag": str, "description": str}, pk="tag")
    db["papers"].create(
        {"key": str, "year": int, "venue": str, "venue_name": str, "title": str,
         "authors": str, "tags": str, "status": str, "doi": str, "arxiv": str,
         "arxiv_class": str, "url": str,
         "pages": str, "volume": str, "number": str, "sources": str, "et_al": int, "read_on": str,
         "added": str, "summary": str, "abstract": str, "line": int, "chunk": str,
         "folded": str},
        pk="key",
    )
    db["authors"].create({"paper": str, "position": int, "name": str, "folded": str},
                         pk=("paper", "position"), foreign_keys=[("paper", "papers", "key")])
    db["tags"].create({"paper": str, "tag": str}, pk=("paper", "tag"),
                      foreign_keys=[("paper", "papers", "key")])
    db["papers"].create_index(["year"])
    db["tags"].create_index(["tag"])
    db["authors"].create_index(["folded"])


def _insert_papers(conn: sqlite3.Connection, papers: Iterable[Paper],
                   venue_names: dict[str, str]) -> None:
    # Plain executemany: the same rows sqlite-utils would write, without its per-row overhead.
    rows: list[tuple] = []
    authors: list[tuple] = []
    tags: list[tuple] = []
    for p in papers:
        rows.append((p.key, p.year, p.venue, venue_names.get(p.venue), p.title,
                     json.dumps(p.authors, ensure_ascii=False),
                     json.dumps(p.tags, ensure_ascii=False), p.status, p.doi, p.arxiv,
                     p.arxiv_class, p.url, p.pages, p.volume, p.number,
                     json.dumps(p.sources, ensure_ascii=False), int(p.et_al),
                     p.read_on, p.added, p.summary, p.abstract, p.line, str(p.year), _folded(p)))
        authors.extend((p.key, i, a, fold(a)) for i, a in enumerate(p.authors))
        tags.extend((p.key, t) for t in dict.fromkeys(p.tags))
    conn.executemany(f"insert into papers values ({','.join('?' * 24)})", rows)
    conn.executemany("insert into authors values (?, ?, ?, ?)", authors)
    conn.executemany("insert into tags values (?, ?)", tags)


def _folded(paper: Paper) -> str | None:
    text = " ".join([paper.title, *paper.authors])
    return fold(text) if has_undecomposable(text) else None


def _set_meta(conn: sqlite3.Connection, text_digest: str, registry: str, count: int) -> None:
    meta = {"digest": text_digest, "registry": registry, "schema": SCHEMA_VERSION,
            "papers": str(count)}
    conn.executemany("insert or replace into meta values (?, ?)", meta.items())


def _update(conn: sqlite3.Connection, paths: Paths, text: str,
            text_digest: str) -> RefreshResult | None:
    """Re-parse only the changed year blocks; None when a full build is needed instead."""
    from catalog import source

    chunks = source.split_chunks(text)
    if chunks is None or len({c.label for c in chunks}) != len(chunks):
        return None
    conn.execute("begin immediate")  # one writer; re-read state under the lock
    try:
        if _meta(conn).get("digest") == text_digest:
            conn.rollback()
            return RefreshResult("fresh")
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
            found, problems = source.parse(chunk.text, paths.display(), chunk.start - 1)
            if any(p.blocking for p in problems):
                conn.rollback()
                return None  # the full build reports every problem in file order
            papers.extend(found)
        touched = [c.label for c in changed] + sorted(gone)
        marks = ",".join("?" * len(touched))
        others = {r[0] for r in conn.execute(
            f"select key from papers where chunk not in ({marks})", touched)}
        keys = [p.key for p in papers]
        if len(set(keys)) != len(keys) or others & set(keys):
            conn.rollback()
            return None
        venue_names = dict(conn.execute("select short, name from venues").fetchall())
        for table, column in (("authors", "paper"), ("tags", "paper")):
            conn.execute(f"delete from {table} where {column} in "
                         f"(select key from papers where chunk in ({marks}))", touched)
        conn.execute(f"delete from papers where chunk in ({marks})", touched)
        _insert_papers(conn, papers, venue_names)
        for chunk in chunks:
            old = stored.get(chunk.label)
            if old and old[0] == chunk.digest and old[1] != chunk.start:
                conn.execute("update papers set line = line + ? where chunk = ?",
                             (chunk.start - old[1], chunk.label))
        conn.execute("delete from chunks")
        conn.executemany("insert into chunks values (?, ?, ?)",
                         [(c.label, c.digest, c.start) for c in chunks])
        count = conn.execute("select count(*) from papers").fetchone()[0]
        registry = _meta(conn)["registry"]
        _set_meta(conn, text_digest, registry, count)
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return RefreshResult("updated", count, touched)


def rebuild(paths: Paths) -> RefreshResult:
    """Rebuild the index from scratch."""
    return refresh(paths, force=True)
