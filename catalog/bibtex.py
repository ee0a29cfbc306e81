"""Paper <-> BibTeX: export entries that LaTeX takes cleanly, and read .bib files back.

Export formats strings itself (escaping needs no library call per field, so
10,000 papers take a fraction of a second); reading is bibtexparser's, in
catalog.bibtex_read, re-exported here as read_bib.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from catalog.errors import CatalogError, Problem, UsageError
from catalog.latex import NoLatexForm, escape, latex_initials, protect_title, to_ascii
from catalog.model import CONTROL_CHARS, Paper, strip_controls
from catalog.venues import Venue

if TYPE_CHECKING:
    from collections.abc import Callable

VENUE_STYLES: tuple[str, ...] = ("full", "short")
ARXIV_STYLES: tuple[str, ...] = ("eprint", "journal")

# BibTeX entry type for each venue kind (a registry record may override it with entry_type).
ENTRY_TYPES: dict[str, str] = {
    "conference": "inproceedings",
    "workshop": "inproceedings",
    "journal": "article",
    "preprint": "misc",
    "book": "book",
    "thesis": "phdthesis",
    "report": "techreport",
}
# The field that names the venue, for the entry types we write.
CONTAINER_FIELDS: dict[str, str] = {
    "inproceedings": "booktitle",
    "article": "journal",
    "misc": "howpublished",
    "book": "publisher",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
}
ARXIV_ABS = "https://arxiv.org/abs/"


# ------------------------------------------------------------------ names

SUFFIXES = frozenset({"Jr.", "Jr", "Sr.", "Sr", "II", "III", "IV"})
_WS_RE = re.compile(r"[ \t\r\n]+")


@dataclass(frozen=True)
class Name:
    """A person's name in BibTeX's four parts (plain text)."""

    first: str = ""
    von: str = ""
    last: str = ""
    jr: str = ""

    @property
    def von_last(self) -> str:
        return f"{self.von} {self.last}" if self.von else self.last


def _words(text: str) -> list[str]:
    text = text.strip(" \t\r\n")
    return _WS_RE.split(text) if text else []


def _is_lower(word: str) -> bool:
    """BibTeX's test for a 'von' word: its first letter is lower-case."""
    for char in word:
        if char.isalpha():
            return char.islower()
    return False


def _split_von_last(words: list[str]) -> tuple[str, str]:
    """The von and Last parts of 'von Last' words: von ends at the last lower-case word."""
    lower = [i for i, w in enumerate(words[:-1]) if _is_lower(w)]
    if not lower:
        return "", " ".join(words)
    split = lower[-1] + 1
    return " ".join(words[:split]), " ".join(words[split:])


def split_name(author: str) -> Name:
    """Split 'First von Last', 'First Last, Jr.', 'von Last, First' or 'von Last, Jr, First'."""
    if "," in author:
        parts = [p.strip(" \t\r\n") for p in author.split(",")]
        if len(parts) == 2 and parts[1] in SUFFIXES and "," not in parts[0]:
            name = split_name(parts[0])
            return Name(first=name.first, von=name.von, last=name.last, jr=parts[1])
        von, last = _split_von_last(_words(parts[0]))
        if len(parts) == 2:
            return Name(first=parts[1], von=von, last=last)
        return Name(first=", ".join(parts[2:]), von=von, last=last, jr=parts[1])
    words = _words(author)
    jr = ""
    if len(words) >= 3 and words[-1] in SUFFIXES:
        jr = words.pop()
    if len(words) <= 1:
        return Name(last=" ".join(words), jr=jr)
    lower = [i for i, w in enumerate(words[:-1]) if _is_lower(w)]
    if not lower:
        return Name(first=" ".join(words[:-1]), last=words[-1], jr=jr)
    start, end = lower[0], lower[-1] + 1
    return Name(first=" ".join(words[:start]), von=" ".join(words[start:end]),
                last=" ".join(words[end:]), jr=jr)


def join_name(name: Name) -> str:
    """The catalog's spelling of a name: 'First von Last [Jr.]' when that splits back the same."""
    words = " ".join(p for p in (name.first, name.von_last) if p)
    candidates = [f"{words} {name.jr}", f"{words}, {name.jr}"] if name.jr else [words]
    for plain in candidates:
        if "," not in words and _same(split_name(plain), name):
            return plain
    if name.jr:
        return f"{name.von_last}, {name.jr}, {name.first}"
    return f"{name.von_last}, {name.first}" if name.first else name.von_last


