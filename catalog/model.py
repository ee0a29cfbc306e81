"""The paper record and its field rules. Pure: no I/O."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

# Fields a paper may carry in data/papers.yaml, in the order they are written.
FIELDS: tuple[str, ...] = (
    "key",
    "title",
    "authors",
    "et_al",
    "booktitle",
    "editors",
    "publisher",
    "doi",
    "arxiv",
    "arxiv_class",
    "url",
    "chapter",
    "pages",
    "articleno",
    "numpages",
    "volume",
    "number",
    "sources",
    "tags",
    "distinct",
    "status",
    "read_on",
    "added",
    "summary",
    "abstract",
)
REQUIRED: tuple[str, ...] = ("key", "title", "authors")
# Fields holding a list (written as a flow list: [a, b]).
LIST_FIELDS: tuple[str, ...] = ("authors", "editors", "tags", "sources", "distinct")
# What a book chapter carries about its book. A chapter is a paper filed under a venue of
# kind 'collection' (a handbook with its own registry entry, or the generic 'Chapter'):
# the venue groups chapters as a conference groups papers, while the book's title,
# editors and publisher are facts of the edition the chapter is in, so they sit on the
# paper (a handbook's editions differ in editors and year).
CHAPTER_FIELDS: tuple[str, ...] = ("booktitle", "editors", "publisher", "chapter")
# The last of a chapter's editors when the book names more than the list does: BibTeX's
# own word for it ('A and B and others').
OTHERS = "others"
STATUSES: tuple[str, ...] = ("to-read", "reading", "read")
DEFAULT_STATUS = "to-read"

# Citation keys: what BibTeX and LaTeX take (ASCII letters, digits and '-_:.+/'), a letter
# first, so a library's own keys ('behnelCythonBestBoth2011') are kept; no '..' or '//'.
# Unique without regard to case. The keys papers makes are lower-case: firstauthor+year+word.
KEY_RE = re.compile(r"^(?!.*(?:\.\.|//))[A-Za-z][A-Za-z0-9_:.+/\-]*[A-Za-z0-9]\Z")
# Lengths no real key, tag or title reaches: a longer one came from a broken record (a
# whole abstract as a title), and would make a file name or a chart label no tool takes.
MAX_KEY = 64
MAX_TAG = 40
MAX_TITLE = 500
# New-style arXiv ids (YYMM.NNNNN) and old-style ones (archive/YYMMNNN).
ARXIV_NEW_RE = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}(v\d+)?\Z")
ARXIV_OLD_RE = re.compile(r"^[a-z\-]+(\.[A-Z]{2})?/(\d{2})(\d{2})\d{3}(v\d+)?\Z")
ARXIV_CLASS_RE = re.compile(r"^[a-z\-]+(\.[A-Za-z\-]{2,})?\Z")
# A DOI as Crossref recommends (10.PREFIX/ then - . _ ; ( ) / : letters and digits, which
# covers 99% of registered DOIs) plus the < > of old SICI DOIs. Backslash, braces,
# quotes, % # & and spaces are refused: they would reach LaTeX (\input{...}) through
# the export and HTML through the site.
DOI_RE = re.compile(r"^10\.\d{4,9}/[-._;()/:<>A-Za-z0-9]+\Z")
DOI_HINT = "a DOI is 10.PREFIX/SUFFIX of letters, digits and -._;()/:"  # what DOI_RE takes
# Links: http(s) only, no whitespace, quotes, angle brackets, braces or backslashes.
URL_RE = re.compile(r"^https?://[^\s\"'<>\\{}`^|]+\Z", re.IGNORECASE)
# C0 and C1 controls (ESC, NUL, CSI, ...), DEL, and the bidi overrides/isolates that
# reorder what a terminal or browser shows. Tab and newline are kept in long texts.
# (U+2028 and U+2029 too: YAML 1.1 readers and str.splitlines end a line at them.)
CONTROL_CHARS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
CONTROL_RE = re.compile(f"[{CONTROL_CHARS}]")
CONTROL_OR_NEWLINE_RE = re.compile(f"[{CONTROL_CHARS}\t\n]")
# Fields of free text that may hold a tab or newline (all others are one line).
MULTILINE_FIELDS = frozenset({"summary", "abstract"})
# One page or range, or several joined by commas ('1226-1235, 1403-1412').
_PAGES = r"[A-Za-z]?\d+(?:[-–]{1,2}[A-Za-z]?\d+)?"
PAGES_RE = re.compile(rf"^{_PAGES}(?:,\s?{_PAGES})*\Z")


@dataclass
class Paper:
    """One catalog entry; year and venue come from where it sits in the file."""

    key: str
    title: str
    authors: list[str]
    year: int
    venue: str
    et_al: bool = False
    doi: str | None = None
    arxiv: str | None = None
    arxiv_class: str | None = None  # arXiv primary category, e.g. cs.DC
    url: str | None = None
    pages: str | None = None
    articleno: str | None = None  # ACM's article number, where a paper has no page range
    numpages: str | None = None  # its page count
    volume: str | None = None
    number: str | None = None
    sources: list[str] = field(default_factory=list)  # public records the metadata came from
    tags: list[str] = field(default_factory=list)
    # Keys of papers reviewed as different despite alike titles (check and import then
    # stop calling the pair a possible duplicate).
    distinct: list[str] = field(default_factory=list)
    status: str = DEFAULT_STATUS
    read_on: str | None = None
    added: str | None = None
    summary: str | None = None
    abstract: str | None = None
    # A book chapter's book (see CHAPTER_FIELDS): its title, editors, publisher (when the
    # venue's registry entry does not give it) and the chapter's number in it.
    booktitle: str | None = None
    editors: list[str] = field(default_factory=list)
    publisher: str | None = None
    chapter: str | None = None
    line: int = 0  # line of the paper in its source file (1-based), 0 if unknown

    def to_dict(self) -> dict[str, Any]:
        """Every field, for --json output."""
        return asdict(self)

    def to_yaml_dict(self) -> dict[str, Any]:
        """The fields as written under a year and venue: set ones only, in FIELDS order."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            value = getattr(self, name)
            if value in (None, [], False) or (name == "status" and value == DEFAULT_STATUS):
                continue
            out[name] = value
        return out

    @property
    def short_title(self) -> str:
        """The system name before a colon ('EVStore'), else the whole title."""
        head, sep, _ = self.title.partition(":")
        return head.strip() if sep and len(head) <= 40 else self.title


