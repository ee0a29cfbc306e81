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
from dataclasses import dataclass, field
from itertools import pairwise

from catalog.model import kept_doi, kept_url, strip_controls

# Every pattern here is linear in its input (issue 8, item 13): no two neighbouring
# quantifiers that can take the same characters, possessive runs where they could, and
# trailing '#'s or spaces stripped in code rather than by a lazy group.
_HEADING_RE = re.compile(r"^(#{1,6})\s++(.*)$")
_ITEM_RE = re.compile(r"^(\s*+)(?:[-*+]|\d++[.)])\s++(.*\S)\s*$")
_ROW_RE = re.compile(r"^\s*+\|(.*)\|\s*$")
_OPEN_ROW_RE = re.compile(r"^\s*+\|(.*\S)\s*$")  # a row without its closing '|'
_SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)\s*$")
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
# '(`PAI`)', '(**vLLM**)' after a title: the system's name, a note, not the title
_CODE_NOTE_RE = re.compile(r"\(\s*+(?:`[^`]*`|\*\*[^*()]+\*\*)\s*+\)")
_BOLD_RE = re.compile(r"^(\*\*|__)(.+?)\1")
_ITALIC_LINE_RE = re.compile(r"^\s*(\*|_)([^*_]+)\1\s*$")
_ARXIV_LABEL_RE = re.compile(r"^arxiv(?:[:\s]+(\d{4}\.\d{4,5})(v\d+)?)?(?:\s*['’]?(\d{2}|\d{4}))?$",
                             re.IGNORECASE)
_VENUE = r"([A-Za-z][\w&\-/.]*(?:\s[A-Za-z][\w&\-]*){0,2})"
# 'OSDI'23', 'OSDI '23', 'ATC’ 21', 'ICML' 2022', 'ECIR'2016': an apostrophe says "year"
_VENUE_YY_RE = re.compile(_VENUE + r"\s*['’]\s?(\d{2}|\d{4})$")
# 'OSDI 25' with no apostrophe is a venue and year only as a heading ('## OSDI 25')
_HEADING_YY_RE = re.compile(_VENUE + r"\s(\d{2})$")
_VENUE_YYYY_RE = re.compile(_VENUE + r"\s+((?:19|20)\d{2})$")
_YEAR_RE = re.compile(r"^(?:19|20)\d{2}$")
# 'Title (2009), A. Author, B. Author, et al.' on a line of its own. The title stops at the
# first ' (YEAR), ' (a scan, not a backtracking search).
_AUTHORED_RE = re.compile(r"^([^()]+?)\s\(((?:19|20)\d{2})\),\s++(.+)$")
# a venue at a title's end, after an apostrophe: '... at Scale ICML' 2022.'
_APOS_LABEL_END_RE = re.compile(r"\s([A-Za-z][\w\-]*\s?['’]\s?(?:\d{4}|\d{2}))\.?$")
# '**[Arxiv'25]**': a tag in bold
_EMPH_TAG_RE = re.compile(r"(\*\*|__)\[([^\[\]]+)\]\1\s*")
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
_ARXIV_URL_RE = re.compile(r"arxiv\.org/(?:abs/|pdf/|ftp/arxiv/papers/\d{4}/)(\d{4}\.\d{4,5})")
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
_MAX_PARTS = 6  # lines a record of hard-broken lines may have
# No '\s*' before '<br': a search would rescan each run of spaces from every start (quadratic)
_BR_RE = re.compile(r"<br\s*/?>", re.IGNORECASE)
_BR_END_RE = re.compile(r"<br\s*/?>$", re.IGNORECASE)  # on a line stripped at its end


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
    text = " ".join(text.replace("*", "").replace("`", "").split())  # '**CSUR'18**'
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
    text = " ".join(text.split()).strip(" -–—,;.*")
    if text.startswith("《") and text.endswith("》"):  # '《Title》': Chinese title marks
        text = text[1:-1].strip(" -–—,;.*")
    return text


