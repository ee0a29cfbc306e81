"""The static site: pages generated from the catalog at build time, as a mkdocs hook.

mkdocs.yml names this file under `hooks:`. The renderers are pure: each returns
one page as a string (Markdown, or HTML for the many paper pages) or the SVG of
one chart, and `generate` collects them as {uri: content}. The hook functions
at the bottom hand those to mkdocs as in-memory files, so nothing generated is
ever written into site/. `build` and `serve` run mkdocs for `papers site`.
"""

from __future__ import annotations

import contextlib
import html
import json
import logging
import os
import posixpath
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mkdocs.plugins import event_priority

from catalog.data.notes import Link, Note
from catalog.data.registry import Venue
from catalog.errors import CatalogError, Problem
from catalog.model import Paper
from catalog.paths import CATALOG_ENV, DB_ENV, Paths
from catalog.site.charts import Chart

LOG_NAME = "mkdocs.plugins.papers"  # under "mkdocs", so --strict counts our warnings
log = logging.getLogger(LOG_NAME)

# Pages listed in the nav; every other generated page is reachable from them.
ALL_URI = "papers/index.md"
NAV_PAGES = (ALL_URI, "years/index.md", "venues/index.md", "tags/index.md", "notes/index.md")
CHART_DIR = "assets/charts"
# Every paper's entry data for the All-papers page's filters, as a script (not JSON
# fetched at run time, which browsers refuse to pages opened from file://).
DATA_JS = "assets/papers-data.js"
ARXIV_ABS = "https://arxiv.org/abs/"
ARXIV_PDF = "https://arxiv.org/pdf/"
LATEST = 10
# Markers in the hand-written home page (site/index.md) that the hook fills in.
MARKERS = ("counts", "charts", "latest", "notes")
_MARKER_RE = re.compile(r"<!--\s*papers:(\w+)\s*-->")
_SLUG_RE = re.compile(r"[^a-z0-9_-]+")
_LATEX_SPECIAL_RE = re.compile(r"(?<!\\)([&%#])")
# Python-Markdown's backslash-escapable characters that could start markup inline.
_MD_ESCAPE_RE = re.compile(r"([\\`*_{}\[\]()#+!|~])")
_HEADING_RE = re.compile(r"^(#{1,4})(?=\s)")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class SiteError(CatalogError):
    """The site could not be built."""


# ---------------------------------------------------------------- text and links


def plain(text: str) -> str:
    """Text as plain Unicode: LaTeX braces and escapes ('{GPU}', '\\&', '\\"u') resolved."""
    if "\\" not in text and "{" not in text:
        return text
    from pylatexenc.latex2text import LatexNodes2Text

    # A bare & % or # is literal text here, not LaTeX syntax.
    return LatexNodes2Text().latex_to_text(_LATEX_SPECIAL_RE.sub(r"\\\1", text)).strip()


def md(text: str) -> str:
    """Plain text made safe inside Markdown: HTML escaped, markup characters escaped."""
    escaped = html.escape(plain(text), quote=False)
    return _MD_ESCAPE_RE.sub(r"\\\1", escaped).replace("\n", " ")


def slug(name: str) -> str:
    """A file-name-safe, lower-case form of a key, venue or tag."""
    return _SLUG_RE.sub("-", name.lower()).strip("-") or "-"


def paper_uri(key: str) -> str:
    return f"papers/{slug(key)}.md"


def year_uri(year: int) -> str:
    return f"years/{year}.md"


def venue_uri(venue: str) -> str:
    return f"venues/{slug(venue)}.md"


def tag_uri(tag: str) -> str:
    return f"tags/{slug(tag)}.md"


def note_uri(note: Note) -> str:
    return f"notes/{note.path.name}"


def href(from_uri: str, to_uri: str) -> str:
    """A relative link from one page's source path to another's (what mkdocs validates)."""
    return posixpath.relpath(to_uri, posixpath.dirname(from_uri) or ".")


def _url(url: str) -> str:
    """An external URL safe inside a Markdown link target."""
    return quote(url, safe=":/?#[]@!$&'*+,;=%~-._")


def front(title: str, body: list[str]) -> str:
    """A page: its title in front matter, then its Markdown lines.

    mkdocs would take the title from the first heading and Material would print
    it into <title> unescaped ('|striptags' turns &lt; back into <); a title in
    the page's meta is printed as given, so we give it HTML-escaped.
    """
    escaped = html.escape(plain(title), quote=False)
    # JSON is YAML, but for the characters YAML folds as line breaks (NEL, U+2028/9) or
    # refuses (other controls, BOM): written as escapes, both read the same title.
    value = _YAML_UNSAFE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                                json.dumps(escaped, ensure_ascii=False))
    return f"---\ntitle: {value}\n---\n\n" + "\n".join(body) + "\n"


_YAML_UNSAFE_RE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe"
                             "\uff00-\ufffd\U00010000-\U0010ffff]")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- the data of one build


@dataclass
class Reading:
    """A paper's own reading note (data/readings/KEY.md)."""

    path: Path
    text: str


@dataclass
class SiteData:
    """Everything the renderers need, loaded once per build."""

    papers: list[Paper]  # newest year first
    venues: dict[str, Venue]
    vocabulary: dict[str, str]
    notes: list[Note] = field(default_factory=list)
    readings: dict[str, Reading] = field(default_factory=dict)
    related: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    bibtex: dict[str, str] = field(default_factory=dict)
    charts: list[Chart] = field(default_factory=list)
    directory_urls: bool = True  # mkdocs's use_directory_urls, for URLs we write ourselves
    show_status: bool = False  # reading status is the curator's: shown only if asked for
    suggest_url: str | None = None  # where a reader proposes a paper (http(s) only)
    # List entries already rendered, by (key, folder of the page showing it): a paper
    # appears in about ten lists, and entries differ only by the folder of the page.
    entries: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)
    markdown: Callable[[str], str] = field(default=lambda text: _markdown(text))

    @cached_property
    def by_key(self) -> dict[str, Paper]:
        return {p.key: p for p in self.papers}

    @cached_property
    def backlinks(self) -> dict[str, list[Note]]:
        from catalog.data.notes import backlinks

        return backlinks(self.notes)

    def venue_name(self, short: str) -> str:
        venue = self.venues.get(short)
        return venue.name if venue else short


def _markdown(text: str) -> str:
    """Markdown to HTML with the basic extensions; the hook uses mkdocs's own settings."""
    import markdown

    return markdown.markdown(text, extensions=["tables", "fenced_code", "attr_list"])


