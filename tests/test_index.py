"""The SQLite index: a real file, refreshed by content hash, updated per year block."""

from __future__ import annotations

import sqlite3

import pytest

from catalog import index, query
from catalog.errors import InvalidCatalogError
from catalog.source import split_chunks
from tests.conftest import PAPERS, write_catalog


def rows(paths) -> list[tuple]:
    conn = sqlite3.connect(paths.db)
    # The table keeps lines less their year block's shift: compare the lines in the file.
    shifts = index.line_shifts(conn)
    out = [(*row[:-1], row[-1] + shifts.get(str(row[1]), 0)) for row in conn.execute(
        "select key, year, venue, title, authors, tags, line from papers order by key")]
    out += conn.execute("select * from authors order by paper, position").fetchall()
    out += conn.execute("select * from tags order by paper, tag").fetchall()
    # Rowids differ after an update; the FTS rows must still match their papers.
    out += conn.execute("select p.key, f.* from papers_fts f join papers p on p.rowid = f.rowid "
                        "order by p.key").fetchall()
    out += conn.execute("select p.key from papers p join papers_fts f on f.rowid = p.rowid "
                        "where papers_fts match 'caching OR moe OR embedding' "
                        "order by p.key").fetchall()
    return out


def test_build_creates_tables(paths):
    result = index.refresh(paths)
    assert result.action == "built" and result.papers == 3
    conn = sqlite3.connect(paths.db)
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
    assert {"papers", "authors", "tags", "venues", "vocabulary", "meta", "papers_fts"} <= tables
    assert conn.execute("select name from venues where short='OSDI'").fetchone()[0].startswith(
        "USENIX")
    assert conn.execute("select venue_name from papers where key='lai2023adaembed'").fetchone()[
        0].startswith("USENIX")


def test_refresh_is_a_noop_when_unchanged(paths):
    index.refresh(paths)
    before = paths.db.stat().st_mtime_ns
    assert index.refresh(paths).action == "fresh"
    assert paths.db.stat().st_mtime_ns == before


def registry_rows(paths) -> list[tuple]:
    conn = sqlite3.connect(paths.db)
    out = conn.execute("select short, kind, name, publisher from venues order by short").fetchall()
    out += conn.execute("select * from vocabulary order by tag").fetchall()
    out += conn.execute("select key, venue_name from papers order by key").fetchall()
    out += conn.execute("select p.key from papers p join papers_fts f on f.rowid = p.rowid "
                        "where papers_fts match 'Renamed' order by p.key").fetchall()
    return out


def test_registry_change_updates_in_place_as_a_build_would(paths, tmp_path):
    index.refresh(paths)
    paths.tags.write_text(paths.tags.read_text() + "sharding: Splitting tables\n")
    venues = paths.venues.read_text().replace(
        "USENIX Symposium on Operating Systems Design and Implementation", "Renamed Symposium")
    paths.venues.write_text(venues)
    assert index.refresh(paths).action == "updated"  # a new tag costs no full build
    fresh = write_catalog(tmp_path / "again", paths.catalog.read_text(), venues=venues,
                          tags=paths.tags.read_text())
    index.refresh(fresh)
    assert registry_rows(paths) == registry_rows(fresh)
    assert ("lai2023adaembed",) in registry_rows(paths)
    assert index.refresh(paths).action == "fresh"


def test_edit_updates_only_its_year_and_matches_a_full_build(paths, tmp_path):
    index.refresh(paths)
    text = paths.catalog.read_text()
    # Grow 2023 by two lines so the lines of 2021 shift too.
    text = text.replace('      status: read\n', '      status: read\n      summary: "Adaptive sizes."\n'
                        '      volume: "2"\n')
    paths.catalog.write_text(text)
    result = index.refresh(paths)
    assert result.action == "updated" and result.years == ["2023"]
    incremental = rows(paths)
    fresh = write_catalog(tmp_path / "again", text)
    index.refresh(fresh)
    assert incremental == rows(fresh)
    conn = index.connect(paths)
    assert query.get(conn, "he2021fastmoe").line == text.splitlines().index(
        "    - key: he2021fastmoe") + 1


