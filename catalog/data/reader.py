"""Reading data/papers.yaml into Papers, with the line of every paper.

The file is split into top-level year blocks ("chunks") so the index can
re-parse only the years whose text changed.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import AnyStr

from catalog.data import yamlfile
from catalog.errors import InvalidCatalogError, Problem
from catalog.hints import hint_for
from catalog.model import (
    FIELDS,
    REQUIRED,
    RETIRED_FIELDS,
    SPECS,
    STATUSES,
    Paper,
    is_date,
)

# Each written field's kind (model.SPECS): a list, true/false, or one text.
_KIND = {name: SPECS[name].kind for name in FIELDS}
_YEAR_RE = re.compile(r"^\d{4}\Z")
# A line that starts a new top-level key: not indented, not a comment, not a list item.
# Searched as a newline and its next character (re scans for that without testing
# every position, as '^' in MULTILINE mode would). ASCII blanks only, so that the
# file's bytes and its decoded text are cut at the same lines.
_TOP_KEY = r"\n[^ \t\n\r\f\v#\-]"
_TOP_KEY_RE, _FIRST_KEY_RE = re.compile(_TOP_KEY), re.compile(_TOP_KEY[2:])
_TOP_KEY_BYTES_RE, _FIRST_KEY_BYTES_RE = (
    re.compile(_TOP_KEY.encode()),
    re.compile(_TOP_KEY[2:].encode()),
)
# What no block can be cut around: a document marker, a directive, a tab.
_UNCUT = ("\n---", "---", "%", "\t")


@dataclass(frozen=True)
class Cut:
    """Where one top-level block lies in a text or in the file's bytes: its label ('' for
    the comments that lead into the first block), its first line (1-based), and its start
    and end (characters of the text, bytes of the file)."""

    label: str
    line: int
    begin: int
    end: int


@dataclass(frozen=True)
class Chunk:
    """One top-level block of the text (normally one year)."""

    label: str
    start: int  # 1-based line of its first line
    text: str


def split_chunks(text: str) -> list[Chunk] | None:
    """Top-level blocks of a block-style mapping; None when the file can't be cut safely."""
    cuts = cut(text)
    return None if cuts is None else [Chunk(c.label, c.line, text[c.begin : c.end]) for c in cuts]


def cut(buf: str | bytes) -> list[Cut] | None:
    """Where the top-level blocks of a block-style mapping lie, every character (or byte)
    in one of them; None when the file can't be cut safely. The file's bytes and its text
    are cut at the same lines, with the same labels."""
    if isinstance(buf, str):
        return _cut(buf, "\n", _UNCUT, _TOP_KEY_RE, _FIRST_KEY_RE)
    marks = tuple(m.encode() for m in _UNCUT)
    return _cut(buf, b"\n", marks, _TOP_KEY_BYTES_RE, _FIRST_KEY_BYTES_RE)


def _cut(
    buf: AnyStr,
    nl: AnyStr,
    marks: tuple[AnyStr, ...],
    top: re.Pattern[AnyStr],
    first_key: re.Pattern[AnyStr],
) -> list[Cut] | None:
    if marks[0] in buf or buf.startswith((marks[1], marks[2])) or marks[3] in buf:
        return None
    starts: list[int] = [m.start() + 1 for m in top.finditer(buf)]
    if first_key.match(buf):
        starts.insert(0, 0)
    cuts = []
    line = 1
    lead = starts[0] if starts else len(buf)
    if lead:  # the comments and blank lines before the first block
        cuts.append(Cut("", 1, 0, lead))
        line += buf.count(nl, 0, lead)
    for begin, end in itertools.pairwise([*starts, len(buf)]):
        stop = buf.find(nl, begin)
        first = buf[begin : stop if stop >= 0 else len(buf)]
        label = _label(first if isinstance(first, str) else first.decode("utf-8", "replace"))
        if label is None:
            return None  # not a plain 'key:' line: parse the whole file instead
        cuts.append(Cut(label, line, begin, end))
        line += buf.count(nl, begin, end)
    return cuts


def _label(first: str) -> str | None:
    """The key a block's first line names ('2023' of '2023:'), None if no plain key."""
    if not (first[0].isascii() and first[0].isalnum()):
        return None
    if not first.rstrip().endswith(":") and ": " not in first:
        return None
    return first.split(":", 1)[0].strip().strip("'\"")


def blocks(text: str) -> Iterator[Chunk] | None:
    """The blocks of split_chunks, each cut from the text only when it is reached (a big
    catalog's text is not copied whole); None when the text can't be cut or two blocks
    share a label (then only the whole file says which one YAML keeps)."""
    cuts = cut(text)
    if cuts is None or len({c.label for c in cuts}) != len(cuts):
        return None
    return (Chunk(c.label, c.line, text[c.begin : c.end]) for c in cuts)