# What a reading note's HTML may keep: Markdown's own output, no script, style, form,
# event handler or link of another scheme than these.
_NOTE_ATTRIBUTES = {"*": {"id", "class", "title", "lang"}, "a": {"href"},
                    "img": {"src", "alt", "width", "height"}, "td": {"style", "colspan"},
                    "th": {"style", "colspan"}, "ol": {"start"}}
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def sanitize(fragment: str) -> str:
    """HTML written by a user (a reading note) made inert: a well-kept sanitizer (nh3).

    Reading notes are Markdown, and Markdown passes raw HTML through; a title
    pasted into the note's template once ended its HTML comment early and the
    <script> after it ran on the page. Whatever the note holds, only inert markup
    is kept: scripts go with their text, handlers and other URL schemes go.
    """
    import nh3

    return nh3.clean(fragment, attributes=_NOTE_ATTRIBUTES, url_schemes=set(SAFE_SCHEMES),
                     filter_style_properties={"text-align"}, link_rel=None,
                     strip_comments=True)


def safe_url(value: str | None) -> str | None:
    """An http(s) URL from the data, else None: never a javascript: or data: link."""
    from catalog.model import is_http_url

    return value if value and is_http_url(value.strip()) else None


def load(paths: Paths, notes: list[Note] | None = None, with_charts: bool = True,
         timings: dict[str, float] | None = None,
         directory_urls: bool = True) -> tuple[SiteData, list[Problem]]:
    """The site's data from the catalog's index, registries, notes and reading notes."""
    from catalog.data.notes import load_notes
    from catalog.data.registry import load_tags, load_venues
    from catalog.index import database, query
    from catalog.index.related import related_all

    timings = {} if timings is None else timings
    started = time.perf_counter()
    conn = database.connect(paths)
    try:
        papers = query.all_papers(conn)
    finally:
        conn.close()
    data = SiteData(papers, load_venues(paths.venues), load_tags(paths.tags),
                    load_notes(paths) if notes is None else notes, _readings(paths, papers))
    data.directory_urls = directory_urls
    timings["load"] = time.perf_counter() - started
    started = time.perf_counter()
    data.related = related_all(papers)
    timings["related"] = time.perf_counter() - started
    started = time.perf_counter()
    data.bibtex, problems = _bibtex(papers, data.venues, paths)
    timings["bibtex"] = time.perf_counter() - started
    if with_charts:
        from catalog.site.charts import render_all

        started = time.perf_counter()
        data.charts = render_all(papers, partial(_chart_link, directory_urls))
        timings["charts"] = time.perf_counter() - started
    return data, problems + link_problems(data, paths)


def _chart_link(directory_urls: bool, kind: str, name: str) -> str:
    """Where a chart's bar or label leads, from the home page that shows the chart."""
    target = {"year": lambda: year_uri(int(name)), "tag": lambda: tag_uri(name),
              "venue": lambda: venue_uri(name)}[kind]()
    return url("index.md", target, directory_urls)


def _readings(paths: Paths, papers: Sequence[Paper]) -> dict[str, Reading]:
    folder = paths.readings
    if not folder.is_dir():
        return {}
    keys = {p.key for p in papers}
    out = {}
    for path in sorted(folder.glob("*.md")):
        if path.stem in keys:
            out[path.stem] = Reading(path, path.read_text(encoding="utf-8"))
    return out


def _bibtex(papers: Sequence[Paper], venues: dict[str, Venue],
            paths: Paths) -> tuple[dict[str, str], list[Problem]]:
    """Each paper's BibTeX entry, exactly as `papers export` writes it."""
    from catalog.bib.bibtex import entry, load_protected_terms

    protected = load_protected_terms(paths.terms)
    out, problems = {}, []
    for paper in papers:
        try:
            out[paper.key] = entry(paper, venues, protected=protected)
        except CatalogError as err:  # one bad entry must not hide the rest of the site
            problems.append(Problem(paths.display(), paper.line, paper.key,
                                    f"no BibTeX entry: {err}"))
    return out, problems


def link_problems(data: SiteData, paths: Paths) -> list[Problem]:
    """A problem for each [[key]] in a note or reading note that names no paper."""
    from catalog.data.notes import find_links
    from catalog.hints import hint_for

    keys = data.by_key.keys()
    sources = [(n.path, n.links) for n in data.notes]
    sources += [(r.path, find_links(r.text)) for r in data.readings.values()]
    problems = []
    for path, links in sources:
        for link in links:
            if link.key not in keys:
                hint = hint_for(link.key, keys) or "add the paper to the catalog or fix the key"
                problems.append(Problem(paths.display(path), link.line, path.stem,
                                        f"link to unknown paper '{link.key}'", hint))
    return sorted(problems)


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
        target = (url(from_uri, paper_uri(paper.key), data.directory_urls) if final_urls
                  else href(from_uri, paper_uri(paper.key)))
        return f'[{label}]({target} "{title}")'

    return replace_links(text, render)


def _demote(text: str, levels: int) -> str:
    """Headings pushed down `levels` levels (outside fenced code), to nest under ours."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            line = _HEADING_RE.sub(lambda m: "#" * min(6, len(m.group(1)) + levels), line)
        out.append(line)
    return "\n".join(out)


@lru_cache(maxsize=65536)
def page_url(uri: str, directory_urls: bool = True) -> str:
    """The URL path mkdocs gives a page's source path ('papers/x.md' -> 'papers/x/')."""
    if not uri.endswith(".md"):
        return uri
    stem = uri[:-3]
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[:-5]
    return stem + "/"


def _relpath(path: str, start: str) -> str:
    """posixpath.relpath for two paths relative to the site root, by string alone.

    posixpath.relpath makes both absolute against the working folder first; at
    5,000 papers (a quarter of a million links) that alone took half the build.
    """
    to = [part for part in path.split("/") if part not in ("", ".")]
    at = [part for part in start.split("/") if part not in ("", ".")]
    same = 0
    while same < min(len(to), len(at)) and to[same] == at[same]:
        same += 1
    return "/".join([".."] * (len(at) - same) + to[same:]) or "."


def url(from_uri: str, to_uri: str, directory_urls: bool = True) -> str:
    """A relative URL, as in the built site, from one page to another page or file."""
    here, there = page_url(from_uri, directory_urls), page_url(to_uri, directory_urls)
    base = here.rstrip("/") if here.endswith("/") or not here else posixpath.dirname(here)
    if base and not (there + "/").startswith(base + "/"):
        # The link leaves the page's own URL, so every page of its folder shares it (all
        # 10,000 paper pages link to a year as '../../years/2012/'): one name stands for
        # them, which matches no folder name, and the link is worked out once.
        head = base.rpartition("/")[0]
        base = head + "/\0" if head else "\0"
    return _url_from(base, there)


