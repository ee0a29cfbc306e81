"""Venue names as .bib files write them, matched to the venue registry or proposed as new."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from catalog.bib.fields import KINDS, MISC_CONTAINERS, URL_INSIDE_RE, URL_RE
from catalog.bib.names import (
    BibRecord,
)
from catalog.data.registry import CHAPTER_VENUE, Venue, is_preprint, resolve_name
from catalog.model import (
    fold,
)

# Organisations that appear in capitals beside a year but are not venues.
_ORGS = frozenset({"ACM", "IEEE", "USENIX", "SIAM", "SPIE"})
# A word with a capital after its first letter; possessive, so a long capital word is read
# once, not split every way (the patterns below must stay linear: issue 8, item 13).
_ACRONYM = r"([A-Za-z](?=[a-z&]*+[A-Z])[A-Za-z&]*+)"
# Where an acronym may start: a letter at a word boundary ('\b'). Each run of letters and
# '&' is tried once, at its start, skipping to its first such letter (after its leading
# '&'s, or after its first '&' where a digit or other word character stands before the
# run): a later letter of the run matches only when the first does, and trying each one
# read 80 KB of 'A&' 40,000 times.
_WORD_START = r"(?:(?<![\w&])&*+|(?<=[^\WA-Za-z])[A-Za-z]*+&++)"
_ACRONYM_RES = (
    re.compile(r"\(\s*+\{?" + _ACRONYM + r"\}?(?:[\s\-]*+(?:['’]\s*+)?(?:\d{2}|\d{4}))?\s*+\)"),
    re.compile(_WORD_START + _ACRONYM + r"\s*['’]\s*\d{2}\b"),
    re.compile(_WORD_START + _ACRONYM + r"-?(?:\d{2}|\d{4})\b"),
    re.compile(_WORD_START + _ACRONYM + r"\s+(?:19|20)\d{2}\b"),
)
_ORDINAL_WORDS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
_NOISE_RES = (
    re.compile(r"^\s*(?:the\s+)?(?:proceedings|proc\.?)\s+(?:of\s+)?(?:the\s+)?", re.I),
    re.compile(r"\([^()]*\)"),  # "(OSDI 23)", "(ISCA)"
    re.compile(r"^\s*+[A-Z](?=[a-z]*+[A-Z])[A-Za-z]*+-?\d*+\s*+:\s*"),  # "SC20: ", "MICRO-54: "
    re.compile(
        r"(?:(?<![\s,]),?\s*+)?\b[A-Z](?=[a-z]*+[A-Z])[A-Za-z]*+(?:-|\s*+['’]\s*+)"
        r"\d{2,4}(?![\w\-/])"
    ),  # ", IJCAI-17", not 'SFI-2002-02-010
    # a year standing alone: never one inside a report number ('SFI-2002-02-010')
    re.compile(r"(?<![\w\-/])(?:19|20)\d{2}(?![\w\-/])"),
    re.compile(r"\b\d+(?:st|nd|rd|th)\b", re.I),
    re.compile(
        r"\b(?:(?:twenty|thirty|forty|fifty|sixty)-?)?(?:" + _ORDINAL_WORDS + r")\b"
        r"|\b(?:tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth"
        r"|twentieth|thirtieth|fortieth|fiftieth)\b",
        re.I,
    ),
    re.compile(r"\bvol(?:ume|\.)?\s*\d+\b", re.I),
    re.compile(r"^\s*(?:of\s+(?:the\s+)?|the\s+)", re.I),  # "Proc. of the ..." cut at "Proc."
)


# The words that say a text names a venue, by the kind of venue each says: the one rule
# for "is this a venue's name" (a blog's "Review" is a venue, "OpenAI" is not) and for
# "which kind" ('ACM SIGOPS Operating Systems Review', 'Ann. Math.' are journals).
VENUE_WORDS = {
    "journal": r"journal|transactions|review|notices|newsletter|newsl\.|letters|magazine|"
    r"bulletin|annals|ann\.|j\.",
    "conference": r"conference|symposium|congress|meeting|forum|colloquium|summit",
    "workshop": r"workshops?",
    "proceedings": r"proceedings|proc\.",
    "preprint": r"arxiv|preprints?|rxiv",
    "report": r"technical\s+reports?|tech\.\s*rep(?:ort|\.)?",
}


def _words_re(*kinds: str) -> re.Pattern[str]:
    """A pattern finding a word of these kinds of venue (all kinds when none given)."""
    words = "|".join(VENUE_WORDS[k] for k in kinds or tuple(VENUE_WORDS))
    return re.compile(r"\b(?:" + words + r")(?!\w)", re.IGNORECASE)


VENUE_NAME_RE = _words_re()
_JOURNAL_RE = _words_re("journal")
_CONFERENCE_RE = _words_re("conference")
_WORKSHOP_RE = _words_re("workshop")
_REPORT_RE = _words_re("report")
_PREPRINT_RE = _words_re("preprint")


def names_venue(text: str) -> bool:
    """True when a text says it is a venue's name: a journal, proceedings, a conference..."""
    return bool(VENUE_NAME_RE.search(text[:300]))  # a venue's name is short


