"""Related papers: cosine similarity in the feature space of `papers suggest`.

One model of the catalog's words (catalog.suggest.features: title, summary,
tags, authors, the system name, each TF-IDF; related papers leave out the year)
serves suggest, its measure and related papers. It is counted with scipy alone, so a
site build and `papers related` never import scikit-learn (only suggest's SVM does).
The all-pairs product is computed in blocks of rows, so memory stays bounded by the block.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from catalog.errors import PaperNotFound
from catalog.hints import hint_for
from catalog.model import Paper

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

DEFAULT_COUNT = 5
# Upper bound on the cells of one dense block of scores (rows times papers).
_BLOCK_PAIRS = 3_000_000


def _matrix(papers: Sequence[Paper]) -> tuple[list[str], csr_matrix]:
    """The papers' keys in key order and their rows in the suggest model's space."""
    from catalog.suggest import features

    ordered = sorted(papers, key=lambda p: p.key)
    items = [features.item_of(p) for p in ordered]
    return [p.key for p in ordered], features.fit(items, features.SIMILARITY_WEIGHTS).matrix(items)


def _top(keys: list[str], row: int, scores: np.ndarray, count: int) -> list[tuple[str, float]]:
    """The best `count` other papers for one row: highest score, then key; zeros left out."""
    import numpy as np

    scores = np.round(scores, 9)  # the same answer whichever block computed it
    scores[row] = 0.0
    candidates = np.flatnonzero(scores > 0)
    if len(candidates) > count:  # only those at or above the count-th best are sorted
        kth = np.partition(scores[candidates], len(candidates) - count)[len(candidates) - count]
        candidates = candidates[scores[candidates] >= kth]
    ranked = sorted(candidates.tolist(), key=lambda j: (-scores[j], j))[:count]
    return [(keys[j], float(scores[j])) for j in ranked]


def _blocks(n: int) -> Iterable[tuple[int, int]]:
    """Row ranges whose dense block of scores stays under _BLOCK_PAIRS cells."""
    rows = max(1, _BLOCK_PAIRS // max(n, 1))
    for start in range(0, n, rows):
        yield start, min(n, start + rows)


def related_all(
    papers: Sequence[Paper], count: int = DEFAULT_COUNT
) -> dict[str, list[tuple[str, float]]]:
    """key -> up to `count` (key, score) of the most similar other papers, for every paper."""
    keys, matrix = _matrix(papers)
    out: dict[str, list[tuple[str, float]]] = {}
    transposed = matrix.T.tocsc()
    for start, stop in _blocks(len(keys)):
        block = (matrix[start:stop] @ transposed).toarray()
        for i in range(start, stop):
            out[keys[i]] = _top(keys, i, block[i - start], count)
    return out


def related(
    papers: Sequence[Paper], key: str, count: int = DEFAULT_COUNT
) -> list[tuple[Paper, float]]:
    """The `count` papers most similar to the one with this key, with their scores."""
    by_key = {p.key: p for p in papers}
    if key not in by_key:
        hint = hint_for(key, by_key)
        raise PaperNotFound(f"no paper with key '{key}'" + (f"; {hint}" if hint else ""))
    keys, matrix = _matrix(papers)
    row = keys.index(key)
    scores = (matrix[row] @ matrix.T).toarray()[0]
    return [(by_key[k], score) for k, score in _top(keys, row, scores, count)]
