"""Reads of the index: search (the plan catalog.index.terms makes, ranked), one paper,
every paper, counts, venues, the reader's queue. Rows become Papers through
catalog.index.rows; the reader's own state (data/reading.yaml) is read beside them.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from catalog.errors import PaperNotFound, QueryError
from catalog.hints import hint_for
from catalog.index.rows import columns, paper_of, papers_of
from catalog.index.schema import STEMMED
from catalog.index.terms import (
    CURATED_COLUMNS,
    NEAR_DISTANCE,
    Plan,
    Query,
    check_names,
    parse,
    plan,
    query_stems,
)
from catalog.index.terms import prefix_query as prefix_query  # the search command widens
from catalog.index.words import WORD_RE, stem
from catalog.model import DEFAULT_STATUS, Paper, fold

# bm25 weights, in FTS column order (catalog.index.schema.FTS_COLUMNS): title, authors, tags,
# summary, venue_name, abstract. The title and the curator's tags say what a paper is
# about; an abstract mentions much in passing.
WEIGHTS = (10.0, 3.0, 5.0, 1.0, 2.0, 0.5)
# Tags and summaries are the curator's word on what a paper is about. bm25 alone favours
# short, title-only records (an imported bibliography's "Caffe: ... Feature Embedding"
# over EVStore, whose summary makes it longer), so a curated paper (one with tags or a
# summary) that matches in what it is about (terms.CURATED_COLUMNS) has its score
# multiplied by this; between curated papers the column weights decide.
CURATED_BOOST = 2.0
# A paper whose text has the query's words side by side (terms.Plan.near) is about what
# they name together: its score is multiplied by this.
NEAR_BOOST = 2.0
MARK_START, MARK_END = "\x02", "\x03"
# FTS5's bm25 constants (fixed in SQLite's fts5_aux.c), for the site's ranking().
BM25_K1, BM25_B = 1.2, 0.75


@dataclass
class Hit:
    """A search result: the paper and its title with match markers."""

    paper: Paper
    marked_title: str
    score: float = 0.0


# A one-word prefix term as terms.fts_term writes it, with or without a column filter.
_PREFIX_TERM_RE = re.compile(r'^(?P<column>\{\w+\} : )?"(?P<word>[^" ]+)"\*\Z')
# A prefix that begins more words than this is short enough for their stems to begin
# with it too ("emb*"): it is left as it is.
_MAX_WIDENED = 50


def ranking() -> dict[str, object]:
    """How search ranks, for the site's All-papers box to rank as this module does: the
    searched fields in the index's column order with their bm25 weights, FTS5's bm25
    constants, the boosts and which columns count as curated, the NEAR distance, and
    how many words a prefix may begin before it is left unwidened."""
    names = list(STEMMED)
    return {
        "columns": names,
        "weights": list(WEIGHTS),
        "k1": BM25_K1,
        "b": BM25_B,
        "curated": CURATED_BOOST,
        "curatedColumns": [list(STEMMED.values()).index(c) for c in CURATED_COLUMNS],
        "near": NEAR_BOOST,
        "nearDistance": NEAR_DISTANCE,
        "widened": _MAX_WIDENED,
    }


def _widen(conn: sqlite3.Connection, term: str) -> str:
    """A prefix term widened to the stems of the indexed words it begins: the index
    holds stems ("embedding" -> "embed"), which "embedd*" alone would miss."""
    m = _PREFIX_TERM_RE.match(term)
    if not m:
        return term
    low = fold(m.group("word"))
    high = low[:-1] + chr(ord(low[-1]) + 1)
    found = [
        r[0]
        for r in conn.execute(
            "select word from words where word >= ? and word < ? limit ?",
            (low, high, _MAX_WIDENED + 1),
        )
    ]
    if not found or len(found) > _MAX_WIDENED:
        return term
    stemmed = dict.fromkeys(stem(w) for w in found)
    alternatives = " OR ".join(
        [term.removeprefix(m.group("column") or ""), *(f'"{w}"' for w in stemmed)]
    )
    return f"{m.group('column') or ''}({alternatives})"


def _marked(title: str, query: Query) -> str:
    """The title with the words the query's positive words and prefixes match marked."""
    wanted, prefixes = query_stems(query)

    def mark(m: re.Match[str]) -> str:
        word = fold(m.group(0))
        if stem(word) in wanted or any(word.startswith(p) for p in prefixes):
            return MARK_START + m.group(0) + MARK_END
        return m.group(0)

    return WORD_RE.sub(mark, title) if wanted or prefixes else title


