"""Reading .bib files (bibtexparser v2) into catalog papers, with every problem and its line.

Field values are taken raw from bibtexparser's splitter (no middleware) and
evaluated here, so that @string macros, '#' concatenation and malformed values
(a missing comma) are each understood or reported, never silently mangled.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from catalog.bib.latex import to_text, unknown_macros
from catalog.bib.names import (
    BibRecord,
    Name,
    ends_with_added_period,
    join_name,
    page_range,
    split_name,
)
from catalog.data.registry import CHAPTER_VENUE, Venue, resolve_name, same_venue_name, venue_key
from catalog.errors import Problem
from catalog.ingest.citekeys import suggest_key
from catalog.model import (
    KEY_RE,
    MULTILINE_FIELDS,
    PAGES_RE,
    Paper,
    fold,
    kept_doi,
    kept_url,
    strip_controls,
)

MONTHS = {m[:3]: m for m in ("january", "february", "march", "april", "may", "june", "july",
                             "august", "september", "october", "november", "december")}
# Braces deeper than this are refused: real entries use a few levels, and converting LaTeX
# recurses once per level (300 levels overflowed Python's stack).
MAX_BRACE_DEPTH = 50
# Fields whose value is an identifier or address, not text: only BibTeX escapes are undone.
VERBATIM = frozenset({"url", "doi", "eprint", "archiveprefix", "primaryclass", "isbn", "issn"})
# BibTeX entry type -> the kind of venue it appears in, and the field that names that venue.
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "inproceedings": ("conference", ("booktitle",)),
    "conference": ("conference", ("booktitle",)),
    "proceedings": ("conference", ("title",)),
    "article": ("journal", ("journal", "journaltitle")),
    # A chapter's container is its book: taken only where the book is a registry venue's
    # proceedings (Springer files conference papers as incollection); see _Reader.venue.
    "incollection": ("book", ("booktitle",)),
    "inbook": ("book", ("booktitle",)),
    "book": ("book", ("publisher",)),
    "phdthesis": ("thesis", ("school", "institution")),
    "mastersthesis": ("thesis", ("school", "institution")),
    "thesis": ("thesis", ("school", "institution")),
    "techreport": ("report", ("institution", "publisher")),
    "report": ("report", ("institution", "publisher")),
}
MISC_CONTAINERS = ("journal", "booktitle", "howpublished", "publisher", "organization")
CHAPTERS = frozenset({"inbook", "incollection"})
# Entry types that are never papers, and words that name a web page or software where a
# venue would be ("Website", "... - PyTorch Tutorials 1.11.0+cu102 documentation").
WEB_TYPES = frozenset({"online", "electronic", "webpage", "www", "software"})
_WEB_WORDS_RE = re.compile(
    r"^\s*(?:online|internet|web|software)\s*$|\b(?:web\s*(?:site|page)s?|home\s*page|"
    r"documentation|docs|tutorials?|blog|github|gitlab|wiki)\b|\b\d+\.\d+\.\d+",
    re.IGNORECASE)
# ... unless the text names a journal or proceedings ("Journal of Open Source Software").
_VENUE_WORDS_RE = re.compile(r"\b(?:journal|transactions|proceedings|conference|symposium|"
                             r"workshop|letters|magazine)\b", re.IGNORECASE)
_MONTH_RE = re.compile(r"^(?:" + "|".join([*MONTHS.values(), *MONTHS, "sept"]) + r")\.?$",
                       re.IGNORECASE)
ARXIV_ID = r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)"
_ARXIV_TEXT_RE = re.compile(r"arxiv(?:\s++preprint)?\s*+(?::\s*+)?(?:arxiv\s*+:\s*+)?" + ARXIV_ID,
                            re.IGNORECASE)
_ARXIV_URL_RE = re.compile(r"arxiv\.org/(?:abs|pdf)/" + ARXIV_ID, re.IGNORECASE)
_CORR_RE = re.compile(r"^(?:abs/)?" + ARXIV_ID + "$")
_ARXIV_VENUE_RE = re.compile(r"^\s*(?:arxiv\b|corr\b)", re.IGNORECASE)
_URL_RE = re.compile(r"^\s*<?(?:https?://|www\.)", re.IGNORECASE)
_URL_INSIDE_RE = re.compile(r"\b(?:https?|ftp)://|\bwww\.[a-z0-9-]+\.", re.IGNORECASE)
# Series that number the volumes of many venues: never a venue's short name.
_PUBLICATION_SERIES = frozenset({"PMLR", "LNCS", "LNAI", "LNBIP", "CCIS", "CEUR", "LIPICS",
                                 "ICPS", "AISC", "EPTCS", "OASICS", "JMLR W&CP"})
_MACRO_RE = re.compile(r"[A-Za-z_][\w\-:.+/']*")
_YEAR_RE = re.compile(r"^\d{4}$")
# DBLP tells apart people of one name with a number: 'Hao Zhang 0001'. Not part of the name.
_DBLP_NUMBER_RE = re.compile(r"(?<!\s)\s+\d{4}(?=\s*+(?:,|$))")
# BibLaTeX's date (what Zotero's BibLaTeX export writes instead of year): 2022, 2022-09-12,
# a range 2021-10/2021-11.
_DATE_RE = re.compile(r"^(\d{4})(?:-\d{2}){0,2}(?:/\S*)?$")
_ENTRY_START_RE = re.compile(r"^[ \t]*+@\s*+([A-Za-z]++)\s*+(?:[{(]\s*+)?([^,\s{}()]*)",
                             re.MULTILINE)
# bibtexparser's name splitter takes the ~ of a \~{n} accent for a tie (a space).
_TILDE_ACCENT, _TILDE_HOLD = "\\~", "\\papersTildeAccent"

# Organisations that appear in capitals beside a year but are not venues.
_ORGS = frozenset({"ACM", "IEEE", "USENIX", "SIAM", "SPIE"})
# A word with a capital after its first letter; possessive, so a long capital word is read
# once, not split every way (the patterns below must stay linear: issue 8, item 13).
_ACRONYM = r"([A-Za-z](?=[a-z&]*+[A-Z])[A-Za-z&]*+)"
_ACRONYM_RES = (
    re.compile(r"\(\s*+\{?" + _ACRONYM + r"\}?(?:[\s\-]*+(?:['’]\s*+)?(?:\d{2}|\d{4}))?\s*+\)"),
    re.compile(r"\b" + _ACRONYM + r"\s*['’]\s*\d{2}\b"),
    re.compile(r"\b" + _ACRONYM + r"-?(?:\d{2}|\d{4})\b"),
    re.compile(r"\b" + _ACRONYM + r"\s+(?:19|20)\d{2}\b"),
)
_ORDINAL_WORDS = ("first|second|third|fourth|fifth|sixth|seventh|eighth|ninth")
_NOISE_RES = (
    re.compile(r"^\s*(?:the\s+)?(?:proceedings|proc\.?)\s+(?:of\s+)?(?:the\s+)?", re.I),
    re.compile(r"\([^()]*\)"),                             # "(OSDI 23)", "(ISCA)"
    re.compile(r"^\s*+[A-Z](?=[a-z]*+[A-Z])[A-Za-z]*+-?\d*+\s*+:\s*"),  # "SC20: ", "MICRO-54: "
    re.compile(r"(?:(?<![\s,]),?\s*+)?\b[A-Z](?=[a-z]*+[A-Z])[A-Za-z]*+(?:-|\s*+['’]\s*+)"
               r"\d{2,4}\b"),  # ", IJCAI-17"
    re.compile(r"\b(?:19|20)\d{2}\b"),
    re.compile(r"\b\d+(?:st|nd|rd|th)\b", re.I),
    re.compile(r"\b(?:(?:twenty|thirty|forty|fifty|sixty)-?)?(?:" + _ORDINAL_WORDS + r")\b"
               r"|\b(?:tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth"
               r"|twentieth|thirtieth|fortieth|fiftieth)\b", re.I),
    re.compile(r"\bvol(?:ume|\.)?\s*\d+\b", re.I),
    re.compile(r"^\s*(?:of\s+(?:the\s+)?|the\s+)", re.I),  # "Proc. of the ..." cut at "Proc."
)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence bibtexparser's log lines: we report every problem ourselves, with its line."""
    names = [n for n in logging.Logger.manager.loggerDict
             if n == "bibtexparser" or n.startswith("bibtexparser.")]
    loggers = [logging.getLogger(n) for n in names]
    was = [logger.disabled for logger in loggers]
    for logger in loggers:
        logger.disabled = True  # per logger: a disabled parent does not silence its children
    try:
        yield
    finally:
        for logger, state in zip(loggers, was, strict=True):
            logger.disabled = state


