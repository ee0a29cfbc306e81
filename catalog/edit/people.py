"""A curator's decision about two author names, written to data/authors.yaml through the
one door: `same` joins them as one person, `different` records that they are two (so
`papers authors` proposes them no more). The session judges the new file by the rules
`papers check` applies to it (catalog.check.people): a name no paper writes, two
authors of one paper made one person, a pair both joined and told apart are refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.data import authors as authorsfile
from catalog.data.authors import Authors, Entry
from catalog.edit.session import WriteResult
from catalog.errors import CatalogError, UsageError
from catalog.paths import Paths


@dataclass
class Decision:
    """What a decision wrote: the entry's key and its new value (None: nothing to do),
    the entries it folded into it, and the write's result."""

    key: str
    value: list[str] | dict[str, object] | None
    note: str
    removed: list[str] = field(default_factory=list)
    result: WriteResult = field(default_factory=WriteResult)


def same(paths: Paths, first: str, second: str, dry_run: bool = False) -> Decision:
    """Join two names as one person. The entry that holds either grows (one holding
    each: the second folds into the first); with none, a new entry shows the first."""
    from catalog.edit.writer import edit

    _two(first, second)
    with edit(paths, dry_run=dry_run) as session:
        registry = session.registry(paths.authors)
        known = authorsfile.parse(registry.text, registry.shown)
        mine, theirs = _entry(known, first), _entry(known, second)
        if mine is not None and mine is theirs:
            return Decision(mine.key, None, "already one person")
        if known.told_apart(mine or first, theirs or second):
            where = mine if mine is not None and mine.different else theirs
            raise CatalogError(
                f"{registry.shown}:{where.line if where else 0}: '{first}' and '{second}' are "
                "recorded as different people; remove that decision first if it was wrong"
            )
        keep, fold = (mine, theirs) if mine is not None or theirs is None else (theirs, mine)
        base = keep or Entry(first, first, (first,))
        spellings = [*base.spellings, *(fold.spellings if fold else ()), first, second]
        different = [*base.different, *(fold.different if fold else ())]
        grown = Entry(
            base.key,
            base.name,
            tuple(dict.fromkeys(spellings)),
            base.claims,
            tuple(dict.fromkeys(different)),
            base.id,
        )
        value = entry_value(grown)
        registry.put(grown.key, value, at="end")
        removed = []
        if fold is not None:
            registry.remove(fold.key)
            removed.append(fold.key)
    shown = f"one person, shown as {grown.name}"
    return Decision(grown.key, value, shown, removed, session.result)


def different(paths: Paths, first: str, second: str, dry_run: bool = False) -> Decision:
    """Record that two names are two people, on the first one's entry (made if none)."""
    from catalog.edit.writer import edit

    _two(first, second)
    with edit(paths, dry_run=dry_run) as session:
        registry = session.registry(paths.authors)
        known = authorsfile.parse(registry.text, registry.shown)
        mine, theirs = _entry(known, first), _entry(known, second)
        if mine is not None and (mine is theirs or second in mine.names()):
            raise CatalogError(
                f"{registry.shown}:{mine.line}: '{first}' and '{second}' are one person "
                f"there ({mine.key}); remove the spelling first if that was wrong"
            )
        if known.told_apart(mine or first, theirs or second):
            return Decision(mine.key if mine else first, None, "already recorded as two people")
        base = mine or Entry(first, first, (first,))
        grown = Entry(
            base.key,
            base.name,
            base.spellings,
            base.claims,
            tuple(dict.fromkeys([*base.different, second])),
            base.id,
        )
        value = entry_value(grown)
        registry.put(grown.key, value, at="end")
    return Decision(grown.key, value, "two people", [], session.result)


def entry_value(entry: Entry) -> list[str] | dict[str, object]:
    """An entry as authors.yaml writes it: the list of other spellings where that says
    all, else the mapping of its fields."""
    others = [s for s in entry.spellings if s != entry.name]
    if entry.id is None and not entry.claims and not entry.different:
        return others
    out: dict[str, object] = {}
    if entry.id is not None:
        out["name"] = entry.name
    if others:
        out["spellings"] = others
    if entry.claims:
        out["papers"] = [f"{key}#{number}" for key, number in entry.claims]
    if entry.different:
        out["different"] = list(entry.different)
    return out


def _two(first: str, second: str) -> None:
    if first == second:
        raise UsageError(f"give two different names (both are '{first}')")


def _entry(known: Authors, name: str) -> Entry | None:
    """The entry a name means; one that is only some papers' author is refused (one of
    several people with one name: their entry says which papers, edited by hand)."""
    entry = known.entry(name)
    if entry is not None and entry.claims:
        raise CatalogError(
            f"{known.file}:{entry.line}: '{entry.key}' is one of several people named "
            f"{entry.name}, told apart by their papers; edit that entry by hand"
        )
    return entry
