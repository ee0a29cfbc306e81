"""Paper <-> BibTeX: export entries that LaTeX takes cleanly, and read .bib files back.

Export formats strings itself (escaping needs no library call per field); reading is
bibtexparser's, in catalog.bib.parser, re-exported here as read_bib.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from catalog.bib.latex import (
    NoLatexForm,
    TitleProtector,
    escape,
    escape_field,
    latex_initials,
    to_ascii,
)
from catalog.bib.names import (  # noqa: F401 (re-exported: catalog.bib.bibtex.Name, ...)
    SUFFIXES,
    BibRecord,
    Name,
    _words,
    ends_with_added_period,
    join_name,
    page_range,
    split_name,
)
from catalog.bib.options import ExportOptions
from catalog.data.registry import Venue, is_preprint
from catalog.data.textfile import MAX_TEXT, TextFileError, read_text
from catalog.errors import CatalogError
from catalog.model import CONTROL_CHARS, OTHERS, Paper, strip_controls

if TYPE_CHECKING:
    from collections.abc import Callable


# BibTeX entry type for each venue kind (a registry record may override it with entry_type).
ENTRY_TYPES: dict[str, str] = {
    "conference": "inproceedings",
    "workshop": "inproceedings",
    "journal": "article",
    "preprint": "misc",
    "book": "book",
    "collection": "incollection",
    "thesis": "phdthesis",
    "report": "techreport",
}
# The field that names the venue, for the entry types we write.
CONTAINER_FIELDS: dict[str, str] = {
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "article": "journal",
    "misc": "howpublished",
    "book": "publisher",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
}
ARXIV_ABS = "https://arxiv.org/abs/"


# ------------------------------------------------------------------ names


def _name_word(word: str, encode: Callable[[str], str]) -> str:
    # 'and' inside a name would split it in two, 'others' would end the list, and a
    # comma would start a new part.
    if word.lower() in ("and", "others"):
        return "{" + word + "}"
    latex = latex_initials(encode(word)).replace(",", "{,}")
    # bibtexparser's splitting on 'and' loses a name's leading escape (\%, \textbraceleft);
    # in braces the word means the same to BibTeX and survives.
    return "{" + latex + "}" if latex.startswith("\\") else latex


_DBLP_LIKE_RE = re.compile(r" (\d{4})$")


def format_name(author: str, encode: Callable[[str], str] = escape) -> str:
    """One author as BibTeX 'von Last, Jr, First', each word escaped."""
    name = split_name(author)
    head = " ".join(_name_word(w, encode) for w in _words(name.von_last))
    # A family name ending in four digits reads as DBLP's homonym number ('Wang 0001'),
    # which the reader drops: braced, the digits stay part of the name.
    head = _DBLP_LIKE_RE.sub(r" {\1}", head)
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


def registered(paper: Paper, venues: dict[str, Venue]) -> Venue:
    """The registry record of the paper's venue; ExportError if the registry lacks it."""
    venue = venues.get(paper.venue)
    if venue is None:
        raise ExportError(
            paper,
            f"venue '{paper.venue}' is not in the venue registry (add it to data/venues.yaml)",
        )
    return venue


def entry_type(venue: Venue) -> str:
    """The BibTeX entry type of a venue's papers: the registry's entry_type, else by kind."""
    return str(venue.extra.get("entry_type") or ENTRY_TYPES.get(venue.kind, "misc"))


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