@dataclass
class RegistryIndex:
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
                if is_acronym(alias):
                    self.acronyms.setdefault(alias.lower(), short)
            texts = [
                venue.name,
                *aliases,
                str(venue.extra.get("booktitle") or ""),
                str(venue.extra.get("abbrev") or ""),
            ]
            if venue.kind in ("conference", "workshop"):
                texts.append(f"Proc. {short}")
            for text in filter(None, texts):
                for norm in {norm_venue(text), norm_venue(clean_venue(text))}:
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
            if is_preprint(venue) and "arxiv" in (venue.short.lower(), venue.name.lower()):
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
        for norm in (norm_venue(text), norm_venue(clean_venue(text))):
            if norm in self.names:
                return acronyms, self.venues[self.names[norm]]
        # The same words in any order and spelling, or an ISO 4 abbreviation of a name
        # ('Adv. Neural Inf. Process. Syst.'): one venue, one registry entry.
        for form in (text, clean_venue(text)):
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
        padded = f" {norm_venue(clean_venue(text))} "
        for norm, short in self.long_names:
            if f" {norm} " in padded and fits(short):
                return acronyms, self.venues[short]
        return acronyms, None

    def field_named(self, booktitle: str) -> Venue | None:
        """The registry's 'Conference on X' for a booktitle naming only its field, X
        ('Neural Information Processing Systems'); never for a workshop, journal, ..."""
        name = clean_venue(booktitle)
        if not name or names_venue(name) or _acronyms(booktitle):
            return None  # 'Machine Learning: ECML-98' is ECML's, not ICML's
        short = resolve_name(f"Conference on {name}", self.venues, loose=True)
        return self.venues[short] if short else None

    def host_of(self, workshop: str) -> Venue | None:
        """The registry conference whose workshops a name says it is: the conference's name
        then 'Workshops' ('IEEE/CVF Conference on Computer Vision and Pattern Recognition
        Workshops', 'ICML Workshop'); never for a 'Workshop on X'."""
        words = workshop.rsplit(None, 1)
        if len(words) != 2 or not _WORKSHOP_RE.fullmatch(words[1]):
            return None
        _, venue = self.by_container(words[0])
        return venue if venue is not None and venue.kind == "conference" else None


def norm_venue(text: str) -> str:
    """A venue's name for matching: folded words, '&' (or '&amp;') read as 'and'."""
    text = html.unescape(text) if "&" in text and ";" in text else text
    return " ".join(re.findall(r"[a-z0-9]+", fold(text.replace("&", " and "))))


_SEPARATOR_RE = re.compile(r"((?<!\s)\s*+[,.;]\s*+)")
_YEAR_SEGMENT_RE = re.compile(r"^(?:(?:19|20)\d{2}|proceedings|proc)\Z", re.IGNORECASE)
_ACRONYM_YEAR_RE = re.compile(
    "^" + _ACRONYM + r"\s*+(?:['’`]\s*+\d{2}|-\s*+\d{2}|-?\s*+(?:19|20)\d{2})\Z"
)
_INVERTED_RE = re.compile(r"^(.+?)[,.]\s+([A-Z][^,.;]*\b(?:on|of|for|in))\.?$")


