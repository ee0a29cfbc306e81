"""The seed catalog (25 papers, as first shipped) frozen for the import tests.

The shipped data/ grows (issue 10 took it to 199 papers); what import adds, merges or
skips from recommender.bib and the lists depends on which papers the catalog holds, so
these tests read a fixed copy (tests/data/seed/) instead. Import a fixture from here into
a test module to override conftest's `shipped` (and `shipped_used`) there."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from catalog import dedupe, source
from catalog.paths import Paths
from catalog.venues import Venue, load_venues

SEED = Path(__file__).resolve().parent / "data" / "seed"


def seed_papers() -> list:
    return source.load(SEED / "papers.yaml")


def seed_finder() -> dedupe.Finder:
    return dedupe.Finder.of(seed_papers())


def seed_venues() -> dict[str, Venue]:
    return load_venues(SEED / "venues.yaml")


def seed_used_venues() -> dict[str, Venue]:
    """The seed registry cut to the venues the seed catalog uses."""
    used = {p.venue for p in seed_papers()}
    return {s: v for s, v in seed_venues().items() if s in used}


@pytest.fixture(name="shipped")
def seed_shipped(tmp_path: Path) -> Paths:
    """A copy of the seed catalog and its registries in tmp_path."""
    data = tmp_path / "data"
    data.mkdir()
    for path in SEED.glob("*.yaml"):
        shutil.copy(path, data / path.name)
    return Paths(data / "papers.yaml", tmp_path / "build" / "catalog.db")


@pytest.fixture(name="shipped_used")
def seed_shipped_used(shipped: Paths) -> Paths:
    """The seed copy with its registry cut to the venues the seed catalog uses."""
    entries = []
    for short, venue in seed_used_venues().items():
        record = {"kind": venue.kind, "name": venue.name,
                  **({"publisher": venue.publisher} if venue.publisher else {}), **venue.extra}
        entries.append(yaml.safe_dump({short: record}, sort_keys=False, allow_unicode=True,
                                      width=10_000))
    shipped.venues.write_text("# Only the venues the seed catalog uses.\n\n"
                              + "\n".join(entries), encoding="utf-8")
    return shipped
