"""The site's output folder: refused where a build would empty the user's files."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

from catalog import files
from catalog.paths import Paths
from catalog.site.links import SiteError

# ---------------------------------------------------------------- the output folder

# Written into the output folder by every build: only a folder carrying it is emptied.
MARKER = ".papers-site"
_MARKER_TEXT = (
    "This folder is a site built by `papers site build`; the next build empties "
    "it.\nRemove this file to keep the next build from touching the folder.\n"
)

# A build writes into a hidden folder beside its output, marked by this file, and swaps
# it in when done: stopped half-way (Ctrl-C), it leaves the previous site as it was.
STAGING_MARKER = ".papers-staging"
# How long a build waits for another build of the same output folder to finish.
BUILD_LOCK_TIMEOUT = 0.0


def _role(path: Path, paths: Paths) -> str:
    """What a protected folder or file is to the user, for the refusal message."""
    roles = {
        paths.catalog: "your catalog",
        paths.data_dir: "the catalog's data folder",
        paths.root: "the project folder",
        paths.readings: "your reading notes",
        paths.notes: "the site's hand-written notes",
        paths.notes.parent: "the site's sources",
        Path.home(): "your home folder",
    }
    found = {key.resolve(): role for key, role in roles.items()}
    return found.get(path, "the site's sources")


def check_site_dir(site_dir: Path, paths: Paths, protected: Sequence[Path] = ()) -> None:
    """Refuse an output folder a build must not empty (mkdocs removes all it holds).

    Allowed: a missing or empty folder, or one a previous build marked. Never the
    catalog's folders, the sources (docs_dir), the project root or a folder that
    holds any of them, marker or not.
    """
    out = site_dir.resolve()
    keep = [
        paths.catalog,
        paths.data_dir,
        paths.root,
        paths.readings,
        paths.pdfs,
        paths.notes,
        paths.notes.parent,
        Path.home(),
        *protected,
    ]
    keep = [path.resolve() for path in keep]
    # The folders the site is made from (not the project root, which holds build/):
    # output inside one of them would be read back as input by the next build.
    root = paths.root.resolve()
    inputs = [p for p in keep[1:] if p != root and p not in root.parents and p != Path.home()]
    inside = [p for p in inputs if p in out.parents]
    if inside:
        raise SiteError(
            f"refusing to build the site into {site_dir}: it is inside {inside[0]}, which "
            "the site is made from (the next build would read it back as input); choose a "
            "folder outside it, such as build/site (--site-dir/-o)"
        )
    # Say "it is data/" rather than "it holds data/papers.yaml" where both are true.
    clashes = [p for p in keep if p == out] + [p for p in keep if out in p.parents]
    if clashes:
        path = clashes[0]
        what = "is" if out == path else "holds"
        raise SiteError(
            f"refusing to build the site into {site_dir}: it {what} {path} "
            f"({_role(path, paths)}), and a build first deletes everything in its output "
            "folder; choose a new folder such as build/site (--site-dir/-o)"
        )
    if not out.exists():
        return
    if not out.is_dir():
        raise SiteError(
            f"refusing to build the site into {site_dir}: it is a file, "
            "not a folder; choose a new folder (--site-dir/-o)"
        )
    if (out / MARKER).is_file() or (out / STAGING_MARKER).is_file():
        return
    entries = sorted(p.name for p in out.iterdir())
    if entries:
        shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
        raise SiteError(
            f"refusing to build the site into {site_dir}: it holds files that "
            f"papers did not write ({shown}), and a build empties its output "
            "folder; choose a new or empty folder (--site-dir/-o), or remove them"
        )


def mark_site_dir(site_dir: Path) -> None:
    """Leave the marker that lets the next build empty this folder."""
    (site_dir / MARKER).write_text(_MARKER_TEXT, encoding="utf-8")


@contextlib.contextmanager
def building(site_dir: Path) -> Iterator[None]:
    """Hold the lock of site_dir (beside it, hidden) while a build writes it: a second
    build of the same folder is refused (LockTimeoutError) rather than let it delete the
    first one's staging folder. Call it once check_site_dir has allowed the folder: the
    folder that holds it is made if missing."""
    site_dir.resolve().parent.mkdir(parents=True, exist_ok=True)
    with files.locked([site_dir], BUILD_LOCK_TIMEOUT, f"the site {site_dir}"):
        yield


def _leftovers(site_dir: Path) -> Iterator[Path]:
    """Folders beside site_dir that builds killed before they could clean up left: a
    staging folder, or the previous site it was swapped with (each carries our marker)."""
    parent = site_dir.resolve().parent
    for pattern in (f".{site_dir.name}.building-*", f".{site_dir.name}.previous-*"):
        for old in parent.glob(pattern):
            if (old / STAGING_MARKER).is_file() or (old / MARKER).is_file():
                yield old


def staging_dir(site_dir: Path) -> Path:
    """A new, marked folder beside site_dir to build into; leftovers of builds that were
    killed before they could clean up go first. Call it under building(site_dir)."""
    for old in _leftovers(site_dir):
        shutil.rmtree(old, ignore_errors=True)
    parent = site_dir.resolve().parent
    staging = parent / f".{site_dir.name}.building-{os.getpid()}"
    staging.mkdir(parents=True)
    (staging / STAGING_MARKER).write_text("a site being built by papers\n", encoding="utf-8")
    return staging


def swap_in(staging: Path, site_dir: Path) -> None:
    """The finished build in staging becomes site_dir in one atomic step (the two folders
    are exchanged), and the previous site, now in staging, is removed. Killed at any
    point, the old site or the new one is in place, and the next build removes what is
    left beside it."""
    (staging / STAGING_MARKER).unlink()
    out = site_dir.resolve()
    if not out.exists():
        staging.rename(out)
    elif files.exchange(staging, out):
        shutil.rmtree(staging)
    else:  # no atomic exchange on this system: two renames, with a gap between them
        old = out.parent / f".{out.name}.previous-{os.getpid()}"
        out.rename(old)
        staging.rename(out)
        shutil.rmtree(old)
