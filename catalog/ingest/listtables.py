"""Tables of papers read by the role of each column. Pure.

A column's role comes from its header words (Title/Paper, Name/Model, Venue/
Publication/Series/Conference, Year, Authors, Link; Chinese headers too) and from its
cells: which column holds long titles, which holds venues and years, which holds only
links. A column of short names beside one of long titles is the nickname; a 'Paper'
column whose cells are only a link labelled 'Paper' gives the paper's URL, not its title.
A row with no title but a name and a link is kept by them, with its venue and year, so
`import --fetch` can complete it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from catalog.ingest.listfields import (
    CELL_LINK_WORDS,
    LINK_LABELS,
    YEAR_RE,
    Context,
    Entry,
    cited,
    clean_title,
    names_of,
    parse_label,
)
from catalog.ingest.listinline import links_of, plain_text, render
from catalog.ingest.listpieces import entry_of, find, paper_url, pieces

Row = tuple[int, list[str]]
# Header words of each column role, English and Chinese ('论文' paper, '会议' conference,
# '年份' year, '作者' authors, '模型' model, '链接' link).
_HEADER_WORDS = (
    ("title", ("title", "paper title", "paper", "papers", "论文", "标题", "题目", "제목", "논문")),
    ("name", ("name", "model", "system", "method", "scheduler", "framework", "模型", "名称")),
    (
        "venue",
        (
            "venue",
            "conference",
            "conf",
            "publication",
            "published",
            "series",
            "journal",
            "where",
            "source",
            "会议",
            "期刊",
            "发表",
            "来源",
            "出处",
        ),
    ),
    ("year", ("year", "date", "年份", "年", "时间", "연도", "발행일")),
    ("authors", ("author", "authors", "作者", "저자")),
    ("link", ("link", "links", "pdf", "url", "code", "链接", "링크", "원문")),
    # remarks on a paper: never its title, however long
    (
        "note",
        (
            "remark",
            "note",
            "comment",
            "description",
            "summary",
            "highlight",
            "keyword",
            "tag",
            "category",
            "topic",
            "contribution",
            "task",
            "dataset",
            "备注",
            "说明",
            "简介",
            "分类",
        ),
    ),
)
_DATE_RE = re.compile(r"^(?:19|20)\d{2}(?:[.\-/]\d{1,2}){0,2}\Z")  # '2019', '2019.08'


@dataclass
class Columns:
    """Where each role is: column indexes, None when the table has no such column."""

    title: int | None = None
    named: bool = False  # the title column is a Name column: a row needs a link too
    name: int | None = None
    venue: int | None = None
    year: int | None = None
    authors: int | None = None


def _header_role(cell: str) -> str | None:
    name = _plain(cell).casefold()
    for role, words in _HEADER_WORDS:
        if any(name == w or name.startswith(w + " ") or name.startswith(w) for w in words):
            return role
    return None


def _plain(cell: str) -> str:
    return clean_title(plain_text(cell))


def _only_links(cell: str) -> bool:
    """A cell of nothing but links labelled with link words ('[Paper](url)', '[pdf]')."""
    inline = render(cell)
    links = [t for t, h in inline.groups if h is not None]
    return (
        bool(links)
        and not inline.bare().strip(" \t[]()|,;/-")
        and all(clean_title(text).casefold() in LINK_LABELS or _site(text) for text in links)
    )


def _site(text: str) -> bool:
    """A link's text that names the site it leads to ('mlr.press', 'dl.acm', 'ieee')."""
    word = clean_title(text)
    return bool(word) and " " not in word and ("." in word or word.islower())


def _share(cells: list[str], test: object) -> float:
    full = [c for c in cells if _plain(c) and _plain(c) not in "-—"]
    return sum(bool(test(c)) for c in full) / len(full) if full else 0.0  # type: ignore[operator]


def _words(cells: list[str]) -> float:
    full = [len(_plain(c).split()) for c in cells if _plain(c) and not _only_links(c)]
    return sum(full) / len(full) if full else 0.0


