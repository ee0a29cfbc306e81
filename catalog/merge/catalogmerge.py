"""Three-way merge of a catalog file (data/papers.yaml), paper by paper.

The three versions are read by the catalog's own reader; each side's papers are paired
with the ancestor's by key, or, for a paper whose key one side renamed, by DOI or arXiv
id (check's rule of one paper). Each paper is merged field by field
(catalog.merge.papermerge) and what theirs brings is applied to ours through a write
Session, so only the blocks of touched papers are written again and every other line
(comments included) stays as ours has it. A paper changed two ways, or deleted on one
side and changed on the other, is a conflict: its block alone carries git's markers.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from catalog.data import reader
from catalog.edit.document import (
    Block,
    Document,
    load_paper,
    parse_catalog,
    render_paper,
    set_field,
    shift_lines,
)
from catalog.edit.rewrite import Rewrite
from catalog.edit.session import Session
from catalog.edit.validation import InvalidEditError
from catalog.errors import CatalogError, Problem
from catalog.merge.papermerge import PLACE, Matcher, Merged, merge_paper, same
from catalog.merge.values import Clash
from catalog.model import FIELDS, Paper
from catalog.paths import Paths

OURS, SEP, THEIRS = "<<<<<<< ours\n", "=======\n", ">>>>>>> theirs\n"
# The files beside a catalog that judging an edit of it reads (copied from the working
# tree, as ours has them).
_BESIDE = ("venues.yaml", "tags.yaml", "records.yaml", "authors.yaml", "protected-terms.txt")


class UnreadableError(CatalogError):
    """A version the catalog's reader cannot read: git's own line merge takes over."""


@dataclass
class Conflict:
    """A paper the two sides changed two ways: its key in the result and theirs' values
    (None: theirs deleted it; ours_gone: ours deleted it)."""

    key: str
    theirs: Paper | None
    clashes: dict[str, Clash] = field(default_factory=dict)
    ours_gone: bool = False


@dataclass
class Result:
    """The merged text and the conflicts marked in it."""

    text: str
    conflicts: list[Conflict]
    problems: list[Problem] = field(default_factory=list)  # what check says of the text


def read_version(text: str, name: str) -> list[Paper]:
    """A version's papers, or UnreadableError when the reader cannot read it."""
    try:
        papers, problems = reader.parse_all(text, name)
    except CatalogError as err:
        raise UnreadableError(f"{name}: {err}") from None
    blocking = [p for p in problems if p.blocking]
    if blocking:
        raise UnreadableError(str(blocking[0]))
    return papers


def merge_catalog(base: str, ours: str, theirs: str, beside: Path | None = None) -> Result:
    """Theirs' changes since base applied to ours (beside: the folder of the working
    tree's registries, which judging the result reads)."""
    old = read_version(base, "base")
    mine, yours = read_version(ours, "ours"), read_version(theirs, "theirs")
    with _scratch(ours, [*old, *mine, *yours], beside) as paths:
        session = Session(paths, indexed=False)  # an index for one merge costs more
        texts_of = Texts(base, ours, theirs)
        conflicts = _apply(session, old, mine, yours, texts_of)
        texts = session.render()
        rendered = texts.get(paths.catalog)
        text = session.source.text(rendered) if isinstance(rendered, Rewrite) else session.text
        if texts_of.verbatim or texts_of.header_changed:
            text = texts_of.apply(text)
            session.replace_text(text)
            texts = session.render()
        if conflicts:
            return Result(_mark(text, conflicts, session), conflicts)
        try:
            if texts:
                session.validate(texts)  # the merge must not add a problem check reports
        except InvalidEditError as err:
            return Result(text, [], err.problems)
        return Result(text, [])


