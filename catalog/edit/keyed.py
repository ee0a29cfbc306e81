"""A YAML file of named entries, edited entry by entry.

The registries (venues.yaml, tags.yaml, authors.yaml), the key map, the inbox and the
reader's file (reading.yaml) are each a mapping of named entries; the reader's file has
two sections (`papers:`, `queue:`) whose keys and items are entries too. A `KeyedFile`
cuts the text into one block of lines per entry (catalog.edit.document) and records each
edit as an operation; its new text is the text as read with the operations replayed, so
every line no operation touched (comments, order, quotes, a byte-order mark, the line
endings) is copied as it was.

Replaying lets a multi-file write show a file at an interim stage, written before the
catalog (write_in_order, below) and the final text after it, so that a kill
between two files leaves every file naming only what the others hold: a registry is
`grown` (what the edit adds, nothing it removes yet: papers may name what it gains); a
file that names papers is `named` (every edit but those naming a paper the catalog does
not hold yet: what it loses, and what it gains about papers already there).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from catalog import files
from catalog.data import yamlfile
from catalog.edit.document import (
    Block,
    Document,
    key_text,
    lines_of,
    parse_registry,
    shift_lines,
    yaml_rt,
)
from catalog.paths import Paths

if TYPE_CHECKING:
    from ruamel.yaml import YAML

Stage = Literal["grown", "named"]
Where = str  # "sorted", "end", "top" or "before:NAME"


@dataclass(frozen=True)
class _Op:
    """One recorded edit: what it does to a freshly cut document, and whether it adds
    (or changes) an entry or removes one."""

    removes: bool
    apply: Callable[[Document], None]
    names: str | None = None  # the catalog key the entry names, in a file that names papers


class KeyedFile:
    """One YAML file of named entries, as a session read it and as its edits leave it."""

    def __init__(
        self,
        paths: Paths,
        path: Path,
        header: str = "",
        nested: frozenset[str] = frozenset(),
        stage: Stage = "grown",
    ):
        self.path = path
        self.shown = paths.display(path)
        self.header = header
        self.nested = nested
        # The stage written before the catalog: a registry grows first (papers may name
        # what it gains), a file that names papers shrinks first (papers may leave).
        self.stage: Stage = stage
        try:
            self.data = yamlfile.read_bytes(path, self.shown)
        except FileNotFoundError:
            self.data = b""
        self.newline = yamlfile.newline_of(self.data)
        self.text = yamlfile.decode(self.data, self.shown) if self.data else ""
        self.doc = self._cut()  # the current entries, kept up to date by every edit
        self._ops: list[_Op] = []
        self._yaml: YAML | None = None

    def _cut(self) -> Document:
        return parse_registry(self.text or self.header, self.shown, self.nested)

    @property
    def yaml(self) -> YAML:
        if self._yaml is None:
            self._yaml = yaml_rt()
        return self._yaml

    @property
    def changed(self) -> bool:
        """True once an edit was recorded (a new file is written only then)."""
        return bool(self._ops)

    # -- reading

    def names(self, section: str | None = None) -> list[str]:
        """The entries' names, in file order (of a section: its keys or items)."""
        return [b.key for b in _entries(self.doc, section)]

    def value(self, name: str) -> Any:
        """An entry's value as written (ruamel round-trip data: comments and quotes kept)."""
        from ruamel.yaml.comments import CommentedMap

        block = next(b for b in self.doc.blocks if b.key == name)
        entry = self.yaml.load("".join(shift_lines(block.head, -block.indent)))
        return entry[name] if isinstance(entry, CommentedMap) else None

    # -- edits

    def put(
        self,
        name: str,
        value: Any,
        *,
        section: str | None = None,
        at: Where = "sorted",
        replace: str | None = None,
        flow: bool = False,
        names: str | None = None,
    ) -> None:
        """Write an entry: in place when it exists, else at the given place (sorted by name,
        at the end, at the top, or before the entry named by 'before:NAME'). replace: an
        entry renamed to this one (its comments come along; it is removed). flow: a
        mapping written on one line. names: the paper's key the entry names."""
        self.put_lines(name, self._render(name, value, flow), section, at, replace, names)

    def put_lines(
        self,
        name: str,
        head: list[str],
        section: str | None = None,
        at: Where = "sorted",
        replace: str | None = None,
        names: str | None = None,
    ) -> None:
        """put() with the entry's lines already written (at column 0)."""
        self._record(False, lambda doc: _put(doc, name, head, section, at, replace), names)
        if replace is not None and replace != name:
            self._record(True, lambda doc: _remove(doc, replace, section))

    def put_item(self, name: str, section: str, at: Where = "top") -> None:
        """Put a paper's key in a section's list (moved there if it is in the list)."""
        self._record(True, lambda doc: _remove(doc, name, section))
        head = [f"- {key_text(name)}\n"]
        self._record(False, lambda doc: _put(doc, name, head, section, at, None), name)

    def remove(self, name: str, section: str | None = None) -> None:
        """Remove an entry (or a section's item, every time it is listed); comments above
        it stay in the file."""
        self._record(True, lambda doc: _remove(doc, name, section))

    def _record(
        self, removes: bool, apply: Callable[[Document], None], names: str | None = None
    ) -> None:
        apply(self.doc)
        self._ops.append(_Op(removes, apply, names))

    def _render(self, name: str, value: Any, flow: bool) -> list[str]:
        """An entry's lines at column 0 (placed at the file's own indent by _put)."""
        from catalog.edit.document import flow_list

        if isinstance(value, dict):
            value = {k: flow_list(v) if isinstance(v, list) else v for k, v in value.items()}
            if not flow:
                body = shift_lines(lines_of(_dump(self.yaml, value)), 2)
                return [f"{key_text(name)}:\n", *body]
            from ruamel.yaml.comments import CommentedMap

            value = CommentedMap(value)
            value.fa.set_flow_style()
        elif isinstance(value, list):
            value = flow_list(value)
        inline = self._inline(value) if value is not None else ""
        return [f"{key_text(name)}:" + (f" {inline}" if inline else "") + "\n"]

    def _inline(self, value: Any) -> str:
        """A value as written after 'name: ' on one line."""
        return _dump(self.yaml, [value]).strip().removeprefix("- ")

    # -- writing

    def interim(self, held: Callable[[str], bool]) -> str | None:
        """The text written before the catalog (this file's stage; held: whether the
        catalog holds a key before the write); None when that stage holds no edit."""
        early = [op for op in self._ops if self._early(op, held)]
        if not early:
            return None
        doc = self._cut()
        for op in early:
            op.apply(doc)
        return doc.render()

    def _early(self, op: _Op, held: Callable[[str], bool]) -> bool:
        """Whether an edit goes into the text written before the catalog."""
        if self.stage == "grown":
            return not op.removes
        return op.removes or op.names is None or held(op.names)

    def render(self) -> str:
        """The file's new text: the text as read with every edit."""
        return self.doc.render()


