"""The one door for writes: round-trip edits of the catalog and its registries.

Every change to data/papers.yaml, venues.yaml and tags.yaml goes through an
`edit()` session: it takes the catalog's lock, reads the files, applies the
edits, validates the result with the same reader and checks as `papers check`,
writes each changed file atomically (temporary file in the same folder, fsync,
rename) and refreshes the index.

How the file keeps its form: the text is cut into blocks of whole lines
(catalog.edit.document) and only the blocks an edit touches are rendered again; every
other line is copied as it was. The parts, one job each: catalog.edit.document (the text
cut for editing, and the registries' edits), `Session` here (the edit operations and
the commit), catalog.edit.snapshot (the papers as the session found them),
catalog.edit.validation (whether the new texts may be written) and catalog.files (the
atomic write, the locks).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalog import files
from catalog.data import yamlfile
from catalog.data.registry import Venue
from catalog.edit.document import (
    Block,
    Document,
    Registries,
    WriteError,
    blank_after_lazy_years,
    expand,
    insert_sorted,
    key_text,
    lines_of,
    load_paper,
    new_paper_block,
    parse_catalog_lazily,
    render_paper,
    set_field,
    shift_lines,
    yaml_rt,
)
from catalog.edit.snapshot import Papers, Snapshot
from catalog.edit.validation import (
    NEAR_DUPLICATE_MESSAGE,
    EditCheck,
    InvalidEditError,
)
from catalog.errors import (
    CatalogError,
    LockTimeoutError,
    PaperNotFound,
    Problem,
)
from catalog.files import CRASH_ENV, atomic_write, encoded
from catalog.hints import hint_for
from catalog.model import FIELDS, LIST_FIELDS, MAX_TAG, STATUSES, Paper
from catalog.paths import Paths, key_file_stem

# Seconds to wait for another papers process to finish its write.
LOCK_TIMEOUT = 120.0
__all__ = [
    "CRASH_ENV",
    "NEAR_DUPLICATE_MESSAGE",
    "InvalidEditError",
    "LockTimeoutError",
    "atomic_write",
]  # re-exported for callers
_LISTS = set(LIST_FIELDS)
TAG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*\Z")

if TYPE_CHECKING:
    from ruamel.yaml import YAML

    from catalog.data.readingstate import Entry
    from catalog.edit.readingfile import ReadingSession


# ---------------------------------------------------------------- the session


@dataclass
class WriteResult:
    """What a session wrote: changed files, warnings, and for a dry run the diff."""

    changed: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    dry_run: bool = False
    diff: str = ""


class Session:
    """One set of edits to the catalog and its registries, made under the lock: the
    catalog's text cut into blocks (Document), each edited paper's block rendered again."""

    def __init__(self, paths: Paths):
        from catalog.data.registry import load_tags, load_venues
        from catalog.index.database import catalog_stamp

        self.paths = paths
        self.filename = paths.display()
        self._yaml: YAML | None = None
        stamp = catalog_stamp(paths)
        try:
            data = yamlfile.read_bytes(paths.catalog, self.filename)
        except FileNotFoundError:
            raise CatalogError(
                f"{self.filename}: catalog file not found (create it, or point "
                "--catalog / PAPERS_CATALOG at your catalog)"
            ) from None
        self.data = data
        self._text: str | None = None
        self.newline = yamlfile.newline_of(data)  # written back as the file has it (CRLF stays)
        # The file's stat before it was read, if still the same after (the index may vouch
        # for bytes by their stat instead of their hash).
        same = stamp if catalog_stamp(paths) == stamp else None
        self.snapshot = Snapshot(paths, data, same, self.filename, lambda: self.text)
        self.venues: dict[str, Venue] = load_venues(paths.venues)
        self.vocabulary: dict[str, str] = load_tags(paths.tags)
        self.papers = Papers(self.snapshot)  # current papers: the snapshot's, edits over it
        self._doc: Document | None = None
        self._where: dict[str, tuple[Block, Block, Block]] = {}
        self.registries = Registries(paths, lambda: self.yaml)
        self._catalog_changed = False
        self.venues_before = dict(self.venues)
        self.vocab_before = dict(self.vocabulary)
        self.result = WriteResult()
        self._replacement: str | None = None

    @property
    def yaml(self) -> YAML:
        """ruamel.yaml in round-trip mode, made on first use."""
        if self._yaml is None:
            self._yaml = yaml_rt()
        return self._yaml

    @property
    def text(self) -> str:
        """The catalog's text as read (decoded on first use)."""
        if self._text is None:
            self._text = yamlfile.decode(self.data, self.filename)
        return self._text

    @property
    def doc(self) -> Document:
        """The catalog cut into year blocks (on first use)."""
        if self._doc is None:
            doc = parse_catalog_lazily(self.text, self.filename)
            if doc.render() != self.text:  # pragma: no cover - a bug in the cutter
                raise WriteError(
                    f"{self.filename}: cannot edit this file without changing "
                    "other lines; please report it"
                )
            self._doc = doc
            for year in doc.blocks:
                self._register(year)
        return self._doc

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
        block = self._locate(key)[2]
        data = load_paper(self.yaml, block)
        for name, value in changes.items():
            if getattr(paper, name) != getattr(new, name):
                set_field(data, name, value)
        block.dirty = True
        self._catalog_changed = True
        self.papers[key] = new
        return new

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
            blank = blank_after_lazy_years(self.doc.blocks)
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
        self.registries.put(self.paths.tags, tag, description)
        self.vocabulary[tag] = description or ""

    def rename_tag(self, old: str, new: str) -> list[str]:
        """Rename a tag in the vocabulary and on every paper; returns the keys changed."""
        if old not in self.vocabulary:
            hint = hint_for(old, self.vocabulary)
            raise CatalogError(
                f"no tag '{old}' in {self.paths.display(self.paths.tags)}"
                + (f"; {hint}" if hint else "")
            )
        if new in self.vocabulary:  # merging two tags: keep the target's description
            self.registries.remove(self.paths.tags, old)
        else:
            value = self.registries.value(self.paths.tags, old, self.vocabulary[old])
            self.registries.put(self.paths.tags, new, value, replace_key=old)
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
                        render_paper(self.yaml, paper)
            text = self.doc.render()
            if text != self.text:
                out[self.paths.catalog] = text
        return out

    def _check(self) -> EditCheck:
        return EditCheck(
            self.paths, lambda: self.text, self.snapshot, self.venues_before, self.vocab_before
        )

    def validate(self, texts: dict[Path, str]) -> list[Problem]:
        """Refuse an edit that adds problems; return the warnings it adds."""
        return self._check().check(texts, self.venues, self.vocabulary)

    def commit(self, dry_run: bool = False) -> WriteResult:
        """Validate and write every changed file atomically, in an order every step of
        which leaves the files agreeing: the registries with what they gain (and still
        what they lose), then the catalog, then the registries as they end. A file that
        changed since the session read it is not replaced (ConcurrentEditError)."""
        texts = self.render()
        result = WriteResult(dry_run=dry_run)
        if not texts:
            return result
        result.warnings = self.validate(texts)
        if dry_run:
            result.diff = self.diff(texts)
            result.changed = list(texts)
            return result
        catalog = self.paths.catalog
        found = {path: self.registries.data(path) for path in texts if path != catalog}
        found[catalog] = self.data
        steps = sorted(self.registries.render(keep_removed=True).items())
        if catalog in texts:
            steps.append((catalog, texts[catalog]))
        steps += sorted((path, text) for path, text in texts.items() if path != catalog)
        for path, text in steps:
            newline = self.newline if path == catalog else self.registries.newline(path)
            written = encoded(text, newline)
            if written == found.get(path):
                continue  # this step's text is already there (a registry that only grew)
            atomic_write(path, text, newline, expected=found.get(path))
            found[path] = written
            if path not in result.changed:
                result.changed.append(path)
        return result

    def diff(self, texts: dict[Path, str]) -> str:
        """A unified diff of the files as read and these new texts."""
        import difflib

        out: list[str] = []
        for path, new in texts.items():
            old = self.text if path == self.paths.catalog else self.registries.text(path)
            name = self.paths.display(path)
            out.extend(difflib.unified_diff(lines_of(old), lines_of(new), name, name))
        return "".join(out)


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
        yield session
        session.result = session.commit(dry_run)
        if refresh and not dry_run and session.result.changed:
            session.result.warnings += _refresh_index(paths)


