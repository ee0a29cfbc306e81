"""The one test that reads the real data/papers.yaml: it must pass `papers check`."""

from __future__ import annotations

from catalog.check.rules import check
from catalog.data.reader import load
from catalog.index.database import connect
from catalog.index.query import search
from catalog.paths import Paths
from tests.conftest import REPO, SEED_CATALOG


def test_shipped_catalog_passes_check_and_names_its_sources(tmp_path):
    paths = Paths(REPO / "data" / "papers.yaml", tmp_path / "catalog.db")
    assert [str(p) for p in check(paths, require_sources=True)] == []


def test_shipped_catalog_is_curated(tmp_path):
    """Issue 10's bar: 150 papers or more, 2-4 tags and a summary each, an added date on
    every paper that came after the first 25."""
    papers = load(REPO / "data" / "papers.yaml")
    assert len(papers) >= 150
    assert all(2 <= len(p.tags) <= 4 for p in papers), [
        p.key for p in papers if not 2 <= len(p.tags) <= 4
    ]
    assert all(p.summary for p in papers)
    seed = {p.key for p in load(SEED_CATALOG)}
    assert all(p.added for p in papers if p.key not in seed)


def test_shipped_catalog_search_embedding_lists_embedding_papers_first(tmp_path):
    paths = Paths(REPO / "data" / "papers.yaml", tmp_path / "catalog.db")
    top = [hit.paper for hit in search(connect(paths), "embedding", limit=10)]
    assert len(top) == 10
    assert all("embedding" in p.tags for p in top), [(p.key, p.tags) for p in top]


def test_shipped_catalog_stems_the_fields_words(tmp_path):
    conn = connect(Paths(REPO / "data" / "papers.yaml", tmp_path / "catalog.db"))

    def found(text: str) -> set[str]:
        return {hit.paper.key for hit in search(conn, text)}

    assert len(found("embedding")) >= 12
    assert found("embeddings") == found("embedding")
    assert found("cache") == found("caching") == found("caches")
    assert found("recommender") == found("recommendation") == found("recommendations")


def test_shipped_people_one_page_each(tmp_path):
    """Issue 30's bar for people: every person authors.yaml joins is one page, and the two
    Hao Wangs of yu2026taming are two."""
    from catalog.data import authors
    from catalog.site.people import People

    papers = load(REPO / "data" / "papers.yaml")
    known = authors.load(REPO / "data" / "authors.yaml")
    people = People(papers, known)
    for entry in known.entries.values():
        if entry.claims:
            continue
        pages = {people.spelled(s).uri for s in entry.spellings if people.spelled(s)}
        assert len(pages) == 1, (entry.key, pages)
    taming = next(p for p in papers if p.key == "yu2026taming")
    rutgers, stevens = people.at(taming, 3), people.at(taming, 4)
    assert taming.authors[3] == taming.authors[4] == "Hao Wang"
    assert (rutgers.uri, stevens.uri) == (
        "authors/hao-wang-rutgers.md",
        "authors/hao-wang-stevens.md",
    )
