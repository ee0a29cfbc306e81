"""Field values of .bib entries: macros and braces evaluated, names, arXiv ids, years and pages."""

from __future__ import annotations

import re

from catalog.bib.names import (
    BibRecord,
    Name,
    join_name,
    page_range,
    split_name,
)
from catalog.model import arxiv_doi, link_ids, links_in, read_doi

MONTHS = {
    m[:3]: m
    for m in (
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    )
}
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
# venue would be ("Website", "... - PyTorch Tutorials 1.11.0+cu102 documentation"), unless
# the text names a venue (venuematch.names_venue: "Journal of Open Source Software").
WEB_TYPES = frozenset({"online", "electronic", "webpage", "www", "software"})
WEB_WORDS_RE = re.compile(
    r"^\s*(?:online|internet|web|software)\s*$|\b(?:web\s*(?:site|page)s?|home\s*page|"
    r"documentation|docs|tutorials?|blog|github|gitlab|wiki)\b|\b\d+\.\d+\.\d+",
    re.IGNORECASE,
)
MONTH_RE = re.compile(
    r"^(?:" + "|".join([*MONTHS.values(), *MONTHS, "sept"]) + r")\.?\Z", re.IGNORECASE
)
# An old-style id's archive ('cond-mat', 'hep-th') is a short word: bounded, a search of
# a long run of letters does not read the run again from each 'arxiv' in it.
ARXIV_ID = r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]{1,20}(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)"
_ARXIV_TEXT_RE = re.compile(
    r"arxiv(?:\s++preprint)?\s*+(?::\s*+)?(?:arxiv\s*+:\s*+)?" + ARXIV_ID, re.IGNORECASE
)
CORR_RE = re.compile(r"^(?:abs/)?" + ARXIV_ID + r"\Z")
ARXIV_VENUE_RE = re.compile(r"^\s*(?:arxiv\b|corr\b)", re.IGNORECASE)
URL_RE = re.compile(r"^\s*<?(?:https?://|www\.)", re.IGNORECASE)
URL_INSIDE_RE = re.compile(r"\b(?:https?|ftp)://|\bwww\.[a-z0-9-]+\.", re.IGNORECASE)
# Series that number the volumes of many venues: never a venue's short name.
PUBLICATION_SERIES = frozenset(
    {
        "PMLR",
        "LNCS",
        "LNAI",
        "LNBIP",
        "CCIS",
        "CEUR",
        "LIPICS",
        "ICPS",
        "AISC",
        "EPTCS",
        "OASICS",
        "JMLR W&CP",
    }
)
_MACRO_RE = re.compile(r"[A-Za-z_][\w\-:.+/']*")
YEAR_RE = re.compile(r"^\d{4}\Z")
# DBLP tells apart people of one name with a number: 'Hao Zhang 0001'. Not part of the name.
DBLP_NUMBER_RE = re.compile(r"(?<!\s)\s+\d{4}(?=\s*+(?:,|$))")
# BibLaTeX's date (what Zotero's BibLaTeX export writes instead of year): 2022, 2022-09-12,
# a range 2021-10/2021-11.
DATE_RE = re.compile(r"^(\d{4})(?:-\d{2}){0,2}(?:/\S*)?\Z")
ENTRY_START_RE = re.compile(
    r"^[ \t]*+@\s*+([A-Za-z]++)\s*+(?:[{(]\s*+)?([^,\s{}()]*)", re.MULTILINE
)
# bibtexparser's name splitter takes the ~ of a \~{n} accent for a tie (a space).
TILDE_ACCENT, TILDE_HOLD = "\\~", "\\papersTildeAccent"


