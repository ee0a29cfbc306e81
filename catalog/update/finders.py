"""What public records say has changed about catalog papers, each finding with its evidence.

The records asked: arXiv's API (titles, abstracts, the DOI and journal reference authors
add once published), Crossref (a DOI's record and its relations to preprints), DBLP
(published versions by title), doi.org (whether a DOI is registered) and each paper's
own url. A finding changes a paper only on an identifier's agreement: the arXiv id, a
DOI that arXiv or a Crossref relation gives, or title, first author and year together;
a title alike is never enough.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from catalog.check import titles
from catalog.check.duplicates import norm_arxiv, norm_doi
from catalog.data.registry import Venue, is_preprint
from catalog.ingest import services, webclient
from catalog.ingest.services import Record
from catalog.ingest.webclient import FetchError, NoRecordError, UnreachableError
from catalog.model import Paper, fold, kept_url, last_name, normalize_title

# How many arXiv ids one API query asks for (arXiv's own examples use up to a few hundred;
# fewer keeps each reply small).
ARXIV_BATCH = 50
# A published version appears within this many years of its preprint.
PUBLISHED_WITHIN = 3
_GONE = (404, 410)


@dataclass
class Finding:
    """One thing a public record says is new or wrong about a paper."""

    key: str
    kind: str  # published, retitled, missing-doi, missing-pages, missing-abstract, ...
    message: str
    evidence: list[str] = field(default_factory=list)  # what each record says, with its URL
    changes: dict[str, Any] = field(default_factory=dict)  # field -> new value
    move: tuple[int, str] | None = None  # the year and venue the paper moves to
    source: str | None = None  # the record's URL, added to the paper's sources
    blocked: str | None = None  # why the change is not applied, when it is not
    applied: bool = False

    @property
    def applicable(self) -> bool:
        """True when the finding changes the paper and nothing stops it."""
        return self.blocked is None and bool(self.changes or self.move)

    def to_dict(self) -> dict[str, Any]:
        """The finding for --json."""
        out = dict(self.__dict__)
        out["applicable"] = self.applicable
        out["move"] = {"year": self.move[0], "venue": self.move[1]} if self.move else None
        return out


class OfflineError(FetchError):
    """No service could be reached at all."""


@dataclass
class Asker:
    """Calls to the services: a failure is noted against its paper and the run goes on,
    unless nothing was ever reached (then the machine is offline: OfflineError)."""

    errors: list[str] = field(default_factory=list)
    reached: bool = False

    def ask(self, what: str, call: Callable[..., Any], *args: Any, failed: Any = None) -> Any:
        """call(*args), or failed when it fails (noted in errors, bar a plain 'no record')."""
        try:
            answer = call(*args)
        except UnreachableError as err:
            self.unreachable(err)
            self.errors.append(f"{what}: cannot reach {err.host} ({err.reason})")
            return failed
        except FetchError as err:
            self.reached = True
            if not isinstance(err, NoRecordError):
                self.errors.append(f"{what}: {err}")
            return failed
        self.reached = True
        return answer

    def unreachable(self, err: UnreachableError) -> None:
        """OfflineError when nothing has been reached yet: the first request failed to
        connect, so every other would too."""
        if not self.reached:
            raise OfflineError(
                f"offline: cannot reach {err.host} ({err.reason}); papers update needs the network"
            ) from None


def same_person(a: str, b: str) -> bool:
    """One family name, folded ('Müller' is 'Muller')."""
    return bool(a and b) and fold(last_name(a)) == fold(last_name(b))


def first_author_agrees(paper: Paper, record: Record) -> bool:
    """The paper's first author and the record's share a family name."""
    return bool(paper.authors and record.authors) and same_person(
        paper.authors[0], record.authors[0]
    )


def describe(record: Record) -> str:
    """A record in one line of evidence: title, first author, year, venue, its URL."""
    who = (
        record.authors[0] + (" et al." if len(record.authors) > 1 else "")
        if record.authors
        else "no authors"
    )
    venue = record.venue_names[0] if record.venue_names else "no venue"
    where = record.record_url or record.url or ""
    return f"{record.source}: '{record.title}', {who}, {record.year or 'no year'}, {venue}" + (
        f" ({where})" if where else ""
    )


# ---------------------------------------------------------------- arXiv


def arxiv_findings(
    papers: list[Paper], venues: dict[str, Venue], asker: Asker, tick: Callable[[], None]
) -> Iterable[Finding]:
    """Findings from arXiv's records of the papers that have an arXiv id."""
    with_id = [p for p in papers if p.arxiv]
    for start in range(0, len(with_id), ARXIV_BATCH):
        batch = with_id[start : start + ARXIV_BATCH]
        ids = [norm_arxiv(p.arxiv) or "" for p in batch]
        records = asker.ask(f"arXiv ({len(ids)} ids)", services.arxiv_batch, ids) or {}
        for paper, ident in zip(batch, ids, strict=True):
            record = records.get(ident)
            if record is not None:
                yield from _from_arxiv(paper, ident, record, venues, asker)
            tick()


