"""A write session's edits: the catalog cut into blocks, the other files as KeyedFiles.

`Session` holds one set of edits to a catalog's files (catalog.edit.writer opens it under
their locks): the paper operations (add, update, remove, move, tags), the registries'
entries, and the files that name papers (the reader's file, the key map, the inbox). Its
commit judges the new texts (catalog.edit.validation) and writes them in an order every
prefix of which agrees (`write_in_order`). How the catalog keeps its form: the text is
cut into blocks of whole lines (catalog.edit.document) and only the blocks an edit
touches are rendered again; every other line is copied as it was.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalog.data import yamlfile
from catalog.data.registry import Venue
from catalog.edit.document import (
    Block,
    Document,
    WriteError,
    insert_sorted,
    key_text,
    lines_of,
    load_paper,
    new_paper_block,
    render_paper,
    set_field,
    shift_lines,
    yaml_rt,
)
from catalog.edit.keyed import KeyedFile, write_in_order
from catalog.edit.rewrite import Rewrite, rewrite
from catalog.edit.snapshot import Papers, Snapshot
from catalog.edit.source import Source
from catalog.edit.validation import (
    EditCheck,
    InvalidEditError,
)
from catalog.errors import (
    CatalogError,
    PaperNotFound,
    Problem,
)
from catalog.files import OpenFile
from catalog.hints import hint_for
from catalog.model import (
    FIELDS,
    LIST_FIELDS,
    MAX_TAG,
    RETIRED_FIELDS,
    SPECS,
    Paper,
)
from catalog.paths import Paths

_LISTS = set(LIST_FIELDS)
TAG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*\Z")

if TYPE_CHECKING:
    from ruamel.yaml import YAML

    from catalog.edit.readingfile import ReadingSession
    from catalog.ingest.inbox import Inbox
    from catalog.ingest.keymap import Keymap


# ---------------------------------------------------------------- the session


@dataclass
class WriteResult:
    """What a session wrote: changed files, warnings, and for a dry run the diff."""

    changed: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    dry_run: bool = False
    diff: str = ""


class Session:
    """One set of edits to a catalog's files, made under their locks: the catalog's text
    cut into blocks (Document), each edited paper's block rendered again; the registries,
    the reader's file, the key map and the inbox each a KeyedFile, read on first use."""

    def __init__(self, paths: Paths, indexed: bool = True):
        """indexed: False to read a scratch catalog's papers from its text, no index."""
        from catalog.data.registry import load_tags, load_venues

        self.paths = paths
        self.filename = paths.display()
        self._yaml: YAML | None = None
        try:
            with yamlfile.read_errors(self.filename):
                self.file = OpenFile(paths.catalog)
        except FileNotFoundError:
            raise CatalogError(
                f"{self.filename}: catalog file not found (create it, or point "
                "--catalog / PAPERS_CATALOG at your catalog)"
            ) from None
        try:
            self.snapshot = Snapshot(paths, self.file, self.filename, indexed)
        except BaseException:
            self.file.close()
            raise
        self.source = Source(self.file, self.snapshot.layout, self.filename)
        self._data: bytes | None = None
        self._text: str | None = None
        # Written back as the file has it (CRLF stays): its first line's end.
        self.newline = yamlfile.newline_of(self.file.read(0, 1 << 16))
        self.venues: dict[str, Venue] = load_venues(paths.venues)
        self.vocabulary: dict[str, str] = load_tags(paths.tags)
        self.papers = Papers(self.snapshot)  # current papers: the snapshot's, edits over it
        self._doc: Document | None = None
        self._where: dict[str, tuple[Block, Block, Block]] = {}
        self._cut: dict[str, Block] = {}  # papers cut out of years not read
        self._registries: dict[Path, KeyedFile] = {}
        self._reading: ReadingSession | None = None
        self._keymap: Keymap | None = None
        self._inbox: Inbox | None = None
        self._catalog_changed = False
        self.venues_before = dict(self.venues)
        self.vocab_before = dict(self.vocabulary)
        self.result = WriteResult()
        self._replacement: str | None = None
        self.written: Rewrite | None = None  # the catalog as this session wrote it

    def close(self) -> None:
        """Let go of the catalog file."""
        self.file.close()

    @property
    def yaml(self) -> YAML:
        """ruamel.yaml in round-trip mode, made on first use."""
        if self._yaml is None:
            self._yaml = yaml_rt()
        return self._yaml

    def registry(self, path: Path) -> KeyedFile:
        """A registry (venues, tags, authors) as this session edits it: what it gains is
        written before the catalog, what it loses after."""
        if path not in self._registries:
            self._registries[path] = KeyedFile(self.paths, path, stage="grown")
        return self._registries[path]

    @property
    def reading(self) -> ReadingSession:
        """The reader's file (data/reading.yaml) as this session edits it."""
        if self._reading is None:
            from catalog.edit.readingfile import ReadingSession

            self._reading = ReadingSession(self.paths)
        return self._reading

    @property
    def keymap(self) -> Keymap:
        """The key map (data/keymap.yaml) as this session edits it."""
        if self._keymap is None:
            from catalog.ingest.keymap import Keymap

            self._keymap = Keymap(self.paths)
        return self._keymap

    @property
    def inbox(self) -> Inbox:
        """The inbox (data/inbox.yaml) as this session edits it."""
        if self._inbox is None:
            from catalog.ingest.inbox import Inbox

            self._inbox = Inbox(self.paths)
        return self._inbox

    @property
    def data(self) -> bytes:
        """The catalog's bytes as read (read whole on first use)."""
        self._data = self.file.read() if self._data is None else self._data
        return self._data

    @property
    def text(self) -> str:
        """The catalog's text as read (read whole and decoded on first use)."""
        if self._text is None:
            self._text = yamlfile.decode(self.data, self.filename)
        return self._text

    @property
    def doc(self) -> Document:
        """The catalog cut into year blocks, read when an edit needs them (on first use)."""
        if self._doc is None:
            self._doc = self.source.document()
            for year in self._doc.blocks:
                self._register(year)
        return self._doc

    def _register(self, year: Block) -> None:
        for venue in year.children:
            for paper in venue.children:
                self._where[paper.key] = (year, venue, paper)
                self._cut.pop(paper.key, None)

    def _year_block(self, year: int, read: bool = True) -> Block | None:
        """A year's block; read and cut into venues and papers unless read is False."""
        block = next((b for b in self.doc.blocks if b.key == str(year)), None)
        if block is not None and block.lazy and read:
            self.source.expand(self.doc, block)
            self._register(block)
        return block

    def _locate(self, key: str) -> tuple[Block, Block, Block]:
        """The year, venue and paper blocks of a paper, reading its year when needed."""
        if key not in self._where:
            self._year_block(self.paper(key).year)
        return self._where[key]

    def _paper_block(self, key: str) -> Block:
        """A paper's block to edit its fields: cut out of its year by the lines the
        snapshot says are its own when the year is not read (the year stays unread)."""
        if key in self._where:
            return self._where[key][2]
        if key not in self._cut:
            paper = self.paper(key)
            year = self._year_block(paper.year, read=False)
            if year is None or not year.lazy:
                return self._locate(key)[2]
            line, span = self.snapshot.place(key)
            self._cut[key] = self.source.cut_paper(year, key, line, span, paper.venue)
        return self._cut[key]

    # -- reading

    def paper(self, key: str) -> Paper:
        """The current paper with this key; PaperNotFound suggests the closest key."""
        try:
            return self.papers[key]
        except KeyError:
            hint = hint_for(key, self.papers)
            raise PaperNotFound(
                f"no paper with key '{key}'" + (f"; {hint}" if hint else "")
            ) from None

    # -- papers

    def update(self, key: str, **changes: Any) -> Paper:
        """Set fields of one paper (None, [] or False removes the field); its other lines stay."""
        paper = self.paper(key)
        unknown = [n for n in changes if n not in FIELDS or n == "key"]
        if unknown:
            raise CatalogError(f"cannot set field '{unknown[0]}' (fields: {', '.join(FIELDS[1:])})")
        new = replace(paper, **{n: _model_value(n, v) for n, v in changes.items()})
        if new == paper:
            return paper
        return self._put(key, paper, new, changes)

    def _put(self, key: str, paper: Paper, new: Paper, changes: dict[str, Any]) -> Paper:
        """update() once the new paper is made: its block's changed fields set."""
        block = self._paper_block(key)
        data = load_paper(self.yaml, block)
        for name, value in changes.items():
            if getattr(paper, name) != getattr(new, name):
                set_field(data, name, value)
        block.dirty = True
        self._catalog_changed = True
        self.papers[key] = new
        return new

    def drop_retired(self, key: str) -> list[str]:
        """Remove the reading state an older catalog wrote on a paper (model.RETIRED_FIELDS:
        it lives in data/reading.yaml now); the names removed."""
        block = self._paper_block(key)
        data = load_paper(self.yaml, block)
        names = [name for name in RETIRED_FIELDS if name in data]
        for name in names:
            del data[name]
        if names:
            block.dirty = True
            self._catalog_changed = True
        return names

    def add(self, paper: Paper) -> Paper:
        """Add a new paper under its year and venue, in sorted place."""
        if paper.key in self.papers:
            raise CatalogError(
                f"key '{paper.key}' is already used by "
                f"'{self.papers[paper.key].title}' (keys are never reused)"
            )
        year_block, venue_block = self._place(paper.year, paper.venue)
        indent = venue_block.child_indent
        if indent is None:
            indent = venue_block.indent + 2
            venue_block.child_indent = indent
        block = new_paper_block(self.yaml, paper, indent)
        insert_sorted(venue_block.children, block, lambda b: b.key > paper.key)
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
            render_paper(self.yaml, block)
        venue.children.remove(block)
        if not venue.children:
            year.children.remove(venue)
        if not year.children:
            self.doc.blocks.remove(year)
        del self.papers[key]
        self._catalog_changed = True
        return paper

    def delete(self, key: str) -> Paper:
        """Remove a paper and every line of the catalog's files that names it: its entry
        in the reader's file and its queue place, its key map lines (written before the
        catalog loses it, so no file ever names a paper the catalog lacks)."""
        paper = self.remove(key)
        if self.paths.reading.exists():
            self.reading.forget(key)
        from catalog.ingest.keymap import keymap_path

        if keymap_path(self.paths).exists():
            self.keymap.forget(key)
        return paper

    def move(self, key: str, year: int, venue: str) -> Paper:
        """Move a paper (with its comments) under another year and venue; its lines keep."""
        paper = self.paper(key)
        if (paper.year, paper.venue) == (year, venue):
            return paper
        _, _, block = self._locate(key)
        render_paper(self.yaml, block)
        self.remove(key)
        year_block, venue_block = self._place(year, venue)
        indent = venue_block.child_indent
        if indent is None:
            indent = venue_block.child_indent = venue_block.indent + 2
        moved = Block(key, block.lead, shift_lines(block.head, indent - block.indent), indent)
        insert_sorted(venue_block.children, moved, lambda b: b.key > key)
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
            blank = self.source.spacing(self.doc)
            if not self.doc.blocks and self.doc.header and not self.doc.header[-1].endswith("\n"):
                self.doc.header[-1] += "\n"

            def older(b: Block) -> bool:
                return b.key.isdigit() and int(b.key) < year

            insert_sorted(self.doc.blocks, year_block, older)
            if year_block is self.doc.blocks[-1]:
                year_block.lead = blank + year_block.lead  # the blank lines go between years
            else:
                year_block.tail = blank
        if not year_block.open:
            raise WriteError(
                f"{self.filename}: year {year} is not written as a block of "
                "venues; write it as 'YEAR:' with venues below it"
            )
        venue_block = next((b for b in year_block.children if b.key == venue), None)
        if venue_block is None:
            if year_block.child_indent is None:
                year_block.child_indent = year_block.indent + 2
            indent = year_block.child_indent
            venue_block = Block(venue, [], [" " * indent + key_text(venue) + ":\n"], indent)
            insert_sorted(year_block.children, venue_block, lambda b: b.key > venue)
        if not venue_block.open:
            raise WriteError(
                f"{self.filename}: {year} › {venue} is not written as a block "
                "list of papers; write each paper as '- key: ...' below it"
            )
        return year_block, venue_block

    def add_tags(self, key: str, tags: list[str], new: bool = False) -> list[str]:
        """Add tags to a paper; returns those it did not have. A tag outside the
        vocabulary is refused with a suggestion unless new adds it to the vocabulary."""
        for tag in tags:
            if tag in self.vocabulary:
                continue
            if len(tag) > MAX_TAG:
                raise CatalogError(
                    f"'{tag[:MAX_TAG]}...' is longer than {MAX_TAG} characters: "
                    "name the tag in a few words"
                )
            if not TAG_RE.match(tag):
                raise CatalogError(
                    f"'{tag}' is not a tag name: use lower-case words joined "
                    "by hyphens, e.g. 'model-update'"
                )
            if not new:
                hint = hint_for(tag, self.vocabulary)
                raise CatalogError(
                    f"unknown tag '{tag}'"
                    + (f" ({hint})" if hint else "")
                    + f"; add it to {self.paths.display(self.paths.tags)} "
                    "with --new"
                )
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

    # -- registries

    def add_tag(self, tag: str, description: str | None) -> None:
        """Add a tag to the vocabulary (data/tags.yaml), in sorted place."""
        if tag in self.vocabulary:
            return
        self.registry(self.paths.tags).put(tag, description)
        self.vocabulary[tag] = description or ""

    def rename_tag(self, old: str, new: str) -> list[str]:
        """Rename a tag in the vocabulary and on every paper; returns the keys changed."""
        if old not in self.vocabulary:
            hint = hint_for(old, self.vocabulary)
            raise CatalogError(
                f"no tag '{old}' in {self.paths.display(self.paths.tags)}"
                + (f"; {hint}" if hint else "")
            )
        tags = self.registry(self.paths.tags)
        if new in self.vocabulary:  # merging two tags: keep the target's description
            tags.remove(old)
        else:
            value = tags.value(old)
            tags.put(new, self.vocabulary[old] if value is None else value, replace=old)
            self.vocabulary[new] = self.vocabulary[old]
        del self.vocabulary[old]
        return self._rename_papers(old, new)

    def _rename_papers(self, old: str, new: str) -> list[str]:
        renamed: dict[str, list[str]] = {}
        for key in self._tagged(old):
            tags = self.paper(key).tags
            if old in tags:
                renamed[key] = list(dict.fromkeys(new if t == old else t for t in tags))
        for key, tags in renamed.items():
            self.update(key, tags=tags)
        return list(renamed)

    def _tagged(self, tag: str) -> list[str]:
        """The keys of the current papers carrying a tag, in file order (through the index
        when it serves the papers: a rename reads the papers it changes, not all)."""
        if not self.snapshot.indexed:
            return [key for key, paper in self.papers.items() if tag in paper.tags]
        current = self.papers
        keys = [
            k
            for k in self.snapshot.tagged(tag)
            if k not in current.changed and k not in current.gone
        ]
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
        self.registry(self.paths.venues).put(venue.short, value)
        self.venues[venue.short] = venue

    # -- saving

    def replace_text(self, text: str) -> None:
        """Replace the whole catalog text (papers edit): validated like any other edit."""
        self._replacement = text

    def render(self) -> dict[Path, str | Rewrite]:
        """The new text of every file this session changed (the catalog's as a Rewrite:
        lines kept from the file, and what changed)."""
        out: dict[Path, str | Rewrite] = {}
        for part in self._parts():
            if part.changed and (text := part.render()) != part.text:
                out[part.path] = text
        if self._replacement is not None:
            doc = self.source.replaced(self._replacement, self.newline)
        elif self._catalog_changed:
            doc = self.doc
            for block in self._dirty(doc):
                render_paper(self.yaml, block)
        else:
            return out
        new = rewrite(doc.pieces(), self.source, self.newline, doc.final_newline)
        if new.layout.digest != self.snapshot.digest:
            out[self.paths.catalog] = new
        return out

    def _dirty(self, doc: Document) -> list[Block]:
        """The paper blocks an edit changed: those cut out of years not read, and the
        papers of the years read (a year not read has none)."""
        found = [b for b in self._cut.values() if b.dirty]
        for year in doc.blocks:
            for venue in year.children:
                found.extend(p for p in venue.children if p.dirty)
        return found

    def _parts(self) -> list[KeyedFile]:
        """Every file of the session but the catalog, registries first."""
        dependents = (self._reading, self._keymap, self._inbox)
        return [*self._registries.values(), *(d.file for d in dependents if d is not None)]

    def validate(self, texts: dict[Path, str | Rewrite]) -> list[Problem]:
        """Refuse an edit that adds problems; return the warnings it adds."""
        check = EditCheck(
            self.paths, self.snapshot, self.source.text, self.venues_before, self.vocab_before
        )
        catalog = texts.get(self.paths.catalog)
        others = {p: t for p, t in texts.items() if isinstance(t, str)}
        assert catalog is None or isinstance(catalog, Rewrite)
        warnings = check.check(catalog, others, self.venues, self.vocabulary)
        if self.paths.authors in others:  # judged as `papers check` would judge it
            from catalog.check.people import judge

            path = self.paths.authors
            before, new, shown = self.registry(path).text, others[path], self.paths.display(path)
            if added := judge(before, new, self.papers.values(), shown, self.filename):
                raise InvalidEditError(added)
        for dependent in (self._reading, self._keymap, self._inbox):
            if dependent is not None and dependent.file.path in others:
                dependent.check(others[dependent.file.path], self.papers.__contains__)
        return warnings

    def commit(self, dry_run: bool = False) -> WriteResult:
        """Validate and write every changed file atomically, in an order every step of
        which leaves the files agreeing (see write_in_order). A file that changed since the
        session read it is not replaced (ConcurrentEditError)."""
        texts = self.render()
        result = WriteResult(dry_run=dry_run)
        if not texts:
            return result
        result.warnings = self.validate(texts)
        if self._reading is not None:
            written = texts.get(self.paths.reading)
            self._reading.written = written if isinstance(written, str) else None
        if dry_run:
            result.diff = self.diff(texts)
            result.changed = list(texts)
            return result
        catalog = texts.get(self.paths.catalog)
        step = None
        if isinstance(catalog, Rewrite):
            step = (self.paths.catalog, catalog.parts, self.source.unchanged)
        result.changed = write_in_order(self._parts(), step, self.snapshot.has)
        self.written = catalog if isinstance(catalog, Rewrite) else None
        return result

    def diff(self, texts: dict[Path, str | Rewrite]) -> str:
        """A unified diff of the files as read and these new texts."""
        import difflib

        read = {part.path: part.text for part in self._parts()}
        out: list[str] = []
        for path, new in texts.items():
            old = self.text if path == self.paths.catalog else read.get(path, "")
            if isinstance(new, Rewrite):
                new = self.source.text(new)
            name = self.paths.display(path)
            out.extend(difflib.unified_diff(lines_of(old), lines_of(new), name, name))
        return "".join(out)


def _model_value(name: str, value: Any) -> Any:
    if name in _LISTS:
        return list(value or [])
    if SPECS[name].kind == "bool":
        return bool(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return value if value not in ("", []) else None