class Writer:
    """Formats BibTeX entries with one set of options, caching what repeats (names,
    venues); catalog.bib.biblatex renames its fields for biblatex."""

    def __init__(self, venues: dict[str, Venue], options: ExportOptions = ExportOptions()):
        self.venues = venues
        self.options = options
        self.ascii = options.ascii
        self.protect_title = TitleProtector(options.protected)
        self.names: dict[str, str] = {}
        self.containers: dict[tuple[str, int], list[tuple[str, str]]] = {}
        self.publishers: dict[str, str] = {}
        self.etypes: dict[str, str] = {}
        self.paper = Paper("", "", [], 0, "")  # the paper being written, for errors

    def text(self, value: str, what: str) -> str:
        out = escape_field(value)
        return self.latin(out, what) if self.ascii else out

    def latin(self, latex: str, what: str) -> str:
        try:
            return to_ascii(latex)
        except NoLatexForm as err:
            raise ExportError(
                self.paper, f"{what}: {err} (export without --ascii to keep it as UTF-8)"
            ) from None

    def name(self, author: str, role: str = "author") -> str:
        cached = self.names.get(author)
        if cached is None:
            cached = format_name(strip_controls(author), escape)
            if self.ascii:
                cached = self.latin(cached, f"{role} '{author}'")
            self.names[author] = cached
        return cached

    def venue_fields(self, venue: Venue, year: int, etype: str) -> list[tuple[str, str]]:
        cache_key = (venue.short, year)
        cached = self.containers.get(cache_key)
        if cached is not None:
            return cached
        fields: list[tuple[str, str]] = []
        container = CONTAINER_FIELDS.get(etype)
        if etype == "book":
            fields.append(("publisher", self.text(venue.name, "venue name")))
        elif container and container != "howpublished":
            name = container_name(venue, self.options.venue_style)
            fields.append((container, self.text(name, "venue name")))
        elif container == "howpublished" and not _is_arxiv(venue):
            fields.append((container, self.text(venue.name, "venue name")))
        series = series_for(venue, year)
        if series:
            fields.append(("series", self.text(series, "series")))
        self.containers[cache_key] = fields
        return fields

    def book_fields(self, paper: Paper, venue: Venue) -> list[tuple[str, str]]:
        """A chapter's book: its title (the paper's, never the venue's name: the generic
        venue 'Chapter' is no book), editors, series and chapter number."""
        if not paper.booktitle:
            raise ExportError(paper, "a book chapter needs its book's title (add booktitle)")
        if not (paper.publisher or venue.publisher):
            raise ExportError(paper, "a book chapter needs its book's publisher (add publisher)")
        fields = [("booktitle", self.text(paper.booktitle, "booktitle"))]
        editors = " and ".join(
            OTHERS if e == OTHERS else self.name(e, "editor") for e in paper.editors if e.strip()
        )
        if editors:
            fields.append(("editor", editors))
        series = series_for(venue, paper.year)
        if series:
            fields.append(("series", self.text(series, "series")))
        if paper.chapter:
            fields.append(("chapter", self.text(paper.chapter, "chapter")))
        return fields

    def etype(self, venue: Venue) -> str:
        """The entry type of a venue's papers (a registry record may give it)."""
        etype = self.etypes.get(venue.short)
        if etype is None:
            etype = self.etypes[venue.short] = entry_type(venue)
        return etype

    def publisher(self, venue: Venue) -> str:
        """A venue's publisher as field text, formatted once per venue."""
        publisher = self.publishers.get(venue.short)
        if publisher is None:
            publisher = self.publishers[venue.short] = self.text(venue.publisher or "", "publisher")
        return publisher

    def authors(self, authors: list[str], et_al: bool) -> str:
        """The author field: names formatted once each, 'and others' for et al."""
        try:  # most names were written before: a look-up each
            text = " and ".join([self.names[a] for a in authors])
        except KeyError:  # a new name, or a blank one (left out, so never in names)
            text = " and ".join([self.name(a) for a in authors if a.strip()])
        if et_al:
            return f"{text} and others" if text else "others"
        return text

    def title(self, title: str) -> str:
        """The title field: controls dropped, capitals protected, escaped."""
        if title.isprintable():  # (else strip_controls would leave it as it is)
            latex = self.protect_title.printable(title)
        else:
            latex = self.protect_title(strip_controls(title))
        if self.ascii:
            latex = self.latin(latex, "title")
        if latex.endswith(".") and ends_with_added_period(title):
            latex = latex[:-1] + "{.}"  # the title's own: a reader keeps it (bibtex_read)
        return latex

    def pages(self, pages: str) -> str:
        """The pages field: each range's dash as '--' ('1226-1235, 1403-1412')."""
        ranges = []
        for part in pages.split(","):
            pair = page_range(part.strip())
            ranges.append(
                self.text(pair[0], "pages") + "--" + self.text(pair[1], "pages")
                if pair
                else self.text(part.strip(), "pages")
            )
        return ", ".join(ranges)

    def entry(self, paper: Paper) -> str:
        """A paper's entry, field by field."""
        etype, fields = self.fields(paper)
        return _assemble(etype, paper.key, fields)

    def fields(self, paper: Paper) -> tuple[str, list[tuple[str, str]]]:
        """A paper's entry type and its fields (name, field text), in order."""
        self.paper = paper
        venue = registered(paper, self.venues)
        etype = self.etype(venue)
        as_journal = (
            is_preprint(venue) and self.options.arxiv_style == "journal" and paper.arxiv is not None
        )
        if as_journal:
            etype = "article"
        fields: list[tuple[str, str]] = [
            ("author", self.authors(paper.authors, paper.et_al)),
            ("title", self.title(paper.title)),
        ]
        if as_journal:
            fields.append(("journal", f"arXiv preprint arXiv:{paper.arxiv}"))
        elif etype == "incollection":
            fields.extend(self.book_fields(paper, venue))
        else:
            fields.extend(self.venue_fields(venue, paper.year, etype))
        if paper.volume:
            fields.append(("volume", self.text(paper.volume, "volume")))
        if paper.number:
            fields.append(("number", self.text(paper.number, "number")))
        if paper.pages:
            fields.append(("pages", self.pages(paper.pages)))
        if paper.articleno:  # ACM's article number and page count
            fields.append(("articleno", self.text(paper.articleno, "articleno")))
        if paper.numpages:
            fields.append(("numpages", self.text(paper.numpages, "numpages")))
        fields.append(("year", str(paper.year)))
        publisher = paper.publisher if etype == "incollection" else None
        if publisher and not as_journal:  # a chapter's own book publisher
            fields.append(("publisher", self.text(publisher, "publisher")))
        elif venue.publisher and etype not in ("misc", "book") and not as_journal:
            fields.append(("publisher", self.publisher(venue)))
        if paper.doi:
            fields.append(("doi", verbatim(paper.doi)))
        if paper.arxiv and not as_journal:
            fields.append(("eprint", verbatim(paper.arxiv)))
            fields.append(("archivePrefix", "arXiv"))
            if paper.arxiv_class:
                fields.append(("primaryClass", verbatim(paper.arxiv_class)))
        url = paper.url or (ARXIV_ABS + paper.arxiv if paper.arxiv and is_preprint(venue) else None)
        if url:
            fields.append(("url", verbatim(url)))
        if self.options.abstracts and paper.abstract:
            fields.append(("abstract", self.text(paper.abstract, "abstract")))
        return etype, fields


