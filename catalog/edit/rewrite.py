"""A session's new catalog as pieces of the file it read and new text: what to write,
and what changed, so that judging and indexing it cost what the edit changed.

The pieces (catalog.edit.document's Block.pieces) are lines kept from the file, papers
cut out of a year not read (each rendered again), and new text. `rewrite` cuts the new
file into its top-level blocks as reader.cut would cut its bytes, without reading them:
a block kept whole keeps its digest; a block that is one old block with some papers
rendered again is hashed (its bytes are in memory already) and only those papers are
read again, each alone; any other block is read again whole. Where the other papers'
lines moved is said by `moves`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from catalog import files
from catalog.data import reader, yamlfile
from catalog.data.reader import Cut
from catalog.edit.document import Block, Old, Piece, key_text
from catalog.edit.source import Source
from catalog.errors import Problem
from catalog.index.freshness import Layout, combined, layout
from catalog.index.update import Change
from catalog.model import content_digest

# A line range of the file read, to the end of the file.
_END = 1 << 62


@dataclass(frozen=True)
class Head:
    """A paper cut out of a year not read, rendered again: its new bytes and line."""

    block: Block
    data: bytes


@dataclass
class _Block:
    """A top-level block of the new file while it is being cut: its label, first line,
    first byte and parts (lines kept, papers rendered again, new bytes)."""

    label: str
    line: int
    begin: int
    parts: list[Old | Head | bytes] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # the first line of each part
    size: int = 0

    def add(self, part: Old | Head | bytes, line: int, size: int) -> None:
        self.parts.append(part)
        self.lines.append(line)
        self.size += size


@dataclass
class Rewrite(Change):
    """The new catalog: its pieces to write (bytes, or bytes kept from the file read),
    what it changed (Change: how its blocks lie, the papers read again, where the others'
    lines moved), the problems found reading it; whole: it was read whole (it is not cut
    into blocks read alone)."""

    parts: list[files.Piece] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    whole: bool = False

    def moved(self, label: str, line: int) -> int:
        """Where a line of the file read (in a block not read again) is in the new one."""
        for first, end, by in self.moves.get(label, ()):
            if first <= line < end:
                return line + by
        return line


def rewrite(
    pieces: list[Piece | Block], source: Source, newline: str, final_newline: bool = True
) -> Rewrite:
    """The new file made of these pieces (final_newline: whether its last line ends with
    one). A file the session read whole is read whole again."""
    items = _items(pieces, source, newline, final_newline)
    whole = not any(isinstance(i, Old) for i in items) and not source.lazy()
    parts = _parts(items, source)
    blocks = None if whole else _blocks(items, source)
    if blocks is None:
        return _read_whole(b"".join(_bytes(i, source) for i in items), parts, source.filename)
    out = Rewrite(layout(b""), parts=parts)
    cuts, digests = [], []
    kept: set[int] = set()
    for block in blocks:
        end = block.begin + block.size
        cuts.append(Cut(block.label, block.line, block.begin, end))
        digests.append(_judge(block, source, out, kept))
    labels = [c.label for c in cuts]
    if len(set(labels)) != len(labels):  # a year twice: only the whole file tells
        return _read_whole(b"".join(_bytes(i, source) for i in items), parts, source.filename)
    out.reread |= {c.label for i, c in enumerate(source.layout.cuts) if i not in kept}
    out.layout = Layout(cuts, digests, combined(digests), True)
    return out


def _items(
    pieces: list[Piece | Block], source: Source, newline: str, final_newline: bool
) -> list[Old | Head | bytes]:
    """The pieces with consecutive new lines joined and encoded as the file writes them.
    A file that ends without a line end: its last line gets one when more follows it,
    and the new last line has none (as a document read whole renders it)."""
    out: list[Old | Head | bytes] = []
    text: list[str] = []

    def flush() -> None:
        if text:
            out.append(files.encoded("".join(text), newline))
            text.clear()

    for piece in pieces:
        if isinstance(piece, str):
            text.append(piece)
            continue
        flush()
        if isinstance(piece, Old):
            out.append(piece)
            if piece.end == source.file.size and not source.final_newline:
                text.append("\n")  # taken out again below if nothing follows
        else:
            out.append(Head(piece, files.encoded("".join(piece.head), newline)))
    flush()
    if not final_newline and out:
        last = out[-1]
        end = newline.encode()
        if isinstance(last, bytes) and last.endswith(end):
            out[-1] = last[: -len(end)]
        elif isinstance(last, Head) and last.data.endswith(end):
            out[-1] = Head(last.block, last.data[: -len(end)])
    return [i for i in out if not isinstance(i, bytes) or i]


def _bytes(item: Old | Head | bytes, source: Source) -> bytes:
    if isinstance(item, Old):
        return source.read(item)
    return item.data if isinstance(item, Head) else item


def _parts(items: list[Old | Head | bytes], source: Source) -> list[files.Piece]:
    """What to write: new bytes, and the file's bytes kept (adjacent ones as one)."""
    out: list[files.Piece] = []
    for item in items:
        if isinstance(item, Old):
            last = out[-1] if out else None
            if isinstance(last, files.Kept) and last.end == item.begin:
                out[-1] = files.Kept(source.file, last.begin, item.end)
            else:
                out.append(files.Kept(source.file, item.begin, item.end))
        else:
            out.append(item.data if isinstance(item, Head) else item)
    return out


