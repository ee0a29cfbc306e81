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

A link split over two lines is joined. A line in italics right under an entry is
its author line: its names become the entry's authors only when it is plainly a
list of names ('A B, C D, ...'), otherwise it is left alone and reported. A line
that is none of these (a nested note, prose, an acronym list) is not a paper: it
is kept with its reason, never guessed into a paper.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from catalog.model import kept_doi, kept_url, strip_controls

# Every pattern here is linear in its input (issue 8, item 13): no two neighbouring
# quantifiers that can take the same characters, possessive runs where they could, and
# trailing '#'s or spaces stripped in code rather than by a lazy group.
_HEADING_RE = re.compile(r"^(#{1,6})\s++(.*)$")
_ITEM_RE = re.compile(r"^(\s*+)(?:[-*+]|\d++[.)])\s++(.*\S)\s*$")
_ROW_RE = re.compile(r"^\s*+\|(.*)\|\s*$")
_SEPARATOR_RE = re.compile(r"^\s*+\|?\s*+:?-{3,}")
_LINK_RE = re.compile(r"\[([^\[\]]*)\]\(([^()\s]*)(?:\s+\"[^\"]*\")?\)")
# '[[pdf](url)]' and '[[pdf]](url)': a link word in double brackets.
_LINK_GROUP_RE = re.compile(
    r"\[\s*\[([^\[\]]+)\]\s*(?:\(([^()\s]*)\)\s*\]|\]\s*\(([^()\s]*)\))")
# The anchor's text stops at the next '<a' or '</a>': a scan per anchor, never to the line end.
_HREF_RE = re.compile(r"<a\s[^<>]*?href=[\"']([^\"'<>]+)[\"'][^<>]*>"
                      r"((?:[^<]|<(?!/?a[\s>]))*+)</a>", re.IGNORECASE)
_PAREN_RE = re.compile(r"\((?:\s*+\[([^\[\]]+)\]\([^()\s]*\)\s*+|([^()\[\]]+))\)")
_TAG_RE = re.compile(r"\[([^\[\]]+)\](?!\()\s*")  # a bracket group that is not a link
_END_TAG_RE = re.compile(r"\[([^\[\]]+)\]\s*+$")
_CODE_NOTE_RE = re.compile(r"\(\s*+`[^`]*`\s*+\)")  # '(`PAI`)' after a title
_BOLD_RE = re.compile(r"^(\*\*|__)(.+?)\1")
_ITALIC_LINE_RE = re.compile(r"^\s*(\*|_)([^*_]+)\1\s*$")
_ARXIV_LABEL_RE = re.compile(r"^arxiv(?:[:\s]+(\d{4}\.\d{4,5})(v\d+)?)?(?:\s*['’]?(\d{2}|\d{4}))?$",
                             re.IGNORECASE)
_VENUE = r"([A-Za-z][\w&\-/.]*(?:\s[A-Za-z][\w&\-]*){0,2})"
_VENUE_YY_RE = re.compile(_VENUE + r"\s*['’](\d{2})$")
_VENUE_YYYY_RE = re.compile(_VENUE + r"\s+((?:19|20)\d{2})$")
_YEAR_RE = re.compile(r"^(?:19|20)\d{2}$")
# 'Title (2009), A. Author, B. Author, et al.' on a line of its own. The title stops at the
# first ' (YEAR), ' (a scan, not a backtracking search).
_AUTHORED_RE = re.compile(r"^([^()]+?)\s\(((?:19|20)\d{2})\),\s++(.+)$")
_WORKSHOP_AT_RE = re.compile(r"^([A-Za-z][\w\-]*)@([A-Za-z][\w\-]*)\s*['’]?\s*(\d{4}|\d{2})$")
# '(2017, He)' after a title: the year, and a first author's name that is not the authors.
_YEAR_AUTHOR_RE = re.compile(r"\(\s*((?:19|20)\d{2})\s*,\s*[^(),\d]+\)$")
# Sites whose pages are not papers: a repository, a video, a course, a dataset page.
_NOT_PAPER_HOSTS = (
    ("github.com", "a GitHub repository"), ("gitlab.com", "a GitLab repository"),
    ("youtube.com", "a video"), ("youtu.be", "a video"), ("vimeo.com", "a video"),
    ("coursera.org", "a course"), ("udemy.com", "a course"), ("edx.org", "a course"),
    ("kaggle.com", "a dataset or competition page"),
    ("huggingface.co/datasets", "a dataset page"), ("twitter.com", "a social media post"),
    ("x.com", "a social media post"), ("linkedin.com", "a profile"),
    ("medium.com", "a blog post"), ("pypi.org", "a software package"))
