"""`papers update`: ask the public records about the catalog's papers, report each finding
with its evidence, and apply the confirmed ones through the one writer."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalog.check.duplicates import norm_doi
from catalog.data import reader
from catalog.data.registry import load_venues
from catalog.errors import CatalogError
from catalog.model import Paper
from catalog.paths import Paths
from catalog.update.finders import (
    Asker,
    Finding,
    arxiv_findings,
    doi_findings,
    link_findings,
    missing_doi_findings,
)

# How long a reply serves from the HTTP cache: a second run the same day asks no one.
CACHE_TTL = 24 * 3600.0
Progress = Callable[[str, int], Callable[[], None]]  # (stage, count) -> tick


@dataclass
class Report:
    """What a run found, what it changed and the diff of the catalog."""

    checked: int
    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    diff: str = ""
    written: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The report for --json."""
        return {
            "checked": self.checked,
            "findings": [f.to_dict() for f in self.findings],
            "errors": self.errors,
            "diff": self.diff,
            "written": self.written,
        }


def cache_folder() -> Path:
    """The HTTP cache's folder: $XDG_CACHE_HOME/papers (~/.cache/papers), never the catalog's."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "papers"


def selected(paths: Paths, query: str) -> list[Paper]:
    """Every paper, or those a search query matches (as `papers search` reads it)."""
    papers = reader.load(paths.catalog, paths.display())
    if not query.strip():
        return papers
    from catalog.index import database
    from catalog.index import query as q

    keys = {hit.paper.key for hit in q.search(database.connect(paths), query, None)}
    if not keys:
        raise CatalogError(f"no papers match {query!r}; papers search takes the same query")
    return [p for p in papers if p.key in keys]


def update(
    paths: Paths,
    query: str = "",
    write: bool = False,
    cache: Path | None = None,
    progress: Progress | None = None,
) -> Report:
    """Ask the records about the chosen papers; with write, apply what they confirm."""
    from catalog.ingest import webclient

    papers = selected(paths, query)
    venues = load_venues(paths.venues)
    asker = Asker()
    report = Report(len(papers))
    step = progress or (lambda stage, count: lambda: None)
    with webclient.politely(cache, CACHE_TTL):
        stages = [
            ("arXiv", lambda tick: arxiv_findings(papers, venues, asker, tick)),
            ("Crossref", lambda tick: doi_findings(papers, asker, tick)),
            ("DBLP", lambda tick: missing_doi_findings(papers, venues, asker, tick)),
            ("links", lambda tick: link_findings(papers, asker, tick)),
        ]
        for stage, run in stages:
            report.findings += run(step(stage, len(papers)))
    report.errors = asker.errors
    _block_duplicates(report.findings, papers)
    report.diff, report.written = apply(paths, report.findings, write)
    return report


def _block_duplicates(findings: list[Finding], papers: list[Paper]) -> None:
    """A DOI another paper already has is not given to this one: they may be one paper."""
    owners = {norm_doi(p.doi): p.key for p in papers if norm_doi(p.doi)}
    for finding in findings:
        doi = norm_doi(finding.changes.get("doi"))
        other = owners.get(doi) if doi else None
        if other and other != finding.key and finding.blocked is None:
            finding.blocked = (
                f"DOI {finding.changes['doi']} is already on {other}: if they are one paper, "
                "merge them by hand"
            )


def apply(paths: Paths, findings: list[Finding], write: bool) -> tuple[str, bool]:
    """The diff the applicable findings make, written through the one writer when write.
    A finding the writer refuses (its change would make the catalog invalid) is blocked
    with the writer's reasons, and the others are applied without it."""
    from catalog.edit.writer import InvalidEditError

    try:
        return _apply(paths, [f for f in findings if f.applicable], write)
    except InvalidEditError:
        for finding in [f for f in findings if f.applicable]:
            try:
                _apply(paths, [finding], write=False)
            except InvalidEditError as err:
                reasons = "; ".join(p.message for p in err.problems)
                finding.blocked = f"the change would make the catalog invalid: {reasons}"
        return _apply(paths, [f for f in findings if f.applicable], write)


def _apply(paths: Paths, chosen: list[Finding], write: bool) -> tuple[str, bool]:
    from catalog.edit import writer

    if not chosen:
        return "", False
    with writer.edit(paths, dry_run=not write) as session:
        for finding in chosen:
            paper = session.paper(finding.key)
            changes = dict(finding.changes)
            if finding.source and finding.source not in paper.sources:
                changes["sources"] = [*paper.sources, finding.source]
            session.update(finding.key, **changes)
            if finding.move:
                session.move(finding.key, *finding.move)
        diff = session.diff(session.render())
    for finding in chosen:
        finding.applied = write
    return diff, write and bool(session.result.changed)
