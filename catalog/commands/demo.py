"""`papers demo DIR`: a scratch copy of the catalog to try every command on."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Annotated

import typer

from catalog.commands import JsonOpt, command, echo, echo_json, state
from catalog.errors import UsageError
from catalog.paths import SHIPPED_VENUES, Paths, resolve

# What a copy needs besides data/: the notes and site sources, the theme overrides and
# the example lists the README imports.
_BESIDE_DATA = ("site", "overrides", "examples")
# A mkdocs.yml list item naming a Python file (the hook), which stays in the original.
_HOOK_RE = re.compile(r"^([ \t]*-[ \t]*)(\S+\.py)[ \t]*$", re.MULTILINE)


@command("demo")
def demo(
    folder: Annotated[
        Path, typer.Argument(metavar="DIR", help="A new or empty folder for the copy.")
    ],
    as_json: JsonOpt = False,
) -> None:
    """Copy the catalog (data, notes, example lists) into DIR, to try commands on it.

    Every command then works on the copy (cd DIR); the original is left as it is.
    Outside any catalog, the catalog shipped with papers is copied.

    \b
    Examples:
      papers demo /tmp/papers-tour && cd /tmp/papers-tour
      papers status sima2022ekko read    # changes the copy only
    """
    source = state.found() or resolve(SHIPPED_VENUES.parent / "papers.yaml")
    _check_destination(source, folder)
    copied = _copy(source, folder)
    count = _papers(copied)
    if as_json:
        echo_json({"folder": str(folder), "papers": count, "from": str(source.root)})
        return
    echo(
        f"copied the catalog ({count} papers) into {folder}: cd there to try any "
        "command; the original is not touched"
    )


def _copied(source: Paths) -> list[Path]:
    """The folders a copy is made of: data/ and those beside it."""
    beside = [source.root / name for name in _BESIDE_DATA]
    return [source.data_dir, *(p for p in beside if p.is_dir())]


def _check_destination(source: Paths, folder: Path) -> None:
    """UsageError unless folder is a new or empty folder outside what is copied."""
    if folder.is_symlink() and not folder.exists():
        raise UsageError(
            f"{folder} is a symbolic link to {os.readlink(folder)}, which does not exist; "
            "name a new or empty folder"
        )
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{folder} is not a new or empty folder; name one papers may fill")
    target = folder.resolve()
    for copied in _copied(source):
        inside = copied.resolve()
        if target == inside or inside in target.parents:
            raise UsageError(
                f"{folder} is inside {copied}, which the copy is made of (it would copy "
                "itself into itself); name a folder outside the catalog, such as "
                "/tmp/papers-tour"
            )


def _copy(source: Paths, folder: Path) -> Paths:
    """data/ and the folders beside it, without locks, temporaries or the index."""
    skip = shutil.ignore_patterns(".*", "__pycache__")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source.data_dir, folder / "data", ignore=skip)
    for name in _BESIDE_DATA:
        if (source.root / name).is_dir():
            shutil.copytree(source.root / name, folder / name, ignore=skip)
    config = source.root / "mkdocs.yml"
    if config.is_file():
        (folder / "mkdocs.yml").write_text(_hooks_absolute(config), encoding="utf-8")
    return resolve(folder / "data" / source.catalog.name)


def _hooks_absolute(config: Path) -> str:
    """mkdocs.yml with its hook files named by absolute path, so the copy builds with them."""
    root = config.parent.resolve()

    def absolute(match: re.Match[str]) -> str:
        hook = root / match.group(2)
        return match.group(1) + str(hook) if hook.is_file() else match.group(0)

    return _HOOK_RE.sub(absolute, config.read_text(encoding="utf-8"))


def _papers(paths: Paths) -> int:
    """How many papers the copy holds."""
    from catalog.data import reader

    return len(reader.load(paths.catalog))
