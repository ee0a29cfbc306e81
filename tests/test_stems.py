"""The field's words apart: Snowball English stems (catalog.index.words) at index and
query time, and the same stems in the site's JavaScript (site/javascripts/stem.js)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from catalog.index import database
from catalog.index.words import PINNED, stem, stems, words
from catalog.paths import resolve
from tests.conftest import REPO, run_node

STEM_JS = REPO / "site" / "javascripts" / "stem.js"


@pytest.mark.parametrize(
    "apart",
    [
        # Porter cuts every one of these to "gener".
        ("generative", "generic", "generation", "generalized"),
        ("generative", "general"),
        ("server", "serving", "service"),
        ("partition", "partial", "particular"),
        ("accelerator", "accelerating"),
    ],
)
def test_words_of_the_field_stay_apart(apart):
    assert len({stem(w) for w in apart}) == len(apart), [stem(w) for w in apart]


@pytest.mark.parametrize(
    "together",
    [
        ("embed", "embeds", "embedding", "embeddings", "embedded"),
        ("cache", "caches", "cached", "caching"),
        ("recommender", "recommenders", "recommendation", "recommendations"),
        ("shard", "shards", "sharding", "sharded"),
        ("expert", "experts"),
        ("generative", "generatively"),
        ("offload", "offloading", "offloaded"),
        ("accelerator", "accelerators"),
        ("accelerate", "accelerated", "accelerating", "acceleration"),
    ],
)
def test_forms_of_a_word_meet(together):
    assert len({stem(w) for w in together}) == 1, [stem(w) for w in together]


def test_text_is_folded_cut_and_stemmed():
    assert words("Preußer's Čech_GPU-Caches") == ["preusser", "s", "cech", "gpu", "caches"]
    assert stems("Generative Recommenders") == "generative recommend"
    assert stems("") is None and stems(None) is None


def catalog_words(folder: Path) -> list[str]:
    """Every word of the shipped catalog, as the index's words table holds them."""
    paths = resolve(REPO / "data" / "papers.yaml", folder / "catalog.db")
    database.connect(paths).close()
    conn = sqlite3.connect(paths.db)
    try:
        return [w for (w,) in conn.execute("select word from words")]
    finally:
        conn.close()


def test_the_sites_stemmer_gives_the_indexs_stems(tmp_path):
    vocabulary = catalog_words(tmp_path)
    assert len(vocabulary) > 5000
    # The doubled consonants Snowball undoes, or not, after a first vowel ("add", "ebb").
    doubles = [v + d + d + e for v in "aeiouy" for d in "bdfgmnprt" for e in ("ed", "ing")]
    listed = sorted({*vocabulary, *doubles, *PINNED})
    script = (
        f"const W = require({json.dumps(str(STEM_JS))});"
        "const ws = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(ws.map(W.stem)));"
    )
    ours = run_node(script, listed, timeout=60)
    differ = [(w, stem(w), js) for w, js in zip(listed, ours, strict=True) if stem(w) != js]
    assert differ == []