_MARKER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9\-]*)['’](\d{2})[.,;]?$")
_ARXIV_WORD_RE = re.compile(r"^arxiv[.,;]?$", re.IGNORECASE)
_ARXIV_URL_RE = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})")
_DOI_URL_RE = re.compile(r"(?:doi\.org/|/doi/(?:abs/|pdf/|full/|epdf/)?)"
                         r"(10\.\d{4,9}/[^\s?#\"'<>()\[\]]+)")
_LINK_WORDS = {"paper", "pdf", "link", "arxiv", "doi"}
_CELL_LINK_WORDS = _LINK_WORDS | {"note", "notes", "code", "slides", "video", "blog"}
# Lower-case words that belong inside a person's name ('Diego de las Casas').
_NAME_PARTICLES = frozenset({"de", "da", "das", "di", "del", "della", "der", "den", "des", "do",
                             "dos", "du", "la", "las", "le", "los", "van", "von", "ter", "ten",
                             "zu", "y", "bin", "al", "el"})
_NAME_WORD_RE = re.compile(r"^[^\W\d_](?:[^\W\d_]|['’.\-])*$")
_MAX_JOINED = 3  # lines a split link may run over


@dataclass
class Entry:
    """One paper named in a list: what the list says, nothing more."""

    line: int
    title: str
    venue: str | None  # as written: 'OSDI', 'arxiv', 'VLDB'; None when the list gives none
    year: int | None
    url: str | None = None
    arxiv: str | None = None
    doi: str | None = None  # from a link to the paper's DOI page: for finding it, not filling
    authors: list[str] = field(default_factory=list)  # only from a plain author line
    notes: list[str] = field(default_factory=list)  # what was left out, e.g. a javascript: link
    et_al: bool = False  # the list's author line ends 'et al.'


@dataclass
class NotPaper:
    """A line that is not a paper entry, and why; listed ones are worth showing the user."""

    line: int
    text: str
    reason: str
    listed: bool = False  # a top-level item, a table row or an unused author line

    def to_dict(self) -> dict[str, object]:
        return {"line": self.line, "text": self.text, "reason": self.reason}


@dataclass
class Parsed:
    """The entries of a list and the lines that are not papers."""

    entries: list[Entry] = field(default_factory=list)
    not_papers: list[NotPaper] = field(default_factory=list)

    @property
    def skipped(self) -> list[int]:
        """The numbers of the lines that are not papers."""
        return [n.line for n in self.not_papers]


def parse_label(text: str) -> tuple[str, int | None, str | None] | None:
    """(venue, year, arXiv id) from 'OSDI'23', 'SOSP 2023', 'arxiv, 2022', 'arXiv 2212.00939';
    else None."""
    text = " ".join(text.split())
    text = re.sub(r"\s*,\s*(?=(?:19|20)\d{2}$|['’]\d{2}$)", " ", text)
    m = _ARXIV_LABEL_RE.match(text)
    if m:
        arxiv_id, year = m.group(1), m.group(3)
        if arxiv_id:
            return "arXiv", 2000 + int(arxiv_id[:2]), arxiv_id
        return "arXiv", _year(year) if year else None, None
    m = _VENUE_YY_RE.match(text) or _VENUE_YYYY_RE.match(text)
    if m:
        return m.group(1), _year(m.group(2)), None
    m = _WORKSHOP_AT_RE.match(text)  # 'EuroMLSys@EuroSys'24': the workshop is the venue
    if m:
        return m.group(1), _year(m.group(3)), None
    return None