def _looks_like_title(title: str, labelled: bool = False) -> bool:
    """Two words or more; a single name ('EVStore') only when the line gives its venue."""
    if not any(c.isalpha() for c in title):
        return False
    return len(title.split()) >= 2 or (labelled and len(title) >= 3)


# Words of a heading over things that are not papers ('## Datasets', '# Course', '## Person/
# Lab', '## Related Resources'); a heading with a paper word ('## Papers', '### Survey') is
# over papers again. Topics ('## Frameworks', '### 2021') say neither: the heading above rules.
# '## Contents' is not among them: topics may sit under it, and its own items are page links.
_NOT_PAPER_SECTION = frozenset({
    "course", "courses", "tutorial", "tutorials", "lecture", "lectures", "book", "books",
    "video", "videos", "talk", "talks", "presentation", "presentations", "blog", "blogs",
    "podcast", "podcasts", "dataset", "datasets", "tool", "tools", "toolkit", "toolkits",
    "library", "libraries", "repository", "repositories", "repos", "project", "projects",
    "people", "person", "lab", "labs", "researchers", "resources", "contributors",
    "contributing", "license", "citation", "implementation", "implementations",
    "leaderboard", "leaderboards", "acknowledgement", "acknowledgements", "acknowledgment",
    "acknowledgments", "acknowledegments"})
_PAPER_SECTION = frozenset({"paper", "papers", "survey", "surveys", "publication",
                            "publications", "articles", "preprints"})


def _section_kind(heading: str) -> str | None:
    """heading when it is over things that are not papers, '' over papers, else None."""
    words = set(re.findall(r"[^\W\d_]+", heading.casefold()))
    if words & _PAPER_SECTION:
        return ""
    return heading if words & _NOT_PAPER_SECTION else None


def _open_brackets(line: str) -> int:
    line = re.sub(r"\\[\[\]]", "", line)
    return line.count("[") - line.count("]")


class _Context:
    """Venue and year given by the headings above a line."""

    def __init__(self, venues: Collection[str]):
        self.known = {v.casefold() for v in venues}
        self.levels: dict[int, tuple[str | None, int | None]] = {}
        # per heading level: the heading's text when it names a section of things that are
        # not papers ('## Datasets'), '' when it names papers ('## Papers'), None otherwise
        self.sections: dict[int, str | None] = {}

    def heading(self, level: int, text: str) -> None:
        self.levels = {k: v for k, v in self.levels.items() if k < level}
        self.sections = {k: v for k, v in self.sections.items() if k < level}
        text = clean_title(_LINK_RE.sub(r"\1", re.sub(r"<[^<>]*>", "", text)))
        self.sections[level] = _section_kind(text)
        label = parse_label(text)
        short = _HEADING_YY_RE.match(text)
        if label:
            self.levels[level] = (label[0], label[1])
        elif short and short.group(1).casefold() in self.known:
            self.levels[level] = (short.group(1), _year(short.group(2)))  # '## OSDI 25'
        elif _YEAR_RE.match(text):
            self.levels[level] = (None, int(text))
        elif text.casefold() in self.known:
            self.levels[level] = (text, None)

    @property
    def section(self) -> str | None:
        """The heading of the not-papers section a line is in ('Datasets'), if any."""
        return next((s for _, s in sorted(self.sections.items(), reverse=True)
                     if s is not None), None) or None

    @property
    def venue(self) -> str | None:
        return next((v for _, (v, _y) in sorted(self.levels.items(), reverse=True) if v), None)

    @property
    def year(self) -> int | None:
        return next((y for _, (_v, y) in sorted(self.levels.items(), reverse=True) if y), None)


def _hard_break(line: str) -> bool:
    """True for a line that ends in a hard line break: a backslash, '<br>' or two spaces."""
    return (line.endswith("\\") and not line.endswith("\\\\")) or line.endswith("  ") or bool(
        _BR_END_RE.search(line.rstrip()))


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
        if _ITEM_RE.match(line) and _open_brackets(line) > 0:
            joined, j = line, i
            while (_open_brackets(joined) > 0 and j < len(raw) and j - i < _MAX_JOINED
                   and _continues(raw[j])):
                joined += " " + raw[j].strip()
                j += 1
            if _open_brackets(joined) <= 0:
                line, i = joined, j
        parts = 1
        while (_hard_break(raw[i - 1]) and line.strip() and i < len(raw)
               and parts < _MAX_PARTS and _continues(raw[i])):
            line = _without_break(line) + " <br> " + raw[i].rstrip()
            i += 1
            parts += 1
        out.append((number, _without_break(line) if parts > 1 else line))
    return out