def read_bib(text: str, filename: str, venues: dict[str, Venue]) -> list[BibRecord]:
    """Every entry of a .bib text as a BibRecord; see catalog.bib.bibtex.read_bib."""
    import bibtexparser
    from bibtexparser import model

    with _quiet():
        library = bibtexparser.parse_string(text, parse_stack=[])
    registry = _Registry(venues)
    macros: dict[str, str] = {k: v.capitalize() for k, v in MONTHS.items()}
    reader = _Reader(text, filename, registry, macros)
    records: list[BibRecord] = []
    for block in library.blocks:
        if isinstance(block, model.String):
            value, error = _evaluate(str(block.value), macros)
            if error is None:
                macros[block.key.lower()] = value
            else:
                records.append(reader.failed(block, f"@string {block.key}: {error}"))
        elif isinstance(block, model.DuplicateBlockKeyBlock):
            first = next((r for r in records if r.key == block.key), None)
            at = f" (first at line {first.line})" if first else ""
            records.append(reader.failed(block, f"duplicate key '{block.key}'{at}",
                                         reader.repeat_hint(block, first)))
        elif isinstance(block, model.DuplicateFieldKeyBlock):
            names = ", ".join(sorted(block.duplicate_keys))
            records.append(reader.failed(block, f"field {names} given twice",
                                         "keep one of them"))
        elif isinstance(block, model.ParsingFailedBlock):
            records.append(reader.failed(block, _abort_reason(block, text)))
        elif isinstance(block, model.Entry):
            records.append(reader.entry(block))
        elif isinstance(block, model.ImplicitComment):
            records.extend(reader.stray(block))
    reader.finish()
    reader.propose()
    _refuse_what_import_refuses(records, filename, venues)
    return records


def _refuse_what_import_refuses(records: list[BibRecord], filename: str,
                                venues: dict[str, Venue]) -> None:
    """The catalog's per-paper rules (check_papers, which import applies to every new
    paper) on each read paper: one code path, so bib-check never calls importable what
    import then refuses."""
    from catalog.check.rules import check_papers

    for record in records:
        if record.paper is None:
            continue
        known = dict(venues)
        if record.venue is not None:
            known.setdefault(record.paper.venue, record.venue)
        found = check_papers([record.paper], filename, known, {})
        if found:
            record.problems += [record_problem(record, filename, p.message, p.hint)
                                for p in found]
            record.paper = None


def record_problem(record: BibRecord, filename: str, message: str, hint: str) -> Problem:
    """A blocking problem at an entry's line."""
    return Problem(filename, record.line, record.key, message, hint, True)


def _abort_reason(block: object, text: str) -> str:
    error = getattr(block, "error", None)
    reason = str(getattr(error, "abort_reason", "") or error or "cannot be parsed").strip()
    end = getattr(error, "end_index", None)
    if end is not None:
        reason += f" (gave up at line {text.count(chr(10), 0, end) + 1})"
    return "malformed entry: " + reason.rstrip(".")


def _evaluate(raw: str, macros: dict[str, str]) -> tuple[str, str | None]:
    """A raw BibTeX value ({...}, "...", number, macro, joined by #) and an error if malformed."""
    out: list[str] = []
    pos, end = 0, len(raw)
    while True:
        while pos < end and raw[pos].isspace():
            pos += 1
        if pos >= end:
            return "".join(out), ("empty value after '#'" if out else None)
        char = raw[pos]
        if char in "{\"":
            close = _closing(raw, pos)
            if close < 0:
                return "".join(out), "unbalanced braces or quotes"
            out.append(raw[pos + 1:close])
            pos = close + 1
        elif char.isdigit():
            start = pos
            while pos < end and raw[pos].isdigit():
                pos += 1
            out.append(raw[start:pos])
        else:
            m = _MACRO_RE.match(raw, pos)
            if not m:
                return "".join(out), f"unexpected '{char}'"
            name = m.group().lower()
            if name not in macros:
                return "".join(out), (f"unknown @string macro '{m.group()}' "
                                      "(enclose text in braces)")
            out.append(macros[name])
            pos = m.end()
        while pos < end and raw[pos].isspace():
            pos += 1
        if pos >= end:
            return "".join(out), None
        if raw[pos] != "#":
            rest = raw[pos:pos + 30].split("\n")[0]
            return "".join(out), f"unexpected text after the value: '{rest}' (a missing comma?)"
        pos += 1


def _closing(raw: str, start: int) -> int:
    """Index of the brace or quote closing the one at start, or -1."""
    depth = 0
    quote = raw[start] == '"'
    for i in range(start + (1 if quote else 0), len(raw)):
        char = raw[i]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0 and not quote:
                return i
            if depth < 0:
                return -1
        elif char == '"' and quote and depth == 0:
            return i
    return -1


