"""The index's tables and rows: the schema sqlite-utils makes, a paper as its rows, the words."""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from collections.abc import Iterable
from json.encoder import encode_basestring as _encode_string
from typing import Any

from catalog.model import (
    Paper,
    fold,
    has_undecomposable,
)

# catalog.data.reader (and with it PyYAML) is imported only when something must be parsed:
# a search on a fresh index never needs it.


# "folded" holds title and authors with ß, ø, ł ... spelled out, so "preusser" finds
# "Preußer" (the unicode61 tokenizer strips accents but keeps such letters).
# catalog.index.query.WEIGHTS follows this order.
FTS_COLUMNS = ["title", "authors", "tags", "summary", "venue_name", "folded", "abstract"]
# Porter stemming over unicode61: "embeddings" finds "embedding", "cache" finds "caching",
# and accents still fold ("cech" finds "Čech").
TOKENIZE = "porter unicode61 remove_diacritics 2"
# The words table holds every distinct word of the searched text, folded but not stemmed:
# catalog.index.query widens a prefix such as "embedd*" to the words it begins ("embedding"),
# since porter would compare it with the stem "embed" and miss.
_WORD_RE = re.compile(r"[^\W_]+")
# The schema sqlite-utils 3.x/4.x writes for these tables (Table.create, create_index,
# enable_fts with triggers), statement for statement: `datasette` and sqlite-utils
# open the index as one of their own, and tests/test_index.py checks the two agree.
TABLES = (
    'CREATE TABLE "meta" (\n   "key" TEXT PRIMARY KEY,\n   "value" TEXT\n)',
    'CREATE TABLE "chunks" (\n   "label" TEXT PRIMARY KEY,\n   "digest" TEXT,\n'
    '   "start" INTEGER\n)',
    'CREATE TABLE "venues" (\n   "short" TEXT PRIMARY KEY,\n   "kind" TEXT,\n'
    '   "name" TEXT,\n   "publisher" TEXT\n)',
    'CREATE TABLE "vocabulary" (\n   "tag" TEXT PRIMARY KEY,\n   "description" TEXT\n)',
    'CREATE TABLE "words" (\n   "word" TEXT PRIMARY KEY\n)',
    'CREATE TABLE "papers" (\n'
    + ",\n".join(
        f'   "{name}" {kind}{" PRIMARY KEY" if name == "key" else ""}'
        for name, kind in (
            ("key", "TEXT"),
            ("year", "INTEGER"),
            ("venue", "TEXT"),
            ("venue_name", "TEXT"),
            ("title", "TEXT"),
            ("authors", "TEXT"),
            ("tags", "TEXT"),
            ("status", "TEXT"),
            ("doi", "TEXT"),
            ("arxiv", "TEXT"),
            ("arxiv_class", "TEXT"),
            ("url", "TEXT"),
            ("pages", "TEXT"),
            ("volume", "TEXT"),
            ("number", "TEXT"),
            ("sources", "TEXT"),
            ("et_al", "INTEGER"),
            ("read_on", "TEXT"),
            ("added", "TEXT"),
            ("summary", "TEXT"),
            ("abstract", "TEXT"),
            ("line", "INTEGER"),
            ("chunk", "TEXT"),
            ("folded", "TEXT"),
            ("booktitle", "TEXT"),
            ("editors", "TEXT"),
            ("publisher", "TEXT"),
            ("chapter", "TEXT"),
            ("articleno", "TEXT"),
            ("numpages", "TEXT"),
            ("distinct", "TEXT"),
        )
    )
    + "\n)",
    'CREATE TABLE "authors" (\n   "paper" TEXT REFERENCES "papers"("key"),\n'
    '   "position" INTEGER,\n   "name" TEXT,\n   "folded" TEXT,\n'
    '   PRIMARY KEY ("paper", "position")\n)',
    'CREATE TABLE "tags" (\n   "paper" TEXT REFERENCES "papers"("key"),\n   "tag" TEXT,\n'
    '   PRIMARY KEY ("paper", "tag")\n)',
    # The reader's own state and notes (catalog.index.personal fills them): data/reading.yaml
    # and data/readings/*.md, apart from the catalog's rows.
    'CREATE TABLE "reading" (\n   "key" TEXT PRIMARY KEY,\n   "status" TEXT,\n'
    '   "started_on" TEXT,\n   "read_on" TEXT,\n   "queued" INTEGER\n)',
    'CREATE TABLE "notes" (\n   "key" TEXT PRIMARY KEY,\n   "path" TEXT,\n   "body" TEXT\n)',
)
# Made after the rows: one sort each instead of a b-tree grown a row at a time.
INDEXES = (
    'CREATE INDEX "idx_papers_year"\n    ON "papers" ("year")',
    'CREATE INDEX "idx_tags_tag"\n    ON "tags" ("tag")',
    'CREATE INDEX "idx_authors_folded"\n    ON "authors" ("folded")',
)
_FTS_LIST = ", ".join(f'"{c}"' for c in FTS_COLUMNS)
_FTS_NEW = ", ".join(f'new."{c}"' for c in FTS_COLUMNS)
_FTS_OLD = ", ".join(f'old."{c}"' for c in FTS_COLUMNS)
_FTS_DELETE = (
    '  INSERT INTO "papers_fts" ("papers_fts", rowid, '
    f"{_FTS_LIST}) VALUES('delete', old.rowid, {_FTS_OLD});\n"
)
_FTS_INSERT = f'  INSERT INTO "papers_fts" (rowid, {_FTS_LIST}) VALUES (new.rowid, {_FTS_NEW});\n'
# The full-text index filled from the rows in one statement, then the triggers that keep
# it in step with later edits. The update trigger fires only when a column of the
# full-text index changes: moving the lines of a year must not re-index its papers.
# While it is filled, FTS5 may keep 64 MiB of terms in memory before it writes a segment
# (1 MiB by default, its value again afterwards): fewer segments to write and merge.
FTS_SETUP = (
    f'CREATE VIRTUAL TABLE "papers_fts" USING FTS5 (\n    {_FTS_LIST},\n'
    f"    tokenize='{TOKENIZE}',\n    content=\"papers\"\n)",
    "INSERT INTO papers_fts (papers_fts, rank) VALUES ('hashsize', 67108864)",
    f'INSERT INTO "papers_fts" (rowid, {_FTS_LIST})\n    SELECT rowid, {_FTS_LIST} FROM "papers"',
    "INSERT INTO papers_fts (papers_fts, rank) VALUES ('hashsize', 1048576)",
    f'CREATE TRIGGER "papers_ai" AFTER INSERT ON "papers" BEGIN\n{_FTS_INSERT}END',
    f'CREATE TRIGGER "papers_ad" AFTER DELETE ON "papers" BEGIN\n{_FTS_DELETE}END',
    f'CREATE TRIGGER "papers_au" AFTER UPDATE OF {_FTS_LIST} ON "papers" BEGIN\n'
    f"{_FTS_DELETE}{_FTS_INSERT}END",
    # Reading notes' text, searched apart from the papers' fields (note:WORD, and plain
    # search below every paper whose own fields match).
    f'CREATE VIRTUAL TABLE "notes_fts" USING FTS5 (\n    "body",\n'
    f"    tokenize='{TOKENIZE}',\n    content=\"notes\"\n)",
    'CREATE TRIGGER "notes_ai" AFTER INSERT ON "notes" BEGIN\n'
    '  INSERT INTO "notes_fts" (rowid, "body") VALUES (new.rowid, new."body");\nEND',
    'CREATE TRIGGER "notes_ad" AFTER DELETE ON "notes" BEGIN\n'
    '  INSERT INTO "notes_fts" ("notes_fts", rowid, "body") VALUES(\'delete\', old.rowid, '
    'old."body");\nEND',
    'CREATE TRIGGER "notes_au" AFTER UPDATE ON "notes" BEGIN\n'
    '  INSERT INTO "notes_fts" ("notes_fts", rowid, "body") VALUES(\'delete\', old.rowid, '
    'old."body");\n  INSERT INTO "notes_fts" (rowid, "body") VALUES (new.rowid, new."body");\nEND',
)