def _same(a: Name, b: Name) -> bool:
    return a.first == b.first and a.von_last == b.von_last and a.jr == b.jr


def _name_word(word: str, encode: Callable[[str], str]) -> str:
    # 'and' inside a name would split it in two, 'others' would end the list, and a
    # comma would start a new part.
    if word.lower() in ("and", "others"):
        return "{" + word + "}"
    latex = latex_initials(encode(word)).replace(",", "{,}")
    # bibtexparser's splitting on 'and' loses a name's leading escape (\%, \textbraceleft);
    # in braces the word means the same to BibTeX and survives.
    return "{" + latex + "}" if latex.startswith("\\") else latex


def format_name(author: str, encode: Callable[[str], str] = escape) -> str:
    """One author as BibTeX 'von Last, Jr, First', each word escaped."""
    name = split_name(author)
    head = " ".join(_name_word(w, encode) for w in _words(name.von_last))
    first = " ".join(_name_word(w, encode) for w in _words(name.first))
    jr = " ".join(_name_word(w, encode) for w in _words(name.jr))
    if jr:
        return f"{head}, {jr}, {first}" if first else f"{{{head}}}, {jr}, {{}}"
    if first:
        return f"{head}, {first}"
    # A lone 'von Last' without a comma would read as 'First Last': keep it one word.
    return head if " " not in head else "{" + head + "}"


# ------------------------------------------------------------------ export

class ExportError(CatalogError):
    """A paper that cannot be written as BibTeX; names the paper and its line."""

    def __init__(self, paper: Paper, reason: str):
        self.paper, self.reason = paper, reason
        where = f" (line {paper.line})" if paper.line else ""
        super().__init__(f"{paper.key}{where}: {reason}")

    def located(self, filename: str) -> str:
        """The message with the catalog file: 'data/papers.yaml:12: key: reason'."""
        place = f"{filename}:{self.paper.line}" if self.paper.line else filename
        return f"{place}: {self.paper.key}: {self.reason}"


def _check_options(venue_style: str, arxiv_style: str) -> None:
    if venue_style not in VENUE_STYLES:
        raise UsageError(f"unknown venue style '{venue_style}' (use full or short)")
    if arxiv_style not in ARXIV_STYLES:
        raise UsageError(f"unknown arXiv style '{arxiv_style}' (use eprint or journal)")


def series_for(venue: Venue, year: int) -> str | None:
    """The registry's series template for a year: "ASPLOS '{yy}" -> "ASPLOS '23"."""
    template = venue.extra.get("series")
    if not template:
        return None
    return str(template).format(year=year, yy=f"{year % 100:02d}")


def container_name(venue: Venue, style: str = "full") -> str:
    """The booktitle or journal a venue's papers appear in, full or short."""
    if style == "short":
        abbrev = venue.extra.get("abbrev")
        if abbrev:
            return str(abbrev)
        if venue.kind in ("conference", "workshop"):
            return f"Proc. {venue.short}"
    return str(venue.extra.get("booktitle") or venue.name)


_RANGE_RE = re.compile(r"^\s*(\S+?)\s*(?:--|–|—|-)\s*(\S+)\s*$")


def page_range(pages: str) -> tuple[str, str] | None:
    """('281', '294') from '281-294', '281--294' or '281–294'; None for a single page."""
    m = _RANGE_RE.match(pages)
    return (m.group(1), m.group(2)) if m else None