# Organisations that appear in capitals beside a year but are not venues.
def evaluate(raw: str, macros: dict[str, str]) -> tuple[str, str | None]:
    """A raw BibTeX value ({...}, "...", number, macro, joined by #) and an error if malformed."""
    out: list[str] = []
    pos, end = 0, len(raw)
    while True:
        while pos < end and raw[pos].isspace():
            pos += 1
        if pos >= end:
            return "".join(out), ("empty value after '#'" if out else None)
        char = raw[pos]
        if char in '{"':
            close = _closing(raw, pos)
            if close < 0:
                return "".join(out), "unbalanced braces or quotes"
            out.append(raw[pos + 1 : close])
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
                return "".join(out), (
                    f"unknown @string macro '{m.group()}' (enclose text in braces)"
                )
            out.append(macros[name])
            pos = m.end()
        while pos < end and raw[pos].isspace():
            pos += 1
        if pos >= end:
            return "".join(out), None
        if raw[pos] != "#":
            rest = raw[pos : pos + 30].split("\n")[0]
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


def verbatim_value(value: str) -> str:
    """A url/doi/eprint value without LaTeX wrapping: \\url{...}, escapes and outer braces."""
    m = re.search(r"\\(?:url|href)\s*\{([^{}]*)\}", value)
    if m:
        value = m.group(1)
    value = re.sub(r"\\([_%&#$~])", r"\1", value).strip()
    while value.startswith("{") and _closing(value, 0) == len(value) - 1:
        value = value[1:-1].strip()  # {{https://...}}: braces around the whole value
    return value


# TeX's logos: LaTeX conversion drops them ('The {\TeX}book' read as 'The book').
_LOGOS = {
    "TeX": "TeX",
    "LaTeX": "LaTeX",
    "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX",
    "XeTeX": "XeTeX",
    "LuaTeX": "LuaTeX",
    "pdfTeX": "pdfTeX",
    "pdfLaTeX": "pdfLaTeX",
    "eTeX": "e-TeX",
    "ConTeXt": "ConTeXt",
    "METAFONT": "METAFONT",
    "MF": "METAFONT",
    "AmS": "AMS",
    "AMS": "AMS",
    "KOMAScript": "KOMA-Script",
    "noopsort": "",
}
# TeX eats the space after a control word: r"{\LaTeX \rm:}" prints "LaTeX:". The space is
# kept before a word, where the writer meant one ("\LaTeX and").
_LOGO_RE = re.compile(
    r"\\("
    + "|".join(sorted(_LOGOS, key=len, reverse=True))
    + r")(?![A-Za-z])(?:\s*\{\}|\s+(?=[\\:;,.!?)]))?"
)
_NOOPSORT_RE = re.compile(r"\\noopsort\s*\{[^{}]*\}")


def spell_logos(value: str) -> str:
    """TeX logos as words, and '\\noopsort{...}' (a sorting key, not text) dropped."""
    if "\\" not in value:
        return value
    value = _NOOPSORT_RE.sub("", value)
    return _LOGO_RE.sub(lambda m: _LOGOS[m.group(1)], value)


def brace_depth(value: str) -> int:
    """How deep the braces of a value nest (LaTeX conversion recurses once per level)."""
    depth = deepest = 0
    for char in value:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    return deepest


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
            names.append(raw[start : m.start()])
            start = m.end()
    names.append(raw[start:])
    return [n.strip() for n in names if n.strip()]


def arxiv_id(fields: dict[str, str]) -> str | None:
    """The arXiv id an entry gives in eprint, journal, volume (CoRR), url, note or howpublished."""
    eprint = fields.get("eprint", "")
    prefix = fields.get("archiveprefix", fields.get("eprinttype", "arxiv")).lower()
    if eprint and prefix == "arxiv":
        m = re.match(r"^(?:arxiv:)?" + ARXIV_ID + r"\Z", eprint.strip(), re.IGNORECASE)
        if m:
            return m.group(1)
    from_doi = arxiv_doi(read_doi(fields.get("doi")))
    if from_doi:
        return from_doi
    for name in ("journal", "booktitle", "note", "howpublished"):
        m = _ARXIV_TEXT_RE.search(fields.get(name, ""))
        if m:
            return m.group(1)
    if fields.get("journal", "").strip().lower() == "corr":
        m = CORR_RE.match(fields.get("volume", "").strip())
        if m:
            return m.group(1)
    for name in ("url", "howpublished", "note"):
        for link in links_in(fields.get(name, "")):
            linked = link_ids(link)[0]
            if linked:
                return linked
    return None