def plain_names(text: str) -> list[str] | None:
    """The names of 'Aidan Clark, Diego de las Casas and Jack Rae', or None unless every
    part is plainly a person's name (two to five name words, no digits, no 'et al.')."""
    text = " ".join(text.split()).strip(" .")
    parts = [p for p in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text)]
    if not parts or any(not p for p in parts):
        return None
    for part in parts:
        words = part.split()
        if not 2 <= len(words) <= 5:
            return None
        for word in words:
            if not _NAME_WORD_RE.match(word):
                return None
            if word.islower():
                if word not in _NAME_PARTICLES:
                    return None
            elif len(word) > 2 and word.isupper():
                return None  # 'IBM', 'UCLA': not a name word
        if words[0].islower() or words[-1].islower():
            return None
    return parts


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


def _looks_like_title(title: str, labelled: bool = False) -> bool:
    """Two words or more; a single name ('EVStore') only when the line gives its venue."""
    if not any(c.isalpha() for c in title):
        return False
    return len(title.split()) >= 2 or (labelled and len(title) >= 3)


def _open_brackets(line: str) -> int:
    line = re.sub(r"\\[\[\]]", "", line)
    return line.count("[") - line.count("]")


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


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) with a list item's link that runs over the next lines joined."""
    # Control characters (ESC, NUL, bidi overrides) go per line, so line numbers hold.
    raw = [strip_controls(line) for line in text.splitlines()]
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(raw):
        number, line = i + 1, raw[i].rstrip()
        i += 1
        if _ITEM_RE.match(line) and _open_brackets(line) > 0:
            joined, j = line, i
            while (_open_brackets(joined) > 0 and j < len(raw) and j - i < _MAX_JOINED
                   and raw[j].strip() and not _HEADING_RE.match(raw[j])
                   and not _ITEM_RE.match(raw[j])):
                joined += " " + raw[j].strip()
                j += 1
            if _open_brackets(joined) <= 0:
                line, i = joined, j
        out.append((number, line))
    return out


def parse(text: str, venues: Collection[str] = ()) -> Parsed:
    """Every paper entry of a Markdown list; venues lets headings like '## OSDI' count."""
    out = Parsed()
    context = _Context(venues)
    blog_year: int | None = None
    table: dict[str, int] | None = None
    last_item: Entry | None = None  # the entry an author line just below would belong to
    authored: Entry | None = None  # a 'Title (YEAR), Authors' line whose links may follow

    def skip(number: int, line: str, reason: str, listed: bool = False) -> None:
        out.not_papers.append(NotPaper(number, line.strip(), reason, listed))

    for number, line in _logical_lines(text):
        if not line.strip():
            table = None
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            context.heading(len(heading.group(1)), heading.group(2).rstrip().rstrip("#").rstrip())
            blog_year, table, last_item = None, None, None
            continue
        italic = _ITALIC_LINE_RE.match(line)
        if italic and last_item is not None:
            names = plain_names(italic.group(2))
            if names:
                last_item.authors = names
                skip(number, line, f"the authors of the entry on line {last_item.line}")
            else:
                skip(number, line, f"under the entry on line {last_item.line} but not plainly "
                     "a list of names: not used as its authors", listed=True)
            last_item = None
            continue
        last_item = None
        row = _ROW_RE.match(line)
        entry: Entry | None
        if row:
            if _SEPARATOR_RE.match(line):
                continue
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", row.group(1))]
            if table is None:
                table = _table_header(cells)
                if table is not None:
                    continue
                table = {}
            entry, reason = _table_row(number, cells, table, context)
            if entry is None:
                skip(number, line, reason, listed=True)
                continue
        else:
            table = None
            item = _ITEM_RE.match(line)
            if item:
                nested = len(item.group(1).expandtabs(4)) >= 2
                entry, reason = _list_item(number, item.group(2), context)
                if entry is None:
                    # Papers under a topic bullet are read like any; a nested note is quiet.
                    skip(number, line, "a nested item" if nested and not reason.startswith(
                        "looks like") else reason, listed=not nested or reason.startswith(
                        "looks like"))
                    continue
                last_item = entry
            else:
                if authored is not None and _only_links(line):
                    # '[[pdf]](url)' under 'Title (2009), A. Author, ...': that entry's link
                    authored.url = authored.url or _paper_url(_links(line))
                    skip(number, line, f"the links of the entry on line {authored.line}")
                    authored = None
                    continue
                authored = _authored_line(number, line, context)
                if authored is not None:
                    out.entries.append(authored)
                    continue
                entries, blog_year = _blog_line(number, line, blog_year or context.year)
                if entries:
                    out.entries.extend(entries)
                else:
                    skip(number, line, "not a list item, table row or year list")
                continue
        out.entries.append(entry)
    return out


