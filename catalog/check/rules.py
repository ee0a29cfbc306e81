"""Lint rules over the catalog: every problem, each with its place."""

from __future__ import annotations

import dataclasses
import functools
import operator
import re
from collections.abc import Callable, Collection, Iterable

from catalog.check import duplicates, sources, titles
from catalog.data import reader, yamlfile
from catalog.data.records import Records, load_records
from catalog.data.registry import (
    Venue,
    is_preprint,
    load_tags,
    load_venues,
    registry_problems,
)
from catalog.errors import InvalidCatalogError, Problem
from catalog.hints import hint_for
from catalog.model import (
    ARXIV_CLASS_RE,
    ARXIV_NEW_RE,
    ARXIV_OLD_RE,
    CHAPTER_FIELDS,
    DOI_HINT,
    FIELDS,
    KEY_RE,
    MAX_KEY,
    MAX_TAG,
    MAX_TITLE,
    MULTILINE_FIELDS,
    PAGES_RE,
    Paper,
    arxiv_year_month,
    has_controls,
    is_date,
    is_http_url,
    named,
    normalize_title,
    read_doi,
)
from catalog.paths import Paths

Rule = Callable[[Paper], Iterable[tuple[str, str]]]
# The fields of the model's table that hold an http(s) link, and those that hold a date.
_LINKS = named("url")
_DATES = named("date")


def check(paths: Paths, require_sources: bool = False) -> list[Problem]:
    """Every problem in the catalog, its registries and its notes, sorted by place;
    require_sources also reports each paper that names no public record of its metadata."""
    return [Problem(*finding) for finding in findings(paths, require_sources)]


# A problem as the tuple of Problem's fields, in their order: a big catalog's findings
# hash, compare and sort as tuples, and their text is made only when printed.
Finding = tuple[str, int, str, str, str, bool]
_fields = operator.attrgetter(*(f.name for f in dataclasses.fields(Problem)))


def findings(paths: Paths, require_sources: bool = False) -> list[Finding]:
    """check()'s problems as Findings, in the same order (Problem's own)."""
    filename = paths.display()
    papers, read = reader.read(paths.catalog, filename)
    problems = list(map(_fields, read))
    try:
        venues = load_venues(paths.venues)
        vocabulary = load_tags(paths.tags)
    except InvalidCatalogError as err:
        return sorted(problems + list(map(_fields, err.problems)))
    problems += _papers_findings(papers, filename, venues, vocabulary)
    problems += _unknown_distinct(papers, filename)
    lines = yamlfile.load_mapping_with_lines(paths.venues)[1]
    problems += map(_fields, registry_problems(venues, paths.display(paths.venues), lines))
    problems += _records_findings(paths, papers, venues)
    problems += _venue_dois(paths, venues)
    problems += _author_aliases(paths, papers)
    if require_sources:
        problems += [
            (
                filename,
                p.line,
                reader.where(p.year, p.venue, p.key),
                "no metadata source",
                "add sources: [URL] naming the public record (DBLP, publisher, "
                "arXiv) its fields were checked against",
                False,
            )
            for p in papers
            if not p.sources
        ]
    if not any(p[-1] for p in problems):  # else every [[key]] would look unknown
        from catalog.data import notes, readingstate
        from catalog.ingest import keymap

        keys = {p.key for p in papers}
        problems += map(_fields, notes.check_links(paths, keys))
        problems += map(_fields, readingstate.problems(paths, keys))
        problems += map(_fields, keymap.problems(paths, keys.__contains__))
    # Each once (dict keeps their order, in which most already stand: a set's would make
    # the sort start from scratch), then in Problem's order.
    return sorted(dict.fromkeys(problems))


def _author_aliases(paths: Paths, papers: list[Paper]) -> list[Finding]:
    """authors.yaml's problems: those that keep it from being read, else those against
    the papers (catalog.check.people)."""
    from catalog.check import people
    from catalog.data import authors

    try:
        found = authors.load(paths.authors, paths.display(paths.authors))
    except InvalidCatalogError as err:
        return list(map(_fields, err.problems))
    return list(map(_fields, people.problems(found, papers, paths.display())))


