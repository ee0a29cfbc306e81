"""Edits of the reader's file (data/reading.yaml): status, dates and the queue's order.

catalog.edit.writer opens a ReadingSession under the file's lock (alone, for `papers
status` and `papers queue --top`, or inside a catalog session, for `papers rm`) and
writes it through the one door: each entry is a line of its own (catalog.edit.keyed), so
the reader's comments, order, byte-order mark and line endings stay as they were.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace

from catalog.data import readingstate
from catalog.data.readingstate import SECTIONS, Entry
from catalog.edit.document import key_text
from catalog.edit.keyed import KeyedFile
from catalog.errors import CatalogError, Problem
from catalog.hints import hint_for
from catalog.model import DEFAULT_STATUS, STATUSES
from catalog.paths import Paths

# What a new reading file starts with: what it is, and that it is the reader's to share.
HEADER = """\
# Your reading state: what you are reading, what you have read and when, and the order
# of your to-read queue. papers status and papers queue --top write it; data/papers.yaml
# (the curated catalog) never changes when you read a paper. It is yours: commit it to
# keep it with the catalog, or list data/reading.yaml in .gitignore to keep it private.
"""


class ReadingSession:
    """One set of changes to the reading file, made under its lock."""

    def __init__(self, paths: Paths):
        self.paths = paths
        # A file that names papers: what it gains about a paper the catalog does not hold
        # yet is written after the catalog, the rest before (it never names a paper the
        # catalog lacks, and loses nothing the catalog gave up).
        self.file = KeyedFile(
            paths, paths.reading, HEADER, nested=frozenset(SECTIONS), stage="named"
        )
        self.name = self.file.shown
        self.state = readingstate.parse(self.file.text, self.name)  # refuses an unreadable file
        self.written: str | None = None  # the new text once committed (or shown, dry run)
        self._written: set[str] = set()  # the keys this session wrote an entry for

    @property
    def changed(self) -> bool:
        return self.file.changed

    # -- reading

    def entry(self, key: str) -> Entry | None:
        """The paper's entry in the file, if it has one."""
        return self.state.entries.get(key)

    # -- changes

    def set_status(self, key: str, status: str, on: str | None = None) -> Entry:
        """Set a paper's status. read records read_on (today unless on is given; a paper
        already read keeps its date); reading records started_on the same way; to-read
        drops the entry."""
        if status not in STATUSES:
            hint = hint_for(status, STATUSES) or "use " + ", ".join(STATUSES)
            raise CatalogError(f"unknown status '{status}' ({hint})")
        current = self.entry(key)
        today = dt.date.today().isoformat()
        if status == "read":
            kept = current.read_on if current and current.status == "read" else None
            started = current.started_on if current else None
            entry = Entry(key, status, started, on or kept or today)
        elif status == "reading":
            kept = current.started_on if current and current.status == "reading" else None
            entry = Entry(key, status, on or kept or today)
        else:
            entry = Entry(key, DEFAULT_STATUS)
        if status != DEFAULT_STATUS:
            self._unqueue(key)
        if status == DEFAULT_STATUS:
            self._drop(key)
        else:
            self.put(entry)
        return entry

    def put(self, entry: Entry) -> None:
        """Write an entry (one line: 'KEY: {status: read, read_on: 2024-03-01}')."""
        old = self.state.entries.get(entry.key)
        if old is not None and old.to_dict() == entry.to_dict():
            return  # the same state: its line stays as the reader wrote it
        self._refuse_twice(entry.key)
        fields = ", ".join(f"{name}: {value}" for name, value in entry.to_dict().items())
        head = [f"{key_text(entry.key)}: {{{fields}}}\n"]
        self.file.put_lines(entry.key, head, "papers", "end", names=entry.key)
        self._written.add(entry.key)
        self.state.entries[entry.key] = replace(entry, line=0)

    def forget(self, key: str) -> None:
        """Drop every trace of a paper: its entry and its place in the queue."""
        self._drop(key)
        self._unqueue(key)

    def _drop(self, key: str) -> None:
        if key in self.file.names("papers"):  # an entry check refuses (status: red) goes too
            self._refuse_twice(key)
            self.file.remove(key, "papers")
            self.state.entries.pop(key, None)

    def _refuse_twice(self, key: str) -> None:
        # (A paper listed twice in the queue is one place: removing it removes both.)
        """A paper listed twice cannot be edited: which line would be meant?"""
        if self.file.names("papers").count(key) > 1:
            raise CatalogError(
                f"{self.name}: '{key}' is listed twice under papers: (papers check shows "
                "where); keep one entry, then run the command again"
            )

    def top(self, key: str) -> None:
        """Move a paper to the top of the to-read queue."""
        if self.state.queue[:1] == [key]:
            return
        self.file.put_item(key, "queue", "top")
        self._written.add(key)
        self.state.queue = [key, *(k for k in self.state.queue if k != key)]

    def _unqueue(self, key: str) -> None:
        if key in self.state.queue:
            self.file.remove(key, "queue")  # an emptied queue keeps 'queue:' and its comments
            self.state.queue.remove(key)

    # -- saving

    def render(self) -> str:
        """The file's new text."""
        return self.file.render()

    def check(self, text: str, has_paper: Callable[[str], bool] | None = None) -> None:
        """Refuse a new text that does not read back, or whose new entries name a paper
        the catalog will not have."""
        from catalog.edit.validation import InvalidEditError

        state = readingstate.parse(text, self.name)
        if has_paper is None:
            return
        named = [(e.key, e.line) for e in state.entries.values()]
        named += list(state.queue_lines.items())
        gone = [
            Problem(self.name, line, key, "no paper with this key", "")
            for key, line in named
            if key in self._written and not has_paper(key)
        ]
        if gone:
            raise InvalidEditError(gone)

    def diff(self) -> str:
        """A unified diff of the file as read and as committed ('' when unchanged)."""
        import difflib

        if self.written is None:
            return ""
        old = self.file.text.splitlines(keepends=True)
        new = self.written.splitlines(keepends=True)
        return "".join(difflib.unified_diff(old, new, self.name, self.name))