def book_credit(paper: Paper, publisher: str | None = None) -> str:
    """A chapter's book in one line, 'Handbook, eds. A, B, Springer' (publisher: the venue's,
    when the paper gives none); '' for a paper that names no book."""
    if not paper.booktitle:
        return ""
    parts = [paper.booktitle]
    if paper.editors:
        names = ["et al." if e == OTHERS else e for e in paper.editors]
        parts.append(("eds. " if len(names) > 1 else "ed. ") + ", ".join(names))
    if paper.publisher or publisher:
        parts.append(paper.publisher or publisher or "")
    return ", ".join(parts)


def strip_controls(text: str, multiline: bool = False) -> str:
    """Text without control characters: a newline or tab becomes a space unless multiline."""
    if multiline:
        return CONTROL_RE.sub("", text)
    return CONTROL_OR_NEWLINE_RE.sub(lambda m: " " if m.group() in "\t\n" else "", text)


def has_controls(text: str, multiline: bool = False) -> bool:
    """True if the text holds a character strip_controls would remove or change."""
    return bool((CONTROL_RE if multiline else CONTROL_OR_NEWLINE_RE).search(text))


def is_http_url(url: str) -> bool:
    """True for an absolute http(s) URL that is safe to write as a link or in BibTeX."""
    return bool(URL_RE.match(url))


# ---------------------------------------------------------------- what an import door keeps

# A DOI's resolver prefix: 'https://doi.org/10.1145/x' and 'doi:10.1145/x' are 10.1145/x.
_DOI_PREFIX_RE = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


@dataclass(frozen=True)
class Dropped:
    """A value an import door left out of a paper, and why."""

    message: str  # "<label> '<value>' is not a DOI: left out"
    hint: str

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})"


def kept_doi(value: object, label: str = "doi") -> tuple[str | None, Dropped | None]:
    """The DOI a .bib, a list or a web reply gives, as the catalog keeps it (controls and a
    resolver prefix removed), or None and why it was left out. Every door uses this one
    rule, so each says the same thing of the same bad value."""
    text = strip_controls(str(value or "")).strip()
    if not text:
        return None, None
    doi = _DOI_PREFIX_RE.sub("", text)
    if DOI_RE.match(doi):
        return doi, None
    return None, Dropped(f"{label} {doi[:60]!r} is not a DOI: left out", DOI_HINT)


def kept_url(value: object, label: str = "url") -> tuple[str | None, Dropped | None]:
    """An http(s) link as the catalog keeps it, or None and why it was left out."""
    text = strip_controls(str(value or "")).strip()
    if not text:
        return None, None
    if is_http_url(text):
        return text, None
    return None, Dropped(
        f"{label} {text[:60]!r} is not an http(s) link: left out", "only http(s) links are kept"
    )


def arxiv_year_month(arxiv_id: str) -> tuple[int, int] | None:
    """The (year, month) an arXiv id was submitted, or None if it is not an arXiv id."""
    m = ARXIV_NEW_RE.match(arxiv_id)
    if m:
        return 2000 + int(m.group(1)), int(m.group(2))
    m = ARXIV_OLD_RE.match(arxiv_id)
    if m:
        yy = int(m.group(2))
        return (1900 + yy if yy >= 91 else 2000 + yy), int(m.group(3))
    return None


# Letters that Unicode does not decompose into a base letter plus accents.
_UNDECOMPOSABLE = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "SS",
        "æ": "ae",
        "Æ": "AE",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "œ": "oe",
        "Œ": "OE",
        "đ": "d",
        "Đ": "D",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
    }
)


# The same letters, found by one scan (translate looks each character up in a dict).
_UNDECOMPOSABLE_RE = re.compile("[" + "".join(chr(c) for c in _UNDECOMPOSABLE) + "]")


def has_undecomposable(text: str) -> bool:
    """True if the text has a letter (ß, ø, ł, ...) that accent-stripping leaves alone."""
    return not text.isascii() and _UNDECOMPOSABLE_RE.search(text) is not None


def fold(text: str) -> str:
    """Lower-case ASCII fold: 'Preußer Čech' -> 'preusser cech'."""
    if text.isascii():
        return text.lower()
    if _UNDECOMPOSABLE_RE.search(text):
        text = text.translate(_UNDECOMPOSABLE)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def normalize_title(title: str) -> str:
    """A title reduced to folded words, for duplicate detection."""
    return " ".join(re.findall(r"[a-z0-9]+", fold(title)))


def last_name(author: str) -> str:
    """The family name of 'First Last', 'Last, First' or 'First van der Last'."""
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    return parts[-1] if parts else author


def digest(text: str) -> str:
    """A short content hash of a text (the inbox's ids are made from it: they stay)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def content_digest(data: bytes | memoryview) -> str:
    """The digest the index keeps of the catalog's bytes and of each year block."""
    return hashlib.sha256(data).hexdigest()
