"""The one reader of a list entry: its fields found wherever they stand. Pure.

The entry's inline text comes from listinline (each link and bold run one mark, its
text and href kept, so no pattern of ours decides what a link is). The text is then cut
into pieces at its brackets and separators ('. ', ', ', ' - ', ' | ', ';'), and each
piece is judged on its own: a venue tag ('OSDI'23', 'NSDI 2022', 'NAIC @ SIGCOMM'25',
'NeurIPS'25 Spotlight', 'OSDI18' for a registry venue), a year, a person's name,
'et al.', a link word. The title is a linked or bold title, else the first run of pieces
that are none of these. What is found is kept; what is missing is said ('no title', 'no
venue, year or link') rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import cast

from catalog.ingest.listcite import article_page, venue_of
from catalog.ingest.listfields import (
    ARXIV_WORD_RE,
    DATE_RE,
    LINK_LABELS,
    LINK_WORDS,
    MARKER_RE,
    NOT_PAPER_HOSTS,
    YEAR_RE,
    Context,
    Entry,
    bracket_tag,
    cited,
    clean_title,
    looks_like_title,
    names_of,
    open_brackets,
    parse_label,
    venue_like,
    with_ids,
    year_of,
)
from catalog.ingest.listinline import MARK, Inline, render
from catalog.model import kept_url, link_ids

Label = tuple[str, int | None, str | None]
# A piece: a bracket or parenthesis group, or the text between separators.
_PIECE_RE = re.compile(r"\[[^\[\]]*\]|\([^()]*\)|[^\[\]()]+|[\[\]()]")
# '. ' ends a field, but not after 'vs', 'al', 'etc' or an initial ('J. Smith')
# and each link or bold run is a piece of its own, unless the title goes on after it
# ('[Widget](url): A Made-Up Autoscaler')
# (A separator that starts with blanks starts where they start: tried again from each
# blank of a long run, it would read the run once per blank.)
_SEPARATOR_RE = re.compile(
    r"(?<!\bvs)(?<!\bal)(?<!\betc)(?<!\b[A-Z])\.\s+(?=\S)|,\s+"
    r"|(?<!\s)(?:\s+[-–—|]\s+|\s+;\s*|\s+/\s+)|;\s*"
    r"|(?=[\ue000-\uf8ff])|(?<=[\ue000-\uf8ff])(?!\s*:)"
)
_SPACED_COLON_RE = re.compile(r"(?<!\s)\s++:")
# A tag anywhere in a piece: 'Proceedings of KDD'08', 'in RecSys'18'. The pattern takes a
# whole run of a tag's characters (a run is tried once, not again from each '@' or '.'
# in it: 80 KB of 'a@' would take minutes); _tag_in finds where in the run the tag starts.
_TAG_CHARS = "&-.@"
_TAG_IN_RE = re.compile(r"(?<![\w&\-.@])([\w&\-.@]++)(?=\s?['’]\s?(\d{2})(?!\d))")
_GLUED_RE = re.compile(r"^([A-Za-z][A-Za-z\-]*?)['’]?(\d{2}|(?:19|20)\d{2})\Z")  # 'OSDI18'
_ET_AL_RE = re.compile(r"^(?:et\.?\s?al\.?|etc\.?|(?:and\s)?others)\Z", re.IGNORECASE)
_AUTHOR_LABEL = r"(?:authors?|by|作者|저자)(?:\s*\([^()]*\))?"
_LABELLED_RE = re.compile(r"^" + _AUTHOR_LABEL + r"\s*:\s*", re.IGNORECASE)
# A line of a record that says what it holds: 'Author(Institute): ...', 'KeyWords: ...'
_FIELD_LINE_RE = re.compile(r"^\s*([A-Za-z][\w ()]{0,30}|[^\x00-\x7f]{1,6})\s*:\s+(.*)$")
_AUTHOR_LINE_RE = re.compile(r"^" + _AUTHOR_LABEL + r"\Z", re.IGNORECASE)
_BR_SPLIT_RE = re.compile(r"<br\s*/?>", re.IGNORECASE)
_PUBLISHERS = frozenset({"acm", "ieee", "usenix", "springer", "elsevier", "siam", "mdpi"})
_SLIDES_RE = re.compile(r"\bslides\b", re.IGNORECASE)
# A group with a year that ends a link's text: '(Stanford 2017)', '(HKUST, 2015)'
_DATED_TAIL_RE = re.compile(r"\s?\(([^()]{0,40}?(?<!\d)((?:19|20)\d{2})(?!\d)[^()]{0,20})\)\s?\Z")
# A title copied from a file name, where a colon cannot stand: 'DeepFM_A Factorization-Machine
# based ...', 'DeepWalk- Online Learning ...'
_COLON_STAND_IN_RE = re.compile(r"(?<=[A-Za-z0-9])(?:_|-\s)\s*(?=[A-Z])")


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
    href: str | None = None  # the title's link as written, a page of the site included
    marked: bool = False  # the title is linked or bold, not just leading text
    unclosed: bool = False  # a '[' never closed
    slides: bool = False  # '[Baidu slides] DNN in Baidu Ads', 'Thompson Sampling Slides'
    cited: bool = False  # names right after a '(YEAR)': a citation's authors


def find(body: str, known: Collection[str]) -> Found:
    """The fields of an entry, wherever they stand."""
    found = Found()
    body, labelled = _field_lines(body)
    inline = render(body)
    text = inline.text
    found.unclosed = open_brackets(text) > 0
    judged = _judged(text, inline, known)
    run: list[tuple[int, int]] = []  # the spans of the title's pieces
    run_names: list[str] = []  # a run that began with names: maybe the authors
    run_open = True
    weak = False  # the title is a bold sentence
    names: list[str] = []
    grouped: list[str] = []  # names inside a bracket group: a first author at most
    record = " | " in text and "<br" in body.casefold()
    previous = ("", False)  # the last piece that is a field: its kind, in brackets
    names_end = -1  # where the last name of the author list ends
    for start, end, in_group, kind, value in judged:
        if kind == "names" and names and " | " in text[names_end:start]:
            kind = "text"  # a name-like line after the authors' line: 'Neural Computation'
        if kind == "names" and not in_group:
            names_end = end
        if kind == "title":
            title, href = cast(tuple[str, str | None], value)
            # a bold sentence ('**A note on the papers below.**') gives way to a title after it
            if (not found.title or weak) and (not run or run_names):
                names, run, run_open = run_names + names, [], False
                title, tail = _dated_tail(title, known)
                found.title, found.href, found.marked = clean_title(title), href, True
                weak = href is None and title.rstrip().endswith(".")
                if tail is not None:
                    _keep(found, *tail)
            continue
        if in_group and run and run_open and _acronym_after(text, run[-1][1], start, end):
            run.append((start, end))  # 'Models (LLMs)': the title's own acronym
            continue
        if kind == "note" or (kind in ("text", "names") and in_group):
            # a note in brackets, a '[Nickname]' before the title, a remark after it: part of
            # no field, but '[Baidu slides]' says what the link is
            found.slides = found.slides or (in_group and bool(_SLIDES_RE.search(text[start:end])))
            if kind == "note" or not (run or found.title) or kind == "text":
                continue
        if run_open and (kind == "text" or (kind == "names" and not run)):
            if run and re.search(r"[|;]|\.\s", text[run[-1][1] : start]):
                run_open = False  # 'Title | Alibaba': a title does not run past a '|'
                continue
            if kind == "names" and not run:
                run_names = cast(tuple[list[str], bool], value)[0]
            run.append((start, end))
            continue
        if kind == "text":
            plain = inline.plain(text[start:end])
            if record and found.label is None and (venue := _record_venue(plain)):
                found.label = (venue, None, None)  # 'Journal of Made-Up Research' on its line
            continue
        run_open = run_open and not run
        if kind == "names":
            more, later = cast(tuple[list[str], bool], value)
            found.cited = found.cited or (not (names or in_group) and previous == ("year", True))
            (grouped if in_group else names).extend(more)
            found.et_al = found.et_al or later
        elif kind == "etal":
            found.et_al = bool(names or grouped or run_names)
        else:
            _keep(found, kind, value)
        previous = (kind, in_group)
    if run and not found.title:
        title = text[run[0][0] : run[-1][1]]
        found.title = clean_title(_SPACED_COLON_RE.sub(":", inline.plain(title)))
        found.href = next(iter(inline.hrefs(title)), None)
    found.url = found.href if found.href and found.href.startswith("http") else None
    words = [h for t, h in inline.groups if h and clean_title(t).casefold() in LINK_WORDS]
    found.url = found.url or next((u for u in words if u.startswith("http")), None)
    # a link naming a DOI or an arXiv id, or to a publisher's article page, is the paper's,
    # whatever its text ('[[AI Open]](doi)')
    ids = [h for _t, h in inline.groups if h and (any(link_ids(h)) or article_page(h))]
    ids = [h for h in ids if h.startswith("http")]
    found.url = found.url or next(iter(ids), None)
    _people(found, names, labelled, grouped)
    _reference(found, found.title if found.marked else inline.plain(text))
    return found


def _reference(found: Found, text: str) -> None:
    """A title (or line) that is a whole reference in author-date style ('Berg, R., &
    Welling, M. (2017). Title. Venue.') or with a quoted title ('Reddi, Vijay Janapa, et
    al. "Title." Venue (2019).'): its title, authors and year, read as a whole."""
    if (ref := cited(text)) is None:
        return
    found.title, found.authors, found.et_al = ref.title, ref.authors, ref.et_al
    found.first_author = None
    found.year = found.year or ref.year
    at = text.find(ref.title)
    if found.label is None and at >= 0:  # '"Title." Proceedings of the ... Conference. 2018.'
        found.label = venue_of(text[at + len(ref.title) :].lstrip(' ."”'), opener=False)


def _people(found: Found, names: list[str], labelled: list[str], grouped: list[str]) -> None:
    """The authors: a name list standing as a field. One name alone is often only the first
    author a list gives, unless it follows the year as a citation's authors do ('Title
    (2010), S. Rendle')."""
    alone = names or labelled or grouped
    if len(alone) > 1 or (alone and (found.et_al or found.cited)):
        found.authors = alone
    elif alone:
        found.first_author = alone[0]


def _judged(
    text: str, inline: Inline, known: Collection[str]
) -> list[tuple[int, int, bool, str, object]]:
    """Each piece of the text with what it is; a venue's name standing before the year
    ('..., *WWW*, 2018.') or restating the tag's ('[ABCD'14] ..., *ABCD*, 2014.') is the
    venue."""
    out = [(a, b, g, *_judge(text[a:b], inline, g, known)) for a, b, g in pieces(text, known)]
    for i, (a, b, g, kind, value) in enumerate(out):
        if kind == "venue" and g and _spelled_out(text[max(0, a - 200) : a], str(value)):
            out[i] = (a, b, g, "text", None)  # 'Tensor Comprehensions (TC)': no venue
    tag = next((cast(Label, v) for *_s, k, v in out if k == "label"), None)
    for i, (a, b, g, kind, _value) in enumerate(out):
        plain = clean_title(inline.plain(text[a:b]))
        following = out[i + 1][3] if i + 1 < len(out) else ""
        if (
            kind == "text"
            and not g
            and i
            and (
                (following == "year" and venue_like(plain, known))
                or (tag is not None and plain.casefold() == str(tag[0]).casefold())
            )
        ):
            out[i] = (a, b, g, "venue", plain)
    return out


def _acronym_after(text: str, run_end: int, start: int, end: int) -> bool:
    """Whether a group right after the title's words is their acronym ('(LLMs)')."""
    inner = text[start:end].strip("() \t")
    acronym = inner[:-1] if inner.endswith("s") else inner
    return (
        not text[run_end:start].strip()
        and 2 <= len(acronym) <= 8
        and acronym.isalpha()
        and sum(c.isupper() for c in acronym) >= 2
        and _spelled_out(text[max(0, start - 200) : start], acronym)
    )


def _dated_tail(title: str, known: Collection[str]) -> tuple[str, tuple[str, object] | None]:
    """A link's text without the dated group that ends it ('Title (Stanford 2017)'), and
    what that group gives: its venue and year for a venue the registry knows, else the year
    alone (an organisation is no venue)."""
    m = _DATED_TAIL_RE.search(title)
    if m is None or not title[: m.start()].strip():
        return title, None
    inner = m.group(1)
    label = parse_label(inner)
    if label and (label[0].casefold() in known or label[0] == "arXiv"):
        return title[: m.start()], ("label", label)
    return title[: m.start()], ("year", int(m.group(2)))


def _spelled_out(before: str, acronym: str) -> bool:
    """Whether the words just before an acronym are what it stands for."""
    words = re.findall(r"[A-Za-z][\w\-]*", before)[-len(acronym) :]
    return len(words) == len(acronym) and "".join(w[0] for w in words).upper() == acronym.upper()


def _judge(
    piece: str, inline: Inline, in_group: bool, known: Collection[str]
) -> tuple[str, object]:
    """What a piece is: judge() of its text; a link or bold run alone may be the title
    ('title', (text, href)), a link's label ('link') or a note ('note')."""
    group = inline.group(piece)
    if group is None:
        kind, value = judge(inline.plain(piece), known)
        if kind == "text" and in_group and (tag := bracket_tag(inline.plain(piece), known)):
            return "label", tag  # '[KDD 18]'
        return kind, value
    text, href = group
    title = clean_title(text)
    if href is not None and title.casefold() in LINK_LABELS:
        return "link", None
    kind, value = judge(text, known)
    if kind not in ("text", "names"):
        return kind, value
    if in_group or piece.strip(" \t\"'“”")[:1] in "[(":
        return "note", None  # '[[Personal Notes](...)]', '(**mm**)' after a title
    if href is not None and looks_like_title(title):
        return "title", (text, href)
    if href is None and len(title) >= 6 and looks_like_title(title) and kind == "text":
        return "title", (text, None)
    return ("text", None) if href is not None else ("note", None)


def _record_venue(text: str) -> str | None:
    """A record's line that names its venue alone: 'Journal of Made-Up Research', 'arXiv'."""
    text = text.strip(" \t,;.-–—|")
    words = text.split()
    if not words or len(words) > 8 or not text[0].isupper() or re.search(r"[.!?:]\s", text):
        return None
    return text


def judge(piece: str, known: Collection[str]) -> tuple[str, object]:
    """What one piece is: ('label', Label), ('year', int), ('names', (names, et al.)),
    ('etal', True), ('link', None), ('empty', None) or ('text', None)."""
    text = clean_title(piece.strip("[]() \t"))
    if not text or not any(c.isalnum() for c in text):
        return "empty", None
    if text.casefold() in LINK_WORDS - {"arxiv"} or text.casefold() in ("code", "slides", "video"):
        return "link", None
    if YEAR_RE.match(text):
        return "year", int(text)
    if date := DATE_RE.fullmatch(text):  # '8 Feb 2024', 'March 2024'
        return "year", int(date.group(1))
    if _ET_AL_RE.match(text):
        return "etal", True
    label = parse_label(text)
    if label is None or any(w.islower() for w in label[0].split()[:-1]):
        # 'Proceedings of KDD'08', 'in RecSys'18': the tag inside, not the words before
        inner = _tag_in(text)
        if inner and "@" in text[: text.find(inner[0])]:
            inner = (f"{inner[0]} Workshop", inner[1], None)  # 'ML for Sys workshop @ NeurIPS'24'
        label = inner or label or _glued(text, known) or bracket_tag(text, known, False)
    if label is not None:
        return "label", label
    names, et_al = names_of(_LABELLED_RE.sub("", text, count=1))
    if names:
        return "names", (names, et_al)
    if text.casefold() in known:
        return "venue", text
    return "text", None


def labelled_names(text: str) -> tuple[list[str] | None, bool]:
    """The names of a line labelled as authors ('Authors: A B, C D', '저자: ...')."""
    labelled = _LABELLED_RE.match(text)
    return names_of(text[labelled.end() :]) if labelled else (None, False)


def _glued(text: str, known: Collection[str]) -> Label | None:
    """'OSDI18', 'EuroSys24': a registry venue with its year glued on."""
    m = _GLUED_RE.match(text)
    if m and m.group(1).casefold() in known:
        return m.group(1), year_of(m.group(2)), None
    return None


def _tag_in(text: str) -> Label | None:
    """A 'VENUE'YY' tag inside a longer piece ('Proceedings of KDD'08'): the first run
    followed by a year where a tag starts, at an ASCII letter that follows no word
    character or apostrophe (after '&', '-', '.' or '@' inside the run, it may)."""
    for m in _TAG_IN_RE.finditer(text):
        start, run = m.start(), m.group(1)
        for i, c in enumerate(run):
            if not (c.isascii() and c.isalpha()):
                continue
            if run[i - 1] in _TAG_CHARS if i else text[start - 1 : start] != "'":
                return run[i:], year_of(m.group(2)), None
    return None


def pieces(text: str, known: Collection[str] = ()) -> list[tuple[int, int, bool]]:
    """The spans of the text cut at bracket groups and separators, in order, and whether
    each stands in brackets."""
    out: list[tuple[int, int, bool]] = []
    for m in _PIECE_RE.finditer(text):
        start, end = m.span()
        if text[start] in "[(" and end - start > 1:
            # a group of several fields: '(NSDI 2022, Assaf Eisenman)', '[Lab | NSDI 2022]'
            inner = _cut(text, start + 1, end - 1)
            out += [(a, b, True) for a, b in inner] if len(inner) > 1 else [(start, end, True)]
        else:
            out += [s for a, b in _cut(text, start, end) for s in _tail_tag(text, a, b, known)]
    return out


def _tail_tag(
    text: str, start: int, end: int, known: Collection[str]
) -> list[tuple[int, int, bool]]:
    """A piece with the venue tag at its end set apart ('[Title](url) ICDM 2018', '... at
    Scale ICML' 2022.'): a tag with an apostrophe, or a registry venue or arXiv and its year."""
    piece = text[start:end].rstrip(" .,;")
    words = piece.split()
    for k in (1, 2):
        if len(words) <= k:
            break
        tail = " ".join(words[-k:])
        label = parse_label(tail) if all(ord(c) < MARK for c in tail) else None
        if label is None or label[1] is None:
            continue
        if "'" in tail or "’" in tail or label[0] == "arXiv" or label[0].casefold() in known:
            at = start + piece.rindex(words[-k])
            return [(start, at, False), (at, end, False)]
    return [(start, end, False)]


def _cut(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans between separators in text[start:end], blank ones left out."""
    spans, at = [], start
    for sep in _SEPARATOR_RE.finditer(text, start, end):
        spans.append((at, sep.start()))
        at = sep.end()
    spans.append((at, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


NO_FIELDS = "no venue, year or link to a paper"


def entry_of_found(
    number: int, body: str, context: Context, bare: bool = False
) -> tuple[Entry | None, str]:
    """An entry from the fields found in its text: a paper when its title reads as one and
    it gives a venue, a year, authors or a link to the paper (or, under a heading that
    gives both, a link at all); bare, a title alone is enough (its fields may follow)."""
    found = find(body, context.known)
    if found.unclosed:
        return None, "a link that is never closed"
    if found.slides or _SLIDES_RE.search(found.title[-7:]):  # 'Thompson Sampling Slides'
        return None, "slides, not a paper"
    label = found.label
    if found.year and (label is None or label[1] is None):
        label = ((label[0] if label else "") or "", found.year, label[2] if label else None)
    if not found.title and (label or found.url):
        return None, "no title: the line gives only links or a venue"
    headed = found.href is not None and bool(context.venue and context.year)
    if found.href and not found.url and not (label or headed):
        return None, "a link within the site, not to a paper"
    if not found.title or not (label or found.url or found.authors or headed or bare):
        return None, _near_miss(body) or NO_FIELDS
    entry, reason = entry_of(number, found.title, label, found.url, body, context)
    if entry is not None:
        entry.venue = entry.venue or None
        entry.authors, entry.et_al = found.authors, found.et_al and bool(found.authors)
        entry.first_author = found.first_author
    return entry, reason


def _near_miss(title: str) -> str | None:
    """Why 'Title. VENUE 201' or 'Title.VENUE 2021' is not read: reported, never guessed."""
    words = title.split()
    if len(words) < 2 or not words[-1].isdigit():
        return None
    if len(words) >= 3 and words[-3].endswith(".") and not YEAR_RE.match(words[-1]):
        return (
            f"looks like 'Title. VENUE YEAR' but '{words[-1]}' is not a year: fix the list "
            "(never guessed)"
        )
    if YEAR_RE.match(words[-1]) and re.search(r"[a-z]\.[A-Z][\w&\-]*$", words[-2]):
        return (
            f"looks like 'Title. VENUE YEAR' but '{words[-2]}' has no space before the "
            "venue: fix the list (never guessed)"
        )
    return None


def _field_lines(body: str) -> tuple[str, list[str]]:
    """An entry's text without the lines of a record that name another field
    ('KeyWords: ...', 'Dataset: ...'), and the names of its author line ('Author
    (Institute): Yuan Cheng(Example Corp)'), affiliations left out."""
    kept, names = [], []
    for k, line in enumerate(_BR_SPLIT_RE.split(body)):
        m = _FIELD_LINE_RE.match(line) if k else None  # the first line's colon is a title's
        if m is None or "](" in m.group(1):
            kept.append(line)
        elif _AUTHOR_LINE_RE.match(m.group(1).strip()):
            people = re.sub(r"\([^()]*\)", " ", m.group(2))
            names += names_of(people)[0] or []
    return " ".join(" <br> ".join(kept).split()), names  # single spaces: linear searches


def _keep(found: Found, kind: str, value: object) -> None:
    """Record a piece's venue or year, the first of each."""
    if kind == "label" and (found.label is None or found.label[1] is None):
        found.label = value  # type: ignore[assignment]  # a tag with its year wins
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


def only_links(line: str) -> bool:
    """True for a line of nothing but links ('[[pdf]](url) [[code]](url)')."""
    inline = render(line)
    links = any(h is not None for _t, h in inline.groups)
    return links and not inline.bare().strip(" \t-–—|,;[]()")


def _not_paper_site(url: str | None) -> str | None:
    """What a link points to when that is plainly not a paper (a repository, a video...)."""
    if not url:
        return None
    host_path = re.sub(r"^https?://(?:www\.|m\.)?", "", url.lower())
    for site, what in NOT_PAPER_HOSTS:
        if host_path.startswith(site + "/") or host_path == site:
            if site.endswith("github.com") and re.search(r"\.pdf$|/releases/", host_path):
                return None  # a PDF kept in a repository is a paper's file
            return what
    return None


def paper_url(links: list[tuple[str, str]]) -> str | None:
    for text, url in links:
        if text.strip().casefold() in LINK_WORDS and url.startswith("http"):
            return url
    return None


def entry_of(
    number: int,
    title: str,
    label: tuple[str | None, int | None, str | None] | None,
    url: str | None,
    text: str,
    context: Context,
) -> tuple[Entry | None, str]:
    """An entry with its venue and year from the label, else from the headings above."""
    title = _COLON_STAND_IN_RE.sub(": ", clean_title(title)) if " " in title else clean_title(title)
    if title.casefold().strip("[]") in LINK_LABELS:
        return None, f"'{title}' is a link's label, not a paper's title"
    if not looks_like_title(title, labelled=label is not None):
        return None, f"'{title}' does not look like a paper's title"
    site = _not_paper_site(url)
    if site is not None and label is None:
        return None, f"{site}, not a paper"
    venue, year, arxiv_id = label or (context.venue, None, None)
    venue = venue or context.venue  # '[Title](url), 2020.' under '## KDD'
    if venue and venue.casefold() in _PUBLISHERS:
        venue = None  # a venue cell 'ACM': who published it, not where
    notes = []
    if url and not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", url):
        url = None  # a relative link is simply not the paper's: dropped without a word
    url, bad = kept_url(url, "link")  # 'javascript:', 'data:': never a link
    notes += [str(bad)] if bad else []
    entry = Entry(number, title, venue, year or context.year, url, arxiv_id, notes=notes)
    return with_ids(entry, text), ""


def blog_line(number: int, line: str, year: int | None) -> tuple[list[Entry], int | None]:
    """Entries of the blog's 'YEAR Title VENUE'YY Title arxiv YEAR ...' lines."""
    tokens = line.split()
    if not tokens:
        return [], year
    starts_with_year = bool(YEAR_RE.match(tokens[0]))
    ends_with_marker = bool(MARKER_RE.match(tokens[-1]) or ARXIV_WORD_RE.match(tokens[-1]))
    if not starts_with_year and not (year and ends_with_marker):
        return [], year
    entries: list[Entry] = []
    words: list[str] = []
    just_closed = False
    for token in tokens:
        marker = MARKER_RE.match(token)
        is_arxiv = bool(ARXIV_WORD_RE.match(token))
        if not words and YEAR_RE.match(token):
            year, just_closed = int(token), False
            continue
        if marker or is_arxiv:
            venue = marker.group(1) if marker else "arxiv"
            venue_year = year_of(marker.group(2)) if marker else year
            if words:
                title = clean_title(" ".join(words))
                if looks_like_title(title):
                    entries.append(Entry(number, title, venue, venue_year))
                words, just_closed = [], True
            elif just_closed and entries and marker:
                # 'Title arxiv ISCA'22': the preprint was published later; keep the venue
                entries[-1].venue, entries[-1].year = venue, venue_year
            continue
        words.append(token)
        just_closed = False
    return entries, year
