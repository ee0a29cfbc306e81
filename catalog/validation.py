"""Whether a write session's new texts may be written: `papers check`'s rules, on what
the edit changed only.

A one-paper edit of a 10k-paper catalog re-reads the year blocks it changed, checks the
papers whose fields differ, and compares them with the papers that could duplicate them;
papers of untouched years are the ones the session read (their lines only moved).
An edit is refused when it adds a problem the catalog did not have; a near-duplicate
title is only a warning (two papers may share a title). All of it runs inside the
writer's commit, which holds the cyclic collector paused (catalog.gcpause).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from catalog import quickread, source
from catalog.errors import CatalogError, InvalidCatalogError, Problem
from catalog.model import Paper
from catalog.paths import Paths
from catalog.snapshot import Brief, Snapshot
from catalog.venues import Venue

# A near-duplicate title is a warning on write: two papers may share a title.
NEAR_DUPLICATE_MESSAGE = "title nearly the same as"


class InvalidEditError(CatalogError):
    """The edit would leave the catalog invalid; nothing was written."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"refused: the edit would make the catalog invalid "
                         f"(nothing was written):\n{lines}")


@dataclass
class _Reading:
    """A new catalog text as validation reads it: papers of the year blocks it re-read
    (fresh), papers kept from before with how far each year's lines moved, problems."""

    fresh: list[Paper] = field(default_factory=list)
    kept: list[Brief] = field(default_factory=list)
    shifts: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


# The fields check's cross-paper rules read (duplicate DOIs, arXiv ids, alike titles and
# what tells two alike papers apart): an edit that keeps them needs no comparison with
# the other papers.
IDENTITY = ("key", "title", "authors", "year", "venue", "doi", "arxiv", "distinct")


@dataclass
class Placed:
    """New lines of one paper and the line of the new file where they start."""

    key: str
    year: int
    venue: str
    line: int
    lines: list[str]


