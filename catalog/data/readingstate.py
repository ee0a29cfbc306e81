"""The reader's own state (data/reading.yaml): each paper's status and dates, the queue.

The curated catalog (data/papers.yaml) is the curator's, reviewed and published; what
one reader does with it is theirs and lives in a file of its own beside it:

    papers:
      sima2022ekko: {status: read, read_on: 2024-03-01}
      he2021fastmoe: {status: reading, started_on: 2024-03-04}
    queue:            # papers moved to the top of the to-read queue, first first
      - lai2023adaembed

A paper missing from `papers:` is to-read. (An older catalog wrote status and read_on on
its papers; `papers check` names those lines and `papers status --migrate` moves them
here.)
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from catalog.data import yamlfile
from catalog.errors import InvalidCatalogError, Problem
from catalog.hints import hint_for
from catalog.model import STATUSES
from catalog.paths import Paths

# The fields an entry may hold: the status and the dates papers records with it.
ENTRY_FIELDS = ("status", "started_on", "read_on")
SECTIONS = ("papers", "queue")


@dataclass(frozen=True)
class Entry:
    """One paper's reading state."""

    key: str
    status: str
    started_on: str | None = None
    read_on: str | None = None
    line: int = 0

    def to_dict(self) -> dict[str, str]:
        """The entry's fields that are set, in file order."""
        values = {"status": self.status, "started_on": self.started_on, "read_on": self.read_on}
        return {name: value for name, value in values.items() if value}


@dataclass
class ReadingState:
    """The reading file as read: entries by key, the queue's order, and what was wrong."""

    entries: dict[str, Entry] = field(default_factory=dict)
    queue: list[str] = field(default_factory=list)
    queue_lines: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def is_date(value: str) -> bool:
    """True for an ISO date (YYYY-MM-DD)."""
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return len(value) == 10


def load(paths: Paths) -> ReadingState:
    """The reading file (an empty state when there is none); InvalidCatalogError when it
    cannot be read at all, every other problem in .problems with its line."""
    name = paths.display(paths.reading)
    try:
        text = yamlfile.read_text(paths.reading, name)
    except FileNotFoundError:
        return ReadingState()
    return parse(text, name)


def parse(text: str, name: str) -> ReadingState:
    """The reading state in a file's text (name: the file as the user reads it)."""
    root = yamlfile.compose(text, name)
    state = ReadingState()
    if root is None:
        return state
    if not isinstance(root, yamlfile.MappingNode):
        raise InvalidCatalogError([_unreadable(name, root, "expected a mapping at the top level")])
    for key_node, value in root.value:
        section = yamlfile.name_of(key_node)
        if section == "papers":
            _entries(state, value, name)
        elif section == "queue":
            _queue(state, value, name)
        else:
            hint = hint_for(section, SECTIONS) or "the file holds papers: and queue:"
            state.problems.append(
                Problem(name, _line(key_node), "", f"unknown section '{section}'", hint)
            )
    return state


def _line(node: yamlfile.Node) -> int:
    return int(node.start_mark.line) + 1


def _unreadable(name: str, node: yamlfile.Node, message: str) -> Problem:
    hint = "write 'papers:' with one 'KEY: {status: read, read_on: YYYY-MM-DD}' a line"
    return Problem(name, _line(node), "", message, hint, True)


def _entries(state: ReadingState, node: yamlfile.Node, name: str) -> None:
    if yamlfile.is_null(node):
        return
    if not isinstance(node, yamlfile.MappingNode):
        raise InvalidCatalogError([_unreadable(name, node, "papers: is not a mapping")])
    for key_node, value_node in node.value:
        key, line = yamlfile.name_of(key_node), _line(key_node)
        value = yamlfile.construct(value_node)
        if not isinstance(value, dict):
            value = {"status": value}  # 'key: read' reads as the status alone
        entry, problems = _entry(key, line, value, name)
        state.problems += problems
        if key in state.entries:
            state.problems.append(
                Problem(name, line, key, "listed twice", "keep one entry per paper")
            )
        if entry is not None:
            state.entries[key] = entry


def _entry(key: str, line: int, value: dict, name: str) -> tuple[Entry | None, list[Problem]]:
    """An entry from its mapping, or None and the problem that makes it unusable."""
    problems = []
    for extra in sorted(set(map(str, value)) - set(ENTRY_FIELDS)):
        hint = hint_for(extra, ENTRY_FIELDS) or "fields are " + ", ".join(ENTRY_FIELDS)
        problems.append(Problem(name, line, key, f"unknown field '{extra}'", hint))
    status = str(value.get("status") or "")
    if status not in STATUSES:
        hint = hint_for(status, STATUSES) or "use " + ", ".join(STATUSES)
        return None, [*problems, Problem(name, line, key, f"unknown status '{status}'", hint)]
    dates: dict[str, str | None] = {}
    for field_name in ("started_on", "read_on"):
        raw = value.get(field_name)
        dates[field_name] = str(raw) if raw else None
        if raw and not is_date(str(raw)):
            problems.append(
                Problem(name, line, key, f"{field_name} '{raw}' is not a date", "write YYYY-MM-DD")
            )
            dates[field_name] = None
    return Entry(key, status, dates["started_on"], dates["read_on"], line), problems


def _queue(state: ReadingState, node: yamlfile.Node, name: str) -> None:
    if yamlfile.is_null(node):
        return
    if not isinstance(node, yamlfile.SequenceNode):
        raise InvalidCatalogError(
            [Problem(name, _line(node), "", "queue: is not a list", "write '- KEY' lines", True)]
        )
    for item in node.value:
        key = yamlfile.name_of(item)
        if key in state.queue_lines:
            continue
        state.queue.append(key)
        state.queue_lines[key] = _line(item)


def problems(paths: Paths, keys: set[str]) -> list[Problem]:
    """Every problem of the reading file: unreadable parts, bad fields, unknown keys."""
    try:
        state = load(paths)
    except InvalidCatalogError as err:
        return err.problems
    name = paths.display(paths.reading)
    found = list(state.problems)
    named = [(e.key, e.line) for e in state.entries.values()]
    named += list(state.queue_lines.items())
    for key, line in named:
        if key not in keys:
            hint = hint_for(key, keys) or "remove the line, or add the paper to the catalog"
            found.append(Problem(name, line, key, "no paper with this key", hint))
    return found
