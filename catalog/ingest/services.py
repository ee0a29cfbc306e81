"""Metadata from the public Crossref, arXiv, DBLP and doi.org records, as Records.

Each service's reply (asked through webclient) read into a Record: nothing here
guesses, a field the service does not give is left empty.
"""

from __future__ import annotations

import contextlib
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

from catalog.check import titles
from catalog.data.registry import Venue
from catalog.ingest.webclient import FetchError, base_url, fetch, get
from catalog.model import (
    ARXIV_NEW_RE,
    ARXIV_OLD_RE,
    arxiv_doi,
    kept_doi,
    kept_url,
    normalize_title,
    strip_controls,
)

_ATOM = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
# DBLP numbers people who share a name: 'Wei Zhang 0001'.
_DBLP_NUMBER_RE = re.compile(r"(?<!\s)\s+\d{4}$")
# Patterns on what a service sends start a run of blanks where it starts, and a bracket
# group at the bracket nearest its end, so a reply of 80 KB of blanks or '(' is read in
# one pass, not once from each of them.
_YEAR_AFTER_RE = re.compile(r"(?<!\s)\s*['’]?\d{2,4}$")
_BRACKETED_RE = re.compile(r"\([^()]*\)")
_MARKUP_RE = re.compile(r"<[^<>]+>")


# What a reply of the wrong shape raises while it is read (a list where a mapping should be,
# a number where text should be): each becomes a FetchError, never a traceback.
_MALFORMED = (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError)


@dataclass
class Record:
    """A paper as a metadata service describes it."""

    source: str
    title: str
    authors: list[str]
    year: int | None = None
    venue_names: list[str] = field(default_factory=list)  # acronym first, then full names
    kind: str | None = None  # conference, journal or preprint
    doi: str | None = None
    arxiv: str | None = None
    url: str | None = None
    pages: str | None = None
    volume: str | None = None
    number: str | None = None
    abstract: str | None = None
    notes: list[str] = field(default_factory=list)  # what was left out of the reply, and why
    journal_ref: str | None = None  # arXiv's journal reference, as its authors wrote it
    # Crossref's relations: type ('has-preprint', 'is-preprint-of', ...) -> related ids
    relations: dict[str, list[str]] = field(default_factory=dict)
    record_url: str | None = None  # the service's own page of this record

    def __post_init__(self) -> None:
        """A reply is untrusted input: control characters go, and only an http(s) url, a
        strict DOI and a well-formed arXiv id are kept (each drop noted)."""
        self.title = strip_controls(str(self.title or ""))
        self.authors = [strip_controls(str(a)) for a in self.authors if a]
        self.venue_names = [strip_controls(str(v)) for v in self.venue_names if v]
        for name in ("pages", "volume", "number"):
            value = getattr(self, name)
            setattr(self, name, strip_controls(str(value)) or None if value else None)
        if self.abstract:
            self.abstract = strip_controls(str(self.abstract), multiline=True)
        if self.journal_ref:
            self.journal_ref = strip_controls(str(self.journal_ref)) or None
        self.relations = {
            strip_controls(str(kind)): [strip_controls(str(i)) for i in ids]
            for kind, ids in self.relations.items()
        }
        self.record_url, _ = kept_url(self.record_url)
        self.doi, bad_doi = kept_doi(self.doi, f"{self.source}'s doi")
        self.url, bad_url = kept_url(self.url, f"{self.source}'s url")
        self.notes += [str(d) for d in (bad_doi, bad_url) if d is not None]
        if self.arxiv and not (ARXIV_NEW_RE.match(self.arxiv) or ARXIV_OLD_RE.match(self.arxiv)):
            self.notes.append(
                f"{self.source}'s arXiv id {str(self.arxiv)[:60]!r} is not one: left out"
            )
            self.arxiv = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def fields(self) -> dict[str, Any]:
        """The catalog fields this record gives (not venue: the registry decides that)."""
        out = {
            "title": self.title,
            "authors": list(self.authors),
            "year": self.year,
            "doi": self.doi,
            "arxiv": self.arxiv,
            "url": None if self.doi else self.url,
            "pages": self.pages,
            "volume": self.volume,
            "number": self.number,
        }
        return {k: v for k, v in out.items() if v}


# ---------------------------------------------------------------- Crossref