def check_papers(
    papers: list[Paper], filename: str, venues: dict[str, Venue], vocabulary: dict[str, str]
) -> list[Problem]:
    """Findings that do not stop reading: per-paper rules and cross-paper duplicates."""
    return [Problem(*f) for f in _papers_findings(papers, filename, venues, vocabulary)]


def _papers_findings(
    papers: list[Paper], filename: str, venues: dict[str, Venue], vocabulary: dict[str, str]
) -> list[Finding]:
    """check_papers' problems as Findings (check() adds them to its own)."""
    out = _paper_findings(papers, filename, venues, vocabulary)
    out += map(_fields, _duplicates(papers, filename))
    out += _near_duplicate_findings(papers, filename)
    return out


def paper_problems(
    papers: list[Paper],
    filename: str,
    venues: dict[str, Venue],
    vocabulary: dict[str, str],
    fields: Collection[str] | None = None,
) -> list[Problem]:
    """The findings of the rules that look at one paper at a time; fields: only those
    that can come from these fields (an edit's judge asks for what it changed: a renamed
    tag need not scan every abstract for controls again)."""
    return [Problem(*f) for f in _paper_findings(papers, filename, venues, vocabulary, fields)]


# The fields each rule reads besides the registries (_text reads every field: its
# controls are looked for in the fields asked about, its links in url and sources).
_READS: dict[str, frozenset[str]] = {
    "venue": frozenset({"venue"}),
    "chapter": frozenset({"venue", *CHAPTER_FIELDS}),
    "tags": frozenset({"tags"}),
    "key": frozenset({"key"}),
    "text": frozenset(FIELDS),
    "authors": frozenset({"authors"}),
    "identifiers": frozenset({"doi", "arxiv", "arxiv_class", "pages", "year", "venue"}),
    "dates": frozenset(_DATES),
    "distinct": frozenset({"distinct", "key"}),
    "sources": frozenset({"sources", "doi", "arxiv"}),
}


def _paper_findings(
    papers: list[Paper],
    filename: str,
    venues: dict[str, Venue],
    vocabulary: dict[str, str],
    fields: Collection[str] | None = None,
) -> list[Finding]:
    names = FIELDS if fields is None else tuple(n for n in FIELDS if n in fields)
    links = fields is None or not {*_LINKS, "sources"}.isdisjoint(fields)
    every: dict[str, Rule] = {
        "venue": lambda p: _venue(p, venues),
        "chapter": lambda p: _chapter(p, venues),
        "tags": lambda p: _tags(p, vocabulary),
        "key": _key,
        "text": lambda p: _text(p, True, names, links),
        "authors": _unnamed_authors,
        "identifiers": lambda p: _identifiers(p, venues),
        "dates": _dates,
        "distinct": _distinct,
        "sources": _sources,
    }
    # (in this order: the order of a paper's findings)
    chosen_names = [n for n in every if fields is None or not _READS[n].isdisjoint(fields)]
    rules = [every[n] for n in chosen_names]
    out: list[Finding] = []
    for paper in papers:
        at = None  # its place, made for its first finding (most papers have none)
        for rule in rules:
            for msg, hint in rule(paper):
                if at is None:
                    at = reader.where(paper.year, paper.venue, paper.key)
                out.append((filename, paper.line, at, msg, hint, False))
    return out


def _venue(paper: Paper, venues: dict[str, Venue]) -> Iterable[tuple[str, str]]:
    if paper.venue not in venues:
        hint = hint_for(paper.venue, venues) or "add it to data/venues.yaml"
        yield f"unknown venue '{paper.venue}'", hint


def _chapter(paper: Paper, venues: dict[str, Venue]) -> Iterable[tuple[str, str]]:
    """A chapter (a paper under a 'collection' venue) names its book and its publisher; the
    book fields on any other paper would be dropped by the export, so they are errors too."""
    venue = venues.get(paper.venue)
    if venue is None:
        return
    if venue.kind == "collection":
        if not paper.booktitle:
            yield (
                "book chapter without booktitle",
                "add booktitle: the title of the book the chapter is in",
            )
        if not (paper.publisher or venue.publisher):
            yield (
                "book chapter without publisher",
                f"add the book's publisher in a publisher field, or give {venue.short} "
                "one in data/venues.yaml",
            )
        return
    given = [name for name in CHAPTER_FIELDS if getattr(paper, name)]
    if given:
        yield (
            f"{', '.join(given)} given, but {venue.short} is a {venue.kind}, not a book",
            "these fields are for book chapters: file the paper under a venue of kind "
            "collection (e.g. Chapter), or remove them",
        )


