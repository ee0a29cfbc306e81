"""The search language, turned into SQL over the index, and other reads of it.

embedding cache          both words, in any form (Porter stems), in any field; bm25
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
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from catalog.errors import PaperNotFound, QueryError
from catalog.hints import hint_for
from catalog.index import syntax
from catalog.model import DEFAULT_STATUS, LIST_FIELDS, STATUSES, Paper, fold, has_undecomposable

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
# bm25 weights, in FTS column order (catalog.index.schema.FTS_COLUMNS): title, authors, tags,
# summary, venue_name, folded, abstract.
WEIGHTS = (10.0, 3.0, 5.0, 1.0, 2.0, 3.0, 0.5)
# Tags and summaries are the curator's word on what a paper is about. bm25 alone favours
# short, title-only records (an imported bibliography's "Caffe: ... Feature Embedding"
# over EVStore, whose summary makes it longer), so a curated paper (one with tags or a
# summary) that matches in what it is about (title, tags, summary) has its score
# multiplied by this; between curated papers the column weights decide.
CURATED_COLUMNS = ("title", "tags", "summary")
CURATED_BOOST = 2.0
MARK_START, MARK_END = "\x02", "\x03"

_YEAR_RANGE_RE = re.compile(r"^(\d{4})?\.\.(\d{4})?\Z")
_BARE_YEARS_RE = re.compile(r"^(\d{4}\.\.(\d{4})?|\.\.\d{4})\Z")  # 2021..2023, 2021.., ..2020
_WORD_CHARS_RE = re.compile(r"[\w*]+", re.UNICODE)


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
    def curated(self) -> str | None:
        """The positive terms, matched in the curated columns only."""
        expr = self.positive
        return f"{{{' '.join(CURATED_COLUMNS)}}} : ({expr})" if expr else None


def _fts_term(text: str, prefix_ok: bool = True, column: str | None = None) -> str | None:
    """A user's word or phrase as a safe FTS5 string; None if it has no searchable text."""
    prefix = prefix_ok and text.endswith("*")
    if has_undecomposable(text):
        text = fold(text)  # "Preußer" is indexed as "preusser" in the folded column
    words = [w.strip("*") for w in _WORD_CHARS_RE.findall(text)]
    words = [w for w in words if w]
    if not words:
        return None
    quoted = '"' + " ".join(words).replace('"', '""') + '"' + ("*" if prefix else "")
    return f"{{{column}}} : {quoted}" if column else quoted


