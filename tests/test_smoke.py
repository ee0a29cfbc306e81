"""The one test that reads the real data/papers.yaml: it must pass `papers check`."""

from __future__ import annotations

from catalog.check import check
from catalog.index import connect
from catalog.paths import Paths
from catalog.query import search
from tests.conftest import REPO


def test_shipped_catalog_passes_check(tmp_path):
    paths = Paths(REPO / "data" / "papers.yaml", tmp_path / "catalog.db")
    assert [str(p) for p in check(paths)] == []


def test_shipped_catalog_search_embedding_lists_embedding_papers_first(tmp_path):
    paths = Paths(REPO / "data" / "papers.yaml", tmp_path / "catalog.db")
    top = search(connect(paths), "embedding", limit=10)
    assert len(top) == 10
    assert all("embedding" in hit.paper.tags for hit in top), [h.paper.key for h in top]


def test_shipped_catalog_stems_the_fields_words(tmp_path):
    conn = connect(Paths(REPO / "data" / "papers.yaml", tmp_path / "catalog.db"))

    def found(text: str) -> set[str]:
        return {hit.paper.key for hit in search(conn, text)}

    assert len(found("embedding")) >= 12
    assert found("embeddings") == found("embedding")
    assert found("cache") == found("caching") == found("caches")
    assert found("recommender") == found("recommendation") == found("recommendations")