@lru_cache(maxsize=1 << 16)
def _url_from(base: str, there: str) -> str:
    rel = _relpath(there.rstrip("/") or ".", base or ".")
    if there.endswith("/") or not there:
        rel = "./" if rel == "." else rel + "/"
    return rel


def _e(text: str) -> str:
    """Plain text for HTML, quotes included (safe in attributes too)."""
    return html.escape(plain(text), quote=True)


def _authors_html(paper: Paper, limit: int | None = None) -> str:
    names = [_e(a) for a in paper.authors]
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


def _book(paper: Paper, venue: Venue | None, text: Callable[[str], str],
          title: Callable[[str], str]) -> str:
    if not paper.booktitle:
        return ""
    out = f"In {title(paper.booktitle)}"
    editors = [text(e) for e in paper.editors]
    if editors:
        out += ", edited by " + (", ".join(editors[:-1]) + " and " + editors[-1]
                                 if len(editors) > 1 else editors[0])
    publisher = paper.publisher or (venue.publisher if venue else None)
    if publisher:
        out += f", {text(publisher)}"
    if paper.chapter:
        out += f", chapter {text(paper.chapter)}"
    return out


def _h2(anchor: str, title: str, searchable: bool = True) -> str:
    # Sections that only repeat other pages' text stay out of the search index.
    exclude = "" if searchable else " data-search-exclude"
    return (f'<h2 id="{anchor}"{exclude}>{title}<a class="headerlink" href="#{anchor}" '
            'title="Permanent link">&para;</a></h2>')


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
    contents = (f'<nav class="pp-contents" aria-label="On this page" data-search-exclude>'
                f"On this page: {links}</nav>")
    return [*out[:2], contents, *out[2:]]


def _bibtex_html(entry: str) -> str:
    """A BibTeX entry as a code block that Material gives a copy button.

    Not syntax-highlighted: colouring costs more, in highlighting and in indexing
    the markup for search, than all the rest of a paper page.
    """
    code = html.escape(entry.strip(), quote=False)
    return (f'<div class="highlight"><pre><code class="language-bibtex">{code}\n'
            "</code></pre></div>")


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
    return f'<a href="{_e(_url(target))}"{attr}>{text}</a>'


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
    venue_text = f'<a href="{to(venue_uri(paper.venue))}">{_e(paper.venue)}</a>'
    if venue and venue.name != paper.venue:
        venue_text += f": {_e(venue.name)}"
    venue_text += f', <a href="{to(year_uri(paper.year))}">{paper.year}</a>'
    if paper.pages:
        venue_text += f", pages {_e(paper.pages)}"
    facts = [("Venue", venue_text)]
    book = _book_html(paper, venue)
    if book:
        facts.append(("Book", book))
    links = [_a(target, label if label != "DOI" else f"DOI {_e(paper.doi or '')}")
             for label, target in _links(paper)]
    if links:
        facts.append(("Links", " · ".join(links)))
    if paper.tags:
        facts.append(("Tags", ", ".join(f'<a href="{to(tag_uri(t))}">{_e(t)}</a>'
                                        for t in paper.tags)))
    if data.show_status:
        status = _e(paper.status.replace("-", " "))  # unknown values too: check only warns
        if paper.read_on:
            status += f" (read on {_e(paper.read_on)})"
        facts.append(("Reading status", status))
    facts.append(("Key", f"<code>{_e(paper.key)}</code>"))
    sources = [s for s in (getattr(paper, "sources", None) or []) if isinstance(s, str)]
    if sources:  # where the metadata came from (a field the model may grow)
        shown = [_a(s, _e(_host(s))) if safe_url(s) else _e(s) for s in sources]
        facts.append(("Metadata from", ", ".join(shown)))
    # The h1 first: Material's search makes the page's one entry of it and what follows
    # (anything before it would make a second entry, and the title would show twice).
    out = [f'<h1 id="title">{_e(paper.title)}</h1>',
           _nav_line(uri, data, [("All papers", ALL_URI), (str(paper.year), year_uri(paper.year)),
                                 (paper.venue, venue_uri(paper.venue))])]
    if paper.summary:
        out.append(f'<p class="pp-summary">{_e(paper.summary)}</p>')
    out.append(f'<p class="pp-authors">{_authors_html(paper)}</p>')
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
        # Compact (no links or toggles): five full entries on each of thousands of
        # pages cost a third of a 5,000-paper build; the year, venue and tag lists
        # and All papers carry the full entries.
        out += ['<ul class="pp-list pp-related" data-search-exclude>',
                *(paper_item(p, uri, data, compact=True) for p in related), "</ul>"]
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
    return front(paper.title, _with_contents(out))


