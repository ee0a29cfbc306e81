"""The catalog file as a write session read it: year blocks over its bytes, cut further
only where an edit needs it.

An edit of one paper reads the lines that are that paper's, not its year or the file:
the index keeps each paper's first line and how many lines its text runs past it, and
where each top-level block of the file lies (catalog.index.freshness.Layout). The paper's
lines are cut out of its year's bytes; the rest of the year, and every other year, stays
the file's bytes, written again as they are. A year is read and cut into venues and
papers (catalog.edit.document) only when an edit changes its structure: a paper added,
removed or moved.
"""

from __future__ import annotations

import bisect
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from catalog.data import reader, yamlfile
from catalog.edit.document import (
    Block,
    Document,
    Old,
    Origin,
    Piece,
    WriteError,
    lines_of,
    parse_catalog,
)
from catalog.files import OpenFile, encoded, read_file
from catalog.index import freshness
from catalog.index.freshness import Layout
from catalog.model import content_digest

if TYPE_CHECKING:
    from catalog.edit.rewrite import Rewrite

_NEWLINE = re.compile(b"\n")


class Source:
    """The catalog file a session holds open, and how the index (or one reading of the
    bytes) cuts it into top-level blocks."""

    def __init__(self, file: OpenFile, layout: Layout, filename: str):
        self.file = file
        self.layout = layout
        self.filename = filename
        self._loaded: dict[int, tuple[bytes, list[int]]] = {}  # a block's bytes, line starts
        self.final_newline = not file.size or file.read(file.size - 1) == b"\n"

    def lazy(self) -> bool:
        """Whether the file can be cut into year blocks read one at a time (else a
        session reads it whole)."""
        labels = [c.label for c in self.layout.cuts]
        years = labels[1:] if labels[:1] == [""] else labels
        return self.layout.blocks and bool(years) and all(y.isdigit() for y in years)

    def document(self) -> Document:
        """The file cut into year blocks, none of them read yet (lazy); or, when it
        cannot be cut so, read whole and cut into every block."""
        if not self.lazy():
            text = yamlfile.decode(self.file.read(), self.filename)
            return parse_catalog(text, self.filename)
        cuts = self.layout.cuts
        header: list[Piece] = []
        blocks = []
        for i, c in enumerate(cuts):
            if c.label == "":
                header.append(Old(c.begin, c.end, c.line, True))
                continue
            lines = cuts[i + 1].line - c.line if i + 1 < len(cuts) else None
            origin = Origin(c.begin, c.end, c.line, lines)
            blocks.append(Block(c.label, [], [], 0, lazy=True, origin=origin))
        return Document(header, blocks, [], self.final_newline)

    def _load(self, block: Block) -> tuple[bytes, list[int]]:
        """A lazy year's bytes and where each of its lines starts in them."""
        assert block.origin is not None
        return self.load(block.origin.begin, block.origin.end)

    def load(self, begin: int, end: int) -> tuple[bytes, list[int]]:
        """The bytes of a top-level block and where each of its lines starts in them
        (kept: an edit cuts papers out of them, then hashes them)."""
        if begin not in self._loaded:
            data = self.file.read(begin, end)
            starts = [0, *(m.end() for m in _NEWLINE.finditer(data))]
            if starts[-1] == len(data) and len(starts) > 1:
                starts.pop()  # the text after the last line end is no line
            self._loaded[begin] = (data, starts)
        return self._loaded[begin]

    def block_at(self, offset: int) -> int:
        """The index (in layout.cuts) of the top-level block holding this byte."""
        return bisect.bisect_right([c.begin for c in self.layout.cuts], offset) - 1

    def line_at(self, offset: int) -> int:
        """The line (1-based) that starts at this byte (the start of a line)."""
        cuts = self.layout.cuts
        i = self.block_at(offset)
        if i < 0:
            return 1
        block = cuts[i]
        if offset == block.begin:
            return block.line
        if offset == block.end and i + 1 < len(cuts):
            return cuts[i + 1].line
        data, _ = self.load(block.begin, block.end)
        return block.line + data.count(b"\n", 0, offset - block.begin)

    def read(self, old: Old) -> bytes:
        """The bytes of lines kept from the file."""
        block = self.layout.cuts[self.block_at(old.begin)]
        if block.begin in self._loaded and old.end <= block.end:
            return self._loaded[block.begin][0][old.begin - block.begin : old.end - block.begin]
        return self.file.read(old.begin, old.end)

    def cut_paper(self, year: Block, key: str, line: int, span: int, venue: str) -> Block:
        """The block of the paper whose text starts at `line` (1-based, in the file) and
        runs `span` lines further, cut out of the lazy year block it is in."""
        assert year.origin is not None
        data, starts = self._load(year)
        first = line - year.origin.line
        last = first + span
        if not 0 <= first <= last < len(starts):
            raise WriteError(f"{self.filename}: cannot find the lines of '{key}'; please report it")

        def text(i: int) -> str:
            end = starts[i + 1] if i + 1 < len(starts) else len(data)
            return data[starts[i] : end].decode("utf-8")

        # The entry's '- ': where its first line starts, or alone on a line above.
        start, shown = first, text(first)
        dash = len(shown) - len(shown.lstrip(" "))
        while not shown[dash:].startswith("-"):
            start -= 1
            if start < 0:
                raise WriteError(f"{self.filename}: cannot find the '- ' of '{key}'")
            shown = text(start)
            dash = shown.rfind("-")
            if dash >= 0 and shown[:dash].strip():
                dash = len(shown)  # not a '-' that starts the line: look further up
        begin, end = starts[start], starts[last + 1] if last + 1 < len(starts) else len(data)
        head = lines_of(yamlfile.decode(data[begin:end], self.filename))
        at = year.origin.begin
        origin = Origin(at + begin, at + end, year.origin.line + start, last + 1 - start)
        block = Block(key, [], head, dash, origin=origin, place=(int(year.key), venue))
        spans = [(c.origin.begin, c.origin.end) for c in year.cuts if c.origin is not None]
        index = bisect.bisect(spans, (origin.begin, origin.end))
        if (index and spans[index - 1][1] > origin.begin) or (
            index < len(spans) and spans[index][0] < origin.end
        ):
            raise WriteError(f"{self.filename}: the lines of '{key}' overlap another paper's")
        year.cuts.insert(index, block)
        return block

    def expand(self, doc: Document, year: Block) -> None:
        """Read a lazy year block and cut it into venues and papers, in place; the papers
        already cut out of it keep their blocks (and the edits made to them)."""
        if not year.lazy:
            return
        data, _ = self._load(year)
        parsed = parse_catalog(yamlfile.decode(data, self.filename), self.filename)
        if len(parsed.blocks) != 1 or parsed.blocks[0].key != year.key:
            raise WriteError(f"{self.filename}: cannot cut the block of year {year.key}")
        block = parsed.blocks[0]
        year.lead = year.lead + parsed.header + block.lead
        year.head, year.children = block.head, block.children
        year.child_indent, year.open, year.indent = block.child_indent, block.open, block.indent
        year.tail = parsed.trailer + year.tail
        cut = {c.key: c for c in year.cuts}
        for venue in year.children:
            for i, paper in enumerate(venue.children):
                mine = cut.pop(paper.key, None)
                if mine is None:
                    continue
                if mine.head != paper.head:
                    raise WriteError(f"{self.filename}: the lines of '{paper.key}' moved")
                mine.lead, mine.origin, mine.place = paper.lead, None, None
                venue.children[i] = mine
        if cut:
            raise WriteError(f"{self.filename}: cannot find '{next(iter(cut))}' in its year")
        year.lazy, year.origin, year.cuts = False, None, []

    def spacing(self, doc: Document) -> list[str]:
        """The blank lines that part years not read yet (the end of each year's lines),
        so that a new year keeps the file's spacing."""
        blank: list[str] = []
        if len(doc.blocks) > 1 and doc.blocks[0].lazy:
            data, starts = self._load(doc.blocks[0])
            for start, end in zip(reversed(starts), [len(data), *reversed(starts)], strict=False):
                line = data[start:end].decode("utf-8").replace("\r\n", "\n")
                if line.strip():
                    break
                blank.append(line)
        return blank

    def replaced(self, text: str, newline: str) -> Document:
        """A document of a new text for the whole file (papers edit): its top-level
        blocks that are the file's, byte for byte, kept as the file's lines (and not read
        again); the others new text."""
        final = text.endswith("\n") or not text
        cuts = reader.cut(text) if self.lazy() else None
        if cuts is None:
            return Document(lines_of(text), [], [], final)
        old = {(c.label, d): c for c, d in zip(self.layout.cuts, self.layout.digests, strict=True)}
        header: list[Piece] = []
        blocks = []
        for c in cuts:
            piece = text[c.begin : c.end]
            was = old.get((c.label, content_digest(encoded(piece, newline))))
            if was is not None and not c.label:
                header.append(Old(was.begin, was.end, was.line, True))
            elif was is not None:
                origin = Origin(was.begin, was.end, was.line, None)
                blocks.append(Block(c.label, [], [], 0, lazy=True, origin=origin))
            elif not c.label:
                header.extend(lines_of(piece))
            else:
                blocks.append(Block(c.label, [], lines_of(piece), 0))
        return Document(header, blocks, [], final)

    def text(self, new: Rewrite) -> str:
        """A new catalog as one text (a dry run's diff shows it whole)."""
        data = b"".join(
            p if isinstance(p, bytes) else self.file.read(p.begin, p.end)
            for p in new.parts
            if not isinstance(p, str)
        )
        return yamlfile.decode(data, self.filename)

    def unchanged(self, path: Path) -> bool:
        """Whether the file at path (the one a write took out of the catalog's place) is
        the one this session read: the same file by its stat, when the stat it had then
        must change with any later write (freshness.trusted); else the same bytes, by
        their digest."""
        now, was = os.stat(path), self.file.stat
        if now.st_size != was.st_size:
            return False
        same = (now.st_ino, now.st_dev, now.st_mtime_ns) == (
            was.st_ino,
            was.st_dev,
            was.st_mtime_ns,
        )
        if same and freshness.trusted({"catalog": freshness.stamp_of(was)}, self.file.stat_ns):
            return True
        return freshness.file_digest(read_file(path)) == self.layout.digest
