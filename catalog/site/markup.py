"""HTML pieces every generated page shares: escaped text, links, headings, the trail,
a paper's authors, book and links, and a paper's entry in a list."""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable

from catalog.data.registry import Venue
from catalog.model import OTHERS, Paper
from catalog.site.links import (
    ARXIV_ABS,
    ARXIV_PDF,
    paper_uri,
    plain,
    safe_href,
    tag_uri,
    url,
)
from catalog.site.sitedata import SiteData, safe_url


def esc(text: str) -> str:
    """Plain text for HTML, quotes included (safe in attributes too)."""
    return html.escape(plain(text), quote=True)


def authors_html(
    paper: Paper, data: SiteData, to: Callable[[str], str], limit: int | None = None
) -> str:
    """The author list, each name a link to its person's page."""
    names = []
    for author, person in zip(paper.authors, data.people.of(paper), strict=True):
        names.append(f'<a href="{to(person.uri)}">{esc(author)}</a>' if person else esc(author))
    if limit is not None and len(names) > limit:
        return ", ".join(names[:limit]) + " et al."
    if paper.et_al:
        return ", ".join(names) + " and others"
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def book_html(paper: Paper, venue: Venue | None) -> str:
    """A chapter's book: 'In <em>Title</em>, edited by A and B, Publisher' ('' if none)."""
    return _book(paper, venue, esc, lambda t: f"<em>{esc(t)}</em>")


def book_text(paper: Paper, venue: Venue | None) -> str:
    """The same as plain text, for the All-papers page's data (rendered as text)."""
    return _book(paper, venue, plain, plain)


def _book(
    paper: Paper, venue: Venue | None, text: Callable[[str], str], title: Callable[[str], str]
) -> str:
    if not paper.booktitle:
        return ""
    out = f"In {title(paper.booktitle)}"
    editors = ["others" if e == OTHERS else text(e) for e in paper.editors]
    if editors:
        out += ", edited by " + (
            ", ".join(editors[:-1]) + " and " + editors[-1] if len(editors) > 1 else editors[0]
        )
    publisher = paper.publisher or (venue.publisher if venue else None)
    if publisher:
        out += f", {text(publisher)}"
    if paper.chapter:
        out += f", chapter {text(paper.chapter)}"
    return out


def h2(anchor: str, title: str, searchable: bool = True) -> str:
    """A section heading with its permalink, as Material writes one."""
    # Sections that only repeat other pages' text stay out of the search index.
    exclude = "" if searchable else " data-search-exclude"
    return (
        f'<h2 id="{anchor}"{exclude}>{title}<a class="headerlink" href="#{anchor}" '
        'title="Permanent link">&para;</a></h2>'
    )


_H2_RE = re.compile(r'<h2 id="([^"]+)"[^>]*>(.*?)<a class="headerlink"')


def toc_of(page_html: str) -> list[tuple[str, str]]:
    """(anchor, title) of each h2 of a page we rendered as HTML, for its table of contents."""
    return _H2_RE.findall(page_html)


def with_contents(out: list[str]) -> list[str]:
    """The page with its sections listed after the trail (out[1]), for narrow screens.

    Below 60em the theme shows a page's table of contents only inside the nav
    drawer, under the page's nav entry; generated pages have none, so there the
    reader would have no way to their sections. The list is hidden where the
    theme's own table of contents shows (extra.css).
    """
    sections = toc_of("".join(out))
    if len(sections) < 2:
        return out
    links = " · ".join(f'<a href="#{anchor}">{title}</a>' for anchor, title in sections)
    contents = (
        f'<nav class="pp-contents" aria-label="On this page" data-search-exclude>'
        f"On this page: {links}</nav>"
    )
    return [*out[:2], contents, *out[2:]]


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


def anchor(target: str, text: str, cls: str = "") -> str:
    """A link to an http(s) or site target (anything else is made harmless)."""
    attr = f' class="{cls}"' if cls else ""
    return f'<a href="{esc(safe_href(target))}"{attr}>{text}</a>'


def nav_line(uri: str, data: SiteData, trail: list[tuple[str, str]], extra: str = "") -> str:
    """Where a generated page sits (they are not in the nav): links up, and on."""
    parts = [
        f'<a href="{url(uri, target, data.directory_urls)}">{esc(label)}</a>'
        for label, target in trail
    ]
    return (
        f'<nav class="pp-trail" aria-label="Where this page is" data-search-exclude>'
        f"{' › '.join(parts)}{extra}</nav>"
    )


def paper_item(paper: Paper, from_uri: str, data: SiteData, compact: bool = False) -> str:
    """One paper as a list entry that stands on its own.

    Venue badge and year, the title linked to its page, authors, summary, tags,
    links, and toggles for the abstract and the BibTeX entry: citing ten papers
    takes no visit to ten pages.
    """
    # Every link in it is relative, and pages in one folder sit at the same depth.
    cache_key = (paper.key, posixpath.dirname(from_uri) + ("?compact" if compact else ""))
    cached = data.entries.get(cache_key)
    if cached is None:
        cached = data.entries[cache_key] = _render_item(paper, from_uri, data, compact)
    return cached


def _render_item(paper: Paper, from_uri: str, data: SiteData, compact: bool) -> str:
    def to(target: str) -> str:
        return url(from_uri, target, data.directory_urls)

    # A year's page does not repeat its year on every entry, nor a venue's its venue.
    folder = posixpath.dirname(from_uri)
    venue_name = data.venue_name(paper.venue)
    head = ""
    if folder != "venues":
        head += f'<span class="pp-venue" title="{esc(venue_name)}">{esc(paper.venue)}</span> '
    if folder != "years":
        head += f'<span class="pp-year">{paper.year}</span> '
    head += f'<a class="pp-title" href="{to(paper_uri(paper.key))}">{esc(paper.title)}</a>'

    out = [
        f'<li class="pp-entry">{head}',
        f'<div class="pp-authors">{authors_html(paper, data, to, 6)}</div>',
    ]
    book = book_html(paper, data.venues.get(paper.venue))
    if book:
        out.append(f'<div class="pp-book">{book}</div>')
    if paper.summary:
        out.append(f'<div class="pp-summary">{esc(paper.summary)}</div>')
    if compact:
        return "".join(out) + "</li>"
    meta = [f'<a class="pp-tag" href="{to(tag_uri(t))}">{esc(t)}</a>' for t in paper.tags]
    meta += [anchor(target, label, "pp-link") for label, target in paper_links(paper)]
    if meta:
        out.append(f'<div class="pp-meta">{" ".join(meta)}</div>')
    if paper.abstract:
        out.append(
            '<details class="pp-toggle"><summary>Abstract</summary>'
            f"<p>{esc(paper.abstract)}</p></details>"
        )
    if paper.key in data.bibtex:
        # Filled by papers.js from BIB_JS when opened; without scripts, a link to it.
        out.append(
            f'<details class="pp-toggle" data-bib="{esc(paper.key)}"><summary>BibTeX</summary>'
            f'<p><a href="{to(paper_uri(paper.key))}#cite">On the paper\'s page</a></p>'
            "</details>"
        )
    return "".join(out) + "</li>"
