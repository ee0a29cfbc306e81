"""The site's generated pages, each rendered by a pure function to a string: a paper's page
and a note's here, the lists in listpages; generate() makes them all."""

from __future__ import annotations

import html
import re

from markupsafe import Markup

from catalog.data.notes import Link, Note
from catalog.model import Paper
from catalog.paths import page_name
from catalog.site import downloads
from catalog.site.authorpages import authors_index
from catalog.site.citation import citation_meta
from catalog.site.feed import feeds
from catalog.site.indexes import (
    notes_index,
    tags_index,
    venues_index,
    years_index,
)
from catalog.site.links import (
    ALL_URI,
    AUTHORS_INDEX,
    CHART_DIR,
    DATA_JS,
    HEADING_RE,
    PAPER_BOOST,
    front,
    href,
    md,
    note_uri,
    paper_uri,
    plain,
    tag_uri,
    url,
    year_uri,
)
from catalog.site.listpages import (
    all_papers_page,
    papers_data,
    shelf_page,
    tag_page,
    venue_page,
    year_page,
)
from catalog.site.markup import (
    authors_of,
    book_html,
    paper_item,
    paper_links,
    trail,
    with_contents,
)
from catalog.site.shelves import shelves
from catalog.site.sitedata import SiteData, by_year, safe_url
from catalog.site.templates import render


def link_papers(text: str, from_uri: str, data: SiteData, final_urls: bool = False) -> str:
    """Markdown with [[key]] / [[key|text]] turned into links to paper pages.

    Links name the target's .md source (which mkdocs checks and rewrites), or with
    final_urls its URL in the built site, for Markdown we convert ourselves.
    """
    from catalog.data.notes import replace_links

    def render(link: Link) -> str:
        paper = data.by_key.get(link.key)
        if paper is None:  # reported by link_problems; shown as text, never a broken link
            return f"`{link.key}`"
        label = link.text if link.text else md(paper.short_title)
        title = html.escape(plain(paper.title), quote=True)
        target = (
            url(from_uri, paper_uri(paper.key), data.directory_urls)
            if final_urls
            else href(from_uri, paper_uri(paper.key))
        )
        return f'[{label}]({target} "{title}")'

    return replace_links(text, render)


def note_page(text: str, from_uri: str, note: Note, data: SiteData) -> str:
    """A note with its [[key]] links made links, and the papers it discusses listed
    at its end."""
    known = [data.by_key[k] for k in note.keys if k in data.by_key]
    out = link_papers(text, from_uri, data).rstrip("\n")
    if known:
        out += "\n\n## Papers in this note\n\n" + "\n".join(
            f"- [{md(p.title)}]({href(from_uri, paper_uri(p.key))}) ({md(p.venue)} {p.year})"
            for p in known
        )
    return out + "\n"


