"""The catalog and its registries cut into blocks of whole lines, for editing.

A block is the lines of one year, venue or paper (or one registry entry) with the
comment and blank lines that lead into it. An edit re-renders only the blocks it
touches, a paper's own lines through ruamel.yaml in round-trip mode (quotes, comments
and key order kept); every other line is copied as it was. `Registries` holds a
session's edits to venues.yaml and tags.yaml in that form.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalog.data import reader, yamlfile
from catalog.errors import CatalogError, InvalidCatalogError, Problem
from catalog.model import FIELDS, LIST_FIELDS, QUOTED_FIELDS, Paper, named

# How the file writes each field (model.SPECS): quoted titles, flow lists, bare dates.
_QUOTED = QUOTED_FIELDS
_DATES = frozenset(named("date"))
_LISTS = frozenset(LIST_FIELDS)

if TYPE_CHECKING:
    from ruamel.yaml import YAML


class WriteError(CatalogError):
    """The edit cannot be made to this file's text (its shape is unusual)."""


# ---------------------------------------------------------------- ruamel set-up


def yaml_rt() -> YAML:
    """A ruamel.yaml round-trip instance set up to match the catalog's own layout."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap long titles or author lists
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _dump(yaml: YAML, data: Any) -> str:
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


# What a value may hold to be written plain: nothing a YAML 1.1 or 1.2 reader takes for
# syntax in a flow list ('?' too: PyYAML's pure-Python parser stops at it).
_PLAIN_OK = re.compile(r"^[A-Za-z0-9À-ɏḀ-ỿ][^,:#\[\]{}&*!|>'\"%@`?]*\Z")


def flow_list(values: list[str]) -> Any:
    """A list written on one line, [a, b], its items quoted where YAML needs it."""
    from ruamel.yaml.comments import CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString as Quoted

    items = [
        v if _PLAIN_OK.match(v) and v == v.strip() and not _resolves(v) else Quoted(v)
        for v in map(str, values)
    ]
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def _styled(name: str, value: Any) -> Any:
    """A value dressed the way the file writes it: quoted titles, flow lists, bare dates."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString as Quoted

    if name in _LISTS:
        return flow_list(value)
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

    # Read as YAML 1.2 and as YAML 1.1 (PyYAML: 'on', 'yes' and '0o7' are no strings there).
    return any(
        str(VersionedResolver(version).resolve(ScalarNode, text, (True, False)))
        != "tag:yaml.org,2002:str"
        for version in ((1, 2), (1, 1))
    )


# ---------------------------------------------------------------- text blocks


@dataclass(frozen=True)
class Origin:
    """Where a block lies in the file as read: bytes begin..end, its first line (1-based)
    and how many lines it has (None: not counted yet)."""

    begin: int
    end: int
    line: int
    lines: int | None


@dataclass(frozen=True)
class Old:
    """Lines of the file as read, to be written again as they are: bytes begin..end from
    line `line`; whole: they start a top-level block of the file (its key's line)."""

    begin: int
    end: int
    line: int
    whole: bool


Piece = str | Old  # or a Block: a paper cut out of a year not read (catalog.edit.source)


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
    # A year block not read yet (its lines are the file's, where origin says), and the
    # papers cut out of it by the lines the index gives (catalog.edit.source).
    lazy: bool = False
    origin: Origin | None = None
    cuts: list[Block] = field(default_factory=list)
    place: tuple[int, str] | None = None  # a paper cut out of a lazy year: its year, venue

    def render(self, out: list[str]) -> None:
        out.extend(self.lead)
        out.extend(self.head)
        for child in self.children:
            child.render(out)
        out.extend(self.tail)

    def pieces(self, out: list[Piece | Block]) -> None:
        """Its lines as pieces of the new file: new text, the file's lines kept as they
        are (a lazy year), and the papers cut out of a lazy year (each one piece)."""
        out.extend(self.lead)
        if self.lazy and self.origin is not None:
            at, line = self.origin.begin, self.origin.line
            for paper in self.cuts:
                where = paper.origin
                assert where is not None and where.lines is not None
                if where.begin > at:
                    out.append(Old(at, where.begin, line, at == self.origin.begin))
                out.append(paper)
                at, line = where.end, where.line + where.lines
            if at < self.origin.end:
                out.append(Old(at, self.origin.end, line, at == self.origin.begin))
        else:
            out.extend(self.head)
            for child in self.children:
                child.pieces(out)
        out.extend(self.tail)


@dataclass
class Document:
    """A YAML file cut into blocks; render() gives back the same bytes until edited."""

    header: list[Any]  # lines, or the file's first lines kept (Old) in a lazy document
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

    def pieces(self) -> list[Piece | Block]:
        """The new file in pieces (Block.pieces), header and trailer included."""
        out: list[Piece | Block] = list(self.header)
        for block in self.blocks:
            block.pieces(out)
        out.extend(self.trailer)
        return out


