"""The field's words and the feature space every ranking shares: TF-IDF by field.

The words are this module's own tokenizer (folded, stop words out, plurals folded, with
the bigrams of each field). Each field (title, summary, tags, authors, the system name
before a title's colon as letter groups, the year) is counted into a scipy sparse matrix,
weighted by TF-IDF, scaled to unit length and given its weight, so a candidate that has
only a title is still comparable with a paper that has everything. The counts are the
ones scikit-learn's CountVectorizer gives (tests/test_suggest_features.py compares them),
without importing scikit-learn: a site build and `papers related` need only scipy.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from catalog.index.words import stem
from catalog.index.words import words as field_words
from catalog.model import Paper, fold, system_name

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

_STOPWORDS_TEXT = """
a about above across after against all also an and any are as at be been before being
between both but by can could did do does doing during each few for from further had has
have having how if in into is it its itself just more most much no nor not of off on once
only or other our out over own same should so some such than that the their them then there
these they this those through to too under until up very via was we were what when where
which while who whom why will with within without would you your using based new
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())

# How much each field counts once it is scaled to unit length. Measured with
# `papers suggest --eval` on the shipped catalog's notes (docs/pages/benchmarks.md):
# tags, authors, the year and the system name lift P@10 of the linear model, a heavier
# title or body did not.
FIELD_WEIGHTS = {
    "title": 1.0,
    "body": 1.0,
    "tags": 1.5,
    "authors": 1.0,
    "name": 0.5,
    "year": 0.5,
}
# Related papers (cosine, nothing learned) read no year: a year is no likeness of
# content, and a paper of few words was related to its contemporaries by it.
SIMILARITY_WEIGHTS = {k: v for k, v in FIELD_WEIGHTS.items() if k != "year"}
# The TF-IDF centroid the model is measured against reads the words alone, weighed as
# when it was first measured (0.33 on the notes), whatever the model reads.
BASELINE_WEIGHTS = {"title": 1.0, "body": 1.0, "tags": 1.5, "authors": 0.5}
WORD_FIELDS = tuple(BASELINE_WEIGHTS)
# Fields that are not words a reader would recognise as a reason (n-grams, years).
UNSHOWN = frozenset({"name", "year"})


def words(text: str) -> list[str]:
    """The field's words of a text as search stems them (catalog.index.words), stop words
    dropped: suggest, related and search read one vocabulary."""
    return [stem(w) for w in field_words(text) if w not in STOPWORDS and len(w) > 1]


def terms(text: str) -> list[str]:
    """A text's words and its bigrams (two words in a row)."""
    found = words(text)
    return found + [f"{a} {b}" for a, b in itertools.pairwise(found)]


@dataclass(frozen=True)
class Item:
    """What the model reads of a paper or a candidate; a candidate may have a title only."""

    title: str
    body: str = ""
    tags: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()  # folded (catalog.model.fold)
    year: int | None = None


def item_of(paper: Paper, tags: bool = True) -> Item:
    """A paper as the model reads it (without its tags when a tag is what is measured)."""
    # The summary, not the abstract: the abstract measured no better on the notes, and
    # made related papers at 10,000 papers many times slower (tools/bench_site.py).
    return Item(
        paper.title,
        paper.summary or "",
        tuple(paper.tags) if tags else (),
        tuple(fold(a) for a in paper.authors),
        paper.year or None,
    )


def _years(year: int | None) -> list[str]:
    """A year and the two two-year spans holding it, so neighbouring years share one."""
    if not year:
        return []
    return [str(year), f"{year - 1}-{year}", f"{year}-{year + 1}"]


def letter_groups(text: str, shortest: int = 3, longest: int = 5) -> list[str]:
    """The letter groups of a text's words as scikit-learn's char_wb analyzer makes them:
    each word with a space either side, every run of 3 to 5 characters in it; a padded word
    no longer than a length gives itself once and no longer runs."""
    groups = []
    for word in text.split():
        padded = f" {word} "
        for n in range(shortest, longest + 1):
            if len(padded) <= n:
                groups.append(padded)
                break
            groups += [padded[i : i + n] for i in range(len(padded) - n + 1)]
    return groups


def system(item: Item) -> str:
    """The system name a title gives, folded ('fastermoe')."""
    return fold(system_name(item.title))


def field_terms(item: Item, name: str) -> list[str]:
    """One field's terms: letter groups of the system name, so FasterMoE is near FastMoE;
    words and bigrams of the title and body; a year and its spans; tags and authors whole."""
    if name == "name":
        return letter_groups(system(item))
    if name == "title":
        return terms(item.title)
    if name == "body":
        return terms(item.body)
    if name == "year":
        return _years(item.year)
    return list(item.tags if name == "tags" else item.authors)


