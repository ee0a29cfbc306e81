"""'Did you mean' suggestions."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The closest choice to word, compared case-insensitively, or None."""
    by_lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=cutoff)
    return by_lower[close[0]] if close else None


def hint_for(word: str, choices: Iterable[str]) -> str:
    """'did you mean 'x'?' or an empty string."""
    best = did_you_mean(word, choices)
    return f"did you mean '{best}'?" if best else ""