def _verbatim(value: str) -> str:
    """A url/doi/eprint value without LaTeX wrapping: \\url{...}, escapes and outer braces."""
    m = re.search(r"\\(?:url|href)\s*\{([^{}]*)\}", value)
    if m:
        value = m.group(1)
    value = re.sub(r"\\([_%&#$~])", r"\1", value).strip()
    while value.startswith("{") and _closing(value, 0) == len(value) - 1:
        value = value[1:-1].strip()  # {{https://...}}: braces around the whole value
    return value


# TeX's logos: LaTeX conversion drops them ('The {\TeX}book' read as 'The book').
_LOGOS = {"TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2e", "BibTeX": "BibTeX",
          "XeTeX": "XeTeX", "LuaTeX": "LuaTeX", "pdfTeX": "pdfTeX", "pdfLaTeX": "pdfLaTeX",
          "eTeX": "e-TeX", "ConTeXt": "ConTeXt", "METAFONT": "METAFONT", "MF": "METAFONT",
          "AmS": "AMS", "AMS": "AMS", "KOMAScript": "KOMA-Script", "noopsort": ""}
# TeX eats the space after a control word: r"{\LaTeX \rm:}" prints "LaTeX:". The space is
# kept before a word, where the writer meant one ("\LaTeX and").
_LOGO_RE = re.compile(r"\\(" + "|".join(sorted(_LOGOS, key=len, reverse=True))
                      + r")(?![A-Za-z])(?:\s*\{\}|\s+(?=[\\:;,.!?)]))?")
_NOOPSORT_RE = re.compile(r"\\noopsort\s*\{[^{}]*\}")


def _spell_logos(value: str) -> str:
    """TeX logos as words, and '\\noopsort{...}' (a sorting key, not text) dropped."""
    if "\\" not in value:
        return value
    value = _NOOPSORT_RE.sub("", value)
    return _LOGO_RE.sub(lambda m: _LOGOS[m.group(1)], value)


def _brace_depth(value: str) -> int:
    """How deep the braces of a value nest (LaTeX conversion recurses once per level)."""
    depth = deepest = 0
    for char in value:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    return deepest


@dataclass
class _Registry:
    """The venue registry indexed for reading: by acronym, by name, by long name inside text."""

    venues: dict[str, Venue]
    acronyms: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    long_names: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for short, venue in self.venues.items():
            self.acronyms.setdefault(short.lower(), short)
            series = venue.extra.get("series")
            if series:
                acronym = _series_acronym(str(series).split("{")[0])
                if acronym:
                    self.acronyms.setdefault(acronym.lower(), short)
            aliases = [str(a) for a in venue.extra.get("aliases") or []]
            for alias in aliases:
                if _is_acronym(alias):
                    self.acronyms.setdefault(alias.lower(), short)
            texts = [venue.name, *aliases, str(venue.extra.get("booktitle") or ""),
                     str(venue.extra.get("abbrev") or "")]
            if venue.kind in ("conference", "workshop"):
                texts.append(f"Proc. {short}")
            for text in filter(None, texts):
                for norm in {_norm(text), _norm(_clean(text))}:
                    if norm:
                        self.names.setdefault(norm, short)
                        if norm.count(" ") >= 2:
                            self.long_names.append((norm, short))
        self.long_names.sort(key=lambda item: -len(item[0]))

    def chapters(self) -> tuple[Venue, bool]:
        """The generic venue of book chapters (the registry's, or proposed)."""
        venue = self.venues.get(CHAPTER_VENUE)
        if venue is not None and venue.kind == "collection":
            return venue, False
        return Venue(CHAPTER_VENUE, "collection", "Book chapter"), True

    def arxiv(self) -> tuple[Venue, bool]:
        for venue in self.venues.values():
            if venue.kind == "preprint" and "arxiv" in (venue.short.lower(), venue.name.lower()):
                return venue, False
        return Venue("arXiv", "preprint", "arXiv"), True

    def by_series(self, series: str) -> tuple[str | None, Venue | None]:
        acronym = _series_acronym(series)
        if not acronym:
            return None, None
        short = self.acronyms.get(acronym.lower())
        return acronym, self.venues[short] if short else None

    def by_container(self, text: str) -> tuple[list[str], Venue | None]:
        """Acronyms seen in a booktitle or journal, and the registry venue it names, if any."""
        acronyms = _acronyms(text)
        for norm in (_norm(text), _norm(_clean(text))):
            if norm in self.names:
                return acronyms, self.venues[self.names[norm]]
        # The same words in any order and spelling, or an ISO 4 abbreviation of a name
        # ('Adv. Neural Inf. Process. Syst.'): one venue, one registry entry.
        for form in (text, _clean(text)):
            short = resolve_name(form, self.venues, loose=True)
            if short is not None:
                return acronyms, self.venues[short]
        # A workshop held with a conference ("CVPR Workshops") is not the conference.
        workshop = bool(_WORKSHOP_RE.search(text))

        def fits(short: str) -> bool:
            venue = self.venues[short]
            return not workshop or venue.kind == "workshop" or "workshop" in venue.name.lower()

        for acronym in acronyms:
            short = self.acronyms.get(acronym.lower())
            if short and fits(short):
                return acronyms, self.venues[short]
        padded = f" {_norm(_clean(text))} "
        for norm, short in self.long_names:
            if f" {norm} " in padded and fits(short):
                return acronyms, self.venues[short]
        return acronyms, None

    def field_named(self, booktitle: str) -> Venue | None:
        """The registry's 'Conference on X' for a booktitle naming only its field, X
        ('Neural Information Processing Systems'); never for a workshop, journal, ..."""
        name = _clean(booktitle)
        if not name or _KIND_WORD_RE.search(name) or _acronyms(booktitle):
            return None  # 'Machine Learning: ECML-98' is ECML's, not ICML's
        short = resolve_name(f"Conference on {name}", self.venues, loose=True)
        return self.venues[short] if short else None


_KIND_WORD_RE = re.compile(r"\b(?:conference|symposium|workshops?|meeting|congress|forum|"
                           r"colloquium|summit|journal|transactions|letters|magazine|review|"
                           r"proceedings)\b", re.IGNORECASE)


_WORKSHOP_RE = re.compile(r"\bworkshops?\b", re.IGNORECASE)


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", fold(text)))


_SEPARATOR_RE = re.compile(r"((?<!\s)\s*+[,.;]\s*+)")
_YEAR_SEGMENT_RE = re.compile(r"^(?:(?:19|20)\d{2}|proceedings|proc)$", re.IGNORECASE)
_ACRONYM_YEAR_RE = re.compile(
    "^" + _ACRONYM + r"\s*+(?:['’`]\s*+\d{2}|-\s*+\d{2}|-?\s*+(?:19|20)\d{2})$")
_INVERTED_RE = re.compile(r"^(.+?)[,.]\s+([A-Z][^,.;]*\b(?:on|of|for|in))\.?$")


