"""Paper -> biblatex: the BibTeX writer's entries (same escaping, names and titles), with
biblatex's own field names (date, journaltitle, eprinttype, ...)."""

from __future__ import annotations

from catalog.bib import bibtex
from catalog.model import Paper

# BibTeX's field names that biblatex spells its own way; every other field is the same.
RENAMED = {
    "year": "date",  # the catalog keeps a year: an ISO date of one year
    "journal": "journaltitle",
    "archivePrefix": "eprinttype",
    "primaryClass": "eprintclass",
    "school": "institution",
    "articleno": "eid",  # ACM's article number: biblatex's electronic identifier
    "numpages": "pagetotal",
}

# Fields that biblatex's data model (biber --validate-datamodel) allows in some entry
# types only: in any other type the field is left out, as biblatex has no place for it.
ONLY_IN = {
    "publisher": frozenset(
        {"book", "inbook", "collection", "incollection", "proceedings", "inproceedings", "manual"}
    ),
    "pagetotal": frozenset(
        {"book", "booklet", "collection", "manual", "proceedings", "report", "thesis"}
    ),
    "eid": frozenset(
        {
            *("article", "book", "inbook", "booklet", "collection", "incollection"),
            *("manual", "proceedings", "inproceedings", "report", "thesis"),
        }
    ),
    "howpublished": frozenset({"booklet", "misc", "unpublished"}),
    "series": frozenset(
        {
            *("article", "book", "inbook", "collection", "incollection", "proceedings"),
            *("inproceedings", "manual", "periodical"),
        }
    ),
}
# BibTeX's entry types that biblatex reads as another of its own.
ALIASES = {"phdthesis": "thesis", "mastersthesis": "thesis", "techreport": "report"}


def allowed(etype: str, field: str) -> bool:
    """Whether biblatex's data model has the (biblatex) field in the entry type."""
    kinds = ONLY_IN.get(field)
    return kinds is None or ALIASES.get(etype.lower(), etype.lower()) in kinds


class Writer(bibtex.Writer):
    """The BibTeX writer, its fields renamed for biblatex."""

    def fields(self, paper: Paper) -> tuple[str, list[tuple[str, str]]]:
        etype, fields = super().fields(paper)
        out = []
        for name, value in fields:
            if name == "archivePrefix":
                value = value.lower()  # eprinttype = {arxiv}: biblatex's name for arXiv
            renamed = RENAMED.get(name, name)
            if allowed(etype, renamed):
                out.append((renamed, value))
        return etype, out