def clean_venue(text: str, journal: bool = False) -> str:
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
    for i, (segment, separator) in enumerate(zip(parts[::2], [*parts[1::2], ""], strict=True)):
        stripped = segment.strip()
        if _YEAR_SEGMENT_RE.match(stripped) and not (journal and not stripped.isdigit()):
            continue
        m = _ACRONYM_YEAR_RE.match(stripped)
        if m and is_acronym(m.group(1)):
            tail = "".join(parts[2 * i + 2 :]).strip(" ,.;")
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


# A date in a segment: a month then a digit, or a digit then a month, on one line
# ('June 28 - July 2', '28 June'). Found by _has_date, not by one pattern with '.*' between
# them, which was tried again from every month and digit of a long segment.
_MONTH = r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_MONTH_BEFORE_RE = re.compile(_MONTH + r"\.?(?=[\s\d\-–]|$)", re.IGNORECASE)
_MONTH_AFTER_RE = re.compile(_MONTH + r"\b", re.IGNORECASE)
_DIGIT_RE = re.compile(r"\d")
# Words of a venue's name, never of a place: what stays before a place and date. (An
# acronym with a year is a word of at most 40 characters, so a long run of capitals and
# dashes is not read again from each capital in it.)
_NAME_WORD_RE = re.compile(
    VENUE_NAME_RE.pattern + r"|\b(?:proc|annual|international|"
    r"(?-i:[A-Z]{2})\S{0,40}?\s*+['’]?\d{2,4})\b",
    re.IGNORECASE,
)


def _has_date(segment: str) -> bool:
    """Whether a line of the segment has a month before a digit or a digit before a month."""
    for line in segment.split("\n"):
        month = _MONTH_BEFORE_RE.search(line)
        if month and _DIGIT_RE.search(line, month.end()):
            return True
        digit = _DIGIT_RE.search(line)
        if digit and any(m.start() > digit.start() for m in _MONTH_AFTER_RE.finditer(line)):
            return True
    return False


def _drop_place_and_date(parts: list[str]) -> list[str]:
    """Name segments (alternating with their separators) up to a place and date: the
    segments after the last one that names the venue, when a date ('June 7-13') follows."""
    segments = parts[::2]
    date = next((i for i, seg in enumerate(segments) if i and _has_date(seg)), None)
    if date is None:
        return parts
    keep = max(i for i in range(date) if i == 0 or _NAME_WORD_RE.search(segments[i]))
    return parts[: 2 * keep + 1]


def _tidy(text: str) -> str:
    """Spaces and punctuation left right after parts of a name were taken out."""
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    text = re.sub(r"([,.;:])(?:\s*[,;:])+", r"\1", text)  # ", ," left by a removal
    return text.strip(" ,:;-")


def is_acronym(word: str) -> bool:
    """True for a word written as an acronym: two capitals or more, no organiser's name."""
    return " " not in word and sum(c.isupper() for c in word) >= 2 and word.upper() not in _ORGS


def _series_acronym(series: str) -> str | None:
    """'RecSys '23' -> 'RecSys': the series name without a trailing two- or four-digit year."""
    text = series.strip()
    digits = len(text) - len(text.rstrip("0123456789"))
    if digits in (2, 4):
        text = text[:-digits]
    acronym = text.rstrip().rstrip("'’`").strip()
    return acronym if is_acronym(acronym) else None


# After 'ACM SIGPLAN 2008': the venue's own name follows, so SIGPLAN is its organiser.
_ORGANISER_RE = re.compile(
    r"\s*+(?:(?:International|Annual|ACM|IEEE)\s++)*"
    r"(?:Conference|Symposium|Workshop)\b",
    re.IGNORECASE,
)


