"""The SQLite index: a real file, refreshed by content hash, updated per year block."""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.data.reader import cut, split_chunks
from catalog.errors import InvalidCatalogError
from catalog.index import database, freshness, query, schema
from catalog.index import rows as rows_module
from catalog.index.words import stems
from catalog.model import FIELDS, SPECS, Paper
from tests.conftest import PAPERS, REPO, VENUES, write_catalog


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
    # Wait until the files' stat can be trusted (their last change is older than the file
    # system's clock resolution): then the first refresh records it for good, and the
    # second has nothing to record (a stat taken sooner is recorded again later, a write
    # of the index this test is not about).
    import time

    from catalog.index import freshness

    while not freshness.trusted(freshness.stamps(paths), time.time_ns()):
        time.sleep(0.01)
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
        "where papers_fts match ? order by p.key",
        (stems("Renamed"),),  # the index holds stems (catalog.index.words)
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
        "      tags: [embedding, training]\n",
        '      tags: [embedding, training]\n      summary: "Adaptive sizes."\n      volume: "2"\n',
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
    assert [c.label for c in chunks] == ["", "2023", "2021"]  # '': the comments before
    assert "".join(c.text for c in chunks) == PAPERS
    assert chunks[0].text == "# A tiny catalog for tests.\n"
    assert chunks[1].text.startswith("2023:\n")
    assert split_chunks("{2023: {}}") is None


def test_bytes_and_text_are_cut_at_the_same_lines():
    text = PAPERS.replace("Storage", "St\u00f6rage \u00e9\u00e9").replace("\n", "\r\n")
    data = text.encode("utf-8")
    by_text, by_bytes = cut(text), cut(data)
    assert by_text is not None and by_bytes is not None
    assert [(c.label, c.line) for c in by_text] == [("", 1), ("2023", 2), ("2021", 17)]
    assert [(c.label, c.line) for c in by_bytes] == [(c.label, c.line) for c in by_text]
    assert [text[c.begin : c.end].encode() for c in by_text] == [
        data[c.begin : c.end] for c in by_bytes
    ]
    # An NBSP is no blank for YAML: its line starts a top-level key, no plain one.
    odd = text + "\u00a0line: a value\r\n"
    assert cut(odd) is None and cut(odd.encode("utf-8")) is None


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


# ------------------------------------------------ one table of fields, every one indexed

# A value of each kind of field (model.KINDS) that the catalog's rules take, and the
# fields whose own rules want more than their kind says. A new field of the table gets
# its kind's value here without a word: it is written, read, indexed and read back below.
BY_KIND = {
    "text": "Text of {name}",
    "url": "https://example.org/{name}",
    "date": "2024-05-06",
    "list": ["{name} one", "{name} two"],
    "bool": True,
}
VALID = {
    "doi": "10.1145/3600006.3613142",
    "arxiv": "2301.02959",
    "arxiv_class": "cs.DC",
    "pages": "281-294",
    "chapter": "3",
    "volume": "2",
    "number": "4",
    "tags": ["embedding", "caching"],
    "distinct": ["he2021fastmoe"],
    "sources": ["https://arxiv.org/abs/2301.02959"],
    "editors": ["Ann Editor", "Bo Editor"],
    "summary": "A summary\nover two lines.",
}
CHAPTER = "Chapter:\n  kind: collection\n  name: Book chapter\n"


def every_field_paper() -> Paper:
    """A book chapter (its book's fields apply) with every written field of the table set."""
    values = {
        name: VALID.get(name, BY_KIND[SPECS[name].kind])
        for name in FIELDS
        if name not in ("key", "title", "authors")
    }
    filled = {
        name: [v.format(name=name) for v in value]
        if isinstance(value, list)
        else value.format(name=name)
        if isinstance(value, str)
        else value
        for name, value in values.items()
    }
    return Paper("ricci2023every", "Every Field", ["Ann Author"], 2023, "Chapter", **filled)


