"""Edits of existing papers as patches of the catalog's bytes.

When the index holds the file's bytes, a paper's lines are found through it (its year
block by its digest, the entry by its line) and replaced in the bytes, which are never
decoded or cut as a whole: a one-paper edit of a 100,000-paper file reads one entry.
The new lines are read back and compared before anything is written (catalog.writer).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalog import yamlio
from catalog.model import FIELDS, STATUSES, content_digest
from catalog.yamldoc import Block

# ---------------------------------------------------------------- patches


# Characters PyYAML counts as line breaks besides LF and CR (NEL, LS, PS): a year block
# holding one is cut as a whole, where line numbers are PyYAML's.
OTHER_BREAKS = ("\x85".encode(), "\u2028".encode(), "\u2029".encode())


def other_break(data: bytes, begin: int, end: int) -> bool:
    """Whether NEL, LS or PS lies between begin and end: their first bytes (C2, E2) looked
    for with memchr, which is 20 times faster than a search for each one, unless text
    full of E2 (dashes, quotes) makes the three searches the cheaper way."""
    for lead in (b"\xc2", b"\xe2"):
        at, seen = data.find(lead, begin, end), 0
        while at >= 0:
            if data.startswith(OTHER_BREAKS, at, end):
                return True
            seen += 1
            if seen > 1000:
                return any(data.find(sep, begin, end) >= 0 for sep in OTHER_BREAKS)
            at = data.find(lead, at + 1, end)
    return False


class YearBytes:
    """A year block of the file's bytes: where it lies and its first line; a line's start
    is found by counting newlines from the last one asked for (a 100k-paper file is never
    cut into a million line objects)."""

    def __init__(self, data: bytes, begin: int, end: int, start: int):
        self.data, self.begin, self.end, self.start = data, begin, end, start
        self._known = (start, begin)  # a line and where it starts

    def offset(self, line: int) -> int | None:
        """Where a line of the file (1-based) starts, if it is in this block."""
        known, pos = self._known if self._known[0] <= line else (self.start, self.begin)
        found = _skip_lines(self.data, pos, line - known, self.end)
        if found is not None:
            self._known = (line, found)
        return found


def _skip_lines(data: bytes, pos: int, count: int, end: int) -> int | None:
    """The offset just after the count-th newline from pos (None past end): counted in
    long strides by bytes.count, the last few stepped with find."""
    stride = 128 * max(count, 1)
    while count > 16:
        ahead = min(pos + stride, end)
        seen = data.count(b"\n", pos, ahead)
        if seen >= count:
            stride //= 2
            continue
        pos, count = ahead, count - seen
        if ahead == end:
            return None
        stride = max(128 * count, 256)
    for _ in range(count):
        pos = data.find(b"\n", pos, end) + 1
        if pos == 0:
            return None
    return pos if pos < end else None


@dataclass
class Patch:
    """An existing paper's lines, replaced in the file's bytes.

    Found through the index (its year block's digest, its line), without reading the rest
    of the file; its extent is YAML's own rule for a block sequence entry: the '- ' line
    and every following line indented deeper (blank and comment lines in between). Before
    anything is written the new lines are read back with the catalog's reader
    (catalog.validation.read_placed) and must give exactly the paper the session made: a
    layout this rule does not fit, or a line edit (edit_lines) that misread one, is
    caught there, and the session's changes are then made by ruamel in the cut file."""

    key: str
    year: int
    venue: str
    begin: int  # byte offsets of its lines in the file read
    end: int
    line: int  # 1-based line of its first line in the file read
    original: list[str]
    block: Block
    broken: bool = False  # not to be trusted: its changes are made again in the cut file


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip(b" "))


