"""Paper entries in Markdown lists, read by their fields. Pure: no I/O.

A CommonMark parser (markdown-it-py, with its GitHub table rule) finds the structure:
list items with their continuation lines and nesting, headings, tables and their cells,
paragraphs, hard line breaks. No pattern of ours decides what a bullet, a table or a
link is (one repair aside: '-Text' under an item, a bullet missing its space, which
CommonMark reads as more of the item). Each entry's text is normalised (Unicode NFKC, so
fullwidth brackets, semicolons and digits are their ASCII forms; lenticular brackets
'【】' become '[]'), then its fields are found wherever they stand (listpieces,
listfields): the title, its links, the venue and year, the authors. A heading such as
'## OSDI 2023' or '### 2021' gives the venue or year of the entries below it; one such
as '## Datasets' says the entries below are not papers. Tables are read by the role of
each column (listtables).

Every line is accounted for: an entry, a line of an entry (its authors, its links), or
a line that is not a paper with the reason why.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from functools import cache
from typing import TYPE_CHECKING

from catalog.ingest.listcite import dated_names, venue_of
from catalog.ingest.listfields import (
    MAX_PARTS,
    Context,
    Entry,
    NotPaper,
    Parsed,
    names_of,
    parse_label,
)
from catalog.ingest.listinline import italics, links_of, plain_text
from catalog.ingest.listpieces import (
    NO_FIELDS,
    blog_line,
    entry_of_found,
    find,
    labelled_names,
    only_links,
    paper_url,
    title_line,
)
from catalog.ingest.listtables import html_blocks, read_table
from catalog.model import strip_controls

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

# Brackets NFKC leaves alone that lists use as ASCII ones: '【注释】', '〔2019〕'.
_BRACKETS = str.maketrans({"【": "[", "】": "]", "〔": "[", "〕": "]", "〖": "[", "〗": "]"})


def normalise(text: str) -> str:
    """Text in NFKC with the brackets above made ASCII, control characters gone."""
    return strip_controls(unicodedata.normalize("NFKC", text).translate(_BRACKETS), multiline=True)


_BROKEN_BULLET_RE = re.compile(r"^[-*+][^\s\-*+]")
# '1、', '3.', '(2)' before a heading that names a paper
_ENUMERATION_RE = re.compile(r"^\(?\d{1,3}[.、)]\s*")


@cache
def markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt

    class Parser(MarkdownIt):
        """Every link as written, 'javascript:' included: kept_url judges it, with a note;
        nothing read here is rendered as HTML."""

        def validateLink(self, url: str) -> bool:
            return True

        def normalizeLink(self, url: str) -> str:
            return url

    return Parser("commonmark").enable("table")


# the end of a line that the parser read as a hard line break
_HARD = "\x03"


def _records(lines: list[tuple[int, str]]) -> list[tuple[int, str, list[int]]]:
    """Lines ended by a hard line break joined with '<br>' to the next (a record of
    '**Title**\\' / '_Authors_\\' / 'Venue'): (first line, text, the lines joined)."""
    out: list[tuple[int, str, list[int]]] = []
    i = 0
    while i < len(lines):
        number, text = lines[i]
        used = [number]
        i += 1
        while text.endswith(_HARD) and i < len(lines) and len(used) < MAX_PARTS:
            text = text[:-1] + " <br> " + lines[i][1]
            used.append(lines[i][0])
            i += 1
        out.append((number, text.rstrip(_HARD).strip(), used))
    return out


def _breaks(inline: Token) -> dict[int, str]:
    """The lines of a paragraph that end in a hard line break (a backslash, two spaces,
    '<br>'), as the parser reads them, each with the text of its break."""
    from catalog.ingest.listinline import html_tag

    ends: dict[int, str] = {}
    line = 0
    children = inline.children or []
    for k, child in enumerate(children):
        if child.type == "hardbreak":
            ends[line] = "\\"
        elif child.type == "softbreak" and k and html_tag(children[k - 1].content)[0] == "br":
            ends[line] = children[k - 1].content
        line += child.type in ("hardbreak", "softbreak")
    return ends


class _Reader:
    """Walks the parser's tokens, keeping the heading context and the outcome."""

    def __init__(self, source: list[str], venues: Collection[str]):
        self.source = source
        self.context = Context(venues)
        self.out = Parsed()
        self.waiting: dict[int, Entry] = {}  # titles whose fields may be in the items below

    def skip(self, number: int, reason: str, listed: bool = False) -> None:
        text = self.source[number - 1].strip() if 0 < number <= len(self.source) else ""
        self.out.not_papers.append(NotPaper(number, text, reason, listed))

    def add(self, entry: Entry) -> bool:
        """Keep an entry, unless a heading above says its section is not papers."""
        published = bool(entry.venue and entry.year and entry.venue != self.context.venue)
        if self.context.section is not None and not (published and self.context.software):
            # a row with its own venue and year under '### GNN Libraries' is a paper on one
            self.skip(
                entry.line,
                f"listed under '{self.context.section}', a section that is not papers",
                listed=True,
            )
            return False
        self.out.entries.append(entry)
        return True

    def walk(self, tokens: list[Token]) -> None:
        depth = 0  # list items open around the token
        # per open item: its entry once its first paragraph is read (None: not a paper)
        in_item: list[Entry | bool | None] = []
        i = 0
        while i < len(tokens):
            token = tokens[i]
            kind = token.type
            if kind == "heading_open" and token.map:
                self.heading(token.map[0] + 1, int(token.tag[1]), tokens[i + 1].content)
            elif kind == "list_item_open":
                depth += 1
                in_item.append(False)
            elif kind == "list_item_close":
                depth -= 1
                in_item.pop()
            elif kind == "paragraph_open" and token.map:
                lines = self._lines(token.map, tokens[i + 1])
                if depth and in_item[-1] is False:
                    above = next((e for e in in_item[-2::-1] if isinstance(e, Entry)), None)
                    in_item[-1] = self.item(lines, nested=depth > 1, parent=above)
                elif depth:
                    self.under_item(lines, in_item[-1])
                else:
                    self.paragraph(lines)
            elif kind == "table_open":
                end = next(j for j in range(i, len(tokens)) if tokens[j].type == "table_close")
                self.table(_table_rows(tokens[i:end]))
                i = end
            elif kind == "html_block" and token.map:
                self.html(token.map, token.content)
            elif kind in ("fence", "code_block", "blockquote_open") and token.map:
                # a quote or code under an entry is a note on it
                if kind == "blockquote_open":
                    end = _closing(tokens, i)
                    i = end
                for number in range(token.map[0] + 1, token.map[1] + 1):
                    if self.source[number - 1].strip():
                        self.skip(number, "a quote or code block")
            i += 1

    def _lines(self, span: list[int], inline: Token) -> list[tuple[int, str]]:
        """(line number, text) of a paragraph's lines, a hard line break at a line's end
        written as _HARD; its content has the list markers and indentation removed."""
        ends = _breaks(inline)
        lines = []
        for k, line in enumerate(inline.content.split("\n")):
            if k in ends:
                line = line.rstrip().removesuffix(ends[k]).rstrip() + _HARD
            lines.append((span[0] + 1 + k, line.lstrip()))
        return lines

    def heading(self, number: int, level: int, text: str) -> None:
        """A heading: the venue, year or kind of section below it; or a paper itself when
        it reads as one ('### 3. Title. Ann Example, Bo Sample and Cy Placeholder')."""
        self.context.heading(level, plain_text(text))
        body = _ENUMERATION_RE.sub("", text.strip())
        found = find(body, self.context.known)
        if found.title and (len(found.authors) > 1 or found.et_al) and found.label is None:
            entry, _why = entry_of_found(number, body, self.context)
            if entry is not None:
                self.add(entry)

    def under_item(self, lines: list[tuple[int, str]], entry: Entry | bool | None) -> None:
        """A paragraph under a list item: its author line ('*A B, C D*'), or a note."""
        italic = italics(lines[0][1]) if len(lines) == 1 else None
        if isinstance(entry, Entry) and italic and not entry.authors:
            self.authors(entry, lines[0][0], italic)
            return
        for number, _ in lines:
            self.skip(number, "a paragraph under a list item")

    def authors(self, entry: Entry, number: int, text: str) -> None:
        """An italic line under an entry: its authors when plainly a list of names."""
        names, et_al = names_of(text)
        if names:
            entry.authors, entry.et_al = names, et_al
            self.skip(number, f"the authors of the entry on line {entry.line}")
        else:
            self.skip(
                number,
                f"under the entry on line {entry.line} but not plainly a list of names: "
                "not used as its authors",
                listed=True,
            )

    def detail(self, parent: Entry, number: int, body: str) -> bool:
        """A nested item that gives its parent entry's link or authors ('- [pdf](url)',
        '- Authors: A B, C D'); True if it did."""
        if only_links(body) or _labelled_links(body):
            parent.url = parent.url or paper_url(links_of(body))
            self.skip(number, f"the links of the entry on line {parent.line}")
            return True
        names, et_al = labelled_names(body)
        if names and not parent.authors:
            parent.authors, parent.et_al = names, et_al
            self.skip(number, f"the authors of the entry on line {parent.line}")
            return True
        return self.byline(parent, number, body)

    def byline(self, parent: Entry, number: int, body: str) -> bool:
        """A nested item of the parent's authors, its venue tag after them or alone
        ('- A B, C D, and E F (*ATC 2021*)', '- VLDB 2021'): its fields, where the parent
        lacks them; True if it gave them."""
        text = plain_text(body).strip()
        if self.cited_line(parent, number, text):
            return True
        names_part, tag = text, ""
        if text.endswith(")") and "(" in text:
            at = text.rindex("(")
            names_part, tag = text[:at].strip(), text[at + 1 : -1].strip(" *_")
        names, et_al = names_of(names_part)
        if not names and names_part.count(",") >= 2:  # 'Baylor, Denis, et al.': the first inverted
            family, given, rest = names_part.split(",", 2)
            names, et_al = names_of(f"{given.strip()} {family.strip()},{rest}")
        label = parse_label(tag) if tag else None
        if not names and not tag:
            label = parse_label(text.strip(" .*_"))  # 'VLDB 2021' alone
        if not names and not (label and label[0]):
            return False
        if names and not parent.authors:
            parent.authors, parent.et_al = names, et_al
        if label and label[0] and (parent.venue is None or parent.year is None):
            parent.venue, parent.year = label[0], label[1] or parent.year
        self.skip(number, f"the authors or venue of the entry on line {parent.line}")
        return True

    def unfiled(self, number: int, body: str) -> Entry | None:
        """A title with no other field yet: an entry only if the items under it give them
        ('- Title' / '  - A B, C D (*ATC 2021*)')."""
        entry, _why = entry_of_found(number, body, self.context, bare=True)
        if entry is not None:
            self.waiting[id(entry)] = entry
        return entry

    def promote(self, entry: Entry) -> None:
        """An unfiled title that the items under it gave its fields: filed after all."""
        if id(entry) in self.waiting and (entry.authors or entry.url or entry.venue):
            del self.waiting[id(entry)]
            self.out.not_papers = [n for n in self.out.not_papers if n.line != entry.line]
            self.add(entry)

    def cited_line(self, parent: Entry, number: int, text: str) -> bool:
        """A nested line of a reference: its authors and date ('Chard, R., Li, Z. and
        Foster, I., 2019, May.') or its venue ('In Proceedings of ..., pp. 1-23. 2019.')."""
        names, et_al, year = dated_names(text)
        label = None if names else venue_of(text)
        if not (names or label):
            return False
        if names and not parent.authors:
            parent.authors, parent.et_al = names, et_al
        if label and (parent.venue is None or parent.year is None):
            parent.venue, year = label[0], label[1]
            parent.arxiv = parent.arxiv or label[2]
        parent.year = parent.year or year
        self.skip(number, f"the authors or venue of the entry on line {parent.line}")
        return True

    def item(
        self, lines: list[tuple[int, str]], nested: bool, parent: Entry | None = None
    ) -> Entry | None:
        """A list item: the bullet's text, its continuation lines, an author line under it."""
        number = lines[0][0]
        parts: list[str] = []
        authors_line: tuple[int, str] | None = None
        records = _records(lines)
        # '-OSDI20 - Title' under an item: a bullet missing its space, CommonMark's lazy
        # continuation; read as the next item, not as more of this one's title
        broken = next((k for k, r in enumerate(records) if k and _BROKEN_BULLET_RE.match(r[1])), 0)
        if broken:
            rest = [(n, t) for n, t in lines if n >= records[broken][0]]
            records = records[:broken]
            lines = [(n, t) for n, t in lines if n < rest[0][0]]
        else:
            rest = []
        if parent is not None and len(records) == 1 and self.detail(parent, number, records[0][1]):
            self.promote(parent)
            return None
        for k, (first, text, used) in enumerate(records):
            italic = italics(text) if k else None
            if italic and authors_line is None:
                authors_line = (first, italic)
            else:
                parts.append(text)
            for other in used[1:]:
                self.out.parts[other] = number
        body = " ".join(parts)
        entry, reason = entry_of_found(number, body, self.context)
        if nested and venue_of(plain_text(body)) and not links_of(body):
            # '  - Proceedings of the VLDB Endowment 11.5 (2018)' under a line that is no paper
            entry, reason = None, "a venue line under a line that is not a paper"
        for k, (first, _text, _used) in enumerate(records):
            if k and (authors_line is None or first != authors_line[0]):
                self.out.parts[first] = number
        if entry is None:
            quiet = nested and not reason.startswith("looks like")
            self.skip(number, "a nested item" if quiet else reason, listed=not quiet)
            if authors_line is not None:
                self.skip(authors_line[0], f"under the line {number}, which is not a paper")
            if rest:
                self.item([(rest[0][0], rest[0][1][1:]), *rest[1:]], nested, parent)
            if reason == NO_FIELDS and authors_line is None and not rest:
                return self.unfiled(number, body)
            return None
        if not self.add(entry):
            if authors_line is not None:
                self.skip(authors_line[0], f"the authors of the entry on line {number}")
            return None
        if authors_line is not None:
            self.authors(entry, *authors_line)
        if rest:
            self.item([(rest[0][0], rest[0][1][1:]), *rest[1:]], nested, parent)
        return entry

    def paragraph(self, lines: list[tuple[int, str]]) -> None:
        """A paragraph's lines: records, 'Title (YEAR), Authors' lines with their links
        below, '[Title](url), Org, KDD, 2020.' entries, the blog's year lists."""
        linked: Entry | None = None  # an entry whose links may follow on the next line
        last: Entry | None = None
        blog_year: int | None = None
        if len(lines) == 1 and lines[0][1].rstrip().endswith(":") and len(lines[0][1]) <= 40:
            # '2020 阿里巴巴:' on a line of its own: a label over the papers below, as a heading
            self.context.heading(7, lines[0][1].strip().rstrip(":"))
            self.skip(lines[0][0], "a label over the entries below it")
            return
        for number, text, used in _records(lines):
            for other in used[1:]:
                self.out.parts[other] = number
            italic = italics(text)
            if italic and last is not None:
                self.authors(last, number, italic)
                last = None
                continue
            last = None
            if linked is not None and only_links(text):
                linked.url = linked.url or paper_url(links_of(text))
                self.skip(number, f"the links of the entry on line {linked.line}")
                linked = None
                continue
            entry = _paragraph_entry(number, text, self.context)
            linked = entry
            if entry is not None:
                if self.add(entry) and not entry.authors:
                    last = entry
                continue
            entries, blog_year = blog_line(number, text, blog_year or self.context.year)
            title = title_line(text) if not entries and len(lines) == 1 else None
            if title:  # a paragraph of one title alone: a paper the list gives nothing else of
                entries = [Entry(number, title, self.context.venue, self.context.year)]
            for one in entries:
                self.add(one)
            if not entries:
                self.skip(number, "not a list item, table row or year list")

    def table(self, rows: list[tuple[int, list[str]]]) -> None:
        """A table's rows, each read by the role of its columns."""
        if not rows:
            return
        entries, skipped = read_table(rows, self.context)
        for entry in entries:
            self.add(entry)
        for number, reason in skipped:
            self.skip(number, reason, listed=True)

    def html(self, span: list[int], content: str) -> None:
        """An HTML block: its tables are read like Markdown ones; anything else is not a
        paper."""
        tables, items = html_blocks(content, span[0] + 1)
        for rows in tables:
            self.table(rows)
        for number, text in items:
            self.item([(number, text)], nested=False)
        used = {n for rows in tables for n, _ in rows} | {n for n, _ in items}
        for number in range(span[0] + 1, span[1] + 1):
            if self.source[number - 1].strip() and number not in used and not tables:
                self.skip(number, "HTML, not a list item or table")


