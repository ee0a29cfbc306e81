"""What one site build reads: the catalog's papers, notes, reading notes and BibTeX."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from catalog.bib.options import ExportOptions
from catalog.data.authors import Authors
from catalog.data.notes import Note
from catalog.data.registry import Venue
from catalog.errors import CatalogError, Problem
from catalog.model import DEFAULT_STATUS, Paper
from catalog.paths import Paths, file_stem_key
from catalog.site.charts import Chart
from catalog.site.history import Added, added_dates
from catalog.site.links import tag_uri, url, venue_stems, year_uri
from catalog.site.people import People

# ---------------------------------------------------------------- the data of one build


@dataclass
class Reading:
    """A paper's own reading note (data/readings/KEY.md)."""

    path: Path
    text: str


# The Markdown extensions mkdocs adds to every site's (its MarkdownExtensions builtins).
MKDOCS_EXTENSIONS = ("toc", "tables", "fenced_code")


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
    # The options of the site's citation texts (the catalog's protected terms), as export's.
    export_options: ExportOptions = field(default_factory=ExportOptions)
    authors: Authors = field(default_factory=Authors)  # data/authors.yaml: who is who
    added: dict[str, Added] = field(default_factory=dict)  # when each paper came in
    charts: list[Chart] = field(default_factory=list)
    directory_urls: bool = True  # mkdocs's use_directory_urls, for URLs we write ourselves
    show_status: bool = False  # reading status is the curator's: shown only if asked for
    # The reader's status and read_on of each paper data/reading.yaml lists.
    statuses: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    suggest_url: str | None = None  # where a reader proposes a paper (http(s) only)
    site_url: str | None = None  # where the site is published (mkdocs's site_url), if set
    # List entries already rendered, by (key, folder of the page showing it): a paper
    # appears in about ten lists, and entries differ only by the folder of the page.
    entries: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)
    # Each citation format's text of every paper, by format and key (site.downloads).
    citations: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)
    # The site's Markdown extensions and their settings (mkdocs.yml's: the hook and the
    # builder set them), with which reading notes are converted as mkdocs converts pages;
    # these defaults are the extensions mkdocs itself always adds.
    markdown_extensions: list[Any] = field(default_factory=lambda: list(MKDOCS_EXTENSIONS))
    mdx_configs: dict[str, Any] = field(default_factory=dict)
    # The theme's folder of template overrides (mkdocs.yml's custom_dir), where a site
    # owner's overrides/papers/*.html replace ours (catalog.site.templates).
    template_dir: Path | None = None

    @cached_property
    def by_key(self) -> dict[str, Paper]:
        return {p.key: p for p in self.papers}

    @cached_property
    def people(self) -> People:
        """The authors as people (authors.yaml joins spellings and tells namesakes apart)."""
        return People(self.papers, self.authors)

    @cached_property
    def backlinks(self) -> dict[str, list[Note]]:
        from catalog.data.notes import backlinks

        return backlinks(self.notes)

    def status_of(self, key: str) -> tuple[str, str | None]:
        """A paper's reading status and the day it was read (to-read when not listed)."""
        return self.statuses.get(key, (DEFAULT_STATUS, None))

    @cached_property
    def venue_stems(self) -> dict[str, str]:
        """Each venue's page name (venue_stems: never one shared by two venues)."""
        return venue_stems(p.venue for p in self.papers)

    def venue_uri(self, venue: str) -> str:
        """The page of a venue with papers in the catalog."""
        return f"venues/{self.venue_stems[venue]}.md"

    def venue_name(self, short: str) -> str:
        venue = self.venues.get(short)
        return venue.name if venue else short

    def note_html(self, text: str) -> str:
        """A reading note's Markdown as inert HTML: converted by Python-Markdown, the
        engine mkdocs builds the site's pages with, with the site's extensions, then
        sanitized. The one conversion of a note to HTML."""
        import markdown

        html = markdown.Markdown(
            extensions=self.markdown_extensions, extension_configs=self.mdx_configs
        ).convert(text)
        return sanitize(html)


def by_year(papers: Sequence[Paper]) -> dict[int, list[Paper]]:
    """Papers grouped by year, newest first; by venue, then key, within a year."""
    out: dict[int, list[Paper]] = {}
    for p in sorted(papers, key=lambda p: (-p.year, p.venue.lower(), p.key)):
        out.setdefault(p.year, []).append(p)
    return out


