"""papers add: one paper from what the user gives, its DOI or arXiv id (fetched), or BibTeX.

What is still missing after the flags and the fetch is asked for through `ask` when the
command runs on a terminal; each answer is read by the same rules as the flags, and a
refused answer is asked again (a typo loses no other answer).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from catalog.errors import CatalogError, UsageError
from catalog.ingest.importer import Report, add_paper, import_bib, known_by_id
from catalog.model import DOI_HINT, Paper, read_doi
from catalog.paths import Paths

if TYPE_CHECKING:
    from catalog.data.registry import Venue
    from catalog.ingest.services import Record

T = TypeVar("T")
# Asks the user a question until `read` takes the answer (read raises CatalogError to refuse).
Ask = Callable[[str, Callable[[str], T]], T]
REQUIRED = ("title", "authors", "year", "venue")
DUPLICATE_HINT = "use --merge to fill the fields it lacks"


@dataclass
class Wanted:
    """The paper as the flags of papers add describe it."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv: str | None = None
    url: str | None = None
    tags: list[str] = field(default_factory=list)
    key: str | None = None


@dataclass
class Added:
    """What papers add did: the paper offered, the run's report, the fetch's notes."""

    paper: Paper
    report: Report
    notes: list[str] = field(default_factory=list)  # what the fetch left out, and why

    @property
    def refusal(self) -> str | None:
        """Why the paper was not added (a duplicate, refused), or None."""
        outcome = self.report.outcomes[0]
        if outcome.action == "duplicate":
            return f"not added: {outcome.reason} ({DUPLICATE_HINT})"
        if outcome.action == "refused":
            return f"not added: {outcome.reason}"
        return None


def add(
    paths: Paths,
    wanted: Wanted,
    *,
    merge: bool = False,
    dry_run: bool = False,
    ask: Ask[Any] | None = None,
) -> Added:
    """Add one paper: the flags' fields over what its DOI or arXiv id fetches, and what is
    still missing asked for (ask) or refused (UsageError)."""
    if wanted.year is not None and not 1000 <= wanted.year <= 9999:
        raise UsageError(
            f"--year {wanted.year} is not a year: write all four digits, e.g. --year 2023"
        )
    if wanted.doi:  # read as every door reads a DOI: 'https://doi.org/10.1/x' is 10.1/x
        bare = read_doi(wanted.doi)
        if bare is None:
            raise UsageError(
                f"--doi {wanted.doi[:60]!r} is not a DOI: write it as 10.1145/3575693.3575718 "
                f"or https://doi.org/10.1145/3575693.3575718 ({DOI_HINT})"
            )
        wanted = replace(wanted, doi=bare)
    fields = _given(wanted)
    fetched = _fetched(paths, wanted, merge) if _lacking(fields) else None
    if fetched is not None:
        fields = {**fetched.fields(), **fields}
        if "venue" not in fields:
            fields["venue"] = _fetched_venue(paths, fetched)
    if ask is not None:
        fields.update(_asked(paths, _lacking(fields), ask))
    if missing := _lacking(fields):
        flags = ", ".join("--author" if n == "authors" else f"--{n}" for n in missing)
        raise UsageError(
            f"missing {flags} (or give --doi / --arxiv to fetch them, or --bibtex FILE)"
        )
    paper = Paper(key="", tags=list(wanted.tags), **fields)
    report = add_paper(paths, paper, key=wanted.key, merge=merge, dry_run=dry_run)
    return Added(paper, report, fetched.notes if fetched else [])


def add_bibtex(
    paths: Paths, source: str, *, merge: bool = False, dry_run: bool = False, tags: list[str]
) -> Report:
    """Add the entries of a BibTeX file ('-': standard input), as papers import does."""
    if source == "-":
        text, name = sys.stdin.read(), "<stdin>"
    else:
        from catalog.data.textfile import read_text

        name = paths.display(Path(source))
        text = read_text(Path(source), name)
    return import_bib(paths, text, name, merge=merge, dry_run=dry_run, tags=tags)


def _given(wanted: Wanted) -> dict[str, Any]:
    """The catalog fields the flags give."""
    given = {
        "title": wanted.title,
        "authors": list(wanted.authors),
        "year": wanted.year,
        "venue": wanted.venue,
        "doi": wanted.doi,
        "arxiv": wanted.arxiv,
        "url": wanted.url,
    }
    return {name: value for name, value in given.items() if value}


