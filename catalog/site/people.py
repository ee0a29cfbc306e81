"""Authors as people: which spellings of a name are one person, and each one's papers.

Two spellings are one person only when data/authors.yaml says so (reviewed like
the venue registry); names alike in accents, initials or middle names are never
merged by guessing, as two researchers may well share them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from catalog.model import OTHERS, Paper, fold
from catalog.site.links import slug, unique_stems


@dataclass(eq=False)  # one object per person, hashed by identity
class Person:
    """One author: the name shown, the spellings the catalog uses, and their papers."""

    name: str
    uri: str = ""
    spellings: list[str] = field(default_factory=list)
    papers: list[Paper] = field(default_factory=list)

    def coauthors(self, of: dict[str, Person]) -> list[tuple[Person, int]]:
        """The people this one wrote with, most shared papers first."""
        counts: Counter[Person] = Counter()
        for paper in self.papers:
            counts.update({of[a] for a in paper.authors if a in of} - {self})
        return sorted(counts.items(), key=lambda x: (-x[1], sort_key(x[0].name), x[0].name))


def sort_key(name: str) -> tuple[str, str]:
    """Family name first (the last word), then the rest, without accents or case."""
    words = fold(name).split()
    return (words[-1] if words else "", " ".join(words[:-1]))


def people_of(papers: Sequence[Paper], aliases: dict[str, str]) -> dict[str, Person]:
    """Every spelling in the catalog's author lists -> its Person (shared by aliases)."""
    by_name: dict[str, Person] = {}
    of: dict[str, Person] = {}
    for paper in papers:
        for spelling in dict.fromkeys(paper.authors):
            if spelling == OTHERS or not spelling.strip():
                continue
            person = of.get(spelling)
            if person is None:
                name = aliases.get(spelling, spelling)
                person = by_name.setdefault(name, Person(name))
                of[spelling] = person
                person.spellings.append(spelling)
            person.papers.append(paper)
    _give_uris(by_name.values())
    return of


def _give_uris(people: Iterable[Person]) -> None:
    """authors/<name>.md, with -2, -3 ... where two people's names fold to one slug."""
    ordered = sorted(people, key=lambda p: (sort_key(p.name), p.name))
    stems = unique_stems([p.name for p in ordered], lambda name: slug(fold(name)))
    for person in ordered:
        person.uri = f"authors/{stems[person.name]}.md"
