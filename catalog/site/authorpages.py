"""The authors index: every person under the letter of their family name, with a filter
box and each one's paper count (overrides/papers/authors-index.html); each name leads to
the person's section of their shelf (catalog.site.shelves)."""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.model import fold
from catalog.site.links import AUTHORS_INDEX, LIST_BOOST, front, plural, url
from catalog.site.people import Person, family_first, sort_key
from catalog.site.shelves import person_url
from catalog.site.sitedata import SiteData
from catalog.site.templates import render

PEOPLE_JS = "javascripts/people.js"
LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + ["#"]
COAUTHORS_SHOWN = 12  # the rest behind "N more co-authors"


@dataclass
class Letter:
    """One letter of the index and the people whose family name starts with it."""

    name: str
    people: list[dict[str, object]] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return "letter-" + ("other" if self.name == "#" else self.name.lower())

    @property
    def count(self) -> int:
        return len(self.people)

    @property
    def title(self) -> str:
        return plural(self.count, "author")


def letter_of(name: str) -> str:
    """The index letter of a name: its family name's first letter, accents aside; '#'
    for a family name that starts with no letter A to Z."""
    first = sort_key(name)[0][:1].upper()
    return first if "A" <= first <= "Z" else "#"


def _which(person: Person, data: SiteData) -> str:
    """What tells one of several people with one name apart ('' for everyone else)."""
    if not data.people.namesakes(person):
        return ""
    places = "; ".join(f"author {n} of {paper.short_title}" for paper, n in person.places)
    return places or "not told apart"


def authors_index(data: SiteData) -> str:
    """Every author, under the letter of their family name, with their paper count."""
    uri = AUTHORS_INDEX
    letters = {name: Letter(name) for name in LETTERS}
    for person in data.people.everyone:
        letters[letter_of(person.name)].people.append(
            {
                "href": person_url(uri, person, data.directory_urls),
                "label": family_first(person.name),
                "folded": fold(" ".join(dict.fromkeys([person.name, *person.spellings]))),
                "count": len(person.papers),
                "which": _which(person, data),
            }
        )
    body = render(
        "authors-index.html",
        data.template_dir,
        total=plural(len(data.people.everyone), "author"),
        letters=list(letters.values()),
        script=url(uri, PEOPLE_JS, data.directory_urls),
    )
    return front("Authors", [body], boost=LIST_BOOST)
