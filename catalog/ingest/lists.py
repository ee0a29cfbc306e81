"""Paper entries in Markdown lists, in the forms people actually write. Pure: no I/O.

    - [OSDI'23] [Title](url)                      a venue tag in brackets first
    - [Survey] [ACM CSUR'23] [Title](url)         several tags; the one that is a venue counts
    * Title ([SOSP 2023](link)) \\[[Paper](url)]   a venue in parentheses, maybe a link
    * Title (arXiv 2212.00939)                    an arXiv id
    + **Title** [[pdf](url)] NeurIPS 2021         a bold title, its links, then the venue
    1. [Title](url) arXiv 2021                    a linked title, then the venue
    - [Title](url)                                a linked title alone (venue and year from
                                                  the headings, if they give them)
    2023 Title One ASPLOS'23 Title Two arxiv ...  the blog's year lists, many on one line
    | Title | ... |  under '## OSDI 2023'         tables; venue and year from a column, a
                                                  '[ICLR'21]' tag in the title cell, or headings
                                                  (Chinese headers too: 论文, 会议, 年份)
    1. [**KDD'18**] A B, C D. [Title](url), *KDD*, 2018.   plain names, then the linked title
    - **\\[Arxiv'25\\]** [Title.](url) *Affiliation*        a bold tag
    - [Name](url): rest of the title | ATC’ 21    a linked name whose title goes on
    [Title](url), Org, KDD, 2020. - [Video](url)  a paragraph, not an item (only with a
                                                  venue or year of its own)
    **Title**\\ / _A B, C D_\\ / Venue, [[Paper](url)]\\ / 8 Aug 2024
                                                  a record of hard-broken lines (or '<br>')

A link split over two lines is joined, and so are lines ended by a hard line break.
A line in italics right under an entry is its author line: its names become the
entry's authors only when it is plainly a list of names ('A B, C D, ...'),
otherwise it is left alone and reported. A heading such as '## OSDI 25' (a registry
venue) or '### 2021' gives the venue or year of the entries below it; one such as
'# Books' or '## Datasets' says the entries below it are not papers. A line that is
none of these (a nested note, prose, an acronym list) is not a paper: it is kept
with its reason, never guessed into a paper.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from itertools import pairwise

from catalog.ingest.listentries import (
    authored_line,
    blog_line,
    list_item,
    only_links,
    paper_url,
    table_header,
    table_row,
)
from catalog.ingest.listfields import (
    BR_END_RE,
    BR_RE,
    HEADING_RE,
    ITALIC_LINE_RE,
    ITEM_RE,
    MAX_JOINED,
    MAX_PARTS,
    OPEN_ROW_RE,
    ROW_RE,
    SEPARATOR_RE,
    SETEXT_RE,
    Context,
    Entry,
    NotPaper,
    Parsed,
    links_of,
    open_brackets,
    plain_names,
)
from catalog.model import strip_controls


def _hard_break(line: str) -> bool:
    """True for a line that ends in a hard line break: a backslash, '<br>' or two spaces."""
    return (
        (line.endswith("\\") and not line.endswith("\\\\"))
        or line.endswith("  ")
        or bool(BR_END_RE.search(line.rstrip()))
    )


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) with a list item's link that runs over the next lines joined, and
    lines ended by a hard line break ('**Title**\\' then '_Authors_\\' then 'Venue') joined
    with '<br>' between them, as one record."""
    # Control characters (ESC, NUL, bidi overrides) go per line, so line numbers hold.
    raw = [strip_controls(line) for line in text.splitlines()]
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(raw):
        number, line = i + 1, raw[i].rstrip()
        i += 1
        if ITEM_RE.match(line) and open_brackets(line) > 0:
            joined, j = line, i
            while (
                open_brackets(joined) > 0
                and j < len(raw)
                and j - i < MAX_JOINED
                and _continues(raw[j])
            ):
                joined += " " + raw[j].strip()
                j += 1
            if open_brackets(joined) <= 0:
                line, i = joined, j
        parts = 1
        while (
            _hard_break(raw[i - 1])
            and line.strip()
            and i < len(raw)
            and parts < MAX_PARTS
            and _continues(raw[i])
        ):
            line = _without_break(line) + " <br> " + raw[i].rstrip()
            i += 1
            parts += 1
        out.append((number, _without_break(line) if parts > 1 else line))
    return out


def _without_break(line: str) -> str:
    """A line without the hard line break at its end."""
    line = BR_END_RE.sub("", line.rstrip()).rstrip()
    return line[:-1].rstrip() if line.endswith("\\") and not line.endswith("\\\\") else line


def _continues(line: str) -> bool:
    """True for a line that may continue the one above: not blank, a heading, an item or a
    table row."""
    return bool(line.strip()) and not (
        HEADING_RE.match(line) or ITEM_RE.match(line) or ROW_RE.match(line)
    )