def _from_arxiv(
    paper: Paper, ident: str, record: Record, venues: dict[str, Venue], asker: Asker
) -> Iterable[Finding]:
    url = f"https://arxiv.org/abs/{ident}"
    preprint = is_preprint(paper.venue, venues)
    if preprint and normalize_title(record.title) != normalize_title(paper.title):
        yield Finding(
            paper.key,
            "retitled",
            f"arXiv {ident} is now titled '{record.title}'",
            [f"arXiv {ident}'s current title: '{record.title}' ({url})"],
            {"title": record.title},
            source=url,
        )
    if not paper.abstract and record.abstract:
        yield Finding(
            paper.key,
            "missing-abstract",
            f"arXiv {ident} gives the abstract (arXiv's metadata is CC0)",
            [f"arXiv {ident}'s abstract ({url})"],
            {"abstract": record.abstract},
            source=url,
        )
    if preprint:
        found = _published(paper, ident, record, venues, asker)
        if found is not None:
            yield found


def _published(
    paper: Paper, ident: str, preprint: Record, venues: dict[str, Venue], asker: Asker
) -> Finding | None:
    """The published version of a preprint: the DOI its arXiv record gives, a Crossref
    work that names it as its preprint, or DBLP's record by title, first author, year."""
    abs_url = f"https://arxiv.org/abs/{ident}"
    evidence = []
    if preprint.journal_ref:
        evidence.append(f"arXiv {ident}: journal reference '{preprint.journal_ref}' ({abs_url})")
    for find in (_by_arxiv_doi, _by_relation, _by_dblp):
        found = find(paper, ident, preprint, asker, evidence)
        if found is not None:
            work, agreement = found
            return _move(paper, work, venues, [*evidence, agreement])
    if not evidence:
        return None
    # arXiv says it was published, but no record agrees enough to move it
    return Finding(
        paper.key,
        "published",
        "arXiv says the preprint was published; no record confirms where",
        evidence,
        blocked="no Crossref or DBLP record agrees by DOI, or by title, first author "
        "and year; file it by hand",
    )


Found = tuple[Record, str] | None  # the published version, and why it is this paper's


def _by_arxiv_doi(
    paper: Paper, ident: str, preprint: Record, asker: Asker, evidence: list[str]
) -> Found:
    """The Crossref work of the DOI arXiv's record gives (its authors added it)."""
    if not norm_doi(preprint.doi):  # none, or arXiv's own DOI
        return None
    evidence.append(f"arXiv {ident} gives DOI {preprint.doi} (https://arxiv.org/abs/{ident})")
    work = asker.ask(f"{paper.key}: Crossref {preprint.doi}", services.crossref, preprint.doi)
    if work is None or work.kind == "preprint":
        return None
    if not first_author_agrees(paper, work):
        evidence.append(describe(work) + ": its first author is not the paper's")
        return None
    return work, describe(work)


def _by_relation(
    paper: Paper, ident: str, preprint: Record, asker: Asker, evidence: list[str]
) -> Found:
    """A Crossref work whose relations name the preprint's arXiv DOI."""
    arxiv_doi = f"10.48550/arXiv.{ident}"
    related = asker.ask(f"{paper.key}: Crossref relations", services.crossref_related, arxiv_doi)
    for work in related or []:
        if (
            _names_preprint(work, ident)
            and work.kind != "preprint"
            and first_author_agrees(paper, work)
        ):
            return work, f"{describe(work)} names {arxiv_doi} as its preprint"
    return None


def _by_dblp(
    paper: Paper, ident: str, preprint: Record, asker: Asker, evidence: list[str]
) -> Found:
    """DBLP's published record with the same title and first author, a little later."""
    for hit in asker.ask(f"{paper.key}: DBLP", services.dblp_search, paper.title) or []:
        if (
            hit.kind != "preprint"
            and hit.year
            and 0 <= hit.year - paper.year <= PUBLISHED_WITHIN
            and titles.alike(hit.title, paper.title)
            and first_author_agrees(paper, hit)
        ):
            agreement = (
                f"same title and first author, within {PUBLISHED_WITHIN} years of the preprint"
            )
            return hit, f"{describe(hit)}: {agreement}"
    return None


def _names_preprint(work: Record, ident: str) -> bool:
    """A Crossref work whose relations name the arXiv preprint (by its DOI or its id)."""
    wanted = {f"10.48550/arxiv.{ident}".lower(), ident.lower(), f"arxiv:{ident}".lower()}
    return any(i.lower() in wanted for ids in work.relations.values() for i in ids)


def _move(paper: Paper, work: Record, venues: dict[str, Venue], evidence: list[str]) -> Finding:
    """The finding that files a preprint under its published venue and year."""
    venue = services.resolve_venue(work, venues)
    changes: dict[str, Any] = {}
    if work.doi and not paper.doi:
        changes["doi"] = work.doi
    # (no pages for an article-numbered paper: Crossref's count the article's own pages)
    for name in ("volume", "number") if paper.articleno else ("pages", "volume", "number"):
        if getattr(work, name) and not getattr(paper, name):
            changes[name] = getattr(work, name)
    where = f"{venue or (work.venue_names[0] if work.venue_names else '?')} {work.year}"
    finding = Finding(
        paper.key,
        "published",
        f"published at {where}",
        evidence,
        changes,
        move=(work.year, venue) if venue and work.year else None,
        source=work.record_url or (f"https://doi.org/{work.doi}" if work.doi else None),
    )
    if venue is None:
        names = ", ".join(work.venue_names[:2]) or "no venue name"
        finding.blocked = f"venue '{names}' is not in data/venues.yaml: add it, then run again"
    elif venue == paper.venue:
        finding.move = None
    return finding