def _without_break(line: str) -> str:
    """A line without the hard line break at its end."""
    line = _BR_END_RE.sub("", line.rstrip()).rstrip()
    return line[:-1].rstrip() if line.endswith("\\") and not line.endswith("\\\\") else line


def _continues(line: str) -> bool:
    """True for a line that may continue the one above: not blank, a heading, an item or a
    table row."""
    return bool(line.strip()) and not (_HEADING_RE.match(line) or _ITEM_RE.match(line)
                                       or _ROW_RE.match(line))


def parse(text: str, venues: Collection[str] = ()) -> Parsed:
    """Every paper entry of a Markdown list; venues lets headings like '## OSDI' count."""
    out = Parsed()
    context = _Context(venues)
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
            skip(entry.line, line, f"listed under '{context.section}', a section that is not "
                 "papers", listed=True)
            return False
        out.entries.append(entry)
        return True

    for number, line in lines:
        if not line.strip():
            table = None
            continue
        heading = _HEADING_RE.match(line)
        if heading or number in setext:
            level, title = (len(heading.group(1)), heading.group(2)) if heading else (
                setext[number], line.strip())
            context.heading(level, title.rstrip().rstrip("#").rstrip())
            blog_year, table, last_item = None, None, None
            continue
        if _SETEXT_RE.match(line) and number - 1 in setext:
            continue  # the '----' under a heading
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
        # Rows may leave off the closing '|' once the table has begun.
        row = _ROW_RE.match(line) or (_OPEN_ROW_RE.match(line) if table is not None else None)
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
                if add(entry, line):
                    last_item = entry
                continue
            else:
                if authored is not None and _only_links(line):
                    # '[[pdf]](url)' under 'Title (2009), A. Author, ...': that entry's link
                    authored.url = authored.url or _paper_url(_links(line))
                    skip(number, line, f"the links of the entry on line {authored.line}")
                    authored = None
                    continue
                authored = _authored_line(number, line, context)
                if authored is not None:
                    add(authored, line)
                    continue
                paragraph = _paragraph(number, line, context)
                if paragraph is not None:
                    if add(paragraph, line):
                        last_item = paragraph
                    continue
                entries, blog_year = _blog_line(number, line, blog_year or context.year)
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
        mark = _SETEXT_RE.match(under)
        if (mark and below == number + 1 and line.strip() and "<br>" not in line
                and not (_HEADING_RE.match(line) or _ITEM_RE.match(line)
                         or _ROW_RE.match(line))):
            found[number] = 1 if mark.group(1).startswith("=") else 2
    return found


def _paragraph(number: int, line: str, context: _Context) -> Entry | None:
    """An entry written as a paragraph, not a list item: '[Title](url), Org, KDD, 2020.' or a
    record of hard-broken lines ('**Title**' / '_Authors_' / 'Venue, [[Paper](url)]' /
    '8 Aug 2024'). Only when the line itself gives a venue or year: prose is not guessed at."""
    body = line.strip()
    if not body.startswith(("[", "**", "__", "<a ")) and not _BR_RE.search(body):
        return None
    entry, _reason = _list_item(number, body, _Context(context.known))
    if entry is None or not (entry.venue or entry.year):
        return None
    return _list_item(number, body, context)[0]


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
        entry.notes += [str(bad)] if bad else []
        if doi:
            entry.doi = doi
            arxiv_doi = re.fullmatch(r"10\.48550/arxiv\.(\d{4}\.\d{4,5})", doi, re.IGNORECASE)
            if arxiv_doi and entry.arxiv is None:  # arXiv's own DOI names the preprint
                entry.arxiv = arxiv_doi.group(1)
    return entry


