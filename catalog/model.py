"""The paper record and its field rules. Pure: no I/O."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from dataclasses import asdict, dataclass, field, fields
from typing import Any
from urllib.parse import unquote

REQUIRED: tuple[str, ...] = ("key", "title", "authors")
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
# One page or range, or several joined by commas ('1226-1235, 1403-1412').
_PAGES = r"[A-Za-z]?\d+(?:[-–]{1,2}[A-Za-z]?\d+)?"
PAGES_RE = re.compile(rf"^{_PAGES}(?:,\s?{_PAGES})*\Z")


# ---------------------------------------------------------------- the one table of fields

# What a field holds: free text, an http(s) link, a date (YYYY-MM-DD), a flow list of
# texts, true/false, a whole number.
KINDS = ("text", "url", "date", "list", "bool", "int")


@dataclass(frozen=True)
class FieldSpec:
    """What the table says of one field of a paper (Paper's metadata["spec"])."""

    kind: str  # one of KINDS
    quoted: bool = False  # the file writes it in double quotes, as the hand-written file does
    multiline: bool = False  # may hold a newline or tab (all other texts are one line)
    written: bool = True  # a line of the paper in data/papers.yaml (year, venue, line: its place)

    @property
    def column(self) -> type:
        """Its column's type in the index (lists are JSON text, booleans 0 or 1)."""
        return int if self.kind in ("bool", "int") else str


def _is(kind: str, *, quoted: bool = False, multiline: bool = False, written: bool = True) -> Any:
    """A field's metadata: its FieldSpec."""
    return {"spec": FieldSpec(kind, quoted, multiline, written)}


@dataclass
class Paper:
    """One catalog entry; year and venue come from where it sits in the file.

    The table of a paper's fields: the written ones in the order the file writes them,
    each with its FieldSpec. Everything else (FIELDS, the readers' and writer's field
    kinds, the index's columns and rows, a row back into a Paper, the index's schema
    version) is derived from it: a new field is one line here (and its display).
    """

    key: str = field(metadata=_is("text"))
    title: str = field(metadata=_is("text", quoted=True))
    authors: list[str] = field(metadata=_is("list"))
    year: int = field(metadata=_is("int", written=False))
    venue: str = field(metadata=_is("text", written=False))
    et_al: bool = field(default=False, metadata=_is("bool"))
    # A book chapter's book (see CHAPTER_FIELDS): its title, editors, publisher (when the
    # venue's registry entry does not give it) and the chapter's number in it.
    booktitle: str | None = field(default=None, metadata=_is("text", quoted=True))
    editors: list[str] = field(default_factory=list, metadata=_is("list"))
    publisher: str | None = field(default=None, metadata=_is("text"))
    doi: str | None = field(default=None, metadata=_is("text"))
    arxiv: str | None = field(default=None, metadata=_is("text", quoted=True))
    # The arXiv primary category, e.g. cs.DC.
    arxiv_class: str | None = field(default=None, metadata=_is("text"))
    # The landing page.
    url: str | None = field(default=None, metadata=_is("url"))
    # The authors' official code repository.
    code: str | None = field(default=None, metadata=_is("url"))
    chapter: str | None = field(default=None, metadata=_is("text", quoted=True))
    pages: str | None = field(default=None, metadata=_is("text", quoted=True))
    # ACM's article number, where a paper has no page range.
    articleno: str | None = field(default=None, metadata=_is("text"))
    # The page count.
    numpages: str | None = field(default=None, metadata=_is("text"))
    volume: str | None = field(default=None, metadata=_is("text", quoted=True))
    number: str | None = field(default=None, metadata=_is("text", quoted=True))
    # Public records the metadata came from.
    sources: list[str] = field(default_factory=list, metadata=_is("list"))
    tags: list[str] = field(default_factory=list, metadata=_is("list"))
    # Keys of papers reviewed as different despite alike titles (check and import then
    # stop calling the pair a possible duplicate).
    distinct: list[str] = field(default_factory=list, metadata=_is("list"))
    added: str | None = field(default=None, metadata=_is("date"))
    # When a published version of this preprint was last looked for, and none found.
    checked: str | None = field(default=None, metadata=_is("date"))
    summary: str | None = field(default=None, metadata=_is("text", quoted=True, multiline=True))
    abstract: str | None = field(default=None, metadata=_is("text", quoted=True, multiline=True))
    # The paper's line in its source file (1-based), 0 if unknown.
    line: int = field(default=0, metadata=_is("int", written=False))

    def to_dict(self) -> dict[str, Any]:
        """Every field, for --json output."""
        return asdict(self)

    def to_yaml_dict(self) -> dict[str, Any]:
        """The fields as written under a year and venue: set ones only, in FIELDS order."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            value = getattr(self, name)
            if value not in (None, [], False):
                out[name] = value
        return out

    @property
    def short_title(self) -> str:
        """The system name before a colon ('EVStore'), else the whole title."""
        return system_name(self.title) or self.title


# Every field of the table and what it says of it, in the table's order.
SPECS: dict[str, FieldSpec] = {f.name: f.metadata["spec"] for f in fields(Paper)}
# Fields a paper may carry in data/papers.yaml, in the order they are written.
FIELDS: tuple[str, ...] = tuple(name for name, spec in SPECS.items() if spec.written)


def named(kind: str) -> tuple[str, ...]:
    """The written fields of one kind, in file order."""
    return tuple(name for name in FIELDS if SPECS[name].kind == kind)


# Fields holding a list (written as a flow list: [a, b]).
LIST_FIELDS: tuple[str, ...] = named("list")
# Fields of free text that may hold a tab or newline (all others are one line).
MULTILINE_FIELDS = frozenset(name for name in FIELDS if SPECS[name].multiline)
# Fields the file writes in double quotes.
QUOTED_FIELDS = frozenset(name for name in FIELDS if SPECS[name].quoted)
# Reading state an older catalog wrote on its papers; it lives in data/reading.yaml now
# (papers status --migrate moves it there), and check names each one still written.
RETIRED_FIELDS: tuple[str, ...] = ("status", "read_on")


def is_date(value: str) -> bool:
    """True for an ISO date written YYYY-MM-DD."""
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return len(value) == 10


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
# arXiv's own DOI for a preprint: it names the preprint (the catalog keeps its arXiv id),
# never a published version.
ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def read_doi(value: object) -> str | None:
    """The DOI a value names, as the catalog keeps it: controls and a resolver prefix
    ('https://doi.org/', 'doi:') removed; None when it names none (empty, or not DOI_RE).
    The one rule of what a DOI is: add's --doi, a .bib, a list, a service's reply, update
    and check all ask it."""
    if isinstance(value, str) and DOI_RE.match(value):
        return value  # bare already, as most are: DOI_RE admits no control or space
    doi = _DOI_PREFIX_RE.sub("", strip_controls(str(value or "")).strip())
    return doi if DOI_RE.match(doi) else None


def arxiv_doi(doi: str | None) -> str | None:
    """The arXiv id of arXiv's own DOI ('10.48550/arXiv.2301.02959' -> '2301.02959'), else
    None (a DOI of any other prefix, or of no well-formed arXiv id)."""
    m = ARXIV_DOI_RE.match(doi or "")
    if m is None or not (ARXIV_NEW_RE.match(m.group(1)) or ARXIV_OLD_RE.match(m.group(1))):
        return None
    return m.group(1)


# arXiv's hosts and the paths of its records (abs, pdf, html, format, ps, the old FTP
# folders); publishers' landing pages that carry the DOI in their path (ACM, Wiley, Taylor
# & Francis, SIAM: /doi/[abs|pdf|full|...]/DOI; Springer: /chapter|article/DOI).
_ARXIV_HOSTS = ("arxiv.org", "ar5iv.org", "ar5iv.labs.arxiv.org")
_ARXIV_PATH_RE = re.compile(
    r"^/(?:(?:abs|pdf|html|format|ps)/|ftp/arxiv/papers/\d{4}/)"
    r"((?:\d{4}\.\d{4,5}|[a-z\-]{1,30}(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)"
)
_DOI_HOSTS = ("doi.org", "dx.doi.org")
_DOI_PATH_RE = re.compile(
    r"/(?:doi(?:/(?:abs|pdf|epdf|full|fullHtml|book|proceedings))?|chapter|article)/"
    r"(10\.\d{4,9}/[^?#\s]+)"
)
# A link's host and path (check reads every source of every paper: a regex, not urlsplit).
_LINK_RE = re.compile(r"^[a-z][a-z0-9+.\-]*://(?:[^/?#@]*@)?([^/?#:]*)(?::[^/?#]*)?([^?#]*)", re.I)
# The links in a line of text: a scheme, or arXiv's or doi.org's host written bare.
_LINK_IN_TEXT_RE = re.compile(
    r"(?:https?://|(?<![\w.])(?:www\.)?(?:arxiv\.org|doi\.org)/)[^\s<>\"'\[\]]+", re.I
)


def link_parts(url: str) -> tuple[str, str]:
    """A link's host (lower-case, without www.) and path; ('', '') for no link."""
    m = _LINK_RE.match(url)
    if not m:
        return "", ""
    return m.group(1).lower().removeprefix("www.").rstrip("."), m.group(2)


def link_ids(url: str) -> tuple[str | None, str | None]:
    """The (arXiv id, DOI) a link names, each None where it names none; the DOI as the link
    writes it (read it with read_doi or kept_doi), arXiv's own DOI read as its preprint's
    id. The one rule of which paper a link points at: the .bib and list readers and
    check's source rules all ask it."""
    host, path = link_parts(url if "://" in url[:12] else f"https://{url}")
    path = unquote(path).rstrip(".,;")
    if path.endswith(")") and path.count(")") > path.count("("):
        path = path[:-1]  # the link closed a parenthesis of the text around it
    if host in _ARXIV_HOSTS or host.endswith(".arxiv.org"):
        found = _ARXIV_PATH_RE.match(path)
        return (found.group(1).removesuffix(".pdf") if found else None), None
    doi = None
    if host in _DOI_HOSTS:
        doi = path.lstrip("/")
    elif "/10." in path:
        found = _DOI_PATH_RE.search(path)
        doi = found.group(1) if found else None
    doi = doi.rstrip("/").removesuffix(".pdf") if doi else None
    return arxiv_doi(read_doi(doi)), doi or None


def links_in(text: str) -> list[str]:
    """The links a line of text holds, in order (a list's line, a .bib note)."""
    return [m.group(0) for m in _LINK_IN_TEXT_RE.finditer(text)]


@dataclass(frozen=True)
class Dropped:
    """A value an import door left out of a paper, and why."""

    message: str  # "<label> '<value>' is not a DOI: left out"
    hint: str

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})"


def kept_doi(value: object, label: str = "doi") -> tuple[str | None, Dropped | None]:
    """The DOI a .bib, a list or a web reply gives, as the catalog keeps it (read_doi), or
    None and why it was left out: each door says the same thing of the same bad value."""
    doi = read_doi(value)
    if doi is not None:
        return doi, None
    text = _DOI_PREFIX_RE.sub("", strip_controls(str(value or "")).strip())
    if not text:
        return None, None
    return None, Dropped(f"{label} {text[:60]!r} is not a DOI: left out", DOI_HINT)


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


def system_name(title: str) -> str:
    """The system name a title gives before a colon ('EVStore'), else ''."""
    head, sep, _ = title.partition(":")
    return head.strip() if sep and len(head) <= 40 else ""


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
