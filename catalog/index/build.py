"""A whole new index, made by sqlite-utils in a temporary file renamed into place.

The tables come from catalog.index.schema (the model's one table of fields), the rows
from catalog.index.rows, written with insert_all one year block at a time (one block's
text and YAML tree in memory, not the whole file's); then the secondary indexes and the
full-text index (enable_fts, with the triggers that keep it in step with later edits).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from catalog import files
from catalog.errors import IndexPathError, InvalidCatalogError
from catalog.index import freshness, schema
from catalog.index.freshness import Layout
from catalog.index.rows import Rows, rows_of, words
from catalog.paths import Paths

if TYPE_CHECKING:
    import sqlite_utils


def build(
    paths: Paths, data: bytes, layout: Layout, registry: str, stamps: dict[str, list[int]]
) -> tuple[int, list[str]]:
    """A new index of the catalog's bytes (cut as layout says) in a temporary file,
    renamed over the old one (the caller holds the index's lock); (papers, years) it
    holds."""
    target = paths.db.resolve()
    tmp = files.temp_path(target)
    try:
        result = _build_into(tmp, paths, data, layout)
        _finish(tmp, layout.digest, registry, stamps, result[0])
        os.replace(tmp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(err, OSError | sqlite3.OperationalError) and not isinstance(
            err, FileNotFoundError
        ):
            raise IndexPathError(
                f"{paths.display(paths.db)}: cannot write the index here "
                f"({getattr(err, 'strerror', None) or err}); point --db / "
                "PAPERS_DB at a writable place"
            ) from None
        raise
    return result


def _build_into(tmp: Path, paths: Paths, data: bytes, layout: Layout) -> tuple[int, list[str]]:
    """Tables, rows, indexes and full-text search in a new file."""
    import sqlite_utils

    from catalog.data.registry import load_tags, load_venues
    from catalog.index import personal

    venues, vocabulary = load_venues(paths.venues), load_tags(paths.tags)
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp)
    # A throwaway file until it is renamed into place: no syncs on the way, the journal
    # in memory (a new file's pages need none; off would make a savepoint's rollback,
    # which _insert_catalog uses, undefined).
    from catalog.index.database import APPLICATION_ID

    conn.execute(f"pragma application_id = {APPLICATION_ID}")
    conn.execute("pragma journal_mode = memory")
    conn.execute("pragma synchronous = off")
    db = sqlite_utils.Database(conn, execute_plugins=False)
    try:
        schema.create(db)
        db.table("venues").insert_all([v.to_dict() for v in venues.values()], alter=True)
        db.table("vocabulary").insert_all(
            {"tag": t, "description": d} for t, d in vocabulary.items()
        )
        venue_names = {short: v.name for short, v in venues.items()}
        count, years = _insert_catalog(db, data, layout, paths.display(), venue_names)
        schema.index_and_search(db)
        with conn:
            personal.fill(conn, paths, personal.digest(paths))
    finally:
        conn.close()
    return count, sorted(years)


def _finish(
    tmp: Path, text_digest: str, registry: str, stamps: dict[str, list[int]], count: int
) -> None:
    """Record what the new file holds, and leave it as any SQLite file is left."""
    conn = sqlite3.connect(tmp)
    try:
        with conn:
            freshness.set_meta(conn, text_digest, registry, count)
            freshness.set_stamps(conn, stamps)
        conn.execute("pragma journal_mode = delete")
    finally:
        conn.close()


def insert(db: sqlite_utils.Database, rows: Rows) -> None:
    """Rows of papers into a new index."""
    for name, records in rows.tables():
        db.table(name).insert_all(records, batch_size=500)
    db.table("words").insert_all(({"word": w} for w in words(rows.tokens)), ignore=True)


class _BlockUnreadable(Exception):
    """A year block read on its own has a blocking problem: the whole file decides."""


def _insert_catalog(
    db: sqlite_utils.Database,
    data: bytes,
    layout: Layout,
    filename: str,
    venue_names: dict[str, str],
) -> tuple[int, set[str]]:
    """Insert every paper and the blocks the file is cut into (where each lies, its
    digest); (papers, years) inserted. InvalidCatalogError with every blocking problem,
    as a read of the whole file finds them, when the catalog cannot be read."""
    from catalog.data import reader, yamlfile

    readable = layout.blocks
    if readable:
        try:
            count, years = _insert_blocks(db, data, layout, filename, venue_names)
        except _BlockUnreadable:
            readable = False
    if not readable:
        # A file that reads whole but not in blocks (a quoted value running over a line
        # that looks like a top-level key): rows as the whole file gives them, and its
        # blocks marked unreadable alone. Read alone, a later change to one block would
        # read as it does not in the file (a paper made of another's title): every
        # refresh of such a file is a full build. (The blocks read before the one that
        # did not are gone first.)
        papers, problems, spans = reader.parse_spans(yamlfile.decode(data, filename), filename)
        problems += reader.duplicate_keys(papers, filename)
        blocking = [p for p in problems if p.blocking]
        if blocking:
            raise InvalidCatalogError(blocking)
        for name in ("tags", "authors", "papers", "words"):
            db.execute(f'delete from "{name}"')
        insert(db, rows_of(papers, venue_names, spans))
        count, years = len(papers), {str(p.year) for p in papers}
    db.table("chunks").insert_all(layout.rows())
    db.table("meta").insert({"key": "blocks", "value": "read" if readable else "whole"})
    return count, years


def _insert_blocks(
    db: sqlite_utils.Database,
    data: bytes,
    layout: Layout,
    filename: str,
    venue_names: dict[str, str],
) -> tuple[int, set[str]]:
    """Insert the papers one block at a time, each block's text decoded and read alone
    (_BlockUnreadable when one has a blocking problem: the whole file decides)."""
    from catalog.data import reader, yamlfile

    first_lines: dict[str, int] = {}
    count = 0
    years: set[str] = set()
    for c in layout.cuts:
        try:
            text = yamlfile.decode(data[c.begin : c.end], filename)
        except InvalidCatalogError:
            raise _BlockUnreadable from None  # the whole file's reading names its line
        papers, problems, spans = reader.parse_spans(text, filename, c.line - 1)
        if any(p.blocking for p in problems) or reader.duplicate_keys(
            papers, filename, first_lines
        ):
            raise _BlockUnreadable
        insert(db, rows_of(papers, venue_names, spans))
        count += len(papers)
        years.update(str(p.year) for p in papers)
    return count, years
