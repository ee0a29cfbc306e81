"""An entry's inline text as CommonMark reads it (markdown-it-py): each link (or HTML
anchor) and each bold run one mark in the text, its text and href kept, so no pattern of
ours decides what a link is. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from catalog.ingest.listfields import LINK_LABELS, clean_title

# Each link and each bold run of an entry stands in its text as one character of Unicode's
# private use area, so cutting the text at separators never cuts inside one.
MARK = 0xE000
# Bracket groups that open a link's text ('[DIN][KDD 18][Alibaba] Title'), text after them
_LEADING_TAGS_RE = re.compile(r"(?:\[[^\[\]]{1,80}\]\s*)+(?=[^\s\[\]])")


@dataclass
class Inline:
    """An entry's text as CommonMark reads it, each link and bold run as one mark."""

    text: str
    groups: list[tuple[str, str | None]]  # per mark: its text and href (None: bold)

    def group(self, piece: str) -> tuple[str, str | None] | None:
        """The link or bold run a piece is, when it is one alone (brackets and quotes
        around it aside)."""
        core = piece.strip(" \t\"'“”[]()")
        if len(core) == 1 and MARK <= ord(core) < MARK + len(self.groups):
            return self.groups[ord(core) - MARK]
        return None

    def bare(self) -> str:
        """The text without its links and bold runs."""
        return "".join(c for c in self.text if not MARK <= ord(c) < MARK + len(self.groups))

    def plain(self, piece: str) -> str:
        """A piece with each mark as its text."""
        return "".join(
            self.groups[ord(c) - MARK][0] if MARK <= ord(c) < MARK + len(self.groups) else c
            for c in piece
        )

    def hrefs(self, piece: str) -> list[str]:
        """The hrefs of the links in a piece whose text is not a link's label."""
        return [
            href
            for c in piece
            if MARK <= ord(c) < MARK + len(self.groups)
            for text, href in [self.groups[ord(c) - MARK]]
            if href is not None and clean_title(text).casefold() not in LINK_LABELS
        ]


class _Tag(HTMLParser):
    """One inline HTML tag: what it is to an entry's text."""

    kind = "html_inline"
    href = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.kind, self.href = "link_open", dict(attrs).get("href") or ""
        elif tag == "br":
            self.kind = "br"

    def handle_endtag(self, tag: str) -> None:
        self.kind = "link_close" if tag == "a" else self.kind


def html_tag(content: str) -> tuple[str, str]:
    """('link_open', href), ('link_close', ''), ('br', '') or ('html_inline', '')."""
    tag = _Tag()
    tag.feed(content)
    tag.close()
    return tag.kind, "".join(tag.href.split())


def links_of(text: str) -> list[tuple[str, str]]:
    """Every link (Markdown or HTML anchor) as markdown-it-py reads it: its text ('[[pdf]](u)'
    gives 'pdf') and href ('' when empty)."""
    return [(t, h) for t, h in render(text).groups if h is not None]


def italics(line: str) -> str | None:
    """The text of a line that is all in italics ('*A B, C D*'), else None."""
    from catalog.ingest.lists import markdown

    children = markdown().parseInline(line.strip())[0].children or []
    inner = children[1:-1]
    if len(children) < 3 or (children[0].type, children[-1].type) != ("em_open", "em_close"):
        return None
    return "".join(c.content for c in inner) if all(c.type == "text" for c in inner) else None


def plain_text(text: str) -> str:
    """Inline Markdown as its plain text: link texts kept, HTML tags and marks gone."""
    inline = render(text)
    return inline.plain(inline.text).replace(" | ", " ")


def render(body: str) -> Inline:
    """The entry's inline text through markdown-it-py: links and bold runs as marks, a
    link labelled with a link word set apart by ' | ', a line break as ' | '."""
    from catalog.ingest.lists import markdown

    # characters of the private use area are the marks: one in the text is dropped
    body = "".join(c for c in body if not MARK <= ord(c) <= 0xF8FF)
    groups: list[tuple[str, str | None]] = []
    out: list[str] = []
    # open links and bold runs: (href, None for bold; their text so far)
    stack: list[tuple[str | None, list[str]]] = []
    for token in markdown().parseInline(body)[0].children or []:
        kind, href = token.type, str(token.attrGet("href") or "")
        if kind == "html_inline":  # an HTML anchor is a link like a Markdown one
            kind, href = html_tag(token.content)
        if kind in ("link_open", "strong_open"):
            stack.append((href if kind == "link_open" else None, []))
            continue
        if kind in ("link_close", "strong_close") and stack:
            target, parts = stack.pop()
            text = " ".join("".join(parts).split())
            if stack or (target is None and any(ord(c) >= MARK for c in text)):
                piece = text  # bold inside a link, or a link inside bold: as the text
            else:
                # '**_Top-2 Gating_ - Title**': an emphasised note before a bold title
                text = re.sub(r"^\x02[^\x02]*\x02\s+[-–—]\s+", "", text).replace("\x02", "")
                bracketed = target is not None and text[:1] == "[" and text[-1:] == "]"
                tags = _LEADING_TAGS_RE.match(text) if target is not None else None
                if tags and not bracketed:
                    # '[[DIN][KDD 18][Alibaba] Title](u)': the tags are fields, the rest the title
                    text = text[tags.end() :]
                groups.append((text[1:-1].strip() if bracketed else text, target))  # '[[pdf]](u)'
                piece = (tags.group(0) if tags and not bracketed else "") + chr(
                    MARK + len(groups) - 1
                )
                if target is not None and clean_title(text.strip("[]")).casefold() in LINK_LABELS:
                    piece = f" | {piece} | "
        elif kind in ("em_open", "em_close"):
            piece = "\x02" if stack and stack[-1][0] is None else ""
        elif kind in ("softbreak", "hardbreak"):
            piece = " " if kind == "softbreak" else " | "
        elif kind == "br":
            piece = " | "
        else:  # text, code, an image's alt text; nothing of other HTML or a stray close
            piece = token.content if kind in ("text", "code_inline", "image") else ""
        (stack[-1][1] if stack else out).append(piece)
    for target, parts in stack:  # a link or bold never closed: its text as written
        out.append(("[" if target is not None else "**") + "".join(parts))
    return Inline("".join(out).replace("\x02", ""), groups)
