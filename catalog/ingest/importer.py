"""Adding papers: one by one (papers add) or from a .bib file or a Markdown list (papers import).

Every candidate is accounted for: added, merged into the paper it duplicates,
skipped as a duplicate, or refused with its reason and line. All additions of
one run go through a single writer session, so an import lands whole or not at
all.

A .bib entry keeps its own key when that is a valid catalog key not yet taken,
so a document citing the .bib still finds it; otherwise a key is made (and the
old one reported). A venue the .bib names that differs from a registry venue, or
from one proposed earlier in the same import, only in case, spacing or
punctuation is that venue, not a new one.

Markdown lists give a title, venue and year but mostly no authors, and the
catalog requires authors. A list entry therefore only merges into a paper the
catalog already has, or is refused as "needs metadata" — unless the list itself
gives a plain author line under it, or --fetch finds its authors on arXiv or
DBLP. Authors are never guessed.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalog.check import duplicates
from catalog.data.registry import Venue, resolve_name
from catalog.data.textfile import read_text
from catalog.edit import writer
from catalog.edit.session import Session
from catalog.errors import CatalogError, Problem
from catalog.hints import hint_for
from catalog.ingest.citekeys import suggest_key
from catalog.ingest.outcomes import Outcome, Report
from catalog.model import KEY_RE, Paper, fold
from catalog.paths import Paths

if TYPE_CHECKING:
    from catalog.ingest.listfields import Entry

Progress = Callable[[int, int], None]


class ImportInputError(CatalogError):
    """The input cannot be imported at all (nothing was written)."""


class Run:
    """One writer session that candidates are offered to, one at a time."""

    def __init__(
        self,
        session: Session,
        report: Report,
        *,
        merge: bool,
        new_venues: bool,
        tags: Iterable[str] = (),
    ):
        self.session = session
        self.report = report
        self.merge = merge
        self.new_venues = new_venues
        self.tags = list(tags)
        self.finder = duplicates.Finder.of(session.papers.values(), session.venues)
        self.today = dt.date.today().isoformat()
        self.added: list[Paper] = []  # papers added: they leave the inbox
        self._inbox: Any = None  # loaded on first use (under the catalog's lock)
        self._taken: set[str] | None = None  # the catalog's keys, folded, once needed
        self.renamed: dict[str, str] = {}  # a .bib's keys that had to change: old -> new
        for tag in self.tags:
            if tag not in session.vocabulary:
                hint = hint_for(tag, session.vocabulary)
                raise CatalogError(
                    f"unknown tag '{tag}'"
                    + (f" ({hint})" if hint else "")
                    + "; add it first with papers tag KEY -t TAG --new"
                )

    def offer(
        self,
        paper: Paper,
        line: int = 0,
        source_key: str | None = None,
        new_venue: Venue | None = None,
        key: str | None = None,
        missing: str = "",
        match: duplicates.Match | None = None,
    ) -> Outcome:
        """Add, merge, skip or refuse one candidate; the outcome goes in the report.

        key is a key asked for (refused if malformed or taken); without it, a .bib's own
        source_key is kept when valid and free, else a key is made. match is the paper
        it duplicates when the caller has already looked (lists look up by the ids of
        their links without recording them)."""
        outcome = self._decide(paper, line, source_key, new_venue, key, missing, match)
        if outcome.action == "added" and (late := _posted_later(paper)):
            self.report.warnings.append(Problem(self.report.file, line, outcome.key or "", late))
        outcome.venue = outcome.venue or paper.venue
        outcome.year = outcome.year or paper.year
        self.report.outcomes.append(outcome)
        return outcome

    def _decide(
        self,
        paper: Paper,
        line: int,
        source_key: str | None,
        new_venue: Venue | None,
        key: str | None,
        missing: str,
        match: duplicates.Match | None,
    ) -> Outcome:
        base: dict[str, Any] = {"title": paper.title, "line": line, "source_key": source_key}
        match = match or self.finder.find(paper)
        if match and match.sure:
            return self._duplicate(paper, match, base)
        outcome = self._add(paper, base, new_venue, key, missing)
        if match and outcome.action == "added":
            # A title alike, but neither year nor first author agrees: two papers, likely.
            outcome.reason = (
                f"possible duplicate of {match.paper.key} ('{match.paper.title}',"
                f" {match.paper.year}; title {match.score:.0f}% alike): if they "
                f"are different, add 'distinct: [{match.paper.key}]' to "
                f"{outcome.key}"
            )
        return outcome

    def _add(
        self,
        paper: Paper,
        base: dict[str, Any],
        new_venue: Venue | None,
        key: str | None,
        missing: str,
    ) -> Outcome:
        source_key = base["source_key"]
        reasons = []
        if missing:
            reasons.append(missing)
        elif not paper.authors:
            reasons.append("no authors; the catalog needs them and they are never guessed")
        venue_ok = paper.venue in self.session.venues
        if not venue_ok and new_venue is not None and self.new_venues:
            venue_ok = True
        if not venue_ok:
            reasons.append(self._venue_reason(paper.venue, new_venue))
        if not paper.year:
            reasons.append("no year")
        if reasons:
            return Outcome("refused", reason="; ".join(reasons), **base)
        if self._taken is None:  # keys are unique without regard to case
            self._taken = {k.casefold() for k in self.session.papers}
        taken = self._taken
        if key is not None:
            if not KEY_RE.match(key):
                return Outcome(
                    "refused",
                    reason=f"malformed key '{key}' (use ASCII letters, digits and "
                    "'-_:.+/', a letter first: first author, year, first title word)",
                    **base,
                )
            if key.casefold() in taken:
                return Outcome("refused", reason=f"key '{key}' is already used", **base)
        elif source_key and KEY_RE.match(source_key) and source_key.casefold() not in taken:
            key = source_key  # the .bib's own key: documents citing it keep working
        else:
            key = suggest_key(paper.authors, paper.year, paper.title, taken)
            if source_key:
                self.renamed[source_key] = key
        tags = list(dict.fromkeys([*paper.tags, *self.tags]))
        new = replace(paper, key=key, tags=tags, added=paper.added or self.today, line=0)
        added_venue = None
        if new.venue not in self.session.venues and new_venue is not None:
            added_venue = replace(new_venue, short=new.venue)
        problems = self._problems(new, added_venue)
        if problems:
            return Outcome("refused", reason="; ".join(problems), **base)
        if added_venue is not None:
            self.session.add_venue(added_venue)
            self.report.venues_added.append(added_venue)
        self.session.add(new)
        taken.add(key.casefold())
        self.finder.add(new)
        self.added.append(new)
        return Outcome("added", key=key, **base)

    def file_in_inbox(self, entry: Entry, venue: str, source: str, why: str) -> Outcome:
        """File a list entry that cannot be a paper yet in the inbox (deduplicated)."""
        from catalog.ingest import inbox

        if self._inbox is None:
            self._inbox = self.session.inbox
        # a list that gives only a system's name gives no title: the name is its nickname
        # (and its id, as before: re-importing files nothing new)
        title = entry.title or entry.nickname or ""
        candidate = inbox.Candidate(
            id=inbox.candidate_id(title, entry.year),
            title=entry.title or None,
            venue=venue or None,
            year=entry.year,
            authors=list(entry.authors) or ([entry.first_author] if entry.first_author else []),
            et_al=entry.et_al and bool(entry.authors),
            nickname=entry.nickname,
            url=entry.url,
            arxiv=entry.arxiv,
            doi=entry.doi,
            source=source,
        )
        why = why.removeprefix("needs metadata: ")
        if not entry.title:
            why = f"the list gives no title, only the name '{title}' and a link; {why}"
        if self._inbox.was_dropped(candidate):
            outcome = Outcome(
                "refused",
                title,
                entry.line,
                key=candidate.id,
                reason=f"dropped from the inbox earlier ({candidate.id}): not filed again; {why}",
            )
            outcome.venue, outcome.year = venue or None, entry.year
            self.report.outcomes.append(outcome)
            return outcome
        there = self._inbox.file_candidate(candidate)
        if there is not None and candidate.arxiv and self._inbox.other_title(candidate, there):
            reason = (
                f"its arXiv id {candidate.arxiv} is already in the inbox as {there.id} "
                f"('{there.label}', from {there.source}): one arXiv id is one paper, "
                "whichever title; check the list's link"
            )
            outcome = Outcome("duplicate", title, entry.line, key=there.id, reason=reason)
        elif there is not None:
            reason = f"already in the inbox as {there.id} (from {there.source}); {why}"
            outcome = Outcome("inbox", title, entry.line, key=there.id, reason=reason)
        else:
            verb = "would be filed" if self.report.dry_run else "filed"
            outcome = Outcome(
                "inbox",
                title,
                entry.line,
                key=candidate.id,
                reason=f"{verb} in the inbox as {candidate.id}: {why}",
            )
        outcome.venue, outcome.year = venue or None, entry.year
        self.report.outcomes.append(outcome)
        return outcome

    def _venue_reason(self, venue: str, new_venue: Venue | None) -> str:
        registry = self.session.paths.display(self.session.paths.venues)
        if new_venue is not None:  # it could have been added, but --no-new-venues
            return (
                f"venue '{venue}' ({new_venue.name}) is not in {registry} and "
                "--no-new-venues was given"
            )
        if not venue:
            return "no venue"
        hint = hint_for(venue, self.session.venues)
        return f"venue '{venue}' is not in {registry}" + (
            f" ({hint})" if hint else "; add it there, then import again"
        )

    def known_venue(self, proposed: Venue) -> str | None:
        """The venue a proposed one already is, in the registry or proposed earlier in this
        import: same short name or name but for case, spacing and punctuation."""
        wanted = {_venue_words(proposed.short), _venue_words(proposed.name)} - {""}
        for short, venue in self.session.venues.items():
            names = [short, venue.name, *(str(a) for a in venue.extra.get("aliases") or [])]
            if wanted & {_venue_words(n) for n in names}:
                return short
        # The same words in another order or spelling, or an ISO 4 abbreviation.
        found = resolve_name(proposed.name, self.session.venues)
        if found is not None:
            return found
        # 'IEEE International Conference on Data Mining' for a registry 'ICDM' that an
        # earlier import added by its acronym alone, or 'ITiCSE' for a venue added by name
        from catalog.bib.venuenames import acronym_of

        for short, venue in self.session.venues.items():
            bare = venue.name in ("", short)
            if (bare and acronym_of(proposed.name, short)) or (
                proposed.name in ("", proposed.short) and acronym_of(venue.name, proposed.short)
            ):
                return short
        return None

    def close_venue(self, proposed: Venue) -> str:
        """A note when a new venue's name is close to a registry venue's (maybe the same)."""
        from rapidfuzz import fuzz, process

        names = {v.name or s: s for s, v in self.session.venues.items()}
        best = process.extractOne(
            proposed.name, list(names), scorer=fuzz.token_set_ratio, score_cutoff=88
        )
        if best is None:
            return ""
        short = names[best[0]]
        return (
            f"new venue '{proposed.short}' ({proposed.name}) is close to '{short}' "
            f"({best[0]}) in the registry: if it is that venue, add this name to its aliases"
        )

    def _problems(self, paper: Paper, new_venue: Venue | None) -> list[str]:
        """The check rules a single new paper breaks (so one bad record is refused alone)."""
        from catalog.check.rules import check_papers

        venues = dict(self.session.venues)
        if new_venue is not None:
            venues[new_venue.short] = new_venue
        found = check_papers([paper], "", venues, self.session.vocabulary)
        return [f"{p.message}" + (f" ({p.hint})" if p.hint else "") for p in found]

    def _duplicate(self, paper: Paper, match: duplicates.Match, base: dict[str, Any]) -> Outcome:
        existing = self.session.paper(match.paper.key)
        if not self.merge:
            return Outcome(
                "duplicate",
                key=existing.key,
                reason=f"already in the catalog as {match.describe()}",
                **base,
            )
        plan = duplicates.plan_merge(existing, paper, self.session.venues)
        if plan.empty:
            return Outcome(
                "duplicate",
                key=existing.key,
                reason=f"already in the catalog as {match.describe()}; nothing new to merge",
                **base,
            )
        if plan.fields:
            self.session.update(existing.key, **plan.fields)
        if plan.move_to:
            self.session.move(existing.key, *plan.move_to)
        self.finder.add(self.session.paper(existing.key))
        return Outcome(
            "merged",
            key=existing.key,
            fields=list(plan.fields),
            reason=f"same paper as {match.describe()}: {plan.describe()}",
            **base,
        )


def _posted_later(paper: Paper) -> str:
    """A note when a paper's arXiv id is dated after its venue's year (posted later)."""
    from catalog.model import arxiv_year_month

    year_month = arxiv_year_month(paper.arxiv) if paper.arxiv else None
    if not year_month or year_month[0] <= paper.year:
        return ""
    return (
        f"arXiv id {paper.arxiv} is from {year_month[0]}, after the paper's year "
        f"{paper.year}: kept, as a paper posted to arXiv after its venue; check the year"
    )


def _venue_words(name: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", fold(name)))


def run_import(
    paths: Paths,
    name: str,
    dry_run: bool,
    merge: bool,
    new_venues: bool,
    tags: Iterable[str],
    body: Callable[[Run], None],
) -> Report:
    from catalog.ingest.inbox import inbox_path

    report = Report(name, dry_run=dry_run)
    with writer.edit(paths, dry_run=dry_run) as session:
        run = Run(session, report, merge=merge, new_venues=new_venues, tags=tags)
        body(run)
        # One session writes them all, in an order where each file agrees with the others:
        # the inbox's new candidates, the catalog, the key map's new keys, and last the
        # candidates that became papers leaving the inbox.
        if run.renamed:
            session.keymap.record(run.renamed)
        if run.added and inbox_path(paths).exists():
            report.promoted = [c.id for c in session.inbox.take(run.added)]
    report.renamed = dict(run.renamed)
    report.diff = session.result.diff
    report.warnings = [*report.warnings, *session.result.warnings]
    return report


# ---------------------------------------------------------------- BibTeX


def import_bib(
    paths: Paths,
    text: str,
    filename: str,
    *,
    merge: bool = False,
    new_venues: bool = True,
    dry_run: bool = False,
    tags: Iterable[str] = (),
    progress: Progress | None = None,
    only: Collection[int] | None = None,
) -> Report:
    """Import every entry of a .bib text that reads (only those starting on the lines
    `only` names, when given); one that cannot be read is refused alone, with its line
    and the fix, so a re-run after the fix adds just that one."""
    from catalog.bib.bibtex import read_bib
    from catalog.data.registry import load_venues

    # bibtexparser logs the entries it gives up on; each is refused here with its line.
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    records = read_bib(text, filename, load_venues(paths.venues))
    if only is not None:
        records = [r for r in records if r.line in only]
    # An entry that cannot be read (bad braces, a duplicate key, stray text) or that is
    # not a paper the catalog can take (no venue, no author) is refused alone, with its
    # line and reason; the others are imported.
    if not records:
        raise ImportInputError(
            f"{filename}: no BibTeX entries found (entries look like "
            "'@inproceedings{key, title = {...}, ...}')"
        )

    def body(run: Run) -> None:
        for done, record in enumerate(records, 1):
            if record.paper is None:
                reason = (
                    "; ".join(
                        p.message + (f" ({p.hint})" if p.hint else "") for p in record.problems
                    )
                    or "not a paper entry"
                )
                run.report.outcomes.append(
                    Outcome(
                        "refused",
                        record.fields.get("title", "") or record.key,
                        record.line,
                        source_key=record.key,
                        reason=reason,
                    )
                )
            else:
                paper, new_venue = record.paper, record.venue if record.new_venue else None
                # What reading left out (a javascript: url, a malformed DOI) is said; an
                # unknown venue is said as the venue added.
                run.report.warnings += [
                    p
                    for p in record.problems
                    if not p.blocking and not p.message.startswith("unknown venue")
                ]
                known = run.known_venue(new_venue) if new_venue is not None else None
                if known is not None:
                    paper, new_venue = replace(paper, venue=known), None
                elif new_venue is not None and (note := run.close_venue(new_venue)):
                    run.report.warnings.append(Problem(filename, record.line, "", note))
                run.offer(paper, record.line, record.key, new_venue)
            if progress:
                progress(done, len(records))

    return run_import(paths, filename, dry_run, merge, new_venues, tags, body)


# ---------------------------------------------------------------- one file, either kind


def import_file(
    paths: Paths,
    path: Path,
    *,
    merge: bool = False,
    new_venues: bool = True,
    fetch: bool = False,
    dry_run: bool = False,
    tags: Iterable[str] = (),
    progress: Progress | None = None,
    display: str | None = None,
    only: Collection[int] | None = None,
) -> Report:
    """Import a .bib or a Markdown list, chosen by the file's extension; with `only`, just
    the entries on those lines (`papers suggest --take`)."""
    name = display or str(path)
    text = read_text(path, name)
    suffix = path.suffix.lower()
    if suffix == ".bib":
        return import_bib(
            paths,
            text,
            name,
            merge=merge,
            new_venues=new_venues,
            dry_run=dry_run,
            tags=tags,
            progress=progress,
            only=only,
        )
    if suffix in (".md", ".markdown", ".txt", ".html", ".htm"):  # HTML as Markdown holds it
        from catalog.ingest.listimport import import_markdown

        return import_markdown(
            paths,
            text,
            name,
            merge=merge,
            fetch=fetch,
            dry_run=dry_run,
            tags=tags,
            progress=progress,
            only=only,
        )
    raise ImportInputError(
        f"{name}: import reads .bib files and lists in Markdown or HTML (.md, .txt, .html)"
    )


# ---------------------------------------------------------------- papers add


def known_by_id(
    paths: Paths, doi: str | None = None, arxiv: str | None = None
) -> duplicates.Match | None:
    """The catalog paper with this DOI or arXiv id, if any: asked before any network call,
    so adding a paper the catalog has needs no network."""
    from catalog.index import database, query

    finder = duplicates.Finder.of(query.all_papers(database.connect(paths)))
    probe = Paper(key="probe", title="", authors=[], year=0, venue="", doi=doi, arxiv=arxiv)
    return finder.find(probe)


def add_paper(
    paths: Paths,
    paper: Paper,
    *,
    key: str | None = None,
    merge: bool = False,
    dry_run: bool = False,
    new_venue: Venue | None = None,
) -> Report:
    """Add one paper; a duplicate is skipped (or merged), a bad one refused with its reason."""

    def body(run: Run) -> None:
        run.offer(paper, key=key, new_venue=new_venue)

    return run_import(paths, "add", dry_run, merge, new_venue is not None, (), body)
