"""What an add or import run did: each candidate's outcome, and the run's report of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalog.data.registry import Venue
from catalog.errors import Problem

if TYPE_CHECKING:
    from catalog.ingest.listfields import NotPaper

ACTIONS: tuple[str, ...] = ("added", "merged", "duplicate", "inbox", "refused")


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
    renamed: dict[str, str] = field(default_factory=dict)  # .bib keys changed: old -> new

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
            "renamed_keys": dict(self.renamed),
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
