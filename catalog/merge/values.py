"""Three-way merges of one value: a field, a set, an ordered list.

Each takes the common ancestor's value (base) and the two sides' (ours, theirs) and gives
the merged value, or a Clash when the two sides changed it in two ways.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TypeVar

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)


@dataclass(frozen=True)
class Clash:
    """A value changed two ways: what each side made of it."""

    ours: object
    theirs: object


def merge_value(base: T, ours: T, theirs: T) -> T | Clash:
    """The side that changed the value wins; both changing it alike is no clash."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    return Clash(ours, theirs)


def merge_set(base: Sequence[H], ours: Sequence[H], theirs: Sequence[H]) -> list[H]:
    """Ours in its order, less what theirs removed, then what theirs added: a set never
    clashes (one side's addition and the other's removal of one item both hold)."""
    kept = [x for x in ours if x in theirs or x not in base]
    added = [x for x in theirs if x not in ours and x not in base]
    return list(dict.fromkeys([*kept, *added]))


def merge_sequence(base: Sequence[H], ours: Sequence[H], theirs: Sequence[H]) -> list[H] | Clash:
    """An ordered list merged change by change (an author's name corrected on one side and
    one appended on the other); changes to the same or touching items clash."""
    if list(ours) == list(theirs) or list(theirs) == list(base):
        return list(ours)
    if list(ours) == list(base):
        return list(theirs)
    mine, yours = _changes(base, ours), _changes(base, theirs)
    changes = list(mine)
    for change in yours:
        if change in mine:
            continue
        if any(_touch(change, other) for other in mine):
            return Clash(list(ours), list(theirs))
        changes.append(change)
    merged = list(base)
    for start, end, items in sorted(changes, key=lambda c: (c[0], c[1]), reverse=True):
        merged[start:end] = items
    return merged


_Change = tuple[int, int, list]  # base[start:end] replaced by these items


def _changes(base: Sequence[H], other: Sequence[H]) -> list[_Change]:
    """What turns base into other, as replaced ranges of base."""
    matcher = SequenceMatcher(a=list(base), b=list(other), autojunk=False)
    return [
        (i1, i2, list(other[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _touch(a: _Change, b: _Change) -> bool:
    """True when two changes overlap or meet (their order in the result is not known)."""
    return a[0] <= b[1] and b[0] <= a[1]
