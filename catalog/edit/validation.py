"""Whether a write session's new texts may be written: `papers check`'s rules, on what
the edit changed only.

An edit reads again the papers it rendered and the year blocks whose structure it
changed (catalog.edit.rewrite), checks the papers whose fields differ, and compares them
with the papers that could duplicate them; every other paper is the one the session read
(its lines only moved). An edit is refused when it adds a problem the catalog did not
have; a near-duplicate title is only a warning (two papers may share a title).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

# A near-duplicate title is a warning on write: two papers may share a title.
from catalog.check.titles import NEAR_DUPLICATE_MESSAGE
from catalog.data import reader
from catalog.data.registry import Venue
from catalog.edit.rewrite import Rewrite
from catalog.edit.snapshot import Brief, Snapshot
from catalog.errors import CatalogError, InvalidCatalogError, Problem
from catalog.model import Paper
from catalog.paths import Paths


class InvalidEditError(CatalogError):
    """The edit would leave the catalog invalid; nothing was written."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(
            f"refused: the edit would make the catalog invalid (nothing was written):\n{lines}"
        )


@dataclass
class _Reading:
    """A new catalog as validation reads it: the papers read again (fresh), the keys of
    the papers read before that they replace (or that are gone), the problems found."""

    fresh: list[Paper] = field(default_factory=list)
    replaced: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)


# The fields check's cross-paper rules read (duplicate DOIs, arXiv ids, alike titles and
# what tells two alike papers apart): an edit that keeps them needs no comparison with
# the other papers.
IDENTITY = ("key", "title", "authors", "year", "venue", "doi", "arxiv", "distinct")