def _acronyms(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    for pattern in _ACRONYM_RES:
        for m in pattern.finditer(text):
            if is_acronym(m.group(1)) and not _ORGANISER_RE.match(text, m.end()):
                found.append((m.start(1), m.group(1)))
    seen: dict[str, None] = {}
    for _, acronym in sorted(found):
        seen.setdefault(acronym, None)
    return list(seen)


def container_of(record: BibRecord) -> str:
    """The field that names an entry's venue (booktitle, journal, ...): a URL never does
    ("Available online: http://..."), wherever it appears."""
    _, containers = KINDS.get(record.entry_type, ("preprint", MISC_CONTAINERS))
    fields = record.fields
    names = [
        fields[c]
        for c in containers
        if fields.get(c) and not URL_RE.match(fields[c]) and not URL_INSIDE_RE.search(fields[c])
    ]
    return html.unescape(names[0]) if names else ""  # 'Knowledge Discovery &amp; Data Mining'


def kind_of(name: str, kind: str) -> str:
    """The kind a proposed venue's name says it is: a Workshop is a workshop, a Review or
    Notices a journal (whatever the entry's type), a Conference a conference."""
    if kind in ("journal", "preprint") and _REPORT_RE.search(name):
        return "report"  # 'Technical Report, Université de Montréal' filed as a journal
    if kind == "report" and _PREPRINT_RE.search(name):
        return "preprint"  # a @techreport whose institution is 'Preprints', a server
    if kind in ("conference", "journal", "preprint") and _WORKSHOP_RE.search(name):
        return "workshop"
    conference = _CONFERENCE_RE.search(name)
    if kind in ("conference", "preprint") and _JOURNAL_RE.search(name) and not conference:
        return "journal"
    if kind in ("journal", "preprint") and conference:
        return "conference"
    return kind


def without_report_words(name: str) -> str:
    """A report's venue without 'Technical Report': the institution that published it."""
    left = _REPORT_RE.sub(" ", name)
    return name if left == name else left.strip(" ,.;:-")


def same_words(a: str, b: str) -> bool:
    """True if one text's words start the other's (a publisher field holding the title)."""
    x, y = norm_venue(a), norm_venue(b)
    return bool(x and y) and (x.startswith(y) or y.startswith(x))


# Fields read for the catalog, whose unknown LaTeX commands are worth a note.


# What stands where a venue would and is none: an organisation ('OpenAI', 'Stanford
# University', 'Google Research'), a newspaper, a blog. A name that says it is a journal
# or proceedings is a venue whatever else it holds ('Journal of the ACM').
_ORGANISATION_RE = re.compile(
    r"\b(?:universit(?:y|ät|é|à|eit)|institut(?:e|o)?|college|school|laborator(?:y|ies)|"
    r"labs?|inc\.?|corp(?:oration|\.)?|ltd\.?|gmbh|company|foundation|"
    r"openai|deepmind|anthropic|google|microsoft|facebook|meta ai|nvidia|amazon|"
    r"hugging ?face|mistral ai)(?!\w)",
    re.IGNORECASE,
)
_NEWS_RE = re.compile(
    r"\b(?:times|post|news|guardian|wired|verge|techcrunch|forbes|bloomberg|reuters|"
    r"economist|atlantic|new yorker|venturebeat|blog|substack)(?!\w)",
    re.IGNORECASE,
)
_WIKI_RE = re.compile(r"\b(?:wikipedia|wiki)\b", re.IGNORECASE)
# Servers of preprints a @misc may name: what such an entry is, when it names no venue.
_PREPRINT_SERVER_RE = re.compile(
    r"\b(?:arxiv|\w*rxiv|ssrn|research square|preprints\.org|hal|openreview|zenodo)\b",
    re.IGNORECASE,
)


def no_venue(container: str, kind: str) -> str | None:
    """Why an entry's venue field names no venue (an organisation, a newspaper, a blog, a
    wiki, or for a @misc anything but a preprint server or a named venue); None when it may."""
    container = container[:300]  # a venue's name is short; 80 KB of one is read no further
    if kind in ("book", "thesis", "report") or names_venue(container):
        return None  # a publisher, school or institution is what these name
    if _ORGANISATION_RE.search(container):
        return f"'{container}' names an organisation, not a venue"
    if _NEWS_RE.search(container):
        return f"'{container}' names a newspaper or blog, not a venue"
    if _WIKI_RE.search(container):
        return f"'{container}' names a wiki, not a venue"
    if kind == "preprint" and not _PREPRINT_SERVER_RE.search(container):
        return f"a @misc entry whose '{container}' names no venue or preprint server"
    return None


_PUBLISHER_RE = re.compile(r"\b(?:press|publish\w*|verlag|books?)\b", re.IGNORECASE)


def is_institution(name: str) -> bool:
    """True for a university, laboratory or company that is no publisher of books: what an
    article naming only it ('publisher = {Cornell University}') is a report of."""
    name = name[:300]
    return bool(_ORGANISATION_RE.search(name)) and not _PUBLISHER_RE.search(name)
