"""Atom feeds of the papers added to the catalog: the whole catalog and each tag.

Written with feedgen, a maintained feed library (imported only by a site build).
Dates are the days papers entered the catalog (catalog.site.history).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from catalog.model import Paper
from catalog.paths import page_name
from catalog.site.links import log, paper_uri, plain, tag_uri, url
from catalog.site.sitedata import SiteData

FEED_DIR = "feeds"
ALL_FEED = f"{FEED_DIR}/all.xml"
ENTRIES = 50  # the latest additions a feed lists
# Feed and entry ids that stay the same wherever the site is published.
_ID = "urn:papers-catalog:"


# Characters XML 1.0 cannot hold (lxml refuses them): dropped from what a feed shows.
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _x(text: str) -> str:
    """Plain text an XML file can hold."""
    return _NOT_XML_RE.sub("", plain(text))


def tag_feed_uri(tag: str) -> str:
    return f"{FEED_DIR}/tag-{page_name(tag)}.xml"


def _when(text: str) -> datetime:
    """An ISO day or time as an aware datetime (a bare day is midnight UTC)."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def latest(papers: Sequence[Paper], data: SiteData, limit: int = ENTRIES) -> list[Paper]:
    """The papers most recently added (those with a known date), newest first."""
    dated = [p for p in papers if p.key in data.added]
    dated.sort(key=lambda p: (_when(data.added[p.key].when), p.year, -p.line), reverse=True)
    return dated[:limit]


def _link(data: SiteData, feed_uri: str, target: str) -> str:
    """A link from the feed: absolute where the site's address is known, else relative
    to the feed file (readers resolve it against the feed's own address)."""
    relative = url(feed_uri, target, data.directory_urls)
    if data.site_url:
        from urllib.parse import urljoin

        return urljoin(data.site_url.rstrip("/") + "/" + feed_uri, relative)
    return relative


def atom(papers: Sequence[Paper], data: SiteData, feed_uri: str, title: str, page: str) -> str:
    """An Atom feed of the latest additions among papers, as text."""
    from feedgen.feed import FeedGenerator

    chosen = latest(papers, data)
    feed = FeedGenerator()
    feed.id(_ID + feed_uri)
    feed.title(_x(title))
    feed.link(href=_link(data, feed_uri, page), rel="alternate")
    feed.link(href=_link(data, feed_uri, feed_uri), rel="self")
    feed.subtitle(
        "Papers as they enter the catalog; the date is the paper's 'added' field, or "
        "where that is missing or shared by a bulk import, its first commit in git."
    )
    stamps = [_when(data.added[p.key].when) for p in chosen]
    feed.updated(max(stamps) if stamps else datetime(1970, 1, 1, tzinfo=UTC))
    for paper, stamp in zip(reversed(chosen), reversed(stamps), strict=True):
        entry = feed.add_entry()
        entry.id(_ID + "paper:" + paper.key)
        entry.title(_x(paper.title))
        entry.link(href=_link(data, feed_uri, paper_uri(paper.key)))
        entry.updated(stamp)
        entry.published(stamp)
        for name in paper.authors:
            entry.author(name=_x(name))
        venue = data.venue_name(paper.venue)
        summary = f"{venue} {paper.year}." + (f" {paper.summary}" if paper.summary else "")
        entry.summary(_x(summary))
        for tag in paper.tags:
            entry.category(term=_x(tag))
    return feed.atom_str(pretty=True).decode("utf-8")


def feeds(data: SiteData, by_tag: dict[str, list[Paper]]) -> dict[str, str]:
    """Every feed: {path in the site: Atom text}."""
    if not data.site_url:
        # Not a warning: a site built to be opened from a folder has no address, and
        # --strict stops at warnings. Relative links are valid Atom, but some readers
        # resolve them against the page that named the feed rather than the feed.
        log.info(
            "feeds: links are relative to each feed file, as the site's address is not "
            "known; set site_url in mkdocs.yml (or PAPERS_SITE_URL) for absolute links"
        )
    out = {ALL_FEED: atom(data.papers, data, ALL_FEED, "papers: latest additions", "index.md")}
    for tag, papers in by_tag.items():
        uri = tag_feed_uri(tag)
        out[uri] = atom(papers, data, uri, f"papers: latest additions tagged {tag}", tag_uri(tag))
    return out
