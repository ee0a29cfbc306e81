"""The index pages of the site: years, venues, tags and notes, as Markdown tables."""

from __future__ import annotations

import re
from collections import Counter

from catalog.data.notes import Link, Note
from catalog.site.links import (
    LIST_BOOST,
    front,
    href,
    md,
    note_uri,
    plural,
    tag_uri,
    url,
    year_uri,
)
from catalog.site.sitedata import SiteData, by_year
from catalog.site.templates import render


def _table(
    uri: str,
    title: str,
    columns: list[tuple[str, bool]],
    rows: list[list[object]],
    data: SiteData,
    empty: str = "No papers yet.",
) -> str:
    """An index page (index-table.html): columns are (name, numeric)."""
    body = render(
        "index-table.html", data.template_dir, title=title, columns=columns, rows=rows, empty=empty
    )
    return front(title, [body], boost=LIST_BOOST)


def years_index(data: SiteData) -> str:
    """Every year with its paper and venue counts."""
    uri = "years/index.md"
    rows: list[list[object]] = [
        [
            (str(year), url(uri, year_uri(year), data.directory_urls)),
            len(group),
            len({p.venue for p in group}),
        ]
        for year, group in by_year(data.papers).items()
    ]
    return _table(
        uri, "Papers by year", [("Year", False), ("Papers", True), ("Venues", True)], rows, data
    )


def venues_index(data: SiteData) -> str:
    """Every venue with papers: its paper count (first, so a phone shows it) and name."""
    uri = "venues/index.md"
    counts = Counter(p.venue for p in data.papers)
    rows: list[list[object]] = []
    for short in sorted(counts, key=str.lower):
        venue = data.venues.get(short)
        rows.append(
            [
                (short, url(uri, data.venue_uri(short), data.directory_urls)),
                counts[short],
                venue.name if venue else "",
                venue.kind if venue else "",
            ]
        )
    columns = [("Venue", False), ("Papers", True), ("Full name", False), ("Kind", False)]
    return _table(uri, "Papers by venue", columns, rows, data)


def tags_index(data: SiteData) -> str:
    """Every tag in use (and in the vocabulary) with its description and count."""
    uri = "tags/index.md"
    counts = Counter(t for p in data.papers for t in dict.fromkeys(p.tags))
    names = sorted(set(counts) | set(data.vocabulary), key=lambda t: (-counts[t], t))
    rows: list[list[object]] = [
        [
            (tag, url(uri, tag_uri(tag), data.directory_urls) if counts[tag] else None),
            counts[tag],
            data.vocabulary.get(tag, ""),
        ]
        for tag in names
    ]
    columns = [("Tag", False), ("Papers", True), ("Description", False)]
    return _table(uri, "Papers by tag", columns, rows, data)


def notes_index(data: SiteData) -> str:
    """The hand-written notes, each with its opening and how many papers it discusses
    (the papers themselves are listed on the note's own page)."""
    uri = "notes/index.md"
    lines = [
        "# Notes",
        "",
        "Hand-written notes on topics of the catalog. Each paper a note mentions "
        "links to its page, and the paper's page links back under *Discussed in*.",
    ]
    if not data.notes:
        lines += ["", "No notes yet."]
    for note in data.notes:
        known = [k for k in note.keys if k in data.by_key]
        lines += [
            "",
            f"## [{md(note.title)}]({href(uri, note_uri(note))})",
            "",
            f"{note_opening(note, data)} *Discusses {plural(len(known), 'paper')}.*",
        ]
    return "\n".join(lines) + "\n"


_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


# A Markdown link or image ('[text](target "title")'), read as its text.
_MD_LINK_RE = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def note_opening(note: Note, data: SiteData, sentences: int = 2) -> str:
    """The first sentences of a note's first paragraph as text (its links and [[key]]
    links read as their words), made safe as Markdown."""
    from catalog.data.notes import replace_links

    text = note.path.read_text(encoding="utf-8") if note.path.is_file() else ""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text)]
    first = next((p for p in paragraphs if p and not p.startswith(("#", "<", "```"))), "")

    def label(link: Link) -> str:
        paper = data.by_key.get(link.key)
        return link.text or (paper.short_title if paper else link.key)

    words = _MD_LINK_RE.sub(r"\1", replace_links(first, label))
    plain_text = " ".join(words.replace("`", "").split())
    return md(" ".join(_SENTENCE_END_RE.split(plain_text)[:sentences]))
