"""Short names for the venues a .bib file proposes: the acronym its entries' keys or DOIs
spell, initials, the name as the registry writes it, and one venue per name however
the entries spell it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import replace

from catalog.bib.venuematch import is_acronym
from catalog.data.registry import Venue, venue_key


def named_venue(proposed: list[Venue]) -> Venue:
    """The venue a group of proposals is: the best name, under the acronym the entries give
    when the best-named one gives none (DBLP's 2008 PLDI names no acronym, its 2018 one
    does)."""
    best = _best(proposed)
    if best.publisher is None:  # the best-named entry may be the one that names none
        best = replace(best, publisher=next((v.publisher for v in proposed if v.publisher), None))
    if is_acronym(best.short):
        return best
    acronyms = Counter(v.short for v in proposed if is_acronym(v.short))
    return replace(best, short=acronyms.most_common(1)[0][0]) if acronyms else best


def _best(proposed: list[Venue]) -> Venue:
    """A descriptive name first (words, not just the acronym), then the commonest, longest,
    and of one name's spellings the one with most capitals ('Neural Computation', not
    Google Scholar's 'Neural computation')."""
    names = [v.name.casefold() for v in proposed]
    return max(
        proposed,
        key=lambda v: (
            bool(re.search(r"[a-z]", v.name)),
            names.count(v.name.casefold()),
            len(v.name),
            sum(c.isupper() for c in v.name),
        ),
    )


_ORGANISER_CASE_RE = re.compile(
    r"\b(?:acm|ieee|usenix|siam|spie|sig(?:plan|ops|mod|kdd|comm|arch|graph|ir|metrics|"
    r"mobile|ecom|soft|cse|micro|chi|mm|sac|bed|ada|mis|web))\b",
    re.IGNORECASE,
)


def capitalise_organisers(name: str) -> str:
    """A name with its organisers written as they write themselves: 'Acm Sigplan Notices'
    is 'ACM SIGPLAN Notices' (Google Scholar's exports write them in title case)."""
    return _ORGANISER_CASE_RE.sub(lambda m: m.group().upper(), name)


# The organisers' words a venue's acronym leaves out ('IEEE Transactions on Neural
# Networks' is TNN, 'ACM Computing Surveys' CSUR).
_ORGANISER_WORDS = frozenset({"acm", "ieee", "iee", "usenix", "siam", "annual"})


def short_name(name: str, taken: Collection[str]) -> tuple[str, bool]:
    """A short name for a new venue the entries give no acronym for, as the registry writes
    them: a name of one or two words joined by '-' ('Neural-Computation', as
    'IEEE-Access'), the acronym a name of up to three words holds ('PhD Thesis, CMU'; the
    whole name where it holds two: 'PLOS-ONE'), else the initials of three to six words
    ('International Journal of Computer Vision': IJCV) unless taken; and whether it was
    made from initials. An abbreviated name ('Ann. Math.') is short already."""
    if re.search(r"\w\.\s", name + " "):
        return name, False  # 'Ann. Math.', 'SIGOPS Oper. Syst. Rev.': a short form already
    words = re.findall(r"[^\W\d_][\w']*", name)
    capitals = [
        w
        for w in words
        if len(w) >= 3
        and w.isupper()
        and w.casefold() not in _ORGANISER_WORDS
        and not w.startswith("SIG")
    ]
    if len(words) <= 3 and len(capitals) == 1:
        return capitals[0], False  # 'PhD Thesis, CMU', 'JOSA A': the acronym it holds
    if len(words) <= 3 and capitals:
        return "-".join(words), False  # 'PLOS ONE': no one word of it is the journal
    kept = [
        w
        for w in words
        if w.casefold() not in _SMALL_WORDS | _ORGANISER_WORDS and not re.match(r"SIG[A-Z]", w)
    ]
    if len(kept) > 6:
        return name, False  # no acronym is that long: the name, for review
    if len(kept) >= 3:
        made = "".join(w[0].upper() for w in kept)
        if made.casefold() not in {t.casefold() for t in taken}:
            return made, True
    return "-".join(words) or name, False


# Words a venue's acronym may leave out when a citation key spells it ('ACM SIGPLAN
# International Conference on Programming Language Design and Implementation': pldi).
_SKIPPABLE_RE = re.compile(
    r"^(?:acm|ieee|usenix|siam|sig[a-z]+|annual|international|conference|symposium|"
    r"workshop|proceedings|journal)$",
    re.IGNORECASE,
)
_KEY_TOKEN_RE = re.compile(r"[A-Za-z]{3,12}")
_NAME_WORDS_RE = re.compile(r"[A-Za-z]+")