def _closing(tokens: list[Token], at: int) -> int:
    """The index of the token that closes the one at 'at' (same nesting level)."""
    level, close = tokens[at].level, tokens[at].type.replace("_open", "_close")
    return next(
        j
        for j in range(at + 1, len(tokens))
        if tokens[j].type == close and tokens[j].level == level
    )


def _table_rows(tokens: list[Token]) -> list[tuple[int, list[str]]]:
    """(line number, cell texts) of each row of a table, the header row first."""
    rows: list[tuple[int, list[str]]] = []
    for token in tokens:
        if token.type == "tr_open" and token.map:
            rows.append((token.map[0] + 1, []))
        elif token.type == "inline" and rows:
            rows[-1][1].append(token.content.strip())
    return rows


def _labelled_links(line: str) -> bool:
    """A line of links after a short label ending in ':' ('arxiv version (2023): [link](u)',
    'code: [GitHub](u)'): a note on the entry above, never a paper of its own."""
    from catalog.ingest.listinline import render

    inline = render(line)
    label, colon, rest = inline.bare().partition(":")
    return (
        bool(colon)
        and any(h is not None for _t, h in inline.groups)
        and len(label.split()) <= 4
        and not rest.strip(" \t-–—|,;[]()")
    )


def _paragraph_entry(number: int, line: str, context: Context) -> Entry | None:
    """An entry written as a paragraph, not a list item ('[Title](url), Org, KDD, 2020.',
    'Title (2009), A. Author, B. Author', a record of hard-broken lines): only when the line
    itself gives a venue or year and a linked or bold title or authors. Prose is not
    guessed at."""
    found = find(line, context.known)
    if not (found.label or found.year) or not (found.marked or found.authors):
        return None
    return entry_of_found(number, line, context)[0]


def source_lines(text: str) -> list[str]:
    """The text's lines, as the parser numbers them."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def parse(text: str, venues: Collection[str] = ()) -> Parsed:
    """Every paper entry of a Markdown list; venues lets headings like '## OSDI' count."""
    source = [normalise(line) for line in source_lines(text)]
    reader = _Reader(source, venues)
    reader.walk(markdown().parse("\n".join(source)))
    reader.out.not_papers.sort(key=lambda n: n.line)
    return reader.out
