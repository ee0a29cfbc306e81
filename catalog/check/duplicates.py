"""Recognising a paper already in the catalog: by DOI, by arXiv id, by a near-equal title.

A preprint and its published version are one paper: they share an arXiv id or a
title, and merging fills what the catalog lacks without overwriting anything.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from catalog.data.registry import Venue

# Same scorer and threshold as `papers check` uses for near-duplicate titles, so the
# importer and the checker agree on what counts as one paper.
from catalog.model import CHAPTER_FIELDS, Paper, fold, last_name, normalize_title

# Titles at least this similar (rapidfuzz token_sort_ratio, 0-100) are one paper's.
NEAR_DUPLICATE = 92.0
ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)\Z", re.IGNORECASE)
_VERSION_RE = re.compile(r"v\d+$")
# Fields merge may fill when the catalog lacks them; never key, title, authors.
MERGEABLE: tuple[str, ...] = (
    "doi",
    "arxiv",
    "url",
    "pages",
    "volume",
    "number",
    "tags",
    "summary",
    "abstract",
)


def norm_doi(doi: str | None) -> str | None:
    """A DOI compared case-insensitively, without a resolver prefix; arXiv DOIs are None."""
    if not doi:
        return None
    doi = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", doi.strip(), flags=re.IGNORECASE)
    return None if ARXIV_DOI_RE.match(doi) else doi.lower()


def norm_arxiv(arxiv: str | None, doi: str | None = None) -> str | None:
    """An arXiv id without 'arXiv:' or version ('2103.13262v2' -> '2103.13262'); also
    read from an arXiv DOI."""
    if not arxiv and doi:
        m = ARXIV_DOI_RE.match(doi.strip())
        arxiv = m.group(1) if m else None
    if not arxiv:
        return None
    arxiv = re.sub(r"^arxiv:", "", arxiv.strip(), flags=re.IGNORECASE)
    return _VERSION_RE.sub("", arxiv).lower()


@dataclass(frozen=True)
class Match:
    """An existing paper that a new one duplicates, and how it was recognised."""

    paper: Paper
    by: str  # "DOI", "arXiv id" or "title"
    score: float = 100.0
    sure: bool = True  # False: only a title alike; reported as a possible duplicate

    def describe(self) -> str:
        how = self.by if self.by != "title" else f"title, {self.score:.0f}% alike"
        return f"{self.paper.key} (same {how})"


@dataclass
class Finder:
    """Looks up papers by DOI, arXiv id and normalised title; new papers can be added."""

    by_doi: dict[str, Paper] = field(default_factory=dict)
    by_arxiv: dict[str, Paper] = field(default_factory=dict)
    by_title: dict[str, list[Paper]] = field(default_factory=lambda: defaultdict(list))
    buckets: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, papers: Iterable[Paper]) -> Finder:
        """A finder over these papers."""
        finder = cls()
        for paper in papers:
            finder.add(paper)
        return finder

    def add(self, paper: Paper) -> None:
        """Make a paper findable (e.g. one just imported, so a file's own repeats are caught)."""
        doi, arxiv = norm_doi(paper.doi), norm_arxiv(paper.arxiv, paper.doi)
        if doi:
            self.by_doi.setdefault(doi, paper)
        if arxiv:
            self.by_arxiv.setdefault(arxiv, paper)
        title = normalize_title(paper.title)
        if title:
            if title not in self.by_title:
                for word in bucket_words(title):
                    self.buckets[word].append(title)
            if paper not in self.by_title[title]:
                self.by_title[title].append(paper)

    def find(self, paper: Paper) -> Match | None:
        """The existing paper this one duplicates, if any."""
        doi, arxiv = norm_doi(paper.doi), norm_arxiv(paper.arxiv, paper.doi)
        if doi and doi in self.by_doi:
            return Match(self.by_doi[doi], "DOI")
        if arxiv and arxiv in self.by_arxiv:
            return Match(self.by_arxiv[arxiv], "arXiv id")
        title = normalize_title(paper.title)
        if not title:
            return None
        # Every paper of an alike title, the exact ones first: a book and an article of one
        # title are two papers, and a repeat of either must find its own.
        unsure: Match | None = None
        for score, existing in self._alike(title):
            if _conflict(paper, existing) or marked_distinct(paper, existing):
                continue
            if plausible_pair(paper, existing, score):
                return Match(existing, "title", score, True)
            unsure = unsure or Match(existing, "title", score, False)
        return unsure

    def _alike(self, title: str) -> list[tuple[float, Paper]]:
        """(score, paper) of the papers whose titles are this one or near it, best first."""
        from rapidfuzz import fuzz

        found: list[tuple[float, str]] = [(100.0, title)] if title in self.by_title else []
        seen: set[str] = {title}
        for word in bucket_words(title):
            for other in self.buckets.get(word, ()):
                if other in seen:
                    continue
                seen.add(other)
                score = fuzz.token_sort_ratio(title, other)
                if score >= NEAR_DUPLICATE:
                    found.append((score, other))
        found.sort(key=lambda hit: -hit[0])
        return [(score, p) for score, other in found for p in self.by_title[other]]


def same_paper_title(title: str, paper: Paper) -> bool:
    """True if a title names this paper: the same words, near-equal ones, or its system
    name alone ('EVStore' for 'EVStore: Storage and Caching ...')."""
    from rapidfuzz import fuzz

    mine, theirs = normalize_title(title), normalize_title(paper.title)
    if not mine:
        return False
    if mine in (theirs, normalize_title(paper.short_title)):
        return True
    return fuzz.token_sort_ratio(mine, theirs) >= NEAR_DUPLICATE


def plausible(paper: Paper, match: Match) -> bool:
    """True if a match is sure enough to skip or merge the paper (not just a title alike)."""
    return match.by != "title" or plausible_pair(paper, match.paper, match.score)


def plausible_pair(a: Paper, b: Paper, score: float) -> bool:
    """Whether two papers with alike titles are one paper (issue 9: never on a title alone).

    Years more than one apart are two papers (Bellman's 1957 book and 1966 article share a
    title) unless one is a preprint of the other by the same first author. An equal title
    with no such conflict is one paper; a merely alike one also needs the first author to
    agree, or the year (within one) while the authors do not rule it out: 'Intent
    Contrastive Learning for Sequential Recommendation' is not 'Contrastive Learning for
    Sequential Recommendation' of the same year by other people."""
    years = bool(a.year and b.year)
    near = years and abs(a.year - b.year) <= 1
    author = same_first_author(a, b)
    if years and not near:
        return author and (_preprint(a) or _preprint(b))
    if a.authors and b.authors and not author:
        # 'Deep learning' (LeCun et al., 2015) is not 'Deep Learning' (Goodfellow et al.,
        # 2016): with both author lists given, the first author must agree (issue 21)
        return False
    return score >= 100.0 or author or (near and not _other_people(a, b))


def _other_people(a: Paper, b: Paper) -> bool:
    """True when both give author lists (two names or more: a single name is often only the
    first author a list gives) and no one is in both."""
    if len(a.authors) < 2 or len(b.authors) < 2:
        return False
    theirs = [_person(n) for n in b.authors]
    return not any(
        _same_person(mine, other) for mine in map(_person, a.authors) for other in theirs
    )


def _person(name: str) -> tuple[str, str]:
    """(family name, given names) folded, for comparing."""
    from catalog.bib.names import split_name

    parts = split_name(name)
    return fold(parts.von_last), fold(parts.first).replace(".", " ").strip()


def _same_person(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """One family name, and given names that agree where both are written out ('J.' is
    'Julian'; 'Zhiwei' is not 'Zhaoyang')."""
    if a[0] != b[0]:
        return False
    x, y = a[1].split(), b[1].split()
    if not x or not y:
        return True
    if x[0][0] != y[0][0]:
        return False
    return len(x[0]) == 1 or len(y[0]) == 1 or x[0] == y[0]


def same_first_author(a: Paper, b: Paper) -> bool:
    """True when both give authors and the first ones share a family name."""
    if not (a.authors and b.authors):
        return False
    return fold(last_name(a.authors[0])) == fold(last_name(b.authors[0]))


def _preprint(paper: Paper) -> bool:
    return paper.venue.casefold() in ("arxiv", "corr")


def marked_distinct(a: Paper, b: Paper) -> bool:
    """A pair reviewed as two papers: either lists the other's key under distinct."""
    return (bool(b.key) and b.key in a.distinct) or (bool(a.key) and a.key in b.distinct)


def bucket_words(title: str) -> list[str]:
    # The two longest words: a near-equal title almost surely shares one of them.
    return sorted(set(title.split()), key=lambda w: (-len(w), w))[:2]


def _conflict(a: Paper, b: Paper) -> bool:
    """Identifiers that say two alike titles are different papers."""
    da, db = norm_doi(a.doi), norm_doi(b.doi)
    xa, xb = norm_arxiv(a.arxiv, a.doi), norm_arxiv(b.arxiv, b.doi)
    return bool((da and db and da != db) or (xa and xb and xa != xb))


@dataclass
class MergePlan:
    """What merging a duplicate into the catalog's paper changes: fields it fills, a move."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)
    move_to: tuple[int, str] | None = None

    @property
    def empty(self) -> bool:
        return not self.fields and self.move_to is None

    def describe(self) -> str:
        parts = [f"{name}" for name in self.fields]
        if self.move_to:
            parts.append(f"moved to {self.move_to[1]} {self.move_to[0]}")
        return ", ".join(parts) if parts else "nothing new"


def plan_merge(existing: Paper, incoming: Paper, venues: dict[str, Venue]) -> MergePlan:
    """Fill fields the catalog lacks from a duplicate, never overwriting one.

    The preprint's arXiv id is recorded on the published paper. When the catalog holds
    only the preprint and the duplicate is its published version, the entry moves to
    the published year and venue, as the catalog's layout asks (its key stays: keys are
    stable).
    """
    plan = MergePlan(existing.key)
    # A chapter's book fields fill only another record of the same chapter: on a paper
    # of a conference they would name a book it is not in.
    book = CHAPTER_FIELDS if existing.booktitle and incoming.booktitle else ()
    for name in (*MERGEABLE, *book):
        have, new = getattr(existing, name), getattr(incoming, name)
        if name == "doi" and norm_doi(new) is None:
            continue  # an arXiv DOI is not the publisher's DOI
        if name == "arxiv":
            new = norm_arxiv(new, incoming.doi)
        if new and not have:
            plan.fields[name] = list(new) if isinstance(new, list) else new
    if (
        _is_preprint(existing.venue, venues)
        and not _is_preprint(incoming.venue, venues)
        and incoming.venue in venues
    ):
        plan.move_to = (incoming.year, incoming.venue)
    return plan


def _is_preprint(venue: str, venues: dict[str, Venue]) -> bool:
    record = venues.get(venue)
    return record is not None and record.kind == "preprint"


def find_duplicates(papers: list[Paper]) -> list[tuple[Paper, Match]]:
    """Pairs (later paper, the earlier one it duplicates) within one list of papers."""
    finder = Finder()
    out = []
    for paper in papers:
        match = finder.find(paper)
        if match:
            out.append((paper, match))
        finder.add(paper)
    return out
