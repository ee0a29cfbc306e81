"""The SQLite index: a real file, refreshed by content hash, updated per year block."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.data.reader import split_chunks
from catalog.errors import InvalidCatalogError
from catalog.index import database, query, schema
from tests.conftest import PAPERS, write_catalog


def rows(paths) -> list[tuple]:
    conn = sqlite3.connect(paths.db)
    # The table keeps lines less their year block's shift: compare the lines in the file.
    shifts = database.line_shifts(conn)
    out = [
        (*row[:-1], row[-1] + shifts.get(str(row[1]), 0))
        for row in conn.execute(
            "select key, year, venue, title, authors, tags, line from papers order by key"
        )
    ]
    out += conn.execute("select * from authors order by paper, position").fetchall()
    out += conn.execute("select * from tags order by paper, tag").fetchall()
    # Rowids differ after an update; the FTS rows must still match their papers.
    out += conn.execute(
        "select p.key, f.* from papers_fts f join papers p on p.rowid = f.rowid order by p.key"
    ).fetchall()
    out += conn.execute(
        "select p.key from papers p join papers_fts f on f.rowid = p.rowid "
        "where papers_fts match 'caching OR moe OR embedding' "
        "order by p.key"
    ).fetchall()
    return out


def test_build_creates_tables(paths):
    result = database.refresh(paths)
    assert result.action == "built" and result.papers == 3
    conn = sqlite3.connect(paths.db)
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
    assert {"papers", "authors", "tags", "venues", "vocabulary", "meta", "papers_fts"} <= tables
    assert (
        conn.execute("select name from venues where short='OSDI'")
        .fetchone()[0]
        .startswith("USENIX")
    )
    assert (
        conn.execute("select venue_name from papers where key='lai2023adaembed'")
        .fetchone()[0]
        .startswith("USENIX")
    )


def test_refresh_is_a_noop_when_unchanged(paths):
    database.refresh(paths)
    before = paths.db.stat().st_mtime_ns
    assert database.refresh(paths).action == "fresh"
    assert paths.db.stat().st_mtime_ns == before


def registry_rows(paths) -> list[tuple]:
    conn = sqlite3.connect(paths.db)
    out = conn.execute("select short, kind, name, publisher from venues order by short").fetchall()
    out += conn.execute("select * from vocabulary order by tag").fetchall()
    out += conn.execute("select key, venue_name from papers order by key").fetchall()
    out += conn.execute(
        "select p.key from papers p join papers_fts f on f.rowid = p.rowid "
        "where papers_fts match 'Renamed' order by p.key"
    ).fetchall()
    return out


def test_registry_change_updates_in_place_as_a_build_would(paths, tmp_path):
    database.refresh(paths)
    paths.tags.write_text(paths.tags.read_text() + "sharding: Splitting tables\n")
    venues = paths.venues.read_text().replace(
        "USENIX Symposium on Operating Systems Design and Implementation", "Renamed Symposium"
    )
    paths.venues.write_text(venues)
    assert database.refresh(paths).action == "updated"  # a new tag costs no full build
    fresh = write_catalog(
        tmp_path / "again", paths.catalog.read_text(), venues=venues, tags=paths.tags.read_text()
    )
    database.refresh(fresh)
    assert registry_rows(paths) == registry_rows(fresh)
    assert ("lai2023adaembed",) in registry_rows(paths)
    assert database.refresh(paths).action == "fresh"


def test_edit_updates_only_its_year_and_matches_a_full_build(paths, tmp_path):
    database.refresh(paths)
    text = paths.catalog.read_text()
    # Grow 2023 by two lines so the lines of 2021 shift too.
    text = text.replace(
        "      status: read\n",
        '      status: read\n      summary: "Adaptive sizes."\n      volume: "2"\n',
    )
    paths.catalog.write_text(text)
    result = database.refresh(paths)
    assert result.action == "updated" and result.years == ["2023"]
    incremental = rows(paths)
    fresh = write_catalog(tmp_path / "again", text)
    database.refresh(fresh)
    assert incremental == rows(fresh)
    conn = database.connect(paths)
    assert (
        query.get(conn, "he2021fastmoe").line
        == text.splitlines().index("    - key: he2021fastmoe") + 1
    )


def test_new_and_removed_year_blocks(paths, tmp_path):
    database.refresh(paths)
    text = paths.catalog.read_text() + (
        '2020:\n  OSDI:\n    - key: x2020y\n      title: "Y"\n      authors: [X Z]\n'
    )
    paths.catalog.write_text(text)
    assert database.refresh(paths).papers == 4
    text = text.replace(text[text.index("2021:") : text.index("2020:")], "")
    paths.catalog.write_text(text)
    database.refresh(paths)
    fresh = write_catalog(tmp_path / "again", text)
    database.refresh(fresh)
    assert rows(paths) == rows(fresh)


def test_key_moved_between_years_is_not_a_duplicate(paths):
    database.refresh(paths)
    text = paths.catalog.read_text()
    block = text[text.index("  arXiv:") :]
    text = text.replace(block, "").replace("2021:\n", "2021:\n  OSDI: []\n")
    text = text.replace("  OSDI:\n    - key: lai", block + "  OSDI:\n    - key: lai")
    paths.catalog.write_text(text)
    database.refresh(paths)
    assert query.get(database.connect(paths), "he2021fastmoe").year == 2023


def test_duplicate_key_across_years_is_refused_and_index_kept(paths):
    database.refresh(paths)
    text = paths.catalog.read_text().replace("key: he2021fastmoe", "key: lai2023adaembed")
    paths.catalog.write_text(text)
    with pytest.raises(InvalidCatalogError, match="duplicate key 'lai2023adaembed'"):
        database.refresh(paths)
    conn = sqlite3.connect(paths.db)
    assert conn.execute("select count(*) from papers").fetchone()[0] == 3


def test_unreadable_catalog_names_the_file(tmp_path):
    paths = write_catalog(tmp_path)
    paths.catalog.write_bytes(b"2023:\n  OSDI: \xff\n")
    with pytest.raises(InvalidCatalogError, match="not valid UTF-8"):
        database.refresh(paths)
    paths.catalog.unlink()
    with pytest.raises(InvalidCatalogError, match="catalog file not found"):
        database.refresh(paths)


def test_split_chunks_keeps_every_byte():
    chunks = split_chunks(PAPERS)
    assert [c.label for c in chunks] == ["2023", "2021"]
    assert "".join(c.text for c in chunks) == PAPERS
    assert chunks[0].text.startswith("# A tiny catalog")
    assert split_chunks("{2023: {}}") is None


def test_datasette_can_open_it(paths):
    import asyncio

    import datasette.app as datasette  # a test dependency: missing, the test fails

    database.refresh(paths)
    ds = datasette.Datasette([str(paths.db)])

    async def fetch():
        return await ds.client.get("/catalog/papers.json?_shape=array")

    response = asyncio.run(fetch())
    assert response.status_code == 200
    assert {r["key"] for r in response.json()} == {
        "kurniawan2023evstore",
        "lai2023adaembed",
        "he2021fastmoe",
    }


# ------------------------------------------------ the full build, against the old one


def reference_build(paths, db_path) -> None:
    """The index as papers built it before issue 12: the whole file through PyYAML and the
    walk, every table and the full-text index written by sqlite-utils."""
    import json

    import sqlite_utils

    from catalog.data import reader
    from catalog.data.registry import load_tags, load_venues
    from catalog.model import fold, has_undecomposable

    text = paths.catalog.read_text(encoding="utf-8")
    papers, problems = reader.parse(text, "papers.yaml")
    assert not [p for p in problems if p.blocking]
    venues, vocabulary = load_venues(paths.venues), load_tags(paths.tags)
    names = {short: v.name for short, v in venues.items()}
    db = sqlite_utils.Database(db_path)
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["chunks"].create({"label": str, "digest": str, "start": int}, pk="label")
    db["venues"].create({"short": str, "kind": str, "name": str, "publisher": str}, pk="short")
    db["vocabulary"].create({"tag": str, "description": str}, pk="tag")
    db["words"].create({"word": str}, pk="word")
    columns = {
        "key": str,
        "year": int,
        "venue": str,
        "venue_name": str,
        "title": str,
        "authors": str,
        "tags": str,
        "status": str,
        "doi": str,
        "arxiv": str,
        "arxiv_class": str,
        "url": str,
        "pages": str,
        "volume": str,
        "number": str,
        "sources": str,
        "et_al": int,
        "read_on": str,
        "added": str,
        "summary": str,
        "abstract": str,
        "line": int,
        "chunk": str,
        "folded": str,
        "booktitle": str,
        "editors": str,
        "publisher": str,
        "chapter": str,
        "articleno": str,
        "numpages": str,
        "distinct": str,
    }
    db["papers"].create(columns, pk="key")
    db["authors"].create(
        {"paper": str, "position": int, "name": str, "folded": str},
        pk=("paper", "position"),
        foreign_keys=[("paper", "papers", "key")],
    )
    db["tags"].create(
        {"paper": str, "tag": str}, pk=("paper", "tag"), foreign_keys=[("paper", "papers", "key")]
    )
    # The reader's state and notes (empty: the shipped catalog has neither).
    db["reading"].create(
        {"key": str, "status": str, "started_on": str, "read_on": str, "queued": int}, pk="key"
    )
    db["notes"].create({"key": str, "path": str, "body": str}, pk="key")
    db["papers"].create_index(["year"])
    db["tags"].create_index(["tag"])
    db["authors"].create_index(["folded"])
    db["venues"].insert_all((v.to_dict() for v in venues.values()), alter=True)
    db["vocabulary"].insert_all({"tag": t, "description": d} for t, d in vocabulary.items())
    words = set()
    for p in papers:
        joined = " ".join([p.title, *p.authors])
        db["papers"].insert(
            {
                "key": p.key,
                "year": p.year,
                "venue": p.venue,
                "venue_name": names.get(p.venue),
                "title": p.title,
                "authors": json.dumps(p.authors, ensure_ascii=False),
                "tags": json.dumps(p.tags, ensure_ascii=False),
                "status": p.status,
                "doi": p.doi,
                "arxiv": p.arxiv,
                "arxiv_class": p.arxiv_class,
                "url": p.url,
                "pages": p.pages,
                "volume": p.volume,
                "number": p.number,
                "sources": json.dumps(p.sources, ensure_ascii=False),
                "et_al": int(p.et_al),
                "read_on": p.read_on,
                "added": p.added,
                "summary": p.summary,
                "abstract": p.abstract,
                "line": p.line,
                "chunk": str(p.year),
                "folded": fold(joined) if has_undecomposable(joined) else None,
                "booktitle": p.booktitle,
                "editors": json.dumps(p.editors, ensure_ascii=False),
                "publisher": p.publisher,
                "chapter": p.chapter,
                "articleno": p.articleno,
                "numpages": p.numpages,
                "distinct": json.dumps(p.distinct, ensure_ascii=False),
            }
        )
        db["authors"].insert_all(
            {"paper": p.key, "position": i, "name": a, "folded": fold(a)}
            for i, a in enumerate(p.authors)
        )
        db["tags"].insert_all({"paper": p.key, "tag": t} for t in dict.fromkeys(p.tags))
        searched = [p.title, *p.authors, *p.tags, p.summary, names.get(p.venue), p.abstract]
        for token in " ".join(t for t in searched if t).split():
            words.update(re.findall(r"[^\W_]+", fold(token)))
    db["words"].insert_all({"word": w} for w in words)
    db["meta"].insert_all(
        [
            {"key": "schema", "value": database.SCHEMA_VERSION},
            {"key": "papers", "value": str(len(papers))},
        ]
    )
    db["chunks"].insert_all(
        {"label": c.label, "digest": c.digest, "start": c.start} for c in reader.split_chunks(text)
    )
    db["papers"].enable_fts(
        schema.FTS_COLUMNS, fts_version="FTS5", tokenize=schema.TOKENIZE, create_triggers=True
    )
    db["notes"].enable_fts(
        ["body"], fts_version="FTS5", tokenize=schema.TOKENIZE, create_triggers=True
    )
    trigger = db.execute("select sql from sqlite_master where name = 'papers_au'").fetchone()[0]
    db.execute('drop trigger "papers_au"')
    listed = ", ".join(f'"{c}"' for c in schema.FTS_COLUMNS)
    db.execute(trigger.replace('AFTER UPDATE ON "papers"', f'AFTER UPDATE OF {listed} ON "papers"'))
    db.conn.commit()


def contents(db_path) -> dict[str, list]:
    conn = sqlite3.connect(db_path)
    out = {
        "schema": sorted(
            conn.execute(
                "select type, name, tbl_name, sql from sqlite_master where sql is not null"
            ).fetchall()
        )
    }
    for name in ("papers", "authors", "tags", "venues", "vocabulary", "chunks"):
        out[name] = conn.execute(f"select rowid, * from {name} order by rowid").fetchall()
    out["words"] = conn.execute("select word from words order by word").fetchall()  # a set
    # The build's record of itself: hash, registry, schema, count (not when it ran).
    out["meta"] = conn.execute(
        "select * from meta where key in ('papers', 'schema') order by key"
    ).fetchall()
    for words in (
        "embedding",
        "cach*",
        '"parameter server"',
        "zhang OR müller",
        "moe NOT gpu",
        "preusser",
        "abstract : memory",
        "tags : training",
    ):
        out[words] = conn.execute(
            "select rowid, rank from papers_fts where papers_fts match ? order by rank, rowid",
            (words,),
        ).fetchall()
    return out


# A year block in a layout PyYAML reads but the fast reader leaves to it (another
# indentation, a value over two lines, a \u escape), and papers with accents.
ODD_YEAR = """\
2010:
  OSDI:
  - key: preusser2010odd
    title: "Caching \\u00e9mbeddings
      on two lines"
    authors: [Thomas Preußer, Søren Ødegaard, "Łukasz, Jr."]
    et_al: yes
    tags: [caching]
    abstract: An abstract about memory, with a colon:in it.
  Chapter:
    - key: ricci2010handbook
      title: "Recommender Systems: Introduction and Challenges"
      authors: [Francesco Ricci, Lior Rokach, Bracha Shapira]
      booktitle: Recommender Systems Handbook
      editors: [Francesco Ricci, Lior Rokach, "Bracha Shapira"]
      publisher: Springer
      chapter: "1"
      distinct: [cech2010plain]
  SOSP:
    - key: cech2010plain
      title: 'It''s Čech'
      authors: [Eduard Čech]
      sources: ["https://example.org/a#b"]
      summary: Plain text # and a comment