def crossref(doi: str) -> Record:
    """A work by its DOI from Crossref's REST API (/works/DOI)."""
    response = get("crossref", "Crossref", f"/works/{doi}", what=f"DOI {doi}")
    try:
        return crossref_record(response.json()["message"])
    except _MALFORMED:
        raise FetchError(
            f"Crossref sent a reply for DOI {doi} that is not a works record"
        ) from None


def crossref_record(work: dict[str, Any]) -> Record:
    """A Record from a Crossref 'work' message."""
    authors = []
    for person in work.get("author", []):
        name = " ".join(p for p in (person.get("given"), person.get("family")) if p)
        authors.append(name or person.get("name", ""))
    year = None
    for stamp in ("published-print", "published", "issued", "published-online"):
        parts = (work.get(stamp) or {}).get("date-parts") or [[None]]
        if parts[0] and parts[0][0]:
            year = int(parts[0][0])
            break
    names: list[str] = []
    event = work.get("event") or {}
    if event.get("acronym"):
        names.append(event["acronym"])
    names += list(work.get("short-container-title") or [])
    names += list(work.get("container-title") or [])
    if event.get("name"):
        names.append(event["name"])
    kind = {
        "journal-article": "journal",
        "proceedings-article": "conference",
        "posted-content": "preprint",
    }.get(work.get("type", ""))
    abstract = work.get("abstract")
    if abstract:
        abstract = _squash(_MARKUP_RE.sub(" ", abstract))
    return Record(
        source="Crossref",
        title=_squash(" ".join(work.get("title") or [])),
        authors=authors,
        year=year,
        venue_names=names,
        kind=kind,
        doi=work.get("DOI"),
        url=work.get("URL"),
        pages=_pages(work.get("page")),
        volume=work.get("volume"),
        number=work.get("issue"),
        abstract=abstract or None,
        relations=_relations(work.get("relation")),
        record_url=f"https://doi.org/{work['DOI']}" if work.get("DOI") else None,
    )


def _relations(relation: Any) -> dict[str, list[str]]:
    """Crossref's 'relation' object as type -> the related ids."""
    if not isinstance(relation, dict):
        return {}
    out: dict[str, list[str]] = {}
    for kind, items in relation.items():
        items = items if isinstance(items, list) else [items]
        ids = [str(i["id"]) for i in items if isinstance(i, dict) and i.get("id")]
        if ids:
            out[str(kind)] = ids
    return out


def crossref_related(doi: str) -> list[Record]:
    """Works whose Crossref relations name this DOI (a preprint's DOI finds the version
    of record that says it has this preprint), from /works?filter=relation.object:DOI."""
    response = get(
        "crossref",
        "Crossref",
        "/works",
        {"filter": f"relation.object:{doi}", "rows": 10},
        what=f"works related to {doi}",
    )
    try:
        items = response.json()["message"]["items"]
        return [crossref_record(item) for item in items]
    except _MALFORMED:
        raise FetchError(
            f"Crossref sent a reply for works related to {doi} that is not a list"
        ) from None


# ---------------------------------------------------------------- arXiv


def arxiv(arxiv_id: str) -> Record:
    """A preprint by its id from the arXiv API (Atom XML)."""
    response = get(
        "arxiv", "arXiv", "/api/query", {"id_list": arxiv_id}, what=f"arXiv id {arxiv_id}"
    )
    try:
        records = arxiv_records(response.text)
    except _MALFORMED:
        raise FetchError(
            f"arXiv sent a reply for {arxiv_id} that is not a feed of preprints"
        ) from None
    if not records:
        raise FetchError(f"arXiv has no record of arXiv id {arxiv_id}")
    found = records[0]
    if _bare_arxiv(found.arxiv) != _bare_arxiv(arxiv_id):
        raise FetchError(
            f"arXiv answered the query for {arxiv_id} with another preprint "
            f"({found.arxiv or 'no id'}); nothing was taken from it"
        )
    return found


def _bare_arxiv(ident: str | None) -> str:
    """An arXiv id without its version and any 'arXiv:' prefix, lower-cased."""
    text = (ident or "").strip().lower().removeprefix("arxiv:")
    return re.sub(r"v\d+$", "", text)