def _dump(yaml: YAML, data: Any) -> str:
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue()


def _entries(doc: Document, section: str | None) -> list[Block]:
    """The blocks that are entries: the top-level ones, or a section's children."""
    if section is None:
        return doc.blocks
    block = next((b for b in doc.blocks if b.key == section), None)
    return [] if block is None else block.children


def _section(doc: Document, name: str) -> Block:
    """A section's block, made at the end of the file when it is missing."""
    block = next((b for b in doc.blocks if b.key == name), None)
    if block is None:
        indent = doc.blocks[0].indent if doc.blocks else 0
        block = Block(name, [], [" " * indent + f"{key_text(name)}:\n"], indent)
        doc.blocks.append(block)
    elif not block.open:  # written in flow style ('papers: {}'): made a block
        block.head = [" " * block.indent + f"{key_text(name)}:\n"]
        block.open = True
    return block


def _siblings(doc: Document, section: str | None) -> tuple[list[Block], int]:
    """Where an entry goes (the top-level blocks or a section's children) and its indent."""
    if section is None:
        return doc.blocks, doc.blocks[0].indent if doc.blocks else 0
    parent = _section(doc, section)
    if parent.child_indent is None:
        parent.child_indent = parent.indent + 2
    return parent.children, parent.child_indent