# Fields read for the catalog, whose unknown LaTeX commands are worth a note.
KEPT_TEXT = frozenset(
    {
        "title",
        "author",
        "journal",
        "journaltitle",
        "booktitle",
        "publisher",
        "school",
        "institution",
        "organization",
        "series",
        "year",
        "volume",
        "number",
        "pages",
        "howpublished",
    }
)
# Fields a crossref gives: the container's, never its DOI, URL or note.
INHERITED = (
    "author",
    "editor",
    "year",
    "date",
    "month",
    "journal",
    "journaltitle",
    "booktitle",
    "publisher",
    "organization",
    "institution",
    "school",
    "series",
    "volume",
    "number",
    "address",
    "edition",
    "howpublished",
)
# Fields that name a venue, and the kind of venue each names: an entry of the wrong type
# still names its venue in one of them.
VENUE_FIELDS = (
    ("journal", "journal"),
    ("journaltitle", "journal"),
    ("booktitle", "conference"),
    ("publisher", "book"),
)
IN_CONTAINER = frozenset({"inproceedings", "conference", "incollection", "inbook"})
NEGATIVE_RE = re.compile(r"^-\d+\Z")
# A title's last word and the period after it; abbreviations keep theirs.
_ONE_YEAR_RE = re.compile(r"(?<!\d)((?:1[5-9]|20)\d{2})(?!\d)")


def one_year(raw: str) -> str | None:
    """The single year a year field holds among other text, its LaTeX groups read apart:
    '2019 (to appear)', '{\\noopsort{1973a}}{\\switchargs{--90}{1968}}'; None if none or two."""
    text = re.sub(r"\\[A-Za-z]+|[{}]", " ", _NOOPSORT_RE.sub("", raw))
    found = set(_ONE_YEAR_RE.findall(text))
    return found.pop() if len(found) == 1 else None


ET_AL_RE = re.compile(r"^[{\s]*(?:others|et\.?[\s~]*al\.?)[}\s.]*\Z", re.IGNORECASE)
YEAR_SUFFIX_RE = re.compile(r"^((?:1[5-9]|20)\d{2})[a-z]\Z")
# ACM's article-number pages: '12:1--12:7' is article 12, pages 1 to 7.
_ARTICLE_PAGES_RE = re.compile(r"^(\w+):(\d+)\s*(?:--|–|-)\s*(?:\1:)?(\d+)\Z")
_NUMBER_RE = re.compile(r"^\d+\Z")


def page_fields(fields: dict[str, str]) -> tuple[str | None, str | None, str | None]:
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
        full = first[: len(first) - len(last)] + last
        if int(full) > int(first):
            return full
    return last


_SUFFIXES = frozenset({"Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV"})


def suffix_first(name: str) -> str:
    """'Frederick A. Matsen IV' as 'Matsen, IV, Frederick A.': BibTeX would take 'IV' for the
    family name; a generation suffix written last is the Jr part. (Words split in code: a
    pattern of blanks and words around each other read a long run of blanks every way.)"""
    words = name.split()
    if len(words) < 3 or words[-1] not in _SUFFIXES or "," in name:
        return name
    parts = split_name(" ".join(words[:-1]))
    return f"{parts.von_last}, {words[-1]}, {parts.first}" if parts.first else name


def primary_class(value: str) -> str | None:
    """The first of 'cs, stat' or 'cs.LG cs.IR': arXiv's primary class is one."""
    first = re.split(r"[,;\s]+", value.strip(), maxsplit=1)[0]
    return first or None


def is_volume(record: BibRecord) -> bool:
    """True for an @proceedings with no authors: the volume DBLP's crossref entries point to."""
    return record.entry_type == "proceedings" and not record.fields.get("author")


def person(first: str, von_last: str, jr: str) -> str:
    """A read name in the catalog's spelling."""
    if not (first or von_last or jr):
        return ""
    return join_name(Name(first=first, last=von_last, jr=jr))