def _pairs(base: list[Paper], side: list[Paper]) -> dict[str, Paper]:
    """Base key -> that paper on one side: by key, else (a renamed key) by DOI or arXiv id."""
    keys = {p.key for p in side}
    base_keys = {p.key for p in base}
    out = {p.key: p for p in side if p.key in base_keys}
    gone = Matcher([p for p in base if p.key not in keys])
    for paper in side:
        if paper.key not in base_keys and (hit := gone.find(paper)) and hit.key not in out:
            out[hit.key] = paper
    return out


def _apply(
    session: Session, base: list[Paper], ours: list[Paper], theirs: list[Paper], texts: Texts
) -> list[Conflict]:
    """Theirs' changes applied to the session over ours; the conflicts found. A paper
    theirs alone changed, or added, takes theirs' lines (texts.verbatim)."""
    mine, yours = _pairs(base, ours), _pairs(base, theirs)
    conflicts: list[Conflict] = []
    for old in base:
        a, b = mine.get(old.key), yours.get(old.key)
        if b is None:
            if a is not None and not same(a, old):
                conflicts.append(Conflict(a.key, None))
            elif a is not None:
                session.remove(a.key)
        elif a is None:
            if not same(b, old):
                session.add(b)
                texts.verbatim[b.key] = b.key
                conflicts.append(Conflict(b.key, b, ours_gone=True))
        else:
            merged = merge_paper(old, a, b)
            _put(session, a, merged, b, conflicts)
            if same(merged.paper, b) and texts.unchanged_by_ours(old.key, a.key):
                texts.verbatim[merged.paper.key] = b.key
    paired = {id(p) for p in mine.values()}
    new_ours = Matcher([p for p in ours if id(p) not in paired])
    paired_theirs = {id(p) for p in yours.values()}
    for b in theirs:
        if id(b) in paired_theirs:
            continue
        a = new_ours.find(b)
        if a is None:
            session.add(b)
            texts.verbatim[b.key] = b.key
        else:  # added on both sides: one paper
            _put(session, a, merge_paper(None, a, b), b, conflicts)
    return conflicts


def _put(session: Session, ours: Paper, merged: Merged, theirs: Paper, out: list[Conflict]) -> None:
    """Write a merged paper over ours' (through the session: only its block changes)."""
    paper = merged.paper
    if paper.key != ours.key:  # renamed on theirs' side
        session.remove(ours.key)
        session.add(paper)
    else:
        if (paper.year, paper.venue) != (ours.year, ours.venue):
            session.move(ours.key, paper.year, paper.venue)
        changes = {
            name: getattr(paper, name)
            for name in FIELDS
            if name != "key" and getattr(paper, name) != getattr(ours, name)
        }
        if changes:
            session.update(ours.key, **changes)
    if merged.clashes:
        out.append(Conflict(paper.key, theirs, merged.clashes))


# ---------------------------------------------------------------- theirs' own lines


class Texts:
    """The three versions cut into paper blocks (catalog.edit.document), to give a paper
    theirs alone changed or added theirs' own lines: its comments and its form."""

    def __init__(self, base: str, ours: str, theirs: str):
        self.base, self.ours, self.theirs = (
            parse_catalog(text, name)
            for text, name in ((base, "base"), (ours, "ours"), (theirs, "theirs"))
        )
        self.papers = {name: _papers(d) for name, d in (("base", self.base), ("ours", self.ours))}
        self.verbatim: dict[str, str] = {}  # key in the result -> key in theirs
        self.header_changed = (
            self.ours.header == self.base.header and self.theirs.header != self.base.header
        )

    def unchanged_by_ours(self, base_key: str, our_key: str) -> bool:
        """True when ours left a paper's lines as the base has them."""
        return _lines_of(self.papers["base"], base_key) == _lines_of(self.papers["ours"], our_key)

    def apply(self, text: str) -> str:
        """The merged text with theirs' lines for the papers in verbatim (and theirs'
        header comments, when only theirs changed them)."""
        doc = parse_catalog(text, "merged")
        blocks = _papers(doc)
        theirs = _papers(self.theirs)
        for key, their_key in self.verbatim.items():
            block, own = blocks[key], theirs[their_key]
            block.lead = shift_lines(own.lead, block.indent - own.indent)
            block.head = shift_lines(own.head, block.indent - own.indent)
        if self.header_changed:
            doc.header = list(self.theirs.header)
        return doc.render()