def _tags(paper: Paper, vocabulary: dict[str, str]) -> Iterable[tuple[str, str]]:
    for tag in paper.tags:
        if len(tag) > MAX_TAG:
            yield (
                f"tag longer than {MAX_TAG} characters: '{tag[:MAX_TAG]}...'",
                "name the tag in a few words",
            )
        elif tag not in vocabulary:
            hint = hint_for(tag, vocabulary) or "add it to data/tags.yaml or pick a known tag"
            yield f"unknown tag '{tag}'", hint


def _distinct(paper: Paper) -> Iterable[tuple[str, str]]:
    """distinct lists the keys of other papers this one is not (though alike)."""
    for other in paper.distinct:
        if other == paper.key:
            yield "distinct names the paper itself", "list the keys of other papers only"
        elif not KEY_RE.match(other):
            yield (
                f"distinct: '{other[:40]}' is not a citation key",
                "list the keys of papers in the catalog it is not",
            )


def _sources(paper: Paper) -> Iterable[tuple[str, str]]:
    """Source links naming another paper's arXiv id or DOI."""
    if paper.sources:
        yield from sources.contradictions(paper.sources, paper.arxiv, paper.doi)


def _records_findings(paths: Paths, papers: list[Paper], venues: dict[str, Venue]) -> list[Finding]:
    """The records registry's own problems, and each source of a paper or a venue that is
    no primary record (on no host the registry lists). check's alone: an edit is not
    refused for it, as the registry is reviewed apart from the catalog."""
    shown = paths.display(paths.records)
    try:
        records = load_records(paths.records, shown)
    except InvalidCatalogError as err:  # (no list to judge by: the sources wait for it)
        return [_fields(dataclasses.replace(p, blocking=False)) for p in err.problems]
    hint = sources.not_primary_hint(shown)
    filename = paths.display()
    unlisted = [
        (
            filename,
            paper.line,
            reader.where(paper.year, paper.venue, paper.key),
            message,
            hint,
            False,
        )
        for paper in papers
        for url in paper.sources
        if is_http_url(url) and (message := sources.unlisted(url, records))
    ]
    unlisted += _venue_sources(paths, venues, records, hint)
    if unlisted and not records.found:
        unlisted.append(
            (
                shown,
                0,
                "",
                "no records file, so no source is a known primary record",
                "copy data/records.yaml of the catalog shipped with papers (papers demo "
                "copies it), keep the hosts you trust and add your own",
                False,
            )
        )
    return list(map(_fields, records.problems)) + unlisted


def _venue_sources(
    paths: Paths, venues: dict[str, Venue], records: Records, hint: str
) -> list[Finding]:
    """Registry entries naming a source that is no primary record."""
    found = [
        (short, message, hint)
        for short, venue in venues.items()
        if isinstance(given := venue.extra.get("sources"), list)
        for url in given
        if isinstance(url, str) and is_http_url(url)
        if (message := sources.unlisted(url, records))
    ]
    return _on_venue_lines(paths, found)


def _venue_dois(paths: Paths, venues: dict[str, Venue]) -> list[Finding]:
    """Registry entries whose dois mark (read by the completeness report) is not true or
    false."""
    found = [
        (
            short,
            f"dois is not true or false: {str(venue.extra['dois'])[:40]!r}",
            "write dois: false for a venue whose papers get no DOI, or leave it out",
        )
        for short, venue in venues.items()
        if not isinstance(venue.extra.get("dois", False), bool)
    ]
    return _on_venue_lines(paths, found)


def _on_venue_lines(paths: Paths, found: list[tuple[str, str, str]]) -> list[Finding]:
    """(venue, message, hint) findings placed on their entries' lines in the registry."""
    if not found:
        return []
    lines = yamlfile.load_mapping_with_lines(paths.venues)[1]
    shown = paths.display(paths.venues)
    return [(shown, lines.get(short, 0), short, msg, why, False) for short, msg, why in found]