def lines_of(text: str) -> list[str]:
    """The text's lines, each ending at LF: the one notion of a line (yamlfile.decode
    refuses the other characters YAML reads as line breaks; str.splitlines cuts at them)."""
    return _lines(text)[0]


def _lines(text: str) -> tuple[list[str], bool]:
    """lines_of(text), a last line without LF given one, and whether the text ended
    with LF."""
    pieces = text.split("\n")
    last = pieces.pop()  # what follows the last LF: nothing when the text ends with one
    lines = [piece + "\n" for piece in pieces]
    if last:
        lines.append(last + "\n")
    return lines, not last


def _is_empty(node: yamlfile.Node) -> bool:
    return isinstance(node, yamlfile.ScalarNode) and node.tag.endswith(":null") and not node.value


class _Cutter:
    """Assigns every line of a file to exactly one block (or the header or trailer)."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.pos = 0  # first line not yet given to a block

    def take(self, start: int, end: int) -> tuple[list[str], list[str]]:
        """Lines before start (the lead) and lines start..end (the head)."""
        if start < self.pos or end < start:
            raise WriteError(
                f"unusual layout near line {start + 1}; "
                "write one entry per line block, as the rest of the file does"
            )
        lead = self.lines[self.pos : start]
        head = self.lines[start : end + 1]
        self.pos = end + 1
        return lead, head


def _trim_blank_tail(lines: list[str], start: int, end: int) -> int:
    while end > start and not lines[end].strip():
        end -= 1
    return end


def parse_catalog(text: str, filename: str) -> Document:
    """papers.yaml cut into year, venue and paper blocks."""
    lines, final = _lines(text)
    root = yamlfile.compose(text, filename)
    cutter = _Cutter(lines)
    blocks: list[Block] = []
    if root is not None and not isinstance(root, yamlfile.MappingNode):
        raise InvalidCatalogError(
            [
                Problem(
                    filename,
                    1,
                    "",
                    "expected years at the top level",
                    "start the file with a year, e.g. '2023:'",
                    True,
                )
            ]
        )
    first_start = None
    for year_node, venues_node in root.value if root is not None else []:
        first_start = year_node.start_mark.line if first_start is None else first_start
        year = _keyed(cutter, year_node, venues_node, lines)
        if isinstance(venues_node, yamlfile.MappingNode) and not venues_node.flow_style:
            for venue_node, papers_node in venues_node.value:
                venue = _keyed(cutter, venue_node, papers_node, lines)
                year.children.append(venue)
                if isinstance(papers_node, yamlfile.SequenceNode) and not papers_node.flow_style:
                    for item in papers_node.value:
                        venue.children.append(_paper_block(cutter, item, lines))
                    if venue.children:
                        venue.child_indent = venue.children[0].indent
            if year.children:
                year.child_indent = year.children[0].indent
        blocks.append(year)
    return _document(blocks, lines[cutter.pos :], final)


def _document(blocks: list[Block], rest: list[str], final: bool) -> Document:
    """A Document whose header is the first block's leading comments (or, with no
    blocks, the whole text) and whose trailer is what follows the last block."""
    if not blocks:
        return Document(rest, blocks, [], final)
    header, blocks[0].lead = blocks[0].lead, []
    return Document(header, blocks, rest, final)


def _keyed(
    cutter: _Cutter, key_node: yamlfile.Node, value: yamlfile.Node, lines: list[str]
) -> Block:
    """A year or venue: its head is the key line, unless its value sits on it too."""
    start = key_node.start_mark.line
    nested = (
        isinstance(value, yamlfile.MappingNode | yamlfile.SequenceNode)
        and not value.flow_style
        and value.value
    )
    end = key_node.end_mark.line if nested or _is_empty(value) else reader.end_line(value)
    lead, head = cutter.take(start, _trim_blank_tail(lines, start, end))
    label = yamlfile.name_of(key_node)
    return Block(
        label, lead, head, key_node.start_mark.column, open=bool(nested) or _is_empty(value)
    )


def _paper_block(cutter: _Cutter, item: yamlfile.Node, lines: list[str]) -> Block:
    start = item.start_mark.line
    column = item.start_mark.column
    dash = lines[start].rfind("-", 0, column)
    while dash < 0 or lines[start][:dash].strip():  # '-' alone on the line above
        start -= 1
        if start < cutter.pos:
            line = item.start_mark.line + 1
            raise WriteError(f"cannot find the '- ' of the entry at line {line}")
        dash = lines[start].rfind("-")
    end = _trim_blank_tail(lines, start, reader.end_line(item))
    lead, head = cutter.take(start, end)
    key = ""
    if isinstance(item, yamlfile.MappingNode):
        for k, v in item.value:
            if yamlfile.name_of(k) == "key":
                key = yamlfile.name_of(v)
    return Block(key, lead, head, dash)


def parse_registry(text: str, filename: str, nested: frozenset[str] = frozenset()) -> Document:
    """A file of named top-level entries (a registry, the key map, the inbox, the reading
    file) cut into one block per entry; the entries named in nested are cut further, one
    child block per key of their mapping or item of their list."""
    lines, final = _lines(text)
    root = yamlfile.compose(text, filename)
    cutter = _Cutter(lines)
    blocks = []
    if root is not None and not isinstance(root, yamlfile.MappingNode):
        raise InvalidCatalogError(
            [
                Problem(
                    filename,
                    1,
                    "",
                    "expected a mapping at the top level",
                    "write 'name: value' entries",
                    True,
                )
            ]
        )
    for key_node, value in root.value if root is not None else []:
        if yamlfile.name_of(key_node) in nested:
            blocks.append(_section(cutter, key_node, value, lines))
            continue
        start = key_node.start_mark.line
        end = _trim_blank_tail(lines, start, max(reader.end_line(value), key_node.end_mark.line))
        lead, head = cutter.take(start, end)
        blocks.append(Block(yamlfile.name_of(key_node), lead, head, key_node.start_mark.column))
    return _document(blocks, lines[cutter.pos :], final)


def _section(
    cutter: _Cutter, key_node: yamlfile.Node, value: yamlfile.Node, lines: list[str]
) -> Block:
    """A top-level entry whose block mapping or block list is cut into child blocks."""
    block = _keyed(cutter, key_node, value, lines)
    if not block.open:  # a flow mapping or list on the key's line: one block
        return block
    if isinstance(value, yamlfile.MappingNode):
        for name, item in value.value:
            block.children.append(_keyed(cutter, name, item, lines))
    elif isinstance(value, yamlfile.SequenceNode):
        for item in value.value:
            child = _paper_block(cutter, item, lines)
            if isinstance(item, yamlfile.ScalarNode):
                child.key = yamlfile.name_of(item)
            block.children.append(child)
    if block.children:
        block.child_indent = block.children[0].indent
    return block


def shift_lines(lines: list[str], by: int) -> list[str]:
    """Lines moved right (by > 0) or left by `by` columns; blank lines stay blank."""
    if by == 0:
        return list(lines)
    if by > 0:
        return [(" " * by + ln) if ln.strip() else ln for ln in lines]
    out = []
    for ln in lines:
        spaces = len(ln) - len(ln.lstrip(" "))
        out.append(ln[min(spaces, -by) :])
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


def insert_sorted(siblings: list[Block], block: Block, before: Any) -> None:
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


def load_paper(yaml: YAML, block: Block) -> Any:
    """The ruamel mapping of a paper block, loaded once and kept for re-rendering."""
    if block.doc is None:
        text = "".join(shift_lines(block.head, 2 - block.indent))
        block.doc = yaml.load(text)
        if not isinstance(block.doc, list) or len(block.doc) != 1:
            raise WriteError(f"cannot edit the entry '{block.key}': it is not one mapping")
    return block.doc[0]


def render_paper(yaml: YAML, block: Block) -> None:
    """A paper's lines written again from its ruamel data, its block lists indented as
    its own lines indent them (so an edit does not re-indent its authors)."""
    if block.dirty and block.doc is not None:
        offset = _list_offset(block.head)
        yaml.indent(mapping=2, sequence=offset + 2, offset=offset)
        try:
            text = _dump(yaml, block.doc)
        finally:
            yaml.indent(mapping=2, sequence=4, offset=2)
        block.head = shift_lines(lines_of(text), block.indent - offset)
        block.dirty = False


def _list_offset(head: list[str]) -> int:
    """How far right of its key a block list's '- ' stands in these lines (2, the
    writer's own style, when they hold no block list)."""
    for above, line in itertools.pairwise(head):
        if above.rstrip().endswith(":") and line.lstrip().startswith("- "):
            offset = (len(line) - len(line.lstrip())) - (len(above) - len(above.lstrip()))
            if offset >= 0:
                return offset
    return 2


def new_paper_block(yaml: YAML, paper: Paper, indent: int) -> Block:
    from ruamel.yaml.comments import CommentedMap

    data = CommentedMap()
    for name, value in paper.to_yaml_dict().items():
        data[name] = _styled(name, value)
    block = Block(paper.key, [], [], indent, doc=[data], dirty=True)
    render_paper(yaml, block)
    return block


def set_field(data: Any, name: str, value: Any) -> None:
    """Set or remove one field, keeping FIELDS order and the existing value's style."""
    empty = value in (None, [], False, "")
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
