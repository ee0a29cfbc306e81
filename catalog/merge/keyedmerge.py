"""Three-way merge of a file of named entries: the registries (venues.yaml, tags.yaml),
authors.yaml, the reader's reading.yaml, the key map and the inbox.

Each file is a keyed map (catalog.edit.keyed): entries merge by name, an entry's value
field by field (a mapping's keys one by one, a list as a set). Theirs' changes are
recorded on ours' KeyedFile, so every entry neither side changed keeps its lines; an
entry only theirs changed takes theirs' lines, comments and all. A section that lists
names (reading.yaml's queue) merges as an ordered list. An entry changed two ways, or
deleted on one side and changed on the other, is written between git's markers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalog.data import yamlfile
from catalog.edit.document import Block, Document, parse_registry, shift_lines
from catalog.edit.keyed import KeyedFile
from catalog.merge.catalogmerge import OURS, SEP, THEIRS, markers
from catalog.merge.values import Clash, merge_sequence, merge_set, merge_value
from catalog.paths import Paths

# The entries cut further, by file name: reading.yaml's sections (the inbox's dropped ids
# are one flow list, merged as a set).
NESTED = {
    "reading.yaml": frozenset({"papers", "queue"}),
}
# git's markers stand at the start of a line; an entry's lines are indented by its file.
_INDENTED_MARKER = re.compile(r"^[ \t]+(<<<<<<< ours|=======|>>>>>>> theirs)$", re.MULTILINE)


@dataclass(frozen=True)
class Entry:
    """One entry of a version: its lines at column 0 and its value."""

    lines: list[str]
    value: Any


def merge_keyed(base: str, path: Path, theirs: str, shown: str) -> tuple[str, list[str]]:
    """Theirs' changes since base applied to ours (the file at path, read as the one
    door reads it): the merged text and the names of the entries in conflict."""
    nested = NESTED.get(Path(shown).name, frozenset())
    paths = Paths(path.parent / "papers.yaml", path.parent / "catalog.db")
    ours = KeyedFile(paths, path, nested=nested)
    old, yours = parse_registry(base, "base", nested), parse_registry(theirs, "theirs", nested)
    conflicts: list[str] = []
    sections = sorted(nested)
    levels = [None, *sections]
    was = {s: _entries(old, s, nested) for s in levels}
    mine = {s: _entries(ours.doc, s, nested) for s in levels}
    theirs_ = {s: _entries(yours, s, nested) for s in levels}
    for section in levels:
        if section is not None and _is_list([old, ours.doc, yours], section):
            _merge_list(
                ours, section, list(was[section]), list(mine[section]), list(theirs_[section])
            )
        else:
            _merge(ours, section, was[section], mine[section], theirs_[section], conflicts)
    text = ours.render() if ours.changed else ours.text
    return _INDENTED_MARKER.sub(r"\1", text), conflicts


def _entries(doc: Document, section: str | None, nested: frozenset[str]) -> dict[str, Entry]:
    """A document's entries (top-level, sections left out; or a section's), by name."""
    if section is None:
        blocks = [b for b in doc.blocks if b.key not in nested]
    else:
        parent = next((b for b in doc.blocks if b.key == section), None)
        blocks = parent.children if parent is not None else []
    return {b.key: _entry(b) for b in blocks}


def _entry(block: Block) -> Entry:
    lines = shift_lines(block.head, -block.indent)
    root = yamlfile.compose("".join(lines), "entry")
    value = yamlfile.construct(root) if root is not None else None
    if isinstance(value, dict) and len(value) == 1:
        value = next(iter(value.values()))
    return Entry(lines, value)


def _is_list(docs: list[Document], section: str) -> bool:
    """True when a section is a list of names in any version (its children are items)."""
    for doc in docs:
        parent = next((b for b in doc.blocks if b.key == section), None)
        if parent is not None and parent.children:
            return parent.children[0].head[0].lstrip().startswith("- ")
    return False


def _merge(
    ours: KeyedFile,
    section: str | None,
    base: dict[str, Entry],
    mine: dict[str, Entry],
    yours: dict[str, Entry],
    conflicts: list[str],
) -> None:
    """Theirs' changes to one level's entries recorded on ours."""
    for name, old in base.items():
        a, b = mine.get(name), yours.get(name)
        if b is None:
            if a is not None and a.value == old.value:
                ours.remove(name, section)
            elif a is not None:
                ours.put_lines(name, [OURS, *a.lines, SEP, THEIRS], section)
                conflicts.append(name)
        elif a is None:
            if b.value != old.value:
                at = _place(name, yours, mine)
                ours.put_lines(name, [OURS, SEP, *b.lines, THEIRS], section, at)
                conflicts.append(name)
        else:
            _both(ours, section, name, old, a, b, conflicts)
    for name, b in yours.items():
        if name in base:
            continue
        a = mine.get(name)
        if a is None:
            ours.put_lines(name, b.lines, section, _place(name, yours, mine))
        else:
            _both(ours, section, name, None, a, b, conflicts)


def _both(
    ours: KeyedFile,
    section: str | None,
    name: str,
    old: Entry | None,
    a: Entry,
    b: Entry,
    conflicts: list[str],
) -> None:
    """An entry both sides hold: theirs' lines when only theirs changed it (a comment in
    it, too), else merged."""
    base = old.value if old is not None else None
    if old is not None and a.lines == old.lines and b.lines != old.lines:
        ours.put_lines(name, b.lines, section)
        return
    if b.value == base or a.value == b.value:
        return
    if a.value == base:
        ours.put_lines(name, b.lines, section)
        return
    merged = merge_data(base, a.value, b.value)
    if isinstance(merged, Clash):
        ours.put_lines(name, markers(a.lines, b.lines), section)
        conflicts.append(name)
    else:
        ours.put(name, merged, section=section)


def merge_data(base: Any, ours: Any, theirs: Any) -> Any:
    """Two changed values merged: a mapping key by key, a list as a set, else one value."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        old = base if isinstance(base, dict) else {}
        merged: dict[str, Any] = {}
        for key in dict.fromkeys([*ours, *theirs, *old]):
            value = merge_data(old.get(key), ours.get(key), theirs.get(key))
            if isinstance(value, Clash):
                return Clash(ours, theirs)
            if value is not None:
                merged[key] = value
        return merged
    if isinstance(ours, list) and isinstance(theirs, list):
        return merge_set(base if isinstance(base, list) else [], ours, theirs)
    return merge_value(base, ours, theirs)


def _place(name: str, yours: dict[str, Entry], mine: dict[str, Entry]) -> str:
    """Where a new entry of theirs goes in ours: before the entry that follows it in
    theirs and is in ours, else at the end."""
    names = list(yours)
    for after in names[names.index(name) + 1 :]:
        if after in mine:
            return f"before:{after}"
    return "end"


def _merge_list(
    ours: KeyedFile, section: str, base: list[str], mine: list[str], yours: list[str]
) -> None:
    """A section listing names (the reading queue) merged as an ordered list; two ways of
    reordering it keep ours' order with theirs' additions and removals."""
    merged = merge_sequence(base, mine, yours)
    if isinstance(merged, Clash):
        merged = merge_set(base, mine, yours)
    if merged == mine:
        return
    for name in mine:
        ours.remove(name, section)
    for name in merged:
        ours.put_lines(name, [f"- {name}\n"], section, "end")
