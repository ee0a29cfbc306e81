"""Paper entries in Markdown lists, in the forms people actually write. Pure: no I/O.

    - [OSDI'23] [Title](url)                      a venue tag in brackets first
    * Title ([SOSP 2023](link)) \\[[Paper](url)]   a venue in parentheses, maybe a link
    * Title (arXiv 2212.00939)                    an arXiv id
    2023 Title One ASPLOS'23 Title Two arxiv ...  the blog's year lists, many on one line
    | Title | ... |  under '## OSDI 2023'         tables; venue and year from the headings

A line that is none of these (a nested note, prose, an acronym list) is skipped
and counted, never guessed into a paper.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM_RE = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")
_ROW_RE = re.compile(r"^\s*\|(.*)\|\s*$")
_SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{3,}")
_LINK_RE = re.compile(r"\[([^\[\]]*)\]\(([^()\s]*)(?:\s+\"[^\"]*\")?\)")
_PAREN_RE = re.compile(r"\(\s*(?:\[([^\[\]]+)\]\([^()\s]*\)|([^()\[\]]+))\s*\)")
_ARXIV_LABEL_RE = re.compile(r"^arxiv(?:[:\s]+(\d{4}\.\d{4,5})(v\d+)?)?(?:\s*['’]?(\d{2}|\d{4}))?$",
                             re.IGNORECASE)
_VENUE = r"([A-Za-z][\w&\-/.]*(?:\s[A-Za-z][\w&\-]*){0,2})"
_VENUE_YY_RE = re.compile(_VENUE + r"\s*['’](\d{2})$")
_VENUE_YYYY_RE = re.compile(_VENUE + r"\s+((?:19|20)\d{2})$")
_YEAR_RE = re.compile(r"^(?:19|20)\d{2}$")
_MARKER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9\-]*)['’](\d{2})[.,;]?$")
_ARXIV_WORD_RE = re.compile(r"^arxiv[.,;]?$", re.IGNORECASE)
_ARXIV_URL_RE = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})")
_LINK_WORDS = {"paper", "pdf", "link", "arxiv", "doi"}


@dataclass
class Entry:
    """One paper named in a list: what the list says, nothing more."""

    line: int
    title: str
    venue: str  # as written: 'OSDI', 'arxiv', 'VLDB'
    year: int | None
    url: str | None = None
    arxiv: str | None = None


@dataclass
class Parsed:
    """The entries of a list and the lines that are not papers."""

    entries: list[Entry] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)


def parse_label(text: str) -> tuple[str, int | None, str | None] | None:
    """(venue, year, arXiv id) from 'OSDI'23', 'SOSP 2023', 'arXiv 2212.00939'; else None."""
    text = " ".join(text.split())
    m = _ARXIV_LABEL_RE.match(text)
    if m:
        arxiv_id, year = m.group(1), m.group(3)
        if arxiv_id:
            return "arXiv", 2000 + int(arxiv_id[:2]), arxiv_id
        return "arXiv", _year(year) if year else None, None
    m = _VENUE_YY_RE.match(text) or _VENUE_YYYY_RE.match(text)
    if m:
        return m.group(1), _year(m.group(2)), None
    return None


def _year(text: str) -> int:
    return int(text) if len(text) == 4 else 2000 + int(text)


def _unescape(text: str) -> str:
    return re.sub(r"\\([\[\]_*()#|`\\])", r"\1", text)


def clean_title(text: str) -> str:
    """A title without Markdown emphasis, escapes or trailing punctuation."""
    text = _unescape(text)
    text = re.sub(r"(\*\*|__|\*|_)(.+?)\1", r"\2", text)
    text = " ".join(text.split())
    return text.strip(" -–—,;.").strip()


def _looks_like_title(title: str) -> bool:
    return len(title.split()) >= 2 and any(c.isalpha() for c in title)


class _Context:
    """Venue and year given by the headings above a line."""

    def __init__(self, venues: Collection[str]):
        self.known = {v.casefold() for v in venues}
        self.levels: dict[int, tuple[str | None, int | None]] = {}

    def heading(self, level: int, text: str) -> None:
        self.levels = {k: v for k, v in self.levels.items() if k < level}
        text = clean_title(_LINK_RE.sub(r"\1", text))
        label = parse_label(text)
        if label:
            self.levels[level] = (label[0], label[1])
        elif _YEAR_RE.match(text):
            self.levels[level] = (None, int(text))
        elif text.casefold() in self.known:
            self.levels[level] = (text, None)

    @property
    def venue(self) -> str | None:
        return next((v for _, (v, _y) in sorted(self.levels.items(), reverse=True) if v), None)

    @property
    def year(self) -> int | None:
        return next((y for _, (_v, y) in sorted(self.levels.items(), reverse=True) if y), None)


def parse(text: str, venues: Collection[str] = ()) -> Parsed:
    """Every paper entry of a Markdown list; venues lets headings like '## OSDI' count."""
    out = Parsed()
    context = _Context(venues)
    blog_year: int | None = None
    table: dict[str, int] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            table = None
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            context.heading(len(heading.group(1)), heading.group(2))
            blog_year, table = None, None
            continue
        row = _ROW_RE.match(line)
        if row:
            if _SEPARATOR_RE.match(line):
                continue
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", row.group(1))]
            if table is None:
                table = _table_header(cells)
                if table is not None:
                    continue
                table = {}
            entry = _table_row(number, cells, table, context)
        else:
            table = None
            item = _ITEM_RE.match(line)
            if item:
                nested = len(item.group(1).expandtabs(4)) >= 2
                entry = None if nested else _list_item(number, item.group(2), context)
            else:
                entries, blog_year = _blog_line(number, line, blog_year or context.year)
                if entries:
                    out.entries.extend(entries)
                    continue
                entry = None
        if entry is None:
            out.skipped.append(number)
        else:
            out.entries.append(entry)
    return out


