"""What the generated pages share, for their templates (overrides/papers/): a paper's
authors, book and links, a paper's entry in a list, the sections of a page."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import TypedDict

from markupsafe import Markup

from catalog.data.registry import Venue
from catalog.model import OTHERS, Paper
from catalog.site.links import (
    ARXIV_ABS,
    ARXIV_PDF,
    paper_uri,
    plain,
    tag_uri,
    url,
)
from catalog.site.shelves import anchor, shelf
from catalog.site.sitedata import SiteData, safe_url
from catalog.site.templates import render


def authors_of(
    paper: Paper, data: SiteData, to: Callable[[str], str]
) -> list[tuple[str, str | None]]:
    """The paper's authors as (name, their person's section or None), for the authors
    macro."""
    return [
        (author, f"{to(shelf(person))}#{anchor(person)}" if person else None)
        for author, person in zip(paper.authors, data.people.of(paper), strict=True)
    ]


def book_parts(paper: Paper, venue: Venue | None) -> tuple[str, str]:
    """A chapter's book title and what follows it (', edited by A and B, Publisher,
    chapter 3') as plain text; ('', '') if the paper is no chapter."""
    if not paper.booktitle:
        return "", ""
    rest = ""
    editors = ["others" if e == OTHERS else plain(e) for e in paper.editors]
    if editors:
        rest += ", edited by " + (
            ", ".join(editors[:-1]) + " and " + editors[-1] if len(editors) > 1 else editors[0]
        )
    publisher = paper.publisher or (venue.publisher if venue else None)
    if publisher:
        rest += f", {plain(publisher)}"
    if paper.chapter:
        rest += f", chapter {plain(paper.chapter)}"
    return plain(paper.booktitle), rest


def book_html(paper: Paper, venue: Venue | None) -> Markup:
    """A chapter's book: 'In <em>Title</em>, edited by A and B, Publisher' ('' if none)."""
    title, rest = book_parts(paper, venue)
    return Markup("In <em>{}</em>{}").format(title, rest) if title else Markup("")


def book_text(paper: Paper, venue: Venue | None) -> str:
    """The same as plain text, for the All-papers page's data (rendered as text)."""
    title, rest = book_parts(paper, venue)
    return f"In {title}{rest}" if title else ""


_H2_RE = re.compile(r'<h2 id="([^"]+)"[^>]*>(.*?)<a class="headerlink"')
# The most sections the theme's table of contents lists: an authors page has a hundred
# people, and the theme lays out and watches every entry of its sidebar.
MAX_TOC = 40
# Where a page's template puts its list of sections (with_contents fills it).
CONTENTS_SLOT = "<!-- pp-contents -->"


_H1_RE = re.compile(r'<h1 id="([^"]+)">(.*?)</h1>')


def toc_of(page_html: str) -> list[tuple[str, str]]:
    """(anchor, title) of each h2 of a page we rendered as HTML, for its table of contents."""
    return _H2_RE.findall(page_html)


class TocEntry(TypedDict):
    """One entry of a table of contents, as mkdocs's get_toc reads it."""

    level: int
    id: str
    name: str
    children: list[TocEntry]


def page_toc(page_html: str) -> list[TocEntry]:
    """A page's table of contents as mkdocs's toc extension gives it: the h1 with the
    h2s under it. The theme's skip link goes to its first entry, the page's title."""
    sections: list[TocEntry] = [
        {"level": 2, "id": anchor, "name": title, "children": []}
        for anchor, title in toc_of(page_html)
    ]
    if len(sections) > MAX_TOC:
        sections = []  # a wall of names: the page's own list (pp-contents) shows them
    h1 = _H1_RE.search(page_html)
    if h1 is None:
        return sections
    return [{"level": 1, "id": h1.group(1), "name": h1.group(2), "children": sections}]


def with_contents(page_html: str, data: SiteData) -> str:
    """The page with its sections listed where its template says (CONTENTS_SLOT).

    Below 60em the theme shows a page's table of contents only inside the nav
    drawer, under the page's nav entry; generated pages have none, so there the
    reader would have no way to their sections. The list is hidden where the
    theme's own table of contents shows (extra.css).
    """
    sections = toc_of(page_html)
    contents = ""
    if len(sections) >= 2:
        contents = render(
            "contents.html",
            data.template_dir,
            sections=[(anchor, Markup(title)) for anchor, title in sections],
            everywhere=len(sections) > MAX_TOC,  # the theme lists none of them (page_toc)
        )
    return page_html.replace(CONTENTS_SLOT, contents, 1)


def paper_links(paper: Paper) -> list[tuple[str, str]]:
    """(label, URL) of a paper's DOI, arXiv page and PDF, code and web page: http(s) only."""
    out = []
    if paper.doi:
        out.append(("DOI", "https://doi.org/" + paper.doi))
    if paper.arxiv:
        out += [("arXiv", ARXIV_ABS + paper.arxiv), ("PDF", ARXIV_PDF + paper.arxiv)]
    for label, name in (("PDF", "pdf"), ("Code", "code")):
        found = safe_url(getattr(paper, name, None))  # fields the model may grow
        if found and (label, found) not in out:
            out.append((label, found))
    web = safe_url(paper.url)
    if web:
        out.append(("Web page", web))
    return out


def trail(uri: str, data: SiteData, links: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A page's trail (macros.html, trail) with each target made a URL from the page."""
    return [(label, url(uri, target, data.directory_urls)) for label, target in links]


def paper_item(
    paper: Paper, from_uri: str, data: SiteData, compact: bool = False, brief: bool = False
) -> Markup:
    """One paper as a list entry that stands on its own (overrides/papers/entry.html):
    citing ten papers takes no visit to ten pages. Compact: no tags, links or toggles;
    brief: venue, year and title alone."""
    # Every link in it is relative, and pages in one folder sit at the same depth: it is
    # written from a stand-in page there (no page's name starts with a dot), so a link to
    # one of the folder's own pages (a tag page's tags) is right from every one of them.
    if posixpath.basename(from_uri) != "index.md":
        from_uri = posixpath.join(posixpath.dirname(from_uri), ".entry.md")
    mode = "?brief" if brief else "?compact" if compact else ""
    cache_key = (paper.key, from_uri + mode)
    cached = data.entries.get(cache_key)
    if cached is None:
        cached = data.entries[cache_key] = _render_item(paper, from_uri, data, compact, brief)
    return Markup(cached)


def _render_item(paper: Paper, from_uri: str, data: SiteData, compact: bool, brief: bool) -> str:
    def to(target: str) -> str:
        return url(from_uri, target, data.directory_urls)

    return render(
        "entry.html",
        data.template_dir,
        p=paper,
        to=to,
        page=paper_uri(paper.key),
        folder=posixpath.dirname(from_uri),
        venue_name=data.venue_name(paper.venue),
        authors=authors_of(paper, data, to),
        book=book_html(paper, data.venues.get(paper.venue)),
        tags=[(t, to(tag_uri(t))) for t in paper.tags],
        links=paper_links(paper),
        compact=compact,
        brief=brief,
        has_bib=paper.key in data.bibtex,
    )