class EditCheck:
    """The catalog as a session found it, to judge the texts the session would write."""

    def __init__(self, paths: Paths, text: Callable[[], str], snapshot: Snapshot,
                 venues_before: dict[str, Venue], vocab_before: dict[str, str]):
        self.paths = paths
        self.filename = paths.display()
        self._text = text
        self.snapshot = snapshot
        self.venues_before = venues_before
        self.vocab_before = vocab_before

    @property
    def text(self) -> str:
        return self._text()

    def check(self, texts: dict[Path, str], venues: dict[str, Venue],
              vocabulary: dict[str, str]) -> list[Problem]:
        """Refuse new texts that add problems (InvalidEditError); return the warnings they
        add. venues and vocabulary are the registries as the session left them."""
        new_text = texts.get(self.paths.catalog)
        read = self._parse(new_text) if new_text is not None else _Reading()
        blocking = [p for p in read.problems if p.blocking]
        if blocking:
            raise InvalidEditError(blocking)
        venues, vocabulary = self._registries(texts, venues, vocabulary)
        # Only papers the edit changed can gain problems: run the check rules on them, and
        # compare them with the others by DOI, arXiv id and title (check's duplicate rules),
        # so an edit costs little even when the catalog holds 10k papers. Papers in year
        # blocks the edit did not touch are the ones read before (only their lines moved).
        before = {p.key: p for p in self.snapshot.full(p.key for p in read.fresh)}
        changed, fields = _differences(read.fresh, before)
        keys = {p.key for p in changed}

        def others() -> list[Paper | Brief]:
            rest: list[Paper | Brief] = [b for b in read.kept if b.key not in keys]
            return rest + [p for p in read.fresh if p.key not in keys]

        def line(paper: Paper | Brief) -> int:
            return paper.line + read.shifts.get(str(paper.year), 0)

        return self._judge(changed, fields, before, others, venues, vocabulary, line)

    def check_placed(self, placed: list[Placed], papers: list[Paper], texts: dict[Path, str],
                     venues: dict[str, Venue], vocabulary: dict[str, str],
                     line: Callable[[int], int], made: list[Paper] | None = None
                     ) -> list[Problem]:
        """check() for papers rewritten in place: papers are what placed reads back as
        (read_placed); line maps a line of the old file to the new one. made: the papers
        the session made, which the caller found equal to papers but for their lines
        (they share their unchanged values with the papers before: compared by `is`)."""
        venues, vocabulary = self._registries(texts, venues, vocabulary)
        before = {p.key: p for p in self.snapshot.full(p.key for p in papers)}
        changed, fields = _differences(papers if made is None else made, before)
        if made is not None:  # the papers as read back (their lines) are the ones judged
            read = {p.key: p for p in papers}
            changed = [read[p.key] for p in changed]
        keys = {p.key for p in changed}

        def others() -> list[Paper | Brief]:
            return [b for b in self.snapshot.briefs() if b.key not in keys]

        return self._judge(changed, fields, before, others, venues, vocabulary,
                           lambda paper: line(paper.line))

    def _registries(self, texts: dict[Path, str], venues: dict[str, Venue],
                    vocabulary: dict[str, str]) -> tuple[dict[str, Venue], dict[str, str]]:
        """The registries as the new texts read (as check will read them)."""
        from catalog.venues import load_tags, load_venues

        registries = {self.paths.venues: load_venues, self.paths.tags: load_tags}
        for path, loader in registries.items():
            if path in texts:  # read the new registry back as check will
                with tempfile.TemporaryDirectory() as folder:
                    tmp = Path(folder) / path.name
                    tmp.write_text(texts[path], encoding="utf-8")
                    try:
                        loaded = loader(tmp)
                    except InvalidCatalogError as err:
                        shown = self.paths.display(path)
                        raise InvalidEditError([replace(p, file=shown)
                                                for p in err.problems]) from None
                if path == self.paths.venues:
                    venues = loaded  # type: ignore[assignment]
                else:
                    vocabulary = loaded  # type: ignore[assignment]
        return venues, vocabulary

    def _judge(self, changed: list[Paper], fields: set[str], before: dict[str, Paper],
               others: Callable[[], list[Paper | Brief]], venues: dict[str, Venue],
               vocabulary: dict[str, str], line: Callable[[Paper | Brief], int]
               ) -> list[Problem]:
        """Refuse the changed papers if they add problems check would report; return the
        warnings they add. fields: those in which they differ (_differences); others: the
        rest of the catalog (asked for only when a changed paper's identity changed);
        line: where a paper of the old file now stands."""
        from catalog.check import paper_problems

        if not changed:
            return []
        keys = {p.key for p in changed}
        olds = [before[k] for k in keys if k in before]
        if len(olds) == len(changed) and fields.isdisjoint(IDENTITY):
            # The cross-paper rules read only these fields: their findings are the same
            # before and after, and the rules of one paper at a time decide; only those
            # that read a field that changed (or a registry that did) can find more.
            fields = self.rule_fields(fields, venues, vocabulary)
            found = paper_problems(changed, self.filename, venues, vocabulary, fields)
            if not found:
                return []
            flagged = {_fingerprint(p)[0] for p in found}  # only their old findings count
            old = paper_problems([p for p in olds if p.key in flagged], self.filename,
                                 self.venues_before, self.vocab_before, fields)
        else:
            rest = others()
            found = self._findings(changed, rest, venues, vocabulary, line)
            if not found:
                return []
            old = self._findings(olds, rest, self.venues_before, self.vocab_before, line)
        seen = {_fingerprint(p) for p in old}
        added = [p for p in found if _fingerprint(p) not in seen]
        refused = [p for p in added if not p.message.startswith(NEAR_DUPLICATE_MESSAGE)]
        if refused:
            raise InvalidEditError(refused)
        return added

    def rule_fields(self, fields: set[str], venues: dict[str, Venue],
                    vocabulary: dict[str, str]) -> set[str]:
        """The fields an edit changed with those that read a registry it changed (tags
        for the vocabulary, venue for venues): the rules reading none of them find what
        they found before."""
        out = set(fields)
        if vocabulary != self.vocab_before:
            out.add("tags")
        if venues != self.venues_before:
            out.add("venue")
        return out

    def _parse(self, text: str) -> _Reading:
        """The new text read as check reads it, re-reading only the year blocks that changed;
        the others' papers are the ones read before, whose lines moved by shifts[year]."""
        old_chunks, new_chunks = source.split_chunks(self.text), source.split_chunks(text)
        labels = [c.label for c in new_chunks or []]
        if (not old_chunks or not new_chunks or len(set(labels)) != len(labels)
                or len({c.label for c in old_chunks}) != len(old_chunks)):
            return self._parse_whole(text)
        old = {c.label: c for c in old_chunks}
        by_year: dict[str, list[Brief]] = {}
        for brief in self.snapshot.briefs():
            by_year.setdefault(str(brief.year), []).append(brief)
        reading = _Reading()
        for chunk in new_chunks:
            was = old.get(chunk.label)
            if was is not None and was.text == chunk.text and chunk.label in by_year:
                reading.kept.extend(by_year[chunk.label])
                reading.shifts[chunk.label] = chunk.start - was.start
                continue
            found, trouble = source.parse(chunk.text, self.filename, chunk.start - 1)
            reading.fresh.extend(found)
            reading.problems.extend(trouble)
        seen = {p.key for p in reading.kept}
        fresh_keys = [p.key for p in reading.fresh]
        if len(set(fresh_keys)) != len(fresh_keys) or seen.intersection(fresh_keys):
            return self._parse_whole(text)  # a duplicate key: reported as check reports it
        return reading

    def _parse_whole(self, text: str) -> _Reading:
        papers, problems = source.parse(text, self.filename)
        return _Reading(fresh=papers,
                        problems=problems + source.duplicate_keys(papers, self.filename))

    def _findings(self, changed: list[Paper], others: list[Paper | Brief],
                  venues: dict[str, Venue], vocabulary: dict[str, str],
                  moved: Callable[[Paper | Brief], int]) -> list[Problem]:
        """check's findings about the changed papers, among themselves and against the rest
        (whose lines are as read before, moved(paper) in the new file)."""
        from catalog import dedupe
        from catalog.check import check_papers

        def line(paper: Paper) -> int:
            return moved(paper) if paper.key not in keys else paper.line

        keys = {p.key for p in changed}

        found = check_papers(changed, self.filename, venues, vocabulary)
        candidates = _could_match(changed, others)
        full = {p.key: p for p in self.snapshot.full(
            c.key for c in candidates if not isinstance(c, Paper))}
        finder = dedupe.Finder.of(c if isinstance(c, Paper) else full[c.key]
                                  for c in candidates)
        for paper in changed:
            at = source.where(paper.year, paper.venue, paper.key)
            pairs = [("DOI", paper.doi, finder.by_doi.get(dedupe.norm_doi(paper.doi) or "")),
                     ("arXiv id", paper.arxiv,
                      finder.by_arxiv.get(dedupe.norm_arxiv(paper.arxiv) or ""))]
            for label, value, seen in pairs:
                if seen is not None:
                    found.append(Problem(self.filename, paper.line, at,
                                         f"duplicate {label} {value} (also {seen.key}, "
                                         f"line {line(seen)})",
                                         "one paper, one entry: merge them"))
            match = finder.find(replace(paper, doi=None, arxiv=None))
            if match is not None and match.by == "title":
                found.append(Problem(self.filename, paper.line, at,
                                     f"{NEAR_DUPLICATE_MESSAGE} {match.paper.key} "
                                     f"(line {line(match.paper)})",
                                     "if they are one paper, keep one entry and record the "
                                     "other's arXiv id"))
        return found