def _lacking(fields: dict[str, Any]) -> list[str]:
    """The fields every paper needs that are not in fields."""
    return [name for name in REQUIRED if not fields.get(name)]


def _fetched(paths: Paths, wanted: Wanted, merge: bool) -> Record | None:
    """The record of the paper's DOI or arXiv id, or None when it gives neither. A paper the
    catalog has is refused before any network call (unless merging)."""
    if not (wanted.doi or wanted.arxiv):
        return None
    if not merge and (known := known_by_id(paths, wanted.doi, wanted.arxiv)) is not None:
        raise CatalogError(
            f"not added: already in the catalog as {known.describe()} ({DUPLICATE_HINT})"
        )
    from catalog.ingest import services

    if wanted.doi:
        return services.lookup_doi(wanted.doi)
    return services.lookup_arxiv(wanted.arxiv or "")


def _fetched_venue(paths: Paths, fetched: Record) -> str:
    """The registry's venue for the record's; CatalogError when none fits."""
    from catalog.data.registry import load_venues
    from catalog.ingest import services

    venue = services.resolve_venue(fetched, load_venues(paths.venues))
    if venue is None:
        names = "; ".join(fetched.venue_names) or "no venue"
        raise CatalogError(
            f"{fetched.source} names the venue '{names}', which is not in "
            f"{paths.display(paths.venues)}; pass --venue SHORT (add the venue to the "
            "registry first if needed)"
        )
    return venue


def _asked(paths: Paths, lacking: list[str], ask: Ask[Any]) -> dict[str, Any]:
    """The lacking fields, each asked for until its answer is taken."""
    from catalog.data.registry import load_venues

    venues = load_venues(paths.venues) if "venue" in lacking else {}
    questions: dict[str, tuple[str, Callable[[str], Any]]] = {
        "title": ("Title", read_title),
        "authors": ("Authors (separated by ';')", lambda text: split_authors([text])),
        "year": ("Year", read_year),
        "venue": ("Venue (short name, e.g. OSDI)", lambda text: read_venue(paths, venues, text)),
    }
    return {name: ask(*questions[name]) for name in lacking}


def read_title(text: str) -> str:
    """A title as typed; UsageError when it is empty."""
    if not text.strip():
        raise UsageError("a paper needs a title")
    return text.strip()


def read_year(text: str) -> int:
    """A year of four digits; UsageError otherwise."""
    if not re.fullmatch(r"\s*\d{4}\s*", text):
        raise UsageError(f"{text.strip()[:20]!r} is not a year: write all four digits, e.g. 2023")
    return int(text)


def read_venue(paths: Paths, venues: dict[str, Venue], text: str) -> str:
    """The registry's short name for a venue typed in any case; UsageError with the closest
    one otherwise."""
    from catalog.hints import did_you_mean

    by_fold = {short.casefold(): short for short in venues}
    answer = text.strip()
    if answer.casefold() in by_fold:
        return by_fold[answer.casefold()]
    hint = did_you_mean(answer, venues)
    raise UsageError(
        f"'{answer}' is not in {paths.display(paths.venues)}"
        + (f"; did you mean '{hint}'?" if hint else "")
    )


def split_authors(values: list[str]) -> list[str]:
    """Author names from --author values: each value one name, or several names joined
    by ';', ' and ', or ',' where every part is a whole name ('Jane Doe, John Roe').
    'Doe, Jane' (family, given) stays one name; anything else is refused."""
    names: list[str] = []
    for value in values:
        parts = [p.strip() for p in re.split(r";| and ", value) if p.strip()]
        for part in parts:
            names.extend(_comma_names(part))
    return names


def _comma_names(value: str) -> list[str]:
    """One name, or the names of a comma-separated list of whole names."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) == 1:
        return parts
    if all(" " in p for p in parts):
        return parts
    if len(parts) == 2 and all(p and " " not in p for p in parts):
        return [value.strip()]  # 'Doe, Jane': family name first, one person
    raise UsageError(
        f"--author {value[:80]!r}: cannot tell the names apart; give one --author per "
        "name ('-a \"Jane Doe\" -a \"John Roe\"') or separate them with ';'"
    )
