"""The search language's terms and filters, turned into SQL over the index.

embedding cache          both words, in any form (Snowball stems), in any field; bm25
                         with column weights, curated papers (tags, summary) first
"parameter server"       a phrase
emb*                     a prefix
caching OR sharding      either word (OR binds tighter than AND: a b OR c is a AND (b OR c))
-inference  NOT x        exclude a word (also -"a phrase", -tag:moe, NOT (a OR b))
a AND (b OR tag:moe)     explicit AND, and parentheses to group (catalog.index.syntax)
year:2022  year:2020..2022  year:2021..  2021..2023  venue:OSDI  tag:caching
author:gupta  status:to-read  key:sima2022ekko  title:cache  summary:gpu  abstract:x
note:zebrafinch          the reader's own notes (data/readings/) alone; plain words find
                         notes too, below every paper whose own fields match

The query's text is cut into a tree by catalog.index.syntax; catalog.index.query runs
the plan made here and ranks what it finds.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from catalog.errors import QueryError
from catalog.hints import hint_for
from catalog.index import syntax
from catalog.index.schema import STEMMED
from catalog.index.words import stem, words
from catalog.model import DEFAULT_STATUS, STATUSES, fold

FILTERS = (
    "year",
    "venue",
    "tag",
    "author",
    "status",
    "key",
    "title",
    "summary",
    "abstract",
    "note",
)
# Tags and summaries are the curator's word on what a paper is about: the columns where
# a match ranks a curated paper higher (catalog.index.query.CURATED_BOOST).
CURATED_COLUMNS = tuple(STEMMED[name] for name in ("title", "tags", "summary"))

# How many other words may stand between the query's words for Plan.near to hold.
NEAR_DISTANCE = 2
_YEAR_RANGE_RE = re.compile(r"^(\d{4})?\.\.(\d{4})?\Z")
_BARE_YEARS_RE = re.compile(r"^(\d{4}\.\.(\d{4})?|\.\.\d{4})\Z")  # 2021..2023, 2021.., ..2020


@dataclass(frozen=True)
class Fts:
    """A term the full-text index answers: a word, phrase or prefix (in one column or all)."""

    term: str


@dataclass(frozen=True)
class Sql:
    """A filter on the papers table (year, venue, tag, author, status, key)."""

    sql: str
    params: tuple[Any, ...]


@dataclass
class Query:
    """A parsed query: its tree (syntax.Not, All, Either over Fts and Sql) and the venue
    and tag names it names, to verify."""

    text: str
    tree: object | None
    names: list[tuple[str, str]] = field(default_factory=list)  # (venue|tag, value)


@dataclass
class Plan:
    """A query as SQL: the FTS5 expression of its positive terms, the terms it excludes,
    and the filters (with their parameters) every result passes."""

    positive: str | None = None
    excluded: list[str] = field(default_factory=list)
    where: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)

    @property
    def match(self) -> str | None:
        """The FTS5 MATCH expression for the positive terms, with exclusions."""
        expr = self.positive
        if expr is None:
            return None
        for term in self.excluded:
            expr = f"({expr}) NOT {term}"
        return expr

    @property
    def near(self) -> str | None:
        """The query's plain words (two or more, outside any OR or group) within a word or
        two of each other, in any order: a paper saying "embedding cache" is about one,
        while one with "embedding" in its title and "cache" in its abstract may not be."""
        found = re.findall(r'(?:^| AND )("[^" ]+")(?= AND |$)', self.positive or "")
        near = " ".join(dict.fromkeys(found))
        return f"NEAR({near}, {NEAR_DISTANCE})" if len(set(found)) > 1 else None

    @property
    def curated(self) -> str | None:
        """The positive terms, matched in the curated columns only."""
        expr = self.positive
        return f"{{{' '.join(CURATED_COLUMNS)}}} : ({expr})" if expr else None


def fts_term(text: str, prefix_ok: bool = True, column: str | None = None) -> str | None:
    """A user's word or phrase as a safe FTS5 string of stems (catalog.index.words, as
    the index holds them; a prefix's last word stays as typed); None if it has no
    searchable text. column: a searched field's name (title, summary, abstract)."""
    prefix = prefix_ok and text.endswith("*")
    found = words(text)
    if not found:
        return None
    stemmed = [stem(w) for w in found[:-1]] + [found[-1] if prefix else stem(found[-1])]
    quoted = '"' + " ".join(stemmed) + '"' + ("*" if prefix else "")
    return f"{{{STEMMED[column]}}} : {quoted}" if column else quoted


