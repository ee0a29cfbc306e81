"""The one door for writes: round-trip edits of the catalog and its registries.

Every change to data/papers.yaml, venues.yaml and tags.yaml goes through an
`edit()` session: it takes the catalog's lock, reads the files, applies the
edits, validates the result with the same reader and checks as `papers check`,
writes each changed file atomically (temporary file in the same folder, fsync,
rename) and refreshes the index.

How the file keeps its form: the text is cut along its structure (years, venues,
papers; or a registry's entries) into blocks of whole lines, each with the
comment and blank lines that lead into it. An edit re-renders only the blocks it
touches: a paper's own lines go through ruamel.yaml in round-trip mode (quotes,
comments and key order kept); new papers, venues and years are dumped by ruamel
and placed in sorted order; every other line is copied as it was. So a `tag`
changes only the lines of that paper, and the cost of an edit does not grow
with the ruamel load of the whole file (a 10k-paper catalog stays quick).

The parts, one job each: `Document`/`Block` (the catalog's text cut for editing),
`Registries` (the edits to venues.yaml and tags.yaml), `Session` (the edit
operations on papers), catalog.snapshot (the papers as the session found them),
catalog.validation (whether the new texts may be written) and catalog.files (the
atomic write, the locks).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from catalog import files, source, yamlio
from catalog.errors import (
    CatalogError,
    InvalidCatalogError,
    LockTimeoutError,
    PaperNotFound,
    Problem,
)
from catalog.files import CRASH_ENV, atomic_write
from catalog.model import FIELDS, LIST_FIELDS, STATUSES, Paper
from catalog.paths import Paths
from catalog.snapshot import Papers, Snapshot
from catalog.suggest import hint_for
from catalog.validation import (
    NEAR_DUPLICATE_MESSAGE,
    EditCheck,
    InvalidEditError,
    same_but_line,
)
from catalog.venues import Venue

# Seconds to wait for another papers process to finish its write.
LOCK_TIMEOUT = 120.0
__all__ = ["CRASH_ENV", "NEAR_DUPLICATE_MESSAGE", "InvalidEditError", "LockTimeoutError",
           "atomic_write"]  # re-exported for callers
# Fields written in double quotes, as the hand-written file does.
_QUOTED = {"title", "booktitle", "summary", "abstract", "arxiv", "volume", "number", "pages",
           "chapter"}
_DATES = {"read_on", "added"}
_LISTS = set(LIST_FIELDS)
TAG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class WriteError(CatalogError):
    """The edit cannot be made to this file's text (its shape is unusual)."""


# ---------------------------------------------------------------- ruamel set-up


def yaml_rt() -> Any:
    """A ruamel.yaml round-trip instance set up to match the catalog's own layout."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap long titles or author lists
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _dump(yaml: Any, data: Any) -> str:
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


_PLAIN_OK = re.compile(r"^[A-Za-z0-9À-ɏḀ-ỿ][^,:#\[\]{}&*!|>'\"%@`]*$")


def _styled(name: str, value: Any) -> Any:
    """A value dressed the way the file writes it: quoted titles, flow lists, bare dates."""
    from ruamel.yaml.comments import CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString as Quoted

    if name in _LISTS:
        items = [v if _PLAIN_OK.match(v) and v == v.strip() and not _resolves(v) else Quoted(v)
                 for v in value]
        seq = CommentedSeq(items)
        seq.fa.set_flow_style()
        return seq
    if name in _DATES and isinstance(value, str):
        with contextlib.suppress(ValueError):
            return dt.date.fromisoformat(value)
    if isinstance(value, str) and (name in _QUOTED or _resolves(value)):
        return Quoted(value)
    return value


def key_text(name: str) -> str:
    """A mapping key as the file writes it: plain when safe, else double-quoted (never the
    '? ' form ruamel uses for keys longer than 128 characters)."""
    import json

    if _PLAIN_OK.match(name) and name == name.strip() and not _resolves(name):
        return name
    return json.dumps(name, ensure_ascii=False)


def _resolves(text: str) -> bool:
    """True when a plain scalar would not read back as this string (a number, date, null)."""
    from ruamel.yaml.nodes import ScalarNode
    from ruamel.yaml.resolver import VersionedResolver

    tag = VersionedResolver().resolve(ScalarNode, text, (True, False))
    return str(tag) != "tag:yaml.org,2002:str"


# ---------------------------------------------------------------- text blocks


@dataclass
class Block:
    """Whole lines of a file: the comments leading into an entry, its own lines, its children."""

    key: str
    lead: list[str]
    head: list[str]
    indent: int  # column of its key, or of its '- ' for a paper
    children: list[Block] = field(default_factory=list)
    child_indent: int | None = None
    open: bool = True  # children can be added as lines below the head
    doc: Any = None  # ruamel data when loaded for editing
    dirty: bool = False
    tail: list[str] = field(default_factory=list)  # lines after its children (a year read alone)
    lazy: bool = False  # a year block not yet cut: head holds all its lines

    def render(self, out: list[str]) -> None:
        out.extend(self.lead)
        out.extend(self.head)
        for child in self.children:
            child.render(out)
        out.extend(self.tail)


@dataclass
class Document:
    """A YAML file cut into blocks; render() gives back the same bytes until edited."""

    header: list[str]
    blocks: list[Block]
    trailer: list[str]
    final_newline: bool = True

    def render(self) -> str:
        out: list[str] = list(self.header)
        for block in self.blocks:
            block.render(out)
        out.extend(self.trailer)
        text = "".join(out)
        return text if self.final_newline or not text.endswith("\n") else text[:-1]


def _lines(text: str) -> tuple[list[str], bool]:
    lines = text.splitlines(keepends=True)
    final = not lines or lines[-1].endswith("\n")
    if not final:
        lines[-1] += "\n"
    return lines, final


def _end_line(node: yamlio.Node) -> int:
    """0-based last line holding the node's own text."""
    if isinstance(node, yamlio.MappingNode) and node.value and not node.flow_style:
        return _end_line(node.value[-1][1])
    if isinstance(node, yamlio.SequenceNode) and node.value and not node.flow_style:
        return _end_line(node.value[-1])
    mark = node.end_mark
    return mark.line - 1 if mark.column == 0 and mark.line > node.start_mark.line else mark.line


def _is_empty(node: yamlio.Node) -> bool:
    return isinstance(node, yamlio.ScalarNode) and node.tag.endswith(":null") and not node.value


