"""Rules on the sources a paper or venue names: links whose arXiv id or DOI contradicts
the paper's own, and links that are no primary record (on no host of data/records.yaml)."""

from __future__ import annotations

from collections.abc import Iterable

from catalog.check.duplicates import norm_arxiv, norm_doi
from catalog.data.records import Records
from catalog.model import link_ids, link_parts


def linked_ids(url: str) -> tuple[str | None, str | None]:
    """The (arXiv id, DOI) a source link names, each normalised, or None."""
    arxiv, doi = link_ids(url)
    return norm_arxiv(arxiv), norm_doi(doi)


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
    host, path = link_parts(url)
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
