"""Edits of the reader's file (data/reading.yaml): status, dates and the queue's order.

catalog.edit.writer.edit_reading() opens a ReadingSession under the file's lock and
commits it atomically; ruamel's round trip keeps the reader's comments and order. The
file is small (one line per paper the reader has touched), so it is read whole.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalog import files
from catalog.data import readingstate, yamlfile
from catalog.data.readingstate import Entry
from catalog.errors import CatalogError
from catalog.hints import hint_for
from catalog.model import DEFAULT_STATUS, STATUSES
from catalog.paths import Paths

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap

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
        self.name = paths.display(paths.reading)
        try:
            self.data: bytes = yamlfile.read_bytes(paths.reading, self.name)
        except FileNotFoundError:
            self.data = b""
        self.text = yamlfile.decode(self.data, self.name) if self.data else HEADER
        self.newline = yamlfile.newline_of(self.data) if self.data else "\n"
        self.state = readingstate.parse(self.text, self.name)  # refuses an unreadable file
        self._doc: CommentedMap | None = None
        self.changed = False
        self.written: str | None = None  # the new text once committed (or shown, dry run)

    @property
    def doc(self) -> CommentedMap:
        """The file as ruamel reads it (on first change)."""
        if self._doc is None:
            from ruamel.yaml.comments import CommentedMap

            from catalog.edit.document import yaml_rt

            loaded = yaml_rt().load(self.text)
            if loaded is None:  # a new file, or comments alone: keep them above the data
                loaded = yaml_rt().load(self.text.rstrip("\n") + "\npapers:\n")
            self._doc = loaded if isinstance(loaded, CommentedMap) else CommentedMap()
        return self._doc

    def _section(self, name: str) -> Any:
        """The papers: mapping or the queue: list, made (in block style) when missing."""
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        kind = CommentedSeq if name == "queue" else CommentedMap
        value = self.doc.get(name)
        if not isinstance(value, kind):  # missing or null ('papers:' alone)
            value = kind()
            self.doc[name] = value
        elif value.fa.flow_style():  # 'papers: {}' grows one entry a line
            value.fa.set_block_style()
        return value

    # -- reading

    def entry(self, key: str) -> Entry | None:
        """The paper's entry in the file, if it has one."""
        return self.state.entries.get(key)

    # -- changes

    def set_status(
        self, key: str, status: str, on: str | None = None, legacy: Entry | None = None
    ) -> Entry:
        """Set a paper's status. read records read_on (today unless on is given; a paper
        already read keeps its date); reading records started_on the same way; to-read
        drops the entry. legacy: the status the catalog itself still holds for the paper
        (an entry then says to-read, so that it wins over the catalog's)."""
        if status not in STATUSES:
            hint = hint_for(status, STATUSES) or "use " + ", ".join(STATUSES)
            raise CatalogError(f"unknown status '{status}' ({hint})")
        current = self.entry(key) or legacy
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
        if status == DEFAULT_STATUS and (legacy is None or legacy.status == DEFAULT_STATUS):
            self._drop(key)
        else:
            self.put(entry)
        return entry

    def put(self, entry: Entry) -> None:
        """Write an entry (one line: 'KEY: {status: read, read_on: 2024-03-01}')."""
        from ruamel.yaml.comments import CommentedMap

        old = self.state.entries.get(entry.key)
        if old is not None and old.to_dict() == entry.to_dict():
            return  # the same state: its line stays as the reader wrote it
        value = CommentedMap(
            (name, dt.date.fromisoformat(v) if name.endswith("_on") else v)
            for name, v in entry.to_dict().items()
        )
        value.fa.set_flow_style()
        self._section("papers")[entry.key] = value
        self.state.entries[entry.key] = entry
        self.changed = True

    def forget(self, key: str) -> None:
        """Drop a paper's entry and its place in the queue (it leaves the catalog)."""
        self._drop(key)
        self._unqueue(key)

    def _drop(self, key: str) -> None:
        papers = self.doc.get("papers")  # an entry check refuses (status: red) goes too
        if isinstance(papers, dict) and key in papers:
            del papers[key]
            self.state.entries.pop(key, None)
            self.changed = True

    def top(self, key: str) -> None:
        """Move a paper to the top of the to-read queue."""
        if self.state.queue[:1] == [key]:
            return
        queue = self._section("queue")
        if key in queue:
            queue.remove(key)
        queue.insert(0, key)
        self.state.queue = [key, *(k for k in self.state.queue if k != key)]
        self.changed = True

    def _unqueue(self, key: str) -> None:
        if key in self.state.queue:
            queue = self._section("queue")
            while key in queue:
                queue.remove(key)
            if not queue:  # no 'queue: []' left behind
                del self.doc["queue"]
            self.state.queue.remove(key)
            self.changed = True

    # -- saving

    def render(self) -> str:
        """The file's new text."""
        from catalog.edit.document import yaml_rt

        buffer = io.StringIO()
        yaml_rt().dump(self.doc, buffer)
        return buffer.getvalue()

    def commit(self, dry_run: bool = False) -> str | None:
        """Write the file atomically if it changed (checked as the reader reads it); the
        new text, or None when nothing changed."""
        if not self.changed:
            return None
        text = self.written = self.render()
        readingstate.parse(text, self.name)  # what was written must read back
        if not dry_run:
            path: Path = self.paths.reading
            path.parent.mkdir(parents=True, exist_ok=True)
            files.atomic_write(path, text, self.newline, expected=self.data)
        return text

    def diff(self) -> str:
        """A unified diff of the file as read and as committed ('' when unchanged)."""
        import difflib

        if self.written is None:
            return ""
        old = self.text.splitlines(keepends=True) if self.data else []
        new = self.written.splitlines(keepends=True)
        return "".join(difflib.unified_diff(old, new, self.name, self.name))
