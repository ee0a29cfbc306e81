"""The inbox (data/inbox.yaml): papers named in lists that cannot be catalog papers yet.

A Markdown list gives a title, venue and year but no authors, and the catalog never
guesses authors. Such an entry is filed here instead of vanishing: with its links and
the file:line it came from, deduplicated against the catalog and against the inbox
itself. A list that gives only a system's name gives no title: that candidate has a
nickname and no title (shown as 'Name (name only)'), never its name as a title.
`papers add --doi/--arxiv/--bibtex` or `papers import --fetch` promote a candidate
(the added paper takes it out of the inbox); `papers inbox drop` discards one. The site
never reads this file.

Written like every file of papers: through a session's `inbox` (catalog.edit.writer),
under the catalog's lock, its comments and line endings kept.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from catalog.check import duplicates
from catalog.errors import CatalogError, Problem
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
    "et_al",
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
    title: str | None  # the list's title; None when the list gives only a name
    venue: str | None = None
    year: int | None = None
    authors: list[str] = field(default_factory=list)  # as the list gives them, maybe a few
    et_al: bool = False  # the list's author list ends 'et al.': knowingly incomplete
    nickname: str | None = None  # a system's short name beside the title ('Gandiva')
    url: str | None = None
    arxiv: str | None = None
    doi: str | None = None
    source: str = ""  # file:line it was read from
    added: str | None = None

    @property
    def name(self) -> str:
        """The title, or the name when the list gives no title (what ids and matching use)."""
        return self.title or self.nickname or ""

    @property
    def label(self) -> str:
        """The candidate as shown: its title, or its name marked as one."""
        return self.title or f"{self.nickname} (name only)"

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "authors": list(self.authors)}

    def to_yaml(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in FIELDS if getattr(self, name)}

    def as_paper(self) -> Paper:
        """A probe for duplicate search: the identifiers and title (or name), nothing else."""
        return Paper(
            key=f"inbox-{self.id}",
            title=self.name,
            authors=[],
            year=self.year or 0,
            venue=self.venue or "",
            doi=self.doi,
            arxiv=self.arxiv,
        )


def candidate_id(title: str, year: int | None) -> str:
    """A short stable id from the title (the name when there is none) and year (same
    entry, same id, in every list)."""
    return digest(f"{normalize_title(title)}|{year or ''}")[:8]


def inbox_path(paths: Paths) -> Path:
    """data/inbox.yaml beside the catalog."""
    return paths.catalog.with_name("inbox.yaml")


def load(paths: Paths) -> list[Candidate]:
    """Every candidate, in file order; no file is an empty inbox."""
    from catalog.data import yamlfile

    path = inbox_path(paths)
    try:
        text = yamlfile.read_text(path, paths.display(path))
    except FileNotFoundError:
        return []
    return parse(text, paths.display(path))[0]


def parse(text: str, name: str) -> tuple[list[Candidate], list[str]]:
    """The candidates in an inbox's text and the ids dropped earlier; InboxError names
    the first entry that cannot be read."""
    from catalog.data import yamlfile

    root = yamlfile.compose(text, name)
    if root is None:
        return [], []
    if not isinstance(root, yamlfile.MappingNode):
        raise InboxError(f"{name}: expected one 'ID: {{title: ..., ...}}' entry per candidate")
    out: list[Candidate] = []
    dropped: list[str] = []
    for id_node, value in root.value:
        ident, line = yamlfile.name_of(id_node), id_node.start_mark.line + 1
        record = yamlfile.construct(value)
        if ident == DROPPED:
            if not isinstance(record, list):
                raise InboxError(f"{name}:{line}: '{DROPPED}' must be a list of ids")
            dropped = [str(d) for d in record]
            continue
        out.append(_candidate(ident, record, f"{name}:{line}"))
    return out, dropped


def _candidate(ident: str, record: object, where: str) -> Candidate:
    """One entry of the inbox as a Candidate; InboxError says what is wrong with it."""
    if not isinstance(record, dict) or not (record.get("title") or record.get("nickname")):
        raise InboxError(
            f"{where}: entry {strip_controls(ident)} has neither a title nor a nickname "
            "(each entry is ID: {title: ..., venue: ..., year: ...}, or {nickname: ...} "
            "when its list gives only a name)"
        )
    year = str(record.get("year") or "")
    if year and not (year.isascii() and year.isdigit() and len(year) == 4):
        raise InboxError(
            f"{where}: entry {strip_controls(ident)} has year '{strip_controls(year)}', not a "
            "year (write it as four digits, e.g. 2023)"
        )
    authors = record.get("authors") or []
    title, nickname = _text(record.get("title")), _text(record.get("nickname"))
    return Candidate(
        id=ident,
        # an inbox written before name-only entries had no title gave them their name as
        # title: it is read as what it is, a name
        title=None if title == nickname else title,
        venue=_text(record.get("venue")),
        year=int(year) if year else None,
        authors=[strip_controls(str(a)) for a in authors if a] if isinstance(authors, list) else [],
        et_al=record.get("et_al") is True,
        nickname=nickname,
        url=_text(record.get("url")),
        arxiv=_text(record.get("arxiv")),
        doi=_text(record.get("doi")),
        source=_text(record.get("source")) or "",
        added=_text(record.get("added")),
    )


def _text(value: Any) -> str | None:
    return strip_controls(str(value)) if value not in (None, "") else None


class Inbox:
    """The inbox as a session edits it (under the catalog's lock): written through the one
    door, new candidates before the catalog, promoted ones leaving after it."""

    def __init__(self, paths: Paths):
        from catalog.edit.keyed import KeyedFile

        self.paths = paths
        self.file = KeyedFile(paths, inbox_path(paths), HEADER, stage="grown")
        self.candidates, self.dropped = parse(self.file.text, self.file.shown)
        self.finder = duplicates.Finder.of(c.as_paper() for c in self.candidates)

    @property
    def changed(self) -> bool:
        return self.file.changed

    def was_dropped(self, candidate: Candidate) -> bool:
        """True if this candidate was discarded with `papers inbox drop` before."""
        return candidate.id in self.dropped

    def file_candidate(self, candidate: Candidate) -> Candidate | None:
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
        self.file.put(candidate.id, candidate.to_yaml(), at=f"before:{DROPPED}")
        return None

    def _same(self, candidate: Candidate) -> Candidate | None:
        """The candidate already filed that is this one, if any."""
        # one title and year is one candidate, however many others share the title (a
        # list's arXiv entry and its NSDI'25 entry): found by its id before the finder,
        # which gives the first of them only
        key = (normalize_title(candidate.name), candidate.year, candidate.nickname)
        by_id = {c.id: c for c in self.candidates}
        ident = candidate.id
        while ident in by_id:  # the ids file_candidate gives on a clash, in its order
            there = by_id[ident]
            if (normalize_title(there.name), there.year, there.nickname) == key:
                return there
            ident = digest(ident)[:8]
        probe = candidate.as_paper()
        match = self.finder.find(probe)
        if match is None or not duplicates.plausible(probe, match):
            return None
        there = next(c for c in self.candidates if f"inbox-{c.id}" == match.paper.key)
        if match.by == "arXiv id":
            return there  # one arXiv id is one paper, whichever title (other_title says so)
        if match.by != "title":  # one DOI: the same paper if titled alike
            if not self.other_title(candidate, there):
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

    def other_title(self, candidate: Candidate, there: Candidate) -> bool:
        """Whether a candidate filed as one already there has a wholly other title (not
        alike, nor retitled between versions: the catalog's rule). A name is no title: a
        candidate without one has no other title."""
        from catalog.ingest.listimport import retitled

        if candidate.title is None or there.title is None:
            return False
        paper = there.as_paper()
        return not (
            duplicates.same_paper_title(candidate.title, paper)
            or retitled(candidate.title, there.title)
        )

    def take(self, papers: Iterable[Paper]) -> list[Candidate]:
        """Remove the candidates these catalog papers are (promoted); they are returned."""
        finder = duplicates.Finder.of(papers)
        taken = [c for c in self.candidates if _promoted(finder, c)]
        for candidate in taken:
            self.candidates.remove(candidate)
            self.file.remove(candidate.id)
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
            self.file.remove(found[0].id)
            dropped.append(found[0])
            self.dropped.append(found[0].id)
        if dropped:
            self.file.put(DROPPED, sorted(set(self.dropped)), at="end")
        return dropped

    def check(self, text: str, has_paper: Callable[[str], bool]) -> None:
        """Refuse a new text the inbox's reader would refuse."""
        from catalog.edit.validation import InvalidEditError

        try:
            parse(text, self.file.shown)
        except InboxError as err:
            raise InvalidEditError([Problem(self.file.shown, 0, "", str(err), "")]) from None


def _promoted(finder: duplicates.Finder, candidate: Candidate) -> bool:
    match = finder.find(candidate.as_paper())
    return match is not None and duplicates.plausible(candidate.as_paper(), match)


def search(candidates: list[Candidate], words: Iterable[str]) -> list[Candidate]:
    """Candidates whose title, name, venue, year or source holds every word (case and
    accents ignored)."""
    wanted = [fold(w) for w in words if w.strip()]
    out = []
    for c in candidates:
        fields = (c.title, c.nickname, c.venue, c.year, c.source, c.id)
        text = fold(" ".join(str(v) for v in fields if v))
        if all(w in text for w in wanted):
            out.append(c)
    return out