def _clean(text: str, journal: bool = False) -> str:
    """A venue name without proceedings wording, years, editions and acronyms.

    IEEE's "Code Generation and Optimization, 2004. CGO 2004. International Symposium on"
    gives "International Symposium on Code Generation and Optimization": the year and the
    acronym-with-year go with their punctuation, and the trailing "... on" goes first. What
    follows an acronym-with-year otherwise is the place and dates (DBLP's "..., ICML 2011,
    Bellevue, Washington, USA, June 28 - July 2, 2011"): it goes too, as does a place and
    date with no acronym before them ("..., San Diego, California, USA, February 28 -
    March 3, 2000"). A journal keeps 'Proceedings of the' and 'The' ("Proceedings of the
    National Academy of Sciences", "The Computer Journal"): they are its name.
    """
    parts = _drop_place_and_date(_SEPARATOR_RE.split(text))
    kept: list[str] = []
    for i, (segment, separator) in enumerate(zip(parts[::2], [*parts[1::2], ""],
                                                 strict=True)):
        stripped = segment.strip()
        if _YEAR_SEGMENT_RE.match(stripped) and not (journal and not stripped.isdigit()):
            continue
        m = _ACRONYM_YEAR_RE.match(stripped)
        if m and _is_acronym(m.group(1)):
            tail = "".join(parts[2 * i + 2:]).strip(" ,.;")
            if _INVERTED_RE.match(f"x, {tail}"):
                kept.append(tail)
            break
        kept.append(segment + separator)
    text = "".join(kept)
    for pattern in _NOISE_RES[1:-1] if journal else _NOISE_RES:
        text = pattern.sub(" ", text)
    text = _tidy(text)
    m = _INVERTED_RE.match(text)
    if m:
        text = f"{m.group(2)} {m.group(1)}"
    return text


_DATE_SEGMENT_RE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
                              r"(?=[\s\d\-–]|$).*\d|\d.*\b(?:jan|feb|mar|apr|may|jun|jul|aug|"
                              r"sep|oct|nov|dec)[a-z]*\b", re.IGNORECASE)
# Words of a venue's name, never of a place: what stays before a place and date.
_NAME_WORD_RE = re.compile(r"\b(?:conference|symposium|workshop|proceedings|proc|congress|"
                           r"meeting|forum|colloquium|summit|journal|transactions|annual|"
                           r"international|(?-i:[A-Z]{2,})\S*\s*+['’]?\d{2,4})\b", re.IGNORECASE)


def _drop_place_and_date(parts: list[str]) -> list[str]:
    """Name segments (alternating with their separators) up to a place and date: the
    segments after the last one that names the venue, when a date ('June 7-13') follows."""
    segments = parts[::2]
    date = next((i for i, seg in enumerate(segments) if i and _DATE_SEGMENT_RE.search(seg)),
                None)
    if date is None:
        return parts
    keep = max(i for i in range(date) if i == 0 or _NAME_WORD_RE.search(segments[i]))
    return parts[:2 * keep + 1]


def _tidy(text: str) -> str:
    """Spaces and punctuation left right after parts of a name were taken out."""
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    text = re.sub(r"([,.;:])(?:\s*[,;:])+", r"\1", text)  # ", ," left by a removal
    return text.strip(" ,:;-")


def _is_acronym(word: str) -> bool:
    return (" " not in word and sum(c.isupper() for c in word) >= 2
            and word.upper() not in _ORGS)


def _series_acronym(series: str) -> str | None:
    """'RecSys '23' -> 'RecSys': the series name without a trailing two- or four-digit year."""
    text = series.strip()
    digits = len(text) - len(text.rstrip("0123456789"))
    if digits in (2, 4):
        text = text[:-digits]
    acronym = text.rstrip().rstrip("'’`").strip()
    return acronym if _is_acronym(acronym) else None


# After 'ACM SIGPLAN 2008': the venue's own name follows, so SIGPLAN is its organiser.
_ORGANISER_RE = re.compile(r"\s*+(?:(?:International|Annual|ACM|IEEE)\s++)*"
                           r"(?:Conference|Symposium|Workshop)\b", re.IGNORECASE)