def _strip_links(text: str) -> str:
    text = _LINK_GROUP_RE.sub(" ", text)
    text = _LINK_RE.sub(" ", text)
    return _HREF_RE.sub(" ", text)


def _tail_label(tail: str,
                known: Collection[str] = ()) -> tuple[str, int | None, str | None] | None:
    """The venue after a title: 'arXiv 2021', '(SOSP 2023)', '[JMLR'22]', '| ATC’ 21',
    ', *WWW*, 2018.', ', Google, KDD, 2020. - [Video](url)', after its links."""
    for m in _PAREN_RE.finditer(tail):
        label = parse_label(m.group(1) or m.group(2))
        if label:
            return label
    rest = _strip_links(tail).strip(" \t-–—,;:|")
    rest = rest.rsplit(" | ", 1)[-1].strip()  # 'Title | Notes | OSDI'23': the last cell
    wrapped = re.fullmatch(r"[\[(](.*)[\])]", rest)
    label = parse_label(wrapped.group(1).strip() if wrapped else rest) if rest else None
    return label or _trailing_fields(tail, known)[1]


def _trailing_fields(text: str, known: Collection[str] = ()) -> tuple[
        str, tuple[str, int | None, str | None] | None]:
    """The venue and year a list writes as the last comma-separated fields ('..., *WWW*,
    2018.', '..., Pinterest, Inc., KDD, 2020.', '...). 2019.'), and the text before them.

    The field before the year is the venue only when the registry knows it or it reads as a
    venue's short name (one word with two capitals: 'RecSys', 'KDD'); an organisation
    ('Google Research') is left alone. No year, no label: a venue alone is not guessed."""
    plain = _strip_annotations(text).replace("*", "").rstrip(" \t-–—.;,")
    fields = plain.split(",")
    last = fields[-1].strip(" .")
    if not _YEAR_RE.match(last):
        label = parse_label(last) if len(fields) > 1 else None
        if label is None or label[1] is None:
            return text, None
        return ",".join(fields[:-1]).strip(), label
    year = int(last)
    fields.pop()
    venue: str | None = None
    arxiv_id: str | None = None
    if fields:
        field_ = fields[-1].strip()
        label = parse_label(f"{field_} {year}")  # 'arXiv:1804.09133, 2018'
        if label and label[0] == "arXiv":
            venue, arxiv_id = "arXiv", label[2]
            fields.pop()
        elif _venue_like(field_, known):
            venue = field_
            fields.pop()
    return ",".join(fields).strip(" .-–—"), (venue or "", year, arxiv_id)


def _venue_like(text: str, known: Collection[str]) -> bool:
    """A venue's short name: one the registry knows, or one word with two capitals."""
    return text.casefold() in known or (
        re.fullmatch(r"[A-Za-z][\w&@\-]*", text) is not None
        and sum(c.isupper() for c in text) >= 2)


def _continued(title: str, tail: str) -> tuple[str, str]:
    """'[INFaaS](url): Automated Model-less Inference Serving | ATC’ 21': a linked or bold
    system name whose title goes on after a colon. The title, and the tail after it."""
    colon = re.match(r"\s*:\s+", tail)
    if not colon or len(title.split()) > 3 or ":" in title:
        return title, tail
    rest = tail[colon.end():]
    stop = min((i for i in (rest.find(" | "), rest.find(" ["), rest.find("[[")) if i >= 0),
               default=len(rest))
    text, after = rest[:stop].strip(), rest[stop:]
    end = _APOS_LABEL_END_RE.search(text)  # '... AI Scale ICML' 2022.': the venue at its end
    if end and parse_label(end.group(1)):
        text, after = text[:end.start()], f" {end.group(1)} {after}"
    return (f"{title}: {text}", after) if text else (title, tail)


def _names(text: str) -> tuple[list[str] | None, bool]:
    """plain_names of an author list that may end in 'et al.'; and whether it did."""
    text = " ".join(text.split()).rstrip(".")  # single spaces: the search below stays linear
    tail = re.search(r",? ?et\.? ?al$", text)
    if tail:
        return plain_names(text[:tail.start()]), True
    return plain_names(text), False


