"""The fields of one Markdown list entry: labels, venues, years, names, links. Pure."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from catalog.model import kept_doi, link_ids, links_in

# Every pattern here is linear in its input (issue 8, item 13): no two neighbouring
# quantifiers that can take the same characters, possessive runs where they could, and
# trailing '#'s or spaces stripped in code rather than by a lazy group.
_ARXIV_LABEL_RE = re.compile(
    r"^arxiv(?:[:\s]+(\d{4}\.\d{4,5})(v\d+)?)?(?:\s*['’]?(\d{2}|\d{4}))?\Z", re.IGNORECASE
)
_VENUE = r"([A-Za-z][\w&\-/.]*(?:\s[A-Za-z][\w&\-]*){0,2})"
# 'OSDI'23', 'OSDI '23', 'ATC’ 21', 'ICML' 2022', 'ECIR'2016': an apostrophe says "year"
_VENUE_YY_RE = re.compile(_VENUE + r"\s*['’]\s?(\d{2}|\d{4})$")
# 'OSDI 25' with no apostrophe is a venue and year only as a heading ('## OSDI 25')
_HEADING_YY_RE = re.compile(_VENUE + r"\s(\d{2})$")
_VENUE_YYYY_RE = re.compile(_VENUE + r"\s+((?:19|20)\d{2})$")
YEAR_RE = re.compile(r"^(?:19|20)\d{2}\Z")
_WORKSHOP_AT_RE = re.compile(r"^([A-Za-z][\w\-]*)@([A-Za-z][\w\-]*)\s*['’]?\s*(\d{4}|\d{2})\Z")
# Sites whose pages are not papers: a repository, a video, a course, a dataset page.
NOT_PAPER_HOSTS = (
    ("github.com", "a GitHub repository"),
    ("gitlab.com", "a GitLab repository"),
    ("youtube.com", "a video"),
    ("youtu.be", "a video"),
    ("vimeo.com", "a video"),
    ("coursera.org", "a course"),
    ("udemy.com", "a course"),
    ("edx.org", "a course"),
    ("kaggle.com", "a dataset or competition page"),
    ("huggingface.co/datasets", "a dataset page"),
    ("twitter.com", "a social media post"),
    ("x.com", "a social media post"),
    ("linkedin.com", "a profile"),
    ("zhihu.com/people", "a profile"),
    ("zhuanlan.zhihu.com", "a blog post"),
    ("medium.com", "a blog post"),
    ("pypi.org", "a software package"),
)
MARKER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9\-]*)['’](\d{2})[.,;]?\Z")
ARXIV_WORD_RE = re.compile(r"^arxiv[.,;]?\Z", re.IGNORECASE)
# Words a link to a paper is labelled with, never a title ('论文'/'原文' paper, text; '원문'
# original; '链接'/'링크' link)
LINK_WORDS = {"paper", "pdf", "link", "arxiv", "doi", "论文", "原文", "链接", "원문", "링크"}
CELL_LINK_WORDS = LINK_WORDS | {"note", "notes", "code", "slides", "video", "blog"}
# Labels of links beside a paper: never its title
LINK_LABELS = CELL_LINK_WORDS | {
    "project",
    "project page",
    "homepage",
    "website",
    "github",
    "poster",
    "talk",
    "bibtex",
    "supplementary",
    "demo",
    "repo",
    "official code",
    "abstract",
    "html",
    "openreview",
    "full text",
    "pdf link",
    "paper link",
    "代码",
    "코드",
}
# Lower-case words that belong inside a person's name ('Diego de las Casas').
_NAME_PARTICLES = frozenset(
    {
        "de",
        "da",
        "das",
        "di",
        "del",
        "della",
        "der",
        "den",
        "des",
        "do",
        "dos",
        "du",
        "la",
        "las",
        "le",
        "los",
        "van",
        "von",
        "ter",
        "ten",
        "zu",
        "y",
        "bin",
        "al",
        "el",
    }
)
_NAME_WORD_RE = re.compile(r"^[^\W\d_](?:[^\W\d_]|['’.\-])*\Z")
# Words of papers' titles that are nobody's name: a run of capitalised words holding one
# ('Multi-Component Graph Convolutional Collaborative Filtering', 'Neural Computation')
# is a title or a venue, never an author.
_TITLE_WORDS = frozenset(
    [
        "adaptive",
        "approach",
        "attention",
        "benchmark",
        "collaborative",
        "communications",
        "computation",
        "computing",
        "conference",
        "convolutional",
        "data",
        "deep",
        "distributed",
        "efficient",
        "embedding",
        "embeddings",
        "experts",
        "federated",
        "filtering",
        "framework",
        "graph",
        "graphs",
        "inference",
        "journal",
        "language",
        "large",
        "learning",
        "memory",
        "mixture",
        "model",
        "models",
        "network",
        "networks",
        "neural",
        "optimization",
        "parallel",
        "prediction",
        "proceedings",
        "recommendation",
        "recommendations",
        "recommender",
        "retrieval",
        "scalable",
        "serving",
        "sparse",
        "survey",
        "system",
        "systems",
        "training",
        "transactions",
        "transformer",
        "transformers",
        "towards",
        "using",
        "via",
        "workshop",
    ]
)
# A person's name in a Han, kana or Hangul script is written without spaces in two to
# four characters ('张三'); a longer run of them is a phrase ('利用多任务').
_CJK_RUN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{5}")
MAX_PARTS = 6  # lines a record of hard-broken lines may have


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
    nickname: str | None = None  # a system's short name a table gives beside the title
    first_author: str | None = None  # a name given alone ('(2018, Shuai Zhang)'): not all


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
    parts: dict[int, int] = field(default_factory=dict)  # a continuation line: its entry's

    @property
    def skipped(self) -> list[int]:
        """The numbers of the lines that are not papers."""
        return [n.line for n in self.not_papers]


def parse_label(text: str) -> tuple[str, int | None, str | None] | None:
    """(venue, year, arXiv id) from 'OSDI'23', 'SOSP 2023', 'arxiv, 2022', 'arXiv 2212.00939';
    else None."""
    text = " ".join(text.replace("*", "").replace("`", "").split())  # '**CSUR'18**'
    text = re.sub(r"\s*,\s*(?=(?:19|20)\d{2}$|['’]\d{2}$)", " ", text)
    text = re.sub(r"\s*@\s*", "@", text)  # 'NAIC @ SIGCOMM'25'
    label = _label(text)
    if label is None and (note := _NOTE_AFTER_YEAR_RE.match(text)):
        label = _label(note.group(1))  # 'NeurIPS'25 Spotlight', 'PPoPP'24 poster'
        # a one-word venue: 'A Made-Up Ranker 1990 for Videos' is a title, not a tag
        label = label if label and len(label[0].split()) == 1 else None
        if label and _WORKSHOP_WORD_RE.search(text, note.end(1)):
            # 'ICML 2022 Workshop': a workshop is a venue of its own, never the conference
            label = (f"{label[0]} Workshop", label[1], label[2])
    elif label is not None and _WORKSHOP_WORD_RE.search(label[0]):
        label = (_WORKSHOP_WORD_RE.sub("Workshop", label[0]), label[1], label[2])
    return label


_WORKSHOP_WORD_RE = re.compile(r"\bworkshops?\b", re.IGNORECASE)


# A tag with a note after its year: 'NeurIPS'25 Spotlight', 'ICML 2024 (Oral)', 'KDD'19 best paper'
_NOTE_AFTER_YEAR_RE = re.compile(
    r"^(.+?(?:['’]\s?\d{2}|\s(?:19|20)\d{2}))[\s,(-]+[A-Za-z][\w\s)-]{0,30}\Z"
)


def _label(text: str) -> tuple[str, int | None, str | None] | None:
    """parse_label of a tag without notes."""
    m = _ARXIV_LABEL_RE.match(text)
    if m:
        arxiv_id, year = m.group(1), m.group(3)
        if arxiv_id:
            return "arXiv", 2000 + int(arxiv_id[:2]), arxiv_id
        return "arXiv", year_of(year) if year else None, None
    m = _VENUE_YY_RE.match(text) or _VENUE_YYYY_RE.match(text)
    if m:
        return m.group(1), year_of(m.group(2)), None
    m = _WORKSHOP_AT_RE.match(text)  # 'EuroMLSys@EuroSys'24': the workshop is the venue
    if m:
        return m.group(1), year_of(m.group(3)), None
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
        if len(parts) == 1 and sum(len(w) > 2 and "." not in w for w in words) > 3:
            return None  # four full words and no other name beside it: a title's words
        for word in words:
            if not _NAME_WORD_RE.match(word) or _CJK_RUN_RE.search(word):
                return None
            if word.casefold().strip(".") in _TITLE_WORDS or word.count("-") > 1:
                return None
            if word.islower():
                if word not in _NAME_PARTICLES:
                    return None
            elif len(word) > 2 and word.isupper():
                return None  # 'IBM', 'UCLA': not a name word
        if words[0].islower() or words[-1].islower():
            return None
    return parts


def year_of(text: str) -> int:
    """The year of '2019', '19' or '98' ('50' to '99' are of the 1900s)."""
    if len(text) == 4:
        return int(text)
    return (1900 if int(text) >= 50 else 2000) + int(text)


def bracket_tag(
    text: str, known: Collection[str], bracketed: bool = True
) -> tuple[str, int | None, str | None] | None:
    """'[KDD 18]', '[DLP-KDD 19]': a venue and a two-digit year with no apostrophe, read as a
    tag inside brackets for a venue's short name, and out of them ('Title, SIGIR 24') for a
    venue the registry knows only (a title may end in a number)."""
    short = _HEADING_YY_RE.match(text.strip("[]() \t"))
    if short is None:
        return None
    venue = short.group(1)
    if venue.casefold() in known or (bracketed and venue_like(venue, known)):
        return venue, year_of(short.group(2)), None
    return None


def clean_title(text: str) -> str:
    """A title (plain text, as the parser gives it) without trailing punctuation."""
    text = " ".join(text.split()).strip(" -–—,;.*")
    if text.startswith("《") and text.endswith("》"):  # '《Title》': Chinese title marks
        text = text[1:-1].strip(" -–—,;.*")
    return text


def looks_like_title(title: str, labelled: bool = False) -> bool:
    """Two words or more; a single name ('EVStore') only when the line gives its venue."""
    if not any(c.isalpha() for c in title):
        return False
    return len(title.split()) >= 2 or (labelled and len(title) >= 3)


# Words of a heading over things that are not papers ('## Datasets', '# Course', '## Person/
# Lab', '## Related Resources'); a heading with a paper word ('## Papers', '### Survey') is
# over papers again. Topics ('## Frameworks', '### 2021') say neither: the heading above rules.
# '## Contents' is not among them: topics may sit under it, and its own items are page links.
_NOT_PAPER_SECTION = frozenset(
    {
        "course",
        "courses",
        "tutorial",
        "tutorials",
        "lecture",
        "lectures",
        "book",
        "books",
        "video",
        "videos",
        "talk",
        "talks",
        "presentation",
        "presentations",
        "blog",
        "blogs",
        "podcast",
        "podcasts",
        "dataset",
        "datasets",
        "tool",
        "tools",
        "toolkit",
        "toolkits",
        "library",
        "libraries",
        "repository",
        "repositories",
        "repos",
        "project",
        "projects",
        "people",
        "person",
        "lab",
        "labs",
        "researchers",
        "resources",
        "contributors",
        "contributing",
        "license",
        "citation",
        "implementation",
        "implementations",
        "leaderboard",
        "leaderboards",
        "acknowledgement",
        "acknowledgements",
        "acknowledgment",
        "acknowledgments",
        "acknowledegments",
    }
)
# Of those, the words of software: a paper on it gives its own venue and year
_SOFTWARE = frozenset(
    {"tool", "tools", "toolkit", "toolkits", "library", "libraries", "repository"}
    | {"repositories", "repos", "project", "projects", "implementation", "implementations"}
)
_PAPER_SECTION = frozenset(
    {"paper", "papers", "survey", "surveys", "publication", "publications", "articles", "preprints"}
)


def _section_kind(heading: str) -> str | None:
    """heading when it is over things that are not papers, '' over papers, else None."""
    words = set(re.findall(r"[^\W\d_]+", heading.casefold()))
    if words & _PAPER_SECTION:
        return ""
    return heading if words & _NOT_PAPER_SECTION else None


def open_brackets(line: str) -> int:
    line = re.sub(r"\\[\[\]]", "", line)
    return line.count("[") - line.count("]")


_TAG_IN_HEADING_RE = re.compile(
    r"(?<![\w&\-])([A-Za-z][\w&\-]*)\s?['’]?\s?((?:19|20)\d{2}|\d{2})(?!\d)"
)


def _known_tag(text: str, known: Collection[str]) -> tuple[str, int] | None:
    """The last 'VENUE YEAR' inside a heading's words whose venue the registry knows."""
    found = [
        (m.group(1), year_of(m.group(2)))
        for m in _TAG_IN_HEADING_RE.finditer(text)
        if m.group(1).casefold() in known
    ]
    return found[-1] if found else None