@functools.lru_cache(maxsize=256)
def _heads(names: tuple[str, ...]) -> tuple[str, ...]:
    """'  author    = {' for each field, aligned: a few shapes repeat."""
    width = max(map(len, names))
    return tuple(f"  {k:<{width}} = {{" for k in names)


def _assemble(etype: str, key: str, fields: list[tuple[str, str]]) -> str:
    """An entry of its type, key and fields (name, field text), aligned."""
    heads = _heads(tuple([k for k, _ in fields]))
    body = "},\n".join([head + v for head, (_, v) in zip(heads, fields, strict=True)])
    return f"@{etype}{{{key},\n{body}}}\n}}\n"


def _is_arxiv(venue: Venue) -> bool:
    return is_preprint(venue) and venue.short.lower() == "arxiv"


# What a url, doi or eprint may not carry into LaTeX as it is: a backslash or TeX's ^^5c
# notation would start a command (\input{...}), braces would end the field, whitespace
# and control characters are not part of any identifier. Each becomes its percent-encoding,
# which names the same resource; % # & _ ~ stay, as the url package reads them.
_UNSAFE_VERBATIM_RE = re.compile(rf"[\\{{}}^\s{CONTROL_CHARS}]")


def verbatim(value: str) -> str:
    """A url, doi or eprint as written, with what could act in LaTeX percent-encoded."""
    if not _UNSAFE_VERBATIM_RE.search(value):
        return value
    return _UNSAFE_VERBATIM_RE.sub(
        lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8")), value
    )


def entry(paper: Paper, venues: dict[str, Venue], options: ExportOptions = ExportOptions()) -> str:
    """One paper's BibTeX entry."""
    return Writer(venues, options).entry(paper)


def export(
    papers: Iterable[Paper],
    venues: dict[str, Venue],
    options: ExportOptions = ExportOptions(),
    writer: type[Writer] = Writer,
) -> str:
    """The .bib text for papers, entries sorted by key so the file diffs cleanly."""
    ordered = sorted(papers, key=lambda p: p.key)
    return "\n".join(entries(ordered, venues, options, writer))


def entries(
    papers: Iterable[Paper],
    venues: dict[str, Venue],
    options: ExportOptions = ExportOptions(),
    writer: type[Writer] = Writer,
) -> Iterator[str]:
    """The entries of papers in the order given, one at a time (export joins them sorted
    by key; a caller that reads the papers in key order can stream them)."""
    made = writer(venues, options)
    for paper in papers:
        yield made.entry(paper)


def load_protected_terms(path: Path) -> list[str]:
    """Terms whose capitals titles keep, one a line ('#' starts a comment); [] if no file."""
    try:
        text = read_text(path)
    except TextFileError:
        if not path.exists():
            return []
        raise
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
    from catalog.files import read_file

    try:
        text = read_file(aux, MAX_TEXT).decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise CatalogError(f"{aux}: no such file (run pdflatex on the document first)") from None
    except OSError as err:
        raise CatalogError(
            str(err) if err.filename is None else f"{aux}: cannot read it ({err.strerror})"
        ) from None
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


def read_bib(text: str, filename: str, venues: dict[str, Venue]) -> list[BibRecord]:
    """Every entry of a .bib text as a BibRecord; malformed ones carry their problem and line."""
    from catalog.bib import parser

    return parser.read_bib(text, filename, venues)


def read_bib_file(path: Path, venues: dict[str, Venue]) -> list[BibRecord]:
    """read_bib on a file (UTF-8, or as its byte-order mark says); TextFileError names a
    missing file or the line of a byte that is not text."""

    return read_bib(read_text(path), str(path), venues)
