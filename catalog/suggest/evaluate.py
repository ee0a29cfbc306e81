"""`papers suggest --eval`: the model measured on held-out papers, beside the baseline.

For each note and each tag: five folds of the target's papers; each fold is held out,
the model is trained on the rest of the target's papers (positives) against the rest of
the catalog, and ranks every paper not trained on as positive. P@10 and recall@10 count
the held-out papers in its top 10. The baseline ranks by similarity to the positives'
TF-IDF centroid in the word fields alone (features.BASELINE_WEIGHTS), whatever else
the model reads. A tag is measured without the tag itself among the features.

With a list: a tenth of the catalog is taken out of it and mixed into the list's
candidates, given as a list gives them (title only); the rest of the catalog ranks them
all, and the share of the hidden papers in the top tenth is counted.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from catalog.data.notes import Note
from catalog.model import Paper
from catalog.suggest import features, rank
from catalog.suggest.candidates import Candidate

FOLDS = 5
TOP = 10
SEED = 0  # folds are drawn the same way every run, so a change of score is the model's


@dataclass
class Measure:
    """One target's held-out figures: the model's and the baseline's."""

    kind: str  # 'note' or 'tag'
    name: str
    papers: int
    precision: float
    recall: float
    base_precision: float
    base_recall: float

    def to_dict(self) -> dict[str, object]:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in self.__dict__.items()}


@dataclass
class MixMeasure:
    """How many hidden catalog papers a list's ranking put in its top tenth."""

    candidates: int
    hidden: int
    in_top: int
    top: int
    base_in_top: int

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def _folds(count: int, rng: random.Random) -> list[list[int]]:
    """Positions 0..count-1 shuffled and dealt into FOLDS folds."""
    order = list(range(count))
    rng.shuffle(order)
    return [order[f::FOLDS] for f in range(FOLDS)]


def _held_out(
    papers: Sequence[Paper], members: set[str], drop_tag: str | None
) -> tuple[float, ...]:
    """(P@10, recall@10) of the model, then of the baseline, averaged over the folds."""
    import numpy as np

    ordered = sorted(papers, key=lambda p: p.key)
    items = [_item(p, drop_tag) for p in ordered]
    matrix = features.fit(items).matrix(items)
    words = features.fit(items, features.BASELINE_WEIGHTS).matrix(items)
    rows = [i for i, p in enumerate(ordered) if p.key in members]
    sums = np.zeros(4)
    for fold_rows in _folds(len(rows), random.Random(SEED)):
        held = {rows[i] for i in fold_rows}
        train = np.zeros(len(ordered), dtype=bool)
        train[[r for r in rows if r not in held]] = True
        weights = rank.linear_weights(matrix, train.astype(np.float64))
        model = np.asarray(matrix @ weights).ravel()
        base = rank.centroid_scores(words[train], words)
        for at, scores in enumerate((model, base)):
            scores = np.where(train, -np.inf, np.round(scores, 9))
            top = np.argsort(-scores, kind="stable")[:TOP]
            hits = len(held.intersection(top.tolist()))
            sums[2 * at] += hits / TOP
            sums[2 * at + 1] += hits / len(held)
    return tuple(float(x) / FOLDS for x in sums)


def _item(paper: Paper, drop_tag: str | None) -> features.Item:
    """A paper as the model reads it, less the tag being measured."""
    item = features.item_of(paper)
    if drop_tag is None:
        return item
    return replace(item, tags=tuple(t for t in item.tags if t != drop_tag))


def held_out(
    papers: Sequence[Paper], notes: Sequence[Note], with_tags: bool = True
) -> list[Measure]:
    """Each note's and each tag's figures (targets of fewer than FOLDS papers left out)."""
    held = {p.key for p in papers}
    targets: list[tuple[str, str, set[str], str | None]] = [
        ("note", n.slug, {k for k in n.keys if k in held}, None) for n in notes
    ]
    tags = sorted({t for p in papers for t in p.tags}) if with_tags else []
    targets += [("tag", t, {p.key for p in papers if t in p.tags}, t) for t in tags]
    out = []
    for kind, name, members, drop in targets:
        if FOLDS <= len(members) < len(papers):
            p, r, bp, br = _held_out(papers, members, drop)
            out.append(Measure(kind, name, len(members), p, r, bp, br))
    return out


def mixed_back(
    papers: Sequence[Paper], candidates: Sequence[Candidate], share: float = 0.1
) -> MixMeasure:
    """Hide a share of the catalog among a list's candidates (the list's own entries that the
    catalog holds taken out first) and count the hidden papers in the top tenth."""
    import numpy as np

    from catalog.check import duplicates

    finder = duplicates.Finder.of(papers)
    outside = [c for c in candidates if finder.find(c.as_paper()) is None]
    ordered = sorted(papers, key=lambda p: p.key)
    rng = random.Random(SEED)
    hidden = set(rng.sample(range(len(ordered)), max(1, round(len(ordered) * share))))
    kept = [p for i, p in enumerate(ordered) if i not in hidden]
    # A hidden paper comes as a list gives it: its title alone.
    pool = [(c.item, False) for c in outside]
    pool += [(features.Item(ordered[i].title), True) for i in sorted(hidden)]
    rng.shuffle(pool)
    is_hidden = np.array([flag for _, flag in pool])
    items = [item for item, _ in pool]
    known = features.alike(kept, items, whole=True)
    space = features.fit(known)
    catalog, rows = space.matrix(known), space.matrix(items)
    scores, _ = rank.fit_and_score(catalog, np.ones(len(kept), dtype=bool), rows, space.columns())
    words = features.fit(known, features.BASELINE_WEIGHTS)
    base = rank.centroid_scores(words.matrix(known), words.matrix(items))
    top = max(1, len(pool) // 10)

    def counted(values: np.ndarray) -> int:
        best = np.argsort(-np.round(values, 9), kind="stable")[:top]
        return int(is_hidden[best].sum())

    return MixMeasure(len(pool), len(hidden), counted(scores), top, counted(base))


def mean(measures: Sequence[Measure]) -> Measure:
    """The measures' mean, as one Measure of their kind."""
    n = max(len(measures), 1)
    return Measure(
        measures[0].kind if measures else "",
        "mean",
        sum(m.papers for m in measures),
        sum(m.precision for m in measures) / n,
        sum(m.recall for m in measures) / n,
        sum(m.base_precision for m in measures) / n,
        sum(m.base_recall for m in measures) / n,
    )
