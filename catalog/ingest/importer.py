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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalog.check import duplicates
from catalog.data.registry import Venue, resolve_name
from catalog.data.textfile import read_text
from catalog.edit import writer
from catalog.errors import CatalogError, Problem
from catalog.hints import hint_for
from catalog.ingest.citekeys import suggest_key
from catalog.model import KEY_RE, Paper, fold
from catalog.paths import Paths

if TYPE_CHECKING:
    from catalog.ingest.listfields import Entry, NotPaper

ACTIONS: tuple[str, ...] = ("added", "merged", "duplicate", "inbox", "refused")
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

Progress = Callable[[int, int], None]


class ImportInputError(CatalogError):
    """The input cannot be imported at all (nothing was written)."""


@dataclass
class Outcome:
    """What happened to one record or list entry."""

    action: str  # one of ACTIONS
    title: str
    line: int = 0
    key: str | None = None  # the new key, or the catalog paper it duplicates
    source_key: str | None = None  # the entry's own key in a .bib
    reason: str = ""
    fields: list[str] = field(default_factory=list)  # fields a merge filled
    venue: str | None = None
    year: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Report:
    """The outcome of an add or import run."""

    file: str
    outcomes: list[Outcome] = field(default_factory=list)
    venues_added: list[Venue] = field(default_factory=list)
    skipped_lines: list[int] = field(default_factory=list)  # list lines that are not papers
    not_papers: list[NotPaper] = field(default_factory=list)  # those lines, each with its reason
    dry_run: bool = False
    diff: str = ""
    warnings: list[Problem] = field(default_factory=list)
    promoted: list[str] = field(default_factory=list)  # inbox candidates now in the catalog

    def count(self, action: str) -> int:
        return sum(o.action == action for o in self.outcomes)

    @property
    def counts(self) -> dict[str, int]:
        return {a: self.count(a) for a in ACTIONS}

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "dry_run": self.dry_run,
            **self.counts,
            "skipped_lines": len(self.skipped_lines),
            "not_papers": [n.to_dict() for n in self.not_papers],
            "venues_added": [v.to_dict() for v in self.venues_added],
            "outcomes": [o.to_dict() for o in self.outcomes],
            "promoted_from_inbox": list(self.promoted),
            "warnings": [str(w) for w in self.warnings],
        }

    def summary(self) -> str:
        """One line: what was added, merged, skipped and refused."""
        c = self.counts
        verb = "would add" if self.dry_run else "added"
        parts = [
            f"{verb} {c['added']}",
            f"merged {c['merged']}",
            f"skipped {c['duplicate']} duplicate{'s' * (c['duplicate'] != 1)}",
            *(
                [f"{'would file' if self.dry_run else 'filed'} {c['inbox']} in the inbox"]
                if c["inbox"]
                else []
            ),
            f"refused {c['refused']}",
        ]
        text = f"{self.file}: " + ", ".join(parts)
        if self.skipped_lines:
            n = len(self.skipped_lines)
            text += f"; {n} line{'s' * (n != 1)} not papers"
        return text


