"""Importing a Markdown list: each entry a paper of the catalog, a candidate in the
inbox, or a line that is not a paper, with its reason.

Markdown lists give a title, venue and year but mostly no authors, and the catalog
requires authors. A list entry therefore only merges into a paper the catalog already
has, or is filed in the inbox with every field the list gives, unless the list itself
gives its authors, or --fetch finds them on arXiv or DBLP. Authors are never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from catalog.check import duplicates, titles
from catalog.data.registry import Venue, resolve_name
from catalog.errors import Problem
from catalog.ingest.importer import ImportInputError, Progress, Run, run_import
from catalog.ingest.outcomes import Outcome, Report
from catalog.model import Paper
from catalog.paths import Paths

if TYPE_CHECKING:
    from catalog.ingest.listfields import Entry

# Venue names lists use for registry entries under another short name.
ALIASES = {
    "vldb": "PVLDB",
    "pvldb": "PVLDB",
    "corr": "arXiv",
    "arxiv": "arXiv",
    "neurips": "NeurIPS",
    "nips": "NeurIPS",
}
# Publishers that lists put before a venue's name ("ACM CSUR'23").
_ORG_PREFIX_RE = re.compile(r"^(?:ACM|IEEE|USENIX|SIAM)[\s/-]+", re.IGNORECASE)

# ---------------------------------------------------------------- Markdown lists


def resolve_list_venue(label: str, venues: dict[str, Venue]) -> str:
    """A list's venue label as a registry short name (case and aliases forgiven), or as it is."""
    by_fold = {v.casefold(): v for v in venues}
    folded = label.casefold()
    if folded in by_fold:
        return by_fold[folded]
    alias = ALIASES.get(folded)
    if alias and alias in venues:
        return alias
    bare = _ORG_PREFIX_RE.sub("", label)
    if bare != label and bare:
        found = resolve_list_venue(bare, venues)
        if found in venues:
            return found
    # 'Transactions on Machine Learning Research (TMLR)': the short name in parentheses
    short = _in_parentheses(label)
    if short:
        found = resolve_list_venue(short.strip(), venues)
        if found in venues:
            return found
    # 'SIGKDD', 'The Web Conference', 'Adv. Neural Inf. Process. Syst.': a registry alias,
    # full name or abbreviation of it
    return resolve_name(label, venues) or label


def _in_parentheses(label: str) -> str | None:
    """What the parentheses that end a label hold ('TMLR' of 'Transactions on ... (TMLR)'),
    when something stands before them and they hold no parenthesis. (Cut at the last '(',
    not matched by a pattern, which tried each split of a long label and took minutes.)"""
    head, _, inner = label.removesuffix(")").rpartition("(")
    if not label.endswith(")") or not inner or ")" in inner:
        return None
    words = head.rstrip() or head[:1]  # blanks may stand between, not a line break
    return inner if words and "\n" not in words else None


def import_markdown(
    paths: Paths,
    text: str,
    filename: str,
    *,
    merge: bool = False,
    fetch: bool = False,
    dry_run: bool = False,
    tags: Iterable[str] = (),
    progress: Progress | None = None,
) -> Report:
    """Import the papers of a Markdown list (awesome lists, the blog's year lists, tables)."""
    from catalog.data.registry import load_venues
    from catalog.ingest import lists

    # Registry venues let a '## RecSys' heading give the venue of the papers under it.
    parsed = lists.parse(text, load_venues(paths.venues))
    if not parsed.entries:
        raise ImportInputError(
            f"{filename}: no papers found in {len(parsed.skipped)} lines; "
            "entries look like '- [OSDI'23] [Title](url)', "
            "'* Title ([SOSP 2023](link))', 'Title (arXiv 2212.00939)' or "
            "'Title VENUE'YY' after a year"
        )

    def body(run: Run) -> None:
        run.report.skipped_lines = list(parsed.skipped)
        run.report.not_papers = list(parsed.not_papers)
        venues = run.session.venues
        for done, entry in enumerate(parsed.entries, 1):
            venue = resolve_list_venue(entry.venue, venues) if entry.venue else ""
            paper = Paper(
                key="",
                title=entry.title,
                authors=list(entry.authors),
                year=entry.year or 0,
                venue=venue,
                arxiv=entry.arxiv,
                url=entry.url,
                et_al=entry.et_al,
            )
            # The DOI of the entry's link finds the paper but is not recorded on it.
            match = run.finder.find(replace(paper, doi=entry.doi))
            wrong = _mislinked(entry, match)
            run.report.warnings += [
                Problem(filename, entry.line, "", note, "", False) for note in entry.notes
            ]
            if wrong:
                run.report.outcomes.append(
                    Outcome(
                        "refused",
                        entry.title,
                        entry.line,
                        reason=wrong,
                        venue=venue or None,
                        year=entry.year,
                    )
                )
            elif (match is None or not match.sure) and not (paper.authors and venue and paper.year):
                missing = _needs_metadata(entry)
                if fetch:
                    paper, missing = _fetch_authors(paper, venues)
                if paper.authors and paper.venue and paper.year:
                    run.offer(paper, entry.line, match=match)
                else:
                    run.file_in_inbox(entry, venue, f"{filename}:{entry.line}", missing)
            elif (match is None or not match.sure) and venue not in venues:
                # a whole entry but for a venue the registry lacks: kept, not refused
                registry = run.session.paths.display(run.session.paths.venues)
                why = f"venue '{venue}' is not in {registry}: add it there, then import again"
                run.file_in_inbox(entry, venue, f"{filename}:{entry.line}", why)
            else:
                run.offer(paper, entry.line, match=match)
            if progress:
                progress(done, len(parsed.entries))

    return run_import(paths, filename, dry_run, merge, False, tags, body)