def insert_records(conn: sqlite3.Connection, name: str, records: list[dict[str, Any]]) -> None:
    """Rows into a registry table as sqlite-utils' insert_all(alter=True) writes them: a
    column added for each new field (first seen first; INTEGER for booleans and whole
    numbers, REAL for other numbers, else TEXT), lists and mappings as JSON."""
    have = {row[1].lower() for row in conn.execute(f'pragma table_info("{name}")')}
    seen: dict[str, set[type]] = {}
    for record in records:
        for field_name, value in record.items():
            seen.setdefault(field_name, set()).add(type(value))
    for field_name, types in seen.items():
        if field_name.lower() not in have:
            types.discard(type(None))
            kind = (
                "INTEGER"
                if types and types <= {int, bool}
                else "REAL"
                if types and types <= {int, float, bool}
                else "TEXT"
            )
            quoted = field_name.replace('"', '""')
            conn.execute(f'ALTER TABLE "{name}" ADD COLUMN "{quoted}" {kind};')
            have.add(field_name.lower())
    for record in records:
        columns = ", ".join('"' + c.replace('"', '""') + '"' for c in record)
        marks = ", ".join("?" * len(record))
        conn.execute(
            f'INSERT INTO "{name}" ({columns}) VALUES ({marks})',
            [cell(v) for v in record.values()],
        )