class _Cutter:
    """Assigns every line of a file to exactly one block (or the header or trailer)."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.pos = 0  # first line not yet given to a block

    def take(self, start: int, end: int) -> tuple[list[str], list[str]]:
        """Lines before start (the lead) and lines start..end (the head)."""
        if start < self.pos or end < start:
            raise WriteError(f"unusual layout near line {start + 1}; "
                             "write one entry per line block, as the rest of the file does")
        lead = self.lines[self.pos:start]
        head = self.lines[start:end + 1]
        self.pos = end + 1
        return lead, head


def _trim_blank_tail(lines: list[str], start: int, end: int) -> int:
    while end > start and not lines[end].strip():
        end -= 1
    return end


def parse_catalog(text: str, filename: str) -> Document:
    """papers.yaml cut into year, venue and paper blocks."""
    lines, final = _lines(text)
    root = yamlio.compose(text, filename)
    cutter = _Cutter(lines)
    blocks: list[Block] = []
    if root is not None and not isinstance(root, yamlio.MappingNode):
        raise InvalidCatalogError([Problem(filename, 1, "", "expected years at the top level",
                                           "start the file with a year, e.g. '2023:'", True)])
    first_start = None
    for year_node, venues_node in root.value if root is not None else []:
        first_start = year_node.start_mark.line if first_start is None else first_start
        year = _keyed(cutter, year_node, venues_node, lines)
        if isinstance(venues_node, yamlio.MappingNode) and not venues_node.flow_style:
            for venue_node, papers_node in venues_node.value:
                venue = _keyed(cutter, venue_node, papers_node, lines)
                year.children.append(venue)
                if isinstance(papers_node, yamlio.SequenceNode) and not papers_node.flow_style:
                    for item in papers_node.value:
                        venue.children.append(_paper_block(cutter, item, lines))
                    if venue.children:
                        venue.child_indent = venue.children[0].indent
            if year.children:
                year.child_indent = year.children[0].indent
        blocks.append(year)
    return _document(blocks, lines[cutter.pos:], final)


def _document(blocks: list[Block], rest: list[str], final: bool) -> Document:
    """A Document whose header is the first block's leading comments (or, with no
    blocks, the whole text) and whose trailer is what follows the last block."""
    if not blocks:
        return Document(rest, blocks, [], final)
    header, blocks[0].lead = blocks[0].lead, []
    return Document(header, blocks, rest, final)


def parse_catalog_lazily(text: str, filename: str) -> Document:
    """papers.yaml cut into year blocks only; a year is cut further when an edit needs it
    (so an edit of one paper in a 10k-paper file reads one year, not the whole file)."""
    chunks = source.split_chunks(text)
    if not chunks or len({c.label for c in chunks}) != len(chunks) \
            or not all(c.label.isdigit() for c in chunks):
        return parse_catalog(text, filename)
    lines, final = _lines(text)
    first = next(i for i, ln in enumerate(lines) if ln[:1] not in ("", " ", "#", "-", "\n")
                 and ln.strip())
    bounds = [c.start - 1 for c in chunks[1:]] + [len(lines)]
    blocks = []
    begin = first
    for chunk, end in zip(chunks, bounds, strict=True):
        blocks.append(Block(chunk.label, [], lines[begin:end], 0, lazy=True))
        begin = end
    return Document(lines[:first], blocks, [], final)


def expand(block: Block, filename: str) -> None:
    """Cut a lazily read year block into venues and papers, in place."""
    if not block.lazy:
        return
    doc = parse_catalog("".join(block.head), filename)
    if len(doc.blocks) != 1 or doc.blocks[0].key != block.key:
        raise WriteError(f"{filename}: cannot cut the block of year {block.key}")
    year = doc.blocks[0]
    block.lead = block.lead + doc.header + year.lead
    block.head, block.children = year.head, year.children
    block.child_indent, block.open, block.indent = year.child_indent, year.open, year.indent
    block.tail = doc.trailer + block.tail
    block.lazy = False


def _keyed(cutter: _Cutter, key_node: yamlio.Node, value: yamlio.Node,
           lines: list[str]) -> Block:
    """A year or venue: its head is the key line, unless its value sits on it too."""
    start = key_node.start_mark.line
    nested = (isinstance(value, yamlio.MappingNode | yamlio.SequenceNode)
              and not value.flow_style and value.value)
    end = key_node.end_mark.line if nested or _is_empty(value) else _end_line(value)
    lead, head = cutter.take(start, _trim_blank_tail(lines, start, end))
    label = str(yamlio.construct(key_node))
    return Block(label, lead, head, key_node.start_mark.column,
                 open=bool(nested) or _is_empty(value))


def _paper_block(cutter: _Cutter, item: yamlio.Node, lines: list[str]) -> Block:
    start = item.start_mark.line
    column = item.start_mark.column
    dash = lines[start].rfind("-", 0, column)
    while dash < 0 or lines[start][:dash].strip():  # '-' alone on the line above
        start -= 1
        if start < cutter.pos:
            line = item.start_mark.line + 1
            raise WriteError(f"cannot find the '- ' of the entry at line {line}")
        dash = lines[start].rfind("-")
    end = _trim_blank_tail(lines, start, _end_line(item))
    lead, head = cutter.take(start, end)
    key = ""
    if isinstance(item, yamlio.MappingNode):
        for k, v in item.value:
            if yamlio.construct(k) == "key":
                key = str(yamlio.construct(v))
    return Block(key, lead, head, dash)


def parse_registry(text: str, filename: str) -> Document:
    """A registry (venues.yaml, tags.yaml) cut into one block per entry."""
    lines, final = _lines(text)
    root = yamlio.compose(text, filename)
    cutter = _Cutter(lines)
    blocks = []
    if root is not None and not isinstance(root, yamlio.MappingNode):
        raise InvalidCatalogError([Problem(filename, 1, "", "expected a mapping at the top level",
                                           "write 'name: value' entries", True)])
    for key_node, value in root.value if root is not None else []:
        start = key_node.start_mark.line
        end = _trim_blank_tail(lines, start, max(_end_line(value), key_node.end_mark.line))
        lead, head = cutter.take(start, end)
        blocks.append(Block(str(yamlio.construct(key_node)), lead, head,
                            key_node.start_mark.column))
    return _document(blocks, lines[cutter.pos:], final)


def _shift(lines: list[str], by: int) -> list[str]:
    """Lines moved right (by > 0) or left by `by` columns; blank lines stay blank."""
    if by == 0:
        return list(lines)
    if by > 0:
        return [(" " * by + ln) if ln.strip() else ln for ln in lines]
    out = []
    for ln in lines:
        spaces = len(ln) - len(ln.lstrip(" "))
        out.append(ln[min(spaces, -by):])
    return out


def _separator(siblings: list[Block]) -> list[str]:
    """The blank lines this file puts between siblings (from the second sibling's lead)."""
    if len(siblings) < 2:
        return []
    blank = []
    for line in siblings[1].lead:
        if line.strip():
            break
        blank.append(line)
    return blank


def _blank_after_lazy_years(siblings: list[Block]) -> list[str]:
    """The blank lines that part years read alone (kept at the end of each year's lines),
    so that a new year keeps the file's spacing."""
    blank: list[str] = []
    if len(siblings) > 1 and siblings[0].lazy:
        for line in reversed(siblings[0].head):
            if line.strip():
                break
            blank.append(line)
    return blank


def _insert_sorted(siblings: list[Block], block: Block, before: Any) -> None:
    """Insert block before the first sibling for which before(sibling) is true."""
    sep = _separator(siblings)
    index = next((i for i, s in enumerate(siblings) if before(s)), len(siblings))
    if index == 0 and siblings:
        first = siblings[0]
        if sep and (not first.lead or first.lead[0].strip()):
            first.lead = sep + first.lead
        block.lead = []
    elif siblings:
        block.lead = sep + block.lead if not block.lead else block.lead
    siblings.insert(index, block)


# ---------------------------------------------------------------- paper blocks


def _load_paper(yaml: Any, block: Block) -> Any:
    """The ruamel mapping of a paper block, loaded once and kept for re-rendering."""
    if block.doc is None:
        text = "".join(_shift(block.head, 2 - block.indent))
        block.doc = yaml.load(text)
        if not isinstance(block.doc, list) or len(block.doc) != 1:
            raise WriteError(f"cannot edit the entry '{block.key}': it is not one mapping")
    return block.doc[0]


def _render_paper(yaml: Any, block: Block) -> None:
    if block.dirty and block.doc is not None:
        block.head = _shift(_dump(yaml, block.doc).splitlines(keepends=True), block.indent - 2)
        block.dirty = False


def _new_paper_block(yaml: Any, paper: Paper, indent: int) -> Block:
    from ruamel.yaml.comments import CommentedMap

    data = CommentedMap()
    for name, value in paper.to_yaml_dict().items():
        data[name] = _styled(name, value)
    block = Block(paper.key, [], [], indent, doc=[data], dirty=True)
    _render_paper(yaml, block)
    return block


def _set_field(data: Any, name: str, value: Any) -> None:
    """Set or remove one field, keeping FIELDS order and the existing value's style."""
    empty = value in (None, [], False, "") or (name == "status" and value == "to-read")
    if empty:
        if name in data:
            del data[name]
        return
    if name in _LISTS and name in data and hasattr(data[name], "fa"):
        seq = data[name]  # keep its flow style and any comment on it
        styled = _styled(name, value)
        del seq[:]
        seq.extend(styled)
        return
    styled = _styled(name, value)
    if name in data:
        old = data[name]
        if type(old) is not str and isinstance(old, str) and isinstance(value, str):
            styled = type(old)(value)  # keep the quote style the file used
        data[name] = styled
        return
    order = {f: i for i, f in enumerate(FIELDS)}
    rank = order.get(name, len(FIELDS))
    position = sum(1 for k in data if order.get(k, len(FIELDS)) <= rank)
    data.insert(position, name, styled)


# ---------------------------------------------------------------- patches


# Characters PyYAML counts as line breaks besides LF and CR (NEL, LS, PS): a year block
# holding one is cut as a whole, where line numbers are PyYAML's.
_OTHER_BREAKS = ("\x85".encode(), "\u2028".encode(), "\u2029".encode())


def _other_break(data: bytes, begin: int, end: int) -> bool:
    """Whether NEL, LS or PS lies between begin and end: their first bytes (C2, E2) looked
    for with memchr, which is 20 times faster than a search for each one, unless text
    full of E2 (dashes, quotes) makes the three searches the cheaper way."""
    for lead in (b"\xc2", b"\xe2"):
        at, seen = data.find(lead, begin, end), 0
        while at >= 0:
            if data.startswith(_OTHER_BREAKS, at, end):
                return True
            seen += 1
            if seen > 1000:
                return any(data.find(sep, begin, end) >= 0 for sep in _OTHER_BREAKS)
            at = data.find(lead, at + 1, end)
    return False


class _YearBytes:
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
class _Patch:
    """An existing paper's lines, replaced in the file's bytes.

    Found through the index (its year block's digest, its line), without reading the rest
    of the file; its extent is YAML's own rule for a block sequence entry: the '- ' line
    and every following line indented deeper (blank and comment lines in between). Before
    anything is written the new lines are read back with the catalog's reader
    (catalog.validation.read_placed) and must give exactly the paper the session made: a
    layout this rule does not fit, or a line edit (_edit_lines) that misread one, is
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


def _entry(data: bytes, at: int, begin: int, end: int) -> tuple[int, int, int] | None:
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


def _split_lines(text: str) -> list[str]:
    """Lines cut at LF only, ends kept (str.splitlines also cuts at form feeds and other
    characters YAML reads as text)."""
    return [line + "\n" for line in text.split("\n")[:-1]]


_KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?= |\n)")
_FLOW_TAGS_RE = re.compile(r"tags: \[[^\[\]{}\n]*\]\n")
_PLAIN_TAG_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_RESERVED = frozenset(("null", "true", "false", "yes", "no", "on", "off", "y", "n"))
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
# The fields _edit_lines writes itself, and what a value it may replace looks like.
_LINE_FIELDS = {"tags": _FLOW_TAGS_RE, "status": re.compile(r"status: [a-z-]+\n"),
                "read_on": re.compile(r"read_on: \d{4}-\d{2}-\d{2}\n")}


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
    if not after.strip() or any("#" in line for line in head):
        return None
    column = len(first) - len(after.lstrip(" "))
    fields: list[list[Any]] = []
    for i, line in enumerate(head):
        depth = column if i == 0 else len(line) - len(line.lstrip(" "))
        if not line.strip() or depth < column:
            return None
        if depth > column:
            fields[-1][2] = i
            continue
        match = _KEY_RE.match(line, column)
        if match is None or line[match.end():].lstrip().startswith(("|", ">")):
            return None
        fields.append([match.group(1), i, i])
    if len({f[0] for f in fields}) != len(fields):
        return None  # a name twice: a value's own line that looks like a field
    return column, fields


def _edit_lines(block: Block, changes: dict[str, Any]) -> bool:
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
    order = {f: i for i, f in enumerate(FIELDS)}
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
        rank = order[name]  # after as many fields as rank at most as high (ruamel's insert)
        place = sum(1 for f in fields if order.get(f[0], len(FIELDS)) <= rank)
        if place == 0:
            return False
        line = fields[place - 1][2] + 1
        head.insert(line, " " * column + text)
        fields.insert(place, [name, line, line])
        for f in fields[place + 1:]:
            f[1], f[2] = f[1] + 1, f[2] + 1
    block.head = head
    return True


class _Background:
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


# ---------------------------------------------------------------- the session


class Registries:
    """The edits of a session to venues.yaml and tags.yaml: one block per entry, each
    file read when first edited, written back with its own line endings."""

    def __init__(self, paths: Paths, yaml: Callable[[], Any]):
        self.paths = paths
        self._yaml = yaml  # ruamel, made on first use (a new tag without description needs none)
        self._docs: dict[Path, Document] = {}
        self._texts: dict[Path, str] = {}
        self._newlines: dict[Path, str] = {}

    def document(self, path: Path) -> Document:
        """The registry's blocks, read on first use."""
        if path not in self._docs:
            shown = self.paths.display(path)
            try:
                data = yamlio.read_bytes(path, shown)
            except FileNotFoundError:
                data = b""  # a registry written for the first time
            text = yamlio.decode(data, shown)
            self._newlines[path] = yamlio.newline_of(data)
            self._texts[path] = text
            self._docs[path] = parse_registry(text, str(path))
        return self._docs[path]

    def text(self, path: Path) -> str:
        """The registry's text as the session read it ('' if it never did)."""
        return self._texts.get(path, "")

    def newline(self, path: Path) -> str:
        return self._newlines.get(path, "\n")

    def put(self, path: Path, name: str, value: Any, replace_key: str | None = None) -> None:
        """Add an entry in sorted place (or put it where replace_key's entry was named)."""
        doc = self.document(path)
        lead: list[str] = []
        if replace_key is not None:
            old = next(b for b in doc.blocks if b.key == replace_key)
            lead = [ln for ln in old.lead if ln.strip()]  # its comments go with it
            doc.blocks.remove(old)
        indent = doc.blocks[0].indent if doc.blocks else 0
        if isinstance(value, dict):
            body = _shift(_dump(self._yaml(), value).splitlines(keepends=True), 2)
            head = _shift([key_text(name) + ":\n", *body], indent)
        else:
            scalar = (_dump(self._yaml(), [value]).strip().removeprefix("- ")
                      if value is not None else "")
            head = [" " * indent + key_text(name) + ":" + (" " + scalar if scalar else "")
                    + "\n"]
        block = Block(name, lead, head, indent)
        _insert_sorted(doc.blocks, block, lambda b: b.key.casefold() > name.casefold())

    def remove(self, path: Path, name: str) -> None:
        doc = self.document(path)
        doc.blocks = [b for b in doc.blocks if b.key != name]

    def value(self, path: Path, name: str, default: Any) -> Any:
        """An entry's value as written (ruamel round-trip data: comments and quotes kept)."""
        from ruamel.yaml.comments import CommentedMap

        block = next(b for b in self.document(path).blocks if b.key == name)
        entry = self._yaml().load("".join(_shift(block.head, -block.indent)))
        return entry[name] if isinstance(entry, CommentedMap) else default

    def render(self) -> dict[Path, str]:
        """The new text of each registry the session changed."""
        out = {}
        for path, doc in self._docs.items():
            text = doc.render()
            if text != self._texts[path]:
                out[path] = text
        return out


@dataclass
class WriteResult:
    """What a session wrote: changed files, the index refresh, warnings."""

    changed: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    dry_run: bool = False
    diff: str = ""


class Session:
    """One set of edits to the catalog and its registries, made under the lock.

    Edits of papers already in the catalog are made, when the index holds the file's
    bytes, as patches: each paper's lines are found through the index and replaced in the
    bytes, which are never decoded or cut as a whole (see _Patch). Any other edit (a new,
    removed or moved paper, a whole new text) cuts the file into blocks (Document) and
    takes the patches made so far along."""

    def __init__(self, paths: Paths):
        from catalog.index import catalog_stamp
        from catalog.venues import load_tags, load_venues

        self.paths = paths
        self.filename = paths.display()
        self._yaml: Any = None
        stamp = catalog_stamp(paths)
        try:
            data = yamlio.read_bytes(paths.catalog, self.filename)
        except FileNotFoundError:
            raise CatalogError(f"{self.filename}: catalog file not found (create it, or point "
                               "--catalog / PAPERS_CATALOG at your catalog)") from None
        self.data = data
        self._text: str | None = None
        self.newline = yamlio.newline_of(data)  # written back as the file has it (CRLF stays)
        # The file's stat before it was read, if still the same after (the index may vouch
        # for bytes by their stat instead of their hash).
        self._stamp = stamp if catalog_stamp(paths) == stamp else None
        self.snapshot = Snapshot(paths, data, self._stamp, self.filename, lambda: self.text)
        self.venues: dict[str, Venue] = load_venues(paths.venues)
        self.vocabulary: dict[str, str] = load_tags(paths.tags)
        self.papers = Papers(self.snapshot)  # current papers: the snapshot's, edits over it
        self._doc: Document | None = None
        self._where: dict[str, tuple[Block, Block, Block]] = {}
        self._patches: dict[str, _Patch] = {}
        self._years: dict[str, _YearBytes | None] = {}
        self._blocks: dict[str, tuple[str, int]] | None = None
        self._order: list[str] = []  # year blocks in file order, and where those found begin
        self._begins: list[int] = []
        self.registries = Registries(paths, lambda: self.yaml)
        self._catalog_changed = False
        self.venues_before = dict(self.venues)
        self.vocab_before = dict(self.vocabulary)
        self.result = WriteResult()
        self._replacement: str | None = None
        self.handover: Any = None  # catalog.index.Edit of the last commit, if it made one
        self.refresh_index = False  # edit() sets it: commit may then update the index itself
        self._early: Any = None  # an index update begun before commit (catalog.index.PendingEdit)
        self.indexed: Any = None  # the index update commit made (a RefreshResult), if any

    @property
    def yaml(self) -> Any:
        """ruamel.yaml in round-trip mode, made on first use."""
        if self._yaml is None:
            self._yaml = yaml_rt()
        return self._yaml

    @property
    def text(self) -> str:
        """The catalog's text as read (decoded on first use)."""
        if self._text is None:
            self._text = yamlio.decode(self.data, self.filename)
        return self._text

    @property
    def doc(self) -> Document:
        """The catalog cut into year blocks (on first use), with the patches made so far."""
        if self._doc is None:
            doc = parse_catalog_lazily(self.text, self.filename)
            if doc.render() != self.text:  # pragma: no cover - a bug in the cutter
                raise WriteError(f"{self.filename}: cannot edit this file without changing "
                                 "other lines; please report it")
            self._doc = doc
            for year in doc.blocks:
                self._register(year)
            self._absorb_patches()
        return self._doc

    def _absorb_patches(self) -> None:
        """Carry the patches over to the blocks of the cut file: the same lines, edited the
        same way; or, where a patch did not hold the paper's whole entry (a layout its
        rule does not fit), the session's changes to the paper made again there."""
        patches, self._patches = self._patches, {}
        for patch in patches.values():
            _, _, block = self._locate(patch.key)
            if block.head == patch.original and not patch.broken:
                block.head, block.doc, block.dirty = patch.block.head, patch.block.doc, \
                    patch.block.dirty
                continue
            before, now = self.snapshot.get(patch.key), self.papers[patch.key]
            data = _load_paper(self.yaml, block)
            for name in FIELDS:
                if before is not None and getattr(before, name) != getattr(now, name):
                    _set_field(data, name, getattr(now, name))
            block.dirty = True

    def _register(self, year: Block) -> None:
        for venue in year.children:
            for paper in venue.children:
                self._where[paper.key] = (year, venue, paper)

    def _year_block(self, year: int) -> Block | None:
        doc = self.doc
        block = next((b for b in doc.blocks if b.key == str(year)), None)
        if block is not None and block.lazy:
            expand(block, self.filename)
            self._register(block)
        return block

    def _locate(self, key: str) -> tuple[Block, Block, Block]:
        """The year, venue and paper blocks of a paper, cutting its year when needed."""
        if key not in self._where:
            self._year_block(self.paper(key).year)
        return self._where[key]

    def _editable(self, key: str) -> tuple[Block, bool]:
        """The block of lines of an existing paper, to edit, and whether it is a patch of
        the file's bytes (the index could place it) rather than its block in the cut file."""
        patch = self._patches.get(key) or self._patch(key)
        return (patch.block, True) if patch is not None else (self._locate(key)[2], False)

    def _patch(self, key: str) -> _Patch | None:
        """A new patch for the paper's lines, found through the index; None when the
        file must be cut instead (no index, an unusual layout, CR line ends...)."""
        if self._doc is not None or self._replacement is not None or not self.snapshot.indexed:
            return None
        paper = self.snapshot.get(key)
        if paper is None or key in self.papers.gone:
            return None
        year = self._year_bytes(str(paper.year))
        if year is None:
            return None
        at = year.offset(paper.line)
        found = _entry(self.data, at, year.begin, year.end) if at is not None else None
        if found is None:
            return None
        start, stop, column = found
        head = _split_lines(self.data[start:stop].decode("utf-8"))
        line = paper.line - (start < at)  # the '-' alone on the line above
        patch = _Patch(key, paper.year, paper.venue, start, stop, line, head,
                       Block(key, [], list(head), column))
        self._patches[key] = patch
        return patch

    def _year_bytes(self, label: str) -> _YearBytes | None:
        """A year block's bytes, found by its label and checked against the digest the
        index keeps of it; None when it cannot be (then the file is cut as a whole)."""
        if label not in self._years:
            self._years[label] = self._find_year(label)
        return self._years[label]

    def _find_year(self, label: str) -> _YearBytes | None:
        import hashlib

        span = self._span(label)
        if span is None:
            return None
        begin, end = span
        data = self.data
        digest, start = self._blocks[label]  # type: ignore[index]
        if hashlib.blake2b(memoryview(data)[begin:end], digest_size=16).hexdigest() != digest \
                or _other_break(data, begin, end):
            return None  # not the block the index read, or lines YAML counts differently
        return _YearBytes(data, begin, end, start)

    def _span(self, label: str) -> tuple[int, int] | None:
        """Where a year block the index knows lies in the bytes (begin, end), found by the
        'LABEL:' lines of it and the blocks before it (searched once, as far as asked)."""
        data = self.data
        if self._blocks is None:
            self._blocks = self.snapshot.blocks() if b"\r" not in data else {}  # LF only
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

    # -- reading

    def paper(self, key: str) -> Paper:
        """The current paper with this key; PaperNotFound suggests the closest key."""
        try:
            return self.papers[key]
        except KeyError:
            hint = hint_for(key, self.papers)
            raise PaperNotFound(f"no paper with key '{key}'"
                                + (f"; {hint}" if hint else "")) from None

    # -- papers

    def update(self, key: str, **changes: Any) -> Paper:
        """Set fields of one paper (None, [] or False removes the field); its other lines stay."""
        paper = self.paper(key)
        unknown = [n for n in changes if n not in FIELDS or n == "key"]
        if unknown:
            raise CatalogError(f"cannot set field '{unknown[0]}'"
                               f" (fields: {', '.join(FIELDS[1:])})")
        new = replace(paper, **{n: _model_value(n, v) for n, v in changes.items()})
        if new == paper:
            return paper
        return self._put(key, paper, new, changes)

    def _put(self, key: str, paper: Paper, new: Paper, changes: dict[str, Any]) -> Paper:
        """update() once the new paper is made: its lines edited (a patch, or its block)."""
        block, patched = self._editable(key)
        changed = {n: v for n, v in changes.items() if getattr(paper, n) != getattr(new, n)}
        # Lines rewritten by hand only in a patch, which is read back before it is written.
        if not (patched and _edit_lines(block, changed)):
            try:
                data = _load_paper(self.yaml, block)
            except Exception:
                patch = self._patches.get(key)
                if patch is None or patch.block is not block:
                    raise
                patch.broken = True  # not the whole entry: edit it in the cut file
                block = self._locate(key)[2]
                data = _load_paper(self.yaml, block)
            for name, value in changed.items():
                _set_field(data, name, value)
            block.dirty = True
        self._catalog_changed = True
        self.papers[key] = new
        return new

    def add(self, paper: Paper) -> Paper:
        """Add a new paper under its year and venue, in sorted place."""
        if paper.key in self.papers:
            raise CatalogError(f"key '{paper.key}' is already used by "
                               f"'{self.papers[paper.key].title}' (keys are never reused)")
        year_block, venue_block = self._place(paper.year, paper.venue)
        indent = venue_block.child_indent
        if indent is None:
            indent = venue_block.indent + 2
            venue_block.child_indent = indent
        block = _new_paper_block(self.yaml, paper, indent)
        _insert_sorted(venue_block.children, block, lambda b: b.key > paper.key)
        self._where[paper.key] = (year_block, venue_block, block)
        self.papers[paper.key] = paper
        self._catalog_changed = True
        return paper

    def remove(self, key: str) -> Paper:
        """Remove a paper with the comments that lead into it; drop a venue or year left empty."""
        paper = self.paper(key)
        year, venue, block = self._locate(key)
        del self._where[key]
        if block.doc is not None:
            _render_paper(self.yaml, block)
        venue.children.remove(block)
        if not venue.children:
            year.children.remove(venue)
        if not year.children:
            self.doc.blocks.remove(year)
        del self.papers[key]
        self._catalog_changed = True
        return paper

    def move(self, key: str, year: int, venue: str) -> Paper:
        """Move a paper (with its comments) under another year and venue; its lines keep."""
        paper = self.paper(key)
        if (paper.year, paper.venue) == (year, venue):
            return paper
        _, _, block = self._locate(key)
        _render_paper(self.yaml, block)
        self.remove(key)
        year_block, venue_block = self._place(year, venue)
        indent = venue_block.child_indent
        if indent is None:
            indent = venue_block.child_indent = venue_block.indent + 2
        moved = Block(key, block.lead, _shift(block.head, indent - block.indent), indent)
        _insert_sorted(venue_block.children, moved, lambda b: b.key > key)
        self._where[key] = (year_block, venue_block, moved)
        new = replace(paper, year=year, venue=venue)
        self.papers[key] = new
        self._catalog_changed = True
        return new

    def _place(self, year: int, venue: str) -> tuple[Block, Block]:
        """The year and venue blocks for a new paper, created in sorted order when missing."""
        year_block = self._year_block(year)
        if year_block is None:
            indent = self.doc.blocks[0].indent if self.doc.blocks else 0
            year_block = Block(str(year), [], [" " * indent + f"{year}:\n"], indent)
            blank = _blank_after_lazy_years(self.doc.blocks)
            if not self.doc.blocks and self.doc.header and not self.doc.header[-1].endswith("\n"):
                self.doc.header[-1] += "\n"

            def older(b: Block) -> bool:
                return b.key.isdigit() and int(b.key) < year

            _insert_sorted(self.doc.blocks, year_block, older)
            if year_block is self.doc.blocks[-1]:
                year_block.lead = blank + year_block.lead  # the blank lines go between years
            else:
                year_block.tail = blank
        if not year_block.open:
            raise WriteError(f"{self.filename}: year {year} is not written as a block of "
                             "venues; write it as 'YEAR:' with venues below it")
        venue_block = next((b for b in year_block.children if b.key == venue), None)
        if venue_block is None:
            if year_block.child_indent is None:
                year_block.child_indent = year_block.indent + 2
            indent = year_block.child_indent
            venue_block = Block(venue, [], [" " * indent + key_text(venue) + ":\n"], indent)
            _insert_sorted(year_block.children, venue_block, lambda b: b.key > venue)
        if not venue_block.open:
            raise WriteError(f"{self.filename}: {year} › {venue} is not written as a block "
                             "list of papers; write each paper as '- key: ...' below it")
        return year_block, venue_block

    def add_tags(self, key: str, tags: list[str], new: bool = False) -> list[str]:
        """Add tags to a paper; returns those it did not have. A tag outside the
        vocabulary is refused with a suggestion unless new adds it to the vocabulary."""
        for tag in tags:
            if tag in self.vocabulary:
                continue
            if not TAG_RE.match(tag):
                raise CatalogError(f"'{tag}' is not a tag name: use lower-case words joined "
                                   "by hyphens, e.g. 'model-update'")
            if not new:
                hint = hint_for(tag, self.vocabulary)
                raise CatalogError(f"unknown tag '{tag}'" + (f" ({hint})" if hint else "")
                                   + f"; add it to {self.paths.display(self.paths.tags)} "
                                   "with --new")
            self.add_tag(tag, None)
        paper = self.paper(key)
        added = [t for t in dict.fromkeys(tags) if t not in paper.tags]
        if added:
            self.update(key, tags=[*paper.tags, *added])
        return added

    def remove_tags(self, key: str, tags: list[str]) -> list[str]:
        """Remove tags from a paper; returns those it had."""
        paper = self.paper(key)
        gone = [t for t in paper.tags if t in tags]
        if gone:
            self.update(key, tags=[t for t in paper.tags if t not in tags])
        return gone

    def set_status(self, key: str, status: str, on: str | None = None) -> Paper:
        """Set the reading status; marking read records the date (today unless on is given),
        moving back to to-read or reading drops it."""
        if status not in STATUSES:
            hint = hint_for(status, STATUSES) or "use " + ", ".join(STATUSES)
            raise CatalogError(f"unknown status '{status}' ({hint})")
        paper = self.paper(key)
        if status == "read":
            when = on or (paper.read_on if paper.status == "read" and paper.read_on
                          else dt.date.today().isoformat())
            return self.update(key, status=status, read_on=when)
        return self.update(key, status=status, read_on=None)

    # -- registries

    def add_tag(self, tag: str, description: str | None) -> None:
        """Add a tag to the vocabulary (data/tags.yaml), in sorted place."""
        if tag in self.vocabulary:
            return
        self.registries.put(self.paths.tags, tag, description)
        self.vocabulary[tag] = description or ""

    def rename_tag(self, old: str, new: str) -> list[str]:
        """Rename a tag in the vocabulary and on every paper; returns the keys changed."""
        if old not in self.vocabulary:
            hint = hint_for(old, self.vocabulary)
            raise CatalogError(f"no tag '{old}' in {self.paths.display(self.paths.tags)}"
                               + (f"; {hint}" if hint else ""))
        if new in self.vocabulary:  # merging two tags: keep the target's description
            self.registries.remove(self.paths.tags, old)
        else:
            value = self.registries.value(self.paths.tags, old, self.vocabulary[old])
            self.registries.put(self.paths.tags, new, value, replace_key=old)
            self.vocabulary[new] = self.vocabulary[old]
        del self.vocabulary[old]
        with yamlio.gc_paused():  # as in commit()
            return self._rename_papers(old, new)

    def _rename_papers(self, old: str, new: str) -> list[str]:
        renamed: dict[str, list[str]] = {}
        for key in self._tagged(old):
            tags = self.paper(key).tags
            if old in tags:
                renamed[key] = list(dict.fromkeys(new if t == old else t for t in tags))
        # The papers' new rows are known before their lines are patched: the index's
        # full-text work (the bulk of a rename) begins now, beside the patching.
        news = {k: replace(self.paper(k), tags=t) for k, t in renamed.items()}
        self._begin_index_early(list(news.values()))
        for key, tags in renamed.items():
            self._put(key, self.paper(key), news[key], {"tags": tags})
        return list(renamed)

    def _tagged(self, tag: str) -> list[str]:
        """The keys of the current papers carrying a tag, in file order (through the index
        when it serves the papers: a rename reads the papers it changes, not all)."""
        if not self.snapshot.indexed:
            return [key for key, paper in self.papers.items() if tag in paper.tags]
        current = self.papers
        keys = [k for k in self.snapshot.tagged(tag)
                if k not in current.changed and k not in current.gone]
        self.snapshot.full(keys)  # one query per few hundred papers, not one each
        wanted = {k for k, p in current.changed.items() if tag in p.tags}
        if wanted:
            wanted.update(keys)
            keys = [k for k in current if k in wanted]
        return keys

    def add_venue(self, venue: Venue) -> None:
        """Add a venue to the registry (data/venues.yaml), in sorted place."""
        if venue.short in self.venues:
            return
        value: dict[str, Any] = {"kind": venue.kind, "name": venue.name}
        if venue.publisher:
            value["publisher"] = venue.publisher
        value.update({k: v for k, v in venue.extra.items() if v not in (None, "")})
        self.registries.put(self.paths.venues, venue.short, value)
        self.venues[venue.short] = venue

    # -- saving

    def replace_text(self, text: str) -> None:
        """Replace the whole catalog text (papers edit): validated like any other edit."""
        self._replacement = text

    def render(self) -> dict[Path, str]:
        """The new text of every file this session changed."""
        out: dict[Path, str] = {}
        if self._replacement is not None:
            if self._replacement != self.text:
                out[self.paths.catalog] = self._replacement
            return out
        out.update(self.registries.render())
        if self._catalog_changed:
            for year in self.doc.blocks:
                for venue in year.children:  # a lazy year has none: it was not edited
                    for paper in venue.children:
                        _render_paper(self.yaml, paper)
            text = self.doc.render()
            if text != self.text:
                out[self.paths.catalog] = text
        return out

    def _check(self) -> EditCheck:
        return EditCheck(self.paths, lambda: self.text, self.snapshot, self.venues_before,
                         self.vocab_before)

    def validate(self, texts: dict[Path, str]) -> list[Problem]:
        """Refuse an edit that adds problems; return the warnings it adds."""
        return self._check().check(texts, self.venues, self.vocabulary)

    def commit(self, dry_run: bool = False) -> WriteResult:
        """Validate and write every changed file atomically (registries first)."""
        # The collector paused: a rename's commit holds tens of thousands of papers, rows
        # and lines (none in a cycle), which every collection walked again (~10% of it).
        try:
            with yamlio.gc_paused():
                return self._commit(dry_run)
        finally:
            self.abandon_index()  # begun early, but the edit was not made of patches

    def _commit(self, dry_run: bool) -> WriteResult:
        if self._patches and self._doc is None and self._replacement is None:
            result = self._commit_patches(dry_run)
            if result is not None:
                return result
            # Read back otherwise than made: the cut file gets the changes, made by ruamel.
            for patch in self._patches.values():
                patch.broken = True
            _ = self.doc
        texts = self.render()
        result = WriteResult(dry_run=dry_run)
        if not texts:
            return result
        result.warnings = self.validate(texts)
        if dry_run:  # a diff of a big file costs seconds: only for the user to read
            result.diff = _diff(self, texts)
            result.changed = list(texts)
            return result
        for path in sorted(texts, key=lambda p: p == self.paths.catalog):
            newline = self.newline if path == self.paths.catalog else \
                self.registries.newline(path)
            atomic_write(path, texts[path], newline)
            result.changed.append(path)
        return result

    def _commit_patches(self, dry_run: bool) -> WriteResult | None:
        """commit() of patches: the new lines read back in place and checked, the file
        written from slices of its old bytes, the index handed the papers as read; None
        when a patch does not read back as the paper the session made."""
        from catalog.validation import Placed

        edits = []
        for patch in sorted(self._patches.values(), key=lambda p: p.begin):
            if patch.block.dirty:
                _render_paper(self.yaml, patch.block)
            if patch.block.head != patch.original:
                edits.append(patch)
        placed, moved = [], 0
        for patch in edits:
            placed.append(Placed(patch.key, patch.year, patch.venue, patch.line + moved,
                                 patch.block.head))
            moved += len(patch.block.head) - len(patch.original)
        ends = [(patch.line + len(patch.original) - 1,
                 len(patch.block.head) - len(patch.original)) for patch in edits]
        pending, self._early = self._early, None
        if pending is not None and any(by for _, by in ends):  # lines moved: not as begun
            pending.abandon()
            pending = None
        if pending is None and not dry_run:
            pending = self._begin_index(edits, placed, ends)
        try:
            return self._commit_placed(edits, placed, ends, pending, dry_run)
        finally:
            if pending is not None and self.indexed is None:
                pending.abandon()

    def _begin_index_early(self, papers: list[Paper]) -> None:
        """Begin the index update with these papers as they will read back, at the lines
        they stand (an edit of patches that add or remove no line); commit takes it if
        the edit turns out so, else drops it (abandon_index)."""
        from catalog import index

        if not (self.refresh_index and len(papers) >= _OVERLAP_MIN and self.snapshot.digest) or \
                self._early is not None or self._doc is not None or self._replacement:
            return
        self._early = index.PendingEdit(self.paths, index.Edit(
            self.snapshot.digest, "", None, papers, [],
            dict.fromkeys((str(p.year) for p in papers), "")))

    def abandon_index(self) -> None:
        """Drop an index update begun early (the session ends without writing)."""
        early, self._early = self._early, None
        if early is not None:
            early.abandon()

    def _begin_index(self, edits: list[_Patch], placed: list[Any], ends: list[tuple[int, int]]
                     ) -> Any:
        """The index update begun in a thread (catalog.index.PendingEdit) with the papers
        the session made, at the lines their patches will stand; None when the session
        does not refresh the index or changes too few papers to gain by it."""
        from catalog import index

        if not (self.refresh_index and len(edits) >= _OVERLAP_MIN and self.snapshot.digest):
            return None
        papers = []
        for patch, where in zip(edits, placed, strict=True):
            was = self.snapshot.get(patch.key)
            assert was is not None  # a patch is of a paper the index holds
            papers.append(replace(self.papers[patch.key],
                                  line=where.line + was.line - patch.line))
        return index.PendingEdit(self.paths, index.Edit(
            self.snapshot.digest, "", None, papers, self._moves(edits, ends),
            dict.fromkeys((str(p.year) for p in edits), "")))

    @staticmethod
    def _moves(edits: list[_Patch], ends: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
        return [(str(p.year), end, by) for p, (end, by) in zip(edits, ends, strict=True)]

    def _commit_placed(self, edits: list[_Patch], placed: list[Any],
                       ends: list[tuple[int, int]], pending: Any, dry_run: bool
                       ) -> WriteResult | None:
        """_commit_patches once the patches are placed: read back, checked, written; the
        index update begun (pending) committed when it was begun with the papers read."""
        import bisect
        import itertools

        from catalog import index
        from catalog.validation import read_placed

        papers, problems = read_placed(placed, self.filename) if edits else ([], [])
        if any(p.blocking for p in problems) or [p.key for p in papers] != [
                p.key for p in placed] or not all(same_but_line(p, self.papers[p.key])
                                                  for p in papers):
            return None
        texts = self.registries.render()
        result = WriteResult(dry_run=dry_run)
        if not edits and not texts:
            return result
        last_lines = [end for end, _ in ends]
        moves = [0, *itertools.accumulate(by for _, by in ends)]

        def line(old: int) -> int:  # where a line of the old file is in the new one
            return old + moves[bisect.bisect_left(last_lines, old)]

        result.warnings = self._check().check_placed(placed, papers, texts, self.venues,
                                                     self.vocabulary, line)
        parts = self._parts(edits)
        if dry_run:
            result.diff = _diff(self, texts) + (self._patch_diff(edits) if edits else "")
            result.changed = [*texts, *([self.paths.catalog] if edits else [])]
            return result
        for path in sorted(texts):
            atomic_write(path, texts[path], self.registries.newline(path))
            result.changed.append(path)
        before = self.snapshot.digest or ""
        if not edits:
            stamp = self._stamp if index.catalog_stamp(self.paths) == self._stamp else None
            self.handover = index.Edit(before, before, stamp)
            return result
        # The new bytes' digest and those of the year blocks edited, each hashed in a
        # thread beside the write (hashlib lets go of the GIL): a rename touching every
        # year hashes the file twice.
        by_year: dict[str, list[_Patch]] = {}
        for patch in edits:
            by_year.setdefault(str(patch.year), []).append(patch)
        years = {label: self._parts(mine, self._years[label].begin,  # type: ignore[union-attr]
                                    self._years[label].end)  # type: ignore[union-attr]
                 for label, mine in by_year.items()}
        def hash_years() -> dict[str, str]:
            return {label: index.parts_digest(of) for label, of in years.items()}

        digest = _Background(index.parts_digest, parts)
        # A second thread only for a big edit (a one-paper edit hashes one year block).
        digests = _Background(hash_years) if len(edits) >= _OVERLAP_MIN else None
        try:
            stamp = files.atomic_write_parts(self.paths.catalog, parts)
            result.changed.append(self.paths.catalog)
            blocks = digests.result() if digests is not None else hash_years()
        finally:
            after = digest.result()
        self.handover = index.Edit(before, after, stamp, papers, self._moves(edits, ends),
                                   blocks)
        if pending is not None and papers == pending.papers:
            self.indexed = self._finish_index(pending)
        return result

    def _finish_index(self, pending: Any) -> Any:
        """The begun index update committed with the edit as written; None (and the index
        as it was) when it could not be: _refresh_index then does it the usual way."""
        import sqlite3

        try:
            return pending.finish(self.handover)
        except (sqlite3.Error, OSError, CatalogError):
            return None

    def _patch_diff(self, edits: list[_Patch]) -> str:
        """The unified diff of the catalog that patches make, as difflib gives it for the
        whole file, from windows of a few lines around them (a 100k-paper file is never
        compared as a whole)."""
        import difflib
        import re as regex

        data = self.data
        if regex.search(b"[\x0b\x0c\x1c-\x1e]", data) or any(
                sep in data for sep in _OTHER_BREAKS):  # str.splitlines cuts there too
            new = yamlio.decode(b"".join(self._parts(edits)), self.filename)
            return _diff(self, {self.paths.catalog: new})
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
        name = self.paths.display()
        out = [f"--- {name}\n", f"+++ {name}\n"]
        moved = 0
        for begin, end, first, patches in windows:
            old = data[begin:end].decode("utf-8").splitlines(keepends=True)
            new = b"".join(self._parts(patches, begin, end)).decode("utf-8").splitlines(
                keepends=True)
            out += [_renumber(line, first - 1, first - 1 + moved)
                    for line in list(difflib.unified_diff(old, new, n=3))[2:]]
            moved += len(new) - len(old)
        return "".join(out)

    def _parts(self, edits: list[_Patch], begin: int = 0, end: int | None = None
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


def _model_value(name: str, value: Any) -> Any:
    if name in _LISTS:
        return list(value or [])
    if name == "et_al":
        return bool(value)
    if name == "status":
        return value or "to-read"
    if isinstance(value, dt.date):
        return value.isoformat()
    return value if value not in ("", []) else None


# Papers an edit must change for its index update to run beside the writer's read-back
# and write (catalog.index.PendingEdit): below, the thread would save nothing.
_OVERLAP_MIN = 16

_HUNK_RE = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _renumber(line: str, old: int, new: int) -> str:
    """A line of a window's diff, its hunk header moved to the whole file's lines."""
    m = _HUNK_RE.match(line)
    if m is None:
        return line
    return (f"@@ -{int(m[1]) + old}{m[2] or ''} +{int(m[3]) + new}{m[4] or ''} @@"
            + line[m.end():])


def _diff(session: Session, texts: dict[Path, str]) -> str:
    import difflib

    out: list[str] = []
    for path, new in texts.items():
        old = (session.text if path == session.paths.catalog
               else session.registries.text(path))
        name = session.paths.display(path)
        out.extend(difflib.unified_diff(old.splitlines(keepends=True),
                                        new.splitlines(keepends=True), name, name))
    return "".join(out)


# ---------------------------------------------------------------- lock and atomic write


def lock_path(paths: Paths) -> Path:
    """The lock file of the catalog itself (beside it, hidden)."""
    return files.lock_file(paths.catalog)


def _data_files(paths: Paths) -> list[Path]:
    """Every file an edit may write: the catalog and the registries it shares with any other
    catalog in its folder."""
    return [paths.catalog, paths.venues, paths.tags]


@contextlib.contextmanager
def locked(paths: Paths, timeout: float | None = None) -> Iterator[None]:
    """Hold the write lock of the catalog and of each registry (one lock per file, taken in a
    fixed order), so writers of two catalogs sharing tags.yaml exclude each other there."""
    wait = LOCK_TIMEOUT if timeout is None else timeout
    with files.locked(_data_files(paths), wait, paths.display()):
        yield


@contextlib.contextmanager
def edit(paths: Paths, dry_run: bool = False, refresh: bool = True) -> Iterator[Session]:
    """An edit session: lock, read, yield for edits, then validate, write and re-index.

    An exception inside the block leaves every file as it was.
    """
    with locked(paths):
        for folder in {p.resolve().parent for p in _data_files(paths)}:
            files.remove_dead_temporaries(folder)
        session = Session(paths)
        session.refresh_index = refresh and not dry_run
        try:
            yield session
        except BaseException:
            session.abandon_index()
            raise
        session.result = session.commit(dry_run)
        if refresh and not dry_run and session.result.changed and session.indexed is None:
            session.result.warnings += _refresh_index(paths, session.handover)


def _refresh_index(paths: Paths, handover: Any = None) -> list[Problem]:
    """Bring the index up to date after a write (still under the lock, so writers do not
    race each other's index updates): with the writer's own account of the edit when it
    gave one, else by reading the file. The write has happened and is what the user hears
    about: an index that cannot follow is rebuilt, or, failing that, a warning says so
    (the index is derived; the next command refreshes it again)."""
    import sqlite3

    from catalog import index

    try:
        if handover is not None and index.apply_edit(paths, handover) is not None:
            return []
        index.refresh(paths)
        return []
    except (sqlite3.Error, OSError):
        with contextlib.suppress(CatalogError, sqlite3.Error, OSError):
            index.rebuild(paths)  # e.g. a damaged file; a reader holding it too long
            return []
    except CatalogError as err:
        return [Problem(paths.display(paths.db), 0, "", f"the index was not refreshed: {err}",
                        "the catalog was written; fix this, then any command re-indexes")]
    return [Problem(paths.display(paths.db), 0, "", "the index could not be refreshed",
                    "the catalog was written; run `papers index` to rebuild it")]


# ---------------------------------------------------------------- reading notes


# Characters that Markdown or HTML would read as markup in a line of plain text.
_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;",
           **{c: "\\" + c for c in "\\`*_{}[]()#+!"}}


def markdown_text(text: str) -> str:
    """Text that Markdown shows as it is: no HTML, no emphasis, link or attribute."""
    from catalog.model import strip_controls

    return "".join(_MARKUP.get(c, c) for c in strip_controls(text))


def render_note(paper: Paper) -> str:
    """A new reading note for a paper, from catalog/templates/reading-note.md.

    The note is the user's own Markdown and the site renders its HTML as it is, so every
    field from the catalog is written as escaped plain text, outside any HTML comment
    (a title holding '-->' would end a comment and let what follows run as HTML)."""
    from string import Template

    template = (Path(__file__).parent / "templates" / "reading-note.md").read_text(
        encoding="utf-8")
    authors = ", ".join(paper.authors) + (" and others" if paper.et_al else "")
    link = (f"https://doi.org/{paper.doi}" if paper.doi
            else f"https://arxiv.org/abs/{paper.arxiv}" if paper.arxiv else paper.url or "")
    fields = {"title": paper.title, "authors": authors, "venue": paper.venue,
              "year": str(paper.year), "link": link}
    return Template(template).safe_substitute(
        key=_note_key(paper.key), today=dt.date.today().isoformat(),
        **{name: markdown_text(value) for name, value in fields.items()})


def _note_key(key: str) -> str:
    """A key fit for a file name and the note's comment; CatalogError otherwise."""
    from catalog.model import KEY_RE

    if not KEY_RE.fullmatch(key):
        raise CatalogError(f"'{key}' is not a valid key (lower-case letters, digits, '-', "
                           "'_' or ':'): fix it in the catalog (papers check lists it) "
                           "before writing its note")
    return key


def note_path(paths: Paths, key: str) -> Path:
    """data/readings/KEY.md for a valid key; never a path outside data/readings/."""
    folder = paths.readings.resolve()
    path = (folder / f"{_note_key(key)}.md").resolve()
    if path.parent != folder:
        raise CatalogError(f"the note of '{key}' would be written outside "
                           f"{paths.display(paths.readings)}; refused")
    return path


def create_note(paths: Paths, paper: Paper) -> tuple[Path, bool]:
    """The paper's reading note file, created from the template on first use."""
    path = note_path(paths, paper.key)
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "x", encoding="utf-8") as handle:  # never clobber a note
            handle.write(render_note(paper))
    except FileExistsError:
        return path, False
    return path, True