def _links(text: str) -> list[tuple[str, str]]:
    """Every link: Markdown ones, '[[pdf]](url)' groups and HTML anchors."""
    # An empty link ('[[PDF]()]') matches neither URL group: its URL is ''.
    found = [(m.group(1), m.group(2) or m.group(3) or "")
             for m in _LINK_GROUP_RE.finditer(text)]
    found += [(m.group(1), m.group(2)) for m in _LINK_RE.finditer(text)]
    found += [(re.sub(r"<[^>]+>", "", m.group(2)), m.group(1)) for m in _HREF_RE.finditer(text)]
    return found


def _with_ids(entry: Entry, text: str) -> Entry:
    if entry.arxiv is None:
        m = _ARXIV_URL_RE.search(text)
        if m:
            entry.arxiv = m.group(1)
    m = _DOI_URL_RE.search(text)
    if m:
        doi, bad = kept_doi(m.group(1).rstrip(".,;"), "link's doi")
        entry.doi = doi or entry.doi
        entry.notes += [str(bad)] if bad else []
    return entry


def _strip_links(text: str) -> str:
    text = _LINK_GROUP_RE.sub(" ", text)
    text = _LINK_RE.sub(" ", text)
    return _HREF_RE.sub(" ", text)


def _tail_label(tail: str) -> tuple[str, int | None, str | None] | None:
    """The venue after a title: 'arXiv 2021', '(SOSP 2023)', '[JMLR'22]', after its links."""
    for m in _PAREN_RE.finditer(tail):
        label = parse_label(m.group(1) or m.group(2))
        if label:
            return label
    rest = _strip_links(tail).strip(" \t-–—,;:|")
    wrapped = re.fullmatch(r"[\[(](.*)[\])]", rest)
    return parse_label(wrapped.group(1).strip() if wrapped else rest) if rest else None


def _trim_title(title: str) -> str:
    """A plain title without the notes lists put after it: '[also in [1.2](#x)]', '(`PAI`)'.

    Walks back from the end with an index (no slicing or search per note): linear."""
    def back_over_spaces(end: int) -> int:
        while end > 0 and title[end - 1].isspace():
            end -= 1
        return end

    end = back_over_spaces(len(title))
    while end > 0:
        if title[end - 1] == ")":
            start = title.rfind("(", 0, end)
            if start > 0 and title[start - 1].isspace() and _CODE_NOTE_RE.fullmatch(
                    title, start, end):
                end = back_over_spaces(start)
                continue
        if title[end - 1] != "]":
            break
        depth, i = 0, end - 1
        while i >= 0:
            depth += {"]": 1, "[": -1}.get(title[i], 0)
            if depth == 0:
                break
            i -= 1
        if depth != 0 or i <= 0 or not title[i - 1].isspace():
            break
        end = back_over_spaces(i)
    return title[:end]