def where(year: object, venue: object = "", key: object = "") -> str:
    """'2022 › OSDI › sima2022ekko', leaving out what is not known."""
    return " › ".join(str(p) for p in (year, venue, key) if p not in ("", None))


def parse(text: str, filename: str, line_offset: int = 0) -> tuple[list[Paper], list[Problem]]:
    """Papers and problems (blocking ones flagged) from catalog text: PyYAML's node tree,
    walked into Papers and every problem."""
    papers, problems, _ = _parse_block(text, filename, line_offset)
    return list(papers), list(problems)


def parse_spans(
    text: str, filename: str, line_offset: int = 0
) -> tuple[list[Paper], list[Problem], list[int]]:
    """parse(), and for each paper the number of lines its text runs past its first line
    (where the index finds its lines again: catalog.edit.document cuts them out)."""
    papers, problems, spans = _parse_block(text, filename, line_offset)
    return list(papers), list(problems), list(spans)


@functools.lru_cache(maxsize=1)
def _parse_block(
    text: str, filename: str, line_offset: int
) -> tuple[tuple[Paper, ...], tuple[Problem, ...], tuple[int, ...]]:
    """Kept for speed: an edit validates a changed year block, then the index reads the
    same block again; an edit at 10,000 papers misses its 1 s target reading it twice."""
    try:
        root = yamlfile.compose(text, filename, line_offset)
    except InvalidCatalogError as err:
        return (), tuple(err.problems), ()
    walker = _Walker(filename, line_offset)
    if root is not None:
        walker.walk_root(root)
    return tuple(walker.papers), tuple(walker.problems), tuple(walker.spans)


def end_line(node: yamlfile.Node) -> int:
    """0-based last line holding the node's own text."""
    if isinstance(node, yamlfile.MappingNode) and node.value and not node.flow_style:
        return end_line(node.value[-1][1])
    if isinstance(node, yamlfile.SequenceNode) and node.value and not node.flow_style:
        return end_line(node.value[-1])
    mark = node.end_mark
    return mark.line - 1 if mark.column == 0 and mark.line > node.start_mark.line else mark.line


def parse_blocks(
    text: str, filename: str
) -> Iterator[tuple[Chunk | None, list[Paper], list[Problem]]]:
    """parse(text) one year block at a time: (block, its papers, its problems), so that
    only one block's node tree is in memory, not the whole file's.

    The whole text is one piece (block None) when it can't be cut. A valid catalog gives
    the papers and problems parse(text) gives; for one with a blocking problem, cut
    blocks may report it differently, so callers that report it read the whole text
    (read_text does)."""
    chunks = blocks(text)
    if chunks is None:
        yield None, *parse(text, filename, 0)
        return
    for chunk in chunks:
        yield chunk, *parse(chunk.text, filename, chunk.start - 1)


def duplicate_keys(
    papers: Iterable[Paper], filename: str, first: dict[str, int] | None = None
) -> list[Problem]:
    """A blocking problem for each paper whose key was already used; first (key -> line of
    its first paper) carries what earlier calls saw, for a file read in blocks."""
    first = {} if first is None else first
    problems = []
    for paper in papers:
        line = first.get(paper.key.casefold())  # 'Smith2020' and 'smith2020' are one key
        if line is None:
            first[paper.key.casefold()] = paper.line
        else:
            problems.append(
                Problem(
                    filename,
                    paper.line,
                    where(paper.year, paper.venue, paper.key),
                    f"duplicate key '{paper.key}' (first at line {line})",
                    "give each paper its own key; keys are never reused",
                    True,
                )
            )
    return problems


def read(path: Path, display: str | None = None) -> tuple[list[Paper], list[Problem]]:
    """Every paper of a catalog file and every problem found while reading it."""
    filename = display or str(path)
    try:
        text = yamlfile.read_text(path, filename)
    except FileNotFoundError:
        return [], [missing(filename)]
    except InvalidCatalogError as err:
        return [], err.problems
    return parse_all(text, filename)


def parse_all(text: str, filename: str) -> tuple[list[Paper], list[Problem]]:
    """parse(text) and duplicate_keys, one year block's node tree in memory at a time."""
    papers: list[Paper] = []
    problems: list[Problem] = []
    for _, found, trouble in parse_blocks(text, filename):
        if any(p.blocking for p in trouble):
            # Reported as the whole file reads it (a block cut out of a broken file may
            # not say what is wrong in the same words).
            papers, problems = parse(text, filename)
            break
        papers += found
        problems += trouble
    return papers, problems + duplicate_keys(papers, filename)


