"""The commit of an edit session made of patches (catalog.patches): the new lines
read back in place and checked like any edit, the file written from slices of its old
bytes, and the index handed the papers as read; for a big edit the index update runs
in a thread beside the write (catalog.index.PendingEdit)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from catalog import files
from catalog.errors import CatalogError, Problem
from catalog.files import atomic_write
from catalog.patches import Background, Patch
from catalog.validation import same_but_line
from catalog.yamldoc import render_paper

# Papers an edit must change for its index update to run beside the writer's read-back
# and write (catalog.index.PendingEdit): below, the thread would save nothing.
OVERLAP_MIN = 16


@dataclass
class WriteResult:
    """What a session wrote: changed files, the index refresh, warnings."""

    changed: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    dry_run: bool = False
    diff: str = ""


def text_diff(session: Any, texts: dict[Path, str]) -> str:
    import difflib

    out: list[str] = []
    for path, new in texts.items():
        old = (session.text if path == session.paths.catalog
               else session.registries.text(path))
        name = session.paths.display(path)
        out.extend(difflib.unified_diff(old.splitlines(keepends=True),
                                        new.splitlines(keepends=True), name, name))
    return "".join(out)


class PatchCommit:
    """commit() of a session (a catalog.writer.Session) whose edits are all patches."""

    def __init__(self, session: Any):
        self.s = session

    def run(self, dry_run: bool) -> WriteResult | None:
        """The commit of patches: the new lines read back in place and checked, the file
        written from slices of its old bytes, the index handed the papers as read; None
        when a patch does not read back as the paper the session made."""
        from catalog.validation import Placed

        edits = []
        for patch in sorted(self.s._patches.values(), key=lambda p: p.begin):
            if patch.block.dirty:
                render_paper(self.s.yaml, patch.block)
            if patch.block.head != patch.original:
                edits.append(patch)
        placed, moved = [], 0
        for patch in edits:
            placed.append(Placed(patch.key, patch.year, patch.venue, patch.line + moved,
                                 patch.block.head))
            moved += len(patch.block.head) - len(patch.original)
        ends = [(patch.line + len(patch.original) - 1,
                 len(patch.block.head) - len(patch.original)) for patch in edits]
        pending, self.s._early = self.s._early, None
        if pending is not None and any(by for _, by in ends):  # lines moved: not as begun
            pending.abandon()
            pending = None
        if pending is None and not dry_run:
            pending = self._begin_index(edits, placed, ends)
        try:
            return self._commit_placed(edits, placed, ends, pending, dry_run)
        finally:
            if pending is not None and self.s.indexed is None:
                pending.abandon()

    def _begin_index(self, edits: list[Patch], placed: list[Any], ends: list[tuple[int, int]]
                     ) -> Any:
        """The index update begun in a thread (catalog.index.PendingEdit) with the papers
        the session made, at the lines their patches will stand; None when the session
        does not refresh the index or changes too few papers to gain by it."""
        from catalog import index

        if not (self.s.refresh_index and len(edits) >= OVERLAP_MIN and self.s.snapshot.digest):
            return None
        papers = []
        for patch, where in zip(edits, placed, strict=True):
            was = self.s.snapshot.get(patch.key)
            assert was is not None  # a patch is of a paper the index holds
            papers.append(replace(self.s.papers[patch.key],
                                  line=where.line + was.line - patch.line))
        return index.PendingEdit(self.s.paths, index.Edit(
            self.s.snapshot.digest, "", None, papers, self._moves(edits, ends),
            dict.fromkeys((str(p.year) for p in edits), "")))

    @staticmethod
    def _moves(edits: list[Patch], ends: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
        return [(str(p.year), end, by) for p, (end, by) in zip(edits, ends, strict=True)]

    def _commit_placed(self, edits: list[Patch], placed: list[Any],
                       ends: list[tuple[int, int]], pending: Any, dry_run: bool
                       ) -> WriteResult | None:
        """_commit_patches once the patches are placed: read back, checked, written; the
        index update begun (pending) committed when it was begun with the papers read."""
        import bisect
        import itertools

        from catalog import index
        from catalog.validation import read_placed

        papers, problems = read_placed(placed, self.s.filename) if edits else ([], [])
        made = [self.s.papers[p.key] for p in papers]
        if any(p.blocking for p in problems) or [p.key for p in papers] != [
                p.key for p in placed] or not all(map(same_but_line, papers, made)):
            return None
        texts = self.s.registries.render()
        result = WriteResult(dry_run=dry_run)
        if not edits and not texts:
            return result
        last_lines = [end for end, _ in ends]
        moves = [0, *itertools.accumulate(by for _, by in ends)]

        def line(old: int) -> int:  # where a line of the old file is in the new one
            return old + moves[bisect.bisect_left(last_lines, old)]

        result.warnings = self.s._check().check_placed(placed, papers, texts, self.s.venues,
                                                     self.s.vocabulary, line, made)
        parts = self.s.bytes.parts(edits)
        if dry_run:
            result.diff = text_diff(self.s, texts) + (self.s.bytes.diff(
                edits, self.s.filename, lambda new: text_diff(self.s, {self.s.paths.catalog: new}))
                if edits else "")
            result.changed = [*texts, *([self.s.paths.catalog] if edits else [])]
            return result
        for path in sorted(texts):
            atomic_write(path, texts[path], self.s.registries.newline(path))
            result.changed.append(path)
        before = self.s.snapshot.digest or ""
        if not edits:
            stamp = self.s._stamp if index.catalog_stamp(self.s.paths) == self.s._stamp else None
            self.s.handover = index.Edit(before, before, stamp)
            return result
        # The new bytes' digest and those of the year blocks edited, each hashed in a
        # thread beside the write (hashlib lets go of the GIL): a rename touching every
        # year hashes the file twice.
        by_year: dict[str, list[Patch]] = {}
        for patch in edits:
            by_year.setdefault(str(patch.year), []).append(patch)
        years = {label: self.s.bytes.year_parts(label, mine) for label, mine in by_year.items()}
        def hash_years() -> dict[str, str]:
            return {label: index.parts_digest(of) for label, of in years.items()}

        digest = Background(index.parts_digest, parts)
        # A second thread only for a big edit (a one-paper edit hashes one year block).
        digests = Background(hash_years) if len(edits) >= OVERLAP_MIN else None
        try:
            stamp = files.atomic_write_parts(self.s.paths.catalog, parts)
            result.changed.append(self.s.paths.catalog)
            blocks = digests.result() if digests is not None else hash_years()
        finally:
            after = digest.result()
        self.s.handover = index.Edit(before, after, stamp, papers, self._moves(edits, ends),
                                   blocks)
        if pending is not None and papers == pending.papers:
            self.s.indexed = self._finish_index(pending)
        return result

    def _finish_index(self, pending: Any) -> Any:
        """The begun index update committed with the edit as written; None (and the index
        as it was) when it could not be: _refresh_index then does it the usual way."""
        import sqlite3

        try:
            return pending.finish(self.s.handover)
        except (sqlite3.Error, OSError, CatalogError):
            return None
