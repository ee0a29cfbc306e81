"""Rules on the sources a paper or venue names: links whose arXiv id or DOI contradicts
the paper's own, and records that are only copies of other records (aggregators)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote

from catalog.check.duplicates import norm_arxiv, norm_doi

# Sites that copy or list what others published, each with why it is no record of its
# own: fine beside a primary record, never as the only one. An entry names a host (and
# its subdomains), or a host and the path under which the site lists papers.
AGGREGATORS: dict[str, str] = {
    "friendlywiki.com": "a mirror of Wikipedia articles",
    "wikiwand.com": "a reader that re-serves Wikipedia articles",
    "dbpedia.org": "a database extracted from Wikipedia",
    "vdocuments.site": "a site re-hosting documents users upload, of unknown provenance",
    "vdocuments.mx": "a site re-hosting documents users upload, of unknown provenance",
    "docslib.org": "a site re-hosting documents users upload, of unknown provenance",
    "slidelegend.com": "a site re-hosting documents users upload, of unknown provenance",
    "pdfslide.net": "a site re-hosting documents users upload, of unknown provenance",
    "pdfslide.us": "a site re-hosting documents users upload, of unknown provenance",
    "scribd.com": "a site re-hosting documents users upload, of unknown provenance",
    "paperswithcode.com": "a list of papers whose metadata is copied from arXiv and others",
    "researchtrend.ai": "a list of papers whose metadata is copied from arXiv and others",
    "researchr.org/publication": "a bibliography whose entries are copied from other indexes",
}

_ARXIV_HOSTS = ("arxiv.org", "ar5iv.org", "ar5iv.labs.arxiv.org")
_ARXIV_PATH_RE = re.compile(
    r"^/(?:abs|pdf|html|format|ps)/((?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)"
)
_DOI_HOSTS = ("doi.org", "dx.doi.org")
# Publishers' landing pages that carry the DOI in their path (ACM, Wiley, Taylor & Francis,
# SIAM: /doi/[abs|pdf|full|...]/DOI; Springer: /chapter|article|book/DOI).
_DOI_PATH_RE = re.compile(
    r"/(?:doi(?:/(?:abs|pdf|epdf|full|fullHtml|book|proceedings))?|chapter|article)/"
    r"(10\.\d{4,9}/[^?#\s]+)"
)


# A link's host and path (check reads every source of every paper: a regex, not urlsplit).
_LINK_RE = re.compile(r"^[a-z][a-z0-9+.\-]*://(?:[^/?#@]*@)?([^/?#:]*)(?::[^/?#]*)?([^?#]*)", re.I)


def _parts(url: str) -> tuple[str, str]:
    """A link's host (lower-case, without www.) and path; ('', '') for no link."""
    m = _LINK_RE.match(url)
    if not m:
        return "", ""
    return m.group(1).lower().removeprefix("www."), m.group(2)


def linked_ids(url: str) -> tuple[str | None, str | None]:
    """The (arXiv id, DOI) a source link names, each normalised, or None."""
    host, path = _parts(url)
    path = unquote(path)
    if host in _ARXIV_HOSTS or host.endswith(".arxiv.org"):
        m = _ARXIV_PATH_RE.match(path)
        return (norm_arxiv(m.group(1).removesuffix(".pdf")) if m else None), None
    doi = None
    if host in _DOI_HOSTS:
        doi = path.lstrip("/") or None
    elif "/10." in path:
        m = _DOI_PATH_RE.search(path)
        doi = m.group(1) if m else None
    if doi:
        doi = doi.rstrip("/").removesuffix(".pdf")
        return norm_arxiv(None, doi), norm_doi(doi)
    return None, None


def contradictions(
    sources: Iterable[str], arxiv: str | None, doi: str | None
) -> Iterable[tuple[str, str]]:
    """(message, hint) for each source link naming another arXiv id or DOI than the
    paper's own (a paper with no id of that kind is not contradicted)."""
    if not (arxiv or doi):
        return
    own_arxiv = norm_arxiv(arxiv, doi)  # (an arXiv DOI is the paper's arXiv id)
    own_doi = norm_doi(doi)
    for url in sources:
        linked_arxiv, linked_doi = linked_ids(url)
        if linked_arxiv and own_arxiv and linked_arxiv != own_arxiv:
            yield (
                f"source {url[:80]} is arXiv {linked_arxiv}, not the paper's arXiv {own_arxiv}",
                "link the paper's own arXiv record, or correct the arxiv field",
            )
        if linked_doi and own_doi and linked_doi != own_doi:
            yield (
                f"source {url[:80]} is DOI {linked_doi}, not the paper's DOI {own_doi}",
                "link the paper's own record, or correct the doi field",
            )


# AGGREGATORS by site: (the path under which it lists papers, why it is an aggregator).
_BY_SITE: dict[str, list[tuple[str, str]]] = {}
for _entry, _reason in AGGREGATORS.items():
    _site, _, _under = _entry.partition("/")
    _BY_SITE.setdefault(_site, []).append(("/" + _under, f"{_site} is {_reason}"))


def aggregator(url: str) -> str | None:
    """Why a link is an aggregator's page (AGGREGATORS), or None for any other link."""
    host, path = _parts(url)
    labels = host.split(".")
    for start in range(len(labels) - 1):  # the host, then each domain above it
        for under, reason in _BY_SITE.get(".".join(labels[start:]), ()):
            if path.startswith(under):
                return reason
    return None


def only_aggregators(sources: list[str]) -> Iterable[tuple[str, str]]:
    """(message, hint) when every source given is an aggregator's page."""
    if not sources or aggregator(sources[0]) is None:  # (most papers: at once)
        return
    reasons = [aggregator(url) for url in sources]
    if all(reasons):
        yield (
            "only source is an aggregator ("
            + "; ".join(dict.fromkeys(r or "" for r in reasons))
            + ")",
            "add the primary record its fields were checked against (the publisher's, "
            "the proceedings', arXiv's or DBLP's page)",
        )
