"""The pages that list papers (a year's, a venue's, a tag's, an author's, all papers) and
the All-papers page's data script."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import Markup

from catalog.model import Paper
from catalog.site.feed import tag_feed_uri
from catalog.site.links import (
    ALL_URI,
    AUTHORS_INDEX,
    DATA_JS,
    LIST_BOOST,
    RANK_JS,
    STEM_JS,
    front,
    paper_uri,
    plain,
    plural,
    tag_uri,
    url,
    year_uri,
)
from catalog.site.markup import (
    book_text,
    paper_item,
    paper_links,
    trail,
    with_contents,
)
from catalog.site.people import Person
from catalog.site.shelves import anchor, person_url, shelf_title
from catalog.site.sitedata import SiteData, by_year
from catalog.site.templates import render

# Entries the All-papers page writes in full; papers.js renders as many at a time (BATCH).
FULL_ENTRIES = 20


def _bib_link(uri: str, papers: Sequence[Paper], data: SiteData, file: str | None = None) -> str:
    """The buttons for the files of a list's papers (catalog.site.downloads)."""
    from catalog.site.downloads import list_links

    return list_links(uri, papers, data, file)


def _groups(papers: Sequence[Paper], uri: str, data: SiteData) -> list[tuple[int, list[Markup]]]:
    """The papers' entries by year, newest first (macros.html, by_year)."""
    return [
        (year, [paper_item(p, uri, data) for p in group]) for year, group in by_year(papers).items()
    ]


