"""Alike titles: the one score, the buckets a title is looked for in, and every alike pair
of a catalog.

Two titles are alike when their normalised words, sorted, score NEAR_DUPLICATE or more
by rapidfuzz's ratio (token_sort_ratio). Whether two papers of alike titles may be one
paper is duplicates.may_be_one's to say. The Finder (one paper against the catalog:
import, the inbox, an edit) and alike_pairs (every pair at once: check) look in the
same buckets and score with the same scorer and cutoff, so they find the same pairs.
"""

from __future__ import annotations

import bisect
import itertools
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from catalog.model import normalize_title

# Titles at least this alike (0-100) are taken for one paper's, if nothing says otherwise.
NEAR_DUPLICATE = 92.0
# How check starts its finding on such a pair (an edit warns of it, never refuses it).
NEAR_DUPLICATE_MESSAGE = "title nearly the same as"


def sorted_words(normalized: str) -> str:
    """A normalised title's words in sorted order: what the score compares."""
    return " ".join(sorted(normalized.split()))


def score(a: str, b: str) -> float:
    """How alike two normalised titles' sorted words are (sorted_words): 0-100, or 0 below
    NEAR_DUPLICATE."""
    from rapidfuzz import fuzz

    return float(fuzz.ratio(a, b, score_cutoff=NEAR_DUPLICATE))


def title_score(a: str, b: str) -> float:
    """How alike two titles as written are (0 below NEAR_DUPLICATE)."""
    return score(sorted_words(normalize_title(a)), sorted_words(normalize_title(b)))


def alike(a: str, b: str) -> bool:
    """True if two titles as written are alike: the same paper's, unless ids say not."""
    return title_score(a, b) >= NEAR_DUPLICATE


def title_keys(title: str) -> list[tuple[str, ...]]:
    """The buckets a normalized title goes in: each three of its five longest words (a
    title nearly equal to it keeps at least three of them, however one or two words
    change); a title of up to four words also goes in the bucket of each of its two
    longest words, as short titles differ in a larger share of their words, and in that
    of its words run together ("Fast MoE" meets "FastMoE").

    (Sharing one of the two longest words put a common word's thousands of titles in one
    bucket; this finds every pair that comparing all pairs finds on tools/synth.py's
    catalogs.)"""
    words = sorted(set(title.split()))
    words.sort(key=len, reverse=True)  # longest first, in alphabetical order (stable)
    longest = sorted(words[:5])  # combinations of a sorted list come out sorted
    keys: list[tuple[str, ...]] = list(itertools.combinations(longest, 3))
    if len(words) > 4:
        return keys
    if len(words) < 3:
        keys = [tuple(longest)]
    keys += [(w,) for w in words[:2]]
    keys.append(("".join(title.split()),))
    return list(dict.fromkeys(k for k in keys if k and k[0]))  # one word: one key, once


def key_words(title: str) -> set[str]:
    """Every word of a normalized title's buckets: a title that shares a bucket with it
    holds each word of that bucket (its words run together hold them too)."""
    return {word for key in title_keys(title) for word in key}


def alike_pairs(normalized: list[str]) -> list[tuple[int, int]]:
    """(earlier, later) positions of every two normalised titles that share a bucket and
    score NEAR_DUPLICATE or more, ordered by the later one.

    Small buckets are scored pair by pair; big ones a block of rows at a time with
    rapidfuzz's cdist, whose numpy arrays carry the pairs (a common word's bucket of
    thousands of titles would otherwise cost a Python call per pair)."""
    titles = [sorted_words(title) for title in normalized]
    buckets: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, title in enumerate(normalized):
        for key in title_keys(title):
            buckets[key].append(i)
    count = len(titles)
    small: list[int] = []  # pairs of small buckets, as codes earlier * count + later
    for members in buckets.values():
        if 1 < len(members) <= _SMALL_BUCKET:
            small.extend(a * count + b for a, b in _alike(members, titles))
    found = big_bucket_codes([m for m in buckets.values() if len(m) > _SMALL_BUCKET], titles)
    # A pair is found in each bucket it shares: once each, by the later paper (the one a
    # finding is on, so they come nearly in the order they are reported).
    if not found:
        return [
            divmod(code, count)
            for code in sorted(set(small), key=lambda code: (code % count, code))
        ]
    import numpy  # only where big buckets need it

    codes = numpy.unique(numpy.concatenate([numpy.array(small, dtype=numpy.int64), *found]))
    firsts, seconds = numpy.divmod(codes, count)
    order = numpy.argsort(seconds, kind="stable")
    return list(zip(firsts[order].tolist(), seconds[order].tolist(), strict=True))