def _links(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in _LINK_RE.finditer(text)]


def _with_arxiv(entry: Entry, text: str) -> Entry:
    if entry.arxiv is None:
        m = _ARXIV_URL_RE.search(text)
        if m:
            entry.arxiv = m.group(1)
    return entry


def _list_item(number: int, body: str, context: _Context) -> Entry | None:
    body = _unescape(body)
    # - [OSDI'23] [Title](url)   or   - [OSDI'23] Title
    first = re.match(r"^\[([^\[\]]+)\](?!\()\s*(.*)$", body)
    if first and parse_label(first.group(1)):
        venue, year, arxiv_id = parse_label(first.group(1))  # type: ignore[misc]
        rest = first.group(2)
        links = _links(rest)
        url: str | None
        if rest.startswith("[") and links:
            title, url = links[0]
        else:
            title, url = _LINK_RE.sub(r"\1", rest), _paper_url(links)
        return _entry(number, title, venue, year, url, arxiv_id, body)
    # * Title ([SOSP 2023](link)) [[Paper](url)]   or   * Title (arXiv 2212.00939)
    for m in _PAREN_RE.finditer(body):
        label = parse_label(m.group(1) or m.group(2))
        if not label:
            continue
        head = body[:m.start()].strip()
        links = _links(head)
        found: str | None
        if links and head.startswith("[") and head.endswith(")"):
            title, found = links[0]
        else:
            title, found = _LINK_RE.sub(r"\1", head), None
        url = found
        url = url or _paper_url(_links(body[m.end():]))
        return _entry(number, title, label[0], label[1], url, label[2], body)
    # - [Title](url) under '## OSDI 2023': the headings give venue and year
    if context.venue and context.year:
        links = _links(body)
        if links and body.startswith("["):
            title, url = links[0]
            return _entry(number, title, context.venue, context.year, url, None, body)
    return None


def _paper_url(links: list[tuple[str, str]]) -> str | None:
    for text, url in links:
        if text.strip().casefold() in _LINK_WORDS and url.startswith("http"):
            return url
    return None


def _entry(number: int, title: str, venue: str, year: int | None, url: str | None,
           arxiv_id: str | None, text: str) -> Entry | None:
    title = clean_title(title)
    if not _looks_like_title(title):
        return None
    if url and not url.startswith("http"):
        url = None
    return _with_arxiv(Entry(number, title, venue, year, url, arxiv_id), text)


def _table_header(cells: list[str]) -> dict[str, int] | None:
    """Column positions from a header row, or None when it is not one."""
    columns: dict[str, int] = {}
    for i, cell in enumerate(cells):
        name = clean_title(cell).casefold()
        for role, words in (("title", ("title", "paper", "name")),
                            ("venue", ("venue", "conference", "where", "published")),
                            ("year", ("year",))):
            if role not in columns and any(w == name or name.startswith(w) for w in words):
                columns[role] = i
    return columns if "title" in columns else None


def _table_row(number: int, cells: list[str], columns: dict[str, int],
               context: _Context) -> Entry | None:
    if "title" not in columns or columns["title"] >= len(cells):
        return None
    cell = _unescape(cells[columns["title"]])
    links = _links(cell)
    title, url = (links[0] if links and cell.startswith("[") else (_LINK_RE.sub(r"\1", cell),
                                                                   None))
    venue, year, arxiv_id = context.venue, context.year, None
    if "venue" in columns and columns["venue"] < len(cells):
        label = parse_label(clean_title(_LINK_RE.sub(r"\1", cells[columns["venue"]])))
        if label:
            venue, year, arxiv_id = label[0], label[1] or year, label[2]
        elif cells[columns["venue"]].strip():
            venue = clean_title(_LINK_RE.sub(r"\1", cells[columns["venue"]]))
    if "year" in columns and columns["year"] < len(cells):
        value = clean_title(cells[columns["year"]])
        year = int(value) if _YEAR_RE.match(value) else year
    if not venue or not year:
        return None
    url = url or _paper_url([lk for c in cells for lk in _links(_unescape(c))])
    return _entry(number, title, venue, year, url, arxiv_id, " ".join(cells))


def _blog_line(number: int, line: str, year: int | None) -> tuple[list[Entry], int | None]:
    """Entries of the blog's 'YEAR Title VENUE'YY Title arxiv YEAR ...' lines."""
    tokens = line.split()
    if not tokens:
        return [], year
    starts_with_year = bool(_YEAR_RE.match(tokens[0]))
    ends_with_marker = bool(_MARKER_RE.match(tokens[-1]) or _ARXIV_WORD_RE.match(tokens[-1]))
    if not starts_with_year and not (year and ends_with_marker):
        return [], year
    entries: list[Entry] = []
    words: list[str] = []
    just_closed = False
    for token in tokens:
        marker = _MARKER_RE.match(token)
        is_arxiv = bool(_ARXIV_WORD_RE.match(token))
        if not words and _YEAR_RE.match(token):
            year, just_closed = int(token), False
            continue
        if marker or is_arxiv:
            venue = marker.group(1) if marker else "arxiv"
            venue_year = _year(marker.group(2)) if marker else year
            if words:
                title = clean_title(" ".join(words))
                if _looks_like_title(title):
                    entries.append(Entry(number, title, venue, venue_year))
                words, just_closed = [], True
            elif just_closed and entries and marker:
                # 'Title arxiv ISCA'22': the preprint was published later; keep the venue
                entries[-1].venue, entries[-1].year = venue, venue_year
            continue
        words.append(token)
        just_closed = False
    return entries, year