class Context:
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
        text = clean_title(text)  # its plain text: links and HTML read by the caller
        self.sections[level] = _section_kind(text)
        label = parse_label(text)
        short = _HEADING_YY_RE.match(text)
        if label:
            self.levels[level] = (label[0], label[1])
        elif short and short.group(1).casefold() in self.known:
            self.levels[level] = (short.group(1), year_of(short.group(2)))  # '## OSDI 25'
        elif YEAR_RE.match(text):
            self.levels[level] = (None, int(text))
        elif text.casefold() in self.known:
            self.levels[level] = (text, None)
        elif tag := _known_tag(text, self.known):  # '推荐系统顶会论文总结——AAAI 2021'
            self.levels[level] = tag
        elif lead := re.match(r"((?:19|20)\d{2})(?!\d)", text):  # '2020 阿里巴巴'
            self.levels[level] = (None, int(lead.group(1)))

    @property
    def section(self) -> str | None:
        """The heading of the not-papers section a line is in ('Datasets'), if any."""
        return (
            next((s for _, s in sorted(self.sections.items(), reverse=True) if s is not None), None)
            or None
        )

    @property
    def software(self) -> bool:
        """The not-papers section names software alone ('### GNN Libraries', '## Tools')."""
        words = set(re.findall(r"[^\W\d_]+", (self.section or "").casefold()))
        return bool(words & _NOT_PAPER_SECTION) and words & _NOT_PAPER_SECTION <= _SOFTWARE

    @property
    def venue(self) -> str | None:
        return next((v for _, (v, _y) in sorted(self.levels.items(), reverse=True) if v), None)

    @property
    def year(self) -> int | None:
        return next((y for _, (_v, y) in sorted(self.levels.items(), reverse=True) if y), None)