# Buckets up to this size are scored pair by pair; larger ones by one C call per block
# of rows against the rows after it (each pair once, bar the block's own square; never
# a big bucket's whole matrix at once).
_SMALL_BUCKET = 12
_BLOCK = 128


def _alike(members: list[int], titles: list[str]) -> Iterable[tuple[int, int]]:
    """(earlier, later) positions of the members of a small bucket whose sorted titles
    are alike, pair by pair."""
    for x, a in enumerate(members):
        for b in members[x + 1 :]:
            if score(titles[a], titles[b]):
                yield (a, b) if a < b else (b, a)


def big_bucket_codes(big: list[list[int]], titles: list[str]) -> list[Any]:
    """alike_codes of each big bucket, one bucket after the other."""
    return [codes for members in big for codes in alike_codes(members, titles)]


def alike_codes(members: list[int], titles: list[str]) -> Iterable[Any]:
    """The alike pairs of a big bucket of sorted titles as numpy arrays of earlier *
    len(titles) + later, scored a block of rows at a time against the rows after it.

    Each distinct text is scored once (members with one text are each other's pairs),
    and rows sorted by length meet only the texts not too long to reach the cutoff:
    ratio is 200 * matches / (len(a) + len(b)), so a text longer than len(a) * (200 -
    cutoff) / cutoff cannot reach it. Nothing either skips could have been a pair."""
    import numpy

    cutoff = NEAR_DUPLICATE
    count = len(titles)
    groups: dict[str, list[int]] = {}
    for i in members:
        groups.setdefault(titles[i], []).append(i)
    texts = sorted(groups, key=len)
    lengths = [len(t) for t in texts]
    firsts = numpy.array([groups[t][0] for t in texts], dtype=numpy.int64)
    several = [t for t in texts if len(groups[t]) > 1]
    multiple = numpy.array([len(groups[t]) > 1 for t in texts], dtype=bool)
    extra: list[tuple[int, int]] = []  # pairs of papers that share a text
    for text in several:  # one text, several papers: each pair, if the text meets itself
        if score(text, text):
            extra.extend(itertools.combinations(groups[text], 2))
    for start in range(0, len(texts), _BLOCK):
        stop = min(start + _BLOCK, len(texts))
        reach = bisect.bisect_right(
            lengths, int(lengths[stop - 1] * (200 - cutoff) / cutoff) + 1, lo=stop
        )
        for a, b in _block_pairs(texts, start, stop, reach, cutoff):
            yield _codes(firsts[a], firsts[b], count)
            if several:  # a text of several papers: its other papers make the same pairs
                shared = multiple[a] | multiple[b]
                for x, y in zip(a[shared].tolist(), b[shared].tolist(), strict=True):
                    extra.extend(itertools.product(groups[texts[x]], groups[texts[y]]))
    if extra:
        pairs = numpy.array(extra, dtype=numpy.int64)
        yield _codes(pairs[:, 0], pairs[:, 1], count)


def _block_pairs(
    texts: list[str], start: int, stop: int, reach: int, cutoff: float
) -> Iterable[tuple[Any, Any]]:
    """(earlier, later) positions, as numpy arrays, of the alike pairs of the texts
    start:stop with each other and with the texts stop:reach: the block with itself by
    one call on one list, which scores each pair once (the square scored both halves:
    the 100k synthetic catalog's buckets took a sixth more CPU), then the block against
    the texts after it. (The scorer and cutoff are score()'s.)"""
    from rapidfuzz import fuzz, process

    own = texts[start:stop]
    scores = process.cdist(own, own, scorer=fuzz.ratio, score_cutoff=cutoff, dtype="uint8")
    rows, columns = scores.nonzero()
    right = columns > rows  # right of the diagonal: each pair once, never with itself
    yield start + rows[right], start + columns[right]
    if reach > stop:
        scores = process.cdist(
            own, texts[stop:reach], scorer=fuzz.ratio, score_cutoff=cutoff, dtype="uint8"
        )
        rows, columns = scores.nonzero()
        yield start + rows, stop + columns


def _codes(a: Any, b: Any, count: int) -> Any:
    """Pairs of positions as earlier * count + later."""
    import numpy

    return numpy.minimum(a, b) * count + numpy.maximum(a, b)