class _Run:
    """One writer session that candidates are offered to, one at a time."""

    def __init__(
        self,
        session: writer.Session,
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
        self.finder = duplicates.Finder.of(session.papers.values())
        self.today = dt.date.today().isoformat()
        self.added: list[Paper] = []  # papers added: they leave the inbox
        self._inbox: Any = None  # loaded on first use (under the catalog's lock)
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
        taken = self.session.papers.keys()
        if key is not None:
            if not KEY_RE.match(key):
                return Outcome(
                    "refused",
                    reason=f"malformed key '{key}' (use lower-case "
                    "ASCII: first author, year, first title word)",
                    **base,
                )
            if key in taken:
                return Outcome("refused", reason=f"key '{key}' is already used", **base)
        elif source_key and KEY_RE.match(source_key) and source_key not in taken:
            key = source_key  # the .bib's own key: documents citing it keep working
        else:
            key = suggest_key(paper.authors, paper.year, paper.title, taken)
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
        self.finder.add(new)
        self.added.append(new)
        return Outcome("added", key=key, **base)

    def file_in_inbox(self, entry: Entry, venue: str, source: str, why: str) -> Outcome:
        """File a list entry that cannot be a paper yet in the inbox (deduplicated)."""
        from catalog.ingest import inbox

        if self._inbox is None:
            self._inbox = inbox.Inbox(self.session.paths)
        title = entry.title or entry.nickname or ""
        candidate = inbox.Candidate(
            id=inbox.candidate_id(title, entry.year),
            title=title,
            venue=venue or None,
            year=entry.year,
            authors=list(entry.authors) or ([entry.first_author] if entry.first_author else []),
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
        there = self._inbox.file(candidate)
        if there is not None:
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

    def save_inbox(self, dry_run: bool) -> None:
        """Write the inbox's new candidates (the caller holds the catalog's lock)."""
        if self._inbox is not None and not dry_run:
            self._inbox.save()

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
        return resolve_name(proposed.name, self.session.venues)

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


def _run(
    paths: Paths,
    name: str,
    dry_run: bool,
    merge: bool,
    new_venues: bool,
    tags: Iterable[str],
    body: Callable[[_Run], None],
) -> Report:
    from catalog.ingest import inbox

    report = Report(name, dry_run=dry_run)
    with writer.edit(paths, dry_run=dry_run) as session:
        run = _Run(session, report, merge=merge, new_venues=new_venues, tags=tags)
        body(run)
        # Filing is harmless if the catalog's write then fails: nothing is lost.
        run.save_inbox(dry_run)
    if not dry_run:  # only once the papers are in the catalog do they leave the inbox
        report.promoted = [c.id for c in inbox.promote_done(paths, run.added)]
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
    skip_broken: bool = False,
) -> Report:
    """Import every entry of a .bib text. An entry that cannot be read stops the whole
    import (nothing written) unless skip_broken, which refuses it alone."""
    from catalog.bib.bibtex import read_bib
    from catalog.data.registry import load_venues

    # bibtexparser logs the entries it gives up on; each is refused here with its line.
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    records = read_bib(text, filename, load_venues(paths.venues))
    # An entry that cannot be read (bad braces, a duplicate key, stray text) or that is
    # not a paper the catalog can take (no venue, no author) is refused alone, with its
    # line and reason; the others are imported.
    if not records:
        raise ImportInputError(
            f"{filename}: no BibTeX entries found (entries look like "
            "'@inproceedings{key, title = {...}, ...}')"
        )
    broken = [problem for r in records if r.unreadable for problem in r.problems]
    if broken and not skip_broken:
        raise ImportInputError(
            "\n".join(str(p) for p in broken) + f"\n{filename}: {len(broken)} "
            f"entr{'y' if len(broken) == 1 else 'ies'} cannot be read, so nothing was "
            "imported; fix them, or pass --skip-broken to import the rest"
        )

    def body(run: _Run) -> None:
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
                run.offer(paper, record.line, record.key, new_venue)
            if progress:
                progress(done, len(records))

    return _run(paths, filename, dry_run, merge, new_venues, tags, body)


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
    paren = re.fullmatch(r"(.+?)\s*\(([^()]+)\)", label)
    if paren:
        found = resolve_list_venue(paren.group(2).strip(), venues)
        if found in venues:
            return found
    # 'SIGKDD', 'The Web Conference', 'Adv. Neural Inf. Process. Syst.': a registry alias,
    # full name or abbreviation of it
    return resolve_name(label, venues) or label


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

    def body(run: _Run) -> None:
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
            else:
                run.offer(paper, entry.line, match=match)
            if progress:
                progress(done, len(parsed.entries))

    return _run(paths, filename, dry_run, merge, False, tags, body)


def _needs_metadata(entry: Entry) -> str:
    lacks = [
        *(["title"] if not entry.title else []),
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

    try:
        if paper.arxiv:
            record: services.Record | None = services.lookup_arxiv(paper.arxiv)
        else:
            record = services.find_by_title(paper.title, paper.year or None)
    except services.FetchError as err:  # offline, or the service failed: the inbox keeps it
        return paper, f"needs metadata: {err}"
    if record is None or not record.authors:
        return paper, "needs metadata: no matching record on arXiv or DBLP"
    if not paper.title and not paper.arxiv:
        return paper, "needs metadata: the list gives no title to look up"
    if paper.title and not (
        services.same_title(record.title, paper.title) >= services.SAME_TITLE
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
    skip_broken: bool = False,
) -> Report:
    """Import a .bib or a Markdown list, chosen by the file's extension."""
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
            skip_broken=skip_broken,
        )
    if suffix in (".md", ".markdown", ".txt"):
        return import_markdown(
            paths,
            text,
            name,
            merge=merge,
            fetch=fetch,
            dry_run=dry_run,
            tags=tags,
            progress=progress,
        )
    raise ImportInputError(f"{name}: import reads .bib files and Markdown lists (.md, .txt)")


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

    def body(run: _Run) -> None:
        run.offer(paper, key=key, new_venue=new_venue)

    return _run(paths, "add", dry_run, merge, new_venue is not None, (), body)
