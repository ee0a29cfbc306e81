"""The home page's generated sections: search, counts, charts, latest additions and notes."""

from __future__ import annotations

import re
from collections import Counter

from markupsafe import Markup

from catalog.site.charts import Chart
from catalog.site.links import (
    ALL_URI,
    CHART_DIR,
    LATEST,
    MARKER_RE,
    MARKERS,
    log,
    md,
    note_uri,
    paper_uri,
    plural,
    safe_href,
    url,
)
from catalog.site.sitedata import SiteData
from catalog.site.templates import render


def home_counts(data: SiteData) -> str:
    """The catalog in numbers, for the home page."""
    papers = data.papers
    if not papers:
        return "The catalog is empty."
    years = sorted({p.year for p in papers})
    status = Counter(data.status_of(p.key)[0] for p in papers)
    discussed = {k for n in data.notes for k in n.keys if k in data.by_key}
    facts = [
        f"**{len(papers)}** [papers](papers/index.md) from {years[0]} to {years[-1]}",
        f"**{len({p.venue for p in papers})}** [venues](venues/index.md)",
        f"**{len({t for p in papers for t in p.tags})}** [tags](tags/index.md)",
    ]
    if data.notes:
        facts.append(
            f"**{len(data.notes)}** [notes](notes/index.md) discussing "
            f"{plural(len(discussed), 'paper')}"
        )
    if data.suggest_url:
        facts.append(f"missing a paper? [Suggest one]({safe_href(data.suggest_url)})")
    if data.show_status:
        facts.append(
            "reading status: "
            + ", ".join(
                f"{status[s]} {s.replace('-', ' ')}"
                for s in ("read", "reading", "to-read")
                if status[s]
            )
        )
    # One line, so the first screen has room for the search and the latest papers.
    return " · ".join(facts) + "."


def home_charts(data: SiteData) -> str:
    """The charts with captions (home-charts.html)."""
    if not data.charts:
        return "No charts: the catalog is empty."
    return render("home-charts.html", data.template_dir, charts=data.charts, chart_dir=CHART_DIR)


def home_search(data: SiteData) -> str:
    """The search button and the link to All papers (home-search.html)."""
    return render(
        "home-search.html",
        data.template_dir,
        all_papers=url("index.md", ALL_URI, data.directory_urls),
        count=plural(len(data.papers), "paper"),
    )


_CHART_SLOT_RE = re.compile(r"<!-- papers-chart:([\w-]+) -->")
_SVG_START_RE = re.compile(r"<svg\b")


def inline_chart(chart: Chart) -> str:
    """A chart's SVG ready to sit in a page: no XML prolog, ids made unique to the
    chart, and named for assistive technology by its alt text."""
    svg = chart.svg[chart.svg.index("<svg") :]
    # Ours has no ids; a site's own chart.html may (a gradient, a clip path).
    prefix = chart.name + "-"
    svg = re.sub(r'\bid="', f'id="{prefix}', svg)
    svg = svg.replace("url(#", f"url(#{prefix}").replace('xlink:href="#', f'xlink:href="#{prefix}')
    # As wide as the page's text (extra.css), narrower on a phone. An image's parts are
    # hidden from assistive technology: a chart whose bars are links is a group of them.
    role = "group" if "<a href=" in svg else "img"
    start = Markup('<svg role="{}" aria-label="{}" class="papers-chart-svg"').format(
        role, chart.alt
    )
    return _SVG_START_RE.sub(lambda _: start, svg, count=1)  # a function: alt is not a pattern


def fill_charts(page_html: str, data: SiteData) -> str:
    charts = {c.name: c for c in data.charts}

    def fill(m: re.Match[str]) -> str:
        chart = charts.get(m.group(1))
        return inline_chart(chart) if chart else ""

    return _CHART_SLOT_RE.sub(fill, page_html)


def home_latest(data: SiteData) -> str:
    """The latest additions, with their heading and the Atom feed of them.

    File order says nothing about when a paper came in: only papers with a known
    date are listed (catalog.site.history says where dates come from).
    """
    from catalog.site.feed import ALL_FEED, latest

    newest = latest(data.papers, data, LATEST)
    if not newest:
        return ""
    lines = [
        "## Latest additions",
        "",
        f"[Subscribe to new papers]({ALL_FEED}) (Atom feed; each tag has its own on its page). "
        "A paper's date is its `added` field, or, where that is missing or was given to "
        "many papers at once, the day its entry was first committed to the catalog's git "
        "history.",
        "",
    ]
    for p in newest:
        lines.append(
            f"- {data.added[p.key].date}: [{md(p.title)}]({paper_uri(p.key)}) "
            f"({md(p.venue)} {p.year})"
        )
    return "\n".join(lines)


def home_notes(data: SiteData) -> str:
    """The notes as a list item with the notes nested, for the home page."""
    if not data.notes:
        return "- [Notes](notes/index.md): none written yet."
    return (
        "- [Notes](notes/index.md): hand-written overviews of a topic, with links to "
        "each paper they discuss:\n\n"
        + "\n".join(f"    - [{md(n.title)}]({note_uri(n)})" for n in data.notes)
    )


def fill_home(markdown: str, data: SiteData) -> str:
    """The hand-written home page with its <!-- papers:NAME --> markers filled in."""
    sections = {
        "counts": home_counts,
        "charts": home_charts,
        "search": home_search,
        "latest": home_latest,
        "notes": home_notes,
    }

    def fill(m: re.Match[str]) -> str:
        render = sections.get(m.group(1))
        if render is None:
            log.warning(
                "site/index.md: unknown marker '%s' (known: %s)", m.group(1), ", ".join(MARKERS)
            )
            return ""
        return render(data)

    return MARKER_RE.sub(fill, markdown)
