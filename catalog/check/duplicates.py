"""Recognising a paper already in the catalog: by DOI, by arXiv id, by a near-equal title.

A preprint and its published version are one paper: they share an arXiv id or a
title, and merging fills what the catalog lacks without overwriting anything.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from catalog.check import titles
from catalog.data.registry import Venue, is_preprint
from catalog.model import (
    CHAPTER_FIELDS,
    Paper,
    arxiv_doi,
    fold,
    last_name,
    normalize_title,
    read_doi,
)

_VERSION_RE = re.compile(r"v\d+\Z")
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
    """A DOI as read_doi reads it, compared without regard to case; None for none, a
    malformed one, and arXiv's own DOIs (they name a preprint: its arXiv id is compared)."""
    bare = read_doi(doi)
    return None if bare is None or arxiv_doi(bare) else bare.lower()


def norm_arxiv(arxiv: str | None, doi: str | None = None) -> str | None:
    """An arXiv id without 'arXiv:' or version ('2103.13262v2' -> '2103.13262'); also
    read from an arXiv DOI."""
    if not arxiv and doi:
        arxiv = arxiv_doi(read_doi(doi))
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
    """Looks up papers by DOI, arXiv id and alike title (titles' buckets and score); new
    papers can be added."""

    by_doi: dict[str, Paper] = field(default_factory=dict)
    by_arxiv: dict[str, Paper] = field(default_factory=dict)
    by_title: dict[str, list[Paper]] = field(default_factory=lambda: defaultdict(list))
    buckets: dict[tuple[str, ...], list[str]] = field(default_factory=lambda: defaultdict(list))
    words: dict[str, str] = field(default_factory=dict)  # a title's sorted words
    # The venue registry, which says which venues are preprints (is_preprint); without
    # one, a venue's name does.
    venues: Mapping[str, Venue] | None = None

    @classmethod
    def of(cls, papers: Iterable[Paper], venues: Mapping[str, Venue] | None = None) -> Finder:
        """A finder over these papers (venues: the registry, if at hand)."""
        finder = cls(venues=venues)
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
                self.words[title] = titles.sorted_words(title)
                for key in titles.title_keys(title):
                    self.buckets[key].append(title)
            if paper not in self.by_title[title]:
                self.by_title[title].append(paper)

    def find(self, paper: Paper) -> Match | None:
        """The existing paper this one duplicates, if any."""
        doi, arxiv = norm_doi(paper.doi), norm_arxiv(paper.arxiv, paper.doi)
        if doi and doi in self.by_doi:
            return Match(self.by_doi[doi], "DOI")
        if arxiv and arxiv in self.by_arxiv:
            return Match(self.by_arxiv[arxiv], "arXiv id")
        return self.find_title(paper)

    def find_title(self, paper: Paper) -> Match | None:
        """The existing paper whose title this one's is alike and that may be the same paper
        (may_be_one), if any: a sure one (plausible_pair) before an unsure one."""
        title = normalize_title(paper.title)
        if not title:
            return None
        # Every paper of an alike title, the exact ones first: a book and an article of one
        # title are two papers, and a repeat of either must find its own.
        unsure: Match | None = None
        for score, existing in self._alike(title):
            if not may_be_one(paper, existing):
                continue
            if plausible_pair(paper, existing, score, self.venues):
                return Match(existing, "title", score, True)
            unsure = unsure or Match(existing, "title", score, False)
        return unsure

    def _alike(self, title: str) -> list[tuple[float, Paper]]:
        """(score, paper) of the papers whose titles are this one or alike, best first."""
        found: list[tuple[float, str]] = [(100.0, title)] if title in self.by_title else []
        seen: set[str] = {title}
        mine = titles.sorted_words(title)
        for key in titles.title_keys(title):
            for other in self.buckets.get(key, ()):
                if other in seen:
                    continue
                seen.add(other)
                score = titles.score(mine, self.words[other])
                if score:
                    found.append((score, other))
        found.sort(key=lambda hit: -hit[0])
        return [(score, p) for score, other in found for p in self.by_title[other]]


def may_be_one(a: Paper, b: Paper) -> bool:
    """Whether two papers of alike titles may be one paper: not when their DOIs or arXiv
    ids differ, nor when either lists the other under distinct (reviewed as two). The one
    judgement of such a pair, for check, import, the inbox and an edit's check."""
    return not _conflict(a, b) and not marked_distinct(a, b)


def same_paper_title(title: str, paper: Paper) -> bool:
    """True if a title names this paper: the same words, near-equal ones, or its system
    name alone ('EVStore' for 'EVStore: Storage and Caching ...')."""
    mine, theirs = normalize_title(title), normalize_title(paper.title)
    if not mine:
        return False
    if mine in (theirs, normalize_title(paper.short_title)):
        return True
    return bool(titles.score(titles.sorted_words(mine), titles.sorted_words(theirs)))


def plausible(paper: Paper, match: Match) -> bool:
    """True if a match the Finder made of this paper is sure enough to skip or merge it
    (not just a title alike): the Finder judged so (plausible_pair, with its registry)."""
    return match.sure


def plausible_pair(
    a: Paper, b: Paper, score: float, venues: Mapping[str, Venue] | None = None
) -> bool:
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
        return author and (is_preprint(a.venue, venues) or is_preprint(b.venue, venues))
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


def marked_distinct(a: Paper, b: Paper) -> bool:
    """A pair reviewed as two papers: either lists the other's key under distinct."""
    return (bool(b.key) and b.key in a.distinct) or (bool(a.key) and a.key in b.distinct)


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
        is_preprint(existing.venue, venues)
        and not is_preprint(incoming.venue, venues)
        and incoming.venue in venues
    ):
        plan.move_to = (incoming.year, incoming.venue)
    return plan


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