def arxiv_records(xml: str) -> list[Record]:
    """Records from an arXiv API Atom feed; the API's error entries are raised."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as err:
        raise FetchError(f"arXiv sent a reply that is not Atom XML ({err})") from None
    out = []
    for entry in root.findall("a:entry", _ATOM):
        entry_id = entry.findtext("a:id", "", _ATOM).strip()
        title = _squash(entry.findtext("a:title", "", _ATOM))
        if "/api/errors" in entry_id or title == "Error":
            message = _squash(entry.findtext("a:summary", "", _ATOM))
            raise FetchError(f"arXiv says: {message or 'bad request'}")
        m = re.search(r"abs/(.+?)(v\d+)?$", entry_id)
        published = entry.findtext("a:published", "", _ATOM)
        out.append(
            Record(
                source="arXiv",
                title=title,
                authors=[
                    _squash(a.findtext("a:name", "", _ATOM))
                    for a in entry.findall("a:author", _ATOM)
                ],
                year=int(published[:4]) if published[:4].isdigit() else None,
                venue_names=["arXiv"],
                kind="preprint",
                doi=(entry.findtext("arxiv:doi", "", _ATOM).strip() or None),
                arxiv=m.group(1) if m else None,
                url=f"https://arxiv.org/abs/{m.group(1)}" if m else None,
                abstract=_squash(entry.findtext("a:summary", "", _ATOM)) or None,
                journal_ref=_squash(entry.findtext("arxiv:journal_ref", "", _ATOM)) or None,
                record_url=f"https://arxiv.org/abs/{m.group(1)}" if m else None,
            )
        )
    return out


def arxiv_batch(ids: list[str]) -> dict[str, Record]:
    """Preprints by id from one arXiv API query (id_list of up to 100), by bare id; an id
    arXiv does not answer for is left out."""
    if not ids:
        return {}
    response = get(
        "arxiv",
        "arXiv",
        "/api/query",
        {"id_list": ",".join(ids), "max_results": len(ids)},
        what=f"{len(ids)} arXiv ids",
    )
    try:
        records = arxiv_records(response.text)
    except _MALFORMED:
        raise FetchError("arXiv sent a reply that is not a feed of preprints") from None
    wanted = {_bare_arxiv(i) for i in ids}
    return {bare: r for r in records if (bare := _bare_arxiv(r.arxiv)) in wanted and r.arxiv}


# ---------------------------------------------------------------- DBLP


def dblp_search(title: str) -> list[Record]:
    """Publications whose title matches, from DBLP's search API (JSON)."""
    response = get(
        "dblp",
        "DBLP",
        "/search/publ/api",
        {"q": title, "format": "json", "h": 10},
        what=f"title {title!r}",
    )
    try:
        hits = response.json()["result"]["hits"].get("hit", [])
        return [dblp_record(hit.get("info", {})) for hit in hits]
    except _MALFORMED:
        raise FetchError("DBLP sent a reply that is not a search result") from None


def dblp_record(info: dict[str, Any]) -> Record:
    """A Record from the 'info' of a DBLP search hit."""
    people = (info.get("authors") or {}).get("author", [])
    if isinstance(people, dict):
        people = [people]
    authors = [
        _DBLP_NUMBER_RE.sub("", p.get("text", "") if isinstance(p, dict) else str(p))
        for p in people
    ]
    venue = info.get("venue") or []
    venues = [venue] if isinstance(venue, str) else list(venue)
    informal = info.get("type", "").startswith("Informal") or "CoRR" in venues
    year = str(info.get("year", ""))
    ee = info.get("ee")
    ee = ee[0] if isinstance(ee, list) and ee else ee
    arxiv_id = None
    if informal and isinstance(ee, str):
        m = re.search(r"arxiv\.org/abs/([^\s/]+?)(v\d+)?$", ee)
        arxiv_id = m.group(1) if m else None
    return Record(
        source="DBLP",
        title=_squash(info.get("title", "")).rstrip("."),
        authors=authors,
        year=int(year) if year.isdigit() else None,
        venue_names=["arXiv"] if informal else venues,
        kind="preprint"
        if informal
        else ("journal" if info.get("type", "").startswith("Journal") else "conference"),
        doi=None if informal else info.get("doi"),
        arxiv=arxiv_id,
        url=ee if isinstance(ee, str) else None,
        pages=_pages(info.get("pages")),
        volume=info.get("volume"),
        number=info.get("number"),
        record_url=info.get("url") if isinstance(info.get("url"), str) else None,
    )