# A venue name YAML reads as the same plain string unquoted (every scalar is a string to
# the catalog's loader), as the line reader takes it.
_PLAIN_VENUE = re.compile(quickread.VENUE_NAME)


def read_placed(placed: list[Placed], filename: str) -> tuple[list[Paper], list[Problem]]:
    """The papers (and problems) the catalog's reader finds in new lines of papers: all
    read in one parse, each under its year and venue, then given the lines where they
    will stand in the file. placed must be in file order. The rules of YAML that decide
    what an entry's lines mean are local to its block, so a block reads here as it reads
    in the file (the writer checks the block is one: catalog.patches.Patch)."""
    import bisect
    import json

    out: list[str] = []
    starts: list[int] = []  # line of this text where each paper's lines start
    at = 1
    year: int | None = None
    venue: str | None = None
    # Venues written as the usual layout has them ('  OSDI:') where entries stand deeper,
    # so that the line reader (catalog.quickread) reads the text without a YAML tree;
    # else quoted and one space in, which any entry's indentation stands under.
    usual = all(item.lines and item.lines[0].startswith("  ") for item in placed)
    for item in placed:
        if item.year != year:
            out.append(f"{item.year}:\n")
            at, venue = at + 1, None
        if item.venue != venue:
            out.append(f"  {item.venue}:\n" if usual and _PLAIN_VENUE.fullmatch(item.venue)
                       else f" {json.dumps(item.venue, ensure_ascii=False)}:\n")
            at += 1
        starts.append(at)
        out.extend(item.lines)
        at += len(item.lines)
        year, venue = item.year, item.venue

    def moved(line: int) -> int:
        i = max(bisect.bisect_right(starts, line) - 1, 0)
        return line - starts[i] + placed[i].line if placed else line

    papers, problems = source.parse("".join(out), filename)
    for paper in papers:  # just read: no one else holds them (replace costs 5 us each)
        paper.line = moved(paper.line)
    return papers, [replace(p, line=moved(p.line)) for p in problems]