def _host(link: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(link).hostname or link


def _nav_line(uri: str, data: SiteData, trail: list[tuple[str, str]],
              extra: str = "") -> str:
    """Where a generated page sits (they are not in the nav): links up, and on."""
    parts = [f'<a href="{url(uri, target, data.directory_urls)}">{_e(label)}</a>'
             for label, target in trail]
    return (f'<nav class="pp-trail" aria-label="Where this page is" data-search-exclude>'
            f'{" › ".join(parts)}{extra}</nav>')


def _by_year(papers: Sequence[Paper]) -> dict[int, list[Paper]]:
    out: dict[int, list[Paper]] = {}
    for p in sorted(papers, key=lambda p: (-p.year, p.venue.lower(), p.key)):
        out.setdefault(p.year, []).append(p)
    return out


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

    venue_name = data.venue_name(paper.venue)
    head = (f'<span class="pp-venue" title="{_e(venue_name)}">{_e(paper.venue)}</span> '
            f'<span class="pp-year">{paper.year}</span> '
            f'<a class="pp-title" href="{to(paper_uri(paper.key))}">{_e(paper.title)}</a>')
    out = [f'<li class="pp-entry">{head}',
           f'<div class="pp-authors">{_authors_html(paper, 6)}</div>']
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
        out.append('<details class="pp-toggle"><summary>Abstract</summary>'
                   f"<p>{_e(paper.abstract)}</p></details>")
    bib = data.bibtex.get(paper.key)
    if bib:
        out.append(f'<details class="pp-toggle"><summary>BibTeX</summary>{_bibtex_html(bib)}'
                   "</details>")
    return "".join(out) + "</li>"


def _entries(papers: Sequence[Paper], from_uri: str, data: SiteData) -> list[str]:
    """A list of entries; it repeats the papers' own text, so search skips it."""
    return ['<ul class="pp-list" data-search-exclude>',
            *(paper_item(p, from_uri, data) for p in papers), "</ul>"]


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
        step.append(f'<a href="{url(uri, year_uri(years[at - 1]), data.directory_urls)}" '
                    f'rel="prev">← {years[at - 1]}</a>')
    if at + 1 < len(years):
        step.append(f'<a href="{url(uri, year_uri(years[at + 1]), data.directory_urls)}" '
                    f'rel="next">{years[at + 1]} →</a>')
    steps = f'<span class="pp-steps">{" ".join(step)}</span>' if step else ""
    venues = Counter(p.venue for p in papers)
    out = [f"<h1>Papers of {year}</h1>",
           _nav_line(uri, data, [("All papers", ALL_URI), ("Years", "years/index.md")], steps),
           f"<p>{_plural(len(papers), 'paper')} at {_plural(len(venues), 'venue')}: "
           + ", ".join(f'<a href="#venue-{slug(v)}">{_e(v)}</a> {n}'
                       for v, n in sorted(venues.items(), key=lambda x: x[0].lower()))
           + ".</p>"]
    out.append('<ul class="pp-list" data-search-exclude>')
    seen: set[str] = set()
    for p in group:
        item = paper_item(p, uri, data)
        if p.venue not in seen:  # an anchor at each venue's first paper
            seen.add(p.venue)
            item = item.replace('<li class="pp-entry">',
                                f'<li class="pp-entry" id="venue-{slug(p.venue)}">', 1)
        out.append(item)
    out.append("</ul>")
    return front(f"Papers of {year}", out)


def venue_page(venue: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers at one venue, by year."""
    uri = venue_uri(venue)
    registry = data.venues.get(venue)
    out = [f"<h1>{_e(venue)}</h1>",
           _nav_line(uri, data, [("All papers", ALL_URI), ("Venues", "venues/index.md")])]
    if registry:
        publisher = f", published by {_e(registry.publisher)}" if registry.publisher else ""
        out.append(f"<p>{_e(registry.name)}: {_e(registry.kind)}{publisher}.</p>")
    out.append(f"<p>{_plural(len(papers), 'paper')} in the catalog.</p>")
    for year, group in _by_year(papers).items():
        out.append(_h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    return front(venue, _with_contents(out))


def tag_page(tag: str, papers: Sequence[Paper], data: SiteData) -> str:
    """Papers with one tag, by year."""
    uri = tag_uri(tag)
    out = [f"<h1>Tag: {_e(tag)}</h1>",
           _nav_line(uri, data, [("All papers", ALL_URI), ("Tags", "tags/index.md")])]
    if data.vocabulary.get(tag):
        out.append(f"<p>{_e(data.vocabulary[tag])}.</p>")
    out.append(f"<p>{_plural(len(papers), 'paper')}.</p>")
    for year, group in _by_year(papers).items():
        out.append(_h2(f"year-{year}", str(year), searchable=False))
        out += _entries(group, uri, data)
    return front(f"Tag: {tag}", _with_contents(out))


def _js_literal(value: Any) -> str:
    """JSON that is safe inside a script file or <script>: no '</script>', no U+2028."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def papers_data(data: SiteData) -> str:
    """The All-papers page's data: one record per paper, as plain text fields.

    The page's script builds entries from it with textContent only, never as HTML.
    """
    records = []
    for p in data.papers:
        records.append({
            "k": p.key, "u": url(ALL_URI, paper_uri(p.key), data.directory_urls),
            "t": plain(p.title), "a": [plain(a) for a in p.authors], "e": p.et_al,
            "y": p.year, "v": p.venue, "n": data.venue_name(p.venue), "g": p.tags,
            "s": plain(p.summary or ""), "b": plain(p.abstract or ""),
            "x": data.bibtex.get(p.key, "").strip(),
            "l": [[label, target] for label, target in _links(p)],
            **({"c": _book_text(p, data.venues.get(p.venue))} if p.booktitle else {})})
    tags = {t: url(ALL_URI, tag_uri(t), data.directory_urls)
            for p in data.papers for t in p.tags}
    return f"window.PAPERS_DATA={_js_literal({'papers': records, 'tags': tags})};\n"


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
    out.append(f'<p id="pp-count">{_plural(len(data.papers), "paper")} from {years[0]} to '
               f"{years[-1]}, newest first.</p>")
    if data.suggest_url:
        out.append(f'<p>Missing a paper? {_a(data.suggest_url, "Suggest one")}.</p>')
    out.append('<div id="pp-filters" data-search-exclude></div>')
    out.append('<ul class="pp-list pp-plain" id="pp-all" data-search-exclude>')
    for p in sorted(data.papers, key=lambda p: (-p.year, p.venue.lower(), p.title.lower())):
        out.append(f'<li><span class="pp-venue">{_e(p.venue)}</span> '
                   f'<span class="pp-year">{p.year}</span> '
                   f'<a class="pp-title" href="{url(uri, paper_uri(p.key), data.directory_urls)}">'
                   f"{_e(p.title)}</a></li>")
    out.append("</ul>")
    out.append(f'<script src="{url(uri, DATA_JS, data.directory_urls)}"></script>')
    return front("All papers", out)


def is_html_page(uri: str) -> bool:
    """Whether a generated page is written as HTML: papers and the per-year/venue/tag lists."""
    return uri == ALL_URI or (uri.startswith(("papers/", "years/", "venues/", "tags/")) and (
        not uri.endswith("/index.md")))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def years_index(data: SiteData) -> str:
    """Every year with its paper and venue counts."""
    uri = "years/index.md"
    lines = ["# Papers by year", "", "| Year | Papers | Venues |", "|---|--:|--:|"]
    for year, group in _by_year(data.papers).items():
        lines.append(f"| [{year}]({href(uri, year_uri(year))}) | {len(group)} "
                     f"| {len({p.venue for p in group})} |")
    return "\n".join(lines) + "\n"


def venues_index(data: SiteData) -> str:
    """Every venue of the registry with its full name and paper count."""
    uri = "venues/index.md"
    counts = Counter(p.venue for p in data.papers)
    lines = ["# Papers by venue", ""]
    if counts:
        lines += ["| Venue | Full name | Kind | Papers |", "|---|---|---|--:|"]
    else:
        lines.append("No papers yet.")
    for short in sorted(counts, key=str.lower):
        venue = data.venues.get(short)
        label = f"[{md(short)}]({href(uri, venue_uri(short))})"
        lines.append(f"| {_cell(label)} | {_cell(md(venue.name) if venue else '')} "
                     f"| {_cell(md(venue.kind)) if venue else ''} | {counts[short]} |")
    empty = sorted((v for v in data.venues if not counts[v]), key=str.lower)
    if empty:  # known to the registry (so a .bib naming them resolves), no paper yet
        lines += ["", '<details class="pp-toggle" markdown><summary>'
                  f"{_plural(len(empty), 'more venue')} in the registry, no paper yet"
                  "</summary>", "",
                  ", ".join(f"{md(v)} ({md(data.venues[v].name)})" for v in empty), "",
                  "</details>"]
    return "\n".join(lines) + "\n"


def tags_index(data: SiteData) -> str:
    """Every tag in use (and in the vocabulary) with its description and count."""
    uri = "tags/index.md"
    counts = Counter(t for p in data.papers for t in dict.fromkeys(p.tags))
    names = sorted(set(counts) | set(data.vocabulary), key=lambda t: (-counts[t], t))
    lines = ["# Papers by tag", "", "| Tag | Papers | Description |", "|---|--:|---|"]
    for tag in names:
        label = f"[{md(tag)}]({href(uri, tag_uri(tag))})" if counts[tag] else md(tag)
        lines.append(f"| {_cell(label)} | {counts[tag]} "
                     f"| {_cell(md(data.vocabulary.get(tag, '')))} |")
    return "\n".join(lines) + "\n"


def notes_index(data: SiteData) -> str:
    """The hand-written notes, each with the papers it discusses."""
    uri = "notes/index.md"
    lines = ["# Notes", "",
             "Hand-written notes on topics of the catalog. Each paper a note mentions "
             "links to its page, and the paper's page links back under *Discussed in*."]
    if not data.notes:
        lines += ["", "No notes yet."]
    for note in data.notes:
        known = [data.by_key[k] for k in note.keys if k in data.by_key]
        lines += ["", f"## [{md(note.title)}]({href(uri, note_uri(note))})", "",
                  f"Discusses {_plural(len(known), 'paper')}: "
                  + ", ".join(f"[{md(p.short_title)}]({href(uri, paper_uri(p.key))})"
                              for p in known) + "."]
    return "\n".join(lines) + "\n"


def home_counts(data: SiteData) -> str:
    """The catalog in numbers, for the home page."""
    papers = data.papers
    if not papers:
        return "The catalog is empty."
    years = sorted({p.year for p in papers})
    status = Counter(p.status for p in papers)
    discussed = {k for n in data.notes for k in n.keys if k in data.by_key}
    facts = [
        f"**{len(papers)}** [papers](papers/index.md) from {years[0]} to {years[-1]}",
        f"**{len({p.venue for p in papers})}** [venues](venues/index.md)",
        f"**{len({t for p in papers for t in p.tags})}** [tags](tags/index.md)",
    ]
    if data.notes:
        facts.append(f"**{len(data.notes)}** [notes](notes/index.md) discussing "
                     f"{_plural(len(discussed), 'paper')}")
    if data.suggest_url:
        facts.append(f"missing a paper? [Suggest one]({_url(data.suggest_url)})")
    if data.show_status:
        facts.append("reading status: " + ", ".join(
            f"{status[s]} {s.replace('-', ' ')}" for s in ("read", "reading", "to-read")
            if status[s]))
    return "\n".join(f"- {f}" for f in facts)


def home_charts(data: SiteData) -> str:
    """The charts with captions; each SVG goes in inline in on_page_content (inline, so
    its bars can link to their pages and its text can follow the colour scheme)."""
    if not data.charts:
        return "No charts: the catalog is empty."
    blocks = []
    for chart in data.charts:
        # The chart's own text (axis numbers, labels) stays out of the search index.
        blocks.append('<figure class="papers-chart">\n'
                      '<div class="papers-chart-scroll" data-search-exclude>'
                      f"<!-- papers-chart:{chart.name} --></div>\n"
                      f"<figcaption>{html.escape(chart.caption)} "
                      f'(<a href="{CHART_DIR}/{chart.name}.svg">SVG</a>)</figcaption>\n'
                      "</figure>")
    return "\n\n".join(blocks)


_CHART_SLOT_RE = re.compile(r"<!-- papers-chart:([\w-]+) -->")
_SVG_START_RE = re.compile(r"<svg\b")


def inline_chart(chart: Chart) -> str:
    """A chart's SVG ready to sit in a page: no XML prolog, ids made unique to the
    chart, and named for assistive technology by its alt text."""
    svg = chart.svg[chart.svg.index("<svg"):]
    svg = re.sub(r'<metadata>.*?</metadata>', "", svg, flags=re.S)
    prefix = chart.name + "-"
    svg = re.sub(r'\bid="', f'id="{prefix}', svg)
    svg = svg.replace("url(#", f"url(#{prefix}").replace('xlink:href="#', f'xlink:href="#{prefix}')
    start = f'<svg role="img" aria-label="{html.escape(chart.alt)}" class="papers-chart-svg"'
    return _SVG_START_RE.sub(lambda _: start, svg, count=1)  # a function: alt is not a pattern


def fill_charts(page_html: str, data: SiteData) -> str:
    charts = {c.name: c for c in data.charts}

    def fill(m: re.Match[str]) -> str:
        chart = charts.get(m.group(1))
        return inline_chart(chart) if chart else ""

    return _CHART_SLOT_RE.sub(fill, page_html)


def home_latest(data: SiteData) -> str:
    """The latest additions, with their heading: only papers that carry the date added.

    File order says nothing about when a paper came in, so without dates the
    section is left out rather than made up.
    """
    dated = [p for p in data.papers if p.added and _DATE_RE.match(p.added)]
    latest = sorted(dated, key=lambda p: (p.added or "", p.year, -p.line),
                    reverse=True)[:LATEST]
    if not latest:
        return ""
    lines = ["## Latest additions", ""]
    for p in latest:
        lines.append(f"- {md(p.added or '')}: [{md(p.title)}]({paper_uri(p.key)}) "
                     f"({md(p.venue)} {p.year})")
    return "\n".join(lines)


def home_notes(data: SiteData) -> str:
    """The notes as a list item with the notes nested, for the home page."""
    if not data.notes:
        return "- [Notes](notes/index.md): none written yet."
    return ("- [Notes](notes/index.md): hand-written overviews of a topic, with links to "
            "each paper they discuss:\n\n"
            + "\n".join(f"    - [{md(n.title)}]({note_uri(n)})" for n in data.notes))


def fill_home(markdown: str, data: SiteData) -> str:
    """The hand-written home page with its <!-- papers:NAME --> markers filled in."""
    sections = {"counts": home_counts, "charts": home_charts, "latest": home_latest,
                "notes": home_notes}

    def fill(m: re.Match[str]) -> str:
        render = sections.get(m.group(1))
        if render is None:
            log.warning("site/index.md: unknown marker '%s' (known: %s)", m.group(1),
                        ", ".join(MARKERS))
            return ""
        return render(data)

    return _MARKER_RE.sub(fill, markdown)


def generate(data: SiteData) -> dict[str, str]:
    """Every generated page and chart: {path in the site: Markdown or SVG text}."""
    pages: dict[str, str] = {}
    for paper in data.papers:
        pages[paper_uri(paper.key)] = paper_page(paper, data)
    for year, group in _by_year(data.papers).items():
        pages[year_uri(year)] = year_page(year, group, data)
    by_venue: dict[str, list[Paper]] = {}
    by_tag: dict[str, list[Paper]] = {}
    for paper in data.papers:
        by_venue.setdefault(paper.venue, []).append(paper)
        for tag in dict.fromkeys(paper.tags):
            by_tag.setdefault(tag, []).append(paper)
    for venue, group in by_venue.items():
        pages[venue_uri(venue)] = venue_page(venue, group, data)
    for tag, group in by_tag.items():
        pages[tag_uri(tag)] = tag_page(tag, group, data)
    pages[ALL_URI] = all_papers_page(data)
    pages[DATA_JS] = papers_data(data)
    pages["years/index.md"] = years_index(data)
    pages["venues/index.md"] = venues_index(data)
    pages["tags/index.md"] = tags_index(data)
    pages["notes/index.md"] = notes_index(data)
    for chart in data.charts:
        pages[f"{CHART_DIR}/{chart.name}.svg"] = chart.svg
    data.entries.clear()  # a copy of every list entry, needed no more (100 MB at 10,000)
    return pages


def slug_clashes(data: SiteData) -> list[str]:
    """Messages for names that would share one page (e.g. keys 'a:b' and 'a-b')."""
    seen: dict[str, str] = {}
    clashes = []
    names = ([(paper_uri(p.key), p.key) for p in data.papers]
             + [(venue_uri(p.venue), p.venue) for p in data.papers]
             + [(tag_uri(t), t) for p in data.papers for t in p.tags])
    for uri, name in names:
        other = seen.setdefault(uri, name)
        if other != name:
            clashes.append(f"'{other}' and '{name}' would share the page {uri}; rename one")
    return sorted(set(clashes))


# ---------------------------------------------------------------- the mkdocs hook


@dataclass
class _Build:
    """State of one mkdocs build, set in on_config and used by later events."""

    paths: Paths
    notes: list[Note]
    data: SiteData | None = None
    html: dict[str, str] = field(default_factory=dict)  # HTML pages' bodies, by source path
    pages_written: int = 0  # pages written as an index.html (on_post_page)


_build: _Build | None = None


def catalog_paths(config_file: str | None) -> Paths:
    """The catalog to build: PAPERS_CATALOG if set, else the one beside mkdocs.yml."""
    from catalog.paths import find_catalog, resolve

    if os.environ.get(CATALOG_ENV) or not config_file:
        return resolve()
    return resolve(find_catalog(Path(config_file).parent))


def on_config(config: Any) -> Any:
    """Find the catalog, check it can be read, and list the notes in the nav."""
    from mkdocs.exceptions import PluginError

    from catalog.data.notes import load_notes
    from catalog.index import database

    global _build
    paths = catalog_paths(config.config_file_path)
    try:
        # Before mkdocs empties site_dir: `mkdocs build -d DIR` is guarded as well.
        check_site_dir(Path(config.site_dir), paths, _sources(config))
        database.refresh(paths)
        notes = load_notes(paths)
    except CatalogError as err:
        raise PluginError(f"papers: cannot build the site:\n{err}") from None
    _build = _Build(paths, notes)
    if config.nav:
        config.nav = _nav_with_notes(config.nav, notes)
    return config


def _sources(config: Any) -> list[Path]:
    """The folders a build reads from: docs_dir and the folder of mkdocs.yml."""
    folders = [Path(config.docs_dir)]
    if config.config_file_path:
        folders.append(Path(config.config_file_path).parent)
    return folders


def on_post_build(*, config: Any) -> None:
    """Mark the output folder as ours, so the next build may empty it."""
    mark_site_dir(Path(config.site_dir))


def _nav_with_notes(nav: list[Any], notes: list[Note]) -> list[Any]:
    """The nav with its 'notes/index.md' entry grown into a section listing every note."""
    out = []
    for item in nav:
        if isinstance(item, dict) and len(item) == 1:
            (title, target), = item.items()
            if target == "notes/index.md":
                item = {title: ["notes/index.md", *({n.title: note_uri(n)} for n in notes)]}
        out.append(item)
    return out


def on_files(files: Any, *, config: Any) -> Any:
    """Add every generated page and chart to the site as an in-memory file."""
    from mkdocs.structure.files import File, InclusionLevel

    assert _build is not None, "on_config runs first"
    started = time.perf_counter()
    timings: dict[str, float] = {}
    try:
        data, problems = load(_build.paths, _build.notes, timings=timings,
                              directory_urls=config.use_directory_urls)
    except CatalogError as err:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"papers: cannot build the site:\n{err}") from None
    data.directory_urls = config.use_directory_urls
    data.show_status = bool(_settings(config).get("show_status", False))
    data.suggest_url = suggest_url(_settings(config).get("suggest_url"), config.repo_url)
    data.markdown = _config_markdown(config)
    _build.data = data
    for problem in problems:
        log.warning("%s", problem)
    for clash in slug_clashes(data):
        log.warning("%s", clash)
    _use_catalog_notes(files, config, _build.paths, _build.notes)
    count = 0
    for uri, content in generate(data).items():
        if files.get_file_from_path(uri) is not None:
            log.warning("%s/%s is hand-written where a generated page goes; remove it",
                        config.docs_dir, uri)
            continue
        level = InclusionLevel.INCLUDED if uri in NAV_PAGES else InclusionLevel.NOT_IN_NAV
        files.append(File.generated(config, uri, content=content, inclusion=level))
        count += 1
    timings["total"] = time.perf_counter() - started
    log.info("generated %d pages and charts from %s in %.2f s (%s)", count,
             _build.paths.display(), timings["total"],
             ", ".join(f"{k} {v:.2f} s" for k, v in timings.items() if k != "total"))
    return files


def suggest_url(setting: Any, repo_url: str | None) -> str | None:
    """Where readers propose a paper: the setting, else a new issue in the repository."""
    if isinstance(setting, str) and safe_url(setting):
        return setting
    repo = safe_url(repo_url or "")
    if repo and "github.com/" in repo:
        return repo.rstrip("/") + "/issues/new?title=Suggest+a+paper%3A+"
    return None


def _settings(config: Any) -> dict[str, Any]:
    """Our settings in mkdocs.yml, under extra: papers:."""
    found = (config.extra or {}).get("papers") or {}
    return found if isinstance(found, dict) else {}


def _config_markdown(config: Any) -> Callable[[str], str]:
    """Markdown to HTML with the site's own extensions, for reading notes."""
    import markdown

    def convert(text: str) -> str:
        return markdown.Markdown(extensions=config.markdown_extensions,
                                 extension_configs=config.mdx_configs).convert(text)

    return convert


def _use_catalog_notes(files: Any, config: Any, paths: Paths, notes: list[Note]) -> None:
    """Show the catalog's notes, when they are not the ones in docs_dir/notes."""
    from mkdocs.structure.files import File

    docs_notes = Path(config.docs_dir, "notes")
    if paths.notes.resolve() == docs_notes.resolve():
        return
    for file in list(files):
        if file.src_uri.startswith("notes/") and file.src_uri.endswith(".md"):
            files.remove(file)
    for note in notes:
        files.append(File(note_uri(note), str(paths.notes.parent), config.site_dir,
                          config.use_directory_urls))


def on_page_markdown(markdown: str, *, page: Any, config: Any, files: Any) -> str:
    """Fill the home page's markers and turn [[key]] links in notes into paper links."""
    if _build is None or _build.data is None:
        return markdown
    uri = page.file.src_uri
    if uri == "index.md":
        return fill_home(markdown, _build.data)
    if uri.startswith("notes/") and not page.file.generated_by:
        return link_papers(markdown, uri, _build.data)
    if is_html_page(uri) and page.file.generated_by:
        # Already HTML (see paper_page): keep it from Markdown, put it back in on_page_content.
        _build.html[uri] = markdown
        return ""
    return markdown


def on_page_content(html: str, *, page: Any, config: Any, files: Any) -> str:
    """An HTML page's own body, with its table of contents."""
    from mkdocs.structure.toc import get_toc

    if _build is not None and _build.data is not None and page.file.src_uri == "index.md":
        return fill_charts(html, _build.data)
    if _build is None or page.file.src_uri not in _build.html:
        return html
    body = _build.html.pop(page.file.src_uri)
    page.toc = get_toc([{"level": 2, "id": anchor, "name": title, "children": []}
                        for anchor, title in toc_of(body)])
    return body


@event_priority(-100)  # the page as written, after any other plugin's change
def on_post_page(output: str, *, page: Any, config: Any) -> str:
    """Count the pages mkdocs writes (it skips an empty one) as an index.html."""
    if _build is not None and output.strip() and page.file.dest_uri.endswith("index.html"):
        _build.pages_written += 1
    return output


# ---------------------------------------------------------------- the output folder

# Written into the output folder by every build: only a folder carrying it is emptied.
MARKER = ".papers-site"
_MARKER_TEXT = ("This folder is a site built by `papers site build`; the next build empties "
                "it.\nRemove this file to keep the next build from touching the folder.\n")


def check_site_dir(site_dir: Path, paths: Paths, protected: Sequence[Path] = ()) -> None:
    """Refuse an output folder a build must not empty (mkdocs removes all it holds).

    Allowed: a missing or empty folder, or one a previous build marked. Never the
    catalog's folders, the sources (docs_dir), the project root or a folder that
    holds any of them, marker or not.
    """
    out = site_dir.resolve()
    keep = [paths.catalog, paths.data_dir, paths.root, paths.readings, paths.notes,
            paths.notes.parent, Path.home(), *protected]
    keep = [path.resolve() for path in keep]
    # Say "it is data/" rather than "it holds data/papers.yaml" where both are true.
    clashes = [p for p in keep if p == out] + [p for p in keep if out in p.parents]
    if clashes:
        path = clashes[0]
        what = "is" if out == path else "holds"
        raise SiteError(f"refusing to build the site into {site_dir}: it {what} {path}, "
                        "and a build empties its output folder; choose a new folder "
                        "such as build/site (--site-dir/-o)")
    if not out.exists():
        return
    if not out.is_dir():
        raise SiteError(f"refusing to build the site into {site_dir}: it is a file, "
                        "not a folder; choose a new folder (--site-dir/-o)")
    if (out / MARKER).is_file():
        return
    entries = sorted(p.name for p in out.iterdir())
    if entries:
        shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
        raise SiteError(f"refusing to build the site into {site_dir}: it holds files that "
                        f"papers did not write ({shown}), and a build empties its output "
                        "folder; choose a new or empty folder (--site-dir/-o), or remove them")


def mark_site_dir(site_dir: Path) -> None:
    """Leave the marker that lets the next build empty this folder."""
    (site_dir / MARKER).write_text(_MARKER_TEXT, encoding="utf-8")


# ---------------------------------------------------------------- papers site build / serve


@dataclass
class BuildResult:
    """What a site build made."""

    site_dir: Path
    pages: int
    seconds: float
    warnings: list[str]


def default_config(paths: Paths) -> Path:
    """The project's mkdocs.yml: beside the catalog's data folder, else this checkout's."""
    for candidate in (paths.root / "mkdocs.yml",
                      Path(__file__).resolve().parents[2] / "mkdocs.yml"):
        if candidate.is_file():
            return candidate
    raise SiteError(f"no mkdocs.yml in {paths.root}; give one with --config-file")


@contextlib.contextmanager
def _catalog_env(paths: Paths) -> Iterator[None]:
    """PAPERS_CATALOG / PAPERS_DB set for the hook, restored afterwards."""
    saved = {name: os.environ.get(name) for name in (CATALOG_ENV, DB_ENV)}
    os.environ[CATALOG_ENV] = str(paths.catalog.resolve())
    os.environ[DB_ENV] = str(paths.db.resolve())
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def build(paths: Paths, config_file: Path | None = None, site_dir: Path | None = None,
          strict: bool = True) -> BuildResult:
    """Build the site with mkdocs; SiteError lists the warnings when --strict stops it."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    config_file = config_file or default_config(paths)
    collect = _Collect()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(collect)
    started = time.perf_counter()
    try:
        with _catalog_env(paths):
            config = load_config(str(config_file), strict=strict,
                                 site_dir=str(site_dir.resolve()) if site_dir else None)
            check_site_dir(Path(config.site_dir), paths, _sources(config))
            config.plugins.on_startup(command="build", dirty=False)
            try:
                mkdocs_build(config)
            finally:
                config.plugins.on_shutdown()
    except (MkDocsException, SystemExit) as err:
        detail = "".join(f"\n  {m}" for m in collect.messages)
        raise SiteError(f"site build failed: {err}{detail}") from None
    finally:
        mkdocs_log.removeHandler(collect)
    out = Path(config.site_dir)
    return BuildResult(out, _pages_written(config, out), time.perf_counter() - started,
                       collect.messages)


def _pages_written(config: Any, out: Path) -> int:
    """The index.html pages of the build: as the hook counted them while mkdocs wrote
    them (a walk of 10,000 folders afterwards took a second), else by that walk."""
    for plugin in config.plugins.values():
        counted = getattr(getattr(plugin, "_build", None), "pages_written", None)
        if isinstance(counted, int):
            return counted
    return sum(1 for _ in out.rglob("index.html"))


# ---------------------------------------------------------------- sources as files


def write_sources(paths: Paths, out: Path, config_file: Path | None = None) -> int:
    """The whole site as plain sources in a folder: out/docs and out/mkdocs.yml.

    The hook builds in memory, which is fast but ties the site to mkdocs's plugin
    API. This writes the same pages as files (the hand-written pages copied, the
    generated ones added, [[key]] links and the home page's markers resolved)
    with a mkdocs.yml that needs no hook, so any builder that reads mkdocs.yml
    and Markdown with raw HTML (mkdocs today, a successor later) can build them.
    Returns the number of files written.
    """
    import shutil

    import yaml
    from mkdocs.config import load_config

    from catalog.data.notes import load_notes
    from catalog.index import database

    config_file = config_file or default_config(paths)
    with _catalog_env(paths):
        config = load_config(str(config_file))
    check_site_dir(out, paths, _sources(config))
    if out.exists():
        shutil.rmtree(out)  # only a folder we marked, or an empty one (checked above)
    docs = out / "docs"
    database.refresh(paths)
    notes = load_notes(paths)
    data, _ = load(paths, notes, directory_urls=config.use_directory_urls)
    data.markdown = _config_markdown(config)
    settings = _settings(config)
    data.show_status = bool(settings.get("show_status", False))
    data.suggest_url = suggest_url(settings.get("suggest_url"), config.repo_url)
    shutil.copytree(config.docs_dir, docs, ignore=shutil.ignore_patterns(".*"))
    if paths.notes.resolve() != Path(config.docs_dir, "notes").resolve():
        shutil.rmtree(docs / "notes", ignore_errors=True)
        for note in notes:
            (docs / "notes").mkdir(parents=True, exist_ok=True)
            shutil.copy(note.path, docs / note_uri(note))
    count = 0
    for note in notes:
        target = docs / note_uri(note)
        target.write_text(link_papers(target.read_text(encoding="utf-8"), note_uri(note), data),
                          encoding="utf-8")
    home = docs / "index.md"
    if home.is_file():
        filled = fill_home(home.read_text(encoding="utf-8"), data)
        home.write_text(fill_charts(filled, data), encoding="utf-8")
    for uri, content in generate(data).items():
        target = docs / uri
        target.parent.mkdir(parents=True, exist_ok=True)
        if is_html_page(uri):  # one raw HTML block for any Markdown reader
            content = content.replace("\n\n", "\n")
        target.write_text(content, encoding="utf-8")
        count += 1
    raw = yaml.safe_load(_plain_yaml(config_file)) or {}
    raw.pop("hooks", None)
    custom_dir = config.theme.custom_dir
    if custom_dir and isinstance(raw.get("theme"), dict):
        # The theme's overrides (search setup, templates) travel with the pages.
        shutil.copytree(custom_dir, out / "overrides", ignore=shutil.ignore_patterns(".*"))
        raw["theme"]["custom_dir"] = "overrides"
    raw.update(docs_dir="docs", site_dir="site", site_url=config.site_url or "",
               repo_url=config.repo_url or "")
    if raw.get("nav"):
        raw["nav"] = _nav_with_notes(raw["nav"], notes)
        # Reached from the index pages, not from the nav (as the hook marks them).
        raw["not_in_nav"] = "".join(f"/{d}/*.md\n!/{d}/index.md\n"
                                    for d in ("papers", "years", "venues", "tags"))
    (out / "mkdocs.yml").write_text(
        "# Written by `papers site sources`: the site's sources, no hook needed.\n"
        + yaml.safe_dump(raw, sort_keys=False, allow_unicode=True), encoding="utf-8")
    mark_site_dir(out)
    return count


def _plain_yaml(config_file: Path) -> str:
    """mkdocs.yml with its !ENV tags read as their default values, for PyYAML."""
    text = config_file.read_text(encoding="utf-8")

    def value(m: re.Match[str]) -> str:
        names = [n.strip() for n in m.group(1).split(",")]
        for name in names[:-1]:
            if os.environ.get(name):
                return json.dumps(os.environ[name])
        return names[-1]

    return re.sub(r"!ENV\s*\[([^\]]*)\]", value, text)


def serve(paths: Paths, config_file: Path | None = None,
          dev_addr: str = "127.0.0.1:8000") -> None:
    """Serve the site with live reload, rebuilding when the catalog or notes change."""
    from mkdocs.commands.serve import serve as mkdocs_serve
    from mkdocs.exceptions import MkDocsException

    config_file = config_file or default_config(paths)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    # The whole data folder, so reading notes written after the server started count too.
    watch = [str(p) for p in (paths.data_dir, paths.notes) if p.exists()]
    try:
        with _catalog_env(paths):
            mkdocs_serve(str(config_file), dev_addr=dev_addr, watch=watch)
    except MkDocsException as err:
        raise SiteError(f"site server stopped: {err}") from None
    finally:
        mkdocs_log.removeHandler(handler)