def _put(
    doc: Document, name: str, head: list[str], section: str | None, at: Where, replace: str | None
) -> None:
    """Put an entry's lines into a document (see KeyedFile.put)."""
    siblings, indent = _siblings(doc, section)
    existing = next((b for b in siblings if b.key == name), None)
    if existing is not None:
        existing.head = shift_lines(head, indent)
        return
    lead: list[str] = []
    old = next((b for b in siblings if b.key == replace), None) if replace else None
    if old is not None:  # a rename: the comments above the old entry go with it
        lead = [ln for ln in old.lead if ln.strip()]
        old.lead = [ln for ln in old.lead if not ln.strip()]
    if section is not None and not siblings:  # the comments of an emptied list head it again
        parent = _section(doc, section)
        lead, parent.tail = parent.tail + lead, []
    _insert(siblings, Block(name, lead, shift_lines(head, indent), indent), at)


def _insert(siblings: list[Block], block: Block, at: Where) -> None:
    """Insert a block among its siblings; at the top, below the comments that head them."""
    if at.startswith("before:"):
        index = next((i for i, s in enumerate(siblings) if s.key == at[7:]), None)
        if index is not None:
            if not block.lead:
                block.lead = _blank(siblings[index].lead)
            siblings.insert(index, block)
            return
        at = "end"
    if at == "end" or not siblings:
        last = siblings[-1].lead if siblings else []
        if not block.lead:  # the blank lines that part entries (not the last one's comments)
            block.lead = _blank(last)
        siblings.append(block)
        return
    if at == "top":
        first = siblings[0]
        block.lead, first.lead = first.lead + block.lead, _blank(first.lead)
        siblings.insert(0, block)
        return
    index = next(
        (i for i, s in enumerate(siblings) if s.key.casefold() > block.key.casefold()),
        len(siblings),
    )
    if index == 0:
        first = siblings[0]
        block.lead, first.lead = first.lead + block.lead, _blank(first.lead)
    elif not block.lead:
        block.lead = _blank(siblings[min(index, len(siblings) - 1)].lead)
    siblings.insert(index, block)


def _blank(lead: list[str]) -> list[str]:
    """The blank lines that part an entry from the one above (its comments left out)."""
    return [ln for ln in lead if not ln.strip()]


def _remove(doc: Document, name: str, section: str | None) -> None:
    """Remove an entry's lines; the comment lines above it stay, above what follows it."""
    siblings = _entries(doc, section)
    while (at := next((i for i, b in enumerate(siblings) if b.key == name), None)) is not None:
        _cut_out(doc, siblings, at, section)


def _cut_out(doc: Document, siblings: list[Block], at: int, section: str | None) -> None:
    """Remove the entry at this place among its siblings, keeping its comment lines."""
    block = siblings.pop(at)
    if not any(ln.strip() for ln in block.lead):
        return  # only blank lines: what follows keeps its own
    if at < len(siblings):
        following = siblings[at]
        following.lead = block.lead + [ln for ln in following.lead if ln.strip()]
    elif section is not None:
        parent = next(b for b in doc.blocks if b.key == section)
        parent.tail = block.lead + parent.tail
    else:
        doc.trailer = block.lead + doc.trailer


# The catalog's step: its path, the pieces of its new bytes, and the test that the file
# a write takes out of its place is the one the session read.
CatalogStep = tuple[Path, list[files.Piece], Callable[[Path], bool]]


def write_in_order(
    parts: list[KeyedFile], catalog: CatalogStep | None, held: Callable[[str], bool]
) -> list[Path]:
    """Write the changed files so that every prefix of the writes agrees: each file at
    its interim stage (a registry grown by what papers will name; a file that names papers
    with every edit but those naming a paper the catalog does not hold yet: held says
    which it holds), then the catalog, then each file as it ends. Each write replaces the
    bytes the previous one left, or ConcurrentEditError. Returns the paths written."""
    changed = [p for p in parts if p.changed]
    found = {p.path: p.data for p in changed}
    written: list[Path] = []

    def write(path: Path, text: str, newline: str) -> None:
        new = files.encoded(text, newline)
        if new == found[path]:
            return  # this step's text is already there (a file that only grew)
        files.atomic_write(path, text, newline, expected=found[path])
        found[path] = new
        if path not in written:
            written.append(path)

    for part in changed:
        if (text := part.interim(held)) is not None:
            write(part.path, text, part.newline)
    if catalog is not None:
        path, pieces, unchanged = catalog
        files.atomic_write(path, pieces, expected=unchanged)
        written.append(path)
    for part in changed:
        write(part.path, part.render(), part.newline)
    return written
