"""The All-papers Words box's search (site/javascripts/rank.js), run by node on the
shipped catalog's page data, lists what `papers search` lists, in its order: for every
query of the relevance set and for words that take its other paths (a prefix retry, a
widened prefix, a phrase, an author, LaTeX in an abstract)."""

from __future__ import annotations

import json
import sys

import pytest

from catalog.paths import resolve
from catalog.site import listpages, sitedata
from tests.conftest import REPO, run_node

sys.path.insert(0, str(REPO / "tools"))
import relevance

pytestmark = pytest.mark.slow  # the site's data and the index of the shipped catalog

JS = REPO / "site" / "javascripts"
# Words that go other ways than the relevance set's: found only as a prefix ("embedd",
# "recommendat"), a phrase across a hyphen, an author, a word of a LaTeX abstract, a
# word of the field's pins, one word repeated, a quoted phrase, an explicit prefix.
OTHER_QUERIES = (
    "embedd",
    "recommendat",
    "near-memory",
    "zhang",
    "speedup",
    "accelerators",
    "gpus gpus",
    '"embedding tables"',
    "emb*",
    "cache",
    "wombatzz",
)


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each query's keys as rank.js lists them, from the page data the site is built with."""
    folder = tmp_path_factory.mktemp("rank")
    paths = resolve(REPO / "data" / "papers.yaml", folder / "catalog.db")
    data, _ = sitedata.load(paths, None, with_charts=False)
    (folder / "data.js").write_text(listpages.papers_data(data), encoding="utf-8")
    queries = [*relevance.load(), *OTHER_QUERIES]
    script = (
        "globalThis.window = globalThis;"
        f"require({json.dumps(str(JS / 'stem.js'))});"
        f"const R = require({json.dumps(str(JS / 'rank.js'))});"
        f"require({json.dumps(str(folder / 'data.js'))});"
        "const qs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const d = window.PAPERS_DATA, out = {};"
        "qs.forEach(q => { out[q] = (R.byWords(d.papers, d, q) || []).map(p => p.k); });"
        "process.stdout.write(JSON.stringify(out));"
    )
    return run_node(script, queries)


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    folder = tmp_path_factory.mktemp("cli")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(relevance, "load", lambda: {q: [] for q in OTHER_QUERIES})
        other = relevance.cli_rankings(REPO / "data" / "papers.yaml", folder / "c.db", None)
    every = relevance.cli_rankings(REPO / "data" / "papers.yaml", folder / "c.db", None)
    return {**every, **other}


def test_the_box_lists_what_papers_search_lists_in_its_order(box, cli):
    differ = {q: (box[q][:10], cli[q][:10]) for q in cli if box[q] != cli[q]}
    assert differ == {}
    assert len(cli["embedd"]) > 50 and cli["wombatzz"] == []  # the paths were taken
