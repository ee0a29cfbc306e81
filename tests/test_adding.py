"""catalog.ingest.adding, the work of papers add: what is asked, what is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from catalog.data import reader
from catalog.errors import CatalogError, UsageError
from catalog.ingest import adding
from catalog.paths import Paths
from tests.test_fetch import BAGPIPE_WORK, Online, online  # noqa: F401  (the fixture)


class Keyboard:
    """Answers typed in turn; every question asked is logged, refusals too."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []
        self.refused: list[str] = []

    def __call__(self, question: str, read: Callable[[str], Any]) -> Any:
        while True:
            self.asked.append(question)
            try:
                return read(self.answers.pop(0))
            except CatalogError as err:
                self.refused.append(str(err))


def test_only_what_is_missing_is_asked_and_a_refused_answer_again(paths: Paths) -> None:
    keyboard = Keyboard("Ada Tester; Bo Example", "osdl", "osdi")
    wanted = adding.Wanted(title="Tessellate: Caching Embeddings in Tiles", year=2023)
    added = adding.add(paths, wanted, ask=keyboard)
    assert keyboard.asked == [
        "Authors (separated by ';')",
        "Venue (short name, e.g. OSDI)",
        "Venue (short name, e.g. OSDI)",
    ]
    assert keyboard.refused == [f"'osdl' is not in {paths.venues}; did you mean 'OSDI'?"]
    assert added.refusal is None and added.report.outcomes[0].key == "tester2023tessellate"
    paper = {p.key: p for p in reader.load(paths.catalog)}["tester2023tessellate"]
    assert paper.venue == "OSDI" and paper.authors == ["Ada Tester", "Bo Example"]


def test_answers_are_read_by_the_rules_of_the_flags(paths: Paths) -> None:
    keyboard = Keyboard("", "A Title", "Doe, J, Roe", "Jane Doe", "23", "2023", "OSDI")
    adding.add(paths, adding.Wanted(), dry_run=True, ask=keyboard)
    assert keyboard.refused[0] == "a paper needs a title"
    assert "cannot tell the names apart" in keyboard.refused[1]
    assert keyboard.refused[2].startswith("'23' is not a year")
    assert keyboard.asked == [
        "Title",
        "Title",
        "Authors (separated by ';')",
        "Authors (separated by ';')",
        "Year",
        "Year",
        "Venue (short name, e.g. OSDI)",
    ]


def test_what_is_missing_without_a_keyboard_is_a_usage_error(paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    with pytest.raises(UsageError, match=r"^missing --author, --venue \(or give --doi"):
        adding.add(paths, adding.Wanted(title="T", year=2023))
    with pytest.raises(UsageError, match="--year 23 is not a year"):
        adding.add(paths, adding.Wanted(title="T", year=23))
    with pytest.raises(UsageError, match="is not a DOI"):
        adding.add(paths, adding.Wanted(doi="doi 10.1/x"))
    assert paths.catalog.read_bytes() == before


def test_fetched_fields_are_not_asked_again(paths: Paths, online: Online) -> None:
    online.crossref["10.1145/3600006.3613142"] = BAGPIPE_WORK
    keyboard = Keyboard()
    wanted = adding.Wanted(doi="10.1145/3600006.3613142", venue="OSDI")
    added = adding.add(paths, wanted, dry_run=True, ask=keyboard)
    assert keyboard.asked == []  # title, authors and year came from Crossref
    assert added.paper.title == "Bagpipe: Accelerating Deep Recommendation Model Training"
    assert added.paper.venue == "OSDI" and added.report.dry_run


def test_a_duplicate_is_reported_with_its_refusal(paths: Paths) -> None:
    wanted = adding.Wanted(
        title="FastMoE: a fast mixture-of-expert training system",
        authors=["Jiaao He"],
        year=2021,
        venue="arXiv",
    )
    added = adding.add(paths, wanted)
    assert added.report.outcomes[0].action == "duplicate"
    assert added.refusal is not None and added.refusal.startswith("not added: ")
    assert added.refusal.endswith("(use --merge to fill the fields it lacks)")
