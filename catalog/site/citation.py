"""A paper page's citation metadata: Highwire Press citation_* tags (Google Scholar's
inclusion guidelines; Zotero's embedded-metadata translator reads the same tags), made
from the paper's CSL-JSON item, so the page says what `papers export --format csl-json`
says.

Each CSL field goes to the one tag a reader maps back to it: the container to
citation_conference_title, citation_journal_title or citation_book_title by the item's
type (which is also how Zotero tells the kinds apart); a preprint's server and arXiv id
to citation_technical_report_institution and citation_technical_report_number, never
to citation_publisher. A CSL field no Highwire tag holds (a proceedings' short name, the
page count, a chapter's number) is left to the downloads.
"""

from __future__ import annotations

import html
import json

from catalog.bib import csljson
from catalog.model import OTHERS, Paper
from catalog.site.downloads import pieces
from catalog.site.links import ARXIV_PDF, plain
from catalog.site.sitedata import SiteData, safe_url

Meta = dict[str, str | list[str]]

# The tag that names the container, by the CSL type of the item.
CONTAINER_TAGS = {
    "paper-conference": "citation_conference_title",
    "article-journal": "citation_journal_title",
    "chapter": "citation_book_title",
}
# CSL types whose publisher is an institution (a preprint's server, a report's issuer, a
# thesis' university), with the tag that names it; every other type's is the publisher.
INSTITUTION_TAGS = {
    "article": "citation_technical_report_institution",
    "report": "citation_technical_report_institution",
    "thesis": "citation_dissertation_institution",
}
# CSL fields written as a tag of their own, whatever the type.
PLAIN_TAGS = {
    "title": "citation_title",
    "collection-title": "citation_series_title",
    "volume": "citation_volume",
    "issue": "citation_issue",
    "DOI": "citation_doi",
    "URL": "citation_public_url",
    "abstract": "citation_abstract",
}


def creator(name: dict[str, str]) -> str:
    """A CSL name as 'Family, Given' (particle with the family): the comma tells a
    reader which words are the family name, which 'Given Family' leaves to guessing."""
    family = " ".join(p for p in (name.get("non-dropping-particle"), name.get("family")) if p)
    given = " ".join(p for p in (name.get("given"), name.get("suffix")) if p)
    return f"{family}, {given}" if family and given else family or given


def _names(value: object) -> list[str]:
    return [creator(n) for n in value if isinstance(n, dict)] if isinstance(value, list) else []


def tags(item: csljson.Item) -> Meta:
    """The citation_* tags of one CSL-JSON item, in the order Google Scholar lists them."""
    kind = str(item.get("type", ""))
    out: Meta = {"citation_title": str(item["title"])}
    authors = _names(item.get("author"))
    if authors:
        out["citation_author"] = authors
    editors = _names(item.get("editor"))
    if editors:
        out["citation_editor"] = editors
    out["citation_publication_date"] = str(item["issued"]["date-parts"][0][0])  # type: ignore[index]
    container = item.get("container-title")
    if container and kind in CONTAINER_TAGS:
        out[CONTAINER_TAGS[kind]] = str(container)
        if kind == "article-journal" and item.get("container-title-short"):
            out["citation_journal_abbrev"] = str(item["container-title-short"])
    for field, tag in PLAIN_TAGS.items():
        if item.get(field) and field != "title":
            out[tag] = str(item[field])
    publisher = item.get("publisher")
    if publisher:
        out[INSTITUTION_TAGS.get(kind, "citation_publisher")] = str(publisher)
    if kind in ("article", "report") and item.get("number"):
        out["citation_technical_report_number"] = str(item["number"])
    first, dash, last = str(item.get("page", "")).partition("-")
    if first and "," not in first + last:  # a list of ranges has no pair of tags
        out["citation_firstpage"] = first
        if dash and last:
            out["citation_lastpage"] = last
    return out


def pdf_url(paper: Paper, item: csljson.Item) -> str | None:
    """The PDF of the version the tags describe: a preprint's arXiv PDF, a published
    paper's own PDF where the catalog has one, never a preprint's for a published one."""
    if item.get("type") == "article" and paper.arxiv:
        return ARXIV_PDF + paper.arxiv
    return safe_url(getattr(paper, "pdf", None))  # a field the model may grow


def citation_meta(paper: Paper, data: SiteData) -> Meta:
    """The page's description (its summary) and its citation_* tags, which
    overrides/main.html writes as <meta> tags."""
    out: Meta = {}
    if paper.summary:  # printed unescaped by the theme: escaped here
        out["description"] = html.escape(plain(paper.summary), quote=True)
    piece = pieces(data)["csl-json"].get(paper.key)
    if piece is None:  # a paper the build cannot cite (it reports why): the bare facts
        item: csljson.Item = {
            "title": plain(paper.title),
            "author": [csljson.name(a) for a in paper.authors if a != OTHERS],
            "issued": {"date-parts": [[paper.year]]},
        }
    else:  # the item of the page's CSL-JSON download, with the abstract it leaves out
        item = json.loads(piece)
        if paper.abstract:
            item["abstract"] = csljson.plain(paper.abstract)
    out.update(tags(item))
    if paper.arxiv:
        out["citation_arxiv_id"] = paper.arxiv
    pdf = pdf_url(paper, item)
    if pdf:
        out["citation_pdf_url"] = pdf
    return out