def test_every_field_of_the_table_is_written_read_indexed_and_read_back(tmp_path):
    import sqlite_utils

    from catalog.check.rules import check
    from catalog.data import reader
    from catalog.edit import writer

    paths = write_catalog(tmp_path, venues=VENUES + CHAPTER)
    shutil.copy(REPO / "data" / "records.yaml", paths.records)  # arXiv is a primary record
    paper = every_field_paper()
    assert all(getattr(paper, name) not in (None, [], False) for name in FIELDS)
    with writer.edit(paths) as session:  # through the one door: judged by check's rules
        session.add(paper)
    assert not [p for p in check(paths) if "ricci2023every" in p.where]
    (read,) = [p for p in reader.load(paths.catalog) if p.key == paper.key]
    assert replace(read, line=0) == paper  # the file says what was written
    database.refresh(paths)
    db = sqlite_utils.Database(paths.db)
    assert db["papers"].columns_dict == schema.PAPER_COLUMNS
    assert set(SPECS) <= set(schema.PAPER_COLUMNS)
    assert db["papers"].detect_fts() == "papers_fts"  # sqlite-utils' own full-text search
    assert query.get(database.connect(paths), paper.key) == read
    # Every field again, changed in place: the index's update gives what a build gives.
    with writer.edit(paths) as session:
        session.update(paper.key, title="Every Field Again", summary="Shorter.", code=None)
    text = paths.catalog.read_text(encoding="utf-8")
    again = write_catalog(tmp_path / "again", text, venues=VENUES + CHAPTER)
    assert database.refresh(paths).action == "fresh"  # the edit brought it up to date
    database.refresh(again)
    assert rows(paths) == rows(again)
    got = query.get(database.connect(paths), paper.key)
    assert (got.title, got.summary, got.code) == ("Every Field Again", "Shorter.", None)


def test_the_schema_version_is_the_tables_digest():
    """A field added to the table changes the schema version: every index is rebuilt once."""
    grown = {**schema.PAPER_COLUMNS, "x": str}
    assert schema.version({**schema.TABLES, "papers": (grown, "key", False)}) != (
        schema.SCHEMA_VERSION
    )
    assert schema.version(dict(schema.TABLES)) == schema.SCHEMA_VERSION


# A year block in a layout PyYAML reads but the fast reader leaves to it (another
# indentation, a value over two lines, a \u escape), and papers with accents.
ODD_YEAR = """\
2010:
  OSDI:
  - key: preusser2010odd
    title: "Caching \\u00e9mbeddings
      on two lines"
    authors: [Thomas Preußer, Søren Ødegaard, "Łukasz, Jr."]
    et_al: true
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
def test_the_index_gives_back_the_papers_the_reader_reads(shipped):
    from catalog.data import reader

    shipped.catalog.write_text(
        shipped.catalog.read_text(encoding="utf-8") + ODD_YEAR, encoding="utf-8"
    )
    assert database.rebuild(shipped).action == "built"
    conn = database.connect(shipped)
    papers = reader.load(shipped.catalog)
    assert query.all_papers(conn) == sorted(papers, key=lambda p: (-p.year, p.venue, p.key))
    for words, first in (
        ("preusser", "preusser2010odd"),  # the folded column: ß spelled out
        ("author:ødegaard", "preusser2010odd"),
        ("cech", "cech2010plain"),  # accents stripped by the tokenizer
        ("memory year:2010", "preusser2010odd"),
    ):
        assert [h.paper.key for h in query.search(conn, words)][:1] == [first]
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
    assert not freshness.trusted(fine, 5_123_456_789 + 40_000_000)
    assert freshness.trusted(fine, 5_123_456_789 + 60_000_000)
    # Whole seconds (a file system that keeps no finer time): a second must pass.
    assert not freshness.trusted(coarse, 5_000_000_000 + 900_000_000)
    assert freshness.trusted(coarse, 5_000_000_000 + 1_100_000_000)


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
            rows_module.json_lists(text)
        return
    assert rows_module.json_lists(text) == expected