def parse(text: str) -> Query:
    """Parse a query string; QueryError names what is wrong and how to fix it."""
    toks = syntax.tokens(text)
    if not any(
        t.kind == "filter" or (t.kind in ("word", "phrase") and _fts_term(t.text)) for t in toks
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
    term = _fts_term(token.text, prefix_ok=token.kind == "word")
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
            and _fts_term(token.text)
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
        term = _fts_term(value, column=name)
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
    # The reader's file decides; the catalog's own status counts for papers it does not list.
    return "coalesce((select r.status from reading r where r.key = p.key), p.status) = ?", [value]


def _note(value: str) -> tuple[str, list[Any]]:
    term = _fts_term(value)
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


def _check_names(conn: sqlite3.Connection, query: Query) -> None:
    """A venue or tag the catalog has never heard of is a typo, not an empty answer."""
    for kind, value in query.names:
        known = [r[0] for r in conn.execute(_KNOWN_SQL[kind])]
        if value.casefold() not in {k.casefold() for k in known}:
            hint = hint_for(value, known) or f"see papers {kind}s"
            raise QueryError(f"unknown {kind} '{value}' ({hint})")


@dataclass
class Hit:
    """A search result: the paper and its title with match markers."""

    paper: Paper
    marked_title: str
    score: float = 0.0


def row_to_paper(row: sqlite3.Row, shifts: dict[str, int] | None = None) -> Paper:
    """A Paper from a row of the papers table; shifts (catalog.index.database.line_shifts) turn
    its stored line into its line in the file."""
    line = row["line"] + (shifts.get(row["chunk"], 0) if shifts else 0)
    values = (*(row[c] for c in _PAPER_COLUMNS[:-1]), line)
    return _paper(*values)


# A one-word prefix term as _fts_term writes it, with or without a column filter.
_PREFIX_TERM_RE = re.compile(r'^(?P<column>\{\w+\} : )?"(?P<word>[^" ]+)"\*\Z')
# A prefix that begins more words than this is short enough for porter's stems to
# begin with it too ("emb*"): it is left as it is.
_MAX_WIDENED = 50


def _widen(conn: sqlite3.Connection, term: str) -> str:
    """A prefix term widened to the indexed words it begins: porter stems the words
    ("embedding" -> "embed") but not a prefix, so "embedd*" alone would miss them."""
    m = _PREFIX_TERM_RE.match(term)
    if not m:
        return term
    low = fold(m.group("word"))
    high = low[:-1] + chr(ord(low[-1]) + 1)
    words = [
        r[0]
        for r in conn.execute(
            "select word from words where word >= ? and word < ? limit ?",
            (low, high, _MAX_WIDENED + 1),
        )
    ]
    if not words or len(words) > _MAX_WIDENED:
        return term
    alternatives = " OR ".join(
        [term.removeprefix(m.group("column") or ""), *(f'"{w}"' for w in words)]
    )
    return f"{m.group('column') or ''}({alternatives})"


class Hits(list[Hit]):
    """Search results, best first; total counts every paper the query matches, also
    those a limit left out."""

    total: int = 0


def search(conn: sqlite3.Connection, text: str, limit: int | None = None) -> Hits:
    """Papers matching a query, best first (or newest first when there are no words)."""
    query = parse(text)
    _check_names(conn, query)
    steps = plan(query, lambda term: _widen(conn, term))
    where, params = list(steps.where), list(steps.params)
    match = steps.match
    if match:
        weights = ", ".join(str(w) for w in WEIGHTS)
        # bm25 is negative, lower is better: the boost makes a curated match rank higher.
        columns = (
            f"p.*, bm25(papers_fts, {weights}) * (case when (p.tags != '[]' or "
            "p.summary is not null) and p.rowid in "
            "(select rowid from papers_fts where papers_fts match ?) "
            f"then {CURATED_BOOST} else 1.0 end) as score, "
            f"highlight(papers_fts, 0, '{MARK_START}', '{MARK_END}') as marked"
        )
        source = (
            "from papers_fts join papers p on p.rowid = papers_fts.rowid where papers_fts match ?"
        )
        params[:0] = [match]
        order = "score, p.year desc, p.key"
    else:
        columns = "p.*, 0.0 as score, p.title as marked"
        source = "from papers p where 1"
        order = "p.year desc, p.venue, p.key"
        if steps.excluded:
            where.append("p.rowid not in (select rowid from papers_fts where papers_fts match ?)")
            params.append(" OR ".join(steps.excluded))
    source += "".join(f" and {clause}" for clause in where)
    sql = f"select {columns} {source} order by {order}"
    selected = [steps.curated, *params] if match else list(params)
    if limit is not None:
        sql += " limit ?"
        selected.append(limit)
    try:
        rows = conn.execute(sql, selected).fetchall()
        total = len(rows)
        if limit is not None and total == limit:  # cut short: how many there are
            total = conn.execute(f"select count(*) {source}", params).fetchone()[0]
    except sqlite3.OperationalError as err:
        raise QueryError(
            f"cannot search for {text!r}: {err} (quote unusual words, e.g. '\"c++\"')"
        ) from None
    shifts = _shifts(conn)
    hits = Hits(Hit(row_to_paper(r, shifts), r["marked"], r["score"]) for r in rows)
    hits.total = total
    if match and "{" not in match:  # a column filter (title:x) is the fields' alone
        _add_note_hits(conn, steps, hits, limit, shifts)
    states = reading_states(conn)
    for hit in hits if states else []:
        hit.paper = _as_read(hit.paper, states)
    return hits


def _add_note_hits(
    conn: sqlite3.Connection,
    steps: Plan,
    hits: Hits,
    limit: int | None,
    shifts: dict[str, int],
) -> None:
    """Add the papers whose reading note matches the words and whose own fields do not,
    after every paper whose fields do (a note is the reader's word, not the paper's),
    ranked among themselves by bm25; hits.total counts them too."""
    match = str(steps.match)
    source = (
        "from notes_fts join notes n on n.rowid = notes_fts.rowid "
        "join papers p on p.key = n.key where notes_fts match ? "
        "and p.rowid not in (select rowid from papers_fts where papers_fts match ?)"
    )
    params: list[Any] = [match, match]
    if steps.excluded:  # a word excluded from the paper's own fields excludes it here too
        source += " and p.rowid not in (select rowid from papers_fts where papers_fts match ?)"
        params.append(" OR ".join(steps.excluded))
    source += "".join(f" and {clause}" for clause in steps.where)
    params += steps.params
    room = None if limit is None else max(0, limit - len(hits))
    sql = f"select p.*, bm25(notes_fts) as score, p.title as marked {source}"
    sql += " order by score, p.year desc, p.key" + (" limit ?" if room is not None else "")
    rows = conn.execute(sql, [*params, *([room] if room is not None else [])]).fetchall()
    count = len(rows)
    if room is not None and count == room:
        count = conn.execute(f"select count(*) {source}", params).fetchone()[0]
    hits.extend(Hit(row_to_paper(r, shifts), r["marked"], r["score"]) for r in rows)
    hits.total += count


def reading_states(conn: sqlite3.Connection) -> dict[str, sqlite3.Row]:
    """The reader's entries (data/reading.yaml) by key: status, started_on, read_on."""
    rows = conn.execute(
        "select key, status, started_on, read_on, queued from reading where status is not null"
    )
    return {r[0]: r for r in rows}


def with_reading(conn: sqlite3.Connection, papers: list[Paper]) -> list[Paper]:
    """The papers with the reader's status and read_on in place of the catalog's own
    (which counts only for papers the reader's file does not list)."""
    states = reading_states(conn)
    return [_as_read(p, states) for p in papers] if states else papers


def _as_read(paper: Paper, states: dict[str, sqlite3.Row]) -> Paper:
    from dataclasses import replace

    state = states.get(paper.key)
    return paper if state is None else replace(paper, status=state[1], read_on=state[3])


def _shifts(conn: sqlite3.Connection) -> dict[str, int]:
    from catalog.index.database import line_shifts

    return line_shifts(conn)


def get(conn: sqlite3.Connection, key: str) -> Paper:
    """The paper with this key; PaperNotFound suggests the closest key."""
    row = conn.execute("select * from papers where key = ?", (key,)).fetchone()
    if row is None:
        hint = hint_for(key, keys(conn))
        raise PaperNotFound(f"no paper with key '{key}'" + (f"; {hint}" if hint else ""))
    return with_reading(conn, [row_to_paper(row, _shifts(conn))])[0]


def keys(conn: sqlite3.Connection, prefix: str = "") -> list[str]:
    """Every citation key (starting with prefix), sorted."""
    rows = conn.execute(
        "select key from papers where key like ? escape '\\' order by key",
        (prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%",),
    )
    return [r[0] for r in rows]


def all_papers(conn: sqlite3.Connection) -> list[Paper]:
    """Every paper, newest year first, then venue and key."""
    cursor = conn.cursor()
    cursor.row_factory = None
    cursor.execute(f"select {_columns()} from papers order by year desc, venue, key")
    return with_reading(conn, list(_papers(cursor, _shifts(conn))))


def papers_by_key(conn: sqlite3.Connection, abstracts: bool = False) -> Iterator[Paper]:
    """Every paper in key order, one at a time, with what a BibTeX entry needs (and its
    line, for an error): no tags, status, dates or summary, the abstract only when asked.
    """
    cursor = conn.cursor()
    cursor.row_factory = None
    left_out = _NOT_IN_BIBTEX if abstracts else _NOT_IN_BIBTEX | {"abstract"}
    cursor.execute(f"select {_columns(left_out)} from papers order by key")
    yield from _papers(cursor, _shifts(conn))


def papers_where(
    conn: sqlite3.Connection, where: str, values: Sequence[Any], shifts: dict[str, int]
) -> list[Paper]:
    """The papers a condition on the papers table selects; shifts as
    catalog.index.database.line_shifts gives them."""
    cursor = conn.cursor()
    cursor.row_factory = None
    cursor.execute(f"select {_columns()} from papers where {where}", values)
    return list(_papers(cursor, shifts))


_LIST_FIELDS = frozenset(LIST_FIELDS)


def _papers(rows: Iterable[tuple], shifts: dict[str, int]) -> Iterator[Paper]:
    """Papers from rows of _PAPER_COLUMNS and the chunk, lines turned into the file's."""
    if not shifts:
        for *row, _chunk in rows:
            yield _paper(*row)
        return
    for *row, chunk in rows:
        row[-1] += shifts.get(chunk, 0)
        yield _paper(*row)


# The columns _paper takes, in its order.
_PAPER_COLUMNS = (
    "key",
    "title",
    "authors",
    "year",
    "venue",
    "et_al",
    "doi",
    "arxiv",
    "arxiv_class",
    "url",
    "pages",
    "articleno",
    "numpages",
    "volume",
    "number",
    "sources",
    "tags",
    "distinct",
    "status",
    "read_on",
    "added",
    "summary",
    "abstract",
    "booktitle",
    "editors",
    "publisher",
    "chapter",
    "line",
)
# _columns adds the year block (chunk) after them: a stored line plus its block's shift
# is the paper's line in the file (catalog.index.database.line_shifts).
_NOT_IN_BIBTEX = frozenset({"sources", "tags", "distinct", "status", "read_on", "added", "summary"})


def _columns(left_out: Collection[str] = ()) -> str:
    """_PAPER_COLUMNS for a select, each left out read as null."""
    return ", ".join(["null" if c in left_out else f'"{c}"' for c in _PAPER_COLUMNS] + ['"chunk"'])


def _paper(
    key: str,
    title: str,
    authors: str,
    year: int,
    venue: str,
    et_al: int,
    doi: str | None,
    arxiv: str | None,
    arxiv_class: str | None,
    url: str | None,
    pages: str | None,
    articleno: str | None,
    numpages: str | None,
    volume: str | None,
    number: str | None,
    sources: str | None,
    tags: str | None,
    distinct: str | None,
    status: str | None,
    read_on: str | None,
    added: str | None,
    summary: str | None,
    abstract: str | None,
    booktitle: str | None,
    editors: str | None,
    publisher: str | None,
    chapter: str | None,
    line: int,
) -> Paper:
    """A Paper from the columns of _PAPER_COLUMNS, in their order (a column left out
    gives the field's default); row_to_paper reads a Row through it."""
    lists = _json_lists
    return Paper(
        key,
        title,
        lists(authors),
        year,
        venue,
        bool(et_al),
        doi,
        arxiv,
        arxiv_class,
        url,
        pages,
        articleno,
        numpages,
        volume,
        number,
        lists(sources),
        lists(tags),
        lists(distinct),
        status or DEFAULT_STATUS,
        read_on,
        added,
        summary,
        abstract,
        booktitle,
        lists(editors),
        publisher,
        chapter,
        line,
    )


def _json_lists(text: str | None) -> list[str]:
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
    return json.loads(text)


def stats(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """Paper counts per year, venue, tag and status."""

    def counts(sql: str) -> dict[str, int]:
        return {str(k): n for k, n in conn.execute(sql)}

    return {
        "year": counts("select year, count(*) from papers group by year order by year desc"),
        "venue": counts(
            "select venue, count(*) n from papers group by venue order by n desc, venue"
        ),
        "tag": counts("select tag, count(*) n from tags group by tag order by n desc, tag"),
        "status": counts(
            "select coalesce(r.status, p.status) s, count(*) n from papers p "
            "left join reading r on r.key = p.key group by s order by n desc"
        ),
    }


def venue(conn: sqlite3.Connection, short: str) -> dict[str, Any] | None:
    """One registry venue as stored in the index, or None."""
    row = conn.execute("select * from venues where short = ?", (short,)).fetchone()
    return dict(row) if row is not None else None


def venues(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The venue registry with the number of papers at each venue."""
    sql = (
        "select v.*, (select count(*) from papers p where p.venue = v.short) as papers "
        "from venues v order by v.short collate nocase"
    )
    return [dict(r) for r in conn.execute(sql)]


def catalog_status(conn: sqlite3.Connection, key: str) -> tuple[str, str | None] | None:
    """The status and read_on the catalog itself still holds for a paper (written before
    reading state had its own file), or None when it holds none."""
    row = conn.execute("select status, read_on from papers where key = ?", (key,)).fetchone()
    if row is None or (row[0] in (None, DEFAULT_STATUS) and not row[1]):
        return None
    return row[0] or DEFAULT_STATUS, row[1]


def queue(conn: sqlite3.Connection) -> tuple[list[Paper], list[Paper]]:
    """The papers being read (longest first), then the to-read queue: the papers moved to
    its top in their order, then the rest oldest first (added date, then year; a paper
    without an added date came with the seed catalog, the oldest)."""
    states = {r[0]: r for r in conn.execute("select key, started_on, queued from reading")}
    reading = [h.paper for h in search(conn, "status:reading")]
    reading.sort(key=lambda p: (states[p.key][1] or "" if p.key in states else "", p.key))
    waiting = [h.paper for h in search(conn, "status:to-read")]

    def place(paper: Paper) -> tuple:
        queued = states[paper.key][2] if paper.key in states else None
        if queued is not None:
            return (0, queued, "", 0, "")
        return (1, 0, paper.added or "", paper.year, paper.key)

    waiting.sort(key=place)
    return reading, waiting