def _needs_metadata(entry: Entry) -> str:
    lacks = [
        *(["authors"] if not entry.authors else []),
        *(["venue"] if not entry.venue else []),
        *(["year"] if not entry.year else []),
    ]
    what = ", ".join(lacks[:-1]) + " or " + lacks[-1] if len(lacks) > 1 else lacks[0]
    return (
        f"needs metadata: the list gives no {what} (rerun with --fetch, or add it "
        "with papers add --arxiv/--doi/--bibtex)"
    )


def _mislinked(entry: Entry, match: duplicates.Match | None) -> str:
    """Why an entry's link points at another paper of the catalog, or '' if it does not.
    The same id under a title alike enough (a paper retitled between versions) is the
    same paper; one under a wholly other title is the list's mistake."""
    if (
        match is None
        or match.by == "title"
        or not entry.title
        or duplicates.same_paper_title(entry.title, match.paper)
        or _retitled(entry.title, match.paper.title)
    ):
        return ""
    ident = entry.doi if match.by == "DOI" else entry.arxiv
    return (
        f"its link's {match.by} {ident} is {match.paper.key} in the catalog "
        f"('{match.paper.title}'), not this title: check the list's link"
    )


def _retitled(title: str, other: str) -> bool:
    """Two titles of one paper's versions: the same system name before a colon, or most
    of the words of one in the other."""
    from rapidfuzz import fuzz

    from catalog.model import normalize_title

    name, other_name = (t.split(":", 1)[0].strip().casefold() for t in (title, other))
    if ":" in title and ":" in other and name == other_name:
        return True
    return fuzz.token_set_ratio(normalize_title(title), normalize_title(other)) >= 70


def _fetch_authors(paper: Paper, venues: dict[str, Venue]) -> tuple[Paper, str]:
    """The paper with authors (and DOI) from arXiv or DBLP, or a reason why not."""
    from catalog.ingest import services
    from catalog.ingest.webclient import FetchError

    try:
        if paper.arxiv:
            record: services.Record | None = services.lookup_arxiv(paper.arxiv)
        else:
            record = services.find_by_title(paper.title, paper.year or None)
    except FetchError as err:  # offline, or the service failed: the inbox keeps it
        return paper, f"needs metadata: {err}"
    if record is None or not record.authors:
        return paper, "needs metadata: no matching record on arXiv or DBLP"
    if not paper.title and not paper.arxiv:
        return paper, "needs metadata: the list gives no title to look up"
    if paper.title and not (
        titles.alike(record.title, paper.title)
        or (paper.arxiv and _retitled(paper.title, record.title))
    ):
        return paper, (
            f"needs metadata: {record.source} knows {paper.arxiv or 'it'} as "
            f"'{record.title}', not this title"
        )
    doi = record.doi if record.kind != "preprint" else None
    venue, year = paper.venue, paper.year or record.year or 0
    if not venue:  # a list entry with no venue: the record's, with its year, if registered
        venue = services.resolve_venue(record, venues) or ""
        year = (record.year or year) if venue else year
    return replace(
        paper,
        title=paper.title or record.title,
        authors=list(record.authors),
        doi=paper.doi or doi,
        pages=paper.pages or record.pages,
        year=year,
        venue=venue,
    ), ""