def _list_item(number: int, body: str, context: _Context) -> tuple[Entry | None, str]:
    """The entry of a top-level list item, or None and why it is not one."""
    body = _unescape(body)
    tags, at = [], 0
    while (tag := _TAG_RE.match(body, at)) is not None:  # pos, not slices: linear
        tags.append(tag.group(1))
        at = tag.end()
    rest = body[at:]
    label = next((lb for lb in map(parse_label, tags) if lb), None)
    url: str | None = None
    title: str | None = None
    linked = False  # the title links to a page, or a bold title has a paper link after it
    tail = ""
    link = _LINK_RE.match(rest)
    if link and link.group(1).strip().casefold() in _LINK_WORDS:
        link = None
    bold = _BOLD_RE.match(rest)
    if link:
        # - [Title](url) ...
        title, url, tail = link.group(1), link.group(2), rest[link.end():]
        linked = url.startswith("http")
    elif bold:
        # + **Title** [[pdf](url)] arXiv 2021
        inner, tail = bold.group(2).strip(), rest[bold.end():]
        inner_link = _LINK_RE.fullmatch(inner)
        title, url = (inner_link.group(1), inner_link.group(2)) if inner_link else (inner, None)
        url = url if url and url.startswith("http") else _paper_url(_links(tail))
        linked = bool(url) or any(u.startswith("http") for _t, u in _links(tail))
    elif rest.startswith("[") and _open_brackets(rest) > 0:
        return None, "a link that is never closed"
    else:
        # * Title ([SOSP 2023](link)) [[Paper](url)]   or   * Title (arXiv 2212.00939)
        for m in _PAREN_RE.finditer(rest):
            paren = parse_label(m.group(1) or m.group(2))
            if not paren:
                continue
            head = rest[:m.start()].strip()
            links = _links(head)
            if links and head.startswith("[") and head.endswith(")"):
                title, url = links[0]
            else:
                title = _LINK_RE.sub(r"\1", head)
            url = url or _paper_url(_links(rest[m.end():]))
            return _entry(number, title, label or paren, url, body, context)
        if label is None:
            return _plain_item(number, rest, body, context)
        # - [OSDI'23] Title [[pdf](url)]
        cut = _LINK_GROUP_RE.search(rest)
        title, tail = (rest[:cut.start()], rest[cut.start():]) if cut else (rest, "")
        title = _trim_title(_LINK_RE.sub(r"\1", title).strip())
        url = _paper_url(_links(body))
    label = label or _tail_label(tail)
    # '- [Title](notes.md)' under '## OSDI 2023' is that venue's paper; a bold line is not
    if label is None and not linked and not (link and context.venue and context.year):
        if url and not url.startswith("http"):
            return None, "a link within the site, not to a paper"
        return None, "no venue, year or link to a paper"
    if url and not url.startswith("http"):
        url = _paper_url(_links(tail))
    return _entry(number, title, label, url, body, context)