def with_ids(entry: Entry, text: str) -> Entry:
    """The entry with the arXiv id and DOI its line's links name (model.link_ids)."""
    for link in links_in(text):
        arxiv, raw_doi = link_ids(link)
        if entry.arxiv is None and arxiv:
            entry.arxiv = re.sub(r"v\d+\Z", "", arxiv)
        if raw_doi and entry.doi is None:
            doi, bad = kept_doi(raw_doi, "link's doi")
            entry.notes += [str(bad)] if bad else []
            entry.doi = doi
    return entry


def venue_like(text: str, known: Collection[str]) -> bool:
    """A venue's short name: one the registry knows, or one word with two capitals."""
    return text.casefold() in known or (
        re.fullmatch(r"[A-Za-z][\w&@\-]*", text) is not None and sum(c.isupper() for c in text) >= 2
    )


def names_of(text: str) -> tuple[list[str] | None, bool]:
    """plain_names of an author list that may end in 'et al.', 'etc.' or 'and others'
    (names split by ',' or ';'); and whether it did."""
    text = " ".join(text.replace(";", ",").split()).rstrip(".")  # single spaces: linear
    tail = re.search(r",? ?(?:et\.? ?al|etc|(?:and )?others)$", text)
    if tail:
        return plain_names(text[: tail.start()]), True
    return plain_names(text), False