def _authors_before(rest: str) -> tuple[list[str], bool, re.Match[str]] | None:
    """'Shuai Zhang, Lina Yao. [Title](url), *CSUR*, 2018.': plain names, then the linked
    title (names, et al., the link); None unless what precedes the link is plainly names."""
    link = next((m for m in _LINK_RE.finditer(rest)
                 if m.group(1).strip().casefold() not in _LINK_WORDS), None)
    if link is None or link.start() == 0:
        return None
    names, et_al = _names(rest[:link.start()].strip().rstrip(".:;"))
    return (names, et_al, link) if names else None


_DATE_RE = re.compile(r"(?:\d{1,2}\s+)?(?:[A-Z][a-z]{2,8}\.?,?\s+)?((?:19|20)\d{2})")
_WHOLE_BOLD_RE = re.compile(r"(\*\*|__)(.+)\1")
# '_Load Balance Loss_ - MixLoRA: ...': an emphasised note, a dash, then the title
_NOTE_PREFIX_RE = re.compile(r"([*_])(.+?)\1\s+[-–—]\s+(\S.*)")


def _record(number: int, parts: list[str], label: tuple[str, int | None, str | None] | None,
            body: str, context: _Context) -> tuple[Entry | None, str]:
    """A record of hard-broken lines: '**Title**' / '_A. Author, B. Author_' / 'Venue,
    [[Paper](url)]' / '8 Aug 2024'. Notes before the bold title are left out."""
    at = next((i for i, p in enumerate(parts) if _WHOLE_BOLD_RE.fullmatch(p)
               or (_LINK_RE.match(p) and _LINK_RE.match(p).group(1).casefold()  # type: ignore
                   not in _LINK_WORDS)), None)
    if at is None:
        return None, "lines joined by line breaks, but none is a bold or linked title"
    bold = _WHOLE_BOLD_RE.fullmatch(parts[at])
    inner = bold.group(2).strip() if bold else parts[at]
    note = _NOTE_PREFIX_RE.fullmatch(inner)
    inner = note.group(3) if note else inner
    link = _LINK_RE.match(inner)
    title, url = (link.group(1), link.group(2)) if link else (inner, None)
    authors: list[str] = []
    et_al, year, notes = False, None, []
    for part in parts[at + 1:]:
        italic = _ITALIC_LINE_RE.match(part)
        date = _DATE_RE.fullmatch(part.strip())
        if italic and not authors and not et_al:
            names, et_al = _names(italic.group(2))
            authors = names or []
            if not names:
                notes.append(f"author line {italic.group(2)[:60]!r} is not plainly a list "
                             "of names: not used")
        elif date:
            year = year or int(date.group(1))
        elif label is None:
            label = _part_label(part, context.known)
    if label is not None and label[1] is None and year:
        label = (label[0], year, label[2])  # 'arXiv, [[Paper](...)]' dated '8 Aug 2024'
    elif label is None and year:
        label = ("", year, None)
    url = url if url and url.startswith("http") else _paper_url(
        [lk for p in parts[at:] for lk in _links(p)])
    entry, reason = _entry(number, title, label, url, body, context)
    if entry is not None:
        entry.authors, entry.et_al = authors, et_al and bool(authors)
        entry.notes += notes
    return entry, reason