class _Writer:
    """Formats entries with one set of options, caching what repeats (names, venues)."""

    def __init__(self, venues: dict[str, Venue], ascii: bool, venue_style: str,
                 arxiv_style: str, protected: Collection[str]):
        _check_options(venue_style, arxiv_style)
        self.venues = venues
        self.ascii = ascii
        self.venue_style = venue_style
        self.arxiv_style = arxiv_style
        self.protected = tuple(protected)
        self.names: dict[str, str] = {}
        self.containers: dict[tuple[str, int], list[tuple[str, str]]] = {}
        self.paper = Paper("", "", [], 0, "")  # the paper being written, for errors

    def text(self, value: str, what: str) -> str:
        out = escape(strip_controls(value))
        return self.latin(out, what) if self.ascii else out

    def latin(self, latex: str, what: str) -> str:
        try:
            return to_ascii(latex)
        except NoLatexForm as err:
            raise ExportError(self.paper, f"{what}: {err} (export without --ascii to keep "
                                          "it as UTF-8)") from None

    def name(self, author: str) -> str:
        cached = self.names.get(author)
        if cached is None:
            cached = format_name(strip_controls(author), escape)
            if self.ascii:
                cached = self.latin(cached, f"author '{author}'")
            self.names[author] = cached
        return cached

    def venue_fields(self, paper: Paper, venue: Venue, etype: str) -> list[tuple[str, str]]:
        cache_key = (venue.short, paper.year)
        cached = self.containers.get(cache_key)
        if cached is not None:
            return cached
        fields: list[tuple[str, str]] = []
        container = CONTAINER_FIELDS.get(etype)
        if etype == "book":
            fields.append(("publisher", self.text(venue.name, "venue name")))
        elif container and container != "howpublished":
            fields.append((container, self.text(container_name(venue, self.venue_style),
                                                "venue name")))
        elif container == "howpublished" and not _is_arxiv(venue):
            fields.append((container, self.text(venue.name, "venue name")))
        series = series_for(venue, paper.year)
        if series:
            fields.append(("series", self.text(series, "series")))
        self.containers[cache_key] = fields
        return fields

    def entry(self, paper: Paper) -> str:
        self.paper = paper
        venue = self.venues.get(paper.venue)
        if venue is None:
            raise ExportError(paper, f"venue '{paper.venue}' is not in the venue registry "
                                     "(add it to data/venues.yaml)")
        etype = str(venue.extra.get("entry_type") or ENTRY_TYPES.get(venue.kind, "misc"))
        as_journal = (venue.kind == "preprint" and self.arxiv_style == "journal"
                      and paper.arxiv is not None)
        if as_journal:
            etype = "article"
        authors = " and ".join(self.name(a) for a in paper.authors if a.strip())
        if paper.et_al:
            authors = f"{authors} and others" if authors else "others"
        title = protect_title(strip_controls(paper.title), self.protected)
        if self.ascii:
            title = self.latin(title, "title")
        fields: list[tuple[str, str]] = [("author", authors), ("title", title)]
        if as_journal:
            fields.append(("journal", f"arXiv preprint arXiv:{paper.arxiv}"))
        else:
            fields.extend(self.venue_fields(paper, venue, etype))
        for name in ("volume", "number"):
            value = getattr(paper, name)
            if value:
                fields.append((name, self.text(value, name)))
        if paper.pages:
            pair = page_range(paper.pages)
            pages = (self.text(pair[0], "pages") + "--" + self.text(pair[1], "pages") if pair
                     else self.text(paper.pages, "pages"))
            fields.append(("pages", pages))
        fields.append(("year", str(paper.year)))
        if venue.publisher and etype not in ("misc", "book") and not as_journal:
            fields.append(("publisher", self.text(venue.publisher, "publisher")))
        if paper.doi:
            fields.append(("doi", verbatim(paper.doi)))
        if paper.arxiv and not as_journal:
            fields.append(("eprint", verbatim(paper.arxiv)))
            fields.append(("archivePrefix", "arXiv"))
            if paper.arxiv_class:
                fields.append(("primaryClass", verbatim(paper.arxiv_class)))
        url = paper.url or (ARXIV_ABS + paper.arxiv if paper.arxiv and venue.kind == "preprint"
                            else None)
        if url:
            fields.append(("url", verbatim(url)))
        width = max(len(k) for k, _ in fields)
        body = ",\n".join(f"  {k:<{width}} = {{{v}}}" for k, v in fields)
        return f"@{etype}{{{paper.key},\n{body}\n}}\n"


def _is_arxiv(venue: Venue) -> bool:
    return venue.kind == "preprint" and venue.short.lower() == "arxiv"


# What a url, doi or eprint may not carry into LaTeX as it is: a backslash or TeX's ^^5c
# notation would start a command (\input{...}), braces would end the field, whitespace
# and control characters are not part of any identifier. Each becomes its percent-encoding,
# which names the same resource; % # & _ ~ stay, as the url package reads them.
_UNSAFE_VERBATIM_RE = re.compile(rf"[\\{{}}^\s{CONTROL_CHARS}]")


def verbatim(value: str) -> str:
    """A url, doi or eprint as written, with what could act in LaTeX percent-encoded."""
    if not _UNSAFE_VERBATIM_RE.search(value):
        return value
    return _UNSAFE_VERBATIM_RE.sub(lambda m: "".join(f"%{b:02X}" for b in
                                                      m.group().encode("utf-8")), value)