def published_version(record: Record) -> Record | None:
    """The published (non-preprint) version of a paper on DBLP, matched by title."""
    best = None
    for hit in dblp_search(record.title):
        if hit.kind == "preprint" or not hit.year:
            continue
        score = titles.title_score(hit.title, record.title)  # 0 unless alike
        if score and (best is None or score > best[0]):
            best = (score, hit)
    return best[1] if best else None


def find_by_title(title: str, year: int | None = None) -> Record | None:
    """A DBLP record whose title matches (and year, within one, when known)."""
    for hit in dblp_search(title):
        if not titles.alike(hit.title, title):
            continue
        if year and hit.year and abs(hit.year - year) > 1:
            continue
        return hit
    return None


# ---------------------------------------------------------------- links


def doi_target(doi: str) -> str | None:
    """Where a DOI leads, from the DOI handle API (/api/handles/DOI); None when no such
    DOI is registered."""
    response = fetch(base_url("doi") + f"/api/handles/{doi}", "doi.org")
    data: Any = None
    if response.status_code in (200, 404):
        with contextlib.suppress(*_MALFORMED):
            data = response.json()
    code = data.get("responseCode") if isinstance(data, dict) else None
    if code == 100 or (response.status_code == 404 and code is None):
        return None
    if code != 1:
        raise FetchError(
            f"doi.org answered HTTP {response.status_code} for DOI {doi}; try again later"
        )
    for value in data.get("values") or []:
        if isinstance(value, dict) and value.get("type") == "URL":
            target = (value.get("data") or {}).get("value")
            kept, _ = kept_url(target)
            if kept:
                return kept
    return ""  # registered, but leads to no web page


# ---------------------------------------------------------------- to the catalog


def lookup_doi(doi: str) -> Record:
    """Metadata for a DOI: Crossref's, or arXiv's for an arXiv DOI (10.48550/arXiv.ID)."""
    ident = arxiv_doi(doi)
    return lookup_arxiv(ident) if ident else crossref(doi)


def lookup_arxiv(arxiv_id: str) -> Record:
    """Metadata for an arXiv id: the preprint, or its published version when DBLP knows it
    (keeping the arXiv id and the preprint's fuller author names)."""
    preprint = arxiv(arxiv_id)
    published = published_version(preprint)
    if published is None:
        return preprint
    published.arxiv = preprint.arxiv
    published.authors = preprint.authors or published.authors
    published.abstract = published.abstract or preprint.abstract
    published.source = "arXiv + DBLP"
    return published


def resolve_venue(record: Record, venues: dict[str, Venue]) -> str | None:
    """The registry's short name for a record's venue, or None when none fits."""
    from rapidfuzz import fuzz

    by_short = {v.casefold(): v for v in venues}
    # An acronym in brackets is the surest sign: '... Microarchitecture (MICRO)'.
    candidates = [
        m.group(1)
        for n in record.venue_names
        for m in re.finditer(r"\(([A-Za-z][\w\-]*)[\s'’\d]*\)", n)
    ]
    for name in [*record.venue_names, *candidates]:
        bare = _YEAR_AFTER_RE.sub("", name.strip()).strip()
        if bare.casefold() in by_short:
            return by_short[bare.casefold()]
    if record.kind == "preprint" and "arXiv" in venues:
        return "arXiv"
    full = {short: _venue_words(v.name) for short, v in venues.items()}
    for name in record.venue_names:
        words = _venue_words(name)
        if not words:
            continue
        for short, target in full.items():
            if fuzz.token_set_ratio(words, target) >= 95 and len(words.split()) >= 2:
                return short
    return None


def _venue_words(name: str) -> str:
    """A venue name without 'Proceedings of the', ordinals, years and acronyms in brackets."""
    text = normalize_title(_BRACKETED_RE.sub(" ", name))
    text = re.sub(r"\b(proceedings|proc|of|the|on|in|annual|\d+(st|nd|rd|th)|\d{4})\b", " ", text)
    return " ".join(text.split())


def _squash(text: str) -> str:
    return " ".join(text.split())


def _pages(pages: Any) -> str | None:
    if not pages:
        return None
    text = str(pages).replace("--", "-").replace("–", "-").strip()
    return text or None
