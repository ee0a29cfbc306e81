"""The inbox (data/inbox.yaml): papers named in lists that cannot be catalog papers yet.

A Markdown list gives a title, venue and year but no authors, and the catalog never
guesses authors. Such an entry is filed here instead of vanishing: with its links and
the file:line it came from, deduplicated against the catalog and against the inbox
itself. `papers add --doi/--arxiv/--bibtex` or `papers import --fetch` promote a
candidate (the added paper takes it out of the inbox); `papers inbox drop` discards one.
The site never reads this file.

Written like the catalog: atomically, under the catalog's lock.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from catalog.check import duplicates
from catalog.errors import CatalogError
from catalog.model import Paper, digest, fold, normalize_title, strip_controls
from catalog.paths import Paths

HEADER = (
    "# The inbox: papers named in imported lists that cannot be catalog papers yet (the\n"
    "# list gives no authors, and authors are never guessed). `papers inbox` lists them;\n"
    "# `papers add --doi/--arxiv/--bibtex` or `papers import --fetch` promotes one (it leaves\n"
    "# the inbox); `papers inbox drop ID` discards one (its id is kept under 'dropped' so\n"
    "# it is not filed again). The site does not show this file.\n"
)
FIELDS = (
    "title",
    "nickname",
    "venue",
    "year",
    "authors",
    "url",
    "arxiv",
    "doi",
    "source",
    "added",
)
# The ids of candidates discarded by `papers inbox drop`: importing the list again does not
# file them again.
DROPPED = "dropped"


class InboxError(CatalogError):
    """The inbox file cannot be read, or a candidate named is not in it."""


@dataclass
class Candidate:
    """A paper a list names, as the list gives it."""

    id: str
    title: str  # the list's title; its nickname when the list gives none
    venue: str | None = None
    year: int | None = None
    authors: list[str] = field(default_factory=list)  # as the list gives them, maybe a few
    nickname: str | None = None  # a system's short name beside the title ('Gandiva')
    url: str | None = None
    arxiv: str | None = None
    doi: str | None = None
    source: str = ""  # file:line it was read from
    added: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "authors": list(self.authors)}

    def to_yaml(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in FIELDS if getattr(self, name)}

    def as_paper(self) -> Paper:
        """A probe for duplicate search: the identifiers and title, nothing else."""
        return Paper(
            key=f"inbox-{self.id}",
            title=self.title,
            authors=[],
            year=self.year or 0,
            venue=self.venue or "",
            doi=self.doi,
            arxiv=self.arxiv,
        )


def candidate_id(title: str, year: int | None) -> str:
    """A short stable id from the title and year (same entry, same id, in every list)."""
    return digest(f"{normalize_title(title)}|{year or ''}")[:8]


def inbox_path(paths: Paths) -> Path:
    """data/inbox.yaml beside the catalog."""
    return paths.catalog.with_name("inbox.yaml")


def load(paths: Paths) -> list[Candidate]:
    """Every candidate, in file order; no file is an empty inbox."""
    return _read(paths)[0]


def _read(paths: Paths) -> tuple[list[Candidate], list[str]]:
    """The candidates and the ids dropped earlier."""
    from catalog.data import yamlfile

    path = inbox_path(paths)
    if not path.exists():
        return [], []
    data, _lines = yamlfile.load_mapping_with_lines(path)
    dropped = data.pop(DROPPED, None) or []
    if not isinstance(dropped, list):
        raise InboxError(f"{paths.display(path)}: '{DROPPED}' must be a list of ids")
    out = []
    for ident, record in data.items():
        if not isinstance(record, dict) or not record.get("title"):
            raise InboxError(
                f"{paths.display(path)}: entry {ident!s} has no title "
                "(each entry is ID: {title: ..., venue: ..., year: ...})"
            )
        year = str(record.get("year") or "")
        if year and not (year.isascii() and year.isdigit() and len(year) == 4):
            raise InboxError(
                f"{paths.display(path)}:{_lines.get(str(ident), 0)}: entry {ident!s} has year "
                f"'{strip_controls(year)}', not a year (write it as four digits, e.g. 2023)"
            )
        out.append(
            Candidate(
                id=str(ident),
                title=strip_controls(str(record["title"])),
                venue=_text(record.get("venue")),
                year=int(year) if year else None,
                authors=[strip_controls(str(a)) for a in record.get("authors") or [] if a],
                nickname=_text(record.get("nickname")),
                url=_text(record.get("url")),
                arxiv=_text(record.get("arxiv")),
                doi=_text(record.get("doi")),
                source=_text(record.get("source")) or "",
                added=_text(record.get("added")),
            )
        )
    return out, [str(d) for d in dropped]


def _text(value: Any) -> str | None:
    return strip_controls(str(value)) if value not in (None, "") else None


def render(candidates: Iterable[Candidate], dropped: Iterable[str] = (), text: str = "") -> str:
    """The inbox file's text: text (the file as it is) with the entries that went removed
    and the new ones added, every other line (comments too) as it was."""
    from catalog.edit.document import Block, Document, lines_of, parse_registry

    doc = parse_registry(text, "inbox.yaml") if text.strip() else Document([HEADER], [], [])
    wanted = {c.id: c for c in candidates}
    doc.blocks = [b for b in doc.blocks if b.key in wanted or b.key == DROPPED]
    have = {b.key for b in doc.blocks}
    at = next((i for i, b in enumerate(doc.blocks) if b.key == DROPPED), len(doc.blocks))
    gap = ["\n"] if doc.blocks or doc.header else []
    for candidate in wanted.values():
        if candidate.id not in have:
            head = lines_of(_dump({candidate.id: candidate.to_yaml()}))
            doc.blocks.insert(at, Block(candidate.id, list(gap), head, 0))
            at += 1
    doc.blocks = [b for b in doc.blocks if b.key != DROPPED]
    if dropped:
        doc.blocks.append(
            Block(DROPPED, list(gap), lines_of(_dump({DROPPED: sorted(set(dropped))})), 0)
        )
    return doc.render()


def _dump(data: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def _save(paths: Paths, candidates: list[Candidate], dropped: list[str]) -> None:
    from catalog.data import yamlfile
    from catalog.edit.writer import atomic_write

    path = inbox_path(paths)
    try:
        data = yamlfile.read_bytes(path, paths.display(path))
    except FileNotFoundError:
        data = b""
    text = yamlfile.decode(data, paths.display(path))
    atomic_write(path, render(candidates, dropped, text), yamlfile.newline_of(data), data)


class Inbox:
    """The inbox loaded for one change; save() writes it (the caller holds the lock)."""

    def __init__(self, paths: Paths):
        self.paths = paths
        self.candidates, self.dropped = _read(paths)
        self.finder = duplicates.Finder.of(c.as_paper() for c in self.candidates)
        self.changed = False

    def was_dropped(self, candidate: Candidate) -> bool:
        """True if this candidate was discarded with `papers inbox drop` before."""
        return candidate.id in self.dropped

    def file(self, candidate: Candidate) -> Candidate | None:
        """Add a candidate; the one already there if it is the same paper (kept as is).
        Never on a title alone: two rows titled alike but linking different papers, or
        naming different years, are two candidates."""
        there = self._same(candidate)
        if there is not None:
            return there
        candidate.added = candidate.added or dt.date.today().isoformat()
        while any(c.id == candidate.id for c in self.candidates):  # a rare digest clash
            candidate.id = digest(candidate.id)[:8]
        self.candidates.append(candidate)
        self.finder.add(candidate.as_paper())
        self.changed = True
        return None

    def _same(self, candidate: Candidate) -> Candidate | None:
        """The candidate already filed that is this one, if any."""
        probe = candidate.as_paper()
        match = self.finder.find(probe)
        if match is None or not duplicates.plausible(probe, match):
            return None
        there = next(c for c in self.candidates if f"inbox-{c.id}" == match.paper.key)
        if match.by != "title":  # one DOI or arXiv id: the same paper if titled alike
            if duplicates.same_paper_title(candidate.title, match.paper):
                return there
            # else a list linking one id under two titles: this title may be filed already
            match = self.finder.find(replace(probe, doi=None, arxiv=None))
            if match is None or match.by != "title":
                return None
            there = next(c for c in self.candidates if f"inbox-{c.id}" == match.paper.key)
        if match.score < 100.0 or candidate.nickname != there.nickname:
            return None
        links = {candidate.url, there.url} - {None}
        return there if len(links) <= 1 or candidate.year == there.year else None

    def take(self, papers: Iterable[Paper]) -> list[Candidate]:
        """Remove the candidates these catalog papers are (promoted); they are returned."""
        finder = duplicates.Finder.of(papers)
        taken = [c for c in self.candidates if _promoted(finder, c)]
        if taken:
            self.candidates = [c for c in self.candidates if c not in taken]
            self.changed = True
        return taken

    def drop(self, ids: Iterable[str]) -> list[Candidate]:
        """Remove candidates by id (a unique prefix will do); an unknown id is an error."""
        dropped = []
        for ident in ids:
            found = [c for c in self.candidates if c.id.startswith(ident)]
            if len(found) != 1:
                what = "no candidate" if not found else f"{len(found)} candidates"
                raise InboxError(
                    f"{what} with id '{ident}' in "
                    f"{self.paths.display(inbox_path(self.paths))} "
                    "(papers inbox lists them)"
                )
            self.candidates.remove(found[0])
            dropped.append(found[0])
            self.dropped.append(found[0].id)
        self.changed = self.changed or bool(dropped)
        return dropped

    def save(self) -> None:
        if self.changed:
            _save(self.paths, self.candidates, self.dropped)


def _promoted(finder: duplicates.Finder, candidate: Candidate) -> bool:
    match = finder.find(candidate.as_paper())
    return match is not None and duplicates.plausible(candidate.as_paper(), match)


def search(candidates: list[Candidate], words: Iterable[str]) -> list[Candidate]:
    """Candidates whose title, venue, year or source holds every word (case and accents
    ignored)."""
    wanted = [fold(w) for w in words if w.strip()]
    out = []
    for c in candidates:
        text = fold(" ".join(str(v) for v in (c.title, c.venue, c.year, c.source, c.id) if v))
        if all(w in text for w in wanted):
            out.append(c)
    return out


def promote_done(paths: Paths, papers: list[Paper]) -> list[Candidate]:
    """Take the candidates these just-added papers are out of the inbox (under the lock)."""
    from catalog.edit.writer import locked

    if not papers or not inbox_path(paths).exists():
        return []
    with locked(paths):
        inbox = Inbox(paths)
        taken = inbox.take(papers)
        inbox.save()
    return taken
