"""What writing and reading BibTeX share: names in BibTeX's four parts, page ranges and
the record an entry is read into. Its own module so that catalog.bib.bibtex (writing) and
catalog.bib.parser (reading) each import it and never each other at import time."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from catalog.data.registry import Venue
from catalog.errors import Problem
from catalog.model import Paper

# ------------------------------------------------------------------ names

SUFFIXES = frozenset({"Jr.", "Jr", "Sr.", "Sr", "II", "III", "IV"})
_WS_RE = re.compile(r"[ \t\r\n]+")


@dataclass(frozen=True)
class Name:
    """A person's name in BibTeX's four parts (plain text)."""

    first: str = ""
    von: str = ""
    last: str = ""
    jr: str = ""

    @property
    def von_last(self) -> str:
        return f"{self.von} {self.last}" if self.von else self.last


def _words(text: str) -> list[str]:
    text = text.strip(" \t\r\n")
    return _WS_RE.split(text) if text else []


def _is_lower(word: str) -> bool:
    """BibTeX's test for a 'von' word: its first letter is lower-case."""
    for char in word:
        if char.isalpha():
            return char.islower()
    return False


def _split_von_last(words: list[str]) -> tuple[str, str]:
    """The von and Last parts of 'von Last' words: von ends at the last lower-case word."""
    lower = [i for i, w in enumerate(words[:-1]) if _is_lower(w)]
    if not lower:
        return "", " ".join(words)
    split = lower[-1] + 1
    return " ".join(words[:split]), " ".join(words[split:])


def split_name(author: str) -> Name:
    """Split 'First von Last', 'First Last, Jr.', 'von Last, First' or 'von Last, Jr, First'."""
    if "," in author:
        parts = [p.strip(" \t\r\n") for p in author.split(",")]
        if len(parts) == 2 and parts[1] in SUFFIXES and "," not in parts[0]:
            name = split_name(parts[0])
            return Name(first=name.first, von=name.von, last=name.last, jr=parts[1])
        von, last = _split_von_last(_words(parts[0]))
        if len(parts) == 2:
            return Name(first=parts[1], von=von, last=last)
        return Name(first=", ".join(parts[2:]), von=von, last=last, jr=parts[1])
    words = _words(author)
    jr = ""
    if len(words) >= 3 and words[-1] in SUFFIXES:
        jr = words.pop()
    if len(words) <= 1:
        return Name(last=" ".join(words), jr=jr)
    lower = [i for i, w in enumerate(words[:-1]) if _is_lower(w)]
    if not lower:
        return Name(first=" ".join(words[:-1]), last=words[-1], jr=jr)
    start, end = lower[0], lower[-1] + 1
    return Name(
        first=" ".join(words[:start]),
        von=" ".join(words[start:end]),
        last=" ".join(words[end:]),
        jr=jr,
    )


def join_name(name: Name) -> str:
    """The catalog's spelling of a name: 'First von Last [Jr.]' when that splits back the same."""
    words = " ".join(p for p in (name.first, name.von_last) if p)
    candidates = [f"{words} {name.jr}", f"{words}, {name.jr}"] if name.jr else [words]
    for plain in candidates:
        if "," not in words and _same(split_name(plain), name):
            return plain
    if name.jr:
        return f"{name.von_last}, {name.jr}, {name.first}"
    return f"{name.von_last}, {name.first}" if name.first else name.von_last


def _same(a: Name, b: Name) -> bool:
    return a.first == b.first and a.von_last == b.von_last and a.jr == b.jr


# ------------------------------------------------------------------ pages

_RANGE_RE = re.compile(r"^\s*(\S+?)\s*(?:--|–|—|-)\s*(\S+)\s*\Z")
# No range of pages is longer ('e1234567--e1234599', '12:1--12:7'): a longer text is not
# read as one, as the pattern tries each dash of a long word against all that follows it.
_MAX_RANGE = 100


def page_range(pages: str) -> tuple[str, str] | None:
    """('281', '294') from '281-294', '281--294' or '281–294'; None for a single page."""
    m = _RANGE_RE.match(pages) if len(pages) <= _MAX_RANGE else None
    return (m.group(1), m.group(2)) if m else None


# ------------------------------------------------------------------ records read


@dataclass
class BibRecord:
    """One entry of a .bib file as read: its fields as plain Unicode, and the paper they make."""

    key: str
    line: int
    entry_type: str
    fields: dict[str, str]
    paper: Paper | None = None
    venue: Venue | None = None
    new_venue: bool = False
    problems: list[Problem] = field(default_factory=list)
    crossrefd: bool = False  # another entry's crossref names it (its container)

    @property
    def unreadable(self) -> bool:
        """True for text BibTeX cannot read as an entry (bad braces, duplicate key, ...)."""
        return self.paper is None and not self.fields

    def to_dict(self) -> dict[str, object]:
        """Every field, for --json output."""
        return {
            "key": self.key,
            "line": self.line,
            "entry_type": self.entry_type,
            "fields": self.fields,
            "paper": self.paper.to_dict() if self.paper else None,
            "venue": self.venue.to_dict() if self.venue else None,
            "new_venue": self.new_venue,
            "problems": [p.__dict__ for p in self.problems],
        }


_FINAL_PERIOD_RE = re.compile(r"(?<![.\w])([A-Za-z]{2,})\.$")
_ABBREVIATIONS = frozenset(
    {
        "al",
        "etc",
        "inc",
        "ltd",
        "co",
        "corp",
        "jr",
        "sr",
        "vs",
        "no",
        "vol",
        "ed",
        "eds",
        "dept",
        "univ",
    }
)


def ends_with_added_period(title: str) -> bool:
    """Whether a title ends as one with a period an export added ('a survey.'), which the
    reader drops: a word of letters and a period, not an abbreviation ('Jr.', 'et al.')."""
    m = _FINAL_PERIOD_RE.search(title)
    return m is not None and m.group(1).casefold() not in _ABBREVIATIONS