def entry(paper: Paper, venues: dict[str, Venue], *, ascii: bool = False,
          venue_style: str = "full", arxiv_style: str = "eprint",
          protected: Collection[str] = ()) -> str:
    """One paper's BibTeX entry."""
    return _Writer(venues, ascii, venue_style, arxiv_style, protected).entry(paper)


def export(papers: Iterable[Paper], venues: dict[str, Venue], *, ascii: bool = False,
           venue_style: str = "full", arxiv_style: str = "eprint",
           protected: Collection[str] = ()) -> str:
    """The .bib text for papers, entries sorted by key so the file diffs cleanly."""
    writer = _Writer(venues, ascii, venue_style, arxiv_style, protected)
    ordered = sorted(papers, key=lambda p: p.key)
    return "\n".join(writer.entry(p) for p in ordered)


def load_protected_terms(path: Path) -> list[str]:
    """Terms whose capitals titles keep, one a line ('#' starts a comment); [] if no file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    terms = []
    for line in text.splitlines():
        term = line.split("#", 1)[0].strip()
        if term:
            terms.append(term)
    return terms


# ------------------------------------------------------------------ LaTeX .aux files

_AUX_CITE_RE = re.compile(r"\\(?:citation|abx@aux@cite(?:\{[^{}]*\})?)\{([^{}]*)\}")
_AUX_INPUT_RE = re.compile(r"\\@input\{([^{}]*)\}")


def cited_keys(aux: Path) -> list[str]:
    """Keys a LaTeX document cites, in first-cited order, from its .aux (and included .aux)."""
    keys: dict[str, None] = {}
    _read_aux(aux, keys, set())
    return list(keys)


def _read_aux(aux: Path, keys: dict[str, None], seen: set[Path]) -> None:
    seen.add(aux.resolve())
    try:
        text = aux.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise CatalogError(f"{aux}: no such file (run pdflatex on the document first)") from None
    for m in _AUX_CITE_RE.finditer(text):
        for key in m.group(1).split(","):
            if key.strip():
                keys.setdefault(key.strip(), None)
    for m in _AUX_INPUT_RE.finditer(text):
        child = aux.parent / m.group(1)
        if child.exists() and child.resolve() not in seen:
            _read_aux(child, keys, seen)


def select_cited(papers: Iterable[Paper], keys: list[str]) -> tuple[list[Paper], list[str]]:
    """The papers a document cites (all for '*') and the cited keys the catalog lacks."""
    by_key = {p.key: p for p in papers}
    if "*" in keys:
        return list(by_key.values()), []
    found = [by_key[k] for k in keys if k in by_key]
    missing = [k for k in keys if k not in by_key]
    return found, missing


# ------------------------------------------------------------------ reading

@dataclass
class BibRecord:
    """One entry of a .bib file as read: its fields as plain Unicode, and the paper they make."""

    key: str
    line: int
    entry_type: str
    fields: dict[str, str]
    paper: Paper | None = None
    venue: Venue | None = None
    new_venue: bool = False
    problems: list[Problem] = field(default_factory=list)

    @property
    def unreadable(self) -> bool:
        """True for text BibTeX cannot read as an entry (bad braces, duplicate key, ...)."""
        return self.paper is None and not self.fields

    def to_dict(self) -> dict[str, object]:
        """Every field, for --json output."""
        return {
            "key": self.key, "line": self.line, "entry_type": self.entry_type,
            "fields": self.fields,
            "paper": self.paper.to_dict() if self.paper else None,
            "venue": self.venue.to_dict() if self.venue else None,
            "new_venue": self.new_venue,
            "problems": [p.__dict__ for p in self.problems],
        }


def read_bib(text: str, filename: str, venues: dict[str, Venue]) -> list[BibRecord]:
    """Every entry of a .bib text as a BibRecord; malformed ones carry their problem and line."""
    from catalog import bibtex_read

    return bibtex_read.read_bib(text, filename, venues)


def read_bib_file(path: Path, venues: dict[str, Venue]) -> list[BibRecord]:
    """read_bib on a file (UTF-8, or as its byte-order mark says); TextFileError names a
    missing file or the line of a byte that is not text."""
    from catalog.textfile import read_text

    return read_bib(read_text(path), str(path), venues)
