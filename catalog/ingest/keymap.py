"""The key map (data/keymap.yaml): a library's BibTeX keys that import had to change.

A .bib's own key is kept whenever the catalog can take it, so every `\\cite` in the
user's documents keeps working. When it cannot (a key the catalog already has, or one
BibTeX itself would refuse), import makes a new key and records old -> new here;
`papers export --keymap` writes the papers under their old keys again.

The file is edited through the one door (a session's `keymap`, catalog.edit.keyed):
written after the catalog gains the papers it names and before the catalog loses one,
its comments and line endings kept. Every key in it is read as text and must be a key
BibTeX takes (model.KEY_RE): a hand edit cannot close an entry in the export.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from catalog.data import yamlfile
from catalog.edit.keyed import KeyedFile
from catalog.errors import CatalogError, InvalidCatalogError, Problem
from catalog.model import KEY_RE, MAX_KEY, Paper, has_controls
from catalog.paths import Paths

HEADER = (
    "# BibTeX keys that `papers import` had to change: the key in the imported .bib file\n"
    "# -> the paper's key in the catalog. `papers export --keymap` writes the old keys.\n"
)
_HINT = "write 'OLD: NEW', each a citation key (ASCII letters, digits and -_:.+/)"


class KeymapError(CatalogError):
    """The key map cannot be read."""


@dataclass(frozen=True)
class Mapping:
    """One line of the key map: a .bib's key, the catalog's key, where it stands."""

    old: str
    new: str
    line: int


def keymap_path(paths: Paths) -> Path:
    """data/keymap.yaml beside the catalog."""
    return paths.catalog.with_name("keymap.yaml")


def is_key(text: str) -> bool:
    """True for a citation key the catalog and BibTeX take as it is."""
    return len(text) <= MAX_KEY and not has_controls(text) and KEY_RE.match(text) is not None


def parse(text: str, name: str) -> tuple[list[Mapping], list[Problem]]:
    """The mappings in a key map's text and the problems of its lines (a line with a
    problem is left out of the mappings)."""
    root = yamlfile.compose(text, name)
    if root is None:
        return [], []
    if not isinstance(root, yamlfile.MappingNode):
        line = root.start_mark.line + 1
        return [], [Problem(name, line, "", "expected 'OLD: NEW' lines", _HINT, True)]
    mappings: list[Mapping] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for old_node, new_node in root.value:
        line = old_node.start_mark.line + 1
        old = yamlfile.name_of(old_node)
        new = yamlfile.name_of(new_node) if isinstance(new_node, yamlfile.ScalarNode) else ""
        bad = next((k for k in (old, new) if not is_key(k)), None)
        if bad is not None:
            shown = repr(bad[:40]) if bad else "nothing"
            problems.append(Problem(name, line, old[:40], f"{shown} is not a citation key", _HINT))
        elif old in seen:
            problems.append(Problem(name, line, old, "listed twice", "keep one line per key"))
        else:
            mappings.append(Mapping(old, new, line))
        seen.add(old)
    return mappings, problems


def read(paths: Paths) -> tuple[list[Mapping], list[Problem]]:
    """The key map's mappings and problems; no file is an empty map."""
    shown = paths.display(keymap_path(paths))
    try:
        text = yamlfile.read_text(keymap_path(paths), shown)
    except FileNotFoundError:
        return [], []
    except InvalidCatalogError as err:
        return [], err.problems
    try:
        return parse(text, shown)
    except InvalidCatalogError as err:
        return [], err.problems


def load(paths: Paths) -> dict[str, str]:
    """Old key -> catalog key; KeymapError names the first line that is not a mapping of
    two keys (the export would write it into LaTeX)."""
    mappings, problems = read(paths)
    if problems:
        first = problems[0]
        raise KeymapError(f"{first.file}:{first.line}: {first.message} ({first.hint})")
    return {m.old: m.new for m in mappings}


def problems(paths: Paths, keys: Callable[[str], bool]) -> list[Problem]:
    """Every problem of the key map for `check`: bad lines, and keys the catalog lacks."""
    mappings, found = read(paths)
    for m in mappings:
        if not keys(m.new):
            found.append(
                Problem(
                    paths.display(keymap_path(paths)),
                    m.line,
                    m.old,
                    f"names '{m.new}', which is no paper of the catalog",
                    "remove the line, or point it at the paper's key",
                )
            )
    return found


class Keymap:
    """The key map as a session edits it (under the catalog's lock)."""

    def __init__(self, paths: Paths):
        self.paths = paths
        # It names the catalog's papers: a line naming a paper the catalog does not hold
        # yet is written after the catalog, the rest before.
        self.file = KeyedFile(paths, keymap_path(paths), HEADER, stage="named")

    def record(self, renamed: dict[str, str]) -> None:
        """Add these old -> new keys (a key BibTeX would refuse is not recorded)."""
        for old, new in sorted(renamed.items()):
            if is_key(old) and is_key(new):
                self.file.put(old, new, names=new)

    def forget(self, key: str) -> None:
        """Remove the lines that name a catalog key (its paper is leaving)."""
        mappings, _ = parse(self.file.render(), self.file.shown)
        for m in mappings:
            if m.new == key:
                self.file.remove(m.old)

    def check(self, text: str, has_paper: Callable[[str], bool]) -> None:
        """Refuse a new text with a line the map's reader would refuse, or naming a key the
        catalog will not have."""
        from catalog.edit.validation import InvalidEditError

        mappings, found = parse(text, self.file.shown)
        found += [
            Problem(self.file.shown, m.line, m.old, f"names '{m.new}', no paper", "")
            for m in mappings
            if not has_paper(m.new)
        ]
        if found:
            raise InvalidEditError(found)


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
