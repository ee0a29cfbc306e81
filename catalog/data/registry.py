"""The venue registry (data/venues.yaml) and the tag vocabulary (data/tags.yaml)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalog.data import yamlfile
from catalog.errors import InvalidCatalogError, Problem
from catalog.model import fold

# 'collection': an edited book whose papers are chapters (a handbook); its papers carry
# the book's title, editors and publisher (model.CHAPTER_FIELDS). 'book': a paper that is
# a whole book.
KINDS: tuple[str, ...] = (
    "conference",
    "journal",
    "preprint",
    "workshop",
    "book",
    "collection",
    "thesis",
    "report",
)
# The registry's generic collection: chapters of books with no registry entry of their own.
CHAPTER_VENUE = "Chapter"


@dataclass
class Venue:
    """A venue by its short name; extra holds registry fields used by BibTeX export."""

    short: str
    kind: str
    name: str
    publisher: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "short": self.short,
            "kind": self.kind,
            "name": self.name,
            "publisher": self.publisher,
            **self.extra,
        }


# Venues whose papers are preprints by their name alone, where no registry entry says.
PREPRINT_NAMES = frozenset({"arxiv", "corr"})


def is_preprint(venue: Venue | str, venues: Mapping[str, Venue] | None = None) -> bool:
    """Whether a venue's papers are preprints: its registry entry's kind says (a Venue, or
    a short name that venues has); a name the registry lacks, or with no registry at hand,
    is a preprint's if it is arXiv or CoRR. The one rule: check, import, update and export
    all ask it."""
    if isinstance(venue, str):
        venue = (venues or {}).get(venue) or venue
    if isinstance(venue, Venue):
        return venue.kind == "preprint"
    return venue.casefold() in PREPRINT_NAMES


def _mapping(path: Path, what: str) -> tuple[dict[str, Any], dict[str, int]]:
    """A top-level mapping from a small YAML file, with the line of each key."""
    if not path.exists():
        raise InvalidCatalogError(
            [Problem(str(path), 0, "", f"no {what} file", f"create {path.name} beside the catalog")]
        )
    data, lines = yamlfile.load_mapping_with_lines(path)
    return data, lines


def load_venues(path: Path) -> dict[str, Venue]:
    """The registry by short name; a malformed entry stops with its line."""
    data, lines = _mapping(path, "venue registry")
    venues: dict[str, Venue] = {}
    problems: list[Problem] = []
    for short, record in data.items():
        where = str(short)
        line = lines.get(str(short), 0)
        if not isinstance(record, dict):
            problems.append(
                Problem(
                    str(path),
                    line,
                    where,
                    "venue is not a mapping",
                    "give kind, name and publisher",
                    True,
                )
            )
            continue
        kind = str(record.get("kind", ""))
        if kind not in KINDS:
            problems.append(
                Problem(
                    str(path),
                    line,
                    where,
                    f"unknown kind '{kind}'",
                    "use one of " + ", ".join(KINDS),
                    True,
                )
            )
            continue
        if not record.get("name"):
            problems.append(
                Problem(str(path), line, where, "missing name", "give the venue's full name", True)
            )
            continue
        extra = {k: v for k, v in record.items() if k not in ("kind", "name", "publisher")}
        publisher = record.get("publisher")
        venues[str(short)] = Venue(
            str(short), kind, str(record["name"]), str(publisher) if publisher else None, extra
        )
    if problems:
        raise InvalidCatalogError(problems)
    return venues


def load_tags(path: Path) -> dict[str, str]:
    """The tag vocabulary: tag -> description."""
    data, _ = _mapping(path, "tag vocabulary")
    return {str(tag): str(desc or "") for tag, desc in data.items()}


# ---------------------------------------------------------------- resolving a venue's name

# Words that do not tell venues apart: "Proceedings of the 24th Annual International
# Conference on X" and "Conference on X" are one venue.
_VENUE_STOP = frozenset(
    {
        "the",
        "of",
        "on",
        "and",
        "in",
        "for",
        "a",
        "proceedings",
        "proc",
        "annual",
        "international",
        "twenty",
        "thirty",
        "forty",
        "fifty",
    }
)
_ORDINAL_RE = re.compile(
    r"^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|"
    r"tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth|twentieth|"
    r"thirtieth|fortieth|fiftieth)\Z"
)


def venue_words(name: str) -> list[str]:
    """A venue name's telling words, folded, in order: no '(KDD '18)', years, ordinals or
    'Proceedings of the'; '&' is 'and'."""
    text = re.sub(r"\([^()]*\)", " ", fold(name)).replace("&", " and ")
    return [
        w
        for w in re.findall(r"[a-z0-9]+", text)
        if w not in _VENUE_STOP and not w.isdigit() and not _ORDINAL_RE.match(w)
    ]


def venue_key(name: str) -> str:
    """The normalised name two spellings of one venue share (word order aside: 'International
    World Wide Web Conference' is 'International Conference on World Wide Web')."""
    return " ".join(sorted(venue_words(name)))


def abbreviates(short: str, name: str) -> bool:
    """True if short is an ISO 4-style abbreviation of name: each word a prefix of the
    name's word in turn ('ACM Trans. Inf. Syst.' of 'ACM Transactions on Information
    Systems', 'Adv. Neural Inf. Process. Syst.' of 'Advances in Neural ...')."""
    if "." not in short:
        return False
    a, b = venue_words(short), venue_words(name)
    return (
        len(a) == len(b) >= 2 and a != b and all(y.startswith(x) for x, y in zip(a, b, strict=True))
    )


def same_venue_name(a: str, b: str) -> bool:
    """Two spellings of one venue: same normalised words, or one abbreviates the other."""
    ka, kb = venue_key(a), venue_key(b)
    return bool(ka) and (ka == kb or abbreviates(a, b) or abbreviates(b, a))


def venue_names(venue: Venue) -> list[str]:
    """Every name a registry entry goes by: short, name, booktitle, abbrev, aliases."""
    names = [
        venue.short,
        venue.name,
        str(venue.extra.get("booktitle") or ""),
        str(venue.extra.get("abbrev") or ""),
        *(str(a) for a in venue.extra.get("aliases") or []),
    ]
    return [n for n in names if n]


def resolve_name(text: str, venues: dict[str, Venue], loose: bool = False) -> str | None:
    """The registry venue a full or abbreviated name is, if any; loose, also the one whose
    name is the text's but for organisers the text leaves out (for the curated registry,
    not for venues an import proposes from raw strings)."""
    key = venue_key(text)
    if not key:
        return None
    for short, venue in venues.items():
        if any(venue_key(n) == key for n in venue_names(venue)):
            return short
    for short, venue in venues.items():
        if any(abbreviates(text, n) for n in venue_names(venue)):
            return short
    return _resolve_loosely(text, venues) if loose else None


# Who runs a venue, not what it is: 'Conference on Knowledge Discovery and Data Mining' is
# the ACM SIGKDD one, 'International Conference on Data Engineering' the IEEE one.
_ORGANISERS = frozenset({"acm", "ieee", "usenix", "siam", "cvf", "ifip"})
_SIG_RE = re.compile(r"^sig[a-z]+\Z")


def _split_organisers(name: str) -> tuple[frozenset[str], str]:
    """A name's organiser words, and its other words as a key ('' if fewer than two)."""
    words = venue_words(name)
    organisers = frozenset(w for w in words if w in _ORGANISERS or _SIG_RE.match(w))
    rest = [w for w in words if w not in organisers]
    return organisers, " ".join(sorted(rest)) if len(rest) >= 2 else ""


def _resolve_loosely(text: str, venues: dict[str, Venue]) -> str | None:
    """The one registry venue whose name is the text's but for organisers the text leaves
    out (never one it names otherwise: IEEE's is not ACM's); None if none or several are."""
    organisers, key = _split_organisers(text)
    if not key:
        return None
    found = set()
    for short, venue in venues.items():
        for name in venue_names(venue):
            theirs, their_key = _split_organisers(name)
            if their_key == key and organisers <= theirs:
                found.add(short)
    return found.pop() if len(found) == 1 else None


_URL_NAME_RE = re.compile(r"\b(?:https?|ftp)://|\bwww\.[a-z0-9-]+\.", re.IGNORECASE)
# Short names as the registry writes them: ASPLOS, DLP-KDD, arXiv, ES-FoMO.
SHORT_RE = re.compile(r"[A-Za-z][A-Za-z0-9&+.-]{0,31}")
MAX_VENUE_NAME = 300
_YEAR_IN_NAME_RE = re.compile(r"\b(1[89]|20)\d\d\b")


def registry_problems(
    venues: dict[str, Venue],
    filename: str,
    lines: dict[str, int] | None = None,
    only: str | None = None,
) -> list[Problem]:
    """Every problem of the registry's entries (of the entry only, when given; at their
    lines, when given): a short name that is not one, a name, publisher or alias that is
    not one line of plain text (a control character, a bidi override), a source that is
    not an http(s) link, a URL for a name, and two entries of one venue (one short name
    but for case, or the same normalised name). `venues add` refuses an entry with any of
    them; `check` reports them."""
    out: list[Problem] = []
    for short, found in _entries_problems(venues):
        if only is None or short == only:
            where = short if short.isprintable() else ascii(short)[1:-1]  # 'EVIL\n': one line
            line = (lines or {}).get(short, 0)
            out += [Problem(filename, line, where, message, hint) for message, hint in found]
    return out


def _entries_problems(venues: dict[str, Venue]) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """Each entry's short name and its problems, its own and beside the others'."""
    seen: dict[str, str] = {}
    shorts: dict[str, str] = {}
    aliases = {
        venue_key(str(alias)): short
        for short, venue in reversed(venues.items())
        for alias in _aliases(venue)
    }
    for short, venue in venues.items():
        found = entry_problems(venue)
        other = shorts.setdefault(short.casefold(), short)
        if other != short:
            found.append(
                (
                    f"already in the registry as {other} (short names alike but for case)",
                    f"keep one entry; file the papers under {other}",
                )
            )
        key = venue_key(venue.name)
        owner = aliases.get(key, short) if key else short
        if owner != short:
            found.append(
                (
                    f"same venue as {owner}, which has '{venue.name}' for an alias",
                    f"keep one entry; file the papers under {owner}",
                )
            )
        elif key in seen and seen[key] != short:
            found.append(
                (
                    f"same venue as {seen[key]} ('{venue.name}' and '{venues[seen[key]].name}')",
                    f"keep one entry; add this name to the aliases of {seen[key]}",
                )
            )
        elif key:
            seen[key] = short
        yield short, found


def _aliases(venue: Venue) -> list[object]:
    """An entry's aliases as written (one alias alone counts as a list of it)."""
    aliases = venue.extra.get("aliases") or []
    return list(aliases) if isinstance(aliases, list) else [aliases]


def entry_problems(venue: Venue) -> list[tuple[str, str]]:
    """(message, hint) for each problem of one registry entry's own fields."""
    from catalog.model import has_controls, is_http_url
    from catalog.paths import RESERVED_NAMES

    out: list[tuple[str, str]] = []
    short = venue.short
    if not SHORT_RE.fullmatch(short):
        out.append(
            (
                f"{short[:40]!r} is not a venue short name: letters, digits and '-&+.', a letter "
                "first, at most 32",
                "name it as papers.yaml files papers under it (e.g. OSDI, DLP-KDD)",
            )
        )
    elif short.casefold() in RESERVED_NAMES | {"index"}:
        out.append(
            (
                f"short name '{short}' is the name of a list page or one Windows reserves",
                "choose another short name",
            )
        )
    texts: list[tuple[str, object]] = [("name", venue.name), ("publisher", venue.publisher or "")]
    texts += [("alias", a) for a in _aliases(venue)]
    for label, text in texts:
        if not isinstance(text, str):
            out.append((f"{label} {text!r} is not text", f"write the {label} as text"))
        elif has_controls(text):
            out.append(
                (
                    f"{label} {text[:60]!r} is not one line of text (a control character or a "
                    "line break)",
                    "write it as one line of plain text",
                )
            )
    if not venue.name.strip() or len(venue.name) > MAX_VENUE_NAME:
        out.append(
            (
                f"name is empty or longer than {MAX_VENUE_NAME} characters",
                "give the venue's full name, without year or edition",
            )
        )
    elif _YEAR_IN_NAME_RE.search(venue.name):
        out.append(
            (
                f"name {venue.name[:80]!r} holds a year",
                "give the venue's name without year or edition (the year goes on each paper)",
            )
        )
    url = next((t for t in (short, venue.name) if _URL_NAME_RE.search(t)), None)
    if url:
        out.append(
            (
                f"venue name is a URL: {url[:60]!r}",
                "a link is not a venue; file the paper under its real venue and remove this entry",
            )
        )
    sources = venue.extra.get("sources") or []
    for url in sources if isinstance(sources, list) else [sources]:
        if not isinstance(url, str) or not is_http_url(url):
            out.append(
                (
                    f"source {str(url)[:60]!r} is not an http(s) link",
                    "give the public page the entry was checked against",
                )
            )
    return out
