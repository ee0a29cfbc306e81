"""A paper as the index's rows, and a row back into a Paper, both from the model's table.

Lists are stored as JSON text ('["a", "b"]', as sqlite-utils stores a list), booleans as
0 or 1; a row reads back into the Paper it was made from, field by field, by name.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring as _encode_string
from typing import Any

from catalog.index.schema import STEMMED
from catalog.index.words import stems
from catalog.model import SPECS, Paper, fold

# A word of the searched text, for the words table (catalog.index.schema).
_WORD_RE = re.compile(r"[^\W_]+")


@dataclass
class Rows:
    """Some papers as rows of the papers, authors and tags tables, and the tokens of their
    searched text (long texts cut at blanks, names and tags whole: a blank is no word)."""

    papers: list[dict[str, Any]] = field(default_factory=list)
    authors: list[dict[str, Any]] = field(default_factory=list)
    tags: list[dict[str, Any]] = field(default_factory=list)
    tokens: set[str] = field(default_factory=set)

    def tables(self) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """(table, its rows), parents first."""
        yield from (("papers", self.papers), ("authors", self.authors), ("tags", self.tags))


def rows_of(papers: Sequence[Paper], venue_names: dict[str, str], spans: Sequence[int]) -> Rows:
    """The rows of these papers (venue_names: each venue's full name, searched; spans:
    how many lines each paper's text runs past its first, reader.parse_spans)."""
    out = Rows()
    add = out.tokens.update
    venues: set[str] = set()
    for p, span in zip(papers, spans, strict=True):
        searched = _searched(p)
        out.papers.append(_row(p, venue_names, span, searched))
        out.authors.extend(
            {"paper": p.key, "position": i, "name": a, "folded": fold_name(a)}
            for i, a in enumerate(p.authors)
        )
        out.tags.extend({"paper": p.key, "tag": t} for t in dict.fromkeys(p.tags))
        add(searched["title"].split())
        add(searched["authors"].split())
        add(p.tags)
        add(searched["summary"].split())
        add(searched["abstract"].split())
        venues.add(p.venue)
    add(name for name in map(venue_names.get, venues) if name)
    return out


def _json_list(items: list[str]) -> str:
    """json.dumps(items, ensure_ascii=False) for a list of strings."""
    return "[" + ", ".join(map(_encode_string, items)) + "]"


# The fields stored otherwise than as they are (model.SPECS): lists as JSON text,
# booleans as 0 or 1. Every other value is its own cell.
_LISTS = tuple(name for name, spec in SPECS.items() if spec.kind == "list")
_BOOLS = tuple(name for name, spec in SPECS.items() if spec.kind == "bool")


def paper_row(p: Paper, venue_names: dict[str, str], span: int) -> dict[str, Any]:
    """A paper as a row of the papers table: a column for each field, and the derived ones
    (span: how many lines its text runs past its first)."""
    return _row(p, venue_names, span, _searched(p))


def _row(
    p: Paper, venue_names: dict[str, str], span: int, searched: dict[str, str]
) -> dict[str, Any]:
    """paper_row, with the paper's searched text read already (_searched)."""
    row = dict(vars(p))
    for name in _LISTS:
        row[name] = _json_list(row[name])
    for name in _BOOLS:
        row[name] = int(row[name])
    row["venue_name"] = venue_names.get(p.venue)
    row["chunk"] = str(p.year)
    row["span"] = span
    text = {**searched, "venue_name": row["venue_name"]}
    for name, column in STEMMED.items():
        row[column] = stems(text[name])
    return row


def _searched(p: Paper) -> dict[str, str]:
    """A paper's searched fields as its pages show them (LaTeX read as text: '$\\times$'
    is no word "times"), so the site's Words box, which has the pages' text, ranks on
    the very words the index holds."""
    from catalog.bib.latex import readable  # rows are made by build and update, not search

    return {
        "title": readable(p.title),
        "authors": " ".join(map(readable, p.authors)),
        "tags": " ".join(p.tags),
        "summary": readable(p.summary or ""),
        "abstract": readable(p.abstract or ""),
    }


def words(tokens: Iterable[str]) -> set[str]:
    """The folded words of these whitespace-separated tokens (for the words table)."""
    # Folded and cut into words once per distinct token, not once per paper.
    return {w for token in set(tokens) for w in _WORD_RE.findall(fold_name(token))}


@functools.lru_cache(maxsize=1 << 16)
def _fold_non_ascii(name: str) -> str:
    return fold(name)


def fold_name(name: str) -> str:
    """fold(name), remembered for names with accents (the slow ones, and they repeat)."""
    return name.lower() if name.isascii() else _fold_non_ascii(name)


# ---------------------------------------------------------------- rows back into papers


def json_lists(text: str | None) -> list[str]:
    """A JSON list column (most lists of sources and many of tags are empty).

    The index writes lists of strings as json.dumps does: '["a", "b"]'. Without a
    backslash no string holds a quote, so splitting at '", "' gives the strings, and
    a quote count that agrees with them proves the text had that form; any other text
    goes to json.loads (a fifth of its time: an export reads every paper's authors)."""
    if not text or text == "[]":
        return []
    # (isprintable: a raw control character, which json.loads refuses, takes its way)
    if text[:2] == '["' and text[-2:] == '"]' and "\\" not in text and text.isprintable():
        items = text[2:-2].split('", "')
        if text.count('"') == 2 * len(items):
            return items
    loaded: list[str] = json.loads(text)
    return loaded


# The papers table's columns a Paper is read from: its fields, then its year block.
_READ = (*SPECS, "chunk")


def columns(left_out: Collection[str] = ()) -> str:
    """The columns papers_of reads, for a select; each left out read as null (its field
    gets its default: an export has no use for tags or summaries)."""
    return ", ".join("null" if c in left_out else f'"{c}"' for c in _READ)


def paper_of(row: Mapping[str, Any] | sqlite3.Row, shifts: dict[str, int] | None = None) -> Paper:
    """A Paper from a row of the papers table, by column name; shifts
    (catalog.index.update.line_shifts) turn its stored line into its line in the file."""
    return _paper({name: row[name] for name in _READ}, shifts)


def papers_of(rows: Iterable[Sequence[Any]], shifts: dict[str, int]) -> Iterator[Paper]:
    """Papers from rows selected with columns(), lines turned into the file's."""
    for row in rows:
        yield _paper(dict(zip(_READ, row, strict=True)), shifts)


def _paper(values: dict[str, Any], shifts: dict[str, int] | None) -> Paper:
    """The Paper of a row's values by column name (chunk: its year block)."""
    chunk = values.pop("chunk")
    for name in _LISTS:
        values[name] = json_lists(values[name])
    for name in _BOOLS:
        values[name] = bool(values[name])
    if shifts:
        values["line"] += shifts.get(chunk, 0)
    return Paper(**values)