class Hits(list[Hit]):
    """Search results, best first; total counts every paper the query matches, also
    those a limit left out."""

    total: int = 0


def search(conn: sqlite3.Connection, text: str, limit: int | None = None) -> Hits:
    """Papers matching a query, best first (or newest first when there are no words)."""
    query = parse(text)
    check_names(conn, query)
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
            f"then {CURATED_BOOST} else 1.0 end)"
            + (
                " * (case when p.rowid in (select rowid from papers_fts where papers_fts "
                f"match ?) then {NEAR_BOOST} else 1.0 end)"
                if steps.near
                else ""
            )
            + " as score, p.title as marked"
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
    ranking = [steps.curated, *([steps.near] if steps.near else [])]
    selected = [*ranking, *params] if match else list(params)
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
    hits = Hits(Hit(paper_of(r, shifts), _marked(r["marked"], query), r["score"]) for r in rows)
    hits.total = total
    if match and "{" not in match:  # a column filter (title:x) is the fields' alone
        _add_note_hits(conn, steps, hits, limit, shifts)
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
    hits.extend(Hit(paper_of(r, shifts), r["marked"], r["score"]) for r in rows)
    hits.total += count


def reading_states(conn: sqlite3.Connection) -> dict[str, sqlite3.Row]:
    """The reader's entries (data/reading.yaml) by key: status, started_on, read_on."""
    rows = conn.execute(
        "select key, status, started_on, read_on, queued from reading where status is not null"
    )
    return {r[0]: r for r in rows}


def reading_of(conn: sqlite3.Connection, key: str) -> dict[str, str | None]:
    """A paper's reading state: its status (to-read when the reader's file does not list
    it), the day the reader started it and the day they read it."""
    row = conn.execute(
        "select status, started_on, read_on from reading where key = ? and status is not null",
        (key,),
    ).fetchone()
    status, started_on, read_on = row if row else (DEFAULT_STATUS, None, None)
    return {"status": status, "started_on": started_on, "read_on": read_on}


def _shifts(conn: sqlite3.Connection) -> dict[str, int]:
    from catalog.index.update import line_shifts

    return line_shifts(conn)


def get(conn: sqlite3.Connection, key: str) -> Paper:
    """The paper with this key; PaperNotFound suggests the closest key."""
    row = conn.execute("select * from papers where key = ?", (key,)).fetchone()
    if row is None:
        hint = hint_for(key, keys(conn))
        raise PaperNotFound(f"no paper with key '{key}'" + (f"; {hint}" if hint else ""))
    return paper_of(row, _shifts(conn))


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
    cursor.execute(f"select {columns()} from papers order by year desc, venue, key")
    return list(papers_of(cursor, _shifts(conn)))


def papers_by_key(conn: sqlite3.Connection, abstracts: bool = False) -> Iterator[Paper]:
    """Every paper in key order, one at a time, with what a BibTeX entry needs (and its
    line, for an error): no tags, dates or summary, the abstract only when asked.
    """
    cursor = conn.cursor()
    cursor.row_factory = None
    left_out = _NOT_IN_BIBTEX if abstracts else _NOT_IN_BIBTEX | {"abstract"}
    cursor.execute(f"select {columns(left_out)} from papers order by key")
    yield from papers_of(cursor, _shifts(conn))


def papers_where(
    conn: sqlite3.Connection, where: str, values: Sequence[Any], shifts: dict[str, int]
) -> list[Paper]:
    """The papers a condition on the papers table selects; shifts as
    catalog.index.update.line_shifts gives them."""
    cursor = conn.cursor()
    cursor.row_factory = None
    cursor.execute(f"select {columns()} from papers where {where}", values)
    return list(papers_of(cursor, shifts))


# What a BibTeX entry has no use for.
_NOT_IN_BIBTEX = frozenset({"sources", "tags", "distinct", "added", "checked", "summary"})


def stats(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """Paper counts per year, venue, tag and status."""

    def counts(sql: str, params: Sequence[Any] = ()) -> dict[str, int]:
        return {str(k): n for k, n in conn.execute(sql, params)}

    return {
        "year": counts("select year, count(*) from papers group by year order by year desc"),
        "venue": counts(
            "select venue, count(*) n from papers group by venue order by n desc, venue"
        ),
        "tag": counts("select tag, count(*) n from tags group by tag order by n desc, tag"),
        "status": counts(
            "select coalesce(r.status, ?) s, count(*) n from papers p "
            "left join reading r on r.key = p.key group by s order by n desc",
            (DEFAULT_STATUS,),
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