def _papers(doc: Document) -> dict[str, Block]:
    return {p.key: p for y in doc.blocks for v in y.children for p in v.children}


def _lines_of(blocks: dict[str, Block], key: str) -> list[str] | None:
    block = blocks.get(key)
    if block is None:
        return None
    return shift_lines(block.lead + block.head, -block.indent)


# ---------------------------------------------------------------- conflict markers


def _mark(text: str, conflicts: list[Conflict], session: Session) -> str:
    """The merged text with each conflicting paper's block between git's markers."""
    doc = parse_catalog(text, session.filename)
    blocks = _papers(doc)
    for conflict in conflicts:
        block = blocks[conflict.key]
        if conflict.ours_gone:
            block.head = [OURS, SEP, *block.head, THEIRS]
        elif conflict.theirs is None:
            block.head = [OURS, *block.head, SEP, THEIRS]
        else:
            block.head = markers(block.head, _theirs_lines(session, block, conflict))
    return doc.render()


def _theirs_lines(session: Session, block: Block, conflict: Conflict) -> list[str]:
    """The paper's lines as theirs would have them: ours' block with theirs' values of the
    clashing fields (a place clash is said in a comment: one block has one place)."""
    copy = Block(block.key, [], list(block.head), block.indent)
    data = load_paper(session.yaml, copy)
    for name, clash in conflict.clashes.items():
        if name != PLACE:
            set_field(data, name, clash.theirs)
    copy.dirty = True
    render_paper(session.yaml, copy)
    if PLACE in conflict.clashes and conflict.theirs is not None:
        where = f"{conflict.theirs.year} › {conflict.theirs.venue}"
        return [" " * block.indent + f"# theirs files it under {where}\n", *copy.head]
    return copy.head


def markers(ours: list[str], theirs: list[str]) -> list[str]:
    """Two versions of a block's lines as one, each differing run between git's markers."""
    out: list[str] = []
    matcher = SequenceMatcher(a=ours, b=theirs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out += ours[i1:i2]
        else:
            out += [OURS, *ours[i1:i2], SEP, *theirs[j1:j2], THEIRS]
    return out


# ---------------------------------------------------------------- the scratch catalog


@contextlib.contextmanager
def _scratch(ours: str, papers: list[Paper], beside: Path | None) -> Iterator[Paths]:
    """A catalog in a temporary folder holding ours' text, with the working tree's
    registries beside it, grown by every venue and tag the three versions name (the
    registries merge on their own; `papers check` judges them after the merge)."""
    with tempfile.TemporaryDirectory(prefix="papers-merge-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        for name in _BESIDE:
            if beside is not None and (beside / name).is_file():
                shutil.copyfile(beside / name, data / name)
        paths = Paths(data / "papers.yaml", Path(tmp) / "build" / "catalog.db")
        paths.catalog.write_text(ours, encoding="utf-8", newline="")
        _grow(paths.venues, sorted({p.venue for p in papers}), "{kind: conference, name: %s}")
        _grow(paths.tags, sorted({t for p in papers for t in p.tags}), '""')
        yield paths


def _grow(path: Path, names: list[str], value: str) -> None:
    """Add an entry for each name the registry lacks (JSON strings are YAML's too)."""
    from catalog.data.registry import load_tags

    known = load_tags(path) if path.is_file() else {}
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    for name in names:
        if name not in known:
            quoted = json.dumps(name)
            text += f"{quoted}: {value.replace('%s', quoted)}\n"
    path.write_text(text, encoding="utf-8")
