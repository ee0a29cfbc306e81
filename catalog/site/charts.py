"""Charts of the catalog, drawn by matplotlib to SVG text.

Figures are made with the object API (no pyplot, so no global figure state)
under the non-interactive Agg backend, with a fixed SVG hash salt and no
date, so the same catalog always gives byte-identical SVG.
"""

from __future__ import annotations

import html
import io
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from catalog.model import Paper

# Beyond this many venues or tags a chart lumps the rest together, to stay legible.
MAX_TAGS = 25
MAX_GRID_VENUES = 20
_SALT = "papers-catalog"
_RC: dict[str, Any] = {
    "svg.hashsalt": _SALT,
    "svg.fonttype": "none",  # text stays text: smaller files, searchable, crisp at any zoom
    "text.parse_math": False,  # labels are names from the data, never mathtext ('$\\frac{1}{$')
    "font.family": "sans-serif",
    "font.size": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


@dataclass(frozen=True)
class Chart:
    """One chart: its file name, SVG text, alt text and a caption."""

    name: str
    svg: str
    alt: str
    caption: str


def _style() -> Any:
    """Our rc settings for the duration of one figure (never the global ones)."""
    from matplotlib import rc_context

    return rc_context(_RC)  # type: ignore[arg-type]  # stubs want literal keys


# A link for a year, venue or tag: ("year", "2022") -> "years/2022/"; None draws no links.
Linker = Callable[[str, str], str] | None


# What a bar's or a label's link is called for assistive technology, by its page's kind.
_LINK_NAMES = {"year": "Papers of {}", "tag": "Papers tagged {}", "venue": "Papers at {}"}
_SVG_A_RE = re.compile(r'<a href="([^"]*)"')


def _naming(link: Linker) -> tuple[Linker, dict[str, str]]:
    """The linker, and the name of each link it makes as it makes them (by address)."""
    names: dict[str, str] = {}
    if link is None:
        return None, names
    make = link

    def named(kind: str, name: str) -> str:
        target = make(kind, name)
        names[target] = _LINK_NAMES[kind].format(name)
        return target

    return named, names


def _svg(fig: Any, names: dict[str, str]) -> str:
    # Transparent: the page's own background shows through, light or dark.
    fig.patch.set_alpha(0)
    for ax in fig.axes:
        ax.patch.set_alpha(0)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    # matplotlib opens every link in a new window; a bar leads on in the same one. Its
    # links carry only SVG 1's xlink:href, which crawlers do not count: SVG 2's href,
    # and a name, as a link's text would give (a bar or a label drawn as paths has none).
    svg = buffer.getvalue().replace(' target="_blank"', "").replace("<a xlink:href=", "<a href=")

    def name(m: re.Match[str]) -> str:
        said = names.get(html.unescape(m.group(1)))
        return f'{m.group(0)} aria-label="{html.escape(said)}"' if said else m.group(0)

    return _SVG_A_RE.sub(name, svg)


def _link_ticks(labels: Any, kind: str, link: Linker, names: Sequence[str]) -> None:
    """Tick labels that link to their page (all but 'other', which has none)."""
    if link is None:
        return
    for label, name in zip(labels, names, strict=True):
        if name != "other":
            label.set_url(link(kind, name))


# Width of one character of a 10 pt label, in inches, to size margins from label lengths.
_CHAR_IN = 0.08


def _figure(
    width: float, height: float, left: float, right: float, bottom: float, top: float = 0.15
) -> Any:
    """A figure with margins given in inches.

    Fixed margins, sized from the labels, instead of matplotlib's constrained
    layout, which measures every artist again and doubles the drawing time.
    """
    import matplotlib

    matplotlib.use("Agg")  # never a GUI backend, even if something imports pyplot later
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    fig.subplots_adjust(
        left=left / width, right=1 - right / width, bottom=bottom / height, top=1 - top / height
    )
    return fig


# The longest label a chart shows whole; a longer one (a hand-edited tag) is cut, so that
# the margin its length sets stays inside the figure.
MAX_LABEL = 40


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def _longest(labels: Sequence[str]) -> int:
    return max((len(_short(label)) for label in labels), default=1)


def _top(counter: Counter[str], limit: int) -> list[str]:
    """The `limit` most common names (ties by name); the rest become 'other'."""
    ranked = sorted(counter, key=lambda k: (-counter[k], k.lower()))
    return ranked if len(ranked) <= limit else ranked[: limit - 1]


def _year_span(papers: Sequence[Paper]) -> list[int]:
    years = [p.year for p in papers]
    return list(range(min(years), max(years) + 1)) if years else []


# Charts are drawn this wide (inches; 1 in = 72 pt): at a phone's 358 px of text width
# their 11 pt labels still read at about 10 px, and no chart needs a sideways scroll.
WIDTH = 5.0


def papers_per_year(papers: Sequence[Paper], link: Linker = None) -> Chart:
    """Horizontal bars of papers per year, newest on top, each linking to its year's page.

    Not stacked by venue: with hundreds of venues the stack was mostly 'other';
    the coverage grid shows the venues.
    """
    link, names = _naming(link)
    years = _year_span(papers)[::-1]
    per_year = Counter(p.year for p in papers)
    counts = [per_year[y] for y in years]
    with _style():
        fig = _figure(WIDTH, max(1.6, 0.26 * len(years) + 0.8), left=0.6, right=0.4, bottom=0.5)
        ax = fig.add_subplot()
        positions = list(range(len(years)))
        bars = ax.barh(positions, counts, color=_colors(1)[0])
        if link is not None:
            for bar, year in zip(bars, years, strict=True):
                if per_year[year]:
                    bar.set_url(link("year", str(year)))
        for y, n in zip(positions, counts, strict=True):
            if n:
                ax.text(n, y, f" {n}", va="center", fontsize=9)
        ax.set_xlabel("papers")
        ax.set_yticks(positions, [str(y) for y in years])
        _link_ticks(
            ax.get_yticklabels(), "year", link, [str(y) if per_year[y] else "other" for y in years]
        )
        ax.invert_yaxis()
        ax.xaxis.get_major_locator().set_params(integer=True)
        svg = _svg(fig, names)
    peak = max(per_year, key=lambda y: (per_year[y], y))
    alt = (
        f"Bar chart of papers per year from {years[-1]} to {years[0]}; the busiest year "
        f"is {peak} with {per_year[peak]} papers."
    )
    return Chart("papers-per-year", svg, alt, "Papers per year")


def tag_counts(papers: Sequence[Paper], link: Linker = None) -> Chart:
    """Horizontal bars of how many papers carry each tag."""
    link, names = _naming(link)
    counter = Counter(t for p in papers for t in dict.fromkeys(p.tags))
    shown = _top(counter, MAX_TAGS)
    values = [counter[t] for t in shown]
    with _style():
        fig = _figure(
            WIDTH,
            max(1.6, 0.26 * len(shown) + 0.8),
            left=0.25 + _CHAR_IN * _longest(shown),
            right=0.4,
            bottom=0.5,
        )
        ax = fig.add_subplot()
        positions = list(range(len(shown)))
        bars = ax.barh(positions, values, color=_colors(1)[0])
        if link is not None:
            for bar, tag in zip(bars, shown, strict=True):
                bar.set_url(link("tag", tag))
        ax.set_yticks(positions, [_short(t) for t in shown])
        _link_ticks(ax.get_yticklabels(), "tag", link, shown)
        ax.invert_yaxis()  # the most used tag on top
        ax.set_xlabel("papers")
        ax.xaxis.get_major_locator().set_params(integer=True)
        for y, v in zip(positions, values, strict=True):
            ax.text(v, y, f" {v}", va="center", fontsize=8)
        svg = _svg(fig, names)
    listed = ", ".join(f"{t} {counter[t]}" for t in shown[:8])
    alt = (
        (
            f"Bar chart of papers per tag for the {len(shown)} most used of {len(counter)} "
            f"tags; most used: {listed}."
        )
        if counter
        else "Bar chart of papers per tag: no tags."
    )
    return Chart("tag-counts", svg, alt, "Papers per tag")


def coverage(papers: Sequence[Paper], link: Linker = None) -> Chart:
    """A venue × year grid whose cells count the papers (at least one paper).

    Empty cells are left transparent and the counts are written in a colour fixed
    against their cell, so the grid reads on a light or a dark page.
    """
    link, names = _naming(link)
    import numpy as np

    years = _year_span(papers)
    venue_counts = Counter(p.venue for p in papers)
    shown = _top(venue_counts, MAX_GRID_VENUES)
    rows = [*shown, "other"] if len(shown) < len(venue_counts) else shown
    grid = [[0] * len(years) for _ in rows]
    row_of = {v: i for i, v in enumerate(rows)}
    for p in papers:
        grid[row_of.get(p.venue, len(rows) - 1)][p.year - years[0]] += 1
    top = max((max(r) for r in grid), default=0)
    with _style():
        rotate = len(years) > 8
        label_in = 0.25 + _CHAR_IN * _longest(rows)
        cell = min(0.36, (WIDTH - label_in - 0.2) / max(1, len(years)))
        fig = _figure(
            max(2.5, cell * len(years) + label_in + 0.2),
            max(1.6, 0.3 * len(rows) + 0.9),
            left=label_in,
            right=0.2,
            bottom=0.75 if rotate else 0.45,
        )
        ax = fig.add_subplot()
        # The palette's light end is left out: the faintest cell is still a clear blue.
        values = np.ma.masked_equal(np.array(grid, dtype=float), 0)
        ax.imshow(values, cmap="Blues", aspect="auto", vmin=-0.35 * top, vmax=top)
        ax.set_xticks(range(len(years)), [str(y) for y in years], rotation=90 if rotate else 0)
        ax.set_yticks(range(len(rows)), [_short(r) for r in rows])
        _link_ticks(ax.get_yticklabels(), "venue", link, rows)
        had = {p.year for p in papers}
        _link_ticks(
            ax.get_xticklabels(), "year", link, [str(y) if y in had else "other" for y in years]
        )
        ax.spines[:].set_visible(False)
        ax.tick_params(length=0)
        for i, row in enumerate(grid):
            for j, n in enumerate(row):
                if n:
                    # Not pure black: matplotlib would leave the colour out, and the
                    # page's text colour (light in dark mode) would take its place.
                    ink = "#ffffff" if n > top / 2 else "#111111"
                    ax.text(j, i, str(n), ha="center", va="center", fontsize=8, color=ink)
        svg = _svg(fig, names)
    filled = sum(1 for row in grid for n in row if n)
    alt = (
        f"Grid of {len(rows)} venues by {len(years)} years ({years[0]}–{years[-1]}); "
        f"{filled} of {len(rows) * len(years)} venue-years have papers, each cell "
        "showing its count; the darker a cell, the more papers."
    )
    return Chart("coverage", svg, alt, "Coverage: papers per venue and year")


def _colors(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def render_all(papers: Sequence[Paper], link: Linker = None) -> list[Chart]:
    """Every chart of the home page, in display order; none for an empty catalog."""
    if not papers:
        return []
    return [papers_per_year(papers, link), tag_counts(papers, link), coverage(papers, link)]
