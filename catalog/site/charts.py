"""Charts of the catalog as SVG text: the geometry here, the markup in the template
overrides/papers/chart.html (autoescaped, so a name from the data stays text).

Coordinates are points (the file's width and height are in pt); numbers are rounded,
so the same catalog always gives byte-identical SVG.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from catalog.model import Paper
from catalog.site.templates import render

# Beyond this many venues or tags a chart lumps the rest together, to stay legible.
MAX_TAGS = 25
MAX_GRID_VENUES = 20


@dataclass(frozen=True)
class Chart:
    """One chart: its file name, SVG text, alt text and a caption."""

    name: str
    svg: str
    alt: str
    caption: str


# A link for a year, venue or tag: ("year", "2022") -> "years/2022/"; None draws no links.
Linker = Callable[[str, str], str] | None


# What a bar's or a label's link is called for assistive technology, by its page's kind.
_LINK_NAMES = {"year": "Papers of {}", "tag": "Papers tagged {}", "venue": "Papers at {}"}

# Charts are drawn this wide (pt): at a phone's 358 px of text width their 11 pt labels
# still read at about 11 px, and no chart needs a sideways scroll.
WIDTH = 360
FONT = 11


def _text_width(text: str, size: float) -> float:
    """About how wide a sans-serif label is: wide (East Asian) characters a whole em,
    marks nothing, the rest 0.6 em (a little over Arial's average, so labels fit)."""
    ems = sum(
        1.0 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 0.6
        for c in text
    )
    return ems * size


# The longest label a chart shows whole, in characters and in points (40 Latin letters,
# fewer wide ones); a longer one (a hand-edited tag) is cut, so that the margin its
# length sets leaves room for the bars.
MAX_LABEL = 40


def _short(label: str) -> str:
    room = _text_width("x" * MAX_LABEL, FONT)
    if len(label) <= MAX_LABEL and _text_width(label, FONT) <= room:
        return label
    cut = label[: MAX_LABEL - 1]
    while _text_width(cut + "…", FONT) > room:
        cut = cut[:-1]
    return cut + "…"


@dataclass(frozen=True)
class Label:
    """A label as drawn, and where it leads with the link's name (None: no link)."""

    text: str
    href: str | None = None
    name: str | None = None


def _label(kind: str, name: str, link: Linker, linked: bool = True) -> Label:
    if link is None or not linked:
        return Label(_short(name))
    return Label(_short(name), link(kind, name), _LINK_NAMES[kind].format(name))


def _widest(labels: Sequence[Label]) -> float:
    return max((_text_width(label.text, FONT) for label in labels), default=0)


def _ticks(top: int) -> list[int]:
    """Round counts from 0 to at least `top`, at most 6 of them: steps of 1, 2, 5, 10, 20..."""
    step = 1
    while math.ceil(top / step) > 5:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return list(range(0, step * math.ceil(max(top, 1) / step) + 1, step))


def _num(x: float) -> float | int:
    """A coordinate as written: to a tenth of a point, whole numbers without '.0'."""
    rounded = round(x, 1)
    return int(rounded) if rounded == int(rounded) else rounded


def _bars(labels: Sequence[Label], counts: Sequence[int], theme_dir: Path | None) -> str:
    """Horizontal bars in the order given (the first on top), each count at its bar's end,
    over a count axis; a linked label and its bar are one link."""
    row, bar, top, bottom, right = 18, 12.6, 8, 36, 30
    left = _widest(labels) + 12
    ticks = _ticks(max(counts, default=0))
    scale = (WIDTH - left - right) / ticks[-1]
    axis_y = top + row * len(labels)
    rows = [
        {
            "label": label,
            "count": count,
            "y": _num(top + row * (i + 0.5)),
            "bar_y": _num(top + row * (i + 0.5) - bar / 2),
            "length": _num(count * scale),
            "count_x": _num(left + count * scale + 3),
        }
        for i, (label, count) in enumerate(zip(labels, counts, strict=True))
    ]
    return render(
        "chart.html",
        theme_dir,
        kind="bars",
        width=WIDTH,
        height=axis_y + bottom,
        left=_num(left),
        label_x=_num(left - 6),
        bar=bar,
        rows=rows,
        top=top,
        axis_y=axis_y,
        ticks=[(_num(left + t * scale), t) for t in ticks],
        tick_y=axis_y + 15,
        title_x=_num((left + WIDTH - right) / 2),
        title_y=axis_y + 31,
    )


def _year_span(papers: Sequence[Paper]) -> list[int]:
    years = [p.year for p in papers]
    return list(range(min(years), max(years) + 1)) if years else []


def _top(counter: Counter[str], limit: int) -> list[str]:
    """The `limit` most common names (ties by name); the rest become 'other'."""
    ranked = sorted(counter, key=lambda k: (-counter[k], k.lower(), k))
    return ranked if len(ranked) <= limit else ranked[: limit - 1]


def papers_per_year(
    papers: Sequence[Paper], link: Linker = None, theme_dir: Path | None = None
) -> Chart:
    """Horizontal bars of papers per year, newest on top, each linking to its year's page.

    Not stacked by venue: with hundreds of venues the stack was mostly 'other';
    the coverage grid shows the venues.
    """
    years = _year_span(papers)[::-1]
    per_year = Counter(p.year for p in papers)
    labels = [_label("year", str(y), link, linked=per_year[y] > 0) for y in years]
    svg = _bars(labels, [per_year[y] for y in years], theme_dir)
    peak = max(per_year, key=lambda y: (per_year[y], y))
    alt = (
        f"Bar chart of papers per year from {years[-1]} to {years[0]}; the busiest year "
        f"is {peak} with {per_year[peak]} papers."
    )
    return Chart("papers-per-year", svg, alt, "Papers per year")


def tag_counts(
    papers: Sequence[Paper], link: Linker = None, theme_dir: Path | None = None
) -> Chart:
    """Horizontal bars of how many papers carry each tag, the most used on top."""
    counter = Counter(t for p in papers for t in dict.fromkeys(p.tags))
    shown = _top(counter, MAX_TAGS)
    svg = _bars([_label("tag", t, link) for t in shown], [counter[t] for t in shown], theme_dir)
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


# The grid's palette: a cell's blue runs from the first (one paper) to the second (the
# most); the faintest is still a clear blue on a white or a dark page.
_FAINT = (198, 219, 239)
_DEEP = (8, 48, 107)


def _luminance(rgb: Sequence[float]) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _cell_colours(n: int, most: int) -> tuple[str, str]:
    """A cell's fill for its count, and the ink (black or white, whichever contrasts
    more: at least 4.58:1) its count is written in."""
    share = (n - 1) / (most - 1) if most > 1 else 1.0
    rgb = [round(a + (b - a) * share) for a, b in zip(_FAINT, _DEEP, strict=True)]
    lum = _luminance(rgb)
    ink = "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"
    return "#{:02x}{:02x}{:02x}".format(*rgb), ink


def _grid(
    rows: Sequence[Label],
    columns: Sequence[Label],
    counts: Sequence[Sequence[int]],
    theme_dir: Path | None,
) -> str:
    """A grid of counts, rows labelled on the left and columns below (turned upright when
    many); empty cells are left out, so the page shows through."""
    row, top = 20, 8
    left = _widest(rows) + 12
    cell = min(26.0, (WIDTH - left - 14) / max(1, len(columns)))
    # Year labels and counts shrink to fit narrow columns (a long span of years).
    column_size = min(FONT, cell / 0.75)
    upright = len(columns) > 8
    axis_y = top + row * len(rows)
    bottom = (_text_width("0000", column_size) + 10) if upright else 24
    most = max((max(r) for r in counts), default=0)
    cells = []
    for i, line in enumerate(counts):
        for j, n in enumerate(line):
            if n:
                fill, ink = _cell_colours(n, most)
                x, y = left + j * cell, top + i * row
                cells.append(
                    {
                        "x": _num(x + 0.5),
                        "y": _num(y + 0.5),
                        "mid_x": _num(x + cell / 2),
                        "mid_y": _num(y + row / 2),
                        "n": n,
                        "fill": fill,
                        "ink": ink,
                    }
                )
    return render(
        "chart.html",
        theme_dir,
        kind="grid",
        width=_num(max(180, left + cell * len(columns) + 14)),
        height=_num(axis_y + bottom),
        label_x=_num(left - 6),
        cell_w=_num(cell - 1),
        cell_h=row - 1,
        count_size=_num(max(5, min(8, cell / (0.6 * len(str(most)) + 0.3)))),
        column_size=_num(column_size),
        rows=[(label, _num(top + row * (i + 0.5))) for i, label in enumerate(rows)],
        columns=[(label, _num(left + cell * (j + 0.5))) for j, label in enumerate(columns)],
        column_y=axis_y + 6,
        upright=upright,
        cells=cells,
    )


def coverage(papers: Sequence[Paper], link: Linker = None, theme_dir: Path | None = None) -> Chart:
    """A venue × year grid whose cells count the papers (at least one paper).

    The counts are written in a colour fixed against their cell, so the grid reads
    on a light or a dark page.
    """
    years = _year_span(papers)
    venue_counts = Counter(p.venue for p in papers)
    shown = _top(venue_counts, MAX_GRID_VENUES)
    lumped = len(shown) < len(venue_counts)
    grid = [[0] * len(years) for _ in range(len(shown) + lumped)]
    row_of = {v: i for i, v in enumerate(shown)}
    for p in papers:
        grid[row_of.get(p.venue, len(shown))][p.year - years[0]] += 1
    rows = [_label("venue", v, link) for v in shown] + [Label("other")] * lumped
    had = {p.year for p in papers}
    columns = [_label("year", str(y), link, linked=y in had) for y in years]
    svg = _grid(rows, columns, grid, theme_dir)
    filled = sum(1 for row in grid for n in row if n)
    alt = (
        f"Grid of {len(rows)} venues by {len(years)} years ({years[0]}–{years[-1]}); "
        f"{filled} of {len(rows) * len(years)} venue-years have papers, each cell "
        "showing its count; the darker a cell, the more papers."
    )
    return Chart("coverage", svg, alt, "Coverage: papers per venue and year")


def render_all(
    papers: Sequence[Paper], link: Linker = None, theme_dir: Path | None = None
) -> list[Chart]:
    """Every chart of the home page, in display order; none for an empty catalog."""
    if not papers:
        return []
    return [
        papers_per_year(papers, link, theme_dir),
        tag_counts(papers, link, theme_dir),
        coverage(papers, link, theme_dir),
    ]
