"""Citation keys for new papers: first author's family name, year, first title word."""

from __future__ import annotations

import re
from collections.abc import Collection

from catalog.model import fold, last_name

# Words a key skips at the start of a title ("A Scalable ..." -> "scalable").
STOPWORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "on",
        "of",
        "in",
        "for",
        "to",
        "with",
        "and",
        "at",
        "by",
        "from",
        "is",
        "are",
    }
)
# Lower-case particles of a family name that keys leave out ("van der Berg" -> "berg").
PARTICLES = frozenset(
    {
        "de",
        "da",
        "di",
        "del",
        "della",
        "der",
        "den",
        "van",
        "von",
        "le",
        "la",
        "du",
        "dos",
        "das",
        "ter",
        "ten",
        "zu",
    }
)


def _ascii_word(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", fold(text))


def author_part(authors: list[str]) -> str:
    """The first author's family name, folded to ASCII letters ('Müller-Lüdenscheidt' ->
    'mullerludenscheidt'); 'anon' when there is none."""
    if not authors:
        return "anon"
    family = last_name(authors[0])
    words = family.split()
    kept = [w for w in words if w.lower() not in PARTICLES] or words
    part = re.sub(r"[^a-z]", "", fold("".join(kept)))
    return part or "anon"


def title_part(title: str) -> str:
    """The first significant title word; a system name before a colon is kept whole
    ('HET-GMP: ...' -> 'hetgmp', 'Software-Hardware Co-design' -> 'software')."""
    head, colon, _ = title.partition(":")
    if colon and len(head.split()) == 1 and _ascii_word(head):
        return _ascii_word(head)
    for word in re.split(r"[\s\-–—/]+", title):
        folded = _ascii_word(word)
        if folded and folded not in STOPWORDS:
            return folded
    return "paper"


# The most letters a key takes from the family name and from the title word: a key stays
# well under MAX_KEY, whatever a record holds.
_PART = 24


def suggest_key(authors: list[str], year: int, title: str, taken: Collection[str]) -> str:
    """A new key like 'sima2022ekko'; 'a', 'b', ... are appended while the key is taken."""
    base = f"{author_part(authors)[:_PART]}{year}{title_part(title)[:_PART]}"
    if base not in taken:
        return base
    for suffix in "abcdefghijklmnopqrstuvwxyz":
        if base + suffix not in taken:
            return base + suffix
    n = 2
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"
