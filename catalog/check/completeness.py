"""What the catalog's records lack, by publisher and field (`papers check --completeness`):
a DOI where the venue's papers get one, pages for conference and journal papers, volume and
number for journal papers, an abstract (and a code link, once the model has the field)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from catalog.data import reader
from catalog.data.registry import Venue, load_venues
from catalog.model import FIELDS, Paper
from catalog.paths import Paths

# The fields counted, in the report's order; those the model lacks are left out.
_COUNTED = ("doi", "pages", "volume", "number", "abstract", "code")
# Who a paper should have each field for (venue None: a venue the registry lacks).
_EXPECTED: dict[str, Callable[[Venue | None], bool]] = {
    # venues.yaml says `dois: false` for a venue whose papers get none (USENIX, PMLR, ...)
    "doi": lambda venue: venue is None or venue.extra.get("dois") is not False,
    "pages": lambda venue: venue is not None and venue.kind in ("conference", "journal"),
    "volume": lambda venue: venue is not None and venue.kind == "journal",
    "number": lambda venue: venue is not None and venue.kind == "journal",
    "abstract": lambda venue: True,
    "code": lambda venue: True,
}


def counted_fields() -> tuple[str, ...]:
    """The fields the report counts: those of _COUNTED that a paper has (code, once the
    model carries it)."""
    return tuple(name for name in _COUNTED if name in FIELDS)


def has(paper: Paper, name: str) -> bool:
    """Whether a paper gives a field; an ACM paper's article number and page count stand
    for its pages."""
    if name == "pages" and paper.articleno and paper.numpages:
        return True
    return bool(getattr(paper, name, None))


@dataclass
class Gap:
    """One field in one group: how many papers should give it, and those that do not."""

    expected: int = 0
    missing: list[str] = field(default_factory=list)  # their keys, in catalog order


@dataclass
class Group:
    """The papers of one publisher (or of one venue the registry names no publisher for)."""

    publisher: str
    papers: int = 0
    gaps: dict[str, Gap] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "publisher": self.publisher,
            "papers": self.papers,
            "fields": {
                name: {"expected": g.expected, "missing": len(g.missing), "papers": g.missing}
                for name, g in self.gaps.items()
            },
        }


@dataclass
class Completeness:
    """The report: each group, most papers first, and all of them together."""

    fields: tuple[str, ...]
    groups: list[Group]
    total: Group

    def to_dict(self) -> dict[str, Any]:
        return {
            "fields": list(self.fields),
            "publishers": [g.to_dict() for g in self.groups],
            "total": self.total.to_dict(),
        }


def publisher_of(paper: Paper, venue: Venue | None) -> str:
    """The group a paper is counted in: its publisher (a chapter's own, else its venue's);
    where the registry names none, its venue."""
    publisher = paper.publisher or (venue.publisher if venue else None)
    return publisher or f"{paper.venue} (no publisher)"


def completeness(paths: Paths) -> Completeness:
    """What each publisher's papers lack, field by field; InvalidCatalogError when the
    catalog or its venue registry cannot be read."""
    papers = reader.load(paths.catalog, paths.display())
    venues = load_venues(paths.venues)
    names = counted_fields()
    total = Group("all", gaps={n: Gap() for n in names})
    groups: dict[str, Group] = {}
    for paper in papers:
        venue = venues.get(paper.venue)
        label = publisher_of(paper, venue)
        group = groups.setdefault(label, Group(label, gaps={n: Gap() for n in names}))
        for into in (group, total):
            into.papers += 1
        for name in names:
            if not _EXPECTED[name](venue):
                continue
            for into in (group, total):
                into.gaps[name].expected += 1
                if not has(paper, name):
                    into.gaps[name].missing.append(paper.key)
    ordered = sorted(groups.values(), key=lambda g: (-g.papers, g.publisher.casefold()))
    return Completeness(names, ordered, total)
