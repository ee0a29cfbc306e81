"""data/authors.yaml: the people behind the catalog's author names.

Which spellings are one person (`Jane Q. Doe: [Jane Doe, J. Doe]`), which person a name
is on a given paper when two people share it (an entry with an id that claims named
authors of named papers), and which alike names a curator found to be two people
(`different`). Without an entry a spelling is one person of its own: nothing is joined
or split by guessing. The file's rules that need no paper are here (its reader stops at
them); those that read the papers are catalog.check.people's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from catalog.data import yamlfile
from catalog.errors import InvalidCatalogError, Problem
from catalog.model import has_controls

# The fields of an entry written as a mapping, in the order they are written.
FIELDS = ("name", "spellings", "papers", "different")
# A person's id: the address of their page (authors/<id>.md), so lower-case words.
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Names no id may take: authors/index.md is the authors index.
RESERVED_IDS = frozenset({"index"})
# A claim: a paper's key and the number of the author (counted from 1): 'yu2026taming#4'.
CLAIM_RE = re.compile(r"^(?P<key>[^\s#]+)#(?P<number>[0-9]{1,4})\Z")
FORMS = (
    "write 'Display Name: [Other Spelling, ...]', or a mapping with "
    f"{', '.join(FIELDS)} (see docs/pages/catalog-format.md)"
)


@dataclass(frozen=True)
class Entry:
    """One person authors.yaml names: the name the site shows, every spelling of it, the
    papers and author numbers it claims (only there, when any), the names a curator
    recorded as other people, and its id (the key, when the entry gives `name:`)."""

    key: str
    name: str
    spellings: tuple[str, ...]  # the name first
    claims: tuple[tuple[str, int], ...] = ()  # (paper key, author number from 1)
    different: tuple[str, ...] = ()
    id: str | None = None
    line: int = 0

    def names(self) -> set[str]:
        """What may name this person: the entry's key and each spelling."""
        return {self.key, *self.spellings}


# A person as the catalog knows them: an authors.yaml entry, or a spelling no entry names.
Who = Entry | str


@dataclass
class Authors:
    """authors.yaml read: its entries by key, and who each author of a paper is."""

    file: str = "data/authors.yaml"
    entries: dict[str, Entry] = field(default_factory=dict)
    _alias: dict[str, Entry] = field(default_factory=dict, repr=False)
    _claims: dict[tuple[str, int], Entry] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for entry in self.entries.values():
            if entry.claims:
                self._claims.update(dict.fromkeys(entry.claims, entry))
            else:
                self._alias.update(dict.fromkeys(entry.spellings, entry))

    def who(self, paper_key: str, number: int, spelling: str) -> Who:
        """The person who is author number (from 1) of a paper: the entry that claims that
        place, else the entry listing the spelling, else the spelling itself."""
        return self._claims.get((paper_key, number)) or self._alias.get(spelling) or spelling

    def entry(self, name: str) -> Entry | None:
        """The entry a name means: an entry's key, else the entry that lists the spelling
        everywhere (not one claiming named papers only)."""
        return self.entries.get(name) or self._alias.get(name)

    def claimed(self) -> dict[tuple[str, int], Entry]:
        """Every claimed place: (paper key, author number) -> its entry."""
        return dict(self._claims)

    def told_apart(self, a: Who, b: Who) -> bool:
        """Whether a curator recorded these two as different people (on either's entry)."""
        pairs = ((a, _names(b)), (b, _names(a)))
        return any(isinstance(w, Entry) and not other.isdisjoint(w.different) for w, other in pairs)


def _names(who: Who) -> set[str]:
    return who.names() if isinstance(who, Entry) else {who}


def load(path: Path, shown: str | None = None) -> Authors:
    """authors.yaml read (no file: no entries); InvalidCatalogError with every problem
    that keeps it from being read."""
    shown = shown or str(path)
    if not path.is_file():
        return Authors(shown)
    return parse(yamlfile.read_text(path, shown), shown)


def parse(text: str, shown: str) -> Authors:
    """authors.yaml's text read, as load reads it."""
    node = yamlfile.compose(text, shown)
    if node is None:
        return Authors(shown)
    if not isinstance(node, yamlfile.MappingNode):
        _stop([_problem(shown, node.start_mark.line + 1, "", "expected a mapping of people")])
    reading = _Reading(shown)
    for key_node, value_node in node.value:
        reading.entry(yamlfile.name_of(key_node), key_node.start_mark.line + 1, value_node)
    reading.conflicts()
    if reading.problems:
        _stop(reading.problems)
    return Authors(shown, reading.entries)


def _stop(problems: list[Problem]) -> None:
    raise InvalidCatalogError(problems)


def _problem(shown: str, line: int, where: str, message: str, hint: str = FORMS) -> Problem:
    return Problem(shown, line, where, message, hint, True)