# '8 Feb 2024', 'March 2024', 'Sept. 2020': a month's name, never a venue's ('Recsys 2023')
DATE_RE = re.compile(
    r"(?:\d{1,2}\s+)?(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}\.?,?\s+)?"
    r"((?:19|20)\d{2})"
)


# A reference in author-date style: 'Berg, R. V. D., Kipf, T. N., & Welling, M. (2017).
# Title. Venue.' The year in parentheses after the names ends the author list.
_CITED_YEAR_RE = re.compile(r"\s\(((?:19|20)\d{2})[a-z]?(?:,[^()]{0,20})?\)[.,]?\s+")
_INITIALS_RE = re.compile(r"^(?:[A-Z]\.?(?:\s?-\s?[A-Z]\.?)?\s?){1,4}\Z")
_SENTENCE_END_RE = re.compile(r"(?<!\b[A-Z])(?<!\bvs)([.?!])\s+(?=\S)")


@dataclass
class Cited:
    """What a reference in author-date style gives: its authors, year and title."""

    authors: list[str]
    et_al: bool
    year: int | None  # None: a quoted title with no year after it
    title: str


def cited(text: str) -> Cited | None:
    """The fields of a reference in author-date style ('Family, I., & Family, I. (YEAR).
    Title. Venue.') or with its title in quotes ('Family, Given, et al. "Title." Venue
    (YEAR).'), when its names are all plainly names; else None."""
    m = _CITED_YEAR_RE.search(text[:2000])
    if m is None:
        return _quoted(text[:2000])
    names, et_al = family_initials(text[: m.start()])
    if not names:
        return _quoted(text[:2000])
    rest = text[m.end() :]
    end = _SENTENCE_END_RE.search(rest)
    title = rest[: end.start() + (end.group(1) != ".")] if end else rest
    title = clean_title(title)
    return Cited(names, et_al, int(m.group(1)), title) if looks_like_title(title) else None


