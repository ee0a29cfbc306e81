"""The catalog as a write session found it: its papers, read only as far as an edit needs.

Kept for speed: parsing the whole file makes a one-paper edit of a 10,000-paper catalog
miss its 1 s target (tools/bench.py). When the index holds the file's bytes, papers come
from it: an edit reads the papers it changes (and where their lines are), and, when it
changes what the duplicate checks read, a brief of every paper (key, year, line, title,
identifiers). Without a matching index the whole file is parsed once, as `papers check`
reads it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, MutableMapping
from dataclasses import dataclass

from catalog.data import reader, yamlfile
from catalog.errors import InvalidCatalogError
from catalog.files import OpenFile
from catalog.index.freshness import Layout
from catalog.model import Paper
from catalog.paths import Paths

# SQLite's limit on ? parameters in one statement is at least 999.
_BATCH = 500


@dataclass(frozen=True)
class Brief:
    """What duplicate checks and line numbers need of a paper."""

    key: str
    year: int
    line: int
    title: str
    doi: str | None
    arxiv: str | None


class Snapshot:
    """The papers of the catalog file a session holds open (never changed by the
    session), and how its bytes are cut into top-level blocks (layout)."""

    def __init__(self, paths: Paths, file: OpenFile, filename: str, indexed: bool = True):
        """indexed: False to read the text without asking the index (a scratch catalog)."""
        from catalog.index import database

        self._paths = paths
        self._all: dict[str, Paper] | None = None
        self._places: dict[str, tuple[int, int]] = {}
        self._briefs: list[Brief] | None = None
        self._cache: dict[str, Paper] = {}
        self._keyset: set[str] | None = None
        self._shifts: dict[str, int] | None = None
        held = database.holding(paths, file.stat, file.read) if indexed else None
        self.indexed = held is not None
        if held is None:
            data = file.read()
            papers, problems, spans = reader.parse_spans(yamlfile.decode(data, filename), filename)
            problems += reader.duplicate_keys(papers, filename)
            blocking = [p for p in problems if p.blocking]
            if blocking:
                raise InvalidCatalogError(blocking)
            self._all = {p.key: p for p in papers}
            self._places = {p.key: (p.line, span) for p, span in zip(papers, spans, strict=True)}
            held = database.layout(data)
        self.layout: Layout = held
        self.digest = held.digest  # of the bytes read

    def _connect(self) -> _Connection:
        return _Connection(self._paths)

    def shifts(self) -> dict[str, int]:
        if self._shifts is None:
            from catalog.index.database import line_shifts

            with self._connect() as conn:
                self._shifts = line_shifts(conn)
        return self._shifts

    # -- reading

    def get(self, key: str) -> Paper | None:
        """The paper with this key, or None."""
        if self._all is not None:
            return self._all.get(key)
        if key not in self._cache:
            found = self._fetch("key in ({})", [key])
            if not found:
                return None
        return self._cache[key]

    def has(self, key: str) -> bool:
        if self._all is not None:
            return key in self._all
        if self._briefs is not None:
            if self._keyset is None:
                self._keyset = {b.key for b in self._briefs}
            return key in self._keyset
        return self.get(key) is not None

    def place(self, key: str) -> tuple[int, int]:
        """Where a paper's text is in the file: its first line and how many lines it runs
        past it."""
        if key not in self._places:
            with self._connect() as conn:
                row = conn.execute(
                    "select line, span, chunk from papers where key = ?", (key,)
                ).fetchone()
            if row is None:
                raise KeyError(key)
            self._places[key] = (row[0] + self.shifts().get(row[2], 0), row[1])
        return self._places[key]

    def keys_in(self, years: set[str]) -> set[str]:
        """The keys of the papers in these year blocks."""
        if self._all is not None:
            return {p.key for p in self._all.values() if str(p.year) in years}
        marks = ",".join("?" * len(years))
        with self._connect() as conn:
            rows = conn.execute(f"select key from papers where chunk in ({marks})", list(years))
            return {r[0] for r in rows}

    def years(self) -> dict[str, str]:
        """Every key and the year (block label) of its paper."""
        if self._all is not None or self._briefs is not None:
            return {b.key: str(b.year) for b in self.briefs()}
        with self._connect() as conn:
            return dict(conn.execute("select key, chunk from papers").fetchall())

    def briefs(self) -> list[Brief]:
        """Every paper in brief, in file order."""
        if self._briefs is None:
            if self._all is not None:
                self._briefs = [
                    Brief(p.key, p.year, p.line, p.title, p.doi, p.arxiv)
                    for p in self._all.values()
                ]
            else:
                shifts = self.shifts()
                with self._connect() as conn:
                    rows = conn.execute(
                        "select key, year, line, title, doi, arxiv, chunk from papers"
                    ).fetchall()
                self._briefs = sorted(
                    (
                        Brief(k, y, line + shifts.get(c, 0), t, d, a)
                        for k, y, line, t, d, a, c in rows
                    ),
                    key=lambda b: b.line,
                )
        return self._briefs

    def ordered_keys(self) -> list[str]:
        """Every key, in file order."""
        return [b.key for b in self.briefs()]

    def tagged(self, tag: str) -> list[str]:
        """The keys of the papers carrying this tag, in file order (the papers are read in
        full on the way: who asks for them edits them)."""
        if self._all is not None:
            return [p.key for p in self._all.values() if tag in p.tags]
        found = self._fetch("key in (select paper from tags where tag = ?)", [tag], marks=False)
        return [p.key for p in sorted(found, key=lambda p: p.line)]

    def full(self, keys: Iterable[str]) -> list[Paper]:
        """These papers in full, in the order given (keys not in the catalog skipped)."""
        wanted = list(keys)
        if self._all is None:
            missing = [k for k in wanted if k not in self._cache]
            for start in range(0, len(missing), _BATCH):
                batch = missing[start : start + _BATCH]
                self._fetch("key in ({})", batch)
            source_of = self._cache
        else:
            source_of = self._all
        return [source_of[k] for k in wanted if k in source_of]

    def all(self) -> list[Paper]:
        """Every paper, in file order (a whole-catalog edit, such as an import, needs them)."""
        if self._all is None:
            self._all = {p.key: p for p in self.full(self.ordered_keys())}
        return list(self._all.values())

    def _fetch(self, where: str, values: list[str], marks: bool = True) -> list[Paper]:
        """The papers a condition selects (its '{}' filled with one '?' per value)."""
        from catalog.index.query import papers_where

        shifts = self.shifts()
        if marks:
            where = where.format(",".join("?" * len(values)))
        with self._connect() as conn:
            found = papers_where(conn, where, values, shifts)
        self._cache.update((p.key, p) for p in found)
        return found


class _Connection:
    """A short read connection to the index (opened per query: the session's own write
    of the index must not meet a connection it left open)."""

    def __init__(self, paths: Paths):
        from catalog.index.database import read_connection

        self.conn = read_connection(paths)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


class Papers(MutableMapping[str, Paper]):
    """The session's current papers: the snapshot's, with the session's edits over them."""

    def __init__(self, snapshot: Snapshot):
        self.snapshot = snapshot
        self.changed: dict[str, Paper] = {}
        self.gone: set[str] = set()

    def __getitem__(self, key: str) -> Paper:
        if key in self.changed:
            return self.changed[key]
        paper = None if key in self.gone else self.snapshot.get(key)
        if paper is None:
            raise KeyError(key)
        return paper

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        return key in self.changed or (key not in self.gone and self.snapshot.has(key))

    def __setitem__(self, key: str, paper: Paper) -> None:
        self.changed[key] = paper
        self.gone.discard(key)

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self.changed.pop(key, None)
        self.gone.add(key)

    def __iter__(self) -> Iterator[str]:
        for key in self.snapshot.ordered_keys():
            if key not in self.gone:
                yield key
        for key in self.changed:
            if not self.snapshot.has(key):
                yield key

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def values(self) -> list[Paper]:  # type: ignore[override]
        """Every current paper (reads the whole snapshot once)."""
        self.snapshot.all()
        return [self[k] for k in self]

    def items(self) -> list[tuple[str, Paper]]:  # type: ignore[override]
        self.snapshot.all()
        return [(k, self[k]) for k in self]
