"""Rules on the sources a paper or venue names: links whose arXiv id or DOI contradicts
the paper's own, and links that are no primary record (on no host of data/records.yaml)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote

from catalog.check.duplicates import norm_arxiv, norm_doi
from catalog.data.records import Records

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
    return m.group(1).lower().removeprefix("www.").rstrip("."), m.group(2)


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


def unlisted(url: str, records: Records) -> str | None:
    """Why a link is no primary record: its host is on no entry of the records registry,
    or only under other paths; None for a page of a listed host."""
    host, path = _parts(url)
    if records.lookup(host, path) is not None:
        return None
    under = records.paths_under(host)
    where = f" (the records list it only under {', '.join(under)})" if under else ""
    return f"source on {host or 'no host'} is not a primary record{where}: {url[:80]}"


def not_primary_hint(registry: str) -> str:
    """What to do about a source that is no primary record (registry: the records file)."""
    return (
        "name the publisher, proceedings, arXiv, DBLP, doi.org, the conference's site or "
        f"the authors' own page, or add the host to {registry} after review"
    )