def _demote(text: str, levels: int) -> str:
    """Headings pushed down `levels` levels (outside fenced code), to nest under ours."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            line = HEADING_RE.sub(lambda m: "#" * min(6, len(m.group(1)) + levels), line)
        out.append(line)
    return "\n".join(out)


def paper_page(paper: Paper, data: SiteData) -> str:
    """The page of one paper (overrides/papers/paper.html): its title in front matter,
    then its body as HTML.

    Paper pages are by far the most numerous, and Python-Markdown would spend
    more time parsing them than mkdocs spends on everything else, so they (and
    the year, venue and tag lists of them) are written as HTML, which the hook
    hands to mkdocs in place of Markdown (see is_html_page).
    """
    uri = paper_uri(paper.key)

    def to(target: str) -> str:
        return url(uri, target, data.directory_urls)

    venue = data.venues.get(paper.venue)
    reading = data.readings.get(paper.key)
    note = None
    if reading and reading.text.strip():
        # Its own sections start at "##" (the template says so): they nest under ours.
        text = _demote(link_papers(reading.text.strip(), uri, data, final_urls=True), 1)
        note = Markup(data.note_html(text))  # sanitized (SiteData.note_html)
    related = [data.by_key[k] for k, _ in data.related.get(paper.key, []) if k in data.by_key]
    sources = [s for s in (getattr(paper, "sources", None) or []) if isinstance(s, str)]
    body = render(
        "paper.html",
        data.template_dir,
        p=paper,
        venue=venue,
        venue_url=to(data.venue_uri(paper.venue)),
        year_url=to(year_uri(paper.year)),
        trail=trail(uri, data, [("All papers", ALL_URI)]),
        authors=authors_of(paper, data, to),
        book=book_html(paper, venue),
        links=paper_links(paper),
        tags=[(t, to(tag_uri(t))) for t in paper.tags],
        status=data.status_of(paper.key) if data.show_status else None,
        # Where the metadata came from (a field the model may grow).
        sources=[(_source_label(s), s) if safe_url(s) else (s, None) for s in sources],
        abstract=plain(paper.abstract or ""),
        reading=note,
        bibtex=data.bibtex.get(paper.key, "").strip(),
        downloads=Markup(downloads.list_links(uri, [paper], data, page_name(paper.key))),
        related=[paper_item(p, uri, data, compact=True) for p in related],
        notes=[(n.title, to(note_uri(n))) for n in data.backlinks.get(paper.key, [])],
    )
    # Venue and year as the search entry's tags: "EuroSys 2022" ranks its papers first.
    return front(
        paper.title,
        [with_contents(body, data)],
        (paper.venue, str(paper.year)),
        citation_meta(paper, data),
        boost=PAPER_BOOST,
    )


def _source_label(link: str) -> str:
    """What a source is, as its address says: host and path ('github.com/org/repo',
    'api.crossref.org/works/10.1/x'), not the bare host, which says little."""
    from urllib.parse import urlsplit

    parts = urlsplit(link)
    label = (parts.hostname or "").removeprefix("www.") + parts.path.rstrip("/")
    label = label or link
    return label if len(label) <= 60 else label[:59] + "…"


def is_html_page(uri: str) -> bool:
    """Whether a generated page is written as HTML: all but the notes index."""
    indexes = ("years/index.md", "venues/index.md", "tags/index.md")
    return uri in (ALL_URI, AUTHORS_INDEX, *indexes) or (
        uri.startswith(("papers/", "years/", "venues/", "tags/", "authors/"))
        and (not uri.endswith("/index.md"))
    )


def generate(data: SiteData) -> dict[str, str]:
    """Every generated page and chart: {path in the site: Markdown or SVG text}."""
    pages: dict[str, str] = {}
    for paper in data.papers:
        pages[paper_uri(paper.key)] = paper_page(paper, data)
    for year, group in by_year(data.papers).items():
        pages[year_uri(year)] = year_page(year, group, data)
    by_venue: dict[str, list[Paper]] = {}
    by_tag: dict[str, list[Paper]] = {}
    for paper in data.papers:
        by_venue.setdefault(paper.venue, []).append(paper)
        for tag in dict.fromkeys(paper.tags):
            by_tag.setdefault(tag, []).append(paper)
    for venue, group in by_venue.items():
        pages[data.venue_uri(venue)] = venue_page(venue, group, data)
    for tag, group in by_tag.items():
        pages[tag_uri(tag)] = tag_page(tag, group, data)
    pages.update(feeds(data, by_tag))
    for uri, people in shelves(data.people.everyone).items():
        pages[uri] = shelf_page(uri, people, data)
    pages.update(downloads.files(data))
    pages[ALL_URI] = all_papers_page(data)
    pages[DATA_JS] = papers_data(data)
    pages["years/index.md"] = years_index(data)
    pages["venues/index.md"] = venues_index(data)
    pages["tags/index.md"] = tags_index(data)
    pages["notes/index.md"] = notes_index(data)
    pages[AUTHORS_INDEX] = authors_index(data)
    for chart in data.charts:
        pages[f"{CHART_DIR}/{chart.name}.svg"] = chart_file(chart.svg, data.site_url)
    data.entries.clear()  # a copy of every list entry, needed no more
    return pages


_SVG_LINK_RE = re.compile(r'<a href="(?!#|[a-z][a-z0-9+.-]*:)([^"]*)"')


def chart_file(svg: str, site_url: str | None) -> str:
    """A chart as a file of its own in CHART_DIR: its links, written for the home page,
    made to lead from there (to the published site when its address is known)."""
    base = site_url.rstrip("/") + "/" if site_url else "../../"
    return _SVG_LINK_RE.sub(lambda m: f'<a href="{html.escape(base)}{m.group(1)}"', svg)
