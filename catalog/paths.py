"""Where the catalog's files live, resolved from the catalog path."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

CATALOG_ENV = "PAPERS_CATALOG"
DB_ENV = "PAPERS_DB"
DEFAULT_CATALOG = Path("data") / "papers.yaml"
# The venue registry shipped beside the package (a source checkout): bib-check reads it
# when run outside any catalog.
SHIPPED_VENUES = Path(__file__).resolve().parent.parent / "data" / "venues.yaml"


@dataclass(frozen=True)
class Paths:
    """The files of one catalog: the YAML, its registries, notes and the derived index."""

    catalog: Path
    db: Path

    @property
    def data_dir(self) -> Path:
        return self.catalog.parent

    @property
    def root(self) -> Path:
        """The project folder: the parent of data/, else the catalog's own folder."""
        return self.data_dir.parent if self.data_dir.name == "data" else self.data_dir

    @property
    def venues(self) -> Path:
        return self.data_dir / "venues.yaml"

    @property
    def tags(self) -> Path:
        return self.data_dir / "tags.yaml"

    @property
    def records(self) -> Path:
        """The reviewed hosts whose pages are primary records (what a source may name)."""
        return self.data_dir / "records.yaml"

    @property
    def authors(self) -> Path:
        """Spellings of a name that are one person (the site's author pages)."""
        return self.data_dir / "authors.yaml"

    @property
    def terms(self) -> Path:
        return self.data_dir / "protected-terms.txt"

    @property
    def readings(self) -> Path:
        """Per-paper reading notes, one Markdown file per key."""
        return self.data_dir / "readings"

    @property
    def reading(self) -> Path:
        """The reader's own state (status, dates, queue order), apart from the catalog."""
        return self.data_dir / "reading.yaml"

    @property
    def pdfs(self) -> Path:
        """The PDFs papers keeps for the reader (git-ignored, never published)."""
        return self.data_dir / "pdfs"

    @property
    def notes(self) -> Path:
        """Hand-written notes that link to papers with [[key]]."""
        return self.root / "site" / "notes"

    def display(self, path: Path | None = None) -> str:
        """A path as the user should read it: relative to the working folder when inside it."""
        path = path or self.catalog
        try:
            return str(path.resolve().relative_to(Path.cwd().resolve()))
        except ValueError:
            return str(path)


def in_folder(catalog: Path) -> Path:
    """A catalog named by its project folder (or its data folder) as the YAML file in it."""
    if not catalog.is_dir():
        return catalog
    for candidate in (catalog / DEFAULT_CATALOG, catalog / DEFAULT_CATALOG.name):
        if candidate.is_file():
            return candidate
    return catalog


def find_catalog(start: Path | None = None) -> Path:
    """data/papers.yaml in the working folder or the nearest parent that has one."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / DEFAULT_CATALOG
        if candidate.exists():
            return candidate
    return here / DEFAULT_CATALOG


def resolve(catalog: str | Path | None = None, db: str | Path | None = None) -> Paths:
    """Paths from explicit options, then environment variables, then defaults."""
    catalog = catalog or os.environ.get(CATALOG_ENV) or find_catalog()
    catalog_path = in_folder(Path(catalog))
    db = db or os.environ.get(DB_ENV)
    if db:
        return Paths(catalog_path, Path(db))
    probe = Paths(catalog_path, Path())
    return Paths(catalog_path, probe.root / "build" / "catalog.db")
