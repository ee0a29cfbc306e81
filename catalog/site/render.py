"""The site's generated pages, each rendered by a pure function to a string."""

from __future__ import annotations

import html
import json
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from catalog.data.notes import Link, Note
from catalog.data.registry import Venue
from catalog.model import OTHERS, Paper
from catalog.site.feed import feeds, tag_feed_uri
from catalog.site.indexes import (
    authors_index,
    notes_index,
    tags_index,
    venues_index,
    years_index,
)
from catalog.site.links import (
    ALL_URI,
    ARXIV_ABS,
    ARXIV_PDF,
    AUTHORS_INDEX,
    BIB_JS,
    CHART_DIR,
    DATA_JS,
    HEADING_RE,
    STEM_JS,
    bib_uri,
    front,
    href,
    md,
    note_uri,
    paper_uri,
    plain,
    plural,
    safe_href,
    tag_uri,
    url,
    year_uri,
)
from catalog.site.people import Person
from catalog.site.sitedata import SiteData, by_year, safe_url, sanitize

# ---------------------------------------------------------------- renderers


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


def _e(text: str) -> str:
    """Plain text for HTML, quotes included (safe in attributes too)."""
    return html.escape(plain(text), quote=True)


def _authors_html(
    paper: Paper, data: SiteData, to: Callable[[str], str], limit: int | None = None
) -> str:
    """The author list, each name a link to its person's page."""
    names = []
    for author in paper.authors:
        person = data.people.get(author)
        names.append(f'<a href="{to(person.uri)}">{_e(author)}</a>' if person else _e(author))
    if limit is not None and len(names) > limit:
        return ", ".join(names[:limit]) + " et al."
    if paper.et_al:
        return ", ".join(names) + " and others"
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _book_html(paper: Paper, venue: Venue | None) -> str:
    """A chapter's book: 'In <em>Title</em>, edited by A and B, Publisher' ('' if none)."""
    return _book(paper, venue, _e, lambda t: f"<em>{_e(t)}</em>")


def _book_text(paper: Paper, venue: Venue | None) -> str:
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


def _h2(anchor: str, title: str, searchable: bool = True) -> str:
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


def _with_contents(out: list[str]) -> list[str]:
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


def _bibtex_html(entry: str) -> str:
    """A BibTeX entry as a code block that Material gives a copy button.

    Not syntax-highlighted: colouring costs more, in highlighting and in indexing
    the markup for search, than all the rest of a paper page.
    """
    code = html.escape(entry.strip(), quote=False)
    return f'<div class="highlight"><pre><code class="language-bibtex">{code}\n</code></pre></div>'


def _links(paper: Paper) -> list[tuple[str, str]]:
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


