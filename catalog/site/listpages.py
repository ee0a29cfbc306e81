"""The pages that list papers (a year's, a venue's, a tag's, an author's, all papers), their
.bib files and the All-papers page's data scripts."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from catalog.model import Paper
from catalog.site.feed import tag_feed_uri
from catalog.site.links import (
    ALL_URI,
    AUTHORS_INDEX,
    DATA_JS,
    STEM_JS,
    bib_uri,
    front,
    paper_uri,
    plain,
    plural,
    tag_uri,
    url,
    year_uri,
)
from catalog.site.markup import (
    anchor,
    book_text,
    esc,
    h2,
    nav_line,
    paper_item,
    paper_links,
    with_contents,
)
from catalog.site.people import Person
from catalog.site.sitedata import SiteData, by_year


def bibtex_of(papers: Sequence[Paper], data: SiteData) -> str:
    """The BibTeX entries of some papers, as one .bib file."""
    return "\n".join(data.bibtex[p.key] for p in papers if p.key in data.bibtex)


def _bib_link(uri: str, papers: Sequence[Paper], data: SiteData) -> str:
    """A link to the .bib file of a list page's papers (written by generate)."""
    target = url(uri, bib_uri(uri), data.directory_urls)
    count = plural(len(papers), "paper")
    return (
        f'<p class="pp-tools" data-search-exclude><a class="pp-bibset" href="{target}" '
        f"download>BibTeX of these {count}</a> (.bib)</p>"
    )


def _entries(papers: Sequence[Paper], from_uri: str, data: SiteData) -> list[str]:
    """A list of entries; it repeats the papers' own text, so search skips it."""
    return [
        '<ul class="pp-list" data-search-exclude>',
        *(paper_item(p, from_uri, data) for p in papers),
        "</ul>",
    ]


