"""Ranking by fit to a target: a linear SVM per target, trained on the catalog at run time.

Positives are the target's papers; negatives the rest of the catalog. For the whole
catalog there is no rest, so the candidates themselves are the background (they are
mostly not the catalog's kind, as arxiv-sanity treats a day's listing): measured against
plain similarity to the catalog with `papers suggest LIST --eval`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from catalog.suggest.features import UNSHOWN

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

# The SVM's regularisation; C=1 and C=10 measured alike on the notes, C=1 is the default.
C = 1.0
FOLDS = 5  # the candidates' folds when they are the background


@dataclass
class Why:
    """Why a candidate ranks where it does: its nearest target papers and weightiest words."""

    nearest: list[tuple[int, float]]  # (row in the catalog, cosine similarity)
    words: list[str]


def linear_weights(train: csr_matrix, labels: np.ndarray) -> np.ndarray:
    """The SVM's weight of each feature, trained on `train` with labels 1 and 0 (a row's
    score is its product with them: the intercept does not change an order)."""
    from sklearn.svm import LinearSVC

    model = LinearSVC(C=C, class_weight="balanced")
    model.fit(train, labels)
    return model.coef_[0]


def centroid_scores(positives: csr_matrix, rows: csr_matrix) -> np.ndarray:
    """Cosine-like similarity of `rows` to the positives' mean: the baseline."""
    import numpy as np

    centre = np.asarray(positives.mean(axis=0)).ravel()
    return np.asarray(rows @ centre).ravel()


def fit_and_score(
    catalog: csr_matrix, positive: np.ndarray, candidates: csr_matrix, words: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(scores of the candidates, feature weights) for a target given as a row mask of the
    catalog; `words` marks the columns that are words (features.Space.columns). With
    every catalog row positive, the candidates are the negatives, cross-fitted: each fifth
    of them is scored by a model trained on the other four fifths, as a model
    scoring its own negatives would put every one of them below the catalog."""

    scores, weights = _fit_and_score(catalog, positive, candidates)
    # A candidate that shares no word with the catalog gives the model nothing to go on:
    # it scores 0, above every one whose words the target's negatives share. It ranks last,
    # whatever its year (`words` marks the columns of words).
    unknown = candidates[:, words].getnnz(axis=1) == 0
    if unknown.any() and not unknown.all():
        scores[unknown] = scores[~unknown].min() - 1.0
    return scores, weights


def _fit_and_score(
    catalog: csr_matrix, positive: np.ndarray, candidates: csr_matrix
) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np
    from scipy.sparse import vstack

    if not positive.all():
        weights = linear_weights(catalog, positive.astype(np.float64))
        return np.asarray(candidates @ weights).ravel(), weights
    n = candidates.shape[0]
    if n < FOLDS:  # too few to stand for the background: similarity to the catalog alone
        weights = np.asarray(catalog.mean(axis=0)).ravel()
        return np.asarray(candidates @ weights).ravel(), weights
    scores, total = np.zeros(n), np.zeros(catalog.shape[1])
    fold_of = np.arange(n) % FOLDS
    for f in range(FOLDS):
        train = vstack([catalog, candidates[fold_of != f]], format="csr")
        labels = np.concatenate([np.ones(catalog.shape[0]), np.zeros(int((fold_of != f).sum()))])
        weights = linear_weights(train, labels)
        scores[fold_of == f] = candidates[fold_of == f] @ weights
        total += weights
    return scores, total / FOLDS


def explain(
    catalog: csr_matrix,
    positive: np.ndarray,
    row: csr_matrix,
    weights: np.ndarray,
    names: Sequence[str],
    count: int = 3,
) -> Why:
    """The `count` nearest target papers to one candidate row and its weightiest words."""
    import numpy as np

    similarity = np.asarray(catalog @ row.T.toarray()).ravel()
    similarity[~positive] = -1.0
    nearest = [int(i) for i in np.argsort(-similarity, kind="stable")[:count]]
    contribution = row.multiply(weights).tocsr()
    order = np.argsort(-contribution.data, kind="stable")
    found = [names[contribution.indices[i]].split(": ", 1) for i in order]
    shown = [
        (term, contribution.data[i])
        for i, (field_name, term) in zip(order, found, strict=True)
        if field_name not in UNSHOWN
    ]
    top = [term for term, weight in shown[: count + 2] if weight > 0]
    return Why([(i, float(similarity[i])) for i in nearest if similarity[i] > 0], top)