def entry(data: bytes, at: int, begin: int, end: int) -> tuple[int, int, int] | None:
    """(start, stop, column of '-'): the bytes of the sequence entry whose mapping starts
    on the line at offset at, or None when the layout is not the plain one."""
    stop = data.find(b"\n", at, end) + 1
    if stop == 0:
        return None  # the file's last line: the cut file keeps its missing newline
    start = at
    if not data[at:stop].lstrip(b" ").startswith(b"- "):
        above = max(data.rfind(b"\n", begin, at - 1) + 1, begin)
        if at == begin or data[above:at].strip() != b"-":  # '-' alone on the line above
            return None
        start = above
    column = _indent(data[start:stop])
    if column == 0:
        return None
    last = data.find(b"\n", start, end) + 1
    pos = last
    while pos < end:
        next_pos = data.find(b"\n", pos, end) + 1
        if next_pos == 0:
            next_pos = end  # no newline at the end of the file
        line = data[pos:next_pos]
        rest = line.lstrip(b" ")
        if rest.strip() and not rest.startswith(b"#"):
            if _indent(line) <= column:
                break
            last = next_pos
        pos = next_pos
    if data[last - 1:last] != b"\n":
        return None
    return start, last, column


def split_lines(text: str) -> list[str]:
    """Lines cut at LF only, ends kept (str.splitlines also cuts at form feeds and other
    characters YAML reads as text)."""
    return [line + "\n" for line in text.split("\n")[:-1]]


_KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?= |\n)")
_FLOW_TAGS_RE = re.compile(r"tags: \[[^\[\]{}\n]*\]\n")
_PLAIN_TAG_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_RESERVED = frozenset(("null", "true", "false", "yes", "no", "on", "off", "y", "n"))
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
# The fields edit_lines writes itself, and what a value it may replace looks like.
_LINE_FIELDS = {"tags": _FLOW_TAGS_RE, "status": re.compile(r"status: [a-z-]+\n"),
                "read_on": re.compile(r"read_on: \d{4}-\d{2}-\d{2}\n")}


_ORDER = {name: i for i, name in enumerate(FIELDS)}  # where ruamel inserts a field


@functools.lru_cache(maxsize=4096)
def _plain_tag(tag: str) -> bool:
    """A tag ruamel writes bare in a flow list (a rename asks once per tag, not per paper)."""
    return bool(_PLAIN_TAG_RE.fullmatch(tag)) and tag not in _RESERVED


def _field_text(name: str, value: Any) -> str | bool | None:
    """A field's line as ruamel writes it (without indentation); None when setting it
    removes it; False when ruamel must write it."""
    if value in (None, [], False, "") or (name == "status" and value == "to-read"):
        return None
    if name == "tags":
        if not all(isinstance(t, str) and _plain_tag(t) for t in value):
            return False
        return f"tags: [{', '.join(value)}]\n"
    if name == "status":
        return f"status: {value}\n" if value in STATUSES else False
    if name == "read_on" and isinstance(value, str) and _DATE_RE.fullmatch(value):
        with contextlib.suppress(ValueError):
            dt.date.fromisoformat(value)
            return f"read_on: {value}\n"
    return False


def _fields_of(head: list[str]) -> tuple[int, list[list[Any]]] | None:
    """(column, [[name, first line, last line], ...]) of a paper's lines in the plain
    layout: '- key: ...', one field per line at one column, longer values only on deeper
    lines; no comment, blank line or block scalar. None otherwise."""
    first = head[0]
    after = first[first.index("-") + 1:]
    if not after.strip() or "#" in "".join(head):
        return None
    column = len(first) - len(after.lstrip(" "))
    pad = " " * column
    fields: list[list[Any]] = []
    for i, line in enumerate(head):
        # (a line after the first: indented less than column, or only blanks, ends it
        # all; a blank at column is a deeper line's; anything else there starts a field)
        if i:
            if not line.startswith(pad):
                return None
            if line[column] == " ":
                if not line.strip():
                    return None
                fields[-1][2] = i
                continue
        match = _KEY_RE.match(line, column)
        if match is None or line[match.end():].lstrip().startswith(("|", ">")):
            return None
        fields.append([match.group(1), i, i])
    if len({f[0] for f in fields}) != len(fields):
        return None  # a name twice: a value's own line that looks like a field
    return column, fields