def year_page(year: int, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers of one year in one dense list, by venue then title."""
    uri = year_uri(year)
    group = sorted(papers, key=lambda p: (p.venue.lower(), p.title.lower(), p.key))
    years = sorted({p.year for p in data.papers})
    at = years.index(year)
    step = []
    if at > 0:
        step.append(
            f'<a href="{url(uri, year_uri(years[at - 1]), data.directory_urls)}" '
            f'rel="prev">← {years[at - 1]}</a>'
        )
    if at + 1 < len(years):
        step.append(
            f'<a href="{url(uri, year_uri(years[at + 1]), data.directory_urls)}" '
            f'rel="next">{years[at + 1]} →</a>'
        )
    steps = f'<span class="pp-steps">{" ".join(step)}</span>' if step else ""
    venues = Counter(p.venue for p in papers)
    out = [
        f"<h1>Papers of {year}</h1>",
        nav_line(uri, data, [("All papers", ALL_URI), ("Years", "years/index.md")], steps),
        f"<p>{plural(len(papers), 'paper')} at {plural(len(venues), 'venue')}: "
        + ", ".join(
            f'<a href="#venue-{data.venue_stems[v]}">{esc(v)}</a> {n}'
            for v, n in sorted(venues.items(), key=lambda x: x[0].lower())
        )
        + ".</p>",
        _bib_link(uri, group, data),
    ]
    out.append('<ul class="pp-list" data-search-exclude>')
    seen: set[str] = set()
    for p in group:
        item = paper_item(p, uri, data)
        if p.venue not in seen:  # an anchor at each venue's first paper
            seen.add(p.venue)
            anchor_id = f'id="venue-{data.venue_stems[p.venue]}"'
            item = item.replace('<li class="pp-entry">', f'<li class="pp-entry" {anchor_id}>', 1)
        out.append(item)
    out.append("</ul>")
    return front(f"Papers of {year}", out)


def venue_page(venue: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers at one venue, by year."""
    uri = data.venue_uri(venue)
    registry = data.venues.get(venue)
    out = [
        f"<h1>{esc(venue)}</h1>",
        nav_line(uri, data, [("All papers", ALL_URI), ("Venues", "venues/index.md")]),
    ]
    if registry:
        publisher = f", published by {esc(registry.publisher)}" if registry.publisher else ""
        out.append(f"<p>{esc(registry.name)}: {esc(registry.kind)}{publisher}.</p>")
    out.append(f"<p>{plural(len(papers), 'paper')} in the catalog.</p>")
    out.append(_bib_link(uri, papers, data))
    for year, group in by_year(papers).items():
        out.append(h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    return front(venue, with_contents(out))


def tag_page(tag: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers with one tag, by year."""
    uri = tag_uri(tag)
    out = [
        f"<h1>Tag: {esc(tag)}</h1>",
        nav_line(uri, data, [("All papers", ALL_URI), ("Tags", "tags/index.md")]),
    ]
    if data.vocabulary.get(tag):
        out.append(f"<p>{esc(data.vocabulary[tag])}.</p>")
    out.append(f"<p>{plural(len(papers), 'paper')}.</p>")
    out.append(_bib_link(uri, papers, data))
    feed = url(uri, tag_feed_uri(tag), data.directory_urls)
    out.append(
        f'<p class="pp-tools" data-search-exclude><a href="{feed}" type="application/atom+xml">'
        f"Subscribe to new papers tagged {esc(tag)}</a> (Atom feed)</p>"
    )
    for year, group in by_year(papers).items():
        out.append(h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    feed_meta: dict[str, str | list[str]] = {
        "feed": tag_feed_uri(tag),
        "feed_title": f"papers: latest additions tagged {plain(tag)}",
    }
    return front(f"Tag: {tag}", with_contents(out), meta=feed_meta)


def author_page(person: Person, data: SiteData) -> str:
    """One author's papers in the catalog, by year, with the people they wrote with."""
    uri = person.uri

    def to(target: str) -> str:
        return url(uri, target, data.directory_urls)

    out = [
        f"<h1>{esc(person.name)}</h1>",
        nav_line(uri, data, [("All papers", ALL_URI), ("Authors", AUTHORS_INDEX)]),
        f"<p>{plural(len(person.papers), 'paper')} in the catalog.</p>",
    ]
    others = [s for s in person.spellings if s != person.name]
    if others:
        out.append(f"<p>Also written as {', '.join(esc(s) for s in others)}.</p>")
    out += _namesakes(person, data, to)
    out.append(_bib_link(uri, person.papers, data))
    coauthors = person.coauthors(data.people)
    if coauthors:
        out.append(h2("coauthors", "Co-authors", searchable=False))
        out.append(
            '<p class="pp-coauthors">'
            + ", ".join(f'<a href="{to(p.uri)}">{esc(p.name)}</a> ({n})' for p, n in coauthors)
            + "</p>"
        )
    for year, group in by_year(person.papers).items():
        out.append(h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    # Out of the search index: its text is its papers', which their own pages hold, and
    # indexing a thousand such pages cost more than all the rest of the search index.
    return front(person.name, with_contents(out), searchable=False)


def _namesakes(person: Person, data: SiteData, to: Callable[[str], str]) -> list[str]:
    """For one of several people with one name: what tells them apart, their papers."""
    others = data.people.namesakes(person)
    if not others:
        return []

    def which(p: Person) -> str:
        if p.places:
            return "; ".join(
                f'author {n} of <a href="{to(paper_uri(paper.key))}">{esc(paper.short_title)}</a>'
                for paper, n in p.places
            )
        return f"{plural(len(p.papers), 'paper')} where authors.yaml tells no namesake apart"

    return [
        f'<p class="pp-namesakes">{esc(person.name)} is the name of '
        f"{len(others) + 1} people in the catalog, told apart by their papers. This page: "
        f"{which(person)}. The others: "
        + "; ".join(f'<a href="{to(p.uri)}">{esc(p.name)}</a> ({which(p)})' for p in others)
        + ".</p>"
    ]


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
        plain(spelling): url(ALL_URI, person.uri, data.directory_urls)
        for person in data.people.everyone
        for spelling in person.spellings
        if data.people.spelled(spelling) is person
    }
    value = {"papers": records, "tags": tags, "authors": people}
    return f"window.PAPERS_DATA={_js_literal(value)};\n"


def _namesake_links(paper: Paper, data: SiteData) -> dict[str, dict[str, str]]:
    """{"o": {index: page}} for the authors whose page is not their spelling's (one of
    several people with one name, told apart in authors.yaml); {} for most papers."""
    out = {
        str(i): url(ALL_URI, person.uri, data.directory_urls)
        for i, (spelling, person) in enumerate(
            zip(paper.authors, data.people.of(paper), strict=True)
        )
        if person is not None and data.people.spelled(spelling) is not person
    }
    return {"o": out} if out else {}


def bib_data(data: SiteData) -> str:
    """Every paper's BibTeX entry by key, as a script papers.js loads on demand."""
    entries = {key: entry.strip() for key, entry in data.bibtex.items()}
    return f"window.PAPERS_BIB={_js_literal(entries)};\n"


def all_papers_page(data: SiteData) -> str:
    """Every paper on one page, filterable by year range, venue, tag and text.

    Without JavaScript it is a plain list, newest first; with it, site/javascripts/
    papers.js reads DATA_JS, shows the filters and renders full entries lazily.
    """
    uri = ALL_URI
    out = ["<h1>All papers</h1>"]
    if not data.papers:
        out.append("<p>The catalog has no papers yet.</p>")
        return front("All papers", out)
    years = sorted({p.year for p in data.papers})
    out.append(
        f'<p id="pp-count">{plural(len(data.papers), "paper")} from {years[0]} to '
        f"{years[-1]}, newest first.</p>"
    )
    if data.suggest_url:
        out.append(f"<p>Missing a paper? {anchor(data.suggest_url, 'Suggest one')}.</p>")
    # The filters' room is kept from the start, so the list does not jump when they come.
    out.append("<script>document.documentElement.classList.add('pp-js')</script>")
    out.append('<div id="pp-filters" data-search-exclude></div>')
    out.append('<ul class="pp-list pp-plain" id="pp-all" data-search-exclude>')
    for p in sorted(data.papers, key=lambda p: (-p.year, p.venue.lower(), p.title.lower())):
        out.append(
            f'<li><span class="pp-venue">{esc(p.venue)}</span> '
            f'<span class="pp-year">{p.year}</span> '
            f'<a class="pp-title" href="{url(uri, paper_uri(p.key), data.directory_urls)}">'
            f"{esc(p.title)}</a></li>"
        )
    out.append("</ul>")
    out.append(f'<script src="{url(uri, STEM_JS, data.directory_urls)}"></script>')
    out.append(f'<script src="{url(uri, DATA_JS, data.directory_urls)}"></script>')
    return front("All papers", out)