def key_acronym(key: str, name: str, doi: str = "") -> tuple[str, bool] | None:
    """The acronym a citation key or DOI gives for a venue's name (IEEE's DOIs name it in
    capitals: '10.1109/TRO.2021.1'; a DOI's word in lower case is a publisher's code,
    'j.ins', 'journal.pone'), in the capitals they write it in, if any; and whether its
    capitals were guessed. It is a word of the key ('DBLP:conf/corl/HuangXS20',
    'corl/2020/huang') that is a capitalised word of the name ('SIGMOD'), or that the
    name's words spell in order, each giving its first letters, a small word at most its
    first in lower case, and only small or organisers' words none ('Conference on Robot
    Learning': 'CoRL', 'Symposium on Cloud Computing': 'SoCC'). None if no word does."""
    words = _NAME_WORDS_RE.findall(name)[:30]
    if all(_SKIPPABLE_RE.match(w) or w.casefold() in _SMALL_WORDS for w in words):
        return None
    tokens = _KEY_TOKEN_RE.findall(key)
    tokens += [t for t in _KEY_TOKEN_RE.findall(doi) if not t.islower()]
    for token in tokens:
        same = [w for w in words if w.casefold() == token.casefold() and is_acronym(w)]
        if same:
            return same[0], False
        pieces = _spell(token.lower(), words)
        if pieces is not None and sum(bool(p) for p in pieces) >= 2:
            if not token.islower():  # written with capitals: as the key or DOI writes it
                return token, False
            # capitals are a guess where a word gave more than its first letter
            guessed = any((len(p) > 1 and not p.isupper()) or p.islower() for p in pieces)
            return "".join(pieces), guessed
    return None


def _spell(token: str, words: list[str]) -> list[str] | None:
    """The letters each word gives to spell token ('' for a word left out), as an acronym
    writes them: a small word's in lower case ('on' in SoCC), a capitalised word's as
    written ('SIG'), another's first letter in capitals ('Co' in CoRL); or None."""
    failed: set[tuple[int, int]] = set()  # (letters spelled, words used) that lead nowhere

    def walk(at: int, index: int) -> list[str] | None:
        if index == len(words):
            return [] if at == len(token) else None
        if (at, index) in failed:
            return None
        word = words[index]
        small = word.casefold() in _SMALL_WORDS
        for size in range(1, min(1 if small else len(word), len(token) - at) + 1):
            if word[:size].lower() != token[at : at + size]:
                break
            rest = walk(at + size, index + 1)
            if rest is not None:
                piece = word[:size] if word[:size].isupper() else word[:size].capitalize()
                return [word[:size].lower() if small else piece, *rest]
        if small or _SKIPPABLE_RE.match(word):
            rest = walk(at, index + 1)
            if rest is not None:
                return ["", *rest]
        failed.add((at, index))
        return None

    return walk(0, 0)


# Words an acronym leaves out ('International Conference on Data Mining' is ICDM).
_SMALL_WORDS = frozenset({"of", "on", "and", "in", "for", "the", "at", "to", "a", "an", "&"})
_GENERIC_WORDS = frozenset(
    {
        "acm",
        "ieee",
        "usenix",
        "siam",
        "proceedings",
        "international",
        "annual",
        "conference",
        "symposium",
        "workshop",
        "journal",
    }
)


def initials(name: str) -> set[str]:
    """The acronyms a full name may go by: its words' initials, with and without the
    organisers' and generic words ('IEEE International Conference on Data Mining':
    'IICDM', 'ICDM', 'DM')."""
    words = [w for w in re.findall(r"[A-Za-z]+|&", name) if w.casefold() not in _SMALL_WORDS]
    if len(words) < 2:
        return set()
    found = set()
    for drop in (
        frozenset(),
        _GENERIC_WORDS - {"international", "conference", "symposium", "workshop", "journal"},
        _GENERIC_WORDS,
    ):
        kept = [w for w in words if w.casefold() not in drop]
        if len(kept) >= 2:
            found.add("".join(w[0] for w in kept).upper())
    return found


def acronym_of(name: str, acronym: str) -> bool:
    """True when acronym ('ICDM', 'ITiCSE': its capitals) is the initials of name."""
    caps = "".join(c for c in acronym if c.isupper())
    return len(caps) >= 3 and is_acronym(acronym) and caps in initials(name)


def join_acronyms(groups: list[list[Venue]]) -> list[list[Venue]]:
    """Groups of proposals named only by an acronym ('ITiCSE') joined to the group whose
    full name it abbreviates ('Conference on Innovation and Technology in Computer Science
    Education'): one venue met both ways in one import is one venue."""

    def bare(group: list[Venue]) -> str | None:
        """The one acronym a group is named by, if it has no full name."""
        shorts = {v.short for v in group}
        only = next(iter(shorts))
        named = any(v.name not in ("", v.short) for v in group)
        return only if len(shorts) == 1 and is_acronym(only) and not named else None

    out = [g for g in groups if bare(g) is None]
    for group in groups:
        acronym = bare(group)
        if acronym is None:
            continue
        home = next(
            (g for g in out if bare(g) is None and any(acronym_of(v.name, acronym) for v in g)),
            None,
        )
        if home is None:
            out.append(group)
        else:
            home += group
    return out


# Words two spellings of one proposed venue may differ by ('Annual International ACM/IEEE
# Joint Conference on Digital Libraries', 'ACM/IEEE-CS Joint Conference on ...').
# Organisers stay: 'ACM Transactions on X' is not 'IEEE Transactions on X'.
_INCIDENTAL_WORDS = frozenset({"annual", "international", "cs"})


def core_key(name: str) -> str:
    """A proposed venue's name without 'Annual', 'International' and IEEE's '-CS' (''
    if fewer than three words are left): one venue however a file's entries spell it."""
    words = [w for w in venue_key(name).split() if w not in _INCIDENTAL_WORDS]
    return " ".join(words) if len(words) >= 3 else ""