def family_initials(block: str) -> tuple[list[str], bool]:
    """'Berg, R. V. D., Kipf, T. N., ... & Welling, M.': the names as 'R. V. D. Berg'."""
    et_al = "..." in block or "…" in block
    block = block.replace("...", ",").replace("…", ",")
    parts = [p.strip() for p in re.split(r",|&|\band\b", block) if p.strip()]
    if len(parts) < 2 or len(parts) % 2:
        return [], False
    names = []
    for family, given in zip(parts[::2], parts[1::2], strict=True):
        words = family.split()
        lead = words[0] if words else ""
        if not _INITIALS_RE.match(given) or not 1 <= len(words) <= 3:
            return [], False
        if not (lead[:1].isupper() or (lead in _NAME_PARTICLES and len(words) > 1)):
            return [], False
        if not all(_NAME_WORD_RE.match(w) and w.casefold() not in _TITLE_WORDS for w in words):
            return [], False
        names.append(f"{given} {family}")
    return names, et_al


_QUOTED_RE = re.compile(r"[\"“]([^\"“”]{6,300})[\"”]")
_YEAR_IN_RE = re.compile(r"(?<![\d.:/])((?:19|20)\d{2})(?!\d)(?!\.\d)")  # no id's digits


def _quoted(text: str) -> Cited | None:
    """'Reddi, Vijay Janapa, et al. "Title." Venue (2019).': names, a quoted title, a year."""
    m = _QUOTED_RE.search(text)
    if m is None:
        return None
    before = text[: m.start()].strip(" ,.")
    names, et_al = names_of(before)
    if not names and before.count(",") >= 1:  # 'Family, Given, ...': the first inverted
        family, given, *rest = [*before.split(",", 2), ""][:3]
        names, et_al = names_of(f"{given.strip()} {family.strip()}," + ",".join(rest))
    year = _YEAR_IN_RE.search(text, m.end())
    title = clean_title(m.group(1))
    if not names or not looks_like_title(title):
        return None
    return Cited(names, et_al, int(year.group(1)) if year else None, title)
