"""The field's words as search sees them: text cut into folded words, each reduced to its
Snowball English stem (PyStemmer), at index time and at query time alike.

Snowball English, not Porter: Porter cuts generative, generic, generation, general and
generalized to one stem ("gener"), so "generative recommenders" found MTIA ("First
Generation Silicon ... Recommendation Systems") first. Snowball keeps generic and
general(ized) apart; PINNED keeps the few words of this field it still merges or splits
badly. site/javascripts/stem.js is the same stemmer for the site (tests/test_stems.py
compares the two on every word of the catalog).
"""

from __future__ import annotations

import functools
import re

import Stemmer

from catalog.model import fold

# A word: letters and digits, as SQLite's unicode61 tokenizer cuts text ('_' separates).
WORD_RE = re.compile(r"[^\W_]+")
# Stems Snowball gets wrong for this field: generative ("generat") would meet
# generation, generate and generator ("MTIA: First Generation Silicon"); embed ("emb")
# would miss embedding and embedded ("embed"); an accelerator is hardware ("acceler"
# would meet every paper "accelerating" something: "recommendation inference
# accelerator" listed a compiler and a GPU library among the chips).
PINNED = {
    "generative": "generative",
    "generatively": "generative",
    "embed": "embed",
    "embeds": "embed",
    "accelerator": "accelerator",
    "accelerators": "accelerator",
    # Snowball keeps an s after a u ("gpus"): the field's processors in the plural.
    **{f"{unit}s": unit for unit in ("gpu", "tpu", "cpu", "npu", "dpu", "ipu", "xpu")},
}
_STEMMER = Stemmer.Stemmer("english")


def words(text: str) -> list[str]:
    """The text's words, folded (lower case, no accents, ß as ss), in order."""
    return WORD_RE.findall(fold(text))


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """One folded word's stem."""
    return PINNED.get(word) or _STEMMER.stemWord(word)


def stems(text: str | None) -> str | None:
    """The text as its words' stems, one space apart (what the full-text index holds)."""
    if not text:
        return None
    # No word spans a blank, and most pieces between blanks repeat ("the", "Embedding,"):
    # each distinct piece is cut and stemmed once, not the whole text every time.
    return " ".join(filter(None, map(_piece_stems, text.split())))


@functools.lru_cache(maxsize=1 << 17)
def _piece_stems(piece: str) -> str:
    return " ".join(map(stem, words(piece)))