def parse(text: str) -> Query:
    """Parse a query string; QueryError names what is wrong and how to fix it."""
    toks = syntax.tokens(text)
    if not any(
        t.kind == "filter" or (t.kind in ("word", "phrase") and fts_term(t.text)) for t in toks
    ):
        if text.strip():
            raise QueryError(
                f"nothing to search for in {text!r} (search words need letters or digits)"
            )
        return Query(text, None)
    query = Query(text, None)
    query.tree = syntax.parse(text, lambda token: _leaf(query, token))
    if query.tree is None:  # only words without letters or digits, and filters like title:*
        raise QueryError(f"nothing to search for in {text!r} (search words need letters or digits)")
    return query


def _leaf(query: Query, token: syntax.Token) -> Fts | Sql | None:
    """What one term of the query means: a full-text term or a filter (None: nothing)."""
    if token.kind == "filter":
        return _filter(query, str(token.field), token.text)
    if token.kind == "word" and _BARE_YEARS_RE.match(token.text):
        sql, params = _year(token.text)  # a bare 2021..2023 is a year range
        return Sql(sql, tuple(params))
    term = fts_term(token.text, prefix_ok=token.kind == "word")
    return Fts(term) if term else None


def plan(query: Query, widen: Callable[[str], str] = lambda term: term) -> Plan:
    """The query as SQL: a top-level term or group the full-text index can answer alone
    goes into the MATCH (and so into the ranking); the rest become filters, their own
    full-text parts as sub-selects. widen rewrites each full-text term (prefixes)."""
    out = Plan()
    tree = query.tree
    items = tree.children if isinstance(tree, syntax.All) else (() if tree is None else (tree,))
    positive = []
    for item in items:
        expr = _fts(item, widen)
        if expr is not None:
            positive.append(expr)
            continue
        if isinstance(item, syntax.Not):
            expr = _fts(item.child, widen)
            if expr is not None:
                out.excluded.append(expr)
                continue
        sql, params = _sql(item, widen)
        out.where.append(sql)
        out.params.extend(params)
    out.positive = " AND ".join(positive) if positive else None
    return out


def _fts(node: object, widen: Callable[[str], str]) -> str | None:
    """The node as one FTS5 expression, or None when it needs SQL: a filter, or a NOT
    with nothing positive beside it (FTS5's NOT only takes away from a match)."""
    if isinstance(node, Fts):
        return widen(node.term)
    if isinstance(node, syntax.Either):
        parts = [_fts(c, widen) for c in node.children]
        return None if None in parts else "(" + " OR ".join(map(str, parts)) + ")"
    if isinstance(node, syntax.All):
        negated = [c.child for c in node.children if isinstance(c, syntax.Not)]
        parts = [_fts(c, widen) for c in node.children if not isinstance(c, syntax.Not)]
        excluded = [_fts(c, widen) for c in negated]
        if not parts or None in parts or None in excluded:
            return None
        expr = "(" + " AND ".join(map(str, parts)) + ")"
        for term in excluded:
            expr = f"({expr} NOT {term})"
        return expr
    return None


def _sql(node: object, widen: Callable[[str], str]) -> tuple[str, list[Any]]:
    """The node as an SQL condition on papers p; full-text parts as sub-selects."""
    expr = _fts(node, widen)
    if expr is not None:
        return "p.rowid in (select rowid from papers_fts where papers_fts match ?)", [expr]
    if isinstance(node, Sql):
        return node.sql, list(node.params)
    if isinstance(node, syntax.Not):
        sql, params = _sql(node.child, widen)
        return f"not ({sql})", params
    assert isinstance(node, syntax.All | syntax.Either)
    parts = [_sql(c, widen) for c in node.children]
    joiner = " and " if isinstance(node, syntax.All) else " or "
    return "(" + joiner.join(s for s, _ in parts) + ")", [p for _, ps in parts for p in ps]


def query_stems(query: Query) -> tuple[set[str], set[str]]:
    """The stems of the query's words and phrases, and its prefixes (folded): what a
    title shows marked. A word written with '-' or after NOT is left out."""
    wanted, prefixes = set[str](), set[str]()
    negate_next = False
    for token in syntax.tokens(query.text):
        negated, negate_next = token.negated or negate_next, token.kind == "NOT"
        searched = token.kind in ("word", "phrase") or token.field in ("title", "summary")
        if negated or not searched or _BARE_YEARS_RE.match(token.text):
            continue
        found = words(token.text)
        if found and token.kind != "phrase" and token.text.endswith("*"):
            prefixes.add(found.pop())
        wanted.update(map(stem, found))
    return wanted, prefixes