class EditCheck:
    """The catalog as a session found it, to judge the texts the session would write."""

    def __init__(
        self,
        paths: Paths,
        snapshot: Snapshot,
        whole_text: Callable[[Rewrite], str],
        venues_before: dict[str, Venue],
        vocab_before: dict[str, str],
    ):
        self.paths = paths
        self.filename = paths.display()
        self.snapshot = snapshot
        self.whole_text = whole_text  # a new catalog as one text (to report a duplicate key)
        self.venues_before = venues_before
        self.vocab_before = vocab_before

    def check(
        self,
        catalog: Rewrite | None,
        texts: dict[Path, str],
        venues: dict[str, Venue],
        vocabulary: dict[str, str],
    ) -> list[Problem]:
        """Refuse a new catalog and registry texts that add problems (InvalidEditError);
        return the warnings they add. venues and vocabulary are the registries as the
        session left them."""
        read = self._read(catalog) if catalog is not None else _Reading()
        blocking = [p for p in read.problems if p.blocking]
        if blocking:
            raise InvalidEditError(blocking)
        venues, vocabulary = self._registries(texts, venues, vocabulary)
        # Only papers the edit changed can gain problems: run the check rules on them, and
        # compare them with the others by DOI, arXiv id and title (check's duplicate rules),
        # so an edit costs little even in a big catalog. Papers the edit did not read
        # again are the ones read before (only their lines moved).
        before = {p.key: p for p in self.snapshot.full(p.key for p in read.fresh)}
        changed, fields = _differences(read.fresh, before)
        keys = {p.key for p in changed}
        fresh = {p.key for p in read.fresh}

        def others() -> list[Paper | Brief]:
            rest: list[Paper | Brief] = [
                b
                for b in self.snapshot.briefs()
                if b.key not in read.replaced and b.key not in keys
            ]
            return rest + [p for p in read.fresh if p.key not in keys]

        def line(paper: Paper | Brief) -> int:
            if paper.key in fresh or catalog is None:
                return paper.line
            return catalog.moved(str(paper.year), paper.line)

        return self._judge(changed, fields, before, others, venues, vocabulary, line)

    def _registries(
        self, texts: dict[Path, str], venues: dict[str, Venue], vocabulary: dict[str, str]
    ) -> tuple[dict[str, Venue], dict[str, str]]:
        """The registries as the new texts read (as check will read them)."""
        from catalog.data.registry import load_tags, load_venues

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
                        raise InvalidEditError(
                            [replace(p, file=shown) for p in err.problems]
                        ) from None
                if path == self.paths.venues:
                    venues = loaded  # type: ignore[assignment]
                else:
                    vocabulary = loaded  # type: ignore[assignment]
        return venues, vocabulary

    def _judge(
        self,
        changed: list[Paper],
        fields: set[str],
        before: dict[str, Paper],
        others: Callable[[], list[Paper | Brief]],
        venues: dict[str, Venue],
        vocabulary: dict[str, str],
        line: Callable[[Paper | Brief], int],
    ) -> list[Problem]:
        """Refuse the changed papers if they add problems check would report; return the
        warnings they add. fields: those in which they differ (_differences); others: the
        rest of the catalog (asked for only when a changed paper's identity changed);
        line: where a paper of the old file now stands."""
        from catalog.check.rules import paper_problems

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
            old = paper_problems(
                [p for p in olds if p.key in flagged],
                self.filename,
                self.venues_before,
                self.vocab_before,
                fields,
            )
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

    def rule_fields(
        self, fields: set[str], venues: dict[str, Venue], vocabulary: dict[str, str]
    ) -> set[str]:
        """The fields an edit changed with those that read a registry it changed (tags
        for the vocabulary, venue for venues): the rules reading none of them find what
        they found before."""
        out = set(fields)
        if vocabulary != self.vocab_before:
            out.add("tags")
        if venues != self.venues_before:
            out.add("venue")
        return out

    def _read(self, new: Rewrite) -> _Reading:
        """The new catalog as check reads it: the papers read again, and those of the
        file read before that they replace."""
        if new.whole:
            problems = new.problems + reader.duplicate_keys(new.papers, self.filename)
            replaced = set(self.snapshot.ordered_keys())
            return _Reading(new.papers, replaced, problems)
        replaced = set(new.heads)
        if new.reread:
            replaced |= self.snapshot.keys_in(new.reread)
        keys = [p.key for p in new.papers]
        if len(set(keys)) != len(keys) or any(
            k not in replaced and self.snapshot.has(k) for k in keys
        ):  # a duplicate key: reported as check reports it
            papers, problems = reader.parse_all(self.whole_text(new), self.filename)
            return _Reading(papers, replaced, problems)
        return _Reading(new.papers, replaced, list(new.problems))

    def _findings(
        self,
        changed: list[Paper],
        others: list[Paper | Brief],
        venues: dict[str, Venue],
        vocabulary: dict[str, str],
        moved: Callable[[Paper | Brief], int],
    ) -> list[Problem]:
        """check's findings about the changed papers, among themselves and against the rest
        (whose lines are as read before, moved(paper) in the new file)."""
        from catalog.check import duplicates
        from catalog.check.rules import check_papers, duplicate_id, identities, near_duplicate

        def line(paper: Paper) -> int:
            return moved(paper) if paper.key not in keys else paper.line

        keys = {p.key for p in changed}

        found = check_papers(changed, self.filename, venues, vocabulary)
        candidates = _could_match(changed, others)
        full = {
            p.key: p
            for p in self.snapshot.full(c.key for c in candidates if not isinstance(c, Paper))
        }
        finder = duplicates.Finder.of(
            c if isinstance(c, Paper) else full[c.key] for c in candidates
        )
        for paper in changed:
            for label, ident, written in identities(paper):
                seen = (finder.by_doi if label == "DOI" else finder.by_arxiv).get(ident)
                if seen is not None:
                    found.append(
                        duplicate_id(self.filename, paper, label, written, seen, line(seen))
                    )
            match = finder.find_title(paper)
            if match is not None:
                found.append(near_duplicate(self.filename, paper, match.paper, line(match.paper)))
        return found


def _could_match(changed: list[Paper], others: list[Paper | Brief]) -> list[Paper | Brief]:
    """The others (in their order) that dedupe's Finder could match with a changed paper:
    those sharing a DOI or arXiv id, or whose title, its letters and digits run together,
    holds a word of a changed title's buckets (titles.key_words). A superset by cheap
    substring tests, so the Finder, built over it, gives the same answers as over every
    paper without normalising 10k titles."""
    from catalog.check import duplicates, titles
    from catalog.model import normalize_title

    ids = {
        i
        for p in changed
        for i in (duplicates.norm_doi(p.doi), duplicates.norm_arxiv(p.arxiv, p.doi))
        if i
    }
    words = {w for p in changed for w in titles.key_words(normalize_title(p.title))}
    out = []
    for other in others:
        title = other.title
        run = _RUN_TOGETHER_RE.sub("", title.lower()) if title.isascii() else ""
        if not title.isascii() or any(w in run for w in words):
            out.append(other)  # a folded non-ASCII title may hold any word: always a candidate
            continue
        found = f"{other.doi or ''} {other.arxiv or ''}".lower()
        if any(i in found for i in ids):
            out.append(other)
    return out


# What an ASCII title's normalised words run together leave out ("Fast MoE" holds "fastmoe").
_RUN_TOGETHER_RE = re.compile(r"[^a-z0-9]+")


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
        diff = [
            n for n, v in vars(paper).items() if v is not old[n] and v != old[n] and n != "line"
        ]
        if diff:
            changed.append(paper)
            fields.update(diff)
    return changed, fields