def _acronyms(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    for pattern in _ACRONYM_RES:
        for m in pattern.finditer(text):
            if _is_acronym(m.group(1)) and not _ORGANISER_RE.match(text, m.end()):
                found.append((m.start(1), m.group(1)))
    seen: dict[str, None] = {}
    for _, acronym in sorted(found):
        seen.setdefault(acronym, None)
    return list(seen)


_AND_RE = re.compile(r"[{}]|(?<!\s)\s++and\s+", re.IGNORECASE)


def split_names(raw: str) -> list[str]:
    """A BibTeX name list split on 'and' outside braces.

    Ours, not bibtexparser's: that one drops a backslash escape starting a name
    ('A and \\'Eric B' gives 'Eric B').
    """
    names, depth, start = [], 0, 0
    for m in _AND_RE.finditer(raw):
        token = m.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            names.append(raw[start:m.start()])
            start = m.end()
    names.append(raw[start:])
    return [n.strip() for n in names if n.strip()]


def arxiv_id(fields: dict[str, str]) -> str | None:
    """The arXiv id an entry gives in eprint, journal, volume (CoRR), url, note or howpublished."""
    eprint = fields.get("eprint", "")
    prefix = fields.get("archiveprefix", fields.get("eprinttype", "arxiv")).lower()
    if eprint and prefix == "arxiv":
        m = re.match(r"^(?:arxiv:)?" + ARXIV_ID + "$", eprint.strip(), re.IGNORECASE)
        if m:
            return m.group(1)
    doi = fields.get("doi", "")
    m = re.match(r"^10\.48550/arxiv\." + ARXIV_ID + "$", doi, re.IGNORECASE)
    if m:
        return m.group(1)
    for name in ("journal", "booktitle", "note", "howpublished"):
        m = _ARXIV_TEXT_RE.search(fields.get(name, ""))
        if m:
            return m.group(1)
    if fields.get("journal", "").strip().lower() == "corr":
        m = _CORR_RE.match(fields.get("volume", "").strip())
        if m:
            return m.group(1)
    for name in ("url", "howpublished", "note"):
        m = _ARXIV_URL_RE.search(fields.get(name, ""))
        if m:
            return m.group(1)
    return None


class _Reader:
    """Turns bibtexparser blocks into BibRecords for one file."""

    def __init__(self, text: str, filename: str, registry: _Registry, macros: dict[str, str]):
        self.text = text
        self.filename = filename
        self.registry = registry
        self.macros = macros
        self.keys = {m.group(2) for m in _ENTRY_START_RE.finditer(text)}  # keys in use
        self.proposals: list[tuple[BibRecord, Venue, str]] = []  # entries proposing a venue
        # Entries read, with their raw values, whose papers are made once the whole file is
        # read: a crossref'd entry may come after the entries that need its fields.
        self.pending: list[tuple[BibRecord, dict[str, str]]] = []

    def problem(self, line: int, key: str, message: str, hint: str = "",
                blocking: bool = True) -> Problem:
        return Problem(self.filename, line, key, message, hint, blocking)

    def failed(self, block: object, message: str,
               hint: str = "check the braces, quotes and commas of this entry") -> BibRecord:
        raw = getattr(block, "raw", "") or ""
        line = (getattr(block, "start_line", 0) or 0) + 1
        m = _ENTRY_START_RE.search(raw)
        key = getattr(block, "key", None) or (m.group(2) if m else "")
        entry_type = m.group(1).lower() if m else ""
        return BibRecord(key, line, entry_type, {}, None, None, False,
                         [self.problem(line, key, message, hint)])

    def stray(self, block: object) -> list[BibRecord]:
        """Text between entries that starts like an entry: BibTeX would skip it silently."""
        raw = getattr(block, "raw", "") or ""
        start = (getattr(block, "start_line", 0) or 0) + 1
        records = []
        for m in _ENTRY_START_RE.finditer(raw):
            if m.group(1).lower() in ("comment", "string", "preamble"):
                continue
            line = start + raw.count("\n", 0, raw.index("@", m.start()))
            records.append(BibRecord(m.group(2), line, m.group(1).lower(), {}, None, None, False,
                                     [self.problem(line, m.group(2), "text that looks like an "
                                                   "entry could not be read",
                                                   "write it as @type{key, field = {value}}")]))
        return records

    def entry(self, block: object) -> BibRecord:
        key = str(getattr(block, "key", ""))
        etype = str(getattr(block, "entry_type", "")).lower()
        line = (getattr(block, "start_line", 0) or 0) + 1
        record = BibRecord(key, line, etype, {})
        if not key:
            record.problems.append(self.problem(line, "", "entry has no key",
                                                "write @type{key, ...}"))
        raw_fields: dict[str, str] = {}
        ok = bool(key)
        for f in getattr(block, "fields", []):
            name = str(f.key).lower()
            value, error = _evaluate(str(f.value), self.macros)
            if error:
                record.problems.append(self.problem((f.start_line or 0) + 1, key,
                                                    f"field '{f.key}': {error}"))
                ok = False
                continue
            depth = _brace_depth(value)
            if depth > MAX_BRACE_DEPTH:
                record.problems.append(self.problem(
                    (f.start_line or 0) + 1, key,
                    f"field '{f.key}': braces nested {depth} deep (at most "
                    f"{MAX_BRACE_DEPTH} are read)", "remove the extra braces"))
                ok = False
                continue
            # ESC, NUL, bidi overrides: never into the catalog, a note or a terminal.
            value = strip_controls(value, multiline=True)
            raw_fields[name] = value
            verbatim = name in VERBATIM or (name == "howpublished" and "\\url" in value)
            if not verbatim and name in _KEPT_TEXT:
                record.problems += [self.problem(
                    (f.start_line or 0) + 1, key, f"field '{f.key}': unknown LaTeX command "
                    f"\\{macro} dropped, the text of its arguments kept",
                    "check that the field reads right", blocking=False)
                    for macro in unknown_macros(_spell_logos(value))]
            text = _verbatim(value) if verbatim else to_text(_spell_logos(value))
            record.fields[name] = strip_controls(text, multiline=name in MULTILINE_FIELDS)
        if ok:
            self.pending.append((record, raw_fields))
        return record

    def finish(self) -> None:
        """Make the papers of the entries read, crossref'd fields filled in first."""
        self.inherit()
        for record, raw in self.pending:
            record.paper = self.paper(record, raw)

    def inherit(self) -> None:
        """Fields an entry lacks, taken from the entry its crossref names, as BibTeX does.

        Only fields that describe the container (year, journal, booktitle, publisher, volume,
        ...) are taken, never its DOI or URL, which are the container's own. A paper in
        proceedings or a chapter names its container by the parent's title when it gives
        no booktitle (as BibLaTeX reads crossref)."""
        by_key: dict[str, tuple[BibRecord, dict[str, str]]] = {}
        for record, raw in self.pending:
            by_key.setdefault(record.key.casefold(), (record, raw))
        for record, raw in self.pending:
            target = _verbatim(raw.get("crossref", ""))
            if not target:
                continue
            parent = by_key.get(target.casefold())
            if parent is None or parent[0] is record:
                record.problems.append(self.problem(
                    record.line, record.key, f"crossref '{target}' is not in this file: "
                    "the fields it would give (year, venue, ...) are missing",
                    "add that entry to the file, or give the fields here", blocking=False))
                continue
            source, source_raw = parent
            source.crossrefd = True
            for name in _INHERITED:
                if name not in record.fields and name in source.fields:
                    record.fields[name] = source.fields[name]
                    raw[name] = source_raw[name]
            if (record.entry_type in _IN_CONTAINER and "booktitle" not in record.fields
                    and "title" in source.fields):
                record.fields["booktitle"] = source.fields["title"]
                raw["booktitle"] = source_raw["title"]

    def repeat_hint(self, block: object, first: BibRecord | None) -> str:
        """What to do about a key used twice: delete a repeat of the same paper, else rename."""
        entry = getattr(block, "ignore_error_block", None)
        raw = next((str(f.value) for f in getattr(entry, "fields", [])
                    if str(f.key).lower() == "title"), "")
        title, error = _evaluate(raw, self.macros)
        if first is not None and not error and title and \
                _norm(to_text(title)) == _norm(first.fields.get("title", "")):
            return f"it repeats the entry at line {first.line}: delete one of them"
        return "give each entry its own key"

    def paper(self, record: BibRecord, raw: dict[str, str]) -> Paper | None:
        fields, key, line = record.fields, record.key, record.line
        if _is_volume(record):
            record.problems.append(self.problem(
                line, key, "a proceedings volume, not a paper: skipped",
                "its papers are read from their own entries", blocking=False))
            return None
        year = fields.get("year", "")
        if not year and (date := _DATE_RE.match(fields.get("date", "").strip())):
            year = date.group(1)
        missing = [n for n in ("title", "author") if not fields.get(n)] + ([] if year else ["year"])
        authors, et_al = self.authors(record, raw.get("author", ""))
        if fields.get("author") and not authors and not et_al:
            missing.append("author")
        if missing and self.not_a_paper(record):
            return None  # 'not a paper' says more than 'missing year' of a web page
        for name in missing:
            hint = "only editors are given" if name == "author" and fields.get("editor") else ""
            article = "an" if name[0] in "aeiou" else "a"
            record.problems.append(self.problem(line, key, f"missing {name}",
                                                hint or f"add {article} {name} field"))
        if (suffixed := _YEAR_SUFFIX_RE.match(year)) is not None:
            record.problems.append(self.problem(
                line, key, f"year '{year}': read as {suffixed.group(1)} (the letter tells "
                "apart one author's papers of a year)", blocking=False))
            year = suffixed.group(1)
        if year and not _YEAR_RE.match(year) and (found := _one_year(raw.get("year", ""))):
            record.problems.append(self.problem(
                line, key, f"year '{year}': read as {found}, the one year it holds",
                "write the year alone, e.g. year = {2023}", blocking=False))
            year = found
        if year and not _YEAR_RE.match(year):
            record.problems.append(self.problem(line, key, f"year '{year}' is not a year",
                                                "write a four-digit year, e.g. year = {2023}"))
            return None
        if missing or any(p.blocking for p in record.problems):
            return None
        venue = self.venue(record)
        if venue is None:
            return None
        arxiv = arxiv_id(fields)
        doi, bad_doi = kept_doi(fields.get("doi"))
        if doi and doi.lower().startswith("10.48550/arxiv."):
            doi = None  # an arXiv DOI: the catalog keeps the arXiv id instead
        url, bad_url = kept_url(fields.get("url"))
        record.problems += [self.problem(line, key, d.message, d.hint, blocking=False)
                            for d in (bad_doi, bad_url) if d is not None]
        pages, articleno, numpages = _pages(fields)
        if pages and not PAGES_RE.match(pages):
            record.problems.append(self.problem(
                line, key, f"pages '{pages}' are not a page range: left out",
                "write a range like 281--294", blocking=False))
            pages = None
        number = fields.get("number") or None
        if number and _NEGATIVE_RE.match(number):
            record.problems.append(self.problem(  # Mendeley writes -1 for 'none'
                line, key, f"number '{number}' is not an issue number: left out",
                "give the issue number, or no number field", blocking=False))
            number = None
        if number and _MONTH_RE.match(number):
            # bibtex would print it as the issue and warn of a number without a volume.
            record.problems.append(self.problem(
                line, key, f"number '{number}' is a month, not an issue number: left out",
                f"write month = {{{number}}} if that is when it appeared", blocking=False))
            number = None
        volume = fields.get("volume") or None
        if arxiv and volume and _CORR_RE.match(volume):
            volume = None  # DBLP's CoRR volume 'abs/2301.01234': the arXiv id again
        book = self.book(record, raw) if venue.kind == "collection" else {}
        catalog_key = key
        if not KEY_RE.match(key):  # e.g. '280902' or a DOI: the catalog's own kind of key
            catalog_key = suggest_key(authors, int(year), fields["title"], self.keys)
            self.keys.add(catalog_key)
        return Paper(key=catalog_key, title=self.title(record, raw), authors=authors,
                     year=int(year),
                     venue=venue.short, et_al=et_al, doi=doi, arxiv=arxiv,
                     arxiv_class=_primary_class(fields.get("primaryclass", "")) if arxiv else None,
                     articleno=articleno, numpages=numpages,
                     url=url, pages=pages,
                     volume=volume, number=number,
                     abstract=fields.get("abstract") or None, line=line, **book)

    def book(self, record: BibRecord, raw: dict[str, str]) -> dict[str, Any]:
        """A chapter's book fields: title, editors (read as authors are), publisher, chapter."""
        editors, others = self.authors(record, raw.get("editor", ""), "editor")
        if others:
            record.problems.append(self.problem(
                record.line, record.key, "editors end in 'others': the named ones are kept",
                blocking=False))
        fields = record.fields
        return {"booktitle": fields.get("booktitle") or None, "editors": editors,
                "publisher": fields.get("publisher") or None,
                "chapter": fields.get("chapter") or None}

    def not_a_paper(self, record: BibRecord) -> bool:
        """True (with the reason noted) for a web page or software, and for an entry other
        entries crossref as their journal issue, book or proceedings: what they lack is no
        fault of theirs."""
        fields = record.fields
        if arxiv_id(fields) is None and self.web_page(record, _container(record)):
            self.skip_web_page(record)
            return True
        if record.crossrefd and not (fields.get("author") and fields.get("title")):
            record.problems.append(self.problem(
                record.line, record.key, "a journal issue, book or proceedings other entries "
                "crossref, not a paper: skipped", "its papers are read from their own entries",
                blocking=False))
            return True
        return False

    def title(self, record: BibRecord, raw: dict[str, str]) -> str:
        """The title, without the final period some exports add ('... a survey.'), unless
        it is braced ('{.}': a period of the title's own, as papers writes it)."""
        title = record.fields["title"]
        if ends_with_added_period(title) and not raw.get("title", "").rstrip().endswith("{.}"):
            record.problems.append(self.problem(
                record.line, record.key, "title: its final period dropped", blocking=False))
            return title[:-1]
        return title

    def authors(self, record: BibRecord, raw: str,
                role: str = "author") -> tuple[list[str], bool]:
        from bibtexparser.middlewares.names import InvalidNameError, parse_single_name_into_parts

        names = split_names(raw.replace(_TILDE_ACCENT, _TILDE_HOLD))
        # 'and others', 'and {Others}', 'and et al.', 'and {et al.}': more authors, unnamed
        et_al = bool(names) and _ET_AL_RE.match(names[-1]) is not None
        if et_al:
            names = names[:-1]
        authors = []
        for i, name in enumerate(names, 1):
            name = _suffix_first(_DBLP_NUMBER_RE.sub("", name))
            try:
                parts = parse_single_name_into_parts(name)
            except InvalidNameError as err:
                shown = to_text(name.replace(_TILDE_HOLD, _TILDE_ACCENT))
                record.problems.append(self.problem(
                    record.line, record.key, f"{role} {i} '{shown}': {err.args[0]}",
                    "write names as 'Last, First' or 'First Last', joined by 'and'"))
                continue
            von_last, first, jr = (to_text(" ".join(words).replace(_TILDE_HOLD, _TILDE_ACCENT))
                                   for words in (parts.von + parts.last, parts.first, parts.jr))
            plain = _person(first, von_last, jr)
            if plain and not any(ch.isalpha() for ch in plain):
                record.problems.append(self.problem(
                    record.line, record.key, f"{role} {i} '{plain}' names no one: left out",
                    blocking=False))
            elif plain:
                authors.append(plain)
        return authors, et_al

    def venue(self, record: BibRecord) -> Venue | None:
        """The registry venue an entry names, or a proposed one (reported) built from its fields."""
        fields, etype = record.fields, record.entry_type
        kind, _ = KINDS.get(etype, ("preprint", MISC_CONTAINERS))
        container = _container(record)
        if etype in KINDS and etype not in CHAPTERS:
            container, kind = self.misfiled(record, container, kind)
        arxiv_named = bool(container) and bool(_ARXIV_VENUE_RE.match(container))
        # A misc (or unpublished, online) entry with an arXiv id and no journal or
        # booktitle is a preprint, whatever howpublished says.
        preprint = (etype not in KINDS and arxiv_id(fields) is not None
                    and not fields.get("booktitle") and not fields.get("journal"))
        if arxiv_named or preprint:
            arxiv, new = self.registry.arxiv()
            return self.settle(record, arxiv, new, "arXiv")
        acronym, venue = self.registry.by_series(fields.get("series", ""))
        if venue is not None:
            return self.settle(record, venue, False, fields["series"])
        if self.web_page(record, container):
            self.skip_web_page(record)
            return None
        if etype in CHAPTERS:
            return self.chapter(record, container)
        if not container:
            record.problems.append(self.problem(
                record.line, record.key, "cannot tell the venue",
                "give a booktitle, journal, publisher or an arXiv eprint"))
            return None
        acronyms, venue = self.registry.by_container(container)
        if venue is None and kind == "conference":
            venue = self.registry.field_named(container)
        if venue is not None:
            return self.settle(record, venue, False, container)
        if kind == "book" and _same_words(container, fields.get("title", "")):
            record.problems.append(self.problem(
                record.line, record.key, f"publisher '{container}' is the book's title",
                "give the book's real publisher"))
            return None
        # A publication series (PMLR, LNCS) names no venue: the booktitle's acronym does.
        if acronym and acronym.upper() in _PUBLICATION_SERIES:
            acronym = None
        short = acronym or (acronyms[0] if acronyms else "")
        # A journal's own name may start 'Proceedings of the' (PNAS, PACMPL) or 'The'.
        name = _clean(container, journal=_kind_of(container, kind) == "journal")
        if not re.search(r"[a-z]", name):  # nothing but an acronym: "Proceedings of the ADKDD'17"
            name = short or name or container
        short = short or name
        publisher = fields.get("publisher") if kind not in ("book",) else None
        proposed = Venue(short, _kind_of(name, kind), name, publisher or None)
        return self.settle(record, proposed, True, container)

    def misfiled(self, record: BibRecord, container: str, kind: str) -> tuple[str, str]:
        """The venue of an entry of the wrong type, from the field that names it (noted):
        an @inproceedings with a journal and no booktitle, an @article with only a
        publisher (a book), a @book with a journal and pages (an article)."""
        fields, etype = record.fields, record.entry_type
        if container and not (etype == "book" and fields.get("journal") and fields.get("pages")):
            return container, kind
        for name, kind_named in _VENUE_FIELDS:
            value = fields.get(name, "")
            if value and name not in KINDS[etype][1] and not _URL_INSIDE_RE.search(value):
                wanted = {"journal": "@article", "conference": "@inproceedings",
                          "book": "@book"}[kind_named]
                why = (f"gives a {name} and pages" if container
                       else f"gives no {KINDS[etype][1][0]}")
                record.problems.append(self.problem(
                    record.line, record.key, f"@{etype} {why}: its venue read from {name} "
                    f"'{value[:60]}'",
                    f"write it as {wanted} if that is what it is", blocking=False))
                return value, kind_named
        return container, kind

    def skip_web_page(self, record: BibRecord) -> None:
        """Note that a web page or software entry is skipped, not refused."""
        record.problems.append(self.problem(
            record.line, record.key, "not a paper (web page / software): skipped",
            "a link where a paper names its venue; cite it from a .bib of your own",
            blocking=False))

    def web_page(self, record: BibRecord, container: str) -> bool:
        """True for a web page, software or tutorial: a link where a paper names its venue."""
        fields, etype = record.fields, record.entry_type
        if etype in WEB_TYPES:
            return True
        if etype != "misc" or fields.get("doi") or fields.get("booktitle"):
            return False
        linked = any(_URL_RE.match(fields.get(name, "")) or "://" in fields.get(name, "")
                     for name in ("url", "howpublished", "note"))
        if not container:
            return linked
        return bool(_WEB_WORDS_RE.search(container)) and not _VENUE_WORDS_RE.search(container)

    def chapter(self, record: BibRecord, book: str) -> Venue | None:
        """A chapter's venue: the registry venue its book is (a conference's proceedings,
        as Springer files conference papers, or a collection such as a handbook), else
        the generic venue of chapters; the book's own fields go on the paper."""
        if not book:
            record.problems.append(self.problem(
                record.line, record.key, "a book chapter without booktitle",
                "add booktitle = {...}, the title of the book it is in"))
            return None
        _, venue = self.registry.by_container(book)
        if venue is not None and venue.kind in ("conference", "workshop", "journal",
                                                "collection"):
            return self.settle(record, venue, False, book)
        venue, new = self.registry.chapters()
        return self.settle(record, venue, new, book)

    def settle(self, record: BibRecord, venue: Venue, new: bool, source: str) -> Venue:
        record.venue, record.new_venue = venue, new
        if new:
            self.proposals.append((record, venue, source))
        return venue

    def propose(self) -> None:
        """One venue per proposed short name, then a problem for each entry that proposes one.

        Entries of one series name it differently by year ("Proceedings of the ADKDD'17",
        "Proceedings of the Eighth International Workshop on Data Mining for Online
        Advertising"): every entry gets the most descriptive of the names, so no paper is
        filed under another year's name.
        """
        groups: list[list[Venue]] = []
        by_name: dict[str, int] = {}  # a short name or normalised name -> its group
        dotted: list[int] = []  # groups named by an abbreviation
        for _, venue, _ in self.proposals:
            names = {venue.short, venue_key(venue.name)} - {""}
            group = next((by_name[n] for n in names if n in by_name), None)
            if group is None:  # 'ACM Trans. Inf. Syst.' and its full name, in either order
                candidates = range(len(groups)) if "." in venue.name else dotted
                group = next((i for i in candidates
                              if same_venue_name(venue.name, groups[i][0].name)), None)
            if group is None:
                group = len(groups)
                groups.append([])
                if "." in venue.name:
                    dotted.append(group)
            groups[group].append(venue)
            by_name.update(dict.fromkeys(names, group))
        chosen = {id(v): _named(members) for members in groups for v in members}
        for record, proposed, source in self.proposals:
            venue = record.venue = chosen[id(proposed)]
            if record.paper is not None:
                record.paper.venue = venue.short
            named = f" ({venue.name})" if venue.name != venue.short else ""
            hint = (f"add {venue.kind} '{venue.short}'{named} to data/venues.yaml, or this name "
                    "to the aliases of the venue it is")
            if venue.short == CHAPTER_VENUE and venue.kind == "collection":
                hint = (f"add collection '{venue.short}'{named} to data/venues.yaml for chapters "
                        "of any book, or give this book an entry of kind collection")
            record.problems.append(self.problem(
                record.line, record.key, f"unknown venue '{venue.short}' (from '{source}')",
                hint, blocking=False))
        self.proposals.clear()


def _container(record: BibRecord) -> str:
    """The field that names an entry's venue (booktitle, journal, ...): a URL never does
    ("Available online: http://..."), wherever it appears."""
    _, containers = KINDS.get(record.entry_type, ("preprint", MISC_CONTAINERS))
    fields = record.fields
    names = [fields[c] for c in containers if fields.get(c) and not _URL_RE.match(fields[c])
             and not _URL_INSIDE_RE.search(fields[c])]
    return names[0] if names else ""


def _named(proposed: list[Venue]) -> Venue:
    """The venue a group of proposals is: the best name, under the acronym the entries give
    when the best-named one gives none (DBLP's 2008 PLDI names no acronym, its 2018 one
    does)."""
    best = _best(proposed)
    if _is_acronym(best.short):
        return best
    acronyms = Counter(v.short for v in proposed if _is_acronym(v.short))
    return replace(best, short=acronyms.most_common(1)[0][0]) if acronyms else best


def _best(proposed: list[Venue]) -> Venue:
    """A descriptive name first (words, not just the acronym), then the commonest, longest."""
    names = [v.name for v in proposed]
    return max(proposed, key=lambda v: (bool(re.search(r"[a-z]", v.name)), names.count(v.name),
                                        len(v.name)))


_WORKSHOP_RE = re.compile(r"\bworkshops?\b", re.IGNORECASE)
_CONFERENCE_RE = re.compile(r"\b(?:conference|symposium)\b", re.IGNORECASE)


def _kind_of(name: str, kind: str) -> str:
    """The kind a proposed venue's name says it is: a Workshop is a workshop."""
    if kind in ("conference", "journal", "preprint") and _WORKSHOP_RE.search(name):
        return "workshop"
    if kind in ("journal", "preprint") and _CONFERENCE_RE.search(name):
        return "conference"
    return kind


def _same_words(a: str, b: str) -> bool:
    """True if one text's words start the other's (a publisher field holding the title)."""
    x, y = _norm(a), _norm(b)
    return bool(x and y) and (x.startswith(y) or y.startswith(x))


# Fields read for the catalog, whose unknown LaTeX commands are worth a note.
_KEPT_TEXT = frozenset({"title", "author", "journal", "journaltitle", "booktitle", "publisher",
                        "school", "institution", "organization", "series", "year", "volume",
                        "number", "pages", "howpublished"})
# Fields a crossref gives: the container's, never its DOI, URL or note.
_INHERITED = ("author", "editor", "year", "date", "month", "journal", "journaltitle",
              "booktitle", "publisher", "organization", "institution", "school", "series",
              "volume", "number", "address", "edition", "howpublished")
# Fields that name a venue, and the kind of venue each names: an entry of the wrong type
# still names its venue in one of them.
_VENUE_FIELDS = (("journal", "journal"), ("journaltitle", "journal"),
                 ("booktitle", "conference"), ("publisher", "book"))
_IN_CONTAINER = frozenset({"inproceedings", "conference", "incollection", "inbook"})
_NEGATIVE_RE = re.compile(r"^-\d+$")
# A title's last word and the period after it; abbreviations keep theirs.
_ONE_YEAR_RE = re.compile(r"(?<!\d)((?:1[5-9]|20)\d{2})(?!\d)")


def _one_year(raw: str) -> str | None:
    """The single year a year field holds among other text, its LaTeX groups read apart:
    '2019 (to appear)', '{\\noopsort{1973a}}{\\switchargs{--90}{1968}}'; None if none or two."""
    text = re.sub(r"\\[A-Za-z]+|[{}]", " ", _NOOPSORT_RE.sub("", raw))
    found = set(_ONE_YEAR_RE.findall(text))
    return found.pop() if len(found) == 1 else None


_ET_AL_RE = re.compile(r"^[{\s]*(?:others|et\.?[\s~]*al\.?)[}\s.]*$", re.IGNORECASE)
_YEAR_SUFFIX_RE = re.compile(r"^((?:1[5-9]|20)\d{2})[a-z]$")
# ACM's article-number pages: '12:1--12:7' is article 12, pages 1 to 7.
_ARTICLE_PAGES_RE = re.compile(r"^(\w+):(\d+)\s*(?:--|–|-)\s*(?:\1:)?(\d+)$")
_NUMBER_RE = re.compile(r"^\d+$")


def _pages(fields: dict[str, str]) -> tuple[str | None, str | None, str | None]:
    """(pages, article number, page count) of an entry.

    ACM numbers articles instead of pages: '12:1--12:7' (or articleno/eid = 12 with
    numpages = 7) is kept as article 12 of 7 pages. Several ranges ('1226--1235,
    1403--1412') are kept, each written with a hyphen; a last page written short
    ('319--40', as PubMed and Mendeley do) is written in full."""
    text = " ".join(fields.get("pages", "").split())
    articleno = fields.get("articleno") or fields.get("eid") or None
    numpages = fields.get("numpages") or None
    m = _ARTICLE_PAGES_RE.match(text)
    if m:
        first, last = int(m.group(2)), int(m.group(3))
        articleno = articleno or m.group(1)
        numpages = numpages or (str(last - first + 1) if last >= first else None)
        return None, articleno, numpages
    ranges = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        pair = page_range(part)
        ranges.append(f"{pair[0]}-{_last_page(*pair)}" if pair else part)
    pages = ", ".join(ranges) or None
    if numpages and not _NUMBER_RE.match(numpages):
        numpages = None
    return pages, articleno, numpages


def _last_page(first: str, last: str) -> str:
    """The last page in full where it is written short: '319--40' is 319 to 340."""
    if first.isdigit() and last.isdigit() and len(last) < len(first):
        full = first[:len(first) - len(last)] + last
        if int(full) > int(first):
            return full
    return last


_TRAILING_SUFFIX_RE = re.compile(r"^([^,]+?\s+[^,\s]+)\s+(Jr\.?|Sr\.?|II|III|IV)$")


def _suffix_first(name: str) -> str:
    """'Frederick A. Matsen IV' as 'Matsen, IV, Frederick A.': BibTeX would take 'IV' for the
    family name; a generation suffix written last is the Jr part."""
    m = _TRAILING_SUFFIX_RE.match(name.strip())
    if not m:
        return name
    parts = split_name(m.group(1))
    return f"{parts.von_last}, {m.group(2)}, {parts.first}" if parts.first else name


def _primary_class(value: str) -> str | None:
    """The first of 'cs, stat' or 'cs.LG cs.IR': arXiv's primary class is one."""
    first = re.split(r"[,;\s]+", value.strip(), maxsplit=1)[0]
    return first or None


def _is_volume(record: BibRecord) -> bool:
    """True for an @proceedings with no authors: the volume DBLP's crossref entries point to."""
    return record.entry_type == "proceedings" and not record.fields.get("author")


def _person(first: str, von_last: str, jr: str) -> str:
    """A read name in the catalog's spelling."""
    if not (first or von_last or jr):
        return ""
    return join_name(Name(first=first, last=von_last, jr=jr))
