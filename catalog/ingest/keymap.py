"""The key map (data/keymap.yaml): a library's BibTeX keys that import had to change.

A .bib's own key is kept whenever the catalog can take it, so every `\\cite` in the
user's documents keeps working. When it cannot (a key the catalog already has, or one
BibTeX itself would refuse), import makes a new key and records old -> new here;
`papers export --keymap` writes the papers under their old keys again.
"""

from __future__ import annotations

from pathlib import Path

from catalog.errors import CatalogError
from catalog.model import Paper
from catalog.paths import Paths

HEADER = (
    "# BibTeX keys that `papers import` had to change: the key in the imported .bib file\n"
    "# -> the paper's key in the catalog. `papers export --keymap` writes the old keys.\n"
)


class KeymapError(CatalogError):
    """The key map cannot be read."""


def keymap_path(paths: Paths) -> Path:
    """data/keymap.yaml beside the catalog."""
    return paths.catalog.with_name("keymap.yaml")


def load(paths: Paths) -> dict[str, str]:
    """Old key -> catalog key; no file is an empty map."""
    import yaml

    path = keymap_path(paths)
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise KeymapError(f"{paths.display(path)}: cannot be read ({err})") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise KeymapError(
            f"{paths.display(path)}: must map each old key to a catalog key ('old: new')"
        )
    return data


def record(paths: Paths, renamed: dict[str, str]) -> None:
    """Add these old -> new keys to the map (the caller holds the catalog's lock)."""
    import yaml

    from catalog.files import atomic_write

    merged = {**load(paths), **renamed}
    # Every key and value double-quoted: reads the same in YAML 1.1 and 1.2 readers.
    body = yaml.safe_dump(merged, default_style='"', allow_unicode=True, sort_keys=True)
    atomic_write(keymap_path(paths), HEADER + body)


def old_keys(paths: Paths) -> dict[str, str]:
    """Catalog key -> the key its .bib had (the last one recorded for it)."""
    return {new: old for old, new in load(paths).items()}


def with_old_keys(papers: list[Paper], paths: Paths) -> tuple[list[Paper], list[str]]:
    """The papers under the keys their .bib gave them, and the ones kept under the
    catalog's key because another exported paper has that key (with why)."""
    from dataclasses import replace

    old = old_keys(paths)
    used = {p.key.casefold() for p in papers}
    out, kept = [], []
    for paper in papers:
        was = old.get(paper.key)
        if was is None:
            out.append(paper)
        elif was.casefold() in used:
            out.append(paper)
            kept.append(f"{paper.key}: kept, as its old key '{was}' is another paper's")
        else:
            used.add(was.casefold())
            out.append(replace(paper, key=was))
    return out, kept
