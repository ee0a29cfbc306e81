"""The venue registry (data/venues.yaml) and the tag vocabulary (data/tags.yaml)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalog import yamlio
from catalog.errors import InvalidCatalogError, Problem

KINDS: tuple[str, ...] = (
    "conference", "journal", "preprint", "workshop", "book", "thesis", "report",
)


@dataclass
class Venue:
    """A venue by its short name; extra holds registry fields used by BibTeX export."""

    short: str
    kind: str
    name: str
    publisher: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"short": self.short, "kind": self.kind, "name": self.name,
                "publisher": self.publisher, **self.extra}


def _mapping(path: Path, what: str) -> tuple[dict[str, Any], dict[str, int]]:
    """A top-level mapping from a small YAML file, with the line of each key."""
    if not path.exists():
        raise InvalidCatalogError(
            [Problem(str(path), 0, "", f"no {what} file", f"create {path.name} beside the catalog")]
        )
    data, lines = yamlio.load_mapping_with_lines(path)
    return data, lines


def load_venues(path: Path) -> dict[str, Venue]:
    """The registry by short name; a malformed entry stops with its line."""
    data, lines = _mapping(path, "venue registry")
    venues: dict[str, Venue] = {}
    problems: list[Problem] = []
    for short, record in data.items():
        where = str(short)
        line = lines.get(str(short), 0)
        if not isinstance(record, dict):
            problems.append(Problem(str(path), line, where, "venue is not a mapping",
                                    "give kind, name and publisher", True))
            continue
        kind = str(record.get("kind", ""))
        if kind not in KINDS:
            problems.append(Problem(str(path), line, where, f"unknown kind '{kind}'",
                                    "use one of " + ", ".join(KINDS), True))
            continue
        if not record.get("name"):
            problems.append(Problem(str(path), line, where, "missing name",
                                    "give the venue's full name", True))
            continue
        extra = {k: v for k, v in record.items() if k not in ("kind", "name", "publisher")}
        publisher = record.get("publisher")
        venues[str(short)] = Venue(str(short), kind, str(record["name"]),
                                   str(publisher) if publisher else None, extra)
    if problems:
        raise InvalidCatalogError(problems)
    return venues


def load_tags(path: Path) -> dict[str, str]:
    """The tag vocabulary: tag -> description."""
    data, _ = _mapping(path, "tag vocabulary")
    return {str(tag): str(desc or "") for tag, desc in data.items()}
