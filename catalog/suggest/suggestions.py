"""`papers suggest`: candidates ranked by their fit to the catalog, a tag, a note or the
papers read, each with why (its nearest papers, the words that weigh most)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from catalog.errors import CatalogError
from catalog.hints import hint_for
from catalog.model import Paper
from catalog.paths import Paths
from catalog.suggest import features, rank
from catalog.suggest.candidates import Candidate

if TYPE_CHECKING:
    import numpy as np

    from catalog.ingest.outcomes import Report


class TargetError(CatalogError):
    """A tag or note that is not there, or a target with no papers."""


@dataclass
class Target:
    """What candidates are ranked against: a name and the catalog papers that are it."""

    name: str  # 'the catalog', "tag 'caching'", "note 'moe-serving'", 'the papers read'
    keys: frozenset[str]


@dataclass
class Suggestion:
    """One ranked candidate and why."""

    rank: int
    score: float
    candidate: Candidate
    nearest: list[tuple[Paper, float]] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    known: str | None = None  # the catalog paper it already is, if any

    def to_dict(self) -> dict[str, object]:
        c = self.candidate
        return {
            "rank": self.rank,
            "score": round(self.score, 4),
            "title": None if c.name_only else c.title,
            "name": c.title if c.name_only else None,
            "where": c.where,
            "inbox_id": c.ident or None,
            "authors": c.authors,
            "year": c.year,
            "doi": c.doi,
            "arxiv": c.arxiv,
            "nearest": [{"key": p.key, "similarity": round(s, 4)} for p, s in self.nearest],
            "words": self.words,
            "in_catalog": self.known,
        }


def target(
    papers: Sequence[Paper],
    paths: Paths,
    tag: str | None = None,
    note: str | None = None,
    read: bool = False,
    reading: dict[str, str] | None = None,
) -> Target:
    """The target the options name; the whole catalog when none does."""
    if sum(bool(x) for x in (tag, note, read)) > 1:
        raise TargetError("give one of --tag, --note and --read")
    if tag:
        keys = frozenset(p.key for p in papers if tag in p.tags)
        if not keys:
            tags = {t for p in papers for t in p.tags}
            hint = hint_for(tag, tags)
            raise TargetError(f"no paper is tagged '{tag}'" + (f"; {hint}" if hint else ""))
        return Target(f"tag '{tag}'", keys)
    if note:
        from catalog.data.notes import load_notes

        notes = {n.slug: n for n in load_notes(paths)}
        if note not in notes:
            hint = hint_for(note, notes) or f"the notes are: {', '.join(sorted(notes))}"
            raise TargetError(f"no note '{note}'; {hint}")
        held = {p.key for p in papers}
        return Target(f"note '{note}'", frozenset(k for k in notes[note].keys if k in held))
    if read:
        keys = frozenset(k for k, status in (reading or {}).items() if status == "read")
        if not keys:
            raise TargetError("no paper is marked read yet (papers status KEY read)")
        return Target("the papers read", keys)
    return Target("the catalog", frozenset(p.key for p in papers))


def suggest(
    papers: Sequence[Paper], goal: Target, candidates: Sequence[Candidate], count: int | None
) -> list[Suggestion]:
    """The candidates best fitting the target, best first (all of them when count is None);
    a candidate the catalog already holds is ranked too, and says which paper it is."""
    import numpy as np

    from catalog.check import duplicates

    if not candidates:
        return []
    ordered = sorted(papers, key=lambda p: p.key)
    items = [c.item for c in candidates]
    positive = np.array([p.key in goal.keys for p in ordered])
    known = features.alike(ordered, items, whole=bool(positive.all()))
    space = features.fit(known)
    catalog, rows = space.matrix(known), space.matrix(items)
    scores, weights = rank.fit_and_score(catalog, positive, rows, space.columns())
    order = _order(scores)[: count if count is not None else len(candidates)]
    finder = duplicates.Finder.of(ordered)
    names = features.shown(space.names, known)
    out = []
    for place, i in enumerate(order, 1):
        why = rank.explain(catalog, positive, rows[i], weights, names)
        match = finder.find(candidates[i].as_paper())
        out.append(
            Suggestion(
                place,
                float(scores[i]),
                candidates[i],
                [(ordered[j], s) for j, s in why.nearest],
                why.words,
                match.paper.key if match and match.sure else None,
            )
        )
    return out


def _order(scores: np.ndarray) -> list[int]:
    """Rows by score, highest first; ties in the source's order."""
    import numpy as np

    return [int(i) for i in np.argsort(-np.round(scores, 9), kind="stable")]


def read_candidates(paths: Paths, source: Path | None, name: str | None = None) -> list[Candidate]:
    """The candidates of a file, or the inbox's when no file is given."""
    from catalog.suggest import candidates

    if source is None:
        return candidates.from_inbox(paths)
    return candidates.from_file(paths, source, name)


def take(
    paths: Paths, source: Path | None, ranked: Sequence[Suggestion], dry_run: bool, name: str
) -> Report:
    """Import the ranked candidates through the normal import (every rule of it: into the
    catalog when whole, else into the inbox), from the .bib file or list they came from."""
    from catalog.ingest import importer

    if source is None or source.suffix.lower() not in (".bib", ".md", ".markdown", ".txt"):
        raise TargetError(
            "--take imports from a .bib file or a Markdown list; an inbox candidate is "
            "completed with `papers add`, an arXiv paper added with `papers add --arxiv ID`"
        )
    lines = {s.candidate.line for s in ranked}
    return importer.import_file(paths, source, dry_run=dry_run, display=name, only=lines)
