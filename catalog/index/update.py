"""An index brought up to date in place: only the rows of papers that changed.

After a hand edit, a refresh re-reads the year blocks whose bytes changed (`update`);
after papers' own write, the writer says what it changed (`apply`: the papers it read
again, and where the other papers' lines moved), so nothing is read again. Either way
only the rows of papers that changed are rewritten (the full-text index follows by the
triggers enable_fts made), through plain SQL, as catalog.index.build's sqlite-utils
tables have them: importing sqlite-utils (and numpy, which it imports) costs a one-paper
edit more than its whole index update (tools/bench.py). None or False means: build the
index anew instead.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from catalog.index import freshness
from catalog.index.freshness import Layout
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


@dataclass
class Change:
    """What a writer made of the catalog bytes the index held: how the new file's blocks
    lie (layout); the papers it read again, with their spans; the year blocks whose rows
    all go for the papers read again in them (reread: read again whole, or gone); the
    papers read again alone (heads: their rows go for their new ones); and for the other
    blocks, which lines of the old file moved by how many (label: [(first, end, by)])."""

    layout: Layout
    papers: list[Paper] = field(default_factory=list)
    spans: list[int] = field(default_factory=list)
    reread: set[str] = field(default_factory=set)
    heads: set[str] = field(default_factory=set)
    moves: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)


def update(
    paths: Paths, data: bytes, layout: Layout, registry: str, stamps: dict[str, list[int]]
) -> tuple[str, int, list[str]] | None:
    """Bring an index of this schema up to date with the catalog's bytes (cut as layout
    says): ('updated' or 'fresh', papers, year blocks re-read), or None when a full build
    is needed."""
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
        if meta.get("digest") == layout.digest:
            with conn:
                freshness.set_stamps(conn, stamps)
            return ("updated" if registries_changed else "fresh"), int(meta.get("papers", 0)), []
        if meta.get("blocks") != "read" or not layout.blocks:
            return None  # read whole: only a full build reads it as the file does
        return _update(conn, paths, data, layout, stamps)
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
    data: bytes,
    layout: Layout,
    stamps: dict[str, list[int]],
) -> tuple[str, int, list[str]] | None:
    """Re-read only the year blocks whose bytes changed; None when a full build is needed."""
    from catalog.data import reader, yamlfile
    from catalog.errors import InvalidCatalogError

    conn.execute("begin immediate")  # one writer; re-read state under the lock
    try:
        stored = dict(conn.execute("select label, digest from chunks").fetchall())
        cuts = layout.cuts
        changed = [c for c, d in zip(cuts, layout.digests, strict=True) if stored.get(c.label) != d]
        gone = set(stored) - {c.label for c in cuts}
        if not stored or len(changed) + len(gone) > max(1, len(cuts) * _REBUILD_SHARE):
            conn.rollback()
            return None
        change = Change(layout, reread={c.label for c in changed} | gone)
        for chunk in changed:
            try:
                text = yamlfile.decode(data[chunk.begin : chunk.end], paths.display())
            except InvalidCatalogError:
                conn.rollback()
                return None  # the full build names the line as the whole file has it
            found, problems, spans = reader.parse_spans(text, paths.display(), chunk.line - 1)
            if any(p.blocking for p in problems):
                conn.rollback()
                return None  # the full build reports every problem in file order
            change.papers += found
            change.spans += spans
        count = _change(conn, change, stamps)
        if count is None:
            conn.rollback()
            return None
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return "updated", count, sorted(change.reread)


def apply(paths: Paths, old_digest: str, change: Change, stamps: dict[str, list[int]]) -> bool:
    """Bring an index that holds the catalog bytes of this digest up to date with what a
    writer made of them; False, and nothing changed, when it holds other bytes (or a
    file not read in blocks): a refresh then does it."""
    conn = sqlite3.connect(freshness.uri(paths.db, "rw"), uri=True)
    try:
        conn.execute("begin immediate")
        meta = freshness.meta(conn)
        done = None
        if (
            meta.get("schema") == SCHEMA_VERSION
            and meta.get("digest") == old_digest
            and meta.get("blocks") == "read"
            and change.layout.blocks
        ):
            registry = freshness.registry_digest(paths)
            if meta.get("registry") == registry or _replace_registries(conn, paths, registry):
                done = _change(conn, change, stamps)
        if done is None:
            conn.rollback()
            return False
        conn.commit()
        return True
    except BaseException:
        conn.rollback()
        raise
    finally:
        conn.close()


def _clash(conn: sqlite3.Connection, change: Change) -> bool:
    """Whether the papers read again repeat a key, or take one a paper outside the blocks
    read again holds (a paper read alone replaces its own row)."""
    keys = [p.key for p in change.papers]
    if len(set(keys)) != len(keys):
        return True
    asked = sorted(set(keys) - change.heads)
    reread = sorted(change.reread)
    marks = ",".join("?" * len(reread))
    for at in range(0, len(asked), 500):  # a bounded number of parameters per query
        part = asked[at : at + 500]
        found = conn.execute(
            f"select 1 from papers where key in ({','.join('?' * len(part))})"
            f" and chunk not in ({marks}) limit 1",
            [*part, *reread],
        ).fetchone()
        if found:
            return True
    return False


def _change(conn: sqlite3.Connection, change: Change, stamps: dict[str, list[int]]) -> int | None:
    """Make the rows those of the changed file (in the caller's transaction); the number
    of papers, or None when the papers read again clash with the others' keys."""
    if _clash(conn, change):
        return None
    starts = dict(conn.execute("select label, start from chunks").fetchall())
    old_shifts = line_shifts(conn)
    shifts: dict[str, int] = {}
    for label, ranges in change.moves.items():
        base = old_shifts.get(label, 0)
        moves = {by for _, _, by in ranges}
        if len(moves) == 1:  # the block moved as one: its shift takes up the move
            shifts[label] = base + moves.pop()
            continue
        shifts[label] = base
        conn.executemany(
            "update papers set line = line + ? where chunk = ? and line >= ? and line < ?",
            [(by, label, first - base, end - base) for first, end, by in ranges if by],
        )
    for c in change.layout.cuts:  # a block read again keeps the rows that did not change
        if c.label not in shifts:
            shifts[c.label] = old_shifts.get(c.label, 0) + c.line - starts.get(c.label, c.line)
    venue_names = dict(conn.execute("select short, name from venues").fetchall())
    alone = [i for i, p in enumerate(change.papers) if p.key in change.heads]
    gone = [(change.papers[i].key,) for i in alone]
    for name in ("authors", "tags"):
        conn.executemany(f"delete from {name} where paper = ?", gone)
    conn.executemany("delete from papers where key = ?", gone)
    papers = _stored(change.papers, shifts)
    _insert(
        conn,
        rows_of([papers[i] for i in alone], venue_names, [change.spans[i] for i in alone]),
    )
    rest = [i for i in range(len(papers)) if papers[i].key not in change.heads]
    if change.reread:
        _replace_changed_rows(
            conn,
            [papers[i] for i in rest],
            [change.spans[i] for i in rest],
            sorted(change.reread),
            venue_names,
        )
    count: int = conn.execute("select count(*) from papers").fetchone()[0]
    _record(conn, change.layout, shifts, count, stamps)
    return count


def _record(
    conn: sqlite3.Connection,
    layout: Layout,
    shifts: dict[str, int],
    count: int,
    stamps: dict[str, list[int]],
) -> None:
    """Record what the index now holds: the file's blocks, its digest, the lines' shifts,
    the files' stamps."""
    conn.execute("delete from chunks")
    conn.executemany(
        "insert into chunks (label, digest, start, offset, size) "
        "values (:label, :digest, :start, :offset, :size)",
        layout.rows(),
    )
    freshness.set_meta(conn, layout.digest, freshness.meta(conn)["registry"], count)
    _set_shifts(conn, shifts)
    freshness.set_stamps(conn, stamps)


def _replace_changed_rows(
    conn: sqlite3.Connection,
    papers: list[Paper],
    spans: list[int],
    chunks: list[str],
    venue_names: dict[str, str],
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
    fresh_spans: list[int] = []
    for paper, span in zip(papers, spans, strict=True):
        row = paper_row(paper, venue_names, span)
        was = old.pop(paper.key, None)
        if was is not None and {**was, "line": row["line"]} == row:
            if was["line"] != row["line"]:
                moved.append((paper.line, paper.key))
            continue
        if was is not None:
            old[paper.key] = was  # changed: its old rows go, the new ones come
        fresh.append(paper)
        fresh_spans.append(span)
    gone = [(key,) for key in old]
    for name in ("authors", "tags"):
        conn.executemany(f"delete from {name} where paper = ?", gone)
    conn.executemany("delete from papers where key = ?", gone)
    conn.executemany("update papers set line = ? where key = ?", moved)
    _insert(conn, rows_of(fresh, venue_names, fresh_spans))


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