def retired_values(text: str, filename: str) -> dict[str, dict[str, str | None]]:
    """The reading state (model.RETIRED_FIELDS) an older catalog's text still writes on
    its papers, as written: {key: {field: text}} (None: null, or not a single value)."""
    try:
        root = yamlfile.compose(text, filename)
    except InvalidCatalogError:
        return {}
    walker = _Walker(filename, 0)
    if root is not None:
        walker.walk_root(root)
    found: dict[str, dict[str, str | None]] = {}
    for key, name, value in walker.retired:
        found.setdefault(key, {})[name] = value
    return found


def missing(filename: str) -> Problem:
    """The blocking problem of a catalog file that is not there."""
    hint = "create it, or point --catalog / PAPERS_CATALOG at your catalog"
    return Problem(filename, 0, "", "catalog file not found", hint, True)


def load(path: Path, display: str | None = None) -> list[Paper]:
    """Every paper, or InvalidCatalogError listing what makes the file unusable."""
    papers, problems = read(path, display)
    blocking = [p for p in problems if p.blocking]
    if blocking:
        raise InvalidCatalogError(blocking)
    return papers


class _Walker:
    """Turns the composed node tree into Papers, collecting problems on the way."""

    def __init__(self, filename: str, line_offset: int):
        self.filename = filename
        self.offset = line_offset
        self.papers: list[Paper] = []
        self.spans: list[int] = []  # each paper's lines past its first (parse_spans)
        self.problems: list[Problem] = []
        # (key, field, value) of each retired field found (model.RETIRED_FIELDS)
        self.retired: list[tuple[str, str, str | None]] = []

    def line(self, node: yamlfile.Node) -> int:
        return node.start_mark.line + 1 + self.offset

    def problem(
        self, node: yamlfile.Node, at: str, message: str, hint: str, blocking: bool = True
    ) -> None:
        self.problems.append(Problem(self.filename, self.line(node), at, message, hint, blocking))

    def walk_root(self, root: yamlfile.Node) -> None:
        if not isinstance(root, yamlfile.MappingNode):
            self.problem(
                root,
                "",
                "expected years at the top level",
                "start the file with a year, e.g. '2023:'",
            )
            return
        seen: dict[str, int] = {}
        for year_node, venues in root.value:
            label = yamlfile.name_of(year_node)
            if not (isinstance(year_node, yamlfile.ScalarNode) and _YEAR_RE.match(label)):
                self.problem(
                    year_node,
                    label,
                    f"'{label}' is not a year",
                    "top-level keys are four-digit years, e.g. 2023",
                )
                continue
            if label in seen:
                self.problem(
                    year_node,
                    label,
                    f"year {label} appears twice (first at line {seen[label]})",
                    "merge the two blocks into one",
                )
                continue
            seen[label] = self.line(year_node)
            self.walk_year(int(label), venues)

    def walk_year(self, year: int, node: yamlfile.Node) -> None:
        if yamlfile.is_null(node):
            return
        if not isinstance(node, yamlfile.MappingNode):
            self.problem(
                node,
                str(year),
                "expected venues under the year",
                "write 'VENUE:' lines, each with a list of papers",
            )
            return
        seen: set[str] = set()
        for venue_node, papers in node.value:
            venue = yamlfile.name_of(venue_node)
            if not isinstance(venue_node, yamlfile.ScalarNode) or not venue:
                self.problem(venue_node, str(year), "a venue must be a short name", "e.g. 'OSDI:'")
                continue
            if venue in seen:
                self.problem(
                    venue_node,
                    where(year, venue),
                    f"venue {venue} appears twice under {year}",
                    "merge the two lists into one",
                )
                continue
            seen.add(venue)
            self.walk_venue(year, venue, papers)

    def walk_venue(self, year: int, venue: str, node: yamlfile.Node) -> None:
        if yamlfile.is_null(node):
            return
        if not isinstance(node, yamlfile.SequenceNode):
            self.problem(
                node,
                where(year, venue),
                "expected a list of papers",
                "start each paper with '- key: ...'",
            )
            return
        for item in node.value:
            paper = self.walk_paper(year, venue, item)
            if paper:
                self.papers.append(paper)
                self.spans.append(end_line(item) - item.start_mark.line)

    def walk_paper(self, year: int, venue: str, node: yamlfile.Node) -> Paper | None:
        if not isinstance(node, yamlfile.MappingNode):
            self.problem(
                node,
                where(year, venue),
                "a paper must be a mapping of fields",
                "write 'key:', 'title:' and 'authors:' under '- '",
            )
            return None
        values: dict[str, yamlfile.Node] = {}
        lines: dict[str, yamlfile.Node] = {}
        key_node: yamlfile.Node | None = None
        for name_node, value_node in node.value:
            # A field's name as construct() reads it; the known names directly (none of
            # them reads as a null or a boolean): this loop runs for every field.
            name = (
                name_node.value
                if (isinstance(name_node, yamlfile.ScalarNode) and name_node.value in _FIELD_NAMES)
                else yamlfile.name_of(name_node)
            )
            if name == "key":
                key_node = value_node
            if name in values:
                self.problem(
                    name_node,
                    _place(year, venue, key_node),
                    f"field '{name}' given twice",
                    "keep one of them",
                )
                continue
            values[name] = value_node
            lines[name] = name_node
        fields: dict[str, object] = {}
        ok = True
        for name, value_node in values.items():
            if name in RETIRED_FIELDS:
                self.retired_field(name, value_node, lines[name], year, venue, key_node)
                continue
            if name not in _FIELD_NAMES:
                hint = hint_for(name, FIELDS) or "known fields: " + ", ".join(FIELDS)
                self.problem(
                    lines[name],
                    _place(year, venue, key_node),
                    f"unknown field '{name}'",
                    hint,
                    blocking=False,
                )
                continue
            value = self.field_value(name, value_node)
            if value is _BAD:
                self._place_last(year, venue, key_node)
                ok = False
            elif value is not None:
                fields[name] = value
        for name in REQUIRED:
            if not fields.get(name) and name in values and ok:
                self.problem(
                    lines[name],
                    _place(year, venue, key_node),
                    f"empty {name}",
                    f"give the paper's {name}",
                )
                ok = False
            elif name not in values:
                self.problem(
                    node,
                    _place(year, venue, key_node),
                    f"missing {name}",
                    f"add a '{name}:' line to the paper",
                )
                ok = False
        if not ok:
            return None
        return Paper(year=year, venue=venue, line=self.line(node), **fields)  # type: ignore[arg-type]

    def _place_last(self, year: int, venue: str, key_node: yamlfile.Node | None) -> None:
        """Give the problem field_value just added its place (year › venue › key)."""
        last = self.problems[-1]
        self.problems[-1] = Problem(
            last.file,
            last.line,
            _place(year, venue, key_node),
            last.message,
            last.hint,
            last.blocking,
        )

    def retired_field(
        self,
        name: str,
        value: yamlfile.Node,
        name_node: yamlfile.Node,
        year: int,
        venue: str,
        key_node: yamlfile.Node | None,
    ) -> None:
        """Reading state an older catalog wrote on a paper: a problem saying where it lives
        now, and its text kept (retired) for the migration that moves it there."""
        text = value.value.strip() if isinstance(value, yamlfile.ScalarNode) else None
        if text is not None and not value.style and text in yamlfile.NULLS:
            text = None
        if key_node is not None:
            self.retired.append((str(yamlfile.construct(key_node)), name, text))
        then = "then papers status --migrate moves it into data/reading.yaml"
        if name == "status" and text is not None and text not in STATUSES:
            message = f"unknown status '{text[:60]}'"
            hint = (hint_for(text, STATUSES) or "use " + ", ".join(STATUSES)) + f"; {then}"
        elif name == "read_on" and text is not None and not is_date(text):
            message, hint = f"read_on '{text[:60]}' is not a date", f"write YYYY-MM-DD; {then}"
        else:
            message = f"{name}: is reading state, kept in data/reading.yaml now"
            hint = "run papers status --migrate to move it there; nothing is lost"
        self.problem(name_node, _place(year, venue, key_node), message, hint, blocking=False)

    def field_value(self, name: str, node: yamlfile.Node) -> object:
        """The field's value, None when it is null, or _BAD after adding a problem (its
        place left for the caller to fill)."""
        kind = _KIND[name]
        if kind == "list":
            if isinstance(node, yamlfile.SequenceNode):
                items = node.value
                if all(isinstance(i, yamlfile.ScalarNode) for i in items):
                    return [i.value.strip() for i in items]
            elif yamlfile.is_null(node):
                return []
            self.problem(
                node, "", f"{name} must be a list of names", f"write {name}: [first, second]"
            )
            return _BAD
        if not isinstance(node, yamlfile.ScalarNode):
            self.problem(node, "", f"{name} must be a single value", "write it on one line")
            return _BAD
        if kind == "bool":
            if yamlfile.is_bool(node):
                return yamlfile.construct(node)
            self.problem(node, "", f"{name} must be true or false", f"write {name}: true")
            return _BAD
        value = node.value
        if not node.style and value in yamlfile.NULLS:  # yamlfile.is_null, inline
            return None
        return value.strip()


def _place(year: int, venue: str, key_node: yamlfile.Node | None) -> str:
    """where() a paper's problem is: its key as construct() reads it (or none yet)."""
    return where(year, venue, "" if key_node is None else yamlfile.name_of(key_node))


_FIELD_NAMES = frozenset(FIELDS)
_BAD = object()