def edit_lines(block: Block, changes: dict[str, Any]) -> bool:
    """Set tags, status or read_on by rewriting the paper's lines as ruamel would write
    them (ruamel's import and round trip cost more than the rest of a one-paper edit);
    False, and nothing done, for any other field or a layout other than the plain one.
    tests/test_edit_patches.py holds both ways to the same bytes."""
    if block.doc is not None or not changes or not set(changes) <= set(_LINE_FIELDS):
        return False
    found = _fields_of(block.head)
    if found is None:
        return False
    column, fields = found
    head = list(block.head)
    for name, value in changes.items():
        text = _field_text(name, value)
        if text is False:
            return False
        at = next((i for i, f in enumerate(fields) if f[0] == name), None)
        if at is not None:  # replaced or removed where it is
            _, first, last = fields[at]
            if first == 0 or first != last or not _LINE_FIELDS[name].fullmatch(
                    head[first], column):
                return False
            head[first:first + 1] = [" " * column + text] if text else []
            if not text:
                del fields[at]
                for f in fields[at:]:
                    f[1], f[2] = f[1] - 1, f[2] - 1
            continue
        if text is None:
            continue
        rank = _ORDER[name]  # after as many fields as rank at most as high (ruamel's insert)
        place = sum(1 for f in fields if _ORDER.get(f[0], len(FIELDS)) <= rank)
        if place == 0:
            return False
        line = fields[place - 1][2] + 1
        head.insert(line, " " * column + text)
        fields.insert(place, [name, line, line])
        for f in fields[place + 1:]:
            f[1], f[2] = f[1] + 1, f[2] + 1
    block.head = head
    return True