def _refresh_index(paths: Paths) -> list[Problem]:
    """Bring the index up to date after a write (still under the lock, so writers do not
    race each other's index updates). The write has happened and is what the user hears
    about: an index that cannot follow is rebuilt, or, failing that, a warning says so
    (the index is derived; the next command refreshes it again)."""
    import sqlite3

    from catalog.index import database

    try:
        database.refresh(paths)
        return []
    except (sqlite3.Error, OSError):
        with contextlib.suppress(CatalogError, sqlite3.Error, OSError):
            database.rebuild(paths)  # e.g. a damaged file; a reader holding it too long
            return []
    except CatalogError as err:
        return [
            Problem(
                paths.display(paths.db),
                0,
                "",
                f"the index was not refreshed: {err}",
                "the catalog was written; fix this, then any command re-indexes",
            )
        ]
    return [
        Problem(
            paths.display(paths.db),
            0,
            "",
            "the index could not be refreshed",
            "the catalog was written; run `papers index` to rebuild it",
        )
    ]


# ---------------------------------------------------------------- the reader's file


@contextlib.contextmanager
def edit_reading(paths: Paths, dry_run: bool = False) -> Iterator[ReadingSession]:
    """A session on the reader's file (data/reading.yaml): lock, read, yield for changes,
    then write atomically and bring the index's reading state up to date. The catalog is
    not touched. An exception inside the block leaves the file as it was."""
    from catalog.edit.readingfile import ReadingSession

    name = paths.display(paths.reading)
    with files.locked([paths.reading], LOCK_TIMEOUT, name):
        files.remove_dead_temporaries(paths.reading.resolve().parent, paths.reading.name)
        session = ReadingSession(paths)
        yield session
        if session.commit(dry_run) is not None and not dry_run:
            _refresh_index(paths)