@dataclass
class _Reading:
    """The entries read so far and the problems found in them."""

    shown: str
    entries: dict[str, Entry] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def fail(self, line: int, where: str, message: str, hint: str = FORMS) -> None:
        self.problems.append(_problem(self.shown, line, where, message, hint))

    def entry(self, key: str, line: int, node: yamlfile.Node) -> None:
        """Read one entry (its key on this line)."""
        if key in self.entries:
            self.fail(
                line,
                key,
                f"'{key}' is written twice (also at line {self.entries[key].line})",
                "keep one entry per person",
            )
            return
        value = yamlfile.construct(node)
        if isinstance(value, dict):
            entry = self._mapping(key, line, value)
        else:
            spellings = self._texts(key, line, "the other spellings", value)
            entry = (
                None
                if spellings is None
                else Entry(key, key, _unique([key, *spellings]), line=line)
            )
        if entry is not None and self._text_ok(key, line, "the name", key):
            self.entries[key] = entry

    def _mapping(self, key: str, line: int, value: dict[str, object]) -> Entry | None:
        """An entry written as a mapping (see FIELDS)."""
        unknown = [f for f in value if f not in FIELDS]
        if unknown:
            self.fail(
                line, key, f"unknown field '{unknown[0]}'", f"the fields are {', '.join(FIELDS)}"
            )
            return None
        if not any(value.get(f) for f in FIELDS):
            self.fail(line, key, "an entry that says nothing", FORMS)
            return None
        name = value.get("name")
        ident = None if name is None else self._id(key, line, name)
        if name is not None and ident is None:
            return None
        shown_name = name if isinstance(name, str) else key
        spellings = self._texts(key, line, "spellings", value.get("spellings", []))
        different = self._texts(key, line, "different", value.get("different", []))
        claims = self._claims(key, line, value.get("papers", []), ident)
        if spellings is None or different is None or claims is None:
            return None
        everyone = _unique([shown_name, *spellings])
        both = [d for d in different if d in everyone or d == key]
        if both:
            self.fail(
                line,
                key,
                f"'{both[0]}' is both a spelling of {shown_name} and a different person",
                "keep it in one of spellings and different",
            )
            return None
        return Entry(key, shown_name, everyone, tuple(claims), _unique(different), ident, line)

    def _id(self, key: str, line: int, name: object) -> str | None:
        """The key of an entry that gives name: the person's id (None: not one)."""
        if not isinstance(name, str):
            self.fail(line, key, "name: expected one name", "write 'name: Hao Wang'")
            return None
        if not self._text_ok(key, line, "name", name):
            return None
        if not ID_RE.match(key) or key in RESERVED_IDS:
            self.fail(
                line,
                key,
                f"'{key}' is not an id (with name: the key is the person's id, the "
                "address of their page)",
                "use lower-case letters, digits and hyphens, e.g. hao-wang-rutgers"
                + ("; 'index' is the authors index's" if key in RESERVED_IDS else ""),
            )
            return None
        return key

    def _texts(self, key: str, line: int, what: str, value: object) -> list[str] | None:
        """A list of names (one name alone is a list of one)."""
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            self.fail(line, key, f"{what}: expected a list of names", FORMS)
            return None
        if not all(self._text_ok(key, line, what, s) for s in value):
            return None
        return [s for s in value if isinstance(s, str)]

    def _text_ok(self, key: str, line: int, what: str, text: str) -> bool:
        """A name is one line of printable text, as papers.yaml writes author names."""
        if not text.strip() or has_controls(text) or text != text.strip():
            self.fail(
                line,
                key,
                f"{what}: {text[:60]!r} is not a name",
                "write the name as papers.yaml writes it, without spaces around it",
            )
            return False
        return True

    def _claims(
        self, key: str, line: int, value: object, ident: str | None
    ) -> list[tuple[str, int]] | None:
        """papers: the places this person claims, as 'key#number' (number from 1)."""
        texts = self._texts(key, line, "papers", value)
        if texts is None:
            return None
        if texts and ident is None:
            self.fail(
                line,
                key,
                "a person who is only some papers' author needs an id",
                f"write it as 'some-id:' with 'name: {key}' (the id names their page)",
            )
            return None
        out = []
        for text in texts:
            match = CLAIM_RE.match(text)
            if match is None or int(match["number"]) < 1:
                self.fail(
                    line,
                    key,
                    f"papers: {text[:60]!r} is not a paper's key and an author's number",
                    "write KEY#N, N counted from 1: yu2026taming#4 is its fourth author",
                )
                return None
            out.append((match["key"], int(match["number"])))
        return out

    def conflicts(self) -> None:
        """Problems between entries: a spelling two entries list everywhere, a place two
        entries claim."""
        spelled: dict[str, Entry] = {}
        claimed: dict[tuple[str, int], Entry] = {}
        for entry in self.entries.values():
            for place in entry.claims:
                other = claimed.setdefault(place, entry)
                if other is not entry:
                    self.fail(
                        entry.line,
                        entry.key,
                        f"author {place[1]} of {place[0]} is claimed by both '{other.key}' "
                        f"and '{entry.key}'",
                        "keep the claim under the one person it is",
                    )
            if entry.claims:
                continue
            for spelling in entry.spellings:
                other = spelled.setdefault(spelling, entry)
                if other is not entry:
                    self.fail(
                        entry.line,
                        entry.key,
                        f"'{spelling}' is listed for both '{other.key}' and '{entry.key}'",
                        "keep it under the one person it names",
                    )


def _unique(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))
