"""The citation lines of a list: the venue and year a reference gives after its title ('In
Proceedings of the ... Conference, pp. 109-120. 2017.', 'IEEE Access 6 (2018): 1-9.',
'arXiv preprint arXiv:2007.05832 (2020).') and an author line with its date ('Chard, R.,
Li, Z. and Foster, I., 2019, May.'); a publisher's page of one article. Pure."""

from __future__ import annotations

import re

from catalog.bib.venuematch import clean_venue
from catalog.ingest.listfields import family_initials

# A year that is no part of an id or a volume ('1911.02549', '11.5')
_YEAR_RE = re.compile(r"(?<![\d.:/])((?:19|20)\d{2})(?!\d)(?!\.\d)")
# What a line that names a venue starts with
_OPENER_RE = re.compile(
    r"^(?:In\s|Proceedings\b|Proc\.|Journal\b|Transactions\b|IEEE\s|ACM\s|USENIX\s|arXiv\b|CoRR\b)",
    re.IGNORECASE,
)
# A venue's acronym in parentheses, a year maybe after it: '(IPDPS)', '(HotCloud 19)'
_ACRONYM_RE = re.compile(
    r"\(\s?(?:(?:USENIX|ACM|IEEE)\s)?([A-Za-z][A-Za-z\-]{1,15})(?:\s?['’]?\d{2}|\s(?:19|20)\d{2})?\s?\)"
)
_ARXIV_ID_RE = re.compile(r"arXiv:\s?(\d{4}\.\d{4,5})", re.IGNORECASE)
# Where a venue's name ends: its pages, its year in parentheses, a sentence's end
_NAME_END_RE = re.compile(r",\s?pp\b|\(pp\b|\(\s?(?:19|20)\d{2}|\.\s|:\s")
_MONTHS = frozenset(
    {
        *("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov"),
        *("dec", "january", "february", "march", "april", "june", "july", "august"),
        *("september", "october", "november", "december"),
    }
)


def venue_of(text: str, opener: bool = True) -> tuple[str, int | None, str | None] | None:
    """(venue, year, arXiv id) of the part of a reference that names its venue; with
    opener, only of a line that starts as one does ('In ...', 'Proceedings of ...')."""
    # '{USENIX}{ATC}': a .bib's braces copied into the line
    text = " ".join(text.replace("}{", " ").replace("{", "").replace("}", "").split())
    text = text.strip(" .*_-")
    if not text or (opener and not _OPENER_RE.match(text)):
        return None
    years = _YEAR_RE.findall(text)
    year = int(years[-1]) if years else None
    if text[:5].casefold() == "arxiv" or text[:4].casefold() == "corr":
        arxiv = _ARXIV_ID_RE.search(text)
        arxiv_id = arxiv.group(1) if arxiv else None
        return "arXiv", year or (2000 + int(arxiv_id[:2]) if arxiv_id else None), arxiv_id
    if opener and year is None:
        return None  # 'IEEE 754 floats are used': a note, no venue line
    capitals = (m.group(1) for m in _ACRONYM_RE.finditer(text))
    acronym = next((a for a in capitals if sum(c.isupper() for c in a) >= 2), None)
    if acronym:
        return acronym, year, None
    name = text.removeprefix("In ").removeprefix("in ")
    end = _NAME_END_RE.search(name)
    name = (name[: end.start()] if end else name).rstrip(" ,;:0123456789.")
    name = clean_venue(name) if name else ""
    words = name.split()
    if not 1 <= len(words) <= 16 or not name[:1].isupper():
        return None
    return name, year, None


def dated_names(text: str) -> tuple[list[str], bool, int | None]:
    """The authors and year of 'Family, I., Family, I. and Family, I., 2019, May.'; no
    names when the line is not plainly that."""
    parts = [p.strip() for p in text.strip(" .*_").split(",")]
    year = None
    if len(parts) > 2 and parts[-1].casefold().rstrip(".") in _MONTHS:
        parts.pop()
    if len(parts) > 2 and re.fullmatch(r"(?:19|20)\d{2}", parts[-1]):
        year = int(parts.pop())
    names, et_al = family_initials(", ".join(parts))
    return names, et_al, year if names else None


# Publishers' pages of one article: the paper's link, whatever the link's text says
_ARTICLE_PAGES = (
    "sciencedirect.com/science/article/",
    "link.springer.com/article/",
    "link.springer.com/chapter/",
    "ieeexplore.ieee.org/document/",
    "ieeexplore.ieee.org/abstract/document/",
    "onlinelibrary.wiley.com/doi/",
    "mdpi.com/",
)


def article_page(url: str) -> bool:
    """A link to a publisher's page of one article (ScienceDirect, Springer, IEEE Xplore)."""
    host_path = re.sub(r"^https?://(?:www\.)?", "", url.lower())
    return host_path.startswith(_ARTICLE_PAGES)
