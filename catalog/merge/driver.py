"""git's merge driver for a catalog's files, and `papers git setup` that names it to git.

git calls `papers merge-driver %O %A %B %P` for each file .gitattributes gives the
`papers` driver: the ancestor's, ours' and theirs' versions in temporary files, and the
file's path in the repository. The catalog merges paper by paper
(catalog.merge.catalogmerge), every other file entry by entry
(catalog.merge.keyedmerge); the result replaces ours' file (the %A git reads back). A
version the catalog's reader cannot read is merged by `git merge-file`, line by line.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from catalog import files
from catalog.data import yamlfile
from catalog.errors import CatalogError
from catalog.paths import Paths

DRIVER = "papers"
DRIVER_NAME = "papers: a catalog merged paper by paper, field by field"
DRIVER_COMMAND = "papers merge-driver %O %A %B %P"
# The files beside a catalog that merge entry by entry (catalog.merge.keyedmerge).
KEYED = frozenset(
    {
        "venues.yaml",
        "tags.yaml",
        "authors.yaml",
        "records.yaml",
        "reading.yaml",
        "inbox.yaml",
        "keymap.yaml",
    }
)


@dataclass
class Outcome:
    """What a merge of one file did: its conflicts, the problems that stop it, and the
    reason git's line merge took over (None when papers merged it)."""

    conflicts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    fallback: str | None = None

    @property
    def clean(self) -> bool:
        return not self.conflicts and not self.problems


def merge_file(base: Path, ours: Path, theirs: Path, name: str) -> Outcome:
    """Merge one file's three versions into ours (the file git reads back)."""
    try:
        data = yamlfile.read_bytes(ours, name)
        old = yamlfile.decode(yamlfile.read_bytes(base, name), name)
        mine = yamlfile.decode(data, name)
        yours = yamlfile.decode(yamlfile.read_bytes(theirs, name), name)
        outcome = Outcome()
        if Path(name).name in KEYED:
            text, outcome.conflicts = _keyed(old, ours, yours, name)
        else:
            text = _catalog(old, mine, yours, name, outcome)
    except CatalogError as err:
        return _line_merge(base, ours, theirs, str(err))
    files.atomic_write(ours, text, yamlfile.newline_of(data), expected=data)
    return outcome


def _keyed(old: str, ours: Path, yours: str, name: str) -> tuple[str, list[str]]:
    from catalog.merge.keyedmerge import merge_keyed

    return merge_keyed(old, ours, yours, name)


def _catalog(old: str, mine: str, yours: str, name: str, outcome: Outcome) -> str:
    """The catalog merged; a result check would refuse is kept, its problems said."""
    from catalog.merge.catalogmerge import merge_catalog

    beside = Path(name).parent
    result = merge_catalog(old, mine, yours, beside if beside.is_dir() else None)
    outcome.conflicts = [c.key for c in result.conflicts]
    outcome.problems = [str(p) for p in result.problems]
    return result.text


def _line_merge(base: Path, ours: Path, theirs: Path, reason: str) -> Outcome:
    """git's own line merge into ours, when papers cannot read a version."""
    labels = ["-L", "ours", "-L", "base", "-L", "theirs"]
    done = subprocess.run(
        ["git", "merge-file", *labels, str(ours), str(base), str(theirs)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode < 0 or done.returncode > 127:
        raise CatalogError(f"git merge-file failed: {done.stderr.strip()}")
    conflicts = [f"{done.returncode} conflicting hunk(s)"] if done.returncode else []
    return Outcome(conflicts=conflicts, fallback=reason)


# ---------------------------------------------------------------- papers git setup


def setup(paths: Paths, command: str = DRIVER_COMMAND) -> list[str]:
    """Name the driver to git for the catalog's files: lines added to the repository's
    .gitattributes and the repository's git config; what was written (nothing twice)."""
    root = Path(_git(paths.root, "rev-parse", "--show-toplevel"))
    written: list[str] = []
    attributes = root / ".gitattributes"
    data = attributes.read_bytes() if attributes.exists() else b""
    text = data.decode("utf-8")
    have = {line.strip() for line in text.splitlines()}
    wanted = [f"{_relative(p, root)} merge={DRIVER}" for p in _merged_files(paths)]
    new = [line for line in wanted if line not in have]
    if new:
        if text and not text.endswith("\n"):
            text += "\n"
        files.atomic_write(attributes, text + "".join(f"{n}\n" for n in new), expected=data)
        written += [f".gitattributes: {line}" for line in new]
    for key, value in ((f"merge.{DRIVER}.name", DRIVER_NAME), (f"merge.{DRIVER}.driver", command)):
        current = _git(root, "config", "--local", "--get", key, check=False)
        if current != value:
            _git(root, "config", "--local", key, value)
            written.append(f"git config {key} '{value}'")
    return written


def _merged_files(paths: Paths) -> list[Path]:
    """The catalog and the files beside it that the driver merges."""
    return [paths.catalog, *(paths.data_dir / name for name in sorted(KEYED))]


def _relative(path: Path, root: Path) -> str:
    """A path as .gitattributes names it: from the repository's top, with '/'."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise CatalogError(f"{path} is outside the git repository at {root}") from None


def _git(where: Path, *args: str, check: bool = True) -> str:
    """A git command's output in a folder; CatalogError when it fails (and check)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(where), *args], capture_output=True, text=True, check=False
        )
    except FileNotFoundError:
        raise CatalogError("git is not installed (papers git setup configures git)") from None
    if check and done.returncode != 0:
        message = done.stderr.strip() or f"git {' '.join(args)} failed"
        raise CatalogError(f"{where}: {message} (papers git setup works in a git repository)")
    return done.stdout.strip()
