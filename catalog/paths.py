"""Where the catalog's files live, resolved from the catalog path."""

from __future__ import annotations

import os
import re
import string
from dataclasses import dataclass
from pathlib import Path

from catalog.errors import CatalogError

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


# ---------------------------------------------------------------- names of a key's files

# Names Windows refuses for a file or folder, with any extension ('con.md', 'nul.pdf'): a
# catalog holding one could not be checked out there. 'index' is each site folder's list.
RESERVED_NAMES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
)
_LIST_PAGE = "index"
# What a key's file name keeps as it is: every key character but '/' and ':' (DBLP-style
# keys, 'DBLP:conf/osdi/Sima22'), which are written as %2F and %3A.
_FILE_SAFE = frozenset(string.ascii_letters + string.digits + "_.+-")
_ESCAPE_RE = re.compile(r"%([0-9A-F]{2})")


def key_file_stem(key: str) -> str:
    """The name, without extension, of a key's own files (data/pdfs/KEY.pdf,
    data/readings/KEY.md): the key itself, with '/' and ':' written as %2F and %3A and,
    for a name Windows reserves ('con'), its first letter too. One key, one name (keys
    never hold '%'), never a path, a hidden file or a reserved name. CatalogError for
    what is not a key."""
    from catalog.model import KEY_RE

    if not KEY_RE.fullmatch(key):
        raise CatalogError(
            f"'{key}' is not a valid key (ASCII letters, digits and '-_:.+/', a letter "
            "first): fix it in the catalog (papers check lists it) first"
        )
    stem = "".join(c if c in _FILE_SAFE else f"%{ord(c):02X}" for c in key)
    if stem.split(".", 1)[0].casefold() in RESERVED_NAMES:
        stem = f"%{ord(stem[0]):02X}{stem[1:]}"
    return stem


def file_stem_key(stem: str) -> str | None:
    """The key whose file name key_file_stem gives as stem; None when no key's is."""
    key = _ESCAPE_RE.sub(lambda m: chr(int(m.group(1), 16)), stem)
    try:
        return key if key_file_stem(key) == stem else None
    except CatalogError:
        return None


# ---------------------------------------------------------------- names of site pages

_PAGE_PLAIN_RE = re.compile(r"[a-z0-9-]+")
_PAGE_KEPT = frozenset(string.ascii_lowercase + string.digits + "-")


def page_name(name: str) -> str:
    """The file name, without .md, of a paper's page (by its key) or a tag's on the site.

    A name of lower-case letters, digits and '-' (every tag, the keys papers makes) is
    its own page name; in any other, an upper-case letter is written '_' and the letter
    in lower case, another ASCII character '_' and its two hex digits, any other
    character '__', its hex code and '_' ('DBLP:conf/x' is '_d_b_l_p_3aconf_2fx'). A
    list page's name ('index') or one Windows reserves gets a '_' after it, which no
    other name's page has. So no two names share a page, on a file system that ignores
    case too, and no page name is hidden, a path or reserved.
    """
    if _PAGE_PLAIN_RE.fullmatch(name):
        return f"{name}_" if name in RESERVED_NAMES or name == _LIST_PAGE else name
    out = []
    for c in name:
        if c in _PAGE_KEPT:
            out.append(c)
        elif "A" <= c <= "Z":
            out.append("_" + c.lower())
        elif c.isascii():
            out.append(f"_{ord(c):02x}")
        else:
            out.append(f"__{ord(c):x}_")
    return "".join(out) or "_"
