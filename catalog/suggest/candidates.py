"""Candidates to rank, read without importing: the inbox, a .bib file, a Markdown list,
a saved arXiv API feed (Atom) or a saved arXiv listing page, each by its own reader."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from catalog.errors import CatalogError
from catalog.model import Paper, fold
from catalog.paths import Paths
from catalog.suggest.features import Item


class CandidatesError(CatalogError):
    """A file of candidates that papers cannot read."""


@dataclass
class Candidate:
    """One paper a source names, as the source gives it."""

    title: str
    where: str  # file:line, or the inbox's file:line
    line: int = 0  # the entry's line in its file (what --take imports)
    ident: str = ""  # the inbox id of an inbox candidate
    authors: list[str] = field(default_factory=list)
    abstract: str = ""
    year: int | None = None
    doi: str | None = None
    arxiv: str | None = None
    name_only: bool = False  # an inbox candidate whose list gives a name (title), no title

    @property
    def label(self) -> str:
        """The candidate as shown: its title, or its name marked as one."""
        return f"{self.title} (name only)" if self.name_only else self.title

    @property
    def item(self) -> Item:
        """The candidate as the model reads it."""
        return Item(self.title, self.abstract, (), tuple(fold(a) for a in self.authors), self.year)

    def as_paper(self) -> Paper:
        """A probe for the catalog's duplicate finder."""
        return Paper(
            key="probe",
            title=self.title,
            authors=[],
            year=self.year or 0,
            venue="",
            doi=self.doi,
            arxiv=self.arxiv,
        )


def from_inbox(paths: Paths) -> list[Candidate]:
    """Every candidate waiting in the inbox."""
    from catalog.ingest import inbox

    return [
        Candidate(
            c.name,  # a name-only candidate is ranked on its name, all its list gives
            c.source,
            ident=c.id,
            authors=list(c.authors),
            year=c.year,
            doi=c.doi,
            arxiv=c.arxiv,
            name_only=c.title is None,
        )
        for c in inbox.load(paths)
    ]


def from_file(paths: Paths, path: Path, name: str | None = None) -> list[Candidate]:
    """The candidates of a .bib file, a Markdown list, or a saved arXiv feed or listing."""
    from catalog.data.textfile import read_text

    name = name or str(path)
    text = read_text(path, name)
    suffix = path.suffix.lower()
    head = text.lstrip()[:400].lower()
    if suffix == ".bib":
        return _bib(paths, text, name)
    if suffix in (".md", ".markdown", ".txt"):
        return _markdown(paths, text, name)
    if suffix in (".xml", ".atom") or head.startswith("<?xml") or "<feed" in head:
        return _atom(text, name)
    if suffix in (".html", ".htm") or "<html" in head or "<!doctype html" in head:
        return _listing(text, name)
    raise CandidatesError(
        f"{name}: suggest reads .bib files, Markdown lists (.md, .txt), arXiv API feeds "
        "(.xml, .atom) and arXiv listing pages saved as .html"
    )


def _bib(paths: Paths, text: str, name: str) -> list[Candidate]:
    from catalog.bib.bibtex import read_bib
    from catalog.data.registry import load_venues

    out = []
    for record in read_bib(text, name, load_venues(paths.venues)):
        paper = record.paper
        title = paper.title if paper else record.fields.get("title", "")
        if not title:
            continue
        out.append(
            Candidate(
                title,
                f"{name}:{record.line}",
                line=record.line,
                authors=list(paper.authors) if paper else [],
                abstract=record.fields.get("abstract", ""),
                year=paper.year if paper else None,
                doi=paper.doi if paper else None,
                arxiv=paper.arxiv if paper else None,
            )
        )
    return out


def _markdown(paths: Paths, text: str, name: str) -> list[Candidate]:
    from catalog.data.registry import load_venues
    from catalog.ingest import lists

    parsed = lists.parse(text, load_venues(paths.venues))
    return [
        Candidate(
            entry.title,
            f"{name}:{entry.line}",
            line=entry.line,
            authors=list(entry.authors),
            year=entry.year,
            doi=entry.doi,
            arxiv=entry.arxiv,
        )
        for entry in parsed.entries
    ]


def _atom(text: str, name: str) -> list[Candidate]:
    from catalog.ingest.services import arxiv_records
    from catalog.ingest.webclient import FetchError

    try:
        records = arxiv_records(text)
    except FetchError as err:
        raise CandidatesError(f"{name}: {err}") from None
    return [
        Candidate(
            r.title,
            f"{name}: entry {number}",
            authors=list(r.authors),
            abstract=r.abstract or "",
            year=r.year,
            doi=r.doi,
            arxiv=r.arxiv,
        )
        for number, r in enumerate(records, 1)
        if r.title
    ]


_ABS_RE = re.compile(r"/abs/([0-9]{4}\.[0-9]{4,5}|[a-z-]+(?:\.[A-Z]{2})?/[0-9]{7})")


class _Listing(HTMLParser):
    """An arXiv listing page's entries: each abstract link, then its title and authors."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: list[dict[str, object]] = []
        self.part: str | None = None  # 'title' or 'authors' while inside one
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        m = _ABS_RE.search(attributes.get("href") or "") if tag == "a" else None
        if m and (not self.entries or self.entries[-1]["arxiv"] != m.group(1)):
            self.entries.append(
                {"arxiv": m.group(1), "title": "", "authors": [], "line": self.getpos()[0]}
            )
        if self.part is not None:
            self.depth += 1
        elif tag == "div" and self.entries and {"list-title", "list-authors"} & set(classes):
            self.part, self.depth = ("title" if "list-title" in classes else "authors"), 1

    def handle_endtag(self, tag: str) -> None:
        if self.part is not None:
            self.depth -= 1
            if self.depth == 0:
                self.part = None

    def handle_data(self, data: str) -> None:
        if self.part is None:
            return
        entry = self.entries[-1]
        if self.part == "title":
            entry["title"] = f"{entry['title']} {data}"
        elif data.strip(" ,\n") and not data.strip().endswith(":"):
            authors = entry["authors"]
            assert isinstance(authors, list)
            authors.append(" ".join(data.split()).strip(" ,"))


def _listing(text: str, name: str) -> list[Candidate]:
    parser = _Listing()
    parser.feed(text)
    parser.close()
    out = []
    for entry in parser.entries:
        title = " ".join(str(entry["title"]).split()).removeprefix("Title:").strip()
        if title:
            line = int(str(entry["line"]))
            authors = entry["authors"]
            out.append(
                Candidate(
                    title,
                    f"{name}:{line}",
                    line=line,
                    authors=[str(a) for a in authors] if isinstance(authors, list) else [],
                    arxiv=str(entry["arxiv"]),
                )
            )
    if not out:
        raise CandidatesError(f"{name}: no arXiv listing entries found in this page")
    return out