def move_reading_state(paths: Paths) -> list[Entry]:
    """Move the status and read_on values the catalog still holds into the reader's file,
    once: the file first (an entry it has already wins), then the catalog loses them, so
    a crash between the two loses nothing and running it again finishes the job."""
    from catalog.data.readingstate import Entry
    from catalog.index import database

    conn = database.connect(paths)
    try:
        keys = [
            r[0]
            for r in conn.execute(
                "select key from papers where status != ? or read_on is not null", ("to-read",)
            )
        ]
    finally:
        conn.close()
    moved: list[Entry] = []
    if not keys:
        return moved
    with edit_reading(paths) as reading, edit(paths) as session:
        for key in keys:
            paper = session.paper(key)
            if paper.status not in STATUSES:
                continue  # papers check names it; the reader fixes it by hand
            if reading.entry(key) is None and (paper.status != "to-read" or paper.read_on):
                entry = Entry(key, paper.status, read_on=paper.read_on)
                reading.put(entry)
                moved.append(entry)
        reading.commit()
        reading.changed = False  # written: the session's exit has nothing left to write
        for key in keys:
            if session.paper(key).status in STATUSES:
                session.update(key, status=None, read_on=None)
    return moved


# ---------------------------------------------------------------- reading notes


# Characters that Markdown or HTML would read as markup in a line of plain text.
_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: "\\" + c for c in "\\`*_{}[]()#+!"}}


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

    template = (Path(__file__).parent.parent / "templates" / "reading-note.md").read_text(
        encoding="utf-8"
    )
    authors = ", ".join(paper.authors) + (" and others" if paper.et_al else "")
    link = (
        f"https://doi.org/{paper.doi}"
        if paper.doi
        else f"https://arxiv.org/abs/{paper.arxiv}"
        if paper.arxiv
        else paper.url or ""
    )
    fields = {
        "title": paper.title,
        "authors": authors,
        "venue": paper.venue,
        "year": str(paper.year),
        "link": link,
    }
    return Template(template).safe_substitute(
        key=_note_key(paper.key),
        today=dt.date.today().isoformat(),
        **{name: markdown_text(value) for name, value in fields.items()},
    )


def _note_key(key: str) -> str:
    """A key fit for a file name and the note's comment; CatalogError otherwise."""
    from catalog.model import KEY_RE

    if not KEY_RE.fullmatch(key):
        raise CatalogError(
            f"'{key}' is not a valid key (ASCII letters, digits and '-_:.+/', a "
            "letter first): fix it in the catalog (papers check lists it) "
            "before writing its note"
        )
    return key


def note_path(paths: Paths, key: str) -> Path:
    """data/readings/KEY.md for a valid key; never a path outside data/readings/."""
    folder = paths.readings.resolve()
    path = (folder / f"{key_file_stem(_note_key(key))}.md").resolve()
    if path.parent != folder:
        raise CatalogError(
            f"the note of '{key}' would be written outside {paths.display(paths.readings)}; refused"
        )
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