# What a reading note's HTML may keep: Markdown's own output, no script, style, form,
# event handler or link of another scheme than these.
_NOTE_ATTRIBUTES = {
    "*": {"id", "class", "title", "lang"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"style", "colspan"},
    "th": {"style", "colspan"},
    "ol": {"start"},
}
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def sanitize(fragment: str) -> str:
    """HTML written by a user (a reading note) made inert: a well-kept sanitizer (nh3).

    Reading notes are Markdown, and Markdown passes raw HTML through; a title
    pasted into the note's template once ended its HTML comment early and the
    <script> after it ran on the page. Whatever the note holds, only inert markup
    is kept: scripts go with their text, handlers and other URL schemes go.
    """
    import nh3

    return nh3.clean(
        fragment,
        attributes=_NOTE_ATTRIBUTES,
        url_schemes=set(SAFE_SCHEMES),
        filter_style_properties={"text-align"},
        link_rel=None,
        strip_comments=True,
    )


def safe_url(value: str | None) -> str | None:
    """An http(s) URL from the data, else None: never a javascript: or data: link."""
    from catalog.model import is_http_url

    return value if value and is_http_url(value.strip()) else None


def load(
    paths: Paths,
    notes: list[Note] | None = None,
    with_charts: bool = True,
    timings: dict[str, float] | None = None,
    directory_urls: bool = True,
    readings: bool = True,
    template_dir: Path | None = None,
) -> tuple[SiteData, list[Problem]]:
    """The site's data from the catalog's index, registries, notes and (when readings, the
    site's show_readings setting) the reader's reading notes."""
    from catalog.data import authors
    from catalog.data.notes import load_notes
    from catalog.data.registry import load_tags, load_venues
    from catalog.index import database, query
    from catalog.index.related import related_all

    timings = {} if timings is None else timings
    started = time.perf_counter()
    conn = database.connect(paths)
    try:
        papers = query.all_papers(conn)
        statuses = {key: (r[1], r[3]) for key, r in query.reading_states(conn).items()}
    finally:
        conn.close()
    data = SiteData(
        papers,
        load_venues(paths.venues),
        load_tags(paths.tags),
        load_notes(paths) if notes is None else notes,
        _readings(paths, papers) if readings else {},
    )
    data.directory_urls = directory_urls
    data.template_dir = template_dir
    data.statuses = statuses
    data.authors = authors.load(paths.authors, paths.display(paths.authors))
    timings["load"] = time.perf_counter() - started
    started = time.perf_counter()
    data.added = added_dates(papers, paths.catalog)
    timings["dates"] = time.perf_counter() - started
    started = time.perf_counter()
    data.related = related_all(papers)
    timings["related"] = time.perf_counter() - started
    started = time.perf_counter()
    from catalog.bib.bibtex import load_protected_terms

    data.export_options = ExportOptions(protected=tuple(load_protected_terms(paths.terms)))
    data.bibtex, problems = _bibtex(papers, data.venues, data.export_options, paths)
    timings["bibtex"] = time.perf_counter() - started
    if with_charts:
        from catalog.site.charts import render_all

        started = time.perf_counter()
        link = partial(_chart_link, directory_urls, data.venue_uri)
        data.charts = render_all(papers, link, template_dir)
        timings["charts"] = time.perf_counter() - started
    return data, problems + link_problems(data, paths)


def flag(value: object) -> bool:
    """A yes/no setting of mkdocs.yml: a YAML boolean, or text from !ENV ('true', '1')."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes", "on", "1")
    return value is True


def _chart_link(directory_urls: bool, venue_uri: Callable[[str], str], kind: str, name: str) -> str:
    """Where a chart's bar or label leads, from the home page that shows the chart."""
    target = {
        "year": lambda: year_uri(int(name)),
        "tag": lambda: tag_uri(name),
        "venue": lambda: venue_uri(name),
    }[kind]()
    return url("index.md", target, directory_urls)


def _readings(paths: Paths, papers: Sequence[Paper]) -> dict[str, Reading]:
    folder = paths.readings
    if not folder.is_dir():
        return {}
    keys = {p.key for p in papers}
    out = {}
    for path in sorted(folder.glob("*.md")):
        key = file_stem_key(path.stem)
        if key in keys:
            out[key] = Reading(path, path.read_text(encoding="utf-8"))
    return out


def _bibtex(
    papers: Sequence[Paper], venues: dict[str, Venue], options: ExportOptions, paths: Paths
) -> tuple[dict[str, str], list[Problem]]:
    """Each paper's BibTeX entry, exactly as `papers export` writes it."""
    from catalog.bib.bibtex import Writer

    writer = Writer(venues, options)
    out, problems = {}, []
    for paper in papers:
        try:
            out[paper.key] = writer.entry(paper)
        except CatalogError as err:  # one bad entry must not hide the rest of the site
            problems.append(
                Problem(paths.display(), paper.line, paper.key, f"no BibTeX entry: {err}")
            )
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
                problems.append(
                    Problem(
                        paths.display(path),
                        link.line,
                        path.stem,
                        f"link to unknown paper '{link.key}'",
                        hint,
                    )
                )
    return sorted(problems)