class Background:
    """A function run in a thread (for C work that lets go of the GIL, as hashing does)."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        import threading

        self._out: list[Any] = []
        self._err: list[BaseException] = []

        def run() -> None:
            try:
                self._out.append(fn(*args))
            except BaseException as err:  # handed to result()
                self._err.append(err)

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def result(self) -> Any:
        self._thread.join()
        if self._err:
            raise self._err[0]
        return self._out[0]


class CatalogBytes:
    """The catalog's bytes as a session read them, and where the index says its year
    blocks and papers lie in them: each year block found once, by its 'YEAR:' line, and
    checked against the digest the index keeps of it before a paper in it is patched."""

    def __init__(self, data: bytes, snapshot: Any):
        self.data = data
        self._snapshot = snapshot  # catalog.snapshot.Snapshot: the index's year blocks
        self._years: dict[str, YearBytes | None] = {}
        self._blocks: dict[str, tuple[str, int]] | None = None
        self._order: list[str] = []  # year blocks in file order, and where those found begin
        self._begins: list[int] = []

    def patch(self, paper: Any) -> Patch | None:
        """A patch of this paper's lines (as the index places it), or None when its entry
        cannot be found so (an unusual layout, CR line ends, a block the index did not read)."""
        year = self.year_bytes(str(paper.year))
        if year is None:
            return None
        at = year.offset(paper.line)
        found = entry(self.data, at, year.begin, year.end) if at is not None else None
        if found is None:
            return None
        start, stop, column = found
        head = split_lines(self.data[start:stop].decode("utf-8"))
        line = paper.line - (start < at)  # the '-' alone on the line above
        return Patch(paper.key, paper.year, paper.venue, start, stop, line, head,
                     Block(paper.key, [], list(head), column))

    def year_bytes(self, label: str) -> YearBytes | None:
        """A year block's bytes, found by its label and checked against the digest the
        index keeps of it; None when it cannot be (then the file is cut as a whole)."""
        if label not in self._years:
            self._years[label] = self._find_year(label)
        return self._years[label]

    def _find_year(self, label: str) -> YearBytes | None:
        span = self._span(label)
        if span is None:
            return None
        begin, end = span
        data = self.data
        digest, start = self._blocks[label]  # type: ignore[index]
        if content_digest(memoryview(data)[begin:end]) != digest \
                or other_break(data, begin, end):
            return None  # not the block the index read, or lines YAML counts differently
        return YearBytes(data, begin, end, start)

    def _span(self, label: str) -> tuple[int, int] | None:
        """Where a year block the index knows lies in the bytes (begin, end), found by the
        'LABEL:' lines of it and the blocks before it (searched once, as far as asked)."""
        data = self.data
        if self._blocks is None:
            self._blocks = self._snapshot.blocks() if b"\r" not in data else {}  # LF only
            self._order = sorted(self._blocks, key=lambda b: self._blocks[b][1])  # type: ignore[index]
            self._begins = [0] if self._order else []
        if label not in self._blocks:
            return None
        at = self._order.index(label)
        while len(self._begins) < min(at + 2, len(self._order)):
            found = data.find(b"\n" + self._order[len(self._begins)].encode() + b":",
                              self._begins[-1])
            if found < 0:  # written otherwise ('2023' :, quoted): cut the file
                self._blocks, self._order, self._begins = {}, [], []
                return None
            self._begins.append(found + 1)
        end = self._begins[at + 1] if at + 1 < len(self._order) else len(data)
        return self._begins[at], end

    def diff(self, edits: list[Patch], name: str, whole: Callable[[str], str]) -> str:
        """The unified diff of the catalog that patches make, as difflib gives it for the
        whole file, from windows of a few lines around them (a 100k-paper file is never
        compared as a whole). whole: the diff of the new text, for a file whose lines
        str.splitlines cuts otherwise than at LF."""
        import difflib
        import re as regex

        data = self.data
        if regex.search(b"[\x0b\x0c\x1c-\x1e]", data) or any(
                sep in data for sep in OTHER_BREAKS):  # str.splitlines cuts there too
            return whole(yamlio.decode(b"".join(self.parts(edits)), name))
        windows: list[list[Any]] = []  # [begin, end, first line, patches]
        for patch in edits:
            begin, above = patch.begin, 0
            while above < 3 and begin > 0:
                begin = data.rfind(b"\n", 0, begin - 1) + 1
                above += 1
            end = patch.end
            for _ in range(3):
                end = (data.find(b"\n", end) + 1) or len(data)
            if windows and begin <= windows[-1][1]:
                windows[-1][1] = end
                windows[-1][3].append(patch)
            else:
                windows.append([begin, end, patch.line - above, [patch]])
        out = [f"--- {name}\n", f"+++ {name}\n"]
        moved = 0
        for begin, end, first, patches in windows:
            old = data[begin:end].decode("utf-8").splitlines(keepends=True)
            new = b"".join(self.parts(patches, begin, end)).decode("utf-8").splitlines(
                keepends=True)
            out += [_renumber(line, first - 1, first - 1 + moved)
                    for line in list(difflib.unified_diff(old, new, n=3))[2:]]
            moved += len(new) - len(old)
        return "".join(out)

    def parts(self, edits: list[Patch], begin: int = 0, end: int | None = None
               ) -> list[bytes | memoryview]:
        """The bytes from begin to end of the file with these patches' new lines."""
        view = memoryview(self.data)
        parts: list[bytes | memoryview] = []
        at = begin
        for patch in edits:
            parts += [view[at:patch.begin], "".join(patch.block.head).encode("utf-8")]
            at = patch.end
        parts.append(view[at:end])
        return parts


    def year_parts(self, label: str, edits: list[Patch]) -> list[bytes | memoryview]:
        """A year block's bytes with these patches (all in it) made."""
        year = self._years[label]
        assert year is not None  # a patch is made only in a year block found
        return self.parts(edits, year.begin, year.end)


_HUNK_RE = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _renumber(line: str, old: int, new: int) -> str:
    """A line of a window's diff, its hunk header moved to the whole file's lines."""
    m = _HUNK_RE.match(line)
    if m is None:
        return line
    return (f"@@ -{int(m[1]) + old}{m[2] or ''} +{int(m[3]) + new}{m[4] or ''} @@"
            + line[m.end():])