def test_new_and_removed_year_blocks(paths, tmp_path):
    index.refresh(paths)
    text = paths.catalog.read_text() + ("2020:\n  OSDI:\n    - key: x2020y\n      title: \"Y\"\n"
                                        "      authors: [X Z]\n")
    paths.catalog.write_text(text)
    assert index.refresh(paths).papers == 4
    text = text.replace(text[text.index("2021:"):text.index("2020:")], "")
    paths.catalog.write_text(text)
    index.refresh(paths)
    fresh = write_catalog(tmp_path / "again", text)
    index.refresh(fresh)
    assert rows(paths) == rows(fresh)


def test_key_moved_between_years_is_not_a_duplicate(paths):
    index.refresh(paths)
    text = paths.catalog.read_text()
    block = text[text.index("  arXiv:"):]
    text = text.replace(block, "").replace("2021:\n", "2021:\n  OSDI: []\n")
    text = text.replace("  OSDI:\n    - key: lai", block + "  OSDI:\n    - key: lai")
    paths.catalog.write_text(text)
    index.refresh(paths)
    assert query.get(index.connect(paths), "he2021fastmoe").year == 2023


def test_duplicate_key_across_years_is_refused_and_index_kept(paths):
    index.refresh(paths)
    text = paths.catalog.read_text().replace("key: he2021fastmoe", "key: lai2023adaembed")
    paths.catalog.write_text(text)
    with pytest.raises(InvalidCatalogError, match="duplicate key 'lai2023adaembed'"):
        index.refresh(paths)
    conn = sqlite3.connect(paths.db)
    assert conn.execute("select count(*) from papers").fetchone()[0] == 3


def test_unreadable_catalog_names_the_file(tmp_path):
    paths = write_catalog(tmp_path)
    paths.catalog.write_bytes(b"2023:\n  OSDI: \xff\n")
    with pytest.raises(InvalidCatalogError, match="not valid UTF-8"):
        index.refresh(paths)
    paths.catalog.unlink()
    with pytest.raises(InvalidCatalogError, match="catalog file not found"):
        index.refresh(paths)


def test_split_chunks_keeps_every_byte():
    chunks = split_chunks(PAPERS)
    assert [c.label for c in chunks] == ["2023", "2021"]
    assert "".join(c.text for c in chunks) == PAPERS
    assert chunks[0].text.startswith("# A tiny catalog")
    assert split_chunks("{2023: {}}") is None


def test_datasette_can_open_it(paths):
    import asyncio

    import datasette.app as datasette  # a test dependency: missing, the test fails

    index.refresh(paths)
    ds = datasette.Datasette([str(paths.db)])

    async def fetch():
        return await ds.client.get("/catalog/papers.json?_shape=array")

    response = asyncio.run(fetch())
    assert response.status_code == 200
    assert {r["key"] for r in response.json()} == {"kurniawan2023evstore", "lai2023adaembed",
                                                    "he2021fastmoe"}


def test_a_venue_field_the_table_lacks_costs_a_build_that_has_it(paths, tmp_path):
    index.refresh(paths)
    venues = paths.venues.read_text().replace("  kind: journal\n",
                                              "  kind: journal\n  issn: 2150-8097\n")
    paths.venues.write_text(venues)
    assert index.refresh(paths).action == "built"
    fresh = write_catalog(tmp_path / "again", paths.catalog.read_text(), venues=venues)
    index.refresh(fresh)
    assert registry_rows(paths) == registry_rows(fresh)
    conn = sqlite3.connect(paths.db)
    assert conn.execute("select issn from venues where short = 'PVLDB'").fetchone() == (
        "2150-8097",)


def test_a_stamp_is_trusted_once_a_later_write_would_change_it():
    fine = {"catalog": [10, 5_123_456_789, 5_123_456_789, 7]}
    coarse = {"catalog": [10, 5_000_000_000, 5_000_000_000, 7]}
    # Sub-second times: a write more than a clock tick later gets another time.
    assert not index._trusted(fine, 5_123_456_789 + 40_000_000)
    assert index._trusted(fine, 5_123_456_789 + 60_000_000)
    # Whole seconds (a file system that keeps no finer time): a second must pass.
    assert not index._trusted(coarse, 5_000_000_000 + 900_000_000)
    assert index._trusted(coarse, 5_000_000_000 + 1_100_000_000)


def test_a_same_size_rewrite_right_after_an_index_update_is_seen(paths):
    index.refresh(paths)
    text = paths.catalog.read_text()
    paths.catalog.write_text(text.replace("FastMoE", "FastMoX"))  # same size, same tick
    assert index.refresh(paths).action == "updated"
    assert query.get(index.connect(paths), "he2021fastmoe").title.startswith("FastMoX")