def parse(text: str, venues: Collection[str] = ()) -> Parsed:
    """Every paper entry of a Markdown list; venues lets headings like '## OSDI' count."""
    out = Parsed()
    context = Context(venues)
    blog_year: int | None = None
    table: dict[str, int] | None = None
    last_item: Entry | None = None  # the entry an author line just below would belong to
    authored: Entry | None = None  # a 'Title (YEAR), Authors' line whose links may follow
    lines = _logical_lines(text)
    setext = _setext_headings(lines)

    def skip(number: int, line: str, reason: str, listed: bool = False) -> None:
        out.not_papers.append(NotPaper(number, line.strip(), reason, listed))

    def add(entry: Entry, line: str) -> bool:
        """Keep an entry, unless a heading above says its section is not papers."""
        if context.section is not None:
            skip(
                entry.line,
                line,
                f"listed under '{context.section}', a section that is not papers",
                listed=True,
            )
            return False
        out.entries.append(entry)
        return True

    for number, line in lines:
        if not line.strip():
            table = None
            continue
        heading = HEADING_RE.match(line)
        if heading or number in setext:
            level, title = (
                (len(heading.group(1)), heading.group(2))
                if heading
                else (setext[number], line.strip())
            )
            context.heading(level, title.rstrip().rstrip("#").rstrip())
            blog_year, table, last_item = None, None, None
            continue
        if SETEXT_RE.match(line) and number - 1 in setext:
            continue  # the '----' under a heading
        italic = ITALIC_LINE_RE.match(line)
        if italic and last_item is not None:
            names = plain_names(italic.group(2))
            if names:
                last_item.authors = names
                skip(number, line, f"the authors of the entry on line {last_item.line}")
            else:
                skip(
                    number,
                    line,
                    f"under the entry on line {last_item.line} but not plainly "
                    "a list of names: not used as its authors",
                    listed=True,
                )
            last_item = None
            continue
        last_item = None
        # Rows may leave off the closing '|' once the table has begun.
        row = ROW_RE.match(line) or (OPEN_ROW_RE.match(line) if table is not None else None)
        entry: Entry | None
        if row:
            if SEPARATOR_RE.match(line):
                continue
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", row.group(1))]
            if table is None:
                table = table_header(cells)
                if table is not None:
                    continue
                table = {}
            entry, reason = table_row(number, cells, table, context)
            if entry is None:
                skip(number, line, reason, listed=True)
                continue
        else:
            table = None
            item = ITEM_RE.match(line)
            if item:
                nested = len(item.group(1).expandtabs(4)) >= 2
                entry, reason = list_item(number, item.group(2), context)
                if entry is None:
                    # Papers under a topic bullet are read like any; a nested note is quiet.
                    skip(
                        number,
                        line,
                        "a nested item"
                        if nested and not reason.startswith("looks like")
                        else reason,
                        listed=not nested or reason.startswith("looks like"),
                    )
                    continue
                if add(entry, line):
                    last_item = entry
                continue
            else:
                if authored is not None and only_links(line):
                    # '[[pdf]](url)' under 'Title (2009), A. Author, ...': that entry's link
                    authored.url = authored.url or paper_url(links_of(line))
                    skip(number, line, f"the links of the entry on line {authored.line}")
                    authored = None
                    continue
                authored = authored_line(number, line, context)
                if authored is not None:
                    add(authored, line)
                    continue
                paragraph = _paragraph(number, line, context)
                if paragraph is not None:
                    if add(paragraph, line):
                        last_item = paragraph
                    continue
                entries, blog_year = blog_line(number, line, blog_year or context.year)
                if entries:
                    for one in entries:
                        add(one, line)
                else:
                    skip(number, line, "not a list item, table row or year list")
                continue
        add(entry, line)
    return out


def _setext_headings(lines: list[tuple[int, str]]) -> dict[int, int]:
    """The line numbers of 'Title' lines underlined with '====' (level 1) or '----' (2)."""
    found: dict[int, int] = {}
    for (number, line), (below, under) in pairwise(lines):
        mark = SETEXT_RE.match(under)
        if (
            mark
            and below == number + 1
            and line.strip()
            and "<br>" not in line
            and not (HEADING_RE.match(line) or ITEM_RE.match(line) or ROW_RE.match(line))
        ):
            found[number] = 1 if mark.group(1).startswith("=") else 2
    return found


def _paragraph(number: int, line: str, context: Context) -> Entry | None:
    """An entry written as a paragraph, not a list item: '[Title](url), Org, KDD, 2020.' or a
    record of hard-broken lines ('**Title**' / '_Authors_' / 'Venue, [[Paper](url)]' /
    '8 Aug 2024'). Only when the line itself gives a venue or year: prose is not guessed at."""
    body = line.strip()
    if not body.startswith(("[", "**", "__", "<a ")) and not BR_RE.search(body):
        return None
    entry, _reason = list_item(number, body, Context(context.known))
    if entry is None or not (entry.venue or entry.year):
        return None
    return list_item(number, body, context)[0]
