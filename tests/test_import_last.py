"""Issue 33: the last few percent of import, each item from a shape written here (after
the public lists and .bib files where it was seen): no field lost, none invented."""

from __future__ import annotations

from catalog.data.registry import load_venues
from catalog.ingest import listfields, lists
from tests.conftest import REPO

REGISTRY = load_venues(REPO / "data" / "venues.yaml")


def parse(text: str) -> listfields.Parsed:
    return lists.parse(text, REGISTRY)


def one(text: str) -> listfields.Entry:
    parsed = parse(text)
    assert len(parsed.entries) == 1, parsed.not_papers
    return parsed.entries[0]


def test_capitalised_title_is_a_title_not_a_name() -> None:
    # 33.1: five capitalised words read as one person's name lost the paper
    entry = one(
        "# GNN\n\n1. **Multi-Component Graph Convolutional Collaborative Filtering.** "
        "AAAI, 2020. [paper](https://arxiv.org/abs/1911.10699)\n"
    )
    assert (entry.title, entry.venue, entry.year) == (
        "Multi-Component Graph Convolutional Collaborative Filtering",
        "AAAI",
        2020,
    )
    assert entry.authors == [] and entry.first_author is None


def test_a_short_name_list_is_still_names() -> None:
    assert listfields.names_of("Diego de las Casas, Michael I. Jordan")[0] == [
        "Diego de las Casas",
        "Michael I. Jordan",
    ]
    assert listfields.names_of("Yang You")[0] == ["Yang You"]
    assert listfields.names_of("Deep Interest Evolution Network")[0] is None
    assert listfields.names_of("Neural Computation")[0] is None


def test_venue_line_of_a_record_is_not_an_author() -> None:
    # 33.5: 'Title\\' / '_Authors_\\' / 'Venue, [[Paper](url)]\\' / 'Year'
    entry = one(
        "# MoE\n\n- **Adaptive Mixtures of Local Experts**\\\n"
        "_Michael I. Jordan, Robert A. Jacobs_\\\n"
        "Nature Communications, [[Paper](https://example.org/jordan.pdf)]\\\n1991\n"
    )
    assert entry.authors == ["Michael I. Jordan", "Robert A. Jacobs"]
    assert (entry.venue, entry.year) == ("Nature Communications", 1991)


def test_a_translated_note_is_not_an_author() -> None:
    # 33.6: a translation in 【】 after the venue
    entry = one(
        "# Rec\n\n- [Routing Transformer Trips](https://arxiv.org/abs/2201.00003) RecSys 2022 "
        "【利用多任务 Transformer 进行多目标的路线推荐】\n"
    )
    assert (entry.title, entry.venue, entry.year) == ("Routing Transformer Trips", "RecSys", 2022)
    assert entry.authors == [] and entry.first_author is None
    assert listfields.names_of("利用多任务 Transformer 进行多目标的路线推荐")[0] is None