def _plain_item(number: int, rest: str, body: str,
                context: _Context) -> tuple[Entry | None, str]:
    """A plain item: 'Title. VENUE YEAR' with annotations after it, or 'Title (YEAR,
    Author)'. A near miss (no space before the venue, a three-digit year) is reported,
    never guessed."""
    url = _paper_url(_links(rest))
    text = _strip_annotations(rest)
    m = _YEAR_AUTHOR_RE.search(text)
    if m:
        title = text[:m.start()]
        return _entry(number, title, (None, int(m.group(1)), None), url,  # type: ignore[arg-type]
                      body, context)
    tokens = text.split()
    for width in (1, 2):  # 'KDD 2018', 'RecSys Workshop 2019'
        if len(tokens) < width + 2 or not tokens[-width - 2].endswith("."):
            continue
        venue, year = " ".join(tokens[-width - 1:-1]), tokens[-1]
        if not re.match(r"^[A-Za-z][\w&@\-']*$", tokens[-width - 1]) or not any(
                c.isupper() for c in venue):
            continue
        if _YEAR_RE.match(year):
            return _entry(number, " ".join(tokens[:-width - 1]), (venue, int(year), None),
                          url, body, context)
        if year.isdigit():
            return None, (f"looks like 'Title. VENUE YEAR' but '{year}' is not a year: fix "
                          "the list (never guessed)")
    if len(tokens) >= 2 and _YEAR_RE.match(tokens[-1]) and re.search(
            r"[a-z]\.[A-Z][\w&\-]*$", tokens[-2]):
        return None, (f"looks like 'Title. VENUE YEAR' but '{tokens[-2]}' has no space "
                      "before the venue: fix the list (never guessed)")
    return None, "no venue, year or link to a paper"


def _strip_annotations(text: str) -> str:
    """An item without the links, tags and marks lists put after the title: '[中文]',
    '[[pdf](url)]', a trailing link, emoji."""
    text = _strip_links(text)
    end = len(text)
    while True:  # trailing bracket tags, walked back with an index (linear)
        while end > 0 and text[end - 1].isspace():
            end -= 1
        if end == 0 or text[end - 1] != "]":
            break
        start = text.rfind("[", 0, end)
        if start < 0 or "]" in text[start:end - 1]:
            break
        end = start
    return text[:end].strip()


def _not_paper_site(url: str | None) -> str | None:
    """What a link points to when that is plainly not a paper (a repository, a video...)."""
    if not url:
        return None
    host_path = re.sub(r"^https?://(?:www\.|m\.)?", "", url.lower())
    for site, what in _NOT_PAPER_HOSTS:
        if host_path.startswith(site + "/") or host_path == site:
            if site.endswith("github.com") and re.search(r"\.pdf$|/releases/", host_path):
                return None  # a PDF kept in a repository is a paper's file
            return what
    return None


def _only_links(line: str) -> bool:
    """True for a line of nothing but links ('[[pdf]](url) [[code]](url)')."""
    return bool(_links(line)) and not _strip_links(line).strip(" \t-–—|,;")


def _authored_line(number: int, line: str, context: _Context) -> Entry | None:
    """'Title (2009), Y. Koren, R. Bell, C. Volinsky, et al.': a paper with its authors."""
    m = _AUTHORED_RE.match(line.strip())
    if not m:
        return None
    names, et_al = m.group(3).strip().rstrip("."), False
    tail = re.search(r",?\s*et\.?\s*al$", names)
    if tail:
        names, et_al = names[:tail.start()], True
    authors = plain_names(names)
    title = clean_title(m.group(1))
    if not authors or not _looks_like_title(title):
        return None
    return Entry(number, title, context.venue, int(m.group(2)), authors=authors, et_al=et_al)


def _paper_url(links: list[tuple[str, str]]) -> str | None:
    for text, url in links:
        if text.strip().casefold() in _LINK_WORDS and url.startswith("http"):
            return url
    return None


def _entry(number: int, title: str, label: tuple[str, int | None, str | None] | None,
           url: str | None, text: str, context: _Context) -> tuple[Entry | None, str]:
    """An entry with its venue and year from the label, else from the headings above."""
    title = clean_title(title)
    if not _looks_like_title(title, labelled=label is not None):
        return None, f"'{title}' does not look like a paper's title"
    site = _not_paper_site(url)
    if site is not None and label is None:
        return None, f"{site}, not a paper"
    venue, year, arxiv_id = label or (context.venue, None, None)
    notes = []
    if url and not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", url):
        url = None  # a relative link is simply not the paper's: dropped without a word
    url, bad = kept_url(url, "link")  # 'javascript:', 'data:': never a link
    notes += [str(bad)] if bad else []
    entry = Entry(number, title, venue, year or context.year, url, arxiv_id, notes=notes)
    return _with_ids(entry, text), ""