def roles(header: list[str], body: list[list[str]], context: Context) -> Columns:
    """The role of each column, from the header's words and the cells below."""
    width = len(header)
    cells = [[row[j] if j < len(row) else "" for row in body] for j in range(width)]
    named = {j: _header_role(cell) for j, cell in enumerate(header)}
    found = Columns()

    def first(role: str) -> int | None:
        return next((j for j, r in named.items() if r == role), None)

    found.year = first("year")
    found.authors = first("authors")
    # a 'Source' or 'Published' column of long titles is the papers' column, not the venue's
    for j, role in named.items():
        venues = _share(cells[j], lambda c: _venue_cell(c, context))
        if role == "venue" and _words(cells[j]) >= 3.5 and venues < 0.5:
            named[j] = "title" if first("title") is None else None
    found.venue = first("venue")
    free = [j for j in range(width) if named[j] in (None, "title", "name")]
    if found.venue is None:  # a column of venues ('RecSys 2023', 'OSDI'), unnamed
        found.venue = next(
            (
                j
                for j in free
                if _share(cells[j], lambda c: _venue_cell(c, context)) >= 0.6
                and _words(cells[j]) <= 4
                and _share(cells[j], _only_links) < 0.5  # '[arxiv](url)' links a paper
            ),
            None,
        )
    if found.year is None:
        found.year = next(
            (j for j in free if _share(cells[j], lambda c: _DATE_RE.match(_plain(c))) >= 0.8),
            None,
        )
    taken = {found.venue, found.year, found.authors}
    texts = [j for j in free if j not in taken and _share(cells[j], _only_links) < 0.5]
    title = first("title")
    if title is not None and title in texts:
        found.title = title
    elif title is not None and first("name") in texts:
        found.title = title  # a 'Paper' column of links: the URL, and the name beside
    else:  # the column of long titles, else the named one
        long = max(texts, key=lambda j: _words(cells[j]), default=None)
        if long is not None and _words(cells[long]) >= 3.5:
            found.title = long
        else:
            found.title = first("name") if first("name") in texts else None
            found.named = found.title is not None
    found.name = next(
        (j for j in texts if named[j] == "name" and j != found.title),
        None,
    )
    return found


def _text_title(cell: str, context: Context) -> str:
    """A title cell of text: the title the one reader finds in it, decorations left out; the
    whole cell when what follows that title is plain words ('...: Provider Fairness,
    Temporal Stability, and Recency', where a line's reader would see a name)."""
    found = find(cell, context.known)
    plain = clean_title(_plain(cell))
    rest = plain[len(found.title) :] if plain.startswith(found.title) else ""
    words = rest and not links_of(cell) and "<" not in cell
    if found.title and words and found.label is None and not re.search(r"[\[\]()@|]", rest):
        return plain
    return found.title


def _venue_year(text: str) -> tuple[str, int | None, None]:
    """A venue cell's name and the year after it ('Proceedings of the IEEE 2023')."""
    head, _, last = text.rpartition(" ")
    if head.strip(" ,") and YEAR_RE.match(last):
        return head.strip(" ,"), int(last), None
    return text, None, None


def _venue_cell(cell: str, context: Context) -> bool:
    text = _plain(cell)
    label = parse_label(text)
    return bool(label and label[0]) or text.casefold() in context.known


def read_table(rows: list[Row], context: Context) -> tuple[list[Entry], list[tuple[int, str]]]:
    """The entries of a table's rows (the header row first) and the rows that are not
    papers, with why."""
    (_head, header), body = rows[0], rows[1:]
    columns = roles(header, [cells for _n, cells in body], context)
    skipped: list[tuple[int, str]] = []
    entries: list[Entry] = []
    if columns.title is None and columns.name is None:
        skipped += [(n, "a row of a table with no Title, Paper or Name column") for n, _c in body]
        return entries, skipped
    for number, cells in body:
        entry, reason = table_row(number, cells, columns, context)
        if entry is None:
            skipped.append((number, reason))
        else:
            entries.append(entry)
    return entries, skipped


def _cell(cells: list[str], at: int | None) -> str:
    return cells[at] if at is not None and at < len(cells) else ""


