"""Related papers: TF-IDF cosine similarity over each paper's title, summary and tags.

The term-weight matrix is kept sparse (CSR for papers, CSC for terms) and the
all-pairs product is computed in blocks of rows with numpy, so thousands of
papers take well under a second and memory stays bounded by the block size.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from catalog.errors import PaperNotFound
from catalog.hints import hint_for
from catalog.model import Paper, fold

if TYPE_CHECKING:
    import numpy as np

DEFAULT_COUNT = 5
# Title words say more about a paper than summary words; tags are curated, so more still.
TITLE_WEIGHT, SUMMARY_WEIGHT, TAG_WEIGHT = 2, 1, 3
# Upper bound on the (row, posting) pairs expanded at once (their temporaries' memory).
_BLOCK_PAIRS = 3_000_000
_WORD_RE = re.compile(r"[a-z0-9]+")
_STOPWORDS_TEXT = """
a about above across after against all also an and any are as at be been before being
between both but by can could did do does doing during each few for from further had has
have having how if in into is it its itself just more most much no nor not of off on once
only or other our out over own same should so some such than that the their them then there
these they this those through to too under until up very via was we were what when where
which while who whom why will with within without would you your using based new
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def _stem(word: str) -> str:
    """A crude plural fold, so 'embeddings' and 'embedding' count as one term."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """The indexable words of a text: folded, stop words dropped, plurals folded."""
    return [_stem(w) for w in _WORD_RE.findall(fold(text)) if w not in STOPWORDS and len(w) > 1]


def terms(paper: Paper) -> Counter[str]:
    """Weighted term counts of one paper."""
    counts: Counter[str] = Counter()
    for word in words(paper.title):
        counts[word] += TITLE_WEIGHT
    for word in words(paper.summary or ""):
        counts[word] += SUMMARY_WEIGHT
    for tag in paper.tags:
        counts["tag:" + tag] += TAG_WEIGHT
    return counts


@dataclass
class Model:
    """L2-normalised TF-IDF vectors of every paper, as CSR rows and CSC columns."""

    keys: list[str]
    indptr: np.ndarray  # CSR: row i's terms are indices[indptr[i]:indptr[i+1]]
    indices: np.ndarray
    data: np.ndarray
    colptr: np.ndarray  # CSC: term t's papers are rows[colptr[t]:colptr[t+1]]
    rows: np.ndarray
    values: np.ndarray


def build(papers: Iterable[Paper]) -> Model:
    """The model of a set of papers (rows in key order)."""
    import numpy as np

    ordered = sorted(papers, key=lambda p: p.key)
    vocabulary: dict[str, int] = {}
    row_terms: list[list[int]] = []
    row_counts: list[list[int]] = []
    for paper in ordered:
        counts = terms(paper)
        row_terms.append([vocabulary.setdefault(t, len(vocabulary)) for t in counts])
        row_counts.append(list(counts.values()))
    n = len(ordered)
    lengths = np.fromiter((len(r) for r in row_terms), dtype=np.int64, count=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    indices = np.fromiter((t for r in row_terms for t in r), dtype=np.int64, count=int(indptr[-1]))
    tf = np.fromiter((c for r in row_counts for c in r), dtype=np.float64, count=int(indptr[-1]))
    df = np.bincount(indices, minlength=len(vocabulary))
    # Terms in every paper get weight 0: they cannot tell papers apart.
    idf = np.log(max(n, 1) / np.maximum(df, 1))
    data = (1.0 + np.log(tf)) * idf[indices]
    row_of = np.repeat(np.arange(n), lengths)
    norms = np.sqrt(np.bincount(row_of, weights=data * data, minlength=n))
    data = data / np.where(norms > 0, norms, 1.0)[row_of]
    order = np.argsort(indices, kind="stable")
    colptr = np.zeros(len(vocabulary) + 1, dtype=np.int64)
    np.cumsum(df, out=colptr[1:])
    return Model(
        [p.key for p in ordered], indptr, indices, data, colptr, row_of[order], data[order]
    )


def _scores(model: Model, start: int, stop: int) -> np.ndarray:
    """Cosine similarities of rows start..stop against every paper, as a dense block."""
    import numpy as np

    n = len(model.keys)
    lo, hi = model.indptr[start], model.indptr[stop]
    t = model.indices[lo:hi]
    local = np.repeat(np.arange(stop - start), np.diff(model.indptr[start : stop + 1]))
    counts = model.colptr[t + 1] - model.colptr[t]
    total = int(counts.sum())
    ends = np.cumsum(counts)
    positions = np.repeat(model.colptr[t] - (ends - counts), counts) + np.arange(total)
    pairs = np.repeat(local, counts) * n + model.rows[positions]
    weights = np.repeat(model.data[lo:hi], counts) * model.values[positions]
    block = np.bincount(pairs, weights=weights, minlength=(stop - start) * n)
    return block.reshape(stop - start, n)


def _top(model: Model, row: int, scores: np.ndarray, count: int) -> list[tuple[str, float]]:
    """The best `count` other papers for one row: highest score, then key; zeros left out."""
    import numpy as np

    scores = np.round(scores, 9)  # the same answer whichever block computed it
    scores[row] = 0.0
    candidates = np.flatnonzero(scores > 0)
    if len(candidates) > count:
        kth = np.partition(scores[candidates], len(candidates) - count)[len(candidates) - count]
        candidates = candidates[scores[candidates] >= kth]
    ranked = sorted(candidates.tolist(), key=lambda j: (-scores[j], j))[:count]
    return [(model.keys[j], float(scores[j])) for j in ranked]


def _blocks(model: Model) -> Iterable[tuple[int, int]]:
    """Row ranges whose expanded pairs and dense block both stay under _BLOCK_PAIRS."""
    import numpy as np

    n = len(model.keys)
    df = np.diff(model.colptr)
    cost = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(
        np.bincount(
            np.repeat(np.arange(n), np.diff(model.indptr)), weights=df[model.indices], minlength=n
        ).astype(np.int64),
        out=cost[1:],
    )
    max_rows = max(1, _BLOCK_PAIRS // max(n, 1))
    start = 0
    while start < n:
        limit = np.searchsorted(cost, cost[start] + _BLOCK_PAIRS, side="right") - 1
        stop = min(n, start + max_rows, max(int(limit), start + 1))
        yield start, stop
        start = stop


def related_all(
    papers: Sequence[Paper], count: int = DEFAULT_COUNT, model: Model | None = None
) -> dict[str, list[tuple[str, float]]]:
    """key -> up to `count` (key, score) of the most similar other papers, for every paper."""
    model = model or build(papers)
    out: dict[str, list[tuple[str, float]]] = {}
    for start, stop in _blocks(model):
        block = _scores(model, start, stop)
        for i in range(start, stop):
            out[model.keys[i]] = _top(model, i, block[i - start], count)
    return out


def related(
    papers: Sequence[Paper], key: str, count: int = DEFAULT_COUNT
) -> list[tuple[Paper, float]]:
    """The `count` papers most similar to the one with this key, with their scores."""
    by_key = {p.key: p for p in papers}
    if key not in by_key:
        hint = hint_for(key, by_key)
        raise PaperNotFound(f"no paper with key '{key}'" + (f"; {hint}" if hint else ""))
    model = build(papers)
    row = model.keys.index(key)
    top = _top(model, row, _scores(model, row, row + 1)[0], count)
    return [(by_key[k], score) for k, score in top]