# ---------------------------------------------------------------- DOIs and links


def doi_findings(papers: list[Paper], asker: Asker, tick: Callable[[], None]) -> Iterable[Finding]:
    """Each DOI's Crossref record (pages the paper lacks), or, when Crossref has none,
    whether doi.org knows the DOI at all."""
    for paper in papers:
        doi = norm_doi(paper.doi)
        if doi:
            yield from _from_crossref(paper, doi, asker)
        tick()


def _from_crossref(paper: Paper, doi: str, asker: Asker) -> Iterable[Finding]:
    work = asker.ask(f"{paper.key}: Crossref", services.crossref, doi)
    if work is None:  # not Crossref's: other agencies' DOIs (DataCite, mEDRA) resolve too
        target = asker.ask(f"{paper.key}: doi.org", services.doi_target, doi, failed="")
        if target is None:
            yield Finding(
                paper.key,
                "doi-gone",
                f"DOI {paper.doi} is not registered: it leads nowhere",
                [f"doi.org has no handle {doi} (https://doi.org/api/handles/{doi})"],
                blocked="a DOI that does not resolve needs a person: correct it or remove it",
            )
        return
    # (an article-numbered paper's 'page' in Crossref counts the article's own pages)
    if work.pages and not paper.pages and not paper.articleno and first_author_agrees(paper, work):
        yield Finding(
            paper.key,
            "missing-pages",
            f"Crossref gives the pages of DOI {doi}: {work.pages}",
            [describe(work)],
            {"pages": work.pages},
            source=f"https://doi.org/{doi}",
        )


def missing_doi_findings(
    papers: list[Paper], venues: dict[str, Venue], asker: Asker, tick: Callable[[], None]
) -> Iterable[Finding]:
    """A DOI for a published paper that has none: DBLP's record of the same title, first
    author, year and venue."""
    for paper in papers:
        if not paper.doi and not is_preprint(paper.venue, venues):
            hits = asker.ask(f"{paper.key}: DBLP", services.dblp_search, paper.title) or []
            for hit in hits:
                if (
                    hit.doi
                    and hit.year == paper.year
                    and titles.alike(hit.title, paper.title)
                    and first_author_agrees(paper, hit)
                    and services.resolve_venue(hit, venues) == paper.venue
                ):
                    changes: dict[str, Any] = {"doi": hit.doi}
                    if hit.pages and not paper.pages:
                        changes["pages"] = hit.pages
                    yield Finding(
                        paper.key,
                        "missing-doi",
                        f"DBLP gives the DOI {hit.doi}",
                        [f"{describe(hit)}: same title, first author, year and venue"],
                        changes,
                        source=hit.record_url,
                    )
                    break
        tick()


def link_findings(papers: list[Paper], asker: Asker, tick: Callable[[], None]) -> Iterable[Finding]:
    """Each paper's url: gone (404, 410, no such host) or moved for good (301, 308)."""
    for paper in papers:
        if paper.url:
            found = _check_link(paper, paper.url, asker)
            if found is not None:
                yield found
        tick()


def _check_link(paper: Paper, url: str, asker: Asker) -> Finding | None:
    """Follow a url's permanent redirects (301, 308) to where it stands now, if it does."""
    hops: list[str] = []
    current = url
    for _ in range(webclient.MAX_REDIRECTS + 1):
        try:
            answer = webclient.probe(current)
        except UnreachableError as err:
            asker.unreachable(err)
            return _gone(paper, url, [*hops, f"{err.host}: {err.reason}"], "does not resolve")
        except FetchError as err:
            asker.errors.append(f"{paper.key}: {err}")
            return None
        asker.reached = True
        if answer.status in _GONE:
            status = f"HTTP {answer.status}"
            return _gone(paper, url, [*hops, f"{current} answers {status}"], f"is gone ({status})")
        if answer.status not in (301, 308) or not answer.location:
            break
        hops.append(f"{current} answers HTTP {answer.status}: moved to {answer.location}")
        current = answer.location
    if not hops or answer.status != 200:
        return None
    kept, _ = kept_url(current)
    return Finding(
        paper.key,
        "url-moved",
        f"url moved for good to {current}",
        [*hops, f"{current} answers HTTP 200"],
        {"url": kept} if kept else {},
        blocked=None if kept else "the new place is not an http(s) link",
    )


def _gone(paper: Paper, url: str, evidence: list[str], how: str) -> Finding:
    return Finding(
        paper.key,
        "url-gone",
        f"url {url} {how}",
        evidence,
        blocked="a link that is gone needs a person: find where the page went",
    )
