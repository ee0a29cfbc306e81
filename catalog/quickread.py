"""Reading catalog text in the layout papers writes, without building a YAML tree.

Nearly every line of data/papers.yaml is one of a few shapes: a year (`2023:`), a
venue (`  OSDI:`), or a paper's field (`    - key: ...`, `      title: "..."`) whose
value is a plain scalar, a quoted one on one line, or a flow list on one line. Such
text is read here line by line, five to ten times faster than libyaml composes it
into nodes (most of an index build's time went there).

It is only a fast path. Anything else (another indentation, a value over several
lines, an escape other than \\" and \\\\, an anchor, a tag, a control character) and
anything the full reader would report (an unknown or repeated field, a missing or
empty one, a venue or year given twice) makes `papers` return None, and the caller
reads the text with PyYAML as before: the fast path never decides what is wrong,
and what it accepts it reads exactly as PyYAML plus catalog.source's walk would
(tests/test_quickread.py compares the two on generated and real catalogs, and
tests/test_quickread_fuzz.py on hostile and mutated text, under libyaml and under
PyYAML's pure-Python parser).
"""

from __future__ import annotations

import re

from catalog.model import FIELDS, LIST_FIELDS, REQUIRED, Paper
from catalog.yamlio import FALSE, NULLS, TRUE

_FIELD_NAMES = frozenset(FIELDS)
_LIST_FIELDS = frozenset(LIST_FIELDS)

# Characters YAML reads otherwise than as text, or refuses: controls (tab and CR
# included, though YAML allows them in places), DEL, C1, the line breaks NEL, LS and
# PS, the byte-order mark, the non-characters U+FFFE/U+FFFF, and lone surrogates (no
# UTF-8 text has one, but a str may: libyaml's reader cannot even encode it). Text with
# any is left to PyYAML. (Each of them is one str.isprintable refuses.)
_UNUSUAL_RE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
# The end of a line after a value: nothing, or blanks and a comment.
_END = r"(?:[ ]+(?:#.*)?)?"
_YEAR_RE = re.compile(rf"(\d{{4}}):{_END}")
# A venue name written plain (catalog.validation writes venues so for this reader).
VENUE_NAME = r"[A-Za-z][A-Za-z0-9_.\-]{0,99}"
_VENUE_RE = re.compile(rf"  ({VENUE_NAME}):{_END}")
_LEADS = ("    - ", "      ")  # a paper's first line, its other lines
_COMMENT_OR_BLANK_RE = re.compile(r" *(?:#.*)?")
# One-line quoted scalars; in double quotes, only the escapes \" and \\.
# (Unrolled loops: an alternation tried at every character took a second at 10k papers.)
_DOUBLE_RE = re.compile(rf'"([^"\\]*(?:\\["\\][^"\\]*)*)"{_END}')
_SINGLE_RE = re.compile(rf"'([^']*(?:''[^']*)*)'{_END}")
_ESCAPE_RE = re.compile(r'\\(["\\])')
# A plain scalar may not start with an indicator or a blank (nor, here, with '-', '?'
# or ':', which may start one only in some contexts).
_PLAIN_START = frozenset("-?:,[]{}#&*!|>'\"%@` ")
# A flow list on one line: items that are quoted scalars, or plain ones without any of
# , [ ] { } # : (which end or change a plain scalar in a flow) or ? (which ends one for
# PyYAML's own parser, the fallback where libyaml is missing), separated by commas.
# A plain item takes its trailing blanks too (stripped after), all at once: a lazy one
# tried ' *(,|$)' after each of its characters, quadratic in a run of blanks (a line
# with 30,000 spaces in an item took 9 s; PyYAML reads it in a millisecond).
_FLOW_RE = re.compile(rf"\[(.*)\]{_END}")
_FLOW_ITEM_RE = re.compile(
    r""" *(?:"([^"\\]*(?:\\["\\][^"\\]*)*)"|'([^']*(?:''[^']*)*)'"""
    r"""|([^ \-?:,\[\]{}#&*!|>'"%@`][^,\[\]{}#:?]*+)) *(,|$)""")


class _Unusual(Exception):
    """Text the fast path does not read: PyYAML reads it instead."""


def papers(text: str, line_offset: int = 0) -> list[Paper] | None:
    """Every paper of catalog text in the usual layout, or None when the text is not
    (then PyYAML and the full walk read it, and report what is wrong with it)."""
    try:
        return _read(text.split("\n"), line_offset)
    except _Unusual:
        return None


