"""Likely splits: two people of the catalog's author pages who may be one, for a curator
to confirm or reject (`papers authors`). A report, never a merge.

Two people are proposed when their family names are the same (accents, case and
particles aside) and their given names are compatible: the same but for accents, case,
punctuation, spacing or hyphens; or one with initials where the other writes the name
out; or a middle name or initial added or dropped ('Ed Chi', 'Ed H. Chi'): the first
given names always correspond. A hyphenated given name is one name ('Chia-Lin' is not
'Lin'), and a given name is never matched by a prefix of another ('Chen' is not 'Cheng').
Nicknames (Misha, Mikhail), short forms (Jeff, Jeffrey), a dropped first name (Harry,
Guoqing Harry) and misspelt family names are left to the curator's eye. Pairs
authors.yaml already joins or records as different people are left out, and so are two
authors of one paper (two people). Ranked by shared co-authors, the best evidence the
catalog itself holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from catalog.data.authors import Authors, Entry, Who
from catalog.model import OTHERS, Paper, fold
from catalog.paths import Paths

# Words that belong to a family name when they come before it ('van der Staay').
PARTICLES = frozenset(
    "van von der den de del della dei di da das dos du la le ten ter zu".split()  # noqa: SIM905
)
# How two compatible given names differ, strongest evidence first.
REASONS = (
    "the same name",
    "the same but for accents, case or punctuation",
    "the same but for spacing or hyphens",
    "initials for a given name",
    "a middle name or initial added",
)
_INITIALS_RE = re.compile(r"^(?:[^\W\d_]\.)+[^\W\d_]?\.?$")
_WORD_RE = re.compile(r"[a-z0-9]+")


@dataclass
class Someone:
    """One person as the catalog's author lists and authors.yaml make them."""

    who: Who
    name: str
    spellings: list[str] = field(default_factory=list)
    papers: list[str] = field(default_factory=list)
    coauthors: set[Who] = field(default_factory=set)

    @property
    def id(self) -> str | None:
        """The id authors.yaml gives this person, if any."""
        return self.who.id if isinstance(self.who, Entry) else None


@dataclass(frozen=True)
class Proposal:
    """Two people who may be one: how their names differ, what they share."""

    a: Someone
    b: Someone
    why: str
    shared: tuple[str, ...]  # their shared co-authors' names

    def to_dict(self) -> dict[str, object]:
        def one(s: Someone) -> dict[str, object]:
            return {"name": s.name, "id": s.id, "spellings": s.spellings, "papers": s.papers}

        return {
            "a": one(self.a),
            "b": one(self.b),
            "why": self.why,
            "shared_coauthors": len(self.shared),
            "coauthors": list(self.shared),
        }


def likely(paths: Paths) -> list[Proposal]:
    """The catalog's likely splits (its papers from the index, its authors.yaml)."""
    from catalog.data import authors
    from catalog.index import database, query

    conn = database.connect(paths)
    try:
        papers = query.all_papers(conn)
    finally:
        conn.close()
    return proposals(papers, authors.load(paths.authors, paths.display(paths.authors)))


def people(papers: Sequence[Paper], authors: Authors) -> list[Someone]:
    """Every person of the catalog, with their spellings, papers and co-authors."""
    found: dict[Who, Someone] = {}
    for paper in papers:
        here = []
        for number, spelling in enumerate(paper.authors, 1):
            if spelling == OTHERS or not spelling.strip():
                continue
            who = authors.who(paper.key, number, spelling)
            one = found.get(who)
            if one is None:
                name = who.name if isinstance(who, Entry) else who
                one = found[who] = Someone(who, name)
            if spelling not in one.spellings:
                one.spellings.append(spelling)
            if paper.key not in one.papers:
                one.papers.append(paper.key)
            here.append(one)
        for one in here:
            one.coauthors.update(o.who for o in here if o is not one)
    return list(found.values())


def proposals(papers: Sequence[Paper], authors: Authors) -> list[Proposal]:
    """Every likely split, most shared co-authors first."""
    everyone = people(papers, authors)
    names = {s.who: s.name for s in everyone}
    by_family: dict[str, list[tuple[Someone, str, tuple[str, ...]]]] = {}
    for someone in everyone:
        for spelling in someone.spellings:
            parts = split_name(spelling)
            if parts is not None:
                by_family.setdefault(parts[0], []).append((someone, spelling, parts[1]))
    best: dict[tuple[int, int], tuple[int, Someone, Someone]] = {}
    for group in by_family.values():
        for (a, spelled_a, given_a), (b, spelled_b, given_b) in combinations(group, 2):
            if a is b:
                continue
            reason = REASONS[0] if spelled_a == spelled_b else compatible(given_a, given_b)
            if reason is None:
                continue
            pair = (id(a), id(b)) if id(a) < id(b) else (id(b), id(a))
            rank = REASONS.index(reason)
            if pair not in best or rank < best[pair][0]:
                best[pair] = (rank, a, b)
    out = []
    for rank, a, b in best.values():
        if authors.told_apart(a.who, b.who) or not set(a.papers).isdisjoint(b.papers):
            continue  # reviewed, or two authors of one paper: two people
        a, b = sorted((a, b), key=lambda s: (-len(s.papers), s.name))
        shared = tuple(sorted(names[w] for w in (a.coauthors & b.coauthors)))
        out.append(Proposal(a, b, REASONS[rank], shared))
    out.sort(key=lambda p: (-len(p.shared), REASONS.index(p.why), fold(p.a.name), p.b.name))
    return out


def split_name(name: str) -> tuple[str, tuple[str, ...]] | None:
    """A name's family name (folded, its particles joined to it) and given names (folded,
    a hyphenated one as one word, dotted initials as letters); None for a single word."""
    if "," in name:
        family, _, rest = name.partition(",")
        words = rest.split()
        family_words = family.split()
    else:
        words = name.split()
        if len(words) < 2:
            return None
        family_words = [words.pop()]
        while words and fold(words[-1]) in PARTICLES and len(words) > 1:
            family_words.insert(0, words.pop())
    family_key = "".join(_WORD_RE.findall(fold(" ".join(family_words))))
    given: list[str] = []
    for word in words:
        if _INITIALS_RE.match(word):
            given += _WORD_RE.findall(fold(word))
        else:
            joined = "".join(_WORD_RE.findall(fold(word)))
            if joined and joined not in PARTICLES:
                given.append(joined)
    if not family_key or not given:
        return None
    return family_key, tuple(given)


def compatible(a: tuple[str, ...], b: tuple[str, ...]) -> str | None:
    """How two given names may be one person's (a REASONS entry), or None."""
    if a == b:
        return REASONS[1]
    if "".join(a) == "".join(b):
        return REASONS[2]
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if not _aligned(short, long):
        return None
    return REASONS[3] if len(short) == len(long) else REASONS[4]


def _aligned(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Whether the first names are one (the same, or one an initial of the other) and
    short's other names stand, in order, among long's others (each the same or an
    initial of it)."""
    if not short or not _same(short[0], long[0]):
        return False
    # Each of short's names at the earliest place of long it matches: greedy is exact
    # here, as matching earlier never leaves fewer places for the names after it.
    at = 1
    for name in short[1:]:
        while at < len(long) and not _same(name, long[at]):
            at += 1
        if at == len(long):
            return False
        at += 1
    return True


def _same(x: str, y: str) -> bool:
    """One given name, or an initial of it."""
    return x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y))