def _table_header(cells: list[str]) -> dict[str, int] | None:
    """Column positions from a header row, or None when it is not one."""
    columns: dict[str, int] = {}
    for i, cell in enumerate(cells):
        name = clean_title(cell).casefold()
        for role, words in (("title", ("title", "paper", "name")),
                            ("venue", ("venue", "conference", "where", "published")),
                            ("year", ("year",)), ("authors", ("author", "authors"))):
            if role not in columns and any(w == name or name.startswith(w) for w in words):
                columns[role] = i
    return columns if "title" in columns else None


def _table_row(number: int, cells: list[str], columns: dict[str, int],
               context: _Context) -> tuple[Entry | None, str]:
    """The entry of a table row, or None and why it is not one."""
    if "title" not in columns:
        return None, "a row of a table with no Title, Paper or Name column"
    if columns["title"] >= len(cells) or not cells[columns["title"]].strip():
        return None, "a table row with no title"
    # '<br>' and the link words a cell puts after its title ('<br> [paper](url)', 'note')
    cell = re.sub(r"<br\s*/?>", " ", _unescape(cells[columns["title"]]), flags=re.IGNORECASE)
    label = None
    # 'Title [ICLR'21]' or '[OSDI'23] Title': a venue tag inside the title cell
    end, start = _END_TAG_RE.search(cell), _TAG_RE.match(cell)
    if end and parse_label(end.group(1)):
        label, cell = parse_label(end.group(1)), cell[:end.start()]
    elif start and parse_label(start.group(1)):
        label, cell = parse_label(start.group(1)), cell[start.end():]
    cell = cell.strip()
    links = _links(cell)
    if links and cell.startswith("["):
        title, url = links[0]
    else:
        title, url = _drop_link_words(_strip_links(cell)), None
    if label is None and "venue" in columns and columns["venue"] < len(cells):
        text = clean_title(_LINK_RE.sub(r"\1", cells[columns["venue"]]))
        if text:
            label = parse_label(text) or (text, None, None)
    if "year" in columns and columns["year"] < len(cells):
        value = clean_title(cells[columns["year"]])
        if _YEAR_RE.match(value):
            venue, _y, arxiv_id = label or (context.venue, None, None)
            label = (venue or "", int(value), arxiv_id)
    url = url or _paper_url([lk for c in cells for lk in _links(_unescape(c))])
    entry, reason = _entry(number, title, label, url, " ".join(cells), context)
    if entry is not None:
        entry.venue = entry.venue or None
        if "authors" in columns and columns["authors"] < len(cells):
            entry.authors, entry.et_al = _author_cell(cells[columns["authors"]])
    return entry, reason


def _drop_link_words(title: str) -> str:
    """A title without the link words left at its end ('... Ranking paper', '... note')."""
    words = title.split()
    while len(words) > 2 and words[-1].casefold().strip("[]()") in _CELL_LINK_WORDS:
        words.pop()
    return " ".join(words)


def _author_cell(cell: str) -> tuple[list[str], bool]:
    """The names of an Authors cell ('A B; C D; etc.'), only when each is plainly a name."""
    parts = [p.strip() for p in re.split(r"\s*;\s*", clean_title(cell)) if p.strip()]
    et_al = bool(parts) and re.fullmatch(r"(?:etc|et\.?\s*al)\.?", parts[-1],
                                         re.IGNORECASE) is not None
    if et_al:
        parts = parts[:-1]
    names = [plain_names(p) for p in parts]
    if not parts or any(n is None or len(n) != 1 for n in names):
        return [], False
    return [n[0] for n in names if n], et_al


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