def _a(target: str, text: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f'<a href="{_e(safe_href(target))}"{attr}>{text}</a>'


def paper_page(paper: Paper, data: SiteData) -> str:
    """The page of one paper: its title in front matter, then its body as HTML.

    Paper pages are by far the most numerous, and Python-Markdown would spend
    more time parsing them than mkdocs spends on everything else, so they (and
    the year, venue and tag lists of them) are written as HTML, which the hook
    hands to mkdocs in place of Markdown (see is_html_page).

    The summary comes first, so it is what a search result shows; the facts
    after it are kept out of the search index.
    """
    uri = paper_uri(paper.key)

    def to(target: str) -> str:
        return url(uri, target, data.directory_urls)

    venue = data.venues.get(paper.venue)
    venue_text = f'<a href="{to(data.venue_uri(paper.venue))}">{_e(paper.venue)}</a>'
    if venue and venue.name != paper.venue:
        venue_text += f": {_e(venue.name)}"
    venue_text += f', <a href="{to(year_uri(paper.year))}">{paper.year}</a>'
    if paper.pages:
        venue_text += f", pages {_e(paper.pages)}"
    facts = [("Venue", venue_text)]
    book = _book_html(paper, venue)
    if book:
        facts.append(("Book", book))
    links = [
        _a(target, label if label != "DOI" else f"DOI {_e(paper.doi or '')}")
        for label, target in _links(paper)
    ]
    if links:
        facts.append(("Links", " · ".join(links)))
    if paper.tags:
        facts.append(
            ("Tags", ", ".join(f'<a href="{to(tag_uri(t))}">{_e(t)}</a>' for t in paper.tags))
        )
    if data.show_status:
        status = _e(paper.status.replace("-", " "))  # unknown values too: check only warns
        if paper.read_on:
            status += f" (read on {_e(paper.read_on)})"
        facts.append(("Reading status", status))
    facts.append(("Key", f"<code>{_e(paper.key)}</code>"))
    sources = [s for s in (getattr(paper, "sources", None) or []) if isinstance(s, str)]
    if sources:  # where the metadata came from (a field the model may grow)
        shown = [_a(s, _e(_source_label(s))) if safe_url(s) else _e(s) for s in sources]
        facts.append(("Metadata from", ", ".join(shown)))
    # The h1 first: Material's search makes the page's one entry of it and what follows
    # (anything before it would make a second entry, and the title would show twice).
    out = [
        f'<h1 id="title">{_e(paper.title)}</h1>',
        _nav_line(uri, data, [("All papers", ALL_URI)]),
    ]
    # Venue and year lead the page's searchable text, in the summary's paragraph (a
    # search result previews one): a result shows them, and "EuroSys 2022" finds it.
    where = (
        f'<span class="pp-where"><a href="{to(data.venue_uri(paper.venue))}">{_e(paper.venue)}</a> '
        f'<a href="{to(year_uri(paper.year))}">{paper.year}</a></span>'
    )
    out.append(f'<p class="pp-summary">{where} {_e(paper.summary or "")}</p>')
    out.append(f'<p class="pp-authors">{_authors_html(paper, data, to)}</p>')
    out.append('<ul class="pp-facts" data-search-exclude>')
    out += [f"<li><strong>{name}:</strong> {value}</li>" for name, value in facts]
    out.append("</ul>")
    if paper.abstract:
        out += [_h2("abstract", "Abstract"), f"<p>{_e(paper.abstract)}</p>"]
    reading = data.readings.get(paper.key)
    if reading and reading.text.strip():
        # Its own sections start at "##" (the template says so): they nest under ours.
        text = _demote(link_papers(reading.text.strip(), uri, data, final_urls=True), 1)
        out += [_h2("reading-note", "Reading note"), sanitize(data.markdown(text))]
    bib = data.bibtex.get(paper.key)
    if bib:
        out += [_h2("cite", "Cite", searchable=False), _bibtex_html(bib)]
    out.append(_h2("related-papers", "Related papers", searchable=False))
    related = [data.by_key[k] for k, _ in data.related.get(paper.key, []) if k in data.by_key]
    if related:
        # Compact (no links or toggles): every paper page carries five, and the year,
        # venue and tag lists and All papers carry the full entries.
        out += [
            '<ul class="pp-list pp-related" data-search-exclude>',
            *(paper_item(p, uri, data, compact=True) for p in related),
            "</ul>",
        ]
    else:
        out.append("<p>No paper in the catalog is close enough in wording.</p>")
    out.append(_h2("discussed-in", "Discussed in", searchable=False))
    notes = data.backlinks.get(paper.key, [])
    if notes:
        out.append("<ul>")
        out += [f'<li><a href="{to(note_uri(n))}">{_e(n.title)}</a></li>' for n in notes]
        out.append("</ul>")
    else:
        out.append("<p>No note discusses this paper yet.</p>")
    # Venue and year as the search entry's tags: "EuroSys 2022" ranks its papers first.
    return front(
        paper.title,
        _with_contents(out),
        (paper.venue, str(paper.year)),
        citation_meta(paper, data),
    )


# The venue kinds whose papers are cited as in a conference's proceedings.
_PROCEEDINGS = frozenset({"conference", "workshop", "symposium"})


def citation_meta(paper: Paper, data: SiteData) -> dict[str, str | list[str]]:
    """The page's description (its summary) and Highwire Press citation_* values, which
    overrides/main.html writes as <meta> tags for Zotero and Google Scholar."""
    venue = data.venues.get(paper.venue)
    out: dict[str, str | list[str]] = {}
    if paper.summary:  # printed unescaped by the theme: escaped here
        out["description"] = html.escape(plain(paper.summary), quote=True)
    out["citation_title"] = plain(paper.title)
    out["citation_author"] = [plain(a) for a in paper.authors if a != OTHERS]
    out["citation_publication_date"] = str(paper.year)
    name = plain(venue.name if venue else paper.venue)
    if venue and venue.kind in _PROCEEDINGS:
        out["citation_conference_title"] = name
    elif venue and venue.kind == "journal":
        out["citation_journal_title"] = name
    if venue and venue.publisher:
        out["citation_publisher"] = plain(venue.publisher)
    first, _, last = (paper.pages or "").replace("--", "-").partition("-")
    if first.strip():
        out["citation_firstpage"] = first.strip()
        if last.strip():
            out["citation_lastpage"] = last.strip()
    if paper.doi:
        out["citation_doi"] = paper.doi
    if paper.arxiv:
        out["citation_arxiv_id"] = paper.arxiv
    pdf = next((target for label, target in _links(paper) if label == "PDF"), None)
    if pdf:
        out["citation_pdf_url"] = pdf
    return out


def _source_label(link: str) -> str:
    """What a source is, as its address says: host and path ('github.com/org/repo',
    'api.crossref.org/works/10.1/x'), not the bare host, which says little."""
    from urllib.parse import urlsplit

    parts = urlsplit(link)
    label = (parts.hostname or "").removeprefix("www.") + parts.path.rstrip("/")
    label = label or link
    return label if len(label) <= 60 else label[:59] + "…"


def _nav_line(uri: str, data: SiteData, trail: list[tuple[str, str]], extra: str = "") -> str:
    """Where a generated page sits (they are not in the nav): links up, and on."""
    parts = [
        f'<a href="{url(uri, target, data.directory_urls)}">{_e(label)}</a>'
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
        head += f'<span class="pp-venue" title="{_e(venue_name)}">{_e(paper.venue)}</span> '
    if folder != "years":
        head += f'<span class="pp-year">{paper.year}</span> '
    head += f'<a class="pp-title" href="{to(paper_uri(paper.key))}">{_e(paper.title)}</a>'

    out = [
        f'<li class="pp-entry">{head}',
        f'<div class="pp-authors">{_authors_html(paper, data, to, 6)}</div>',
    ]
    book = _book_html(paper, data.venues.get(paper.venue))
    if book:
        out.append(f'<div class="pp-book">{book}</div>')
    if paper.summary:
        out.append(f'<div class="pp-summary">{_e(paper.summary)}</div>')
    if compact:
        return "".join(out) + "</li>"
    meta = [f'<a class="pp-tag" href="{to(tag_uri(t))}">{_e(t)}</a>' for t in paper.tags]
    meta += [_a(target, label, "pp-link") for label, target in _links(paper)]
    if meta:
        out.append(f'<div class="pp-meta">{" ".join(meta)}</div>')
    if paper.abstract:
        out.append(
            '<details class="pp-toggle"><summary>Abstract</summary>'
            f"<p>{_e(paper.abstract)}</p></details>"
        )
    if paper.key in data.bibtex:
        # Filled by papers.js from BIB_JS when opened; without scripts, a link to it.
        out.append(
            f'<details class="pp-toggle" data-bib="{_e(paper.key)}"><summary>BibTeX</summary>'
            f'<p><a href="{to(paper_uri(paper.key))}#cite">On the paper\'s page</a></p>'
            "</details>"
        )
    return "".join(out) + "</li>"


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


def _list(items: list[str]) -> list[str]:
    return ["<ul>", *items, "</ul>"]


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
        _nav_line(uri, data, [("All papers", ALL_URI), ("Years", "years/index.md")], steps),
        f"<p>{plural(len(papers), 'paper')} at {plural(len(venues), 'venue')}: "
        + ", ".join(
            f'<a href="#venue-{data.venue_stems[v]}">{_e(v)}</a> {n}'
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
            anchor = f'id="venue-{data.venue_stems[p.venue]}"'
            item = item.replace('<li class="pp-entry">', f'<li class="pp-entry" {anchor}>', 1)
        out.append(item)
    out.append("</ul>")
    return front(f"Papers of {year}", out)


def venue_page(venue: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers at one venue, by year."""
    uri = data.venue_uri(venue)
    registry = data.venues.get(venue)
    out = [
        f"<h1>{_e(venue)}</h1>",
        _nav_line(uri, data, [("All papers", ALL_URI), ("Venues", "venues/index.md")]),
    ]
    if registry:
        publisher = f", published by {_e(registry.publisher)}" if registry.publisher else ""
        out.append(f"<p>{_e(registry.name)}: {_e(registry.kind)}{publisher}.</p>")
    out.append(f"<p>{plural(len(papers), 'paper')} in the catalog.</p>")
    out.append(_bib_link(uri, papers, data))
    for year, group in by_year(papers).items():
        out.append(_h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    return front(venue, _with_contents(out))


def tag_page(tag: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers with one tag, by year."""
    uri = tag_uri(tag)
    out = [
        f"<h1>Tag: {_e(tag)}</h1>",
        _nav_line(uri, data, [("All papers", ALL_URI), ("Tags", "tags/index.md")]),
    ]
    if data.vocabulary.get(tag):
        out.append(f"<p>{_e(data.vocabulary[tag])}.</p>")
    out.append(f"<p>{plural(len(papers), 'paper')}.</p>")
    out.append(_bib_link(uri, papers, data))
    feed = url(uri, tag_feed_uri(tag), data.directory_urls)
    out.append(
        f'<p class="pp-tools" data-search-exclude><a href="{feed}" type="application/atom+xml">'
        f"Subscribe to new papers tagged {_e(tag)}</a> (Atom feed)</p>"
    )
    for year, group in by_year(papers).items():
        out.append(_h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    feed_meta: dict[str, str | list[str]] = {
        "feed": tag_feed_uri(tag),
        "feed_title": f"papers: latest additions tagged {plain(tag)}",
    }
    return front(f"Tag: {tag}", _with_contents(out), meta=feed_meta)


def author_page(person: Person, data: SiteData) -> str:
    """One author's papers in the catalog, by year, with the people they wrote with."""
    uri = person.uri

    def to(target: str) -> str:
        return url(uri, target, data.directory_urls)

    out = [
        f"<h1>{_e(person.name)}</h1>",
        _nav_line(uri, data, [("All papers", ALL_URI), ("Authors", AUTHORS_INDEX)]),
        f"<p>{plural(len(person.papers), 'paper')} in the catalog.</p>",
    ]
    others = [s for s in person.spellings if s != person.name]
    if others:
        out.append(f"<p>Also written as {', '.join(_e(s) for s in others)}.</p>")
    out.append(_bib_link(uri, person.papers, data))
    coauthors = person.coauthors(data.people)
    if coauthors:
        out.append(_h2("coauthors", "Co-authors", searchable=False))
        out.append(
            '<p class="pp-coauthors">'
            + ", ".join(f'<a href="{to(p.uri)}">{_e(p.name)}</a> ({n})' for p, n in coauthors)
            + "</p>"
        )
    for year, group in by_year(person.papers).items():
        out.append(_h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    # Out of the search index: its text is its papers', which their own pages hold, and
    # indexing a thousand such pages cost more than all the rest of the search index.
    return front(person.name, _with_contents(out), searchable=False)


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
                "e": p.et_al,
                "y": p.year,
                "v": p.venue,
                "n": data.venue_name(p.venue),
                "g": p.tags,
                "s": plain(p.summary or ""),
                "b": plain(p.abstract or ""),
                "l": [[label, target] for label, target in _links(p)],
                **({"c": _book_text(p, data.venues.get(p.venue))} if p.booktitle else {}),
            }
        )
    tags = {t: url(ALL_URI, tag_uri(t), data.directory_urls) for p in data.papers for t in p.tags}
    people = {
        plain(name): url(ALL_URI, person.uri, data.directory_urls)
        for name, person in data.people.items()
    }
    value = {"papers": records, "tags": tags, "authors": people}
    return f"window.PAPERS_DATA={_js_literal(value)};\n"


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
        out.append(f"<p>Missing a paper? {_a(data.suggest_url, 'Suggest one')}.</p>")
    # The filters' room is kept from the start, so the list does not jump when they come.
    out.append("<script>document.documentElement.classList.add('pp-js')</script>")
    out.append('<div id="pp-filters" data-search-exclude></div>')
    out.append('<ul class="pp-list pp-plain" id="pp-all" data-search-exclude>')
    for p in sorted(data.papers, key=lambda p: (-p.year, p.venue.lower(), p.title.lower())):
        out.append(
            f'<li><span class="pp-venue">{_e(p.venue)}</span> '
            f'<span class="pp-year">{p.year}</span> '
            f'<a class="pp-title" href="{url(uri, paper_uri(p.key), data.directory_urls)}">'
            f"{_e(p.title)}</a></li>"
        )
    out.append("</ul>")
    out.append(f'<script src="{url(uri, STEM_JS, data.directory_urls)}"></script>')
    out.append(f'<script src="{url(uri, DATA_JS, data.directory_urls)}"></script>')
    return front("All papers", out)


def is_html_page(uri: str) -> bool:
    """Whether a generated page is written as HTML: papers and the per-year/venue/tag lists."""
    return uri == ALL_URI or (
        uri.startswith(("papers/", "years/", "venues/", "tags/", "authors/"))
        and (not uri.endswith("/index.md"))
    )


def generate(data: SiteData) -> dict[str, str]:
    """Every generated page and chart: {path in the site: Markdown or SVG text}."""
    pages: dict[str, str] = {}
    for paper in data.papers:
        pages[paper_uri(paper.key)] = paper_page(paper, data)
    lists: dict[str, list[Paper]] = {}  # each list page's papers, newest first
    for year, group in by_year(data.papers).items():
        pages[year_uri(year)] = year_page(year, group, data)
        lists[year_uri(year)] = group
    by_venue: dict[str, list[Paper]] = {}
    by_tag: dict[str, list[Paper]] = {}
    for paper in data.papers:
        by_venue.setdefault(paper.venue, []).append(paper)
        for tag in dict.fromkeys(paper.tags):
            by_tag.setdefault(tag, []).append(paper)
    for venue, group in by_venue.items():
        pages[data.venue_uri(venue)] = venue_page(venue, group, data)
        lists[data.venue_uri(venue)] = group
    for tag, group in by_tag.items():
        pages[tag_uri(tag)] = tag_page(tag, group, data)
        lists[tag_uri(tag)] = group
    pages.update(feeds(data, by_tag))
    persons = {id(p): p for p in data.people.values()}.values()
    for person in persons:
        pages[person.uri] = author_page(person, data)
        lists[person.uri] = person.papers
    for uri, group in lists.items():
        pages[bib_uri(uri)] = bibtex_of(group, data)
    pages[ALL_URI] = all_papers_page(data)
    pages[DATA_JS] = papers_data(data)
    pages[BIB_JS] = bib_data(data)
    pages["years/index.md"] = years_index(data)
    pages["venues/index.md"] = venues_index(data)
    pages["tags/index.md"] = tags_index(data)
    pages["notes/index.md"] = notes_index(data)
    pages[AUTHORS_INDEX] = authors_index(data)
    for chart in data.charts:
        pages[f"{CHART_DIR}/{chart.name}.svg"] = chart_file(chart.svg, data.site_url)
    data.entries.clear()  # a copy of every list entry, needed no more
    return pages


_SVG_LINK_RE = re.compile(r'xlink:href="(?!#|[a-z][a-z0-9+.-]*:)([^"]*)"')


def chart_file(svg: str, site_url: str | None) -> str:
    """A chart as a file of its own in CHART_DIR: its links, written for the home page,
    made to lead from there (to the published site when its address is known)."""
    base = site_url.rstrip("/") + "/" if site_url else "../../"
    return _SVG_LINK_RE.sub(lambda m: f'xlink:href="{html.escape(base)}{m.group(1)}"', svg)