def prefix_query(text: str) -> str | None:
    """The query with every plain word made a prefix ('embed' -> 'embed*'), for when the
    words themselves match nothing; None when it has no plain word to widen. Phrases,
    filters, excluded words (-x, NOT x), operators and words ending in * stay as they are."""
    out, last, widened = [], 0, False
    negate_next, groups = False, list[bool]()  # groups: whether each open group is negated
    for token in syntax.tokens(text):
        if token.kind == "NOT":
            negate_next = True
            continue
        negated = token.negated or negate_next or any(groups)
        negate_next = False
        if token.kind == "open":
            groups.append(negated)
        elif token.kind == "close":
            groups = groups[:-1]
        elif (
            token.kind == "word"
            and not negated
            and not token.text.endswith("*")
            and not _BARE_YEARS_RE.match(token.text)
            and fts_term(token.text)
        ):
            out.append(text[last : token.end] + "*")
            last, widened = token.end, True
    return "".join(out) + text[last:] if widened else None


def _filter(query: Query, name: str, value: str) -> Fts | Sql | None:
    """A field filter: title:, summary: and abstract: are full-text terms in one column."""
    if name not in FILTERS:
        names = [f"{f}:" for f in FILTERS]
        hint = hint_for(f"{name}:", names) or "filters are " + ", ".join(names)
        raise QueryError(
            f"unknown filter '{name}:' ({hint} To search for the words "
            f"themselves, quote them: '\"{name}:{value}\"')"
        )
    if not value:
        raise QueryError(f"'{name}:' needs a value, e.g. {_EXAMPLES[name]}")
    if name in ("title", "summary", "abstract"):
        term = fts_term(value, column=name)
        return Fts(term) if term else None
    if name in ("venue", "tag"):
        query.names.append((name, value))
    sql, params = _FILTER_SQL[name](value)
    return Sql(sql, tuple(params))


def _year(value: str) -> tuple[str, list[Any]]:
    if value.isdigit() and len(value) == 4:
        return "p.year = ?", [int(value)]
    m = _YEAR_RANGE_RE.match(value)
    if not m or not (m.group(1) or m.group(2)):
        raise QueryError(f"bad year '{value}' (write year:2022, year:2020..2022 or year:2021..)")
    low, high = int(m.group(1) or 0), int(m.group(2) or 9999)
    if low > high:
        raise QueryError(f"empty year range '{value}' (write the earlier year first)")
    return "p.year between ? and ?", [low, high]


def _status(value: str) -> tuple[str, list[Any]]:
    if value not in STATUSES:
        hint = hint_for(value, STATUSES) or "one of " + ", ".join(STATUSES)
        raise QueryError(f"unknown status '{value}' ({hint})")
    # The reader's file decides; a paper it does not list is to-read.
    return (
        "coalesce((select r.status from reading r where r.key = p.key), ?) = ?",
        [DEFAULT_STATUS, value],
    )


def _note(value: str) -> tuple[str, list[Any]]:
    term = fts_term(value)
    if term is None:
        raise QueryError(f"nothing to search for in 'note:{value}' (words need letters or digits)")
    return f"p.key in ({_NOTE_KEYS})", [term]


_NOTE_KEYS = (
    "select n.key from notes n join notes_fts on notes_fts.rowid = n.rowid where notes_fts match ?"
)


def _like(value: str) -> str:
    return "%" + value.replace("*", "%") + "%"


_FILTER_SQL = {
    "year": _year,
    "status": _status,
    "venue": lambda v: ("p.venue = ? collate nocase", [v]),
    "tag": lambda v: ("p.key in (select paper from tags where tag = ? collate nocase)", [v]),
    "author": lambda v: (
        "p.key in (select paper from authors where folded like ?)",
        [_like(fold(v))],
    ),
    "key": lambda v: ("p.key like ?", [v.replace("*", "%")]),
    "note": _note,
}
_EXAMPLES = {
    "year": "year:2022",
    "venue": "venue:OSDI",
    "tag": "tag:caching",
    "author": "author:gupta",
    "status": "status:read",
    "key": "key:sima2022ekko",
    "title": "title:cache",
    "summary": "summary:gpu",
    "abstract": "abstract:lookup",
    "note": "note:zebrafinch",
}


_KNOWN_SQL = {
    "venue": "select short from venues union select venue from papers",
    "tag": "select tag from vocabulary union select tag from tags",
}


def check_names(conn: sqlite3.Connection, query: Query) -> None:
    """A venue or tag the catalog has never heard of is a typo, not an empty answer."""
    for kind, value in query.names:
        known = [r[0] for r in conn.execute(_KNOWN_SQL[kind])]
        if value.casefold() not in {k.casefold() for k in known}:
            hint = hint_for(value, known) or f"see papers {kind}s"
            raise QueryError(f"unknown {kind} '{value}' ({hint})")
