"""The reader's state and notes in the index: data/reading.yaml and data/readings/*.md.

They change apart from the catalog (reading a paper never touches data/papers.yaml), so
they have a freshness of their own: a digest of the reading file's bytes and of each
note's stat, kept in meta as 'personal'. When it differs, the two small tables are
filled again (the notes' full-text index follows by its triggers).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path

from catalog import files
from catalog.index.words import stems
from catalog.paths import Paths, file_stem_key

_META = "personal"
# A note changed this recently may change again within the file system clock's
# resolution without its stat changing: its digest is not kept, so the next command
# looks again.
_RACY_NS = 1_000_000_000


def notes_files(paths: Paths) -> list[os.DirEntry[str]]:
    """The reading notes (data/readings/*.md), sorted by name."""
    try:
        with os.scandir(paths.readings) as entries:
            found = [e for e in entries if e.name.endswith(".md") and e.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda e: e.name)


def digest(paths: Paths) -> str:
    """What the reader's files are now: the reading file's bytes, each note's stat; ''
    when something changed too recently to be trusted."""
    h = hashlib.sha256()
    try:
        h.update(files.read_file(paths.reading))
    except OSError:
        h.update(b"\0none")
    newest = 0
    for entry in notes_files(paths):
        st = entry.stat()
        h.update(f"\0{entry.name}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}".encode())
        newest = max(newest, st.st_mtime_ns, st.st_ctime_ns)
    if time.time_ns() - newest < _RACY_NS:
        return ""
    return h.hexdigest()


def stored(conn: sqlite3.Connection) -> str | None:
    """The digest the index was last filled from (None: never, or an index without it)."""
    try:
        row = conn.execute("select value from meta where key = ?", (_META,)).fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def fill(conn: sqlite3.Connection, paths: Paths, current: str) -> None:
    """Fill the reading and notes tables from the reader's files (the caller commits)."""
    from catalog.data import readingstate
    from catalog.index.update import add_words

    state = readingstate.load(paths)
    queued = {key: i for i, key in enumerate(state.queue)}
    rows = []
    for key in dict.fromkeys([*state.entries, *state.queue]):
        entry = state.entries.get(key)
        dates = (entry.started_on, entry.read_on) if entry else (None, None)
        rows.append((key, entry.status if entry else None, *dates, queued.get(key)))
    conn.execute("delete from reading")
    conn.executemany("insert into reading values (?, ?, ?, ?, ?)", rows)
    notes = []
    for note in notes_files(paths):
        try:
            body = files.read_file(Path(note.path)).decode("utf-8", errors="replace")
        except OSError:
            continue
        key = file_stem_key(note.name[:-3]) or note.name[:-3]
        notes.append((key, note.path, body, stems(body)))
    conn.execute("delete from notes")
    conn.executemany("insert into notes values (?, ?, ?, ?)", notes)
    add_words(conn, " ".join(body for _, _, body, _ in notes).split())
    conn.execute("insert or replace into meta values (?, ?)", (_META, current))
