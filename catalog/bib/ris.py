"""Paper -> RIS, for reference managers (Zotero, EndNote, Mendeley), written by rispy
from the CSL-JSON items of catalog.bib.csljson: one mapping from the catalog, plain text
already, so no value holds a line break that would end its RIS line."""

from __future__ import annotations

from collections.abc import Iterable

import rispy

from catalog.bib import csljson
from catalog.bib.options import ExportOptions
from catalog.data.registry import Venue
from catalog.model import Paper

# The RIS type for each CSL type csljson writes (a preprint is an unpublished work).
RIS_TYPES = {
    "paper-conference": "CPAPER",
    "article-journal": "JOUR",
    "article": "UNPB",
    "book": "BOOK",
    "chapter": "CHAP",
    "thesis": "THES",
    "report": "RPRT",
}
# CSL field -> rispy's name for the RIS tag that holds it.
TAGS = {
    "container-title": "secondary_title",  # T2: proceedings, journal or book
    "container-title-short": "alternate_title1",  # J2
    "collection-title": "tertiary_title",  # T3: the series
    "volume": "volume",  # VL
    "issue": "number",  # IS
    "chapter-number": "section",  # SE
    "publisher": "publisher",  # PB
    "number": "note",  # M1: arXiv:ID, or ACM's article number
    "DOI": "doi",  # DO
    "abstract": "abstract",  # AB
}


class _Writer(rispy.RisWriter):
    """rispy's writer without its '1.' line before each record, which is no RIS tag."""

    def set_header(self, count: int) -> str:
        return ""


def _name(part: dict[str, str]) -> str:
    """A CSL name as RIS writes it: 'von Last, First, Jr'."""
    family = " ".join(p for p in (part.get("non-dropping-particle"), part.get("family")) if p)
    return ", ".join(p for p in (family, part.get("given", ""), part.get("suffix", "")) if p)


def record(item: csljson.Item) -> dict[str, object]:
    """One CSL-JSON item as a rispy record (tag names as rispy spells them)."""
    out: dict[str, object] = {
        "type_of_reference": RIS_TYPES.get(str(item["type"]), "GEN"),
        "id": item["id"],
        "title": item["title"],
    }
    authors = item.get("author")
    if isinstance(authors, list) and authors:
        out["authors"] = [_name(a) for a in authors]
    out["year"] = str(item["issued"]["date-parts"][0][0])  # type: ignore[index]
    editors = item.get("editor")
    if isinstance(editors, list) and editors:
        out["secondary_authors"] = [_name(e) for e in editors]
    for field, tag in TAGS.items():
        if field in item:
            out[tag] = item[field]
    page = item.get("page")
    if isinstance(page, str):
        start, dash, end = page.partition("-")
        if dash and "," not in page:
            out["start_page"], out["end_page"] = start, end
        else:
            out["start_page"] = page
    if "URL" in item:
        out["urls"] = [item["URL"]]
    return out


# How records join into a file: (before, between, after, the file of none).
JOINT = ("", "\n", "", "")


def pieces(
    papers: Iterable[Paper], venues: dict[str, Venue], options: ExportOptions = ExportOptions()
) -> list[str]:
    """Each paper's RIS record, sorted by key (JOINT joins them)."""
    return [text(i) for i in csljson.items(papers, venues, options)]


def text(item: csljson.Item) -> str:
    """One CSL-JSON item as its RIS record."""
    return str(rispy.dumps([record(item)], implementation=_Writer))
