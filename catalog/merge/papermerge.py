"""Three-way merge of one paper, field by field, from the one table of fields.

Tags, sources and `distinct` merge as sets, authors and editors as ordered lists, every
other field as one value; a paper's place (year and venue) is one more value, so a move to
its published venue on one side keeps a tag added on the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from catalog.check.duplicates import Finder
from catalog.merge.values import Clash, merge_sequence, merge_set, merge_value
from catalog.model import FIELDS, LIST_FIELDS, Paper

# The list fields that are sets: their order says nothing.
SET_FIELDS = frozenset({"tags", "sources", "distinct"})
# The name of the paper's place (year, venue) among its merged values.
PLACE = "place"


@dataclass
class Merged:
    """A paper as merged: ours' value where the sides clash, and each clash."""

    paper: Paper
    clashes: dict[str, Clash] = field(default_factory=dict)


def values_of(paper: Paper) -> dict[str, Any]:
    """A paper's merged values: its written fields and its place (not its line)."""
    out: dict[str, Any] = {name: getattr(paper, name) for name in FIELDS}
    out[PLACE] = (paper.year, paper.venue)
    return out


def same(a: Paper, b: Paper) -> bool:
    """True when two papers say the same (wherever their lines stand)."""
    return values_of(a) == values_of(b)


def merge_paper(base: Paper | None, ours: Paper, theirs: Paper) -> Merged:
    """One paper merged from its ancestor (None: added on both sides) and the two sides."""
    old = values_of(base) if base is not None else _empty()
    mine, yours = values_of(ours), values_of(theirs)
    merged: dict[str, Any] = {}
    clashes: dict[str, Clash] = {}
    if base is None:  # one paper added under two keys keeps ours' (theirs' names no line)
        yours["key"] = mine["key"]
    for name in mine:
        value = _merge_field(name, old[name], mine[name], yours[name])
        if isinstance(value, Clash):
            clashes[name] = value
            value = mine[name]
        merged[name] = value
    year, venue = merged.pop(PLACE)
    return Merged(replace(ours, year=year, venue=venue, **merged), clashes)


def _merge_field(name: str, base: Any, ours: Any, theirs: Any) -> Any:
    if name in SET_FIELDS:
        return merge_set(base, ours, theirs)
    if name in LIST_FIELDS:
        return merge_sequence(base, ours, theirs)
    return merge_value(base, ours, theirs)


def _empty() -> dict[str, Any]:
    """The values of no paper: what a paper added on both sides merges from."""
    out: dict[str, Any] = {name: ([] if name in LIST_FIELDS else None) for name in FIELDS}
    out["et_al"] = False
    out[PLACE] = None
    return out


class Matcher:
    """Finds the paper of a version that is a given one: by key, else by DOI or arXiv id
    (check's rule of one paper, duplicates.Finder; an alike title is not enough)."""

    def __init__(self, papers: list[Paper]):
        self.by_key = {p.key: p for p in papers}
        self.finder = Finder.of(papers)

    def find(self, paper: Paper) -> Paper | None:
        """The paper that is this one, if any."""
        if paper.key in self.by_key:
            return self.by_key[paper.key]
        match = self.finder.find(paper)
        return match.paper if match is not None and match.by != "title" else None