def insert_papers(
    conn: sqlite3.Connection, papers: Iterable[Paper], venue_names: dict[str, str]
) -> None:
    # Plain executemany: the same rows sqlite-utils would write, without its per-row overhead.
    rows: list[tuple] = []
    authors: list[tuple] = []
    tags: list[tuple] = []
    # The searched text's tokens, for the words table: long texts cut at blanks, names
    # and tags whole (their words are cut out of them later; a blank is no word).
    tokens: set[str] = set()
    add = tokens.update
    venues: set[str] = set()
    for p in papers:
        rows.append(row_of(p, venue_names))
        authors.extend((p.key, i, a, _fold_name(a)) for i, a in enumerate(p.authors))
        tags.extend((p.key, t) for t in dict.fromkeys(p.tags))
        add(p.title.split())
        add(p.authors)
        add(p.tags)
        if p.summary:
            add(p.summary.split())
        if p.abstract:
            add(p.abstract.split())
        venues.add(p.venue)
    add(name for name in map(venue_names.get, venues) if name)
    conn.executemany(f"insert into papers values ({','.join('?' * _WIDTH)})", rows)
    conn.executemany("insert into authors values (?, ?, ?, ?)", authors)
    conn.executemany("insert into tags values (?, ?)", tags)
    add_words(conn, tokens)


def add_words(conn: sqlite3.Connection, tokens: Iterable[str]) -> None:
    """Add the folded words of these whitespace-separated tokens to the words table."""
    # Folded and cut into words once per distinct token, not once per paper.
    words = {w for token in set(tokens) for w in _WORD_RE.findall(_fold_name(token))}
    conn.executemany("insert or ignore into words values (?)", ((w,) for w in words))


COLUMNS = (
    "key, year, venue, venue_name, title, authors, tags, status, doi, arxiv, "
    "arxiv_class, url, pages, volume, number, sources, et_al, read_on, added, summary, "
    "abstract, line, chunk, folded, booktitle, editors, publisher, chapter, articleno, "
    "numpages, [distinct]"
)
_WIDTH = COLUMNS.count(",") + 1
LINE_COLUMN = 21  # position of line in a row


def row_of(p: Paper, venue_names: dict[str, str]) -> tuple:
    """A paper as a row of the papers table, columns in COLUMNS order."""
    return (
        p.key,
        p.year,
        p.venue,
        venue_names.get(p.venue),
        p.title,
        _json_list(p.authors),
        _json_list(p.tags),
        p.status,
        p.doi,
        p.arxiv,
        p.arxiv_class,
        p.url,
        p.pages,
        p.volume,
        p.number,
        _json_list(p.sources),
        int(p.et_al),
        p.read_on,
        p.added,
        p.summary,
        p.abstract,
        p.line,
        str(p.year),
        _folded(p),
        p.booktitle,
        _json_list(p.editors),
        p.publisher,
        p.chapter,
        p.articleno,
        p.numpages,
        _json_list(p.distinct),
    )


def _json_list(items: list[str]) -> str:
    """json.dumps(items, ensure_ascii=False) for a list of strings."""
    return "[" + ", ".join(map(_encode_string, items)) + "]"


def _folded(paper: Paper) -> str | None:
    text = " ".join([paper.title, *paper.authors])
    if not has_undecomposable(text):
        return None
    # fold works letter by letter and a space stays a space, so the parts fold apart:
    # a name the catalog repeats is folded once.
    return " ".join([fold(paper.title), *map(_fold_name, paper.authors)])


@functools.lru_cache(maxsize=1 << 16)
def _fold_non_ascii(name: str) -> str:
    return fold(name)


def _fold_name(name: str) -> str:
    """fold(name), remembered for names with accents (the slow ones, and they repeat)."""
    return name.lower() if name.isascii() else _fold_non_ascii(name)


def cell(value: Any) -> Any:
    """A registry value as sqlite-utils stores it: lists and mappings as JSON."""
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, default=repr, ensure_ascii=False)
    return value