def _blocks(items: list[Old | Head | bytes], source: Source) -> list[_Block] | None:
    """The new file cut into top-level blocks as reader.cut cuts bytes; None when it
    cannot be cut (new text with a tab, a document marker)."""
    blocks: list[_Block] = []
    at, line = 0, 1
    for index, item in enumerate(items):
        if isinstance(item, Old):
            if item.whole or not blocks:
                label = source.layout.cuts[source.block_at(item.begin)].label
                blocks.append(_Block(label, line, at))
            blocks[-1].add(item, line, item.end - item.begin)
            at += item.end - item.begin
            if index + 1 < len(items):
                line += source.line_at(item.end) - item.line
            continue
        data = item.data if isinstance(item, Head) else item
        cuts = reader.cut(data)
        if cuts is None or (isinstance(item, Head) and [c.label for c in cuts] != [""]):
            return None
        for c in cuts:
            if c.label or not blocks:
                blocks.append(_Block(c.label, line + c.line - 1, at + c.begin))
            part = item if isinstance(item, Head) else data[c.begin : c.end]
            blocks[-1].add(part, line + c.line - 1, c.end - c.begin)
        at += len(data)
        line += data.count(b"\n")
    return blocks


def _judge(block: _Block, source: Source, out: Rewrite, kept: set[int]) -> str:
    """A new block's digest; what it changed goes into out, and the old block it keeps
    (one old block with papers rendered again, or blank and comment lines added) into
    kept."""
    parts = block.parts
    first = parts[0]
    origins = {source.block_at(p.begin) for p in parts if isinstance(p, Old)}
    if not (isinstance(first, Old) and first.whole and len(origins) == 1) or not all(
        _inert(p) for p in parts if isinstance(p, bytes)
    ):
        _read_again(block, source, out)
        return content_digest(b"".join(_bytes(p, source) for p in parts))
    (origin,) = origins
    kept.add(origin)
    old = source.layout.cuts[origin]
    ranges = out.moves.setdefault(block.label, [])
    for part, line in zip(parts, block.lines, strict=True):
        if isinstance(part, Old):
            end = _END if part.end == old.end else source.line_at(part.end)
            ranges.append((part.line, end, line - part.line))
        elif isinstance(part, Head):
            _read_head(part, line, source.filename, out)
    if len(parts) == 1 and (first.begin, first.end) == (old.begin, old.end):
        return source.layout.digests[origin]  # kept whole
    digest = hashlib.sha256()
    for part in parts:
        digest.update(_bytes(part, source))
    return digest.hexdigest()


def _inert(data: bytes) -> bool:
    """New bytes of blank and comment lines only (no paper in them)."""
    return all(not ln.strip() or ln.lstrip().startswith(b"#") for ln in data.split(b"\n"))


def _read_head(head: Head, line: int, filename: str, out: Rewrite) -> None:
    """A paper rendered again, read alone as check would read it in the file: under a
    line of its year and one of its venue, its own lines as they are written."""
    block = head.block
    assert block.place is not None
    year, venue = block.place
    text = f"{year}:\n {key_text(venue)}:\n" + yamlfile.decode(head.data, filename)
    papers, problems, spans = reader.parse_spans(text, filename, line - 3)
    if [p.key for p in papers] != [block.key] and not any(p.blocking for p in problems):
        hint = "please report it"
        problems.append(Problem(filename, line, "", f"'{block.key}' did not read back", hint, True))
    out.problems += problems
    out.papers += papers
    out.spans += spans
    out.heads.add(block.key)


def _read_again(block: _Block, source: Source, out: Rewrite) -> None:
    """A new top-level block read again whole."""
    data = b"".join(_bytes(p, source) for p in block.parts)
    text = yamlfile.decode(data, source.filename)
    papers, problems, spans = reader.parse_spans(text, source.filename, block.line - 1)
    out.papers += papers
    out.spans += spans
    out.problems += problems
    out.reread.add(block.label)


def _read_whole(data: bytes, parts: list[files.Piece], filename: str) -> Rewrite:
    """A new file that is not cut into blocks read alone: read whole."""
    text = yamlfile.decode(data, filename)
    papers, problems, spans = reader.parse_spans(text, filename)
    cut = layout(data)
    reread = {c.label for c in cut.cuts}
    return Rewrite(cut, papers, spans, reread, parts=parts, problems=problems, whole=True)