"""


@pytest.mark.slow
def test_full_build_equals_the_sqlite_utils_build(shipped, tmp_path):
    shipped.catalog.write_text(
        shipped.catalog.read_text(encoding="utf-8") + ODD_YEAR, encoding="utf-8"
    )
    assert database.rebuild(shipped).action == "built"
    reference_build(shipped, tmp_path / "reference.db")
    built, reference = contents(shipped.db), contents(tmp_path / "reference.db")
    assert built["papers"] and built["embedding"] and built["preusser"]
    assert built == reference
    # What search and show print, from the same rows.
    conn = database.connect(shipped)
    ref = sqlite3.connect(tmp_path / "reference.db")
    ref.row_factory = sqlite3.Row
    for words in ("embedding", "cach* year:2021..2023", "author:preusser", "tag:training"):
        assert [h.paper.key for h in query.search(conn, words)] == [
            h.paper.key for h in query.search(ref, words)
        ]
    assert query.get(conn, "preusser2010odd") == query.get(ref, "preusser2010odd")
    assert query.get(conn, "preusser2010odd").title == "Caching \u00e9mbeddings on two lines"


def test_full_build_reads_a_file_it_cannot_cut_as_a_whole(paths):
    # A quoted value running over a line that looks like a year: cut there, the blocks
    # do not read, and the whole file does.
    text = paths.catalog.read_text() + (
        '2020:\n  OSDI:\n    - key: x2020y\n      title: "A\n2019: B"\n      authors: [X Z]\n'
    )
    paths.catalog.write_text(text)
    assert database.rebuild(paths).papers == 4
    assert query.get(database.connect(paths), "x2020y").title == "A 2019: B"


def test_a_venue_field_the_table_lacks_costs_a_build_that_has_it(paths, tmp_path):
    database.refresh(paths)
    venues = paths.venues.read_text().replace(
        "  kind: journal\n", "  kind: journal\n  issn: 2150-8097\n"
    )
    paths.venues.write_text(venues)
    assert database.refresh(paths).action == "built"
    fresh = write_catalog(tmp_path / "again", paths.catalog.read_text(), venues=venues)
    database.refresh(fresh)
    assert registry_rows(paths) == registry_rows(fresh)
    conn = sqlite3.connect(paths.db)
    assert conn.execute("select issn from venues where short = 'PVLDB'").fetchone() == (
        "2150-8097",
    )


def test_a_stamp_is_trusted_once_a_later_write_would_change_it():
    fine = {"catalog": [10, 5_123_456_789, 5_123_456_789, 7]}
    coarse = {"catalog": [10, 5_000_000_000, 5_000_000_000, 7]}
    # Sub-second times: a write more than a clock tick later gets another time.
    assert not database._trusted(fine, 5_123_456_789 + 40_000_000)
    assert database._trusted(fine, 5_123_456_789 + 60_000_000)
    # Whole seconds (a file system that keeps no finer time): a second must pass.
    assert not database._trusted(coarse, 5_000_000_000 + 900_000_000)
    assert database._trusted(coarse, 5_000_000_000 + 1_100_000_000)


def test_a_same_size_rewrite_right_after_an_index_update_is_seen(paths):
    database.refresh(paths)
    text = paths.catalog.read_text()
    paths.catalog.write_text(text.replace("FastMoE", "FastMoX"))  # same size, same tick
    assert database.refresh(paths).action == "updated"
    assert query.get(database.connect(paths), "he2021fastmoe").title.startswith("FastMoX")


def test_a_file_read_only_whole_is_never_updated_a_block_at_a_time(paths):
    # A 2001 title runs over the '2002:' line and ends at a comment line of 2002's: the
    # blocks alone would read a paper b2002 that the file does not hold. A change to
    # the 2002 block must not be read alone (found by the quickread differential review).
    text = paths.catalog.read_text() + (
        '2001:\n  OSDI:\n    - key: a2001\n      title: "A\n'
        '2002:\n  SOSP:\n    - key: b2002\n      title: B\n    # "\n'
        "      authors: [X Z]\n"
    )
    paths.catalog.write_text(text)
    assert database.refresh(paths).papers == 4
    paths.catalog.write_text(text.replace("title: B\n", "title: C\n"))
    database.refresh(paths)
    conn = database.connect(paths)
    assert "b2002" not in query.keys(conn)
    assert query.get(conn, "a2001").title.startswith("A 2002: SOSP: - key: b2002 title: C")


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(
    st.one_of(
        st.lists(
            st.text(alphabet=st.sampled_from(list('ab ,"\\\x00\n\u00a0é[]')), max_size=6),
            max_size=4,
        ).map(lambda items: json.dumps(items, ensure_ascii=False)),
        st.text(alphabet=st.sampled_from(list('ab ,"\\[]1')), max_size=16).map(
            lambda inner: f'["{inner}"]'
        ),
    )
)
def test_list_columns_read_as_json_loads_reads_them(text: str) -> None:
    """The split-at-'", "' path gives json.loads's list, or leaves the text to it."""
    try:
        expected = json.loads(text)
    except ValueError:
        with pytest.raises(ValueError):
            query._json_lists(text)
        return
    assert query._json_lists(text) == expected