def _read(lines: list[str], line_offset: int) -> list[Paper]:
    out: list[Paper] = []
    years: set[str] = set()
    venues: set[str] = set()
    year = 0
    venue = ""
    fields: dict[str, object] | None = None  # the paper being read
    start = 0
    for number, line in enumerate(lines, 1 + line_offset):
        # isprintable (a C loop) clears most lines; only the others are searched for an
        # unusual character (a regex over all the text took 60 ms at 10k papers).
        if not line.isprintable() and _UNUSUAL_RE.search(line):
            raise _Unusual
        if line.startswith("    "):
            # '    - name: value' or '      name: value' (read by string
            # methods: a regex match per line was a third of the reading).
            lead = line[:6]
            name, colon, rest = line[6:].partition(": ")
            if not colon or name not in _FIELD_NAMES or lead not in _LEADS:
                if _COMMENT_OR_BLANK_RE.fullmatch(line):
                    continue
                raise _Unusual
            rest = rest.lstrip(" ")
            if lead[4] == "-":  # '    - ': a new paper
                if not venue:
                    raise _Unusual
                if fields is not None:
                    out.append(_paper(fields, year, venue, start))
                fields = {}
                start = number
            elif fields is None or name in fields:
                raise _Unusual
            fields[name] = _value(name, rest)
            continue
        if _COMMENT_OR_BLANK_RE.fullmatch(line):
            continue  # comments and blank lines end nothing
        if fields is not None:
            out.append(_paper(fields, year, venue, start))
            fields = None
        m = _VENUE_RE.fullmatch(line)
        if m is not None:
            venue = m.group(1)
            if not year or venue in venues or venue in NULLS or venue in TRUE \
                    or venue in FALSE:
                raise _Unusual
            venues.add(venue)
            continue
        m = _YEAR_RE.fullmatch(line)
        if m is None or m.group(1) in years:
            raise _Unusual
        years.add(m.group(1))
        year = int(m.group(1))
        venue = ""
        venues = set()
    if fields is not None:
        out.append(_paper(fields, year, venue, start))
    return out


def _value(name: str, rest: str) -> object:
    """A field's value as the full walk makes it: None for a null, a bool for et_al, a list
    of stripped strings for a list field, else the stripped string."""
    if not rest:
        raise _Unusual  # 'name: ' and nothing: a null, which the walk judges
    first = rest[0]
    if name in _LIST_FIELDS:
        if first == "[":
            return _flow(rest)
        raise _Unusual  # a null list or a scalar where a list belongs: the walk decides
    if first == '"':
        if rest.find('"', 1) == len(rest) - 1 and "\\" not in rest:  # the usual "text"
            return rest[1:-1].strip() if name != "et_al" else _no()
        m = _DOUBLE_RE.fullmatch(rest)
        if m is None:
            raise _Unusual
        value = m.group(1)
        if "\\" in value:
            value = _ESCAPE_RE.sub(r"\1", value)
    elif first == "'":
        m = _SINGLE_RE.fullmatch(rest)
        if m is None:
            raise _Unusual
        value = m.group(1).replace("''", "'")
    else:
        value = _plain(rest)
        if name == "et_al":
            if value in TRUE:
                return True
            if value in FALSE:
                return False
            raise _Unusual
        if value in NULLS:
            return None
        return value.strip()
    if name == "et_al":
        raise _Unusual  # a quoted true is not a boolean
    return value.strip()


def _no() -> object:
    raise _Unusual


def _plain(rest: str) -> str:
    """A one-line plain scalar in a block mapping, its comment cut off."""
    if rest[0] in _PLAIN_START:
        raise _Unusual
    cut = rest.find(" #")
    if cut >= 0:
        rest = rest[:cut]
    value = rest.rstrip(" ")
    if ": " in value or value.endswith(":"):
        raise _Unusual
    return value


def _flow(rest: str) -> list[str]:
    inner = rest[1:-1]
    if rest[-1] == "]" and not _has_flow_special(inner):
        # The usual list of names or tags: plain items, nothing to unquote.
        if not inner.strip(" "):
            return []
        items = []
        for item in inner.split(","):
            item = item.strip(" ")
            if not item or item[0] in _PLAIN_START:
                raise _Unusual
            items.append(item.strip())
        return items
    m = _FLOW_RE.fullmatch(rest)
    if m is None:
        raise _Unusual
    inner = m.group(1)
    if not inner.strip(" "):
        return []
    items = []
    pos = 0
    end = len(inner)
    while True:
        found = _FLOW_ITEM_RE.match(inner, pos)
        if found is None:
            raise _Unusual
        double, single, plain, comma = found.groups()
        if double is not None:
            items.append((_ESCAPE_RE.sub(r"\1", double) if "\\" in double else double).strip())
        elif single is not None:
            items.append(single.replace("''", "'").strip())
        else:
            items.append(plain.strip())
        pos = found.end()
        if not comma:
            if pos != end:
                raise _Unusual
            return items
        if pos == end:
            raise _Unusual  # a trailing comma


def _has_flow_special(inner: str) -> bool:
    """Whether a flow list's inside has a quote, bracket, brace, '#', ':' or '?' (single
    characters are found by memchr, faster than a regex class on a short text)."""
    return ('"' in inner or "'" in inner or "[" in inner or "]" in inner or "{" in inner
            or "}" in inner or "#" in inner or ":" in inner or "?" in inner)


def _paper(fields: dict[str, object], year: int, venue: str, line: int) -> Paper:
    for name in REQUIRED:
        if not fields.get(name):
            raise _Unusual
    return Paper(year=year, venue=venue, line=line, **{  # type: ignore[arg-type]
        name: value for name, value in fields.items() if value is not None})