def _unknown_distinct(papers: list[Paper], filename: str) -> list[Finding]:
    """distinct naming a key no paper of the catalog has (the whole catalog decides)."""
    keys = {p.key for p in papers}
    return [
        (
            filename,
            p.line,
            reader.where(p.year, p.venue, p.key),
            f"distinct names no paper '{other}'",
            "list the keys of papers in the catalog",
            False,
        )
        for p in papers
        for other in p.distinct
        if other not in keys and KEY_RE.match(other)
    ]


def _key(paper: Paper) -> Iterable[tuple[str, str]]:
    if len(paper.key) > MAX_KEY:
        yield (
            f"key longer than {MAX_KEY} characters: '{paper.key[:MAX_KEY]}...'",
            "use first author, year and first title word",
        )
    elif not KEY_RE.match(paper.key):
        yield (
            f"malformed key '{paper.key}'",
            "use ASCII letters, digits and '-_:.+/', a letter first: "
            "first author, year, first title word",
        )


def _text(
    paper: Paper, scan: bool = True, names: tuple[str, ...] = FIELDS, links: bool = True
) -> Iterable[tuple[str, str]]:
    """Control characters (ESC, NUL, bidi overrides) in any field (of names), and
    non-http(s) links: they would reach a terminal, a note or a published page.
    (links=False: url and sources are not asked about.) A title too long to be one."""
    if scan:
        yield from _controls(paper, names)
    if "title" in names and len(paper.title) > MAX_TITLE:
        yield (
            f"title longer than {MAX_TITLE} characters",
            "give the paper's title alone (an abstract goes in abstract)",
        )
    if not links:
        return
    for name in _LINKS:
        link = getattr(paper, name)
        if link and not is_http_url(link):
            yield (
                f"{name} is not an http(s) link: {link[:60]!r}",
                "write it as https://...; other schemes are never linked",
            )
    for url in paper.sources:
        if not is_http_url(url):
            yield (
                f"source is not an http(s) link: {url[:60]!r}",
                "name the public record the metadata came from, as https://...",
            )


def _controls(paper: Paper, names: tuple[str, ...] = FIELDS) -> Iterable[tuple[str, str]]:
    for name in names:
        value = getattr(paper, name, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and has_controls(v, name in MULTILINE_FIELDS) for v in values):
            yield (
                f"control character in {name}",
                "remove it; fields are plain text, with newlines only in summary and abstract",
            )


_UNNAMED_RE = re.compile(r"^[{\s]*(?:others|et\.?[\s~]*al\.?|al\.?,\s*et)[}\s.]*\Z", re.IGNORECASE)


def names_no_one(author: str) -> bool:
    """'et al.' or 'others' written as an author (check refuses it: et_al says so)."""
    return _UNNAMED_RE.match(author) is not None


def _unnamed_authors(paper: Paper) -> Iterable[tuple[str, str]]:
    """'et al.', 'others' or a name without a letter written as an author."""
    for author in paper.authors:
        finding = _author_finding(author) if author.__class__ is str else _unnamed(author)
        if finding is not None:
            yield finding


@functools.lru_cache(maxsize=65536)
def _author_finding(author: str) -> tuple[str, str] | None:
    """_unnamed for a name, once per name (a catalog names most authors many times)."""
    return _unnamed(author)


def _unnamed(author: str) -> tuple[str, str] | None:
    if names_no_one(author):
        return (
            f"author '{author}' is not a person",
            "remove it and write et_al: true (more authors, not named)",
        )
    if not any(ch.isalpha() for ch in author):
        # arXiv's BibTeX for team papers once read '... and : and ...'
        return (f"author '{author}' has no letter, so names no one", "remove it")
    return None


