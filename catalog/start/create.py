"""`papers init`: a new catalog's files, from the registries and templates the package ships."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from catalog import files
from catalog.errors import CatalogError, UsageError
from catalog.paths import DEFAULT_CATALOG, OPTIONAL_FILES, REGISTRIES, REQUIRED_FILES, SHIPPED

TEMPLATES = Path(__file__).resolve().parent / "templates"
# A new catalog's registries and reviewed lists are this project's (or, with --empty,
# their headers alone, which say how an entry is written), but for the people behind
# this project's author names, who are no other catalog's: authors.yaml starts empty.
_HEADER_ONLY = ("authors.yaml",)
# A folder name the site may show as its title as it is (else the title is 'papers').
_PLAIN_NAME_RE = re.compile(r"[A-Za-z0-9][\w .-]{0,60}")


@dataclass
class Started:
    """What init did: the catalog's folder, the files it wrote and those it kept."""

    root: Path
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)


def catalog_files(root: Path, empty: bool = False) -> dict[Path, Callable[[], str]]:
    """Every file of a new catalog in root and how its text is made, in the order they
    are written: the catalog last, so a folder is a catalog only once all the rest is
    there (an interrupted init is finished by running it again)."""
    data = root / DEFAULT_CATALOG.parent
    made: dict[Path, Callable[[], str]] = {}
    for name in (*REGISTRIES, *OPTIONAL_FILES):
        text = header if empty or name in _HEADER_ONLY else full
        made[data / name] = functools.partial(text, name)
    made[root / ".gitignore"] = lambda: template("gitignore")
    made[root / "mkdocs.yml"] = lambda: site_config(site_name(root))
    made[root / "site" / "index.md"] = lambda: template("index.md")
    made[data / DEFAULT_CATALOG.name] = lambda: template("papers.yaml")
    return made


def init(root: Path, empty: bool = False) -> Started:
    """A new catalog in root (made if need be), or the missing files of one begun there.

    UsageError when root is a file or already holds every file no command works without.
    Nothing there is replaced; on failure, what this call wrote is taken away again."""
    if root.exists() and not root.is_dir():
        raise UsageError(f"{root} is a file; name a new or empty folder, or a catalog's folder")
    data = root / DEFAULT_CATALOG.parent
    if all((data / name).is_file() for name in REQUIRED_FILES):
        raise UsageError(
            f"{root} already holds a catalog ({data / DEFAULT_CATALOG.name}); papers init "
            "starts a new one: name a new or empty folder"
        )
    made = catalog_files(root, empty)
    for path in made:
        if path.parent.exists() and not path.parent.is_dir():
            raise UsageError(f"{path.parent} is a file where papers init makes a folder")
        if path.is_symlink() and not path.exists():
            raise UsageError(
                f"{path} is a symbolic link to {os.readlink(path)}, which does not exist: "
                "remove the link or make its target, then run papers init again"
            )
    started = Started(root)
    with undone_on_failure(root, started.written):
        for path, text in made.items():
            if path.exists():
                started.kept.append(path)
                continue
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                files.atomic_write(path, text(), expected=b"")
            except OSError as err:
                raise CatalogError(
                    f"cannot write {path}: {err.strerror or err}; nothing of this init is "
                    "kept (fix that, then run papers init again)"
                ) from None
            started.written.append(path)
    return started


@contextlib.contextmanager
def undone_on_failure(root: Path, written: list[Path] | None = None) -> Iterator[None]:
    """When the block fails, take away what it made: the folder root if it was not there,
    else the entries of root that were not there and the files listed in written."""
    before = set(root.iterdir()) if root.is_dir() else None
    try:
        yield
    except BaseException:
        if before is None:
            shutil.rmtree(root, ignore_errors=True)
            raise
        for path in written or []:
            with contextlib.suppress(OSError):
                path.unlink()
        for path in set(root.iterdir()) - before:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    path.unlink()
        raise


def template(name: str) -> str:
    """A template's text, as the package ships it."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def site_name(root: Path) -> str:
    """The site's title: the folder's name when it is plain words, else 'papers'."""
    name = root.resolve().name
    return name if _PLAIN_NAME_RE.fullmatch(name) else "papers"


def site_config(title: str) -> str:
    """mkdocs.yml for a catalog: the template, with title as its site_name."""
    return template("mkdocs.yml").replace("__SITE_NAME__", json.dumps(title))


def full(name: str) -> str:
    """A registry of this project as the package ships it."""
    path = SHIPPED / DEFAULT_CATALOG.parent / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as err:
        raise CatalogError(
            f"{path} is not there ({err.strerror}): this install of papers lacks its "
            "shipped registries; reinstall it, or run `papers init --empty`"
        ) from None


def header(name: str) -> str:
    """A registry's leading comment block alone: how an entry is written, and no entry."""
    lines = []
    for line in full(name).splitlines(keepends=True):
        if line.strip() and not line.startswith("#"):
            break
        lines.append(line)
    return "".join(lines).rstrip("\n") + "\n"
