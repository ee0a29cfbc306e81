"""Authors' pages: each person is a section of the page of everyone whose family name
starts with the same two letters ('authors/zh.md#hong-zhang').

A page of its own per person cost the site most of its weight (two thousand pages of
the theme's header, nav and scripts around one or two entries each) and most of its
build. The shelf and the anchor are functions of the person alone, as people.address
is, so adding a paper never moves anyone."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from catalog.site.links import url
from catalog.site.people import Person, sort_key

_LETTERS_RE = re.compile(r"[^a-z]+")
# The shelf of names with no Latin letter to sort by (a name in another script).
OTHER = "other"


def shelf(person: Person) -> str:
    """The page a person is on: 'authors/zh.md' for Zhang, Zhao and Zhou."""
    family = _LETTERS_RE.sub("", sort_key(person.name)[0])
    return f"authors/{family[:2] or OTHER}.md"


def anchor(person: Person) -> str:
    """A person's anchor on their shelf: the name of their address (people.address)."""
    return posixpath.basename(person.uri).removesuffix(".md")


def person_url(from_uri: str, person: Person, directory_urls: bool = True) -> str:
    """A relative link from a page to a person's section on their shelf ('#anchor' on
    the shelf itself)."""
    page = shelf(person)
    here = "" if page == from_uri else url(from_uri, page, directory_urls)
    return f"{here}#{anchor(person)}"


def shelves(people: Iterable[Person]) -> dict[str, list[Person]]:
    """Everyone on their shelf, in the order given (the authors index's), shelves A-Z."""
    out: dict[str, list[Person]] = {}
    for person in people:
        out.setdefault(shelf(person), []).append(person)
    return dict(sorted(out.items()))


def shelf_title(uri: str) -> str:
    """A shelf's heading: 'Authors: Zh…' ('Authors: other scripts' for OTHER)."""
    letters = posixpath.basename(uri).removesuffix(".md")
    return "Authors: other scripts" if letters == OTHER else f"Authors: {letters.title()}…"