def _could_match(changed: list[Paper], others: list[Paper | Brief]) -> list[Paper | Brief]:
    """The others (in their order) that dedupe's Finder could match with a changed paper:
    those sharing a DOI or arXiv id, or whose title holds one of a changed title's bucket
    words. A superset by cheap substring tests, so the Finder, built over it, gives the
    same answers as over every paper without normalising 10k titles."""
    from catalog import dedupe
    from catalog.model import normalize_title

    ids = {i for p in changed for i in (dedupe.norm_doi(p.doi), dedupe.norm_arxiv(p.arxiv, p.doi))
           if i}
    words = {w for p in changed for w in dedupe.bucket_words(normalize_title(p.title))}
    out = []
    for other in others:
        title = other.title
        if not title.isascii() or any(w in title.lower() for w in words):
            out.append(other)  # a folded non-ASCII title may hold any word: always a candidate
            continue
        found = f"{other.doi or ''} {other.arxiv or ''}".lower()
        if any(i in found for i in ids):
            out.append(other)
    return out


def _fingerprint(problem: Problem) -> tuple[str, str]:
    """A problem by paper key and message without line numbers, to compare before and after
    an edit (a moved paper keeps its key)."""
    return problem.where.rsplit(" › ", 1)[-1], re.sub(r"line \d+", "line ?", problem.message)


def _differences(papers: list[Paper], before: dict[str, Paper]) -> tuple[list[Paper], set[str]]:
    """The papers that differ from the ones before (a new paper: in every field) other than
    in their line, and the fields in which any of them does; one pass over the fields (a
    field the edit did not touch is most often the same object: `is` decides)."""
    changed: list[Paper] = []
    fields: set[str] = set()
    for paper in papers:
        was = before.get(paper.key)
        if was is None:
            changed.append(paper)
            fields.update(vars(paper))
            continue
        old = vars(was)
        diff = [n for n, v in vars(paper).items()
                if v is not old[n] and v != old[n] and n != "line"]
        if diff:
            changed.append(paper)
            fields.update(diff)
    return changed, fields


def same_but_line(a: Paper, b: Paper) -> bool:
    """Equal papers, wherever they stand (dataclasses.replace costs a rename of 10k papers
    a tenth of a second)."""
    theirs = dict(vars(b))
    theirs["line"] = a.line
    return vars(a) == theirs