def _counts(docs: Sequence[list[str]], vocabulary: dict[str, int]) -> csr_matrix:
    """How often each term of the vocabulary is in each doc, a row per doc; other terms
    are not counted."""
    import numpy as np
    from scipy.sparse import csr_matrix

    indptr, indices = [0], []
    for doc in docs:
        indices += [j for j in map(vocabulary.get, doc) if j is not None]
        indptr.append(len(indices))
    counts = csr_matrix(
        (np.ones(len(indices)), np.array(indices, dtype=np.int64), indptr),
        shape=(len(docs), len(vocabulary)),
    )
    counts.sum_duplicates()  # a term a doc repeats: one entry, its count
    return counts


def _unit(matrix: csr_matrix) -> csr_matrix:
    """The matrix with each row scaled to unit length (L2); an empty row stays empty."""
    import numpy as np

    matrix = matrix.tocsr()
    rows = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
    norms = np.sqrt(np.bincount(rows, weights=matrix.data**2, minlength=matrix.shape[0]))
    norms[norms == 0] = 1.0
    matrix.data /= norms[rows]
    return matrix


@dataclass
class Space:
    """Feature spaces fitted on a catalog: each field's vocabulary and inverse frequency."""

    vocabularies: dict[str, dict[str, int]] = field(default_factory=dict)  # term -> column
    idf: dict[str, np.ndarray] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)  # 'title: embedding cache', per column
    weights: dict[str, float] = field(default_factory=lambda: dict(FIELD_WEIGHTS))

    def columns(self, fields: Iterable[str] = WORD_FIELDS) -> np.ndarray:
        """A mask of the columns of these fields."""
        import numpy as np

        return np.array([n.partition(": ")[0] in fields for n in self.names], dtype=bool)

    def matrix(self, items: Sequence[Item]) -> csr_matrix:
        """The items' rows: each field TF-IDF, unit length, weighted; whole rows unit length."""
        import numpy as np
        from scipy.sparse import csr_matrix, diags, hstack

        if not self.vocabularies:  # a catalog without a word: every row empty
            return csr_matrix((len(items), 0))
        blocks = []
        for name, vocabulary in self.vocabularies.items():
            counts = _counts([field_terms(i, name) for i in items], vocabulary)
            counts.data = 1.0 + np.log(counts.data)
            weighted = _unit(counts @ diags(self.idf[name]))
            blocks.append(weighted * self.weights[name])
        return _unit(hstack(blocks, format="csr"))


def fit(items: Iterable[Item], weights: dict[str, float] = FIELD_WEIGHTS) -> Space:
    """The space of a catalog's items in the fields weighed, each field's terms in sorted
    order. A term in every item weighs nothing: it cannot tell papers apart."""
    import numpy as np

    items = list(items)
    space = Space(weights=dict(weights))
    for name in weights:
        docs = [field_terms(i, name) for i in items]
        df = Counter(t for doc in docs for t in set(doc))  # how many items have each term
        if not df:  # no item has a word in this field
            continue
        vocabulary = sorted(df)
        space.vocabularies[name] = {t: j for j, t in enumerate(vocabulary)}
        space.idf[name] = np.log(len(items) / np.array([df[t] for t in vocabulary], dtype=float))
        space.names += [f"{name}: {t}" for t in vocabulary]
    return space


def shown(names: Sequence[str], items: Sequence[Item]) -> list[str]:
    """The space's column names with each stem of a title or body term written as the
    items most often write it ('title: embed cach' -> 'title: embedding cache')."""
    seen: dict[str, Counter[str]] = {}
    for item in items:
        for w in field_words(f"{item.title} {item.body}"):
            seen.setdefault(stem(w), Counter())[w] += 1
    spelled = {s: count.most_common(1)[0][0] for s, count in seen.items()}
    out = []
    for name in names:
        field_name, _, term = name.partition(": ")
        if field_name in ("title", "body"):
            term = " ".join(spelled.get(w, w) for w in term.split(" "))
        out.append(f"{field_name}: {term}")
    return out


def alike(papers: Sequence[Paper], candidates: Sequence[Item], whole: bool) -> list[Item]:
    """The papers read with only the fields most candidates have (a list gives titles, a
    feed abstracts and authors, none gives tags): a model of the whole papers would lean
    on words the candidates never show (measured with `papers suggest LIST --eval`).

    The year only when the target is a part of the catalog (`whole` false): against the
    whole catalog the candidates are the negatives, and their years tell the list's years
    from the catalog's rather than fit; an entry without one then lost to every dated one
    (the hidden papers, given by title, fell from 68% to 12% in the top tenth)."""
    items = [item_of(p) for p in papers]
    half = len(candidates) / 2
    body = sum(bool(c.body) for c in candidates) > half
    authors = sum(bool(c.authors) for c in candidates) > half
    year = not whole and sum(bool(c.year) for c in candidates) > half
    return [
        replace(
            i,
            body=i.body if body else "",
            tags=(),
            authors=i.authors if authors else (),
            year=i.year if year else None,
        )
        for i in items
    ]
