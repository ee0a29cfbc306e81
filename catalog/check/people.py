"""data/authors.yaml against the papers: what `papers check` reports about the people it
names, and the judge of an edit of the file (one that adds a problem is refused).

The file's own rules (its shape, ids, a spelling under two people) stop its reader
(catalog.data.authors); these need the papers: a spelling or a claimed place no paper
has, and one person twice among a paper's authors (two authors of one paper are two
people).
"""

from __future__ import annotations

from collections.abc import Sequence

from catalog.data import authors as authorsfile
from catalog.data.authors import Authors, Entry, Who
from catalog.data.reader import where
from catalog.errors import InvalidCatalogError, Problem
from catalog.hints import hint_for
from catalog.model import OTHERS, Paper

SPLIT_HINT = (
    "two authors of one paper are two people: if they are, give one an id in "
    "data/authors.yaml that claims {place} (docs/pages/catalog-format.md); else remove one"
)


def problems(authors: Authors, papers: Sequence[Paper], catalog: str) -> list[Problem]:
    """What check reports about authors.yaml's people, given the papers (catalog: the
    catalog file's name, for a paper that names one person twice)."""
    by_key = {p.key: p for p in papers}
    used = {name for p in papers for name in p.authors}
    out: list[Problem] = []
    for entry in authors.entries.values():
        if entry.claims:
            out += _claims(authors.file, entry, by_key)
        else:
            out += _unused(authors.file, entry, used)
        out += [
            _at(
                authors.file,
                entry,
                f"different: '{name}' is the name of no author in the catalog",
                "write it as papers.yaml writes it, or remove it",
            )
            for name in entry.different
            if name not in used and name not in authors.entries
        ]
    for paper in papers:
        out += _twice(authors, paper, catalog)
    return out


def _at(file: str, entry: Entry, message: str, hint: str) -> Problem:
    return Problem(file, entry.line, entry.key, message, hint)


def _unused(file: str, entry: Entry, used: set[str]) -> list[Problem]:
    """Spellings no paper writes (a typo there would silently join nothing); the shown
    name may be none of them, unless it is the entry's only name."""
    others = [s for s in entry.spellings if s != entry.name] or [entry.name]
    return [
        _at(
            file,
            entry,
            f"'{spelling}' is the name of no author in the catalog",
            "write it as papers.yaml writes it, or remove it",
        )
        for spelling in others
        if spelling not in used
    ]


def _claims(file: str, entry: Entry, by_key: dict[str, Paper]) -> list[Problem]:
    """Places claimed that no paper has, or where the paper writes another name."""
    out = []
    for key, number in entry.claims:
        paper = by_key.get(key)
        if paper is None:
            hint = hint_for(key, by_key) or "write the key of a paper in the catalog"
            out.append(_at(file, entry, f"papers: no paper with key '{key}'", hint))
        elif number > len(paper.authors):
            out.append(
                _at(
                    file,
                    entry,
                    f"papers: {key} has {len(paper.authors)} authors, no author {number}",
                    "count the authors from 1",
                )
            )
        elif paper.authors[number - 1] not in entry.spellings:
            written = paper.authors[number - 1]
            out.append(
                _at(
                    file,
                    entry,
                    f"papers: author {number} of {key} is '{written}', not {entry.name}",
                    f"claim the number at which {key} names {entry.name}, or add "
                    f"'{written}' to spellings",
                )
            )
    return out


def _twice(authors: Authors, paper: Paper, catalog: str) -> list[Problem]:
    """One person at two places of a paper's authors: two spellings authors.yaml joins,
    or one spelling written twice that no entry tells apart."""
    places: dict[Who, list[int]] = {}
    for number, spelling in enumerate(paper.authors, 1):
        if spelling != OTHERS and spelling.strip():
            places.setdefault(authors.who(paper.key, number, spelling), []).append(number)
    out = []
    for who, numbers in places.items():
        if len(numbers) < 2:
            continue
        shown = " and ".join(str(n) for n in numbers)
        names = ", ".join(dict.fromkeys(f"'{paper.authors[n - 1]}'" for n in numbers))
        if isinstance(who, Entry):
            message = f"{names}: one person here, but authors {shown} of {paper.key}"
            hint = "two authors of one paper are two people: keep their names apart"
            out.append(_at(authors.file, who, message, hint))
        else:
            hint = SPLIT_HINT.format(place=f"{paper.key}#{numbers[-1]}")
            place = where(paper.year, paper.venue, paper.key)
            message = f"{names} is authors {shown}: one person, twice"
            out.append(Problem(catalog, paper.line, place, message, hint))
    return out


def judge(
    before: str, after: str, papers: Sequence[Paper], shown: str, catalog: str
) -> list[Problem]:
    """The problems a new text of authors.yaml adds to those of its text before (by
    place and message, lines aside): an edit that adds any is refused."""
    new = _all(after, papers, shown, catalog)
    if not new:
        return []
    old = {(p.where, p.message) for p in _all(before, papers, shown, catalog)}
    return [p for p in new if (p.where, p.message) not in old]


def _all(text: str, papers: Sequence[Paper], shown: str, catalog: str) -> list[Problem]:
    try:
        authors = authorsfile.parse(text, shown)
    except InvalidCatalogError as err:
        return err.problems
    return problems(authors, papers, catalog)
