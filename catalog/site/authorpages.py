"""The people pages: the authors index (letters, a filter box, each person's paper
count, by family name) and each author's page (their papers first, by year; the people
they wrote with after, compact), filled into overrides/partials/papers-author*.html."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field

from catalog.model import fold
from catalog.site.links import ALL_URI, AUTHORS_INDEX, front, paper_uri, plural, url
from catalog.site.markup import nav_line, paper_item
from catalog.site.partials import render, trusted
from catalog.site.people import Person, family_first, sort_key
from catalog.site.sitedata import SiteData, by_year

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
                "href": url(uri, person.uri, data.directory_urls),
                "label": family_first(person.name),
                "folded": fold(" ".join(dict.fromkeys([person.name, *person.spellings]))),
                "count": len(person.papers),
                "which": _which(person, data),
            }
        )
    body = render(
        "papers-authors.html",
        total=plural(len(data.people.everyone), "author"),
        letters=list(letters.values()),
        script=url(uri, PEOPLE_JS, data.directory_urls),
    )
    return front("Authors", [body])


def author_page(person: Person, data: SiteData) -> str:
    """One author's papers in the catalog, newest year first, then their co-authors.

    The entries are compact (venue, year, title, authors, summary): a paper's links,
    abstract and BibTeX are on its own page, and two thousand author pages repeating
    them weighed more than the rest of the site.
    """
    from catalog.site.listpages import _bib_link

    uri = person.uri

    def to(target: str) -> str:
        return url(uri, target, data.directory_urls)

    years = sorted({p.year for p in person.papers})
    span = f"in {years[0]}" if len(years) == 1 else f"from {years[0]} to {years[-1]}"
    coauthors = [
        {"href": to(p.uri), "name": p.name, "count": n} for p, n in person.coauthors(data.people)
    ]
    body = render(
        "papers-author.html",
        name=person.name,
        trail=trusted(nav_line(uri, data, [("All papers", ALL_URI), ("Authors", AUTHORS_INDEX)])),
        summary=f"{plural(len(person.papers), 'paper')} in the catalog. Published {span}.",
        spellings=[s for s in person.spellings if s != person.name],
        namesakes=trusted(_namesakes(person, data, to)),
        downloads=trusted(_bib_link(uri, person.papers, data)),
        years=[
            {
                "year": year,
                "entries": [trusted(paper_item(p, uri, data, compact=True)) for p in group],
            }
            for year, group in by_year(person.papers).items()
        ],
        coauthors=coauthors,
        shown=COAUTHORS_SHOWN,
    )
    # In search by name (and spellings): the lists are out of it, their papers' pages
    # hold that text.
    # The tags are printed as given, as the title is: escaped here.
    names = dict.fromkeys(html.escape(n, quote=False) for n in (person.name, *person.spellings))
    return front(person.name, [body], tuple(names))


def _namesakes(person: Person, data: SiteData, to: Callable[[str], str]) -> str:
    """For one of several people with one name: what tells them apart, their papers."""
    others = data.people.namesakes(person)
    if not others:
        return ""

    def which(p: Person) -> list[dict[str, object]]:
        return [
            {"href": to(paper_uri(paper.key)), "title": paper.short_title, "n": n}
            for paper, n in p.places
        ]

    return render(
        "papers-namesakes.html",
        name=person.name,
        count=len(others) + 1,
        this=which(person),
        this_papers=plural(len(person.papers), "paper"),
        others=[
            {
                "href": to(p.uri),
                "name": p.name,
                "places": which(p),
                "papers": plural(len(p.papers), "paper"),
            }
            for p in others
        ],
    )
