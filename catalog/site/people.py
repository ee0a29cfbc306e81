"""Authors as people: who each author of each paper is, each person's papers and page.

Two spellings are one person only where data/authors.yaml says so, and one spelling is
two people only where it gives each an id claiming their papers (catalog.data.authors);
names alike in accents, initials or middle names are never merged by guessing. A
person's page address is a function of that person alone (`address`), so adding a paper
never moves another person's page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from catalog.data.authors import RESERVED_IDS, Authors, Entry, Who
from catalog.errors import CatalogError
from catalog.model import OTHERS, Paper, digest, fold
from catalog.paths import RESERVED_NAMES
from catalog.site.links import slug


@dataclass(eq=False)  # one object per person, hashed by identity
class Person:
    """One author: the name shown, the spellings the catalog uses, and their papers; a
    person of an authors.yaml entry with an id carries it, and one who is only some
    papers' author (one of two people with one name) the places they are."""

    name: str
    uri: str = ""
    id: str | None = None
    spellings: list[str] = field(default_factory=list)
    papers: list[Paper] = field(default_factory=list)
    places: list[tuple[Paper, int]] = field(default_factory=list)  # (paper, number from 1)

    def coauthors(self, people: People) -> list[tuple[Person, int]]:
        """The people this one wrote with, most shared papers first."""
        counts: Counter[Person] = Counter()
        for paper in self.papers:
            counts.update({p for p in people.of(paper) if p is not None} - {self})
        return sorted(counts.items(), key=lambda x: (-x[1], sort_key(x[0].name), x[0].name))


def sort_key(name: str) -> tuple[str, str]:
    """Family name first (the last word), then the rest, without accents or case."""
    words = fold(name).split()
    return (words[-1] if words else "", " ".join(words[:-1]))


class People:
    """The catalog's authors as people: who is author i of a paper, and everyone."""

    def __init__(self, papers: Sequence[Paper], authors: Authors):
        self._by_spelling: dict[str, Person] = {}  # where no entry claims the place
        self._claimed: dict[tuple[str, int], Person] = {}  # (key, index from 0)
        made: dict[Who, Person] = {}
        for paper in papers:
            seen: set[int] = set()
            for index, spelling in enumerate(paper.authors):
                if spelling == OTHERS or not spelling.strip():
                    continue
                who = authors.who(paper.key, index + 1, spelling)
                person = made.get(who)
                if person is None:
                    person = made[who] = _person(who)
                if spelling not in person.spellings:
                    person.spellings.append(spelling)
                if isinstance(who, Entry) and who.claims:
                    self._claimed[(paper.key, index)] = person
                    person.places.append((paper, index + 1))
                else:
                    self._by_spelling[spelling] = person
                if id(person) not in seen:
                    seen.add(id(person))
                    person.papers.append(paper)
        _give_uris(made.values(), {e.id for e in authors.entries.values() if e.id})
        self.everyone = sorted(made.values(), key=lambda p: (sort_key(p.name), p.name, p.uri))
        self._namesakes: dict[str, list[Person]] = {}
        for person in self.everyone:
            self._namesakes.setdefault(fold(person.name), []).append(person)

    def at(self, paper: Paper, index: int) -> Person | None:
        """The person who is the paper's author at this index (from 0); None for 'others'."""
        person = self._claimed.get((paper.key, index))
        if person is not None:
            return person
        spelling = paper.authors[index] if index < len(paper.authors) else ""
        return self._by_spelling.get(spelling)

    def of(self, paper: Paper) -> list[Person | None]:
        """Each of the paper's authors as a person, in order."""
        return [self.at(paper, i) for i in range(len(paper.authors))]

    def spelled(self, spelling: str) -> Person | None:
        """The person a spelling is wherever no authors.yaml entry claims the place."""
        return self._by_spelling.get(spelling)

    def namesakes(self, person: Person) -> list[Person]:
        """The other people whose shown name is this one's (accents and case aside)."""
        return [p for p in self._namesakes.get(fold(person.name), []) if p is not person]


def _person(who: Who) -> Person:
    if isinstance(who, Entry):
        return Person(who.name, id=who.id)
    return Person(who)


def address(name: str, ident: str | None = None, taken: Iterable[str] = ()) -> str:
    """A person's page: authors/<id>.md where authors.yaml gives an id; else the slug of
    the name when the name is the one spelling that slug reads back as (`plain`) and no
    id takes it, else the slug with a digest of the exact name. Never from order: a
    person's address depends on their own name alone (and the file's ids)."""
    if ident:
        return f"authors/{ident}.md"
    base = slug(fold(name))
    free = base not in taken and base not in RESERVED_IDS and base not in RESERVED_NAMES
    if base != "-" and plain(base) == name and free:
        return f"authors/{base}.md"
    tail = digest(name)[:8]
    return f"authors/{tail if base == '-' else f'{base}-{tail}'}.md"


def plain(stem: str) -> str:
    """The one name a slug reads back as: its words capitalised, one letter an initial
    ('quoc-v-le' -> 'Quoc V. Le'). Of all the names that fold to one slug (accents,
    case, hyphens and dots aside), only this one has the slug for its address."""
    return " ".join(w.upper() + "." if len(w) == 1 else w.capitalize() for w in stem.split("-"))


def _give_uris(people: Iterable[Person], ids: set[str]) -> None:
    """Each person's address (see address); two people on one address are refused."""
    owner: dict[str, Person] = {}
    for person in people:
        person.uri = address(person.name, person.id, ids)
        other = owner.setdefault(person.uri, person)
        if other is not person:
            raise CatalogError(
                f"{other.name!r} and {person.name!r} would share the page {person.uri}; "
                "give one an id in data/authors.yaml"
            )