def year_page(year: int, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers of one year in one dense list, by venue then title (year.html)."""
    uri = year_uri(year)
    group = sorted(papers, key=lambda p: (p.venue.lower(), p.title.lower(), p.key))
    years = sorted({p.year for p in data.papers})
    at = years.index(year)

    def step(other: int) -> tuple[int, str]:
        return other, url(uri, year_uri(other), data.directory_urls)

    venues = Counter(p.venue for p in papers)
    items: list[Markup] = []
    seen: set[str] = set()
    for p in group:
        item = paper_item(p, uri, data)
        if p.venue not in seen:  # an anchor at each venue's first paper
            seen.add(p.venue)
            start = Markup('<li class="pp-entry" id="venue-{}">').format(data.venue_stems[p.venue])
            item = item.replace(Markup('<li class="pp-entry">'), start, 1)
        items.append(item)
    body = render(
        "year.html",
        data.template_dir,
        year=year,
        trail=trail(uri, data, [("All papers", ALL_URI), ("Years", "years/index.md")]),
        prev=step(years[at - 1]) if at > 0 else None,
        next=step(years[at + 1]) if at + 1 < len(years) else None,
        count=plural(len(papers), "paper"),
        venue_count=plural(len(venues), "venue"),
        venues=[
            (v, f"venue-{data.venue_stems[v]}", n)
            for v, n in sorted(venues.items(), key=lambda x: x[0].lower())
        ],
        downloads=Markup(_bib_link(uri, papers, data)),
        items=items,
    )
    return front(f"Papers of {year}", [body], boost=LIST_BOOST)


def venue_page(venue: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers at one venue, by year (venue.html)."""
    uri = data.venue_uri(venue)
    body = render(
        "venue.html",
        data.template_dir,
        venue=venue,
        registry=data.venues.get(venue),
        trail=trail(uri, data, [("All papers", ALL_URI), ("Venues", "venues/index.md")]),
        count=plural(len(papers), "paper"),
        downloads=Markup(_bib_link(uri, papers, data)),
        groups=_groups(papers, uri, data),
    )
    return front(venue, [with_contents(body, data)], boost=LIST_BOOST)


def tag_page(tag: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers with one tag, by year (tag.html)."""
    uri = tag_uri(tag)
    body = render(
        "tag.html",
        data.template_dir,
        tag=tag,
        trail=trail(uri, data, [("All papers", ALL_URI), ("Tags", "tags/index.md")]),
        description=data.vocabulary.get(tag),
        count=plural(len(papers), "paper"),
        downloads=Markup(_bib_link(uri, papers, data)),
        feed=url(uri, tag_feed_uri(tag), data.directory_urls),
        groups=_groups(papers, uri, data),
    )
    feed_meta: dict[str, str | list[str]] = {
        "feed": tag_feed_uri(tag),
        "feed_title": f"papers: latest additions tagged {plain(tag)}",
    }
    return front(f"Tag: {tag}", [with_contents(body, data)], meta=feed_meta, boost=LIST_BOOST)


def shelf_page(uri: str, people: Sequence[Person], data: SiteData) -> str:
    """The people of one shelf (catalog.site.shelves), each with their papers, newest
    first, then their co-authors (shelf.html). Entries are brief (venue, year, title):
    a paper of eight authors is on up to eight shelves, and its page has the rest."""

    def to(target: str) -> str:
        return url(uri, target, data.directory_urls)

    def link(person: Person) -> str:
        return person_url(uri, person, data.directory_urls)

    def places(p: Person) -> list[tuple[str, str, int]]:
        return [(paper.short_title, to(paper_uri(paper.key)), n) for paper, n in p.places]

    def newest(papers: Sequence[Paper]) -> list[Paper]:
        return [p for group in by_year(papers).values() for p in group]

    title = shelf_title(uri)
    body = render(
        "shelf.html",
        data.template_dir,
        title=title,
        trail=trail(uri, data, [("All papers", ALL_URI), ("Authors", AUTHORS_INDEX)]),
        people=[
            {
                "id": anchor(person),
                "name": person.name,
                "count": plural(len(person.papers), "paper"),
                "spellings": [s for s in person.spellings if s != person.name],
                "places": places(person),
                "namesakes": [
                    (p.name, link(p), places(p), plural(len(p.papers), "paper"))
                    for p in data.people.namesakes(person)
                ],
                "entries": [paper_item(p, uri, data, brief=True) for p in newest(person.papers)],
                # A person of one paper: that paper's page offers its files.
                "downloads": (
                    Markup(_bib_link(uri, person.papers, data, anchor(person)))
                    if len(person.papers) > 1
                    else ""
                ),
                **_coauthors(person, data, link),
            }
            for person in people
        ],
    )
    return front(title, [with_contents(body, data)], boost=LIST_BOOST)


def _coauthors(person: Person, data: SiteData, link: Callable[[Person], str]) -> dict[str, object]:
    """A person's co-authors of more than one paper, linked, and how many shared one
    (a person of one paper: none, as that paper's page lists its authors)."""
    everyone = person.coauthors(data.people)
    if len(person.papers) < 2:
        return {"coauthors": [], "others": ""}
    several = [(p.name, link(p), n) for p, n in everyone if n > 1]
    once = len(everyone) - len(several)
    return {"coauthors": several, "others": plural(once, "other") if once else ""}


def _js_literal(value: Any) -> str:
    """JSON that is safe inside a script file or <script>: no '</script>', no U+2028."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def papers_data(data: SiteData) -> str:
    """The All-papers page's data: one record per paper, as plain text fields.

    The page's script builds entries from it with textContent only, never as HTML.
    """
    records = []
    for p in data.papers:
        records.append(
            {
                "k": p.key,
                "u": url(ALL_URI, paper_uri(p.key), data.directory_urls),
                "t": plain(p.title),
                "a": [plain(a) for a in p.authors],
                **_namesake_links(p, data),
                "e": p.et_al,
                "y": p.year,
                "v": p.venue,
                "n": data.venue_name(p.venue),
                "g": p.tags,
                "s": plain(p.summary or ""),
                "b": plain(p.abstract or ""),
                "l": [[label, target] for label, target in paper_links(p)],
                **({"c": book_text(p, data.venues.get(p.venue))} if p.booktitle else {}),
            }
        )
    tags = {t: url(ALL_URI, tag_uri(t), data.directory_urls) for p in data.papers for t in p.tags}
    people = {
        plain(spelling): person_url(ALL_URI, person, data.directory_urls)
        for person in data.people.everyone
        for spelling in person.spellings
        if data.people.spelled(spelling) is person
    }
    from catalog.index.query import ranking
    from catalog.site.downloads import offered

    value = {
        "papers": records,
        "tags": tags,
        "authors": people,
        "cite": offered(),
        "rank": ranking(),  # the Words box ranks as `papers search` does
    }
    # A JSON string read by JSON.parse: browsers read it in about half the time of the
    # same value written as a script's object literal, and the page waits for neither.
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return f"window.PAPERS_DATA=JSON.parse({_js_literal(text)});\n"


def _namesake_links(paper: Paper, data: SiteData) -> dict[str, dict[str, str]]:
    """{"o": {index: page}} for the authors whose page is not their spelling's (one of
    several people with one name, told apart in authors.yaml); {} for most papers."""
    out = {
        str(i): person_url(ALL_URI, person, data.directory_urls)
        for i, (spelling, person) in enumerate(
            zip(paper.authors, data.people.of(paper), strict=True)
        )
        if person is not None and data.people.spelled(spelling) is not person
    }
    return {"o": out} if out else {}


def all_papers_page(data: SiteData) -> str:
    """Every paper on one page, filterable by year range, venue, tag and text.

    Newest first: the first FULL_ENTRIES in full, the rest as plain lines; site/
    javascripts/papers.js loads DATA_JS when the reader first acts, shows
    the filters and renders the rest in full as the reader scrolls.
    """
    uri = ALL_URI
    years = sorted({p.year for p in data.papers}) or [0]
    # The order of the script's default sort (newest first, then by title), so the
    # entries written here are the ones it would show and stay as they are.
    ordered = sorted(data.papers, key=lambda p: (-p.year, plain(p.title).lower()))
    body = render(
        "all.html",
        data.template_dir,
        count=plural(len(data.papers), "paper"),
        first_year=years[0],
        last_year=years[-1],
        suggest_url=data.suggest_url,
        full=[paper_item(p, uri, data) for p in ordered[:FULL_ENTRIES]],
        papers=[
            (p, url(uri, paper_uri(p.key), data.directory_urls)) for p in ordered[FULL_ENTRIES:]
        ],
        scripts=[url(uri, script, data.directory_urls) for script in (STEM_JS, RANK_JS, DATA_JS)],
    )
    return front("All papers", [body], boost=LIST_BOOST)