def _identifiers(paper: Paper, venues: dict[str, Venue]) -> Iterable[tuple[str, str]]:
    if paper.doi and (bare := read_doi(paper.doi)) != paper.doi:
        yield (
            f"malformed DOI {paper.doi[:60]!r}",
            f"write the bare DOI: {bare}"
            if bare
            else f"write the bare DOI, e.g. 10.1145/3575693.3575718; {DOI_HINT}",
        )
    if paper.arxiv:
        if not (ARXIV_NEW_RE.match(paper.arxiv) or ARXIV_OLD_RE.match(paper.arxiv)):
            yield (
                f"malformed arXiv id '{paper.arxiv}'",
                'write the bare id in quotes, e.g. "2301.02959"',
            )
        else:
            year_month = arxiv_year_month(paper.arxiv)
            # A published paper is often posted to arXiv after its venue (issue 21); a
            # preprint cannot be older than its own id.
            if year_month and year_month[0] > paper.year and is_preprint(paper.venue, venues):
                yield (
                    f"arXiv id {paper.arxiv} is from {year_month[0]}, after the paper's "
                    f"year {paper.year}",
                    "check the year or the arXiv id",
                )
    if paper.arxiv_class and not ARXIV_CLASS_RE.match(paper.arxiv_class):
        yield (
            f"malformed arXiv category '{paper.arxiv_class}'",
            "write the primary category, e.g. cs.DC",
        )
    if paper.arxiv_class and not paper.arxiv:
        yield "arXiv category without an arXiv id", "add the arxiv id or remove arxiv_class"
    if paper.pages and not PAGES_RE.match(paper.pages):
        yield f"malformed pages '{paper.pages}'", "write a range like 281-294"


def _dates(paper: Paper) -> Iterable[tuple[str, str]]:
    for name in _DATES:
        value = getattr(paper, name)
        if value and not is_date(value):
            yield f"{name} '{value[:60]}' is not a date", "write YYYY-MM-DD"


def identities(paper: Paper) -> list[tuple[str, str, str]]:
    """(label, id as compared, id as written) of a paper's DOI and arXiv id (an arXiv
    DOI's too), compared as import compares them: 2103.13262v2 is 2103.13262, DOIs ignore
    case. check and an edit's check find duplicates by these."""
    out = []
    doi = duplicates.norm_doi(paper.doi)
    if doi:
        out.append(("DOI", doi, paper.doi or ""))
    arxiv = duplicates.norm_arxiv(paper.arxiv, paper.doi)
    if arxiv:
        out.append(("arXiv id", arxiv, paper.arxiv or paper.doi or ""))
    return out


def duplicate_id(
    filename: str, paper: Paper, label: str, written: str, seen: Paper, seen_line: int
) -> Problem:
    """The finding on a paper whose DOI or arXiv id another paper (seen) has."""
    return Problem(
        filename,
        paper.line,
        reader.where(paper.year, paper.venue, paper.key),
        f"duplicate {label} {written} (also {seen.key}, line {seen_line})",
        "one paper, one entry: merge them",
    )


def near_duplicate(filename: str, later: Paper, earlier: Paper, earlier_line: int) -> Problem:
    """The finding on a paper whose title is alike an earlier one's (which may be one paper)."""
    return Problem(*_near_finding(filename, later, earlier, earlier_line))


def _duplicates(papers: list[Paper], filename: str) -> list[Problem]:
    first: dict[tuple[str, str], Paper] = {}
    out = []
    for paper in papers:
        for label, ident, written in identities(paper):
            seen = first.setdefault((label, ident), paper)
            if seen is not paper:
                out.append(duplicate_id(filename, paper, label, written, seen, seen.line))
    return out


def _near_duplicate_findings(papers: list[Paper], filename: str) -> list[Finding]:
    """A finding on the later paper of each two whose titles are alike (titles.alike_pairs)
    and that may be one paper (duplicates.may_be_one)."""
    pairs = titles.alike_pairs([normalize_title(p.title) for p in papers])
    out: list[Finding] = []
    places: dict[int, str] = {}  # a paper with many look-alikes is placed once
    for a, b in pairs:
        later, earlier = papers[b], papers[a]
        if not duplicates.may_be_one(later, earlier):
            continue  # ids that differ, or reviewed as two papers (distinct: [KEY])
        at = places.get(b)
        if at is None:
            at = places[b] = reader.where(later.year, later.venue, later.key)
        out.append(_near_finding(filename, later, earlier, earlier.line, at))
    return out


def _near_finding(
    filename: str, later: Paper, earlier: Paper, earlier_line: int, at: str = ""
) -> Finding:
    return (
        filename,
        later.line,
        at or reader.where(later.year, later.venue, later.key),
        f"{titles.NEAR_DUPLICATE_MESSAGE} {earlier.key} (line {earlier_line})",
        "if they are one paper, keep one entry and record the other's "
        f"arXiv id; if not, add 'distinct: [{earlier.key}]' to {later.key}",
        False,
    )
