"""The suggest model's feature space counted without scikit-learn: the same columns and
values as scikit-learn's CountVectorizer and normalize give, and a site build and `papers
related` that never import scikit-learn."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import csr_matrix, diags, hstack

from catalog.data import reader
from catalog.suggest import features
from tests.conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import synth

WEIGHTS = [features.FIELD_WEIGHTS, features.SIMILARITY_WEIGHTS, features.BASELINE_WEIGHTS]


def _reference(
    fitted: Sequence[features.Item], rows: Sequence[features.Item], weights: dict[str, float]
) -> tuple[list[str], csr_matrix]:
    """Column names and rows of the space as scikit-learn computes it: CountVectorizer
    (char_wb 3-5 for the system name), TF-IDF, normalize by field and whole."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.preprocessing import normalize

    names, blocks = [], []
    for name, weight in weights.items():
        if name == "name":
            vectorizer = CountVectorizer(
                analyzer="char_wb", ngram_range=(3, 5), preprocessor=features.system
            )
        else:
            vectorizer = CountVectorizer(analyzer=partial(features.field_terms, name=name))
        try:
            df = np.bincount(vectorizer.fit_transform(fitted).indices)
        except ValueError:  # scikit-learn's empty vocabulary
            continue
        counts = vectorizer.transform(rows).astype(np.float64)
        counts.data = 1.0 + np.log(counts.data)
        idf = np.log(len(fitted) / np.maximum(df, 1))
        blocks.append(normalize(counts @ diags(idf)) * weight)
        names += [f"{name}: {t}" for t in vectorizer.get_feature_names_out()]
    return names, normalize(hstack(blocks, format="csr"))


def _assert_as_sklearn(fitted: list[features.Item], others: list[features.Item]) -> None:
    """Fitted on `fitted`, the rows of both lists are scikit-learn's to 1e-12."""
    for weights in WEIGHTS:
        space = features.fit(fitted, weights)
        for rows in (fitted, others):
            names, expected = _reference(fitted, rows, weights)
            got = space.matrix(rows)
            assert space.names == names
            assert got.shape == expected.shape
            assert abs(got - expected).max() <= 1e-12
            assert got.nnz > 0


def _items(path: Path) -> list[features.Item]:
    return [features.item_of(p) for p in reader.load(path)]


def _titles(items: list[features.Item]) -> list[features.Item]:
    """Candidates of a list: titles alone."""
    return [features.Item(i.title) for i in items]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> list[features.Item]:
    return _items(synth.write(1000, tmp_path_factory.mktemp("synth")))


def test_letter_groups_are_char_wb_ngrams():
    from sklearn.feature_extraction.text import CountVectorizer

    analyzer = CountVectorizer(
        analyzer="char_wb", ngram_range=(3, 5), preprocessor=lambda t: t
    ).build_analyzer()
    for text in ["", "a", "ab", "abc", "abcd", "fastermoe", "x  y\tzz\n", "über-ñ 3d", " moe "]:
        assert features.letter_groups(text) == analyzer(text), text


def test_the_shipped_catalog_has_sklearn_s_space(synthetic):
    shipped = _items(REPO / "data" / "papers.yaml")
    _assert_as_sklearn(shipped, synthetic[:200] + _titles(synthetic[:200]))


def test_a_synthetic_catalog_has_sklearn_s_space(synthetic):
    shipped = _items(REPO / "data" / "papers.yaml")
    _assert_as_sklearn(synthetic, shipped + _titles(shipped))


def test_a_field_no_item_has_is_left_out():
    items = [features.Item("Embedding cache"), features.Item("GPU training")]
    space = features.fit(items)
    assert list(space.vocabularies) == ["title"]  # no body, tags, authors, name or year
    assert all(n.startswith("title: ") for n in space.names)
    assert features.fit([]).matrix(items).shape == (2, 0)


def test_related_papers_and_the_site_s_data_import_no_sklearn(tmp_path):
    """scikit-learn costs a second and a half to import; only `papers suggest` needs it."""
    catalog = str(REPO / "data" / "papers.yaml")
    db = str(tmp_path / "catalog.db")
    key = reader.load(REPO / "data" / "papers.yaml")[0].key
    code = (
        "import sys\n"
        "from catalog.cli import main\n"
        "from pathlib import Path\n"
        "from catalog.paths import Paths\n"
        "from catalog.site import sitedata\n"
        f"sys.argv = ['papers', '--catalog', {catalog!r}, '--db', {db!r}, 'related', {key!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"data, _ = sitedata.load(Paths(Path({catalog!r}), Path({db!r})), with_charts=False)\n"
        "print(len(data.related), 'sklearn' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    papers = len(reader.load(REPO / "data" / "papers.yaml"))
    assert run.stderr.splitlines()[-1] == f"{papers} False", run.stderr
    assert run.stdout.count("\n") >= 3, run.stdout  # the related papers were shown
