"""The fields of a list entry found wherever they stand, by scoring its pieces. Pure.

An entry's text is cut into pieces at its brackets and separators ('. ', ', ', ' - ',
' | ', ';'), and each piece is judged on its own: a venue tag ('OSDI'23', 'NSDI 2022',
'NAIC @ SIGCOMM'25', 'NeurIPS'25 Spotlight', 'OSDI18' for a registry venue), a year,
a person's name, 'et al.', a link word. The title is a linked or bold title, else the
first run of pieces that are none of these. What is found is kept; what is missing is
said ('no year', 'no venue') rather than the entry being dropped.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import cast

from catalog.ingest.listentries import entry_of
from catalog.ingest.listfields import (
    LINK_RE,
    LINK_WORDS,
    YEAR_RE,
    Context,
    Entry,
    clean_title,
    links_of,
    looks_like_title,
    names_of,
    parse_label,
    strip_links,
    unescape,
    year_of,
)

Label = tuple[str, int | None, str | None]
# A piece: a bracket or parenthesis group, or the text between separators.
_PIECE_RE = re.compile(r"\[[^\[\]]*\]|\([^()]*\)|[^\[\]()]+|[\[\]()]")
# '. ' ends a field, but not after 'vs', 'al', 'etc' or an initial ('J. Smith')
_SEPARATOR_RE = re.compile(
    r"(?<!\bvs)(?<!\bal)(?<!\betc)(?<!\b[A-Z])\.\s+(?=\S)|,\s+|\s+[-–—|]\s+|\s*;\s*|\s+/\s+"
)
# A tag anywhere in a piece: 'Proceedings of KDD'08', 'in RecSys'18'
_TAG_IN_RE = re.compile(r"(?<![\w'])([A-Za-z][\w&\-.@]*)\s?['’]\s?(\d{2})(?!\d)")
_GLUED_RE = re.compile(r"^([A-Za-z][A-Za-z\-]*?)['’]?(\d{2}|(?:19|20)\d{2})$")  # 'OSDI18'
_ET_AL_RE = re.compile(r"^(?:et\.?\s?al\.?|etc\.?|(?:and\s)?others)$", re.IGNORECASE)
_AUTHOR_LABEL = r"(?:authors?|by|作者|저자)(?:\s*\([^()]*\))?"
_LABELLED_RE = re.compile(r"^" + _AUTHOR_LABEL + r"\s*:\s*", re.IGNORECASE)
# A line of a record that says what it holds: 'Author(Institute): ...', 'KeyWords: ...'
_FIELD_LINE_RE = re.compile(r"^\s*([A-Za-z][\w ()]{0,30}|[^\x00-\x7f]{1,6})\s*:\s+(.*)$")
_AUTHOR_LINE_RE = re.compile(r"^" + _AUTHOR_LABEL + r"$", re.IGNORECASE)
_BR_SPLIT_RE = re.compile(r"<br\s*/?>", re.IGNORECASE)


@dataclass
class Found:
    """What the pieces of an entry gave."""

    title: str = ""
    url: str | None = None
    label: Label | None = None
    year: int | None = None
    authors: list[str] = field(default_factory=list)
    et_al: bool = False
    first_author: str | None = None  # a name given alone, as '(2018, Shuai Zhang)'


def judge(piece: str, known: Collection[str]) -> tuple[str, object]:
    """What one piece is: ('label', Label), ('year', int), ('names', (names, et al.)),
    ('etal', True), ('link', None), ('empty', None) or ('text', None)."""
    text = clean_title(piece.strip("[]() \t"))
    if not text or not any(c.isalnum() for c in text):
        return "empty", None
    if text.casefold() in LINK_WORDS or text.casefold() in ("code", "slides", "video"):
        return "link", None
    if YEAR_RE.match(text):
        return "year", int(text)
    if _ET_AL_RE.match(text):
        return "etal", True
    label = parse_label(text)
    if label is None or any(w.islower() for w in label[0].split()[:-1]):
        # 'Proceedings of KDD'08', 'in RecSys'18': the tag inside, not the words before
        label = _tag_in(text) or label or _glued(text, known)
    if label is not None:
        return "label", label
    names, et_al = names_of(_LABELLED_RE.sub("", text))
    if names:
        return "names", (names, et_al)
    if text.casefold() in known:
        return "venue", text
    return "text", None


def _glued(text: str, known: Collection[str]) -> Label | None:
    """'OSDI18', 'EuroSys24': a registry venue with its year glued on."""
    m = _GLUED_RE.match(text)
    if m and m.group(1).casefold() in known:
        return m.group(1), year_of(m.group(2)), None
    return None


def _tag_in(text: str) -> Label | None:
    """A 'VENUE'YY' tag inside a longer piece ('Proceedings of KDD'08')."""
    m = _TAG_IN_RE.search(text)
    return (m.group(1), year_of(m.group(2)), None) if m else None


def pieces(text: str) -> list[tuple[int, int]]:
    """The spans of the text cut at bracket groups and separators, in order."""
    out: list[tuple[int, int]] = []
    for m in _PIECE_RE.finditer(text):
        start, end = m.span()
        if text[start] in "[(" and end - start > 1:
            # a group of several fields: '(NSDI 2022, Assaf Eisenman)', '[Lab | NSDI 2022]'
            inner = _cut(text, start + 1, end - 1)
            out += inner if len(inner) > 1 else [(start, end)]
        else:
            out += _cut(text, start, end)
    return out


def _cut(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans between separators in text[start:end], blank ones left out."""
    spans, at = [], start
    for sep in _SEPARATOR_RE.finditer(text, start, end):
        spans.append((at, sep.start()))
        at = sep.end()
    spans.append((at, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def entry_of_found(number: int, body: str, context: Context) -> tuple[Entry | None, str]:
    """An entry from the fields found in its text: a paper when its title reads as one and
    it gives a venue, a year, authors or a link to the paper."""
    found = find(body, context.known)
    label = found.label
    if found.year and (label is None or label[1] is None):
        label = ((label[0] if label else "") or "", found.year, label[2] if label else None)
    if not found.title and (label or found.url):
        return None, "no title: the line gives only links or a venue"
    if not found.title or not (label or found.url or found.authors):
        return None, "no venue, year or link to a paper"
    entry, reason = entry_of(number, found.title, label, found.url, body, context)
    if entry is not None:
        entry.venue = entry.venue or None
        entry.authors, entry.et_al = found.authors, found.et_al and bool(found.authors)
        entry.first_author = found.first_author
    return entry, reason


def enrich(entry: Entry, body: str, known: Collection[str]) -> None:
    """Fill what a shape's reading left out (a year, venue or authors the line gives
    elsewhere), when the fields found name the same title."""
    found = find(body, known)
    if clean_title(found.title).casefold() != entry.title.casefold():
        return
    if found.label and not entry.venue and found.label[0]:
        entry.venue = found.label[0]
    year = found.year or (found.label[1] if found.label else None)
    entry.year = entry.year or year
    if not entry.authors and found.authors:
        entry.authors, entry.et_al = found.authors, found.et_al
    entry.first_author = entry.first_author or found.first_author


def _field_lines(body: str) -> tuple[str, list[str]]:
    """An entry's text without the lines of a record that name another field
    ('KeyWords: ...', 'Dataset: ...'), and the names of its author line ('Author
    (Institute): Yuan Cheng(Example Corp)'), affiliations left out."""
    kept, names = [], []
    for k, line in enumerate(_BR_SPLIT_RE.split(unescape(body))):
        m = _FIELD_LINE_RE.match(line) if k else None  # the first line's colon is a title's
        if m is None or "](" in m.group(1):
            kept.append(line)
        elif _AUTHOR_LINE_RE.match(m.group(1).strip()):
            people = re.sub(r"\([^()]*\)", " ", m.group(2))
            names += names_of(people)[0] or []
    return " ".join(" <br> ".join(kept).split()), names  # single spaces: linear searches


def find(body: str, known: Collection[str]) -> Found:
    """The fields of an entry, wherever they stand."""
    found = Found()
    body, labelled = _field_lines(body)
    link = next(
        (
            m
            for m in LINK_RE.finditer(body)
            if m.group(1).strip().casefold() not in LINK_WORDS
            and looks_like_title(clean_title(m.group(1)))
        ),
        None,
    )
    bold = re.search(r"(\*\*|__)([^*_]{6,}?)\1", body)
    if link is not None:
        found.title = clean_title(link.group(1))
        found.url = link.group(2) if link.group(2).startswith("http") else None
        rest = body[: link.start()] + " | " + body[link.end() :]
    elif bold is not None and looks_like_title(clean_title(bold.group(2))):
        found.title = clean_title(bold.group(2))
        rest = body[: bold.start()] + " | " + body[bold.end() :]
    else:
        rest = body
    urls = [u for t, u in links_of(body) if t.strip().casefold() in LINK_WORDS]
    found.url = found.url or next((u for u in urls if u.startswith("http")), None)
    text = strip_links(rest).replace("*", "")
    run: tuple[int, int] | None = None  # the span of the title's pieces
    run_open = not found.title
    names: list[str] = []
    for start, end in pieces(text):
        kind, value = judge(text[start:end], known)
        if run_open and (kind == "text" or (kind == "names" and run is None)):
            if run is not None and re.search(r"[|;]|\.\s", text[run[1] : start]):
                run_open = False  # 'Title | Alibaba': a title does not run past a '|'
                continue
            run = (run[0] if run else start, end)
            continue
        if kind == "text":
            continue
        run_open = run_open and run is None
        if kind == "names":
            more, later = cast(tuple[list[str], bool], value)
            names += more
            found.et_al = found.et_al or later
        elif kind == "etal":
            found.et_al = bool(names)
        else:
            _keep(found, kind, value)
    if run is not None:
        found.title = clean_title(text[run[0] : run[1]])
    names = names or labelled
    # One name alone is often only the first author a list gives: not the authors.
    found.authors = names if len(names) > 1 or found.et_al else []
    found.first_author = names[0] if len(names) == 1 and not found.et_al else None
    return found


def _keep(found: Found, kind: str, value: object) -> None:
    """Record a piece's venue or year, the first of each."""
    if kind == "label" and found.label is None:
        found.label = value  # type: ignore[assignment]
    elif kind == "year" and found.year is None:
        found.year = value  # type: ignore[assignment]
    elif kind == "venue" and found.label is None:
        found.label = (str(value), None, None)


def title_line(text: str) -> str | None:
    """A line that is a paper's title and nothing else ('**Controllable Multi-Interest
    Framework for Recommendation**', 'CATN: Cross-Domain Recommendation for Cold-Start
    Users'): four words or more in Latin letters, most of them capitalised, no sentence."""
    title = clean_title(text.strip().strip("*_"))
    words = title.split()
    letters = [c for c in title if c.isalpha()]
    if not 4 <= len(words) <= 30 or "](" in text or title.endswith((".", ":", "!")):
        return None
    if sum(c.isascii() for c in letters) < 0.9 * len(letters):
        return None
    long = [w for w in words if len(w) > 3]
    return title if long and sum(w[0].isupper() for w in long) >= 0.6 * len(long) else None
