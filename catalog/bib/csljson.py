"""Paper -> CSL-JSON, the item format of citeproc processors (pandoc, Zotero, citeproc-py).

Every value is plain text: control characters dropped, line breaks and tabs made spaces.
CSL-JSON is also what catalog.bib.ris writes RIS from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from catalog.bib.bibtex import ARXIV_ABS, container_name, entry_type, registered, series_for
from catalog.bib.latex import readable
from catalog.bib.names import page_range, split_name
from catalog.bib.options import ExportOptions
from catalog.data.registry import Venue, is_preprint
from catalog.model import OTHERS, Paper, is_http_url, strip_controls

# The CSL item type for each BibTeX entry type the registry gives.
CSL_TYPES = {
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "article": "article-journal",
    "book": "book",
    "incollection": "chapter",
    "inbook": "chapter",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "techreport": "report",
}
_SPACES_RE = re.compile(" {2,}")

Item = dict[str, object]


def plain(text: str) -> str:
    """A field as one line of plain text: LaTeX left in it read as text (latex.readable,
    as the site shows it), no control character, no line break."""
    return _SPACES_RE.sub(" ", strip_controls(readable(text))).strip()


def name(author: str) -> dict[str, str]:
    """One author as CSL's name parts (family, given, particle, suffix)."""
    parts = split_name(plain(author))
    out = {"family": parts.last, "given": parts.first}
    if parts.von:
        out["non-dropping-particle"] = parts.von
    if parts.jr:
        out["suffix"] = parts.jr
    return {k: v for k, v in out.items() if v}


def _names(authors: list[str]) -> list[dict[str, str]]:
    # CSL has no 'and others': the names the catalog has are written, no more.
    names = [name(a) for a in authors if a != OTHERS]
    return [n for n in names if n]


def _pages(pages: str) -> str:
    """Page ranges with a plain hyphen, as CSL processors expect ('281-294')."""
    ranges = []
    for part in pages.split(","):
        pair = page_range(part.strip())
        ranges.append(f"{pair[0]}-{pair[1]}" if pair else part.strip())
    return plain(", ".join(ranges))


def item(paper: Paper, venue: Venue, options: ExportOptions = ExportOptions()) -> Item:
    """One paper as a CSL-JSON item (the registry record of its venue gives type and
    container, as for BibTeX)."""
    etype = entry_type(venue)
    preprint = is_preprint(venue)
    out: Item = {
        "id": plain(paper.key),
        "type": "article" if preprint else CSL_TYPES.get(etype, "document"),
        "title": plain(paper.title),
        "author": _names(paper.authors),
        "issued": {"date-parts": [[paper.year]]},
    }
    if etype in ("incollection", "inbook"):
        if paper.booktitle:
            out["container-title"] = plain(paper.booktitle)
        if paper.editors:
            out["editor"] = _names(paper.editors)
        if paper.chapter:
            out["chapter-number"] = plain(paper.chapter)
    elif etype in ("inproceedings", "conference", "article") and not preprint:
        out["container-title"] = plain(container_name(venue, options.venue_style))
        out["container-title-short"] = plain(venue.short)
    series = series_for(venue, paper.year)
    if series:
        out["collection-title"] = plain(series)
    for field, key in (("volume", "volume"), ("number", "issue"), ("numpages", "number-of-pages")):
        value = getattr(paper, field)
        if value:
            out[key] = plain(value)
    if paper.pages:
        out["page"] = _pages(paper.pages)
    publisher = paper.publisher or venue.publisher
    if preprint or etype in ("book", "phdthesis", "mastersthesis", "techreport"):
        publisher = venue.name  # the server (arXiv), the university, the institution
    if publisher:
        out["publisher"] = plain(publisher)
    if preprint and paper.arxiv:
        out["number"] = plain(f"arXiv:{paper.arxiv}")
    elif paper.articleno:
        out["number"] = plain(paper.articleno)
    if paper.doi:
        out["DOI"] = plain(paper.doi)
    url = paper.url or (ARXIV_ABS + paper.arxiv if paper.arxiv and preprint else None)
    if url and is_http_url(plain(url)):  # a reference manager makes it a link: http(s) only
        out["URL"] = plain(url)
    if options.abstracts and paper.abstract:
        out["abstract"] = plain(paper.abstract)
    return out


def items(
    papers: Iterable[Paper], venues: dict[str, Venue], options: ExportOptions = ExportOptions()
) -> list[Item]:
    """CSL-JSON items for papers, sorted by key; ExportError names a paper whose venue the
    registry lacks."""
    ordered = sorted(papers, key=lambda p: p.key)
    return [item(p, registered(p, venues), options) for p in ordered]


# How items' lines join into a file: (before, between, after, the file of none).
JOINT = ("[\n", ",\n", "\n]\n", "[]\n")


def pieces(
    papers: Iterable[Paper], venues: dict[str, Venue], options: ExportOptions = ExportOptions()
) -> list[str]:
    """Each paper's item as its line of the file, sorted by key (JOINT joins them)."""
    return [line(i) for i in items(papers, venues, options)]


def line(item: Item) -> str:
    """One item as its line of the file."""
    # One item a line: a file under git diffs paper by paper.
    return "  " + json.dumps(item, ensure_ascii=False)