def _part_label(part: str, known: Collection[str]) -> tuple[str, int | None, str | None] | None:
    """The venue of a record's venue line: 'ICLR 2022, [[Paper](url)]', 'arXiv, [[Paper]]',
    'Neural Computation, [[Paper](url)]' (a short name as written)."""
    text = _strip_links(part).strip(" \t,;.-–—")
    if not text:
        return None
    label = parse_label(text) or _trailing_fields(text, known)[1]
    if label:
        return label
    words = text.split()
    if len(words) <= 8 and text[0].isupper() and not re.search(r"[.!?]\s", text):
        return text, None, None
    return None


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
    # '[OSDI'23] [Survey] ...', '[**CSUR'18**] ...', '**[Arxiv'25]** ...': pos, not slices
    while (tag := _TAG_RE.match(body, at) or _EMPH_TAG_RE.match(body, at)) is not None:
        tags.append(tag.group(1) if tag.re is _TAG_RE else tag.group(2))
        at = tag.end()
    rest = body[at:]
    label = next((lb for lb in map(parse_label, tags) if lb), None)
    if _BR_RE.search(rest):
        return _record(number, [p.strip() for p in _BR_RE.split(rest)], label, body, context)
    url: str | None = None
    title: str | None = None
    linked = False  # the title links to a page, or a bold title has a paper link after it
    tail = ""
    authors: tuple[list[str], bool] = ([], False)
    link = _LINK_RE.match(rest)
    if link and link.group(1).strip().casefold() in _LINK_WORDS:
        link = None
    bold = _BOLD_RE.match(rest)
    before = None if link or bold else _authors_before(rest)
    if before is not None:
        # Shuai Zhang, Lina Yao. [Title](url), *CSUR*, 2018.
        authors, link = (before[0], before[1]), before[2]
    if link:
        # - [Title](url) ...   or   - [Name](url): rest of the title | VENUE'YY
        title, url, tail = link.group(1), link.group(2), rest[link.end():]
        title, tail = _continued(title, tail)
        linked = url.startswith("http")
    elif bold:
        # + **Title** [[pdf](url)] arXiv 2021   or   - **Name**: rest of the title [[link]](url)
        inner, tail = bold.group(2).strip(), rest[bold.end():]
        inner_link = _LINK_RE.fullmatch(inner)
        title, url = (inner_link.group(1), inner_link.group(2)) if inner_link else (inner, None)
        title, tail = _continued(title, tail)
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
        # - [OSDI'23] Title [[pdf](url)]   or   - [TIST'15] Title, *TIST*, 2015.
        cut = _LINK_GROUP_RE.search(rest)
        title, tail = (rest[:cut.start()], rest[cut.start():]) if cut else (rest, "")
        title = _trim_title(_LINK_RE.sub(r"\1", title).strip())
        head, restated = _trailing_fields(title, context.known)
        title = head if restated is not None and head else title
        url = _paper_url(_links(body))
    label = label or _tail_label(tail, context.known)
    # '- [Title](notes.md)' under '## OSDI 2023' is that venue's paper; a bold line is not
    if label is None and not linked and not (link and context.venue and context.year):
        if url and not url.startswith("http"):
            return None, "a link within the site, not to a paper"
        return None, "no venue, year or link to a paper"
    if url and not url.startswith("http"):
        url = _paper_url(_links(tail))
    entry, reason = _entry(number, title, label, url, body, context)
    if entry is not None:
        entry.authors, entry.et_al = authors
    return entry, reason


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
    venue = venue or context.venue  # '[Title](url), 2020.' under '## KDD'
    notes = []
    if url and not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", url):
        url = None  # a relative link is simply not the paper's: dropped without a word
    url, bad = kept_url(url, "link")  # 'javascript:', 'data:': never a link
    notes += [str(bad)] if bad else []
    entry = Entry(number, title, venue, year or context.year, url, arxiv_id, notes=notes)
    return _with_ids(entry, text), ""


# Header words of each column role, English and Chinese ('论文' paper, '会议' conference,
# '年份' year, '作者' authors...).
_HEADER_WORDS = (
    ("title", ("title", "paper", "name", "论文", "标题", "题目", "名称")),
    ("venue", ("venue", "conference", "where", "published", "会议", "期刊", "发表", "来源")),
    ("year", ("year", "年份", "年")), ("authors", ("author", "authors", "作者")))


def _table_header(cells: list[str]) -> dict[str, int] | None:
    """Column positions from a header row, or None when it is not one."""
    columns: dict[str, int] = {}
    for i, cell in enumerate(cells):
        name = clean_title(cell).casefold()
        for role, words in _HEADER_WORDS:
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
