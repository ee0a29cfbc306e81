"""An index brought up to date in place: only the year blocks whose text changed.

A refresh after an edit re-reads the changed year blocks and rewrites only the rows of
papers that changed (the full-text index follows by the triggers enable_fts made). It
writes through plain SQL, as catalog.index.build's sqlite-utils tables have them:
importing sqlite-utils (and numpy, which it imports) costs a one-paper edit more than
its whole index update (tools/bench.py). None means: build the index anew instead.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from catalog.index import freshness
from catalog.index.rows import Rows, paper_row, rows_of, words
from catalog.index.schema import PAPER_COLUMNS, SCHEMA_VERSION
from catalog.index.words import stems
from catalog.model import Paper
from catalog.paths import Paths

# Fraction of changed year blocks above which a full rebuild is cheaper.
_REBUILD_SHARE = 0.5
# A paper's line is stored minus its year block's shift (meta "shifts": {label: lines},
# absent = 0): when an edit adds or removes lines, the papers of later years move by one
# number each, not by rewriting thousands of wide rows. A full build stores true lines.
_SHIFTS = "shifts"
_COLUMNS = ", ".join(f'"{c}"' for c in PAPER_COLUMNS)


def update(
    paths: Paths, text: str, text_digest: str, registry: str, stamps: dict[str, list[int]]
) -> tuple[str, int, list[str]] | None:
    """Bring an index of this schema up to date: ('updated' or 'fresh', papers, year
    blocks re-read), or None when a full build is needed."""
    conn = sqlite3.connect(freshness.uri(paths.db, "rw"), uri=True)
    try:
        meta = freshness.meta(conn)
        if meta.get("schema") != SCHEMA_VERSION or "registry" not in meta:
            return None
        registries_changed = meta["registry"] != registry
        if registries_changed:
            with conn:
                if not _replace_registries(conn, paths, registry):
                    return None
        if meta.get("digest") == text_digest:
            with conn:
                freshness.set_stamps(conn, stamps)
            return ("updated" if registries_changed else "fresh"), int(meta.get("papers", 0)), []
        return _update(conn, paths, text, text_digest, stamps)
    finally:
        conn.close()


def _replace_registries(conn: sqlite3.Connection, paths: Paths, registry: str) -> bool:
    """Replace the venue and tag tables in place (a new tag must not cost a full build);
    papers whose venue's name changed get the new name (and their full-text row). False,
    and nothing changed, when a venue has a field the table has no column for (a build
    makes it)."""
    from catalog.data.registry import load_tags, load_venues

    venues, vocabulary = load_venues(paths.venues), load_tags(paths.tags)
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
        [[_cell(r.get(c)) for c in columns] for r in records],
    )
    conn.executemany("insert into vocabulary values (?, ?)", list(vocabulary.items()))
    for short in set(old) | set(venues):
        name = venues[short].name if short in venues else None
        if old.get(short) != name:
            conn.execute(
                "update papers set venue_name = ?, venue_stems = ? where venue = ?",
                (name, stems(name), short),
            )
    add_words(conn, " ".join(v.name for v in venues.values()).split())
    conn.execute("insert or replace into meta values ('registry', ?)", (registry,))
    return True


def _cell(value: Any) -> Any:
    """A registry value as sqlite-utils' insert_all stores it: lists and mappings as JSON."""
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, default=repr, ensure_ascii=False)
    return value


def add_words(conn: sqlite3.Connection, tokens: Iterable[str]) -> None:
    """Add the folded words of these whitespace-separated tokens to the words table."""
    conn.executemany("insert or ignore into words values (?)", ((w,) for w in words(tokens)))


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
) -> tuple[str, int, list[str]] | None:
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
        freshness.set_meta(conn, text_digest, freshness.meta(conn)["registry"], count)
        _set_shifts(conn, shifts)
        freshness.set_stamps(conn, stamps)
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return "updated", count, touched


def _replace_changed_rows(
    conn: sqlite3.Connection, papers: list[Paper], chunks: list[str], venue_names: dict[str, str]
) -> None:
    """Make the rows of these chunks those of papers (lines as stored), writing only the
    papers whose row changed: a one-paper edit re-indexes one paper, not its whole year."""
    marks = ",".join("?" * len(chunks))
    conn.row_factory = sqlite3.Row
    try:
        old = {
            row["key"]: dict(row)
            for row in conn.execute(
                f"select {_COLUMNS} from papers where chunk in ({marks})", chunks
            )
        }
    finally:
        conn.row_factory = None
    moved: list[tuple[int, str]] = []
    fresh: list[Paper] = []
    for paper in papers:
        row = paper_row(paper, venue_names)
        was = old.pop(paper.key, None)
        if was is not None and {**was, "line": row["line"]} == row:
            if was["line"] != row["line"]:
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
    _insert(conn, rows_of(fresh, venue_names))


def _insert(conn: sqlite3.Connection, rows: Rows) -> None:
    """Rows of papers, as catalog.index.build inserts them."""
    for name, records in rows.tables():
        if records:
            columns = ", ".join(f'"{c}"' for c in records[0])
            marks = ", ".join("?" * len(records[0]))
            conn.executemany(
                f'insert into "{name}" ({columns}) values ({marks})',
                [tuple(r.values()) for r in records],
            )
    add_words(conn, rows.tokens)