def table_row(
    number: int, cells: list[str], columns: Columns, context: Context
) -> tuple[Entry | None, str]:
    """The entry of a table row, or None and why it is not one."""
    cell, label = _tagged(_cell(cells, columns.title))
    links = links_of(cell)
    url: str | None = None
    if _only_links(cell):  # '[Paper](url)': the paper's link, not its title
        title, url = "", links[0][1]
    else:
        inline = render(cell)  # a cell that begins with a link: its text is the title
        lead = inline.group(inline.text.lstrip()[:1])
        linked = lead is not None and lead[1] is not None
        # a cell of text: its title as the one reader finds it in a line ('🔥[**Nick**]
        # Title(@Org)' gives 'Title'), else the cell's words
        title = lead[0] if lead and linked else _text_title(cell, context)
        title = title or _drop_link_words(_plain(cell))
        url = lead[1] if lead and linked else None
    nickname = _plain(_cell(cells, columns.name)) or None
    venue_text = _plain(_cell(cells, columns.venue))
    if label is None and venue_text and venue_text not in "-—":
        label = parse_label(venue_text) or _venue_year(venue_text)
    year_text = _plain(_cell(cells, columns.year))
    if label is None and (dated := parse_label(year_text)) and dated[0]:
        label = dated  # a Year column of 'ICLR 2018'
    year_m = re.search(r"(?:19|20)\d{2}", year_text)
    if year_m and (label is None or label[1] is None):
        venue, _y, arxiv_id = label or (context.venue, None, None)
        label = (venue or "", int(year_m.group(0)), arxiv_id)
    every = [lk for c in cells for lk in links_of(c)]
    url = url or paper_url(every)
    if not url and every and not (label and label[0]) and all(_side_link(t) for t, _h in every):
        return None, "software, docs or a blog (its links are the project's), not a paper"
    if not title.strip(" -—"):
        if not (nickname and url):
            return None, "a table row with no title"
        title = ""
    entry, reason = entry_of(number, title or nickname or "", label, url, " ".join(cells), context)
    if entry is None:
        return None, reason
    if columns.named and not entry.url:
        return None, "a row that names a system, with no title or link to a paper"
    entry.venue = entry.venue or None
    if not title:
        entry.title = ""
    entry.nickname = nickname if nickname != entry.title else None
    if columns.authors is not None:
        entry.authors, entry.et_al = _author_cell(_cell(cells, columns.authors))
    elif title and (ref := cited(title)) is not None:  # a reference in author-date style
        entry.title, entry.authors, entry.et_al = ref.title, ref.authors, ref.et_al
        entry.year = entry.year or ref.year
    return entry, ""


# Labels of a project's own links: a row whose links are all such is software or docs.
_SIDE_LINKS = frozenset(
    {"docs", "documentation", "github", "gitlab", "code", "blog", "website", "homepage"}
    | {"project", "project page", "demo", "video", "slides", "repo", "official code", ""}
)


def _side_link(text: str) -> bool:
    return clean_title(text).strip("[]").casefold() in _SIDE_LINKS


def _tagged(cell: str) -> tuple[str, tuple[str, int | None, str | None] | None]:
    """A title cell without the venue tag at its start or end ('[OSDI'23] Title', 'Title
    [ICLR'21]'), and the tag's label."""
    spans = pieces(cell)
    for start, end, in_group in (spans[-1:] + spans[:1]) if spans else []:
        label = parse_label(cell[start:end].strip("[]() ")) if in_group else None
        if label is not None and cell[start] == "[" and cell[end : end + 1] != "(":
            # a tag, never a link's text ('[arxiv](url)')
            return (cell[:start] + cell[end:]).strip(), label
    return cell, None


def _drop_link_words(title: str) -> str:
    """A title without the link words left at its end ('... Ranking paper', '... note')."""
    words = title.split()
    while len(words) > 2 and words[-1].casefold().strip("[]()") in CELL_LINK_WORDS:
        words.pop()
    return " ".join(words)


def _author_cell(cell: str) -> tuple[list[str], bool]:
    """The names of an Authors cell ('A B; C D; etc.', 'A B, C D, et al.'), only when each
    is plainly a name."""
    names, et_al = names_of(_plain(cell))
    return (names, et_al) if names else ([], False)


class _HtmlTables(HTMLParser):
    """The rows of each <table> and the <li> items outside tables: their texts with the
    anchors as Markdown links."""

    def __init__(self, first_line: int):
        super().__init__(convert_charrefs=True)
        self.first_line = first_line
        self.tables: list[list[Row]] = []
        self.items: list[tuple[int, list[str]]] = []  # each <li>: its line, its text
        self.cell: list[str] | None = None
        self.href = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "li" and not self.tables:
            self.items.append((self.first_line + self.getpos()[0] - 1, []))
            self.cell = self.items[-1][1]
        elif tag == "tr" and self.tables:
            self.tables[-1].append((self.first_line + self.getpos()[0] - 1, []))
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self.cell = []
        elif tag == "a" and self.cell is not None:
            # written as a Markdown link, read like one
            self.href = "".join((dict(attrs).get("href") or "").split()).replace(")", "%29")
            self.cell.append("[")
        elif tag == "br" and self.cell is not None:
            self.cell.append(" <br> ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and not self.tables:
            self.cell = None
        elif tag in ("td", "th") and self.cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1][1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "a" and self.cell is not None:
            self.cell.append(f"]({self.href})")

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def html_blocks(content: str, first_line: int) -> tuple[list[list[Row]], list[tuple[int, str]]]:
    """The tables of an HTML block, each as rows of cells (the header row first), and its
    list items ('<li>'), each as (line, text) with its anchors as Markdown links."""
    reader = _HtmlTables(first_line)
    reader.feed(content)
    reader.close()
    items = [(line, " ".join("".join(parts).split())) for line, parts in reader.items]
    return [rows for rows in reader.tables if len(rows) > 1], [i for i in items if i[1]]
