"""Hand-written notes (site/notes/*.md), their [[key]] links and the backlinks they make."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from catalog.errors import Problem
from catalog.hints import hint_for
from catalog.paths import Paths

# [[key]] or [[key|link text]]; keys never contain '[', ']' or '|', and link text never
# holds '[[' or ']': each scan stops where the next link could start, so a line of
# 80,000 '[[' is read in one pass, not once from each of them.
LINK_RE = re.compile(r"\[\[([^\[\]|\s]+)(?:\|((?:[^\[\]]|\[(?!\[))*+))?\]\]")
_TITLE_RE = re.compile(r"^#\s+(.+?)\s*$", re.MULTILINE)


@dataclass
class Link:
    key: str
    text: str | None
    line: int


@dataclass
class Note:
    """One note file: its title and the paper links in it, in order."""

    path: Path
    title: str
    links: list[Link] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.path.stem

    @property
    def keys(self) -> list[str]:
        """Linked keys, each once, in order of first mention."""
        return list(dict.fromkeys(link.key for link in self.links))


_NOT_BREAK_RE = re.compile("[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _masked(text: str) -> str:
    """The text with HTML comments blanked out (same length, line breaks kept).

    Every character str.splitlines breaks at is kept (U+2028 too), so the masked
    text has as many lines as the text. A comment that is never closed is left as it
    is; the search for '-->' runs once, not again from every later '<!--'.
    """
    pieces, at = [], 0
    while (start := text.find("<!--", at)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        end += 3
        pieces += [text[at:start], _NOT_BREAK_RE.sub(" ", text[start:end])]
        at = end
    return "".join(pieces) + text[at:]


def _lines(text: str) -> Iterator[tuple[int, str, str, bool]]:
    """(1-based number, line, line with comments blanked, whether links in it count)."""
    fenced = False
    masked = _masked(text).splitlines(keepends=True)
    for number, (line, mask) in enumerate(
        zip(text.splitlines(keepends=True), masked, strict=True), 1
    ):
        if mask.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            yield number, line, mask, False
        else:
            yield number, line, mask, not fenced


def find_links(text: str) -> list[Link]:
    """Every [[key]] link with its 1-based line, skipping fenced code and HTML comments."""
    links: list[Link] = []
    for number, _, mask, live in _lines(text):
        if live:
            links.extend(Link(m.group(1), m.group(2), number) for m in LINK_RE.finditer(mask))
    return links


def replace_links(text: str, render: Callable[[Link], str]) -> str:
    """The text with each [[key]] link found by find_links replaced by render(link)."""
    if "[[" not in text:
        return text
    out = []
    for number, line, mask, live in _lines(text):
        if live and "[[" in mask:
            pieces, last = [], 0
            for m in LINK_RE.finditer(mask):  # same offsets in the line: masking keeps length
                pieces += [line[last : m.start()], render(Link(m.group(1), m.group(2), number))]
                last = m.end()
            line = "".join(pieces) + line[last:]
        out.append(line)
    return "".join(out)


def read_note(path: Path) -> Note:
    text = path.read_text(encoding="utf-8")
    m = _TITLE_RE.search(text)
    title = m.group(1) if m else path.stem.replace("-", " ").capitalize()
    return Note(path, title, find_links(text))


def load_notes(paths: Paths) -> list[Note]:
    """Every note, sorted by file name."""
    folder = paths.notes
    if not folder.is_dir():
        return []
    return [read_note(p) for p in sorted(folder.glob("*.md"))]


def reading_notes(paths: Paths) -> list[Note]:
    """Every reading note (data/readings/KEY.md), sorted by file name."""
    folder = paths.readings
    if not folder.is_dir():
        return []
    return [read_note(p) for p in sorted(folder.glob("*.md")) if p.is_file()]


def backlinks(notes: list[Note]) -> dict[str, list[Note]]:
    """key -> the notes that mention it."""
    out: dict[str, list[Note]] = {}
    for note in notes:
        for key in note.keys:
            out.setdefault(key, []).append(note)
    return out


def check_links(paths: Paths, keys: set[str]) -> list[Problem]:
    """A problem for every [[key]] in a note or a reading note that names no paper."""
    problems = []
    for note in [*load_notes(paths), *reading_notes(paths)]:
        shown = paths.display(note.path)
        for link in note.links:
            if link.key not in keys:
                hint = hint_for(link.key, keys) or "add the paper to the catalog or fix the key"
                problems.append(
                    Problem(
                        shown, link.line, note.slug, f"link to unknown paper '{link.key}'", hint
                    )
                )
    return problems
