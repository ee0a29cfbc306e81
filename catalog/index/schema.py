"""The index's tables, as sqlite-utils creates them from the model's one table of fields.

The papers table has a column for every field of model.Paper (lists as JSON text,
booleans as 0 or 1) and the few the index derives; the schema version is a digest of
this description, so a new field in the model rebuilds every index once. sqlite-utils
makes the tables, their indexes and the full-text search (enable_fts), so `datasette`
and sqlite-utils open the file as one of their own.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from catalog.model import SPECS, digest

if TYPE_CHECKING:
    import sqlite_utils

# The searched text, as the stems of its words (catalog.index.words: Snowball English,
# which SQLite's own porter tokenizer cannot be swapped for): each searched field's
# column of stems, by field. Folded first, so "preusser" finds "Preußer" and "cech" "Čech".
STEMMED = {
    "title": "title_stems",
    "authors": "authors_stems",
    "tags": "tags_stems",
    "summary": "summary_stems",
    "venue_name": "venue_stems",
    "abstract": "abstract_stems",
}
# Columns the index adds to a paper's fields: its venue's full name, its year block (a
# stored line plus the block's shift is the paper's line in the file:
# catalog.index.update), how many lines its text runs past that line (span: where a
# writer finds its lines, catalog.edit.document), and the searched columns of stems.
DERIVED: dict[str, type] = {
    "venue_name": str,
    "chunk": str,
    "span": int,
    **{column: str for column in STEMMED.values()},
}
PAPER_COLUMNS: dict[str, type] = {
    **{name: spec.column for name, spec in SPECS.items()},
    **DERIVED,
}
# The searched columns; catalog.index.query.WEIGHTS follows this order.
FTS_COLUMNS = list(STEMMED.values())
# The text is stemmed already: the tokenizer only cuts it at blanks.
TOKENIZE = "unicode61 remove_diacritics 2"
# The other tables: columns, primary key, the papers key they refer to. The words table
# holds every distinct word of the searched text, folded but not stemmed: a prefix such
# as "embedd*" is widened to the stems of the words it begins ("embedding": "embed"),
# since the index holds stems and "embedd*" begins none. reading and notes are the reader's own
# (catalog.index.personal fills them): data/reading.yaml and data/readings/*.md.
# chunks are the catalog file's top-level blocks (catalog.data.reader.cut), every byte in
# one: where each lies, in lines and bytes, and its digest (the file's is made from theirs).
TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...], bool]] = {
    "meta": ({"key": str, "value": str}, "key", False),
    "chunks": (
        {"label": str, "digest": str, "start": int, "offset": int, "size": int},
        "offset",
        False,
    ),
    "venues": ({"short": str, "kind": str, "name": str, "publisher": str}, "short", False),
    "vocabulary": ({"tag": str, "description": str}, "tag", False),
    "words": ({"word": str}, "word", False),
    "papers": (PAPER_COLUMNS, "key", False),
    "authors": (
        {"paper": str, "position": int, "name": str, "folded": str},
        ("paper", "position"),
        True,
    ),
    "tags": ({"paper": str, "tag": str}, ("paper", "tag"), True),
    "reading": (
        {"key": str, "status": str, "started_on": str, "read_on": str, "queued": int},
        "key",
        False,
    ),
    "notes": ({"key": str, "path": str, "body": str, "body_stems": str}, "key", False),
}
# Made after the rows: one sort each instead of a b-tree grown a row at a time.
INDEXES = (("papers", "year"), ("tags", "tag"), ("authors", "folded"))
# What the description above does not say (the tokenizer's options, the triggers, how
# lines are kept): bumped by hand when that changes.
# 16: the searched text as pages show it (LaTeX read), accelerator pinned; 15: Snowball
# stems in columns of their own (14: no GPU pins); blocks by bytes.
LAYOUT = "16"


def version(tables: dict[str, tuple[dict[str, type], str | tuple[str, ...], bool]]) -> str:
    """The schema version of these tables: a digest of their description and the layout."""
    described = {
        name: ({column: kind.__name__ for column, kind in columns.items()}, pk, refers)
        for name, (columns, pk, refers) in tables.items()
    }
    return digest(repr((LAYOUT, described, INDEXES, FTS_COLUMNS, TOKENIZE)))[:16]


SCHEMA_VERSION = version(TABLES)


def create(db: sqlite_utils.Database) -> None:
    """Every table of the index, empty."""
    for name, (columns, pk, refers) in TABLES.items():
        foreign_keys = [("paper", "papers", "key")] if refers else None
        db.table(name).create(columns, pk=pk, foreign_keys=foreign_keys)


def index_and_search(db: sqlite_utils.Database) -> None:
    """The tables' indexes and full-text search, once their rows are in: each index made
    by one sort, the full-text index filled in one pass, then its triggers keep it in
    step with later edits."""
    for table, column in INDEXES:
        db.table(table).create_index([column])
    for table, searched in (("papers", FTS_COLUMNS), ("notes", ["body_stems"])):
        db.table(table).enable_fts(
            searched, fts_version="FTS5", tokenize=TOKENIZE, create_triggers=True
        )
    _narrow_update_trigger(db)


def _narrow_update_trigger(db: sqlite_utils.Database) -> None:
    """enable_fts's update trigger fires when any column changes; made to fire only when
    a searched one does. An edit that moves the lines of a year's papers updates each
    one's line: re-indexing their text too doubled the CPU time of such an update at
    10,000 papers (0.55 s against 0.27 s)."""
    row = db.execute("select sql from sqlite_master where name = 'papers_au'").fetchone()
    searched = ", ".join(f'"{c}"' for c in FTS_COLUMNS)
    narrow, found = re.subn(r"AFTER UPDATE ON ", f"AFTER UPDATE OF {searched} ON ", row[0])
    if found == 1:
        db.execute('DROP TRIGGER "papers_au"')
        db.execute(narrow)
